/*
 * seccomp_interpose.h - between the seccomp interposers (prctl and
 * syscall: seccomp_interpose.c, built into liblibwrap_exec.a, a copy in
 * the runtime and in every wrapper shared library) and the runtime
 * (process/lifecycle.c).
 *
 * Exported from the runtime, so that a wrapper's copy of the interposer
 * reaches it; kept out of libwrap.h because only the interposers call it.
 */
#ifndef LIBWRAP_RUNTIME_SECCOMP_INTERPOSE_H
#define LIBWRAP_RUNTIME_SECCOMP_INTERPOSE_H

#define LIBWRAP_SECCOMP_API __attribute__((visibility("default")))

/*
 * Called as the process installs a seccomp filter or enters strict mode
 * (prctl(PR_SET_SECCOMP), syscall(SYS_seccomp, SECCOMP_SET_MODE_*)),
 * before the call: from then on the system calls the runtime makes (the
 * results' directory and files, signal actions, a thread's first call;
 * rdtsc in strict mode) may kill the process. So measurement ends here:
 * the results are written, the runtime's signal handlers give the
 * program's actions back, and one warning says so. errno is kept.
 */
LIBWRAP_SECCOMP_API void libwrap_seccomp_prepare(void);

#endif /* LIBWRAP_RUNTIME_SECCOMP_INTERPOSE_H */
