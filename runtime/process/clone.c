/*
 * clone.c - a clone() that makes a new process (no CLONE_VM) is measured as
 * a fork(): glibc runs no pthread_atfork handler for it, so the interposer
 * (clone_interpose.c) calls these, which run lifecycle.c's fork steps.
 *
 * Without them the child would go on with the parent's state: its exit()
 * would claim the parent's directory, not yet claimed, with the parent's
 * calls in its tree (the parent then moving to <dir>.1 and its calls
 * counted twice), and a child whose function returns would write nothing.
 */
#include "process/process.h"
#include "interpose/clone_interpose.h"

#include <errno.h>
#include <sched.h>

#ifdef LIBWRAP_NOP
int libwrap_clone_prepare(int flags)
{
    (void)flags;
    return 0;
}

void libwrap_clone_parent(void)
{
}

void libwrap_clone_child(void)
{
}

void libwrap_clone_child_return(void)
{
}
#else
int libwrap_clone_prepare(int flags)
{
    /* CLONE_VM: the child runs in the parent's memory (a vfork()-like
     * child, a thread), its state is the parent's: touch nothing, as for
     * vfork(). CLONE_SETTLS without it: the runtime's per-thread state is
     * not in the child's TLS. */
    if (flags & (CLONE_VM | CLONE_THREAD | CLONE_SETTLS))
        return 0;
    /* A copy of the interposer before this one in lookup order prepared
     * this call already: it also runs the parent and child steps. */
    if (lw_fork_pending())
        return 0;
    int saved = errno;
    lw_fork_prepare();
    int mine = lw_fork_pending();
    if (mine)
        lw_log(LW_LOG_LIFECYCLE, "clone (flags 0x%x): the child is measured as a fork child",
               (unsigned)flags);
    errno = saved;
    return mine;
}

void libwrap_clone_parent(void)
{
    int saved = errno;
    lw_fork_parent();
    errno = saved;
}

void libwrap_clone_child(void)
{
    int saved = errno;
    lw_fork_child();
    errno = saved;
}

void libwrap_clone_child_return(void)
{
    lw_finish("clone() child returned");
}
#endif
