/*
 * dl_interpose.h - between the dynamic-loading interposers (dl_x86_64.S,
 * built into liblibwrap_exec.a: a copy in the runtime and in every wrapper
 * shared library) and the runtime (dl.c).
 *
 * Each interposer (dlsym, dlvsym, dlopen, dlmopen) saves its arguments,
 * asks libwrap_dl_route where the call goes, and jumps there with its
 * arguments and its caller's return address untouched: glibc's functions
 * look at their caller (RTLD_NEXT, the caller's namespace, its RUNPATH),
 * so a call passed on reaches libc exactly as if made by the program.
 */
#ifndef LIBWRAP_RUNTIME_DL_INTERPOSE_H
#define LIBWRAP_RUNTIME_DL_INTERPOSE_H

#define LIBWRAP_DL_API __attribute__((visibility("default")))

enum lw_dl_kind { LW_DL_SYM, LW_DL_VSYM, LW_DL_OPEN, LW_DL_MOPEN, LW_DL_ADDR, LW_DL_ADDR1, LW_DL_KINDS };

/*
 * The function to jump to with the interposer's own arguments (a0, a1, a2
 * as the interposed function received them): libc's, or the runtime's
 * answer for a lookup that a wrapper answers. `caller` is the return
 * address of the interposed call.
 */
LIBWRAP_DL_API void *libwrap_dl_route(void *a0, void *a1, void *a2, void *caller, int kind);

/*
 * dladdr (LW_DL_ADDR) and dladdr1 (LW_DL_ADDR1, with `extra` and `flags`),
 * called from `caller` (dladdr_interpose.c): libc's answer, but for the
 * address of a runtime wrapper's function asked by the program or its
 * libraries, the answer for the function's original. `info` is a Dl_info.
 */
LIBWRAP_DL_API int libwrap_dl_addr(const void *addr, void *info, void **extra, int flags, int kind,
                                   const void *caller);

#endif /* LIBWRAP_RUNTIME_DL_INTERPOSE_H */
