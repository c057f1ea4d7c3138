/*
 * rt_app.c - a measured program for the runtime tests. The wrappers below
 * follow the body pattern of libwrap.h exactly, as generated wrappers do
 * (errno is left to the runtime, which keeps it: runtime_errno checks that);
 * each scenario (argv[1]) makes a known set of calls that the test scripts
 * check in profile.json (check_profile.py).
 */
#define _GNU_SOURCE /* clone */
#include "libwrap/libwrap.h"
#include "rt_lib.h"

#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <sched.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define WRAP(name, params, args)                                                                   \
    static libwrap_region name##_region = LIBWRAP_REGION_INIT(#name, #name, "rt_lib.h", __LINE__); \
    int name params                                                                                \
    {                                                                                              \
        int32_t id = libwrap_region_id(&name##_region);                                            \
        if (id < 0)                                                                                \
            return real_##name args;                                                               \
        int recorded = libwrap_enter(id, __builtin_frame_address(0));                              \
        int result = real_##name args;                                                             \
        if (recorded)                                                                              \
            libwrap_exit(id);                                                                      \
        return result;                                                                             \
    }

WRAP(lib_add, (int a, int b), (a, b))
WRAP(lib_call, (int (*cb)(int), int x), (cb, x))
WRAP(lib_recurse, (int n), (n))
WRAP(lib_fail, (void), ())
WRAP(lib_exit, (int status), (status))
WRAP(lib_crash, (int how), (how))
WRAP(lib_jump, (jmp_buf * env, int value), (env, value))
WRAP(lib_fork, (void), ())
WRAP(lib_clone, (int flags, int (*fn)(void *)), (flags, fn))

static long calls = 1000;
static const char *self;

static void *worker(void *arg)
{
    long sum = 0;
    for (long i = 0; i < calls; i++)
        sum += lib_add((int)i, 1);
    return (void *)sum;
}

/* N threads x `calls` calls of lib_add. */
static int run_threads(int n)
{
    pthread_t t[64];
    for (int i = 0; i < n; i++)
        if (pthread_create(&t[i], NULL, worker, NULL)) {
            fprintf(stderr, "rt_app: pthread_create failed\n");
            return 1;
        }
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    return 0;
}

static int add_one(int x)
{
    return lib_add(x, 1);
}

static int nested_cb(int x)
{
    return lib_call(add_one, x) + lib_recurse(3);
}

/* lib_call -> (callback) -> lib_add; lib_call -> lib_call -> lib_add and
 * lib_recurse x3; lib_recurse 5 deep. */
static int run_nest(void)
{
    int r = lib_call(add_one, 1);
    r += lib_call(nested_cb, 2);
    r += lib_recurse(5);
    printf("nest %d\n", r);
    return 0;
}

/* One call of 3 ms, timed by the program as well: a run of a few ms, whose
 * tick rate is measured over that span alone (timer.c). */
static int sleep_us(int us)
{
    struct timespec ts = {0, us * 1000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
    return us;
}

static int run_timer(void)
{
    struct timespec a, b;
    lib_call(sleep_us, 1); /* the measurement's one-time costs */
    clock_gettime(CLOCK_MONOTONIC, &a);
    int r = lib_call(sleep_us, 3000);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("timer %d %lld\n", r,
           (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
    return 0;
}

/* A library function whose calls each make 5000 measured calls, 20 times:
 * its per-call times (min, max) must be its own, not its callees'
 * measurement (docs/runtime.md, "Overhead and its compensation"). The
 * callees' measurement, some 100 us a call, is what sets a call measured
 * without compensation apart: more than a virtual machine's pauses of a
 * few tens of us. */
static int add_many(int x)
{
    for (int i = 0; i < 5000; i++)
        x = lib_add(x, 1);
    return x;
}

static int run_percall(void)
{
    int r = 0;
    for (int i = 0; i < 20; i++)
        r += lib_call(add_many, i);
    printf("percall %d\n", r);
    return 0;
}

static jmp_buf jump_env;

static int jump_cb(int x)
{
    lib_add(x, 0);
    lib_jump(&jump_env, 2); /* back to run_longjmp, past two wrappers */
    return 0;
}

/* 10 x longjmp out of lib_jump; 5 x longjmp out of lib_call -> lib_jump;
 * then calls that must land at the root of the tree. */
static int run_longjmp(void)
{
    volatile int n = 0;
    if (setjmp(jump_env) < 10 + 5) {
        n++;
        if (n <= 10)
            lib_jump(&jump_env, n);
        else if (n <= 15)
            lib_call(jump_cb, n);
    }
    for (int i = 0; i < 3; i++)
        lib_add(i, i);
    lib_call(add_one, 0);
    return 0;
}

static int run_errno(void)
{
    errno = 0;
    int r = lib_fail(); /* first call: registration happens inside */
    int e1 = errno;
    errno = ERANGE;
    lib_add(1, 2);
    int e2 = errno;
    errno = 0;
    r += lib_fail();
    int e3 = errno;
    printf("errno %s %s %s\n", e1 == EDOM ? "ok" : strerror(e1), e2 == ERANGE ? "ok" : strerror(e2),
           e3 == EDOM ? "ok" : strerror(e3));
    return e1 == EDOM && e2 == ERANGE && e3 == EDOM && r == -2 ? 0 : 1;
}

/* A thread with the smallest stack (PTHREAD_STACK_MIN, glibc's TLS and
 * thread descriptor inside it) makes the process's first measured calls,
 * then ends the process with exit(3) ("exit"), or forks ("fork": the
 * child calls once more and exits, the thread returns). */
static void *smallstack_thread(void *arg)
{
    const char *how = arg;
    lib_add(1, 2);
    lib_add(3, 4);
    if (!strcmp(how, "exit")) {
        printf("small thread: exit\n");
        fflush(stdout);
        exit(3);
    }
    pid_t pid = fork();
    if (pid == 0) {
        lib_add(5, 6);
        exit(0);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
        return (void *)1;
    printf("small thread: forked\n");
    return NULL;
}

static int run_smallstack(const char *how)
{
    pthread_attr_t a;
    pthread_t t;
    void *r = (void *)1;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, PTHREAD_STACK_MIN);
    if (pthread_create(&t, &a, smallstack_thread, (void *)how) != 0 || pthread_join(t, &r) != 0)
        return 2;
    lib_add(7, 8);
    return r != NULL;
}

static int run_fork(void)
{
    lib_add(1, 1);
    lib_add(1, 1);
    int pid = lib_fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        for (int i = 0; i < 5; i++)
            lib_add(i, 1);
        lib_call(add_one, 1);
        printf("child %d\n", (int)getpid());
        fflush(stdout);
        exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    /* A child that measures nothing and forks a grandchild, both ending by
     * exit(): nothing of theirs is written (the child claimed a fork-PID
     * holding only config.txt, its inherited functions taken for its own). */
    pid_t quiet = fork();
    if (quiet == 0) {
        pid_t q = fork();
        if (q > 0)
            waitpid(q, NULL, 0);
        exit(0);
    }
    if (quiet > 0)
        waitpid(quiet, NULL, 0);
    lib_add(2, 2);
    printf("parent, child status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}

/* The children of clone(): 6 x lib_add, 1 x lib_call, then exit(0) or a
 * return of 3 (glibc's clone then ends the child with the exit system
 * call: stdio is not flushed). */
static int clone_calls(void)
{
    for (int i = 0; i < 5; i++)
        lib_add(i, 1);
    lib_call(add_one, 1);
    printf("child %d\n", (int)getpid());
    fflush(stdout);
    return 3;
}

static int clone_exit(void *arg)
{
    clone_calls();
    exit(0);
}

static int clone_return(void *arg)
{
    return clone_calls();
}

static const char *clone_exec_to;

/* In the parent's memory (CLONE_VM | CLONE_VFORK): exec or _exit only. */
static int clone_vfork(void *arg)
{
    if (clone_exec_to)
        execl(clone_exec_to, clone_exec_to, "none", (char *)NULL);
    _exit(5);
}

/*
 * clone() as fork(): HOW is "exit" (the child calls exit), "return" (its
 * function returns), "vfork" (CLONE_VM | CLONE_VFORK, the child _exits),
 * "vfork-exec" (the same, the child execs this program measuring nothing).
 * The parent makes 2 calls of lib_add before, one after, and lib_clone.
 */
static int run_clone(const char *how)
{
    int flags = SIGCHLD;
    int (*fn)(void *) = clone_exit;
    if (!strcmp(how, "return")) {
        fn = clone_return;
    } else if (!strncmp(how, "vfork", 5)) {
        flags |= CLONE_VM | CLONE_VFORK;
        fn = clone_vfork;
        clone_exec_to = how[5] ? self : NULL;
    } else if (strcmp(how, "exit")) {
        return 2;
    }
    lib_add(1, 1);
    lib_add(1, 1);
    /* Refused by glibc after the runtime prepared it: the parent goes on. */
    errno = 0;
    if (clone(fn, NULL, flags, NULL) != -1 || errno != EINVAL) {
        printf("clone without a stack: %s\n", strerror(errno));
        return 1;
    }
    int pid = lib_clone(flags, fn);
    if (pid < 0) {
        perror("rt_app: clone");
        return 1;
    }
    int status;
    if (waitpid(pid, &status, 0) != pid) {
        perror("rt_app: waitpid");
        return 1;
    }
    lib_add(2, 2);
    printf("parent, child status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}

static int forks_done;

/* Forks `calls` times; each child makes one call and exits. */
static void *forker(void *arg)
{
    long failed = 0;
    for (long i = 0; i < calls; i++) {
        int pid = lib_fork();
        if (pid == 0) {
            lib_add(1, 1);
            exit(0);
        }
        int status;
        if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
            failed++;
        __atomic_add_fetch(&forks_done, 1, __ATOMIC_SEQ_CST);
    }
    return (void *)failed;
}

/* fork() racing with finalisation: the atfork handlers and the finaliser
 * take the runtime's locks, in the same order or a deadlock (and a
 * ThreadSanitizer lock-order report) follows. */
static int run_forkfinish(void)
{
    pthread_t t;
    void *failed;
    lib_add(1, 1);
    if (pthread_create(&t, NULL, forker, NULL)) {
        fprintf(stderr, "rt_app: pthread_create failed\n");
        return 1;
    }
    while (__atomic_load_n(&forks_done, __ATOMIC_SEQ_CST) < 1)
        usleep(1000);
    libwrap_finalize();
    pthread_join(t, &failed);
    printf("forks %ld failed %ld\n", calls, (long)failed);
    return failed != NULL;
}

static int ready;

static void *blocked(void *arg)
{
    lib_call(add_one, 1);
    __atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
    pause(); /* still running, outside any wrapper, when main returns */
    return arg;
}

static int park_cb(int x)
{
    __atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
    pause(); /* inside lib_call when the process ends */
    return x;
}

static void *blocked_inside(void *arg)
{
    lib_call(park_cb, 1);
    return arg;
}

/* A program that handles SIGTERM itself: its handler cleans up, restores
 * the default action (sigaction, or signal() when `how` is 1, or the
 * kernel as it delivers the signal when `how` is 2: SA_RESETHAND, or
 * sigaction with SA_SIGINFO among the flags when `how` is 3, as Go's
 * runtime does) and raises the signal again, to die by it (xz, Python's
 * KeyboardInterrupt). What it sees of the actions is its own. */
static int reraise_how;
static void reraise_say(const char *msg)
{
    ssize_t w = write(1, msg, strlen(msg));
    (void)w;
}

static void reraise_handler(int sig)
{
    reraise_say("cleaning up\n");
    if (reraise_how == 0 || reraise_how == 3) {
        struct sigaction dfl, old, now;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        if (reraise_how == 3)
            dfl.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        if (sigaction(sig, &dfl, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != reraise_handler)
            reraise_say("sigaction: not the handler installed\n");
        if (sigaction(sig, NULL, &now) != 0 || now.sa_handler != SIG_DFL ||
            (now.sa_flags & (SA_SIGINFO | SA_ONSTACK | SA_RESTART)) != dfl.sa_flags)
            reraise_say("sigaction: not the default action set\n");
    } else if (reraise_how == 1) {
        if (signal(sig, SIG_DFL) != reraise_handler)
            reraise_say("signal: not the handler installed\n");
    } else {
        struct sigaction cur;
        if (sigaction(sig, NULL, &cur) != 0 || (cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL)
            reraise_say("SA_RESETHAND: not the default action\n");
    }
    raise(sig);
}

static int run_reraise(int how)
{
    reraise_how = how;
    struct sigaction cur;
    sigaction(SIGTERM, NULL, &cur);
    printf("SIGTERM at the start: %s\n",
           !(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_DFL ? "the default" : "another action");
    fflush(stdout);
    if (how != 1) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = reraise_handler;
        sa.sa_flags = how == 2 ? SA_RESETHAND : 0;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGTERM, &sa, NULL);
    } else {
        signal(SIGTERM, reraise_handler);
    }
    for (int i = 0; i < 4; i++)
        lib_add(i, 1);
    return lib_crash(2); /* SIGTERM raised inside the library */
}

/* Allocates and frees until killed from outside (rt_scenario.sh sigsafe):
 * glibc's malloc, interrupted half way, must not see the runtime's writing. */
static _Noreturn void run_allocloop(void)
{
    for (int i = 0; i < 4; i++)
        lib_add(i, 1);
    printf("allocating\n");
    fflush(stdout);
    static void *p[4096];
    for (unsigned i = 0;; i++) {
        p[i % 4096] = malloc(24 + (i * 37) % 200);
        if (i % 4096 == 4095) {
            for (int j = 0; j < 4096; j++)
                free(p[j]);
            malloc_trim(0);
        }
    }
}

/* Thread-specific data whose destructor calls the library (OpenSSL frees
 * a thread's state so): the key is made after the runtime's, so glibc
 * runs its destructor after the runtime's in each round. Three threads,
 * each one call in its body and two in the destructor (one of them while
 * a wrapped call is open: lib_call's callback); the third leaves by
 * pthread_exit inside a wrapped call, whose frame ends there. */
static pthread_key_t tsd_key;

static int tsd_exit_cb(int x)
{
    pthread_exit((void *)(intptr_t)x);
}

static void tsd_destructor(void *v)
{
    lib_add((int)(intptr_t)v, 1);
    lib_call(add_one, 1);
}

static void *tsd_worker(void *arg)
{
    intptr_t i = (intptr_t)arg;
    pthread_setspecific(tsd_key, (void *)(i + 1));
    lib_add((int)i, 1);
    if (i == 2)
        lib_call(tsd_exit_cb, 0);
    return NULL;
}

static int run_tsd(void)
{
    lib_add(0, 0); /* the runtime starts, and makes its key */
    if (pthread_key_create(&tsd_key, tsd_destructor) != 0)
        return 3;
    for (intptr_t i = 0; i < 3; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, tsd_worker, (void *)i) != 0)
            return 3;
        pthread_join(t, NULL);
    }
    printf("tsd\n");
    return 0;
}

/* Stays inside libc until killed from outside (rt_scenario.sh sigsafe):
 * the program takes its own spin lock a second time, and glibc spins in
 * user space (no system call, which would be a safe point) without ever
 * returning to the program. No signal then finds a safe point, and the
 * runtime takes it where it lands once its tries are spent. (The program
 * holds no lock the runtime's writing needs.) */
static _Noreturn void run_libcspin(void)
{
    for (int i = 0; i < 4; i++)
        lib_add(i, 1);
    static pthread_spinlock_t self;
    pthread_spin_init(&self, PTHREAD_PROCESS_PRIVATE);
    pthread_spin_lock(&self);
    printf("spinning\n");
    fflush(stdout);
    pthread_spin_lock(&self);
    exit(4);
}

/* Calls the library until killed from outside (rt_scenario.sh sigsafe):
 * the signal mostly lands inside the runtime, which then takes it at the
 * end of the call. */
static _Noreturn void run_callloop(void)
{
    printf("calling\n");
    fflush(stdout);
    for (int i = 0;; i++)
        lib_add(i, 1);
}

/* A SIGTERM from another process that comes as libc returns from unblocking
 * it (not a safe point: the runtime defers it), and the program blocks it
 * again and exits. Unmeasured, it dies by the signal at the unblocking;
 * measured, it must die by it too, at the exit, with its results. */
static int run_sendwait(void)
{
    for (int i = 0; i < 4; i++)
        lib_add(i, 1);
    printf("blocking\n");
    fflush(stdout);
    sigset_t term, pending;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    sigprocmask(SIG_BLOCK, &term, NULL);
    pid_t child = fork();
    if (child == 0) {
        kill(getppid(), SIGTERM);
        _exit(0);
    }
    waitpid(child, NULL, 0);
    do
        sigpending(&pending);
    while (!sigismember(&pending, SIGTERM));
    sigprocmask(SIG_UNBLOCK, &term, NULL);
    sigprocmask(SIG_BLOCK, &term, NULL);
    return 3;
}

/* Two threads still alive at exit, one inside a wrapped call. */
static int run_running(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, blocked, NULL);
    pthread_create(&b, NULL, blocked_inside, NULL);
    while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < 2)
        usleep(1000);
    lib_add(1, 1);
    return 0;
}

static int run_exec(void)
{
    lib_add(1, 1);
    lib_add(2, 2);
    fflush(stdout);
    /* A cleaned environment: the runtime must restore its variables. */
    char *const env[] = {"RT_EXEC=1", NULL};
    execle(self, self, "after-exec", (char *)NULL, env);
    perror("rt_app: execle");
    return 1;
}

static int run_after_exec(void)
{
    for (int i = 0; i < 3; i++)
        lib_add(i, 1);
    printf("after exec %s\n", getenv("RT_EXEC") ? "env kept" : "env lost");
    return 0;
}

/* A program that sandboxes itself: two calls, then a seccomp filter that
 * kills the process at any system call but those it makes itself (how
 * `how` says: prctl, syscall(SYS_seccomp), strict mode), three calls, its
 * output, exit. Nothing of the runtime may make another system call after
 * it. */
static int run_seccomp(const char *how)
{
#define RT_ALLOW(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        RT_ALLOW(__NR_write),
        RT_ALLOW(__NR_exit),
        RT_ALLOW(__NR_exit_group),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    };
#undef RT_ALLOW
    struct sock_fprog prog = {(unsigned short)(sizeof code / sizeof *code), code};
    int sum = lib_add(1, 2) + lib_add(3, 4);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return 3;
    int r;
    if (!strcmp(how, "syscall"))
        r = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
    else if (!strcmp(how, "strict"))
        r = prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0);
    else
        r = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
    if (r != 0)
        return 4;
    for (int i = 0; i < 3; i++)
        sum += lib_add(i, 1);
    char line[32];
    int len = snprintf(line, sizeof line, "sandboxed %d\n", sum);
    if (write(1, line, (size_t)len) != len)
        return 5;
    /* exit_group is not allowed in strict mode: exit() elsewhere, with
     * the destructors. */
    if (!strcmp(how, "strict"))
        syscall(SYS_exit, 0);
    return 0;
}

/* A daemon that closes every descriptor it inherited (closefrom) and
 * opens its log, which gets the lowest number and stays open to the end
 * (here under each of the numbers 3 to 31). */
static int run_closefrom(const char *log)
{
    lib_add(1, 2);
    closefrom(3);
    int fd = open(log, O_RDWR | O_CREAT | O_TRUNC, 0644);
    for (int i = 4; i < 32; i++)
        if (dup(fd) < 0)
            return 4;
    char line[32];
    int len = snprintf(line, sizeof line, "fd %d sum %d\n", fd, lib_add(3, 4));
    return write(fd, line, (size_t)len) == len ? 0 : 3;
}

/* No address space left for the runtime's state of the thread: 100
 * calls, unmeasured, as the program makes them. */
static int run_nomem(void)
{
    struct rlimit one = {1, 1};
    if (setrlimit(RLIMIT_AS, &one) != 0)
        return 3;
    int sum = 0;
    for (int i = 0; i < 100; i++)
        sum += lib_add(i, 1);
    printf("sum %d\n", sum);
    return 0;
}

/* A program that lowers its own file-size limit to 0 (sshd's
 * privilege-separated child does), then calls the library and ends. */
static int run_fsize(void)
{
    struct rlimit zero = {0, 0};
    lib_add(1, 2);
    if (setrlimit(RLIMIT_FSIZE, &zero) != 0)
        return 3;
    lib_add(3, 4);
    return 0;
}

/* A program that changes its root directory (a daemon's jail). */
static int run_chroot(const char *jail)
{
    lib_add(1, 2);
    if (chroot(jail) != 0 || chdir("/") != 0)
        return 3;
    lib_add(3, 4);
    printf("jailed\n");
    return 0;
}

/* A program that removes the (empty) directory it started in. */
static int run_rmcwd(void)
{
    char cwd[4096];
    lib_add(1, 2);
    if (!getcwd(cwd, sizeof cwd) || rmdir(cwd) != 0)
        return 3;
    lib_add(3, 4);
    printf("removed\n");
    return 0;
}

static void at_quick_exit_call(void)
{
    lib_add(5, 6);
}

static void at_exit_call(void)
{
    lib_add(0, 0);
}

int main(int argc, char **argv)
{
    self = argv[0];
    if (argc < 2) {
        fprintf(stderr, "usage: rt_app SCENARIO [N] [CALLS]\n");
        return 2;
    }
    const char *s = argv[1];
    int n = argc > 2 ? atoi(argv[2]) : 1;
    if (argc > 3)
        calls = atol(argv[3]);
    if (!strcmp(s, "threads"))
        return n > 64 ? 2 : run_threads(n);
    if (!strcmp(s, "nest"))
        return run_nest();
    if (!strcmp(s, "deep")) /* a call path N wrapped calls deep */
        return printf("deep %d\n", lib_recurse(n)) < 0;
    if (!strcmp(s, "percall"))
        return run_percall();
    if (!strcmp(s, "timer"))
        return run_timer();
    if (!strcmp(s, "longjmp"))
        return run_longjmp();
    if (!strcmp(s, "errno"))
        return run_errno();
    if (!strcmp(s, "fork"))
        return run_fork();
    if (!strcmp(s, "smallstack"))
        return run_smallstack(argc > 2 ? argv[2] : "exit");
    if (!strcmp(s, "clone"))
        return run_clone(argc > 2 ? argv[2] : "");
    if (!strcmp(s, "forkfinish"))
        return run_forkfinish();
    if (!strcmp(s, "running"))
        return run_running();
    if (!strcmp(s, "exec"))
        return run_exec();
    if (!strcmp(s, "after-exec"))
        return run_after_exec();
    if (!strcmp(s, "exit")) {
        atexit(at_exit_call);
        lib_add(1, 2);
        lib_add(1, 2);
        lib_add(1, 2);
        printf("exiting\n");
        return lib_exit(7); /* exit() inside a wrapped call */
    }
    if (!strcmp(s, "crash")) {
        for (int i = 0; i < 4; i++)
            lib_add(i, 1);
        printf("crashing\n");
        fflush(stdout);
        /* a fault, SIGSEGV or SIGTERM sent, a broken pipe, SIGHUP, SIGALRM */
        return lib_crash(n >= 1 && n <= 6 ? n : 0);
    }
    if (!strcmp(s, "reraise"))
        return run_reraise(n);
    if (!strcmp(s, "allocloop"))
        run_allocloop();
    if (!strcmp(s, "callloop"))
        run_callloop();
    if (!strcmp(s, "libcspin"))
        run_libcspin();
    if (!strcmp(s, "sendwait"))
        return run_sendwait();
    if (!strcmp(s, "tsd"))
        return run_tsd();
    if (!strcmp(s, "stderrfile")) {
        /* The program's own file on fd 2: stderr closed before it started
         * (2>&-), or closed by the program ("close"), as GNU tools do at
         * their exit. Nothing of libwrap's may land in it. */
        if (argc > 3 && !strcmp(argv[3], "close"))
            close(2);
        int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd != 2)
            return 3;
        lib_add(1, 2);
        if (write(fd, "data\n", 5) != 5)
            return 4;
        lib_add(3, 4);
        return 0;
    }
    if (!strcmp(s, "quickexit")) {
        /* Its handler's call is measured, and the results written. */
        at_quick_exit(at_quick_exit_call);
        lib_add(1, 2);
        lib_add(3, 4);
        printf("quick\n");
        fflush(stdout);
        quick_exit(6);
    }
    if (!strcmp(s, "chroot"))
        return argc > 2 ? run_chroot(argv[2]) : 2;
    if (!strcmp(s, "fsize"))
        return run_fsize();
    if (!strcmp(s, "rmcwd"))
        return run_rmcwd();
    if (!strcmp(s, "nomem"))
        return run_nomem();
    if (!strcmp(s, "closefrom"))
        return argc > 2 ? run_closefrom(argv[2]) : 2;
    if (!strcmp(s, "seccomp"))
        return run_seccomp(argc > 2 ? argv[2] : "");
    if (!strcmp(s, "none"))
        return 0;
    fprintf(stderr, "rt_app: unknown scenario %s\n", s);
    return 2;
}
