/*
 * dladdr_interpose.c - the interposers of dladdr and dladdr1, built into
 * liblibwrap_exec.a beside the exec interposers (a copy in the runtime and
 * in every wrapper shared library, the first in lookup order called,
 * definitions weak). Each hands the call to the runtime
 * (libwrap_dl_addr, dl_interpose.h), which asks libc and answers for an
 * original where the address is a runtime wrapper's function.
 */
#include "interpose/dl_interpose.h"

#include <dlfcn.h>
#include <stddef.h>

#define LW_DLADDR_INTERPOSER __attribute__((weak, visibility("default"), noinline))

LW_DLADDR_INTERPOSER int dladdr(const void *addr, Dl_info *info)
{
    return libwrap_dl_addr(addr, info, NULL, 0, LW_DL_ADDR, __builtin_return_address(0));
}

LW_DLADDR_INTERPOSER int dladdr1(const void *addr, Dl_info *info, void **extra, int flags)
{
    return libwrap_dl_addr(addr, info, extra, flags, LW_DL_ADDR1, __builtin_return_address(0));
}
