/*
 * clone_interpose.h - between the clone interposer (clone_interpose.c,
 * built into liblibwrap_exec.a: a copy in the runtime and in every wrapper
 * shared library) and the runtime (clone.c).
 *
 * Exported from the runtime, so that a wrapper's copy of the interposer
 * reaches it; kept out of libwrap.h because only the interposer calls them.
 */
#ifndef LIBWRAP_RUNTIME_CLONE_INTERPOSE_H
#define LIBWRAP_RUNTIME_CLONE_INTERPOSE_H

#define LIBWRAP_CLONE_API __attribute__((visibility("default")))

/*
 * Called before clone() with its flags. Returns 1 when the call makes a new
 * process that is measured as a fork() child (no CLONE_VM, CLONE_THREAD nor
 * CLONE_SETTLS) and the runtime is measuring: the parent's directory is
 * claimed if it measured, and the runtime's locks are held until
 * libwrap_clone_parent (in the parent) and libwrap_clone_child (in the
 * child). Returns 0 when there is nothing to do: memory or TLS shared with
 * the parent, measurement not running, or this clone() prepared already by
 * another copy of the interposer in this thread. errno is kept.
 */
LIBWRAP_CLONE_API int libwrap_clone_prepare(int flags);

/* In the parent after clone() returned (whether it failed or not), once
 * per libwrap_clone_prepare that returned 1. errno is kept. */
LIBWRAP_CLONE_API void libwrap_clone_parent(void);

/* In the child, first: its own fork-PID directory, an empty call tree. */
LIBWRAP_CLONE_API void libwrap_clone_child(void);

/* In the child, when its function has returned: glibc then ends the child
 * with the exit system call (no atexit handlers, no destructors), so the
 * child's results are written here, as exit() would. errno is kept. */
LIBWRAP_CLONE_API void libwrap_clone_child_return(void);

#endif /* LIBWRAP_RUNTIME_CLONE_INTERPOSE_H */
