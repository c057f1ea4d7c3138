/*
 * sigapp.c - a program whose signal handlers call the wrapped library while
 * its main code calls it too, in a tight loop (signals.sh).
 *
 *   sigapp SCENARIO COUNTS
 *
 * SCENARIO: regs (an assembly loop that checks every callee-saved register
 * after each call), cloop (a C loop, errno kept), nested (SA_NODEFER, a
 * signal raised inside a handler, a handler on a sigaltstack with nested
 * wrapped calls), jump (a handler that leaves by siglongjmp), window (the
 * same, the signal sent by a debugger: signals.sh). Timers fire
 * every millisecond. stdout is the same in every run; the calls made,
 * which depend on timing, go to the file COUNTS for the test to compare with
 * the measured visits.
 */
#include "siglib.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <zlib.h>

long sig_reg_loop(long n);

static long n_tick, n_tick_nested, n_tick_alt, n_nest_handler;
static volatile long n_crc;
static volatile long handler_bad;
static long n_add, n_nest_main, n_adler, n_spin;
static sigjmp_buf jump_env;
static volatile int jump_every;
static unsigned char zbuf[256];
static unsigned long zcrc;

static void on_alarm(int sig)
{
    (void)sig;
    int saved = errno;
    /* Counted before the call, in one instruction: with SA_NODEFER a
     * signal may interrupt this handler anywhere. */
    long k = __atomic_add_fetch(&n_tick, 1, __ATOMIC_RELAXED);
    if (sig_tick(k) != k * 3 + 1)
        handler_bad++;
    (void)sig_errno(EIO);
    if (jump_every && k % jump_every == 0) {
        errno = saved;
        siglongjmp(jump_env, 1);
    }
    errno = saved;
}

static void on_usr1(int sig)
{
    (void)sig;
    long k = __atomic_add_fetch(&n_tick_nested, 1, __ATOMIC_RELAXED);
    if (sig_tick_nested(k) != (k ^ 0x55))
        handler_bad++;
}

static void on_usr1_jump(int sig)
{
    (void)sig;
    siglongjmp(jump_env, 1);
}

/* Where signals.sh's debugger stops before it waits for the exit. */
__attribute__((noinline)) void window_ready(void)
{
    __asm__ __volatile__("" ::: "memory");
}

/* Where signals.sh's debugger stops after the handler jumped. */
__attribute__((noinline)) void jumped(void)
{
    __asm__ __volatile__("" ::: "memory");
}

static void on_alarm_nested(int sig)
{
    on_alarm(sig);
    raise(SIGUSR1);
}

static void on_prof(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)si;
    (void)uc;
    long k = __atomic_add_fetch(&n_tick_alt, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&n_nest_handler, 1, __ATOMIC_RELAXED);
    if (sig_tick_alt(k) != k + 7 || sig_nest(k) != 2 * k + 3)
        handler_bad++;
}

static void on_alarm_zlib(int sig)
{
    (void)sig;
    if (crc32(0L, zbuf, sizeof zbuf) != zcrc)
        handler_bad++;
    n_crc++;
}

static void timer(int which, long usec)
{
    struct itimerval it = {{0, usec}, {0, usec}};
    setitimer(which, &it, NULL);
}

static void handle(int sig, void (*fn)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, NULL) != 0)
        perror("sigaction");
}

static void regs_until(long *count, long want, long *bad)
{
    while (__atomic_load_n(count, __ATOMIC_RELAXED) < want) {
        *bad += sig_reg_loop(20000);
        n_add += 20000;
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: sigapp regs|cloop|nested|jump|window|untimed|entry|zlib COUNTS\n");
        return 2;
    }
    const char *scenario = argv[1];
    long bad = 0;
    if (!strcmp(scenario, "regs")) {
        handle(SIGALRM, on_alarm, SA_RESTART);
        timer(ITIMER_REAL, 1000);
        regs_until(&n_tick, 150, &bad);
        timer(ITIMER_REAL, 0);
        printf("regs: %ld calls came back changed\n", bad);
    } else if (!strcmp(scenario, "cloop")) {
        handle(SIGALRM, on_alarm, SA_RESTART);
        timer(ITIMER_REAL, 1000);
        long sum = 0, want = 0, i = 0, errno_bad = 0;
        while (__atomic_load_n(&n_tick, __ATOMIC_RELAXED) < 150) {
            errno = 77;
            for (long j = 0; j < 100000; j++, i++) {
                sum += sig_add(i, 1);
                want += i + 1;
            }
            n_add += 100000;
            errno_bad += errno != 77;
        }
        timer(ITIMER_REAL, 0);
        printf("cloop: sums %s, errno %s\n", sum == want ? "equal" : "differ",
               errno_bad ? "changed" : "kept");
    } else if (!strcmp(scenario, "nested")) {
        static char alt[1 << 16];
        stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
        sigaltstack(&ss, NULL);
        handle(SIGALRM, on_alarm_nested, SA_RESTART | SA_NODEFER);
        signal(SIGUSR1, on_usr1);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_prof;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGPROF, &sa, NULL);
        /* The program sees its own handlers, as it installed them. */
        struct sigaction now;
        sigaction(SIGPROF, NULL, &now);
        if (now.sa_sigaction != on_prof || !(now.sa_flags & SA_SIGINFO))
            printf("nested: sigaction shows another handler\n");
        sigaction(SIGALRM, NULL, &now);
        if (now.sa_handler != on_alarm_nested || (now.sa_flags & SA_SIGINFO))
            printf("nested: sigaction shows another handler\n");
        if (signal(SIGUSR1, on_usr1) != on_usr1)
            printf("nested: signal returns another handler\n");
        timer(ITIMER_REAL, 1000);
        timer(ITIMER_PROF, 1000);
        while (__atomic_load_n(&n_tick, __ATOMIC_RELAXED) < 100 ||
               __atomic_load_n(&n_tick_alt, __ATOMIC_RELAXED) < 30) {
            bad += sig_reg_loop(20000);
            n_add += 20000;
            for (int j = 0; j < 1000; j++)
                bad += sig_nest(j) != 2 * j + 3;
            n_nest_main += 1000;
        }
        timer(ITIMER_REAL, 0);
        timer(ITIMER_PROF, 0);
        printf("nested: %ld calls came back changed\n", bad);
    } else if (!strcmp(scenario, "jump")) {
        handle(SIGALRM, on_alarm, SA_RESTART);
        jump_every = 5;
        volatile int jumps = 0;
        timer(ITIMER_REAL, 1000);
        if (sigsetjmp(jump_env, 1))
            jumps++;
        while (jumps < 20)
            bad += sig_reg_loop(1000);
        timer(ITIMER_REAL, 0);
        printf("jump: %d jumps, %ld calls came back changed\n", jumps, bad);
    } else if (!strcmp(scenario, "window")) {
        /* Calls of about the same time; a debugger sends SIGUSR1 at one
         * instruction of the trampoline's exit (signals.sh), and the
         * handler leaves by siglongjmp. */
        handle(SIGUSR1, on_usr1_jump, 0);
        /* The runtime's start (its first call of a thread, its
         * calibration) before the debugger waits for the exit. */
        n_add = sig_add(1, 2) == 3;
        window_ready();
        volatile int jumps = 0;
        volatile long calls = 0;
        if (sigsetjmp(jump_env, 1))
            jumps++;
        while (calls < 2) {
            calls++;
            sig_spin(200000);
        }
        n_spin = calls;
        printf("window: %d jumps\n", jumps);
    } else if (!strcmp(scenario, "untimed")) {
        /* sig_add throttled after 4,096 calls (LIBWRAP_THROTTLE,
         * signals.sh): a debugger sends SIGUSR1 at one instruction of a
         * call that is not timed, and the handler leaves by siglongjmp. */
        handle(SIGUSR1, on_usr1_jump, 0);
        volatile int jumps = 0;
        volatile long calls = 0;
        while (calls < 5000) {
            calls++;
            sig_add(calls, 1);
        }
        window_ready();
        if (sigsetjmp(jump_env, 1)) {
            jumps++;
            jumped();
        }
        while (calls < 10000) {
            calls++;
            sig_add(calls, 1);
        }
        n_add = calls;
        printf("untimed: %d jumps\n", jumps);
    } else if (!strcmp(scenario, "entry")) {
        /* Calls of sig_spin at one depth, 200 ms apart; a debugger sends
         * SIGUSR1 at the fast entry's timestamp (lw_abi_enter_time) of a
         * call in between, and the handler leaves by siglongjmp: that
         * call never reaches the library. */
        handle(SIGUSR1, on_usr1_jump, 0);
        volatile int jumps = 0;
        sig_spin(1000);
        n_spin = 1;
        usleep(200000);
        window_ready();
        if (sigsetjmp(jump_env, 1)) {
            jumps++;
            jumped();
        } else {
            sig_spin(1000);
            n_spin++;
        }
        sig_spin(1000);
        n_spin++;
        printf("entry: %d jumps\n", jumps);
    } else if (!strcmp(scenario, "zlib")) {
        for (size_t i = 0; i < sizeof zbuf; i++)
            zbuf[i] = (unsigned char)(i * 7);
        zcrc = crc32(0L, zbuf, sizeof zbuf);
        handle(SIGALRM, on_alarm_zlib, SA_RESTART);
        unsigned long want = adler32(1L, zbuf, sizeof zbuf), wrong = 0;
        n_adler = 1; /* and crc32 once above: counted below */
        timer(ITIMER_REAL, 1000);
        while (n_crc < 150) {
            for (int j = 0; j < 10000; j++)
                wrong += adler32(1L, zbuf, sizeof zbuf) != want;
            n_adler += 10000;
        }
        timer(ITIMER_REAL, 0);
        printf("zlib: %lu wrong results\n", wrong);
    } else {
        fprintf(stderr, "sigapp: unknown scenario %s\n", scenario);
        return 2;
    }
    if (handler_bad)
        printf("%s: %ld wrong results in handlers\n", scenario, handler_bad);
    FILE *f = fopen(argv[2], "w");
    if (!f)
        return 3;
    fprintf(f, "main_add %ld\nnest_main %ld\ntick %ld\ntick_nested %ld\ntick_alt %ld\n"
               "nest_handler %ld\ncrc %ld\nadler %ld\nspin %ld\n",
            n_add, n_nest_main, n_tick, n_tick_nested, n_tick_alt, n_nest_handler,
            n_crc + (n_adler != 0), n_adler, n_spin);
    fclose(f);
    return 0;
}
