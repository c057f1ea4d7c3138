/*
 * thread.c - per-thread state: created on a thread's first measured call,
 * registered in a global list (a mutex at thread start and end only), closed
 * by a TSD destructor when the thread ends, and kept until the process ends
 * so that the finaliser writes the profiles of threads already gone.
 */
#include "core/measure/listen.h"
#include "core/measure/hooks.h"
#include "core/measure/lane.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

lw_thread lw_thread_none = {.depth = UINT32_MAX, .cap = 0};
__thread lw_tls_block lw_tls __attribute__((tls_model("initial-exec"))) = {
    .hot = &lw_thread_none, .hot_ev = &lw_thread_none};

/* Lock 2 of the order in core/measure/measure.h. */
static pthread_mutex_t lw_threads_mutex = PTHREAD_MUTEX_INITIALIZER;
static lw_thread *lw_threads;
static uint32_t lw_next_tid = 1; /* 0 is kept for the main thread */
static pthread_key_t lw_thread_key;
static int lw_thread_key_ok;

void *lw_map(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/*
 * A thread's end. glibc runs the destructors of a thread's keys in rounds,
 * each in the order of the keys, and runs another round while one of them
 * set a value again, up to PTHREAD_DESTRUCTOR_ITERATIONS. The runtime's key
 * is made at the start, before those of the program and its libraries
 * (OpenSSL frees a thread's random generators and error state in one), so
 * in the first round it comes first, and their calls would find the thread
 * closed. So the first round closes the calls still open (pthread_exit
 * inside a wrapped call) and sets the value again; the thread itself ends
 * in the last round but one, after the other keys' destructors of the
 * rounds before, whose calls are measured as the thread's own. Not in the
 * last: the sanitizers' runtimes (and jemalloc) end their own record of
 * the thread there, by the same means, and the runtime's code must not
 * run after them.
 */
static void lw_thread_destructor(void *p)
{
    lw_thread *t = p;
    if (++t->tsd_round < PTHREAD_DESTRUCTOR_ITERATIONS - 1 && pthread_setspecific(lw_thread_key, t) == 0) {
        /* The depth read atomically: the end of measurement on another
         * thread may be closing this one's frames (lw_thread_close_frames). */
        if (t->tsd_round == 1 && LW_LOAD(t->depth)) {
            pthread_mutex_lock(&lw_threads_mutex);
            int guard = LW_LOAD(lw_tls.guard);
            LW_STORE(lw_tls.guard, 1);
            if (lw_state == 1 && t->alive)
                lw_thread_close_frames(t, lw_ticks());
            LW_STORE(lw_tls.guard, guard);
            pthread_mutex_unlock(&lw_threads_mutex);
        }
        return;
    }
    /* Calls from TSD destructors that run after this one (a key's value set
     * again in the last round) find the guard set and record nothing; the
     * thread is ending. glibc re-initialises TLS for the next thread that
     * reuses this stack. */
    pthread_mutex_lock(&lw_threads_mutex);
    /* Set under the lock: a finaliser holding it must not wait for us. */
    LW_STORE(lw_tls.guard, 1);
    lw_thread_paths_off();
    if (lw_state == 1 && t->alive) {
        lw_thread_close_frames(t, lw_ticks());
        lw_hook->thread_end(t);
        t->alive = 0;
        lw_log(LW_LOG_THREAD, "thread %u ended", t->tid);
    }
    pthread_mutex_unlock(&lw_threads_mutex);
    lw_tls.self = NULL;
    LW_STORE(lw_tls.lane, NULL);
}

void lw_thread_init_process(void)
{
    lw_thread_key_ok = pthread_key_create(&lw_thread_key, lw_thread_destructor) == 0;
}

int lw_thread_grow_stack(lw_thread *t)
{
    uint32_t cap = t->cap ? t->cap * 2 : 64;
    /* One more frame in front: the sentinel stack[-1] (core/measure/measure.h). */
    lw_frame *stack = lw_map((cap + 1) * sizeof *stack);
    uint64_t *mstack = lw_nmetrics ? lw_map(cap * lw_nmetrics * sizeof *mstack) : NULL;
    if (!stack || (lw_nmetrics && !mstack))
        return -1;
    stack++;
    stack[-1].node = t->tree.root;
    stack[-1].frame = (void *)UINTPTR_MAX;
    if (t->depth) {
        memcpy(stack, t->stack, t->depth * sizeof *stack);
        if (mstack)
            memcpy(mstack, t->mstack, t->depth * lw_nmetrics * sizeof *mstack);
    }
    /* The old arrays stay mapped: the finaliser may be reading them. The
     * total is bounded by twice the deepest stack. */
    t->stack = stack;
    t->mstack = mstack;
    t->cap = cap;
    return 0;
}

void lw_thread_paths(lw_thread *t, int percall, lw_tls_block *to)
{
    int ok = lw_timer_tsc && !t->slow;
    to->fast = ok && !percall ? t : NULL;
    to->hot = ok && !percall && !t->ev_pos ? t : &lw_thread_none;
    /* The trampoline delivers a buffer that a record filled, at once. */
    to->hot_ev = ok && t->ev_pos ? t : &lw_thread_none;
}

void lw_thread_set_paths(lw_thread *t)
{
    lw_tls_block p;
    lw_thread_paths(t, t->listen && lw_listeners_percall, &p);
    LW_STORE(lw_tls.fast, p.fast);
    LW_STORE(lw_tls.hot, p.hot);
    LW_STORE(lw_tls.hot_ev, p.hot_ev);
}

int lw_context_resume(void)
{
    if (lw_calls_open())
        return 0;
    lw_thread *t = lw_tls.self;
    LW_STORE(lw_tls.switched, 0);
    if (t && LW_LOAD(lw_state) == 1 && !lw_lane_pending(t))
        lw_thread_set_paths(t);
    return 1;
}

static lw_thread *lw_thread_make(void);

lw_thread *lw_thread_attach(void)
{
    if (lw_state != 1)
        return NULL;
    if (lw_exit_unmeasured()) {
        lw_log(LW_LOG_LIFECYCLE, "a call made after exit() began, by a destructor, in a process "
                                 "that measured nothing before: not measured");
        return NULL;
    }
    /* Signals held back (lw_signals_hold): pthread_getattr_np reads
     * /proc/self/maps through stdio, the plugins' thread_begin may allocate. */
    sigset_t held;
    lw_signals_hold(&held);
    lw_thread *t = lw_thread_make();
    lw_signals_release(&held);
    return t;
}

/* This thread could not have its state (mmap failed: RLIMIT_AS, a
 * seccomp filter): it is not tried again at each of its calls. */
static __thread int lw_make_failed __attribute__((tls_model("initial-exec")));

/* The state of the calling thread, made and registered. */
static lw_thread *lw_thread_make(void)
{
    if (lw_make_failed)
        return NULL;
    lw_thread *t = lw_map(sizeof *t);
    if (!t || lw_tree_init(&t->tree) < 0 || lw_thread_grow_stack(t) < 0) {
        int err = errno;
        static int warned;
        lw_make_failed = 1;
        if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
            lw_warn("cannot allocate the state of a thread (%s): the calls of such threads are not "
                    "measured", strerror(err));
        return NULL;
    }
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void *addr;
        size_t size;
        if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
            t->stack_lo = (uintptr_t)addr;
            t->stack_hi = (uintptr_t)addr + size;
        }
        pthread_attr_destroy(&attr);
    }
    lw_lane_attach(t);
    t->errnop = &errno;
    t->guard = &lw_tls.guard;
    t->fastp = &lw_tls.fast;
    t->hotp = &lw_tls.hot;
    t->hot_evp = &lw_tls.hot_ev;
    t->alive = 1;
    lw_note_measured();

    pthread_mutex_lock(&lw_threads_mutex);
    t->tid = getpid() == (pid_t)syscall(SYS_gettid) ? 0 : lw_next_tid++;
    pthread_mutex_unlock(&lw_threads_mutex);
    /* The plugins' handles of the thread: outside the registry lock, since
     * a listener's first thread may claim the experiment directory (the
     * trace is opened at the process's first measured call: before it, a
     * process has created nothing). */
    lw_hook->thread_begin(t);
    t->slow = lw_nmetrics != 0;

    if (lw_thread_key_ok)
        pthread_setspecific(lw_thread_key, t);
    lw_tls.self = t;
    pthread_mutex_lock(&lw_threads_mutex);
    t->next = lw_threads;
    lw_threads = t;
    /* Under the lock, after the check: the finaliser clears the fast paths
     * of the threads it finds in the list, and stops measurement first. */
    if (LW_LOAD(lw_state) == 1)
        lw_thread_set_paths(t);
    pthread_mutex_unlock(&lw_threads_mutex);
    lw_log(LW_LOG_THREAD, "thread %u started", t->tid);
    return t;
}

void lw_thread_registry_lock(void)
{
    pthread_mutex_lock(&lw_threads_mutex);
}

void lw_thread_registry_unlock(void)
{
    pthread_mutex_unlock(&lw_threads_mutex);
}

lw_thread *lw_thread_first(void)
{
    return lw_threads;
}

void lw_thread_after_fork_child(void)
{
    /* Only the forking thread exists in the child; the others' states are
     * the parent's data and are dropped (their memory is the parent's
     * copy-on-write image, not worth unmapping). */
    pthread_mutex_init(&lw_threads_mutex, NULL);
    lw_threads = NULL;
    lw_next_tid = 1;
    lw_thread *t = lw_tls.self;
    lw_tree fresh;
    lw_thread_paths_off();
    if (t && lw_tree_init(&fresh) < 0) {
        lw_tls.self = NULL;
        t = NULL;
    }
    if (!t) {
        LW_STORE(lw_tree_grew, 0);
        lw_hook->fork_child(NULL);
        return;
    }
    t->tree = fresh;
    lw_lane_after_fork_child(t);
    /* The recorded arguments were the parent's, as the tree was. */
    memset(&t->args, 0, sizeof t->args);
    t->stack[-1].node = t->tree.root;
    /* Frames open at fork() (the wrapper that forked and its callers) keep
     * their place in the new tree but are not counted in the child: their
     * visits belong to the parent. */
    uint64_t now = lw_ticks();
    lw_node *parent = t->tree.root;
    for (uint32_t i = 0; i < t->depth; i++) {
        lw_node *n = lw_tree_child(&t->tree, parent, t->stack[i].region);
        /* Without memory for its node the frame keeps its place under its
         * parent's: it is not counted anyway. */
        t->stack[i].node = n ? n : parent;
        t->stack[i].start = now - t->overhead;
        t->stack[i].inherited = 1;
        parent = t->stack[i].node;
    }
    t->tid = 0;
    t->alive = 1;
    t->next = NULL;
    /* The nodes of the frames open at fork() are not the child's calls. */
    LW_STORE(lw_tree_grew, 0);
    t->slow = lw_nmetrics != 0 || t->depth != 0;
    lw_hook->fork_child(t);
    if (lw_nmetrics) {
        lw_metrics_read(t, t->scratch);
        for (uint32_t i = 0; i < t->depth; i++)
            memcpy(t->mstack + (size_t)i * lw_nmetrics, t->scratch, lw_nmetrics * sizeof(uint64_t));
    }
    lw_threads = t;
    lw_thread_set_paths(t);
}
