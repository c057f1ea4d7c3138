/*
 * dl.h - the dynamic loader's functions, as the runtime uses them.
 *
 * The runtime is also built as a static archive (liblibwrap_runtime.a,
 * LIBWRAP_STATIC) for programs linked with -static or -static-pie. There
 * the loader's functions are referenced weakly: a static program that does
 * not use them itself does not get them (nor the linker's warning that
 * static dlopen needs the shared libraries at run time). Every use asks
 * lw_dl_available() first, 0 there: no plugins, no run-time lookup of
 * originals (link-time wrappers need none), no MPI found by name.
 */
#ifndef LIBWRAP_RUNTIME_DL_H
#define LIBWRAP_RUNTIME_DL_H

#include <dlfcn.h>
#include <link.h>

#ifdef LIBWRAP_STATIC
/* Never used there: the calls are dead code, and without optimisation the
 * references are weak. Loading shared plugins into a program with its own
 * static libc is not safe even where libc.a's dlopen is linked in. */
#pragma weak dlopen
#pragma weak dlclose
#pragma weak dlsym
#pragma weak dlvsym
#pragma weak dlerror
#pragma weak dladdr
#pragma weak dlinfo
#define lw_dl_available() 0
#else
#define lw_dl_available() 1
#endif

#endif /* LIBWRAP_RUNTIME_DL_H */
