/*
 * safe_copy.c - copying a string that the measured program passed to a
 * wrapped function (a C string parameter or result) without ever faulting:
 * the pointer may be NULL, dangling, or point into memory that is not
 * readable, and the program must not crash because it is measured.
 *
 * The copy is made by the kernel, with process_vm_readv(2) on our own
 * process: an unreadable address fails with EFAULT instead of a signal.
 * The read is split at the page boundary after the string's start, so that
 * a short string at the end of the last readable page is still found. A
 * system call per string (a few hundred nanoseconds) is the price; it is
 * paid only for the strings LIBWRAP_ARGUMENTS selects.
 *
 * Where process_vm_readv is not allowed (seccomp profiles of some
 * containers deny it: EPERM or ENOSYS), a pipe does the same check: write(2)
 * from an unreadable buffer fails with EFAULT, and what was written is read
 * back. The pipe is shared by the threads, one copy at a time.
 */
#include "core/arguments/arguments.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static int lw_vm_readv_broken; /* process_vm_readv refused: use the pipe */
static int lw_pipe_fd[2] = {-1, -1};
static int lw_pipe_lock;

/* Reads up to `len` bytes at `addr` into buf; the count read, or -1 when
 * not a byte could be; *refused when the method itself is not allowed. */
static ssize_t lw_read_vm(uintptr_t addr, char *buf, size_t len, int *refused)
{
    size_t page = 4096;
    size_t first = page - (addr & (page - 1));
    if (first > len)
        first = len;
    struct iovec local = {buf, len};
    struct iovec remote[2] = {{(void *)addr, first}, {(void *)(addr + first), len - first}};
    ssize_t n = syscall(SYS_process_vm_readv, (long)lw_process_pid(), &local, 1ul, remote,
                        first < len ? 2ul : 1ul, 0ul);
    if (n < 0 && (errno == ENOSYS || errno == EPERM))
        *refused = 1;
    return n;
}

static ssize_t lw_read_pipe(uintptr_t addr, char *buf, size_t len)
{
    while (__atomic_exchange_n(&lw_pipe_lock, 1, __ATOMIC_ACQUIRE))
        sched_yield();
    ssize_t got = -1;
    if (lw_pipe_fd[0] < 0 && pipe2(lw_pipe_fd, O_CLOEXEC | O_NONBLOCK) < 0)
        lw_pipe_fd[0] = lw_pipe_fd[1] = -1;
    if (lw_pipe_fd[0] >= 0) {
        /* Page by page: write(2) stops at the first unreadable one. */
        size_t done = 0;
        while (done < len) {
            size_t page = 4096 - ((addr + done) & 4095);
            size_t chunk = len - done < page ? len - done : page;
            ssize_t w = write(lw_pipe_fd[1], (const void *)(addr + done), chunk);
            if (w <= 0)
                break;
            ssize_t r = read(lw_pipe_fd[0], buf + done, (size_t)w);
            if (r != w)
                break;
            done += (size_t)w;
            if (memchr(buf + done - (size_t)w, '\0', (size_t)w))
                break;
        }
        got = done ? (ssize_t)done : -1;
    }
    __atomic_store_n(&lw_pipe_lock, 0, __ATOMIC_RELEASE);
    return got;
}

const char *lw_safe_string(uint64_t p, char *buf)
{
    if (!p)
        return "(null)";
    int saved = errno;
    /* One byte more than kept: it tells whether the string goes on. */
    size_t want = LW_ARG_STRING_MAX + 1;
    if (p > UINTPTR_MAX - want)
        want = (size_t)(UINTPTR_MAX - p);
    ssize_t n = -1;
    int refused = 0;
    if (!__atomic_load_n(&lw_vm_readv_broken, __ATOMIC_RELAXED)) {
        n = lw_read_vm((uintptr_t)p, buf, want, &refused);
        if (refused)
            __atomic_store_n(&lw_vm_readv_broken, 1, __ATOMIC_RELAXED);
    }
    if (refused || __atomic_load_n(&lw_vm_readv_broken, __ATOMIC_RELAXED))
        n = lw_read_pipe((uintptr_t)p, buf, want);
    errno = saved;
    if (n <= 0)
        return "(unreadable)";
    char *nul = memchr(buf, '\0', (size_t)n);
    if (nul)
        return buf;
    /* No end within what could be read: cut a long string; one that runs
     * into unreadable memory is no string. */
    if ((size_t)n < want && (size_t)n <= LW_ARG_STRING_MAX)
        return "(unreadable)";
    memcpy(buf + LW_ARG_STRING_MAX, "...", 4);
    return buf;
}
