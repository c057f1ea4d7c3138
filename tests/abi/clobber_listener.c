/* clobber_listener.c - a per-call event listener (enter and exit, no
 * `events`) that leaves every register the ABI lets it change changed:
 * %xmm0-15 all ones (%ymm0-15 with AVX, their upper halves in use), errno,
 * and the caller-saved general registers. Wrapped programs must still print
 * what they print unwrapped. It also checks what it is given: on each
 * thread, exits match the entries in reverse order and ticks never go
 * back. At the end it adds "enters N exits N errors 0" to the file
 * CLOBBER_OUT names. */
#include <libwrap/plugin.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define CLOBBER_DEPTH 4096

typedef struct clobber_thread {
    uint64_t last;
    uint32_t depth;
    int32_t stack[CLOBBER_DEPTH];
} clobber_thread;

static const char *clobber_out;
static uint64_t clobber_enters, clobber_exits, clobber_errors;
static int clobber_avx;

static void clobber_error(void)
{
    __atomic_add_fetch(&clobber_errors, 1, __ATOMIC_RELAXED);
}

__attribute__((target("avx"))) static void clobber_ymm(void)
{
    __asm__ volatile("vcmptrueps %%ymm0, %%ymm0, %%ymm0\n\t"
                     "vmovaps %%ymm0, %%ymm1\n\tvmovaps %%ymm0, %%ymm2\n\tvmovaps %%ymm0, %%ymm3\n\t"
                     "vmovaps %%ymm0, %%ymm4\n\tvmovaps %%ymm0, %%ymm5\n\tvmovaps %%ymm0, %%ymm6\n\t"
                     "vmovaps %%ymm0, %%ymm7\n\tvmovaps %%ymm0, %%ymm8\n\tvmovaps %%ymm0, %%ymm9\n\t"
                     "vmovaps %%ymm0, %%ymm10\n\tvmovaps %%ymm0, %%ymm11\n\tvmovaps %%ymm0, %%ymm12\n\t"
                     "vmovaps %%ymm0, %%ymm13\n\tvmovaps %%ymm0, %%ymm14\n\tvmovaps %%ymm0, %%ymm15"
                     ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
                       "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}

static void clobber(void)
{
    if (clobber_avx) {
        clobber_ymm();
    } else {
        __asm__ volatile("pcmpeqd %%xmm0, %%xmm0\n\t"
                         "movdqa %%xmm0, %%xmm1\n\tmovdqa %%xmm0, %%xmm2\n\tmovdqa %%xmm0, %%xmm3\n\t"
                         "movdqa %%xmm0, %%xmm4\n\tmovdqa %%xmm0, %%xmm5\n\tmovdqa %%xmm0, %%xmm6\n\t"
                         "movdqa %%xmm0, %%xmm7\n\tmovdqa %%xmm0, %%xmm8\n\tmovdqa %%xmm0, %%xmm9\n\t"
                         "movdqa %%xmm0, %%xmm10\n\tmovdqa %%xmm0, %%xmm11\n\tmovdqa %%xmm0, %%xmm12\n\t"
                         "movdqa %%xmm0, %%xmm13\n\tmovdqa %%xmm0, %%xmm14\n\tmovdqa %%xmm0, %%xmm15"
                         ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
                           "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
    }
    __asm__ volatile("movq $-1, %%rax\n\tmovq $-1, %%rcx\n\tmovq $-1, %%rdx\n\tmovq $-1, %%rsi\n\t"
                     "movq $-1, %%rdi\n\tmovq $-1, %%r8\n\tmovq $-1, %%r9\n\tmovq $-1, %%r10\n\t"
                     "movq $-1, %%r11"
                     ::: "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11");
    errno = 77;
}

static int clobber_init(const libwrap_host *host, const char *request, const libwrap_metric_info *m,
                        uint32_t n)
{
    (void)host, (void)request, (void)m, (void)n;
    clobber_out = getenv("CLOBBER_OUT");
    __builtin_cpu_init();
    clobber_avx = __builtin_cpu_supports("avx");
    return 0;
}

static void *clobber_thread_begin(uint32_t thread)
{
    (void)thread;
    return calloc(1, sizeof(clobber_thread));
}

static void clobber_ticks(clobber_thread *t, uint64_t ticks)
{
    if (ticks < t->last)
        clobber_error();
    t->last = ticks;
}

static void clobber_enter(void *thread, int32_t region, uint64_t ticks, const uint64_t *metrics)
{
    (void)metrics;
    clobber_thread *t = thread;
    __atomic_add_fetch(&clobber_enters, 1, __ATOMIC_RELAXED);
    if (t) {
        clobber_ticks(t, ticks);
        if (t->depth < CLOBBER_DEPTH)
            t->stack[t->depth] = region;
        t->depth++;
    }
    clobber();
}

static void clobber_exit(void *thread, int32_t region, uint64_t ticks, const uint64_t *metrics)
{
    (void)metrics;
    clobber_thread *t = thread;
    __atomic_add_fetch(&clobber_exits, 1, __ATOMIC_RELAXED);
    if (t) {
        clobber_ticks(t, ticks);
        if (!t->depth || (t->depth <= CLOBBER_DEPTH && t->stack[t->depth - 1] != region))
            clobber_error();
        else
            t->depth--;
    }
    clobber();
}

static void clobber_thread_end(void *thread)
{
    clobber_thread *t = thread;
    if (t && t->depth)
        clobber_error();
    free(t);
}

static void clobber_finalize(const libwrap_process_end *end)
{
    (void)end;
    if (!clobber_out)
        return;
    FILE *f = fopen(clobber_out, "a");
    if (!f)
        return;
    fprintf(f, "enters %llu exits %llu errors %llu\n", (unsigned long long)clobber_enters,
            (unsigned long long)clobber_exits, (unsigned long long)clobber_errors);
    fclose(f);
}

static const libwrap_listener clobber_listener = {.init = clobber_init,
                                                  .thread_begin = clobber_thread_begin,
                                                  .enter = clobber_enter,
                                                  .exit = clobber_exit,
                                                  .thread_end = clobber_thread_end,
                                                  .finalize = clobber_finalize};
static const libwrap_plugin clobber_plugin = {LIBWRAP_PLUGIN_ABI_VERSION, LIBWRAP_PLUGIN_LISTENER,
                                              "clobber", NULL, &clobber_listener};
LIBWRAP_PLUGIN_DEFINE(clobber_plugin)
