/*
 * work_stack.c - the runtime's one-time work on a stack of its own: making
 * the results' directory and writing the results at the end run on the
 * program's thread, whose stack may be small (a thread made with
 * PTHREAD_STACK_MIN, 16 KiB, with glibc's TLS inside it; a sigaltstack),
 * which the paths and buffers of that work would overflow. A mapping of
 * LW_WORK_STACK bytes, with a guard page, for the call, then unmapped;
 * where it cannot be had, or under a sanitizer (which keeps its own
 * accounts of the stack), the call runs where it is.
 */
#include "core/base/base.h"

#include <errno.h>
#include <sys/mman.h>

#define LW_WORK_STACK (16u << 20) /* twice glibc's default: a profile 32,768 calls deep is written recursively */
#define LW_WORK_GUARD 4096u

#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#define LW_WORK_SWITCH 1
/* work_stack.S: fn(arg) with the stack pointer at `top`, then back. */
void lw_call_on_stack(void (*fn)(void *), void *arg, void *top);
#endif

void lw_on_work_stack(void (*fn)(void *), void *arg)
{
#ifdef LW_WORK_SWITCH
    int saved = errno;
    char *s = mmap(NULL, LW_WORK_STACK, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (s != MAP_FAILED) {
        (void)mprotect(s, LW_WORK_GUARD, PROT_NONE);
        errno = saved;
        lw_call_on_stack(fn, arg, s + LW_WORK_STACK);
        saved = errno;
        (void)munmap(s, LW_WORK_STACK);
        errno = saved;
        return;
    }
    errno = saved;
#endif
    fn(arg);
}
