/*
 * libwrap/next.h - the lookup of an original that a runtime wrapper makes
 * from its own object. Included by the generated wrappers of both kinds
 * (templates/wrappers.c.in, templates/wrappers_abi.c.in); not an
 * interface of its own.
 *
 * dlsym(RTLD_NEXT) searches the objects after its caller's, so this is
 * compiled into each wrapper (static, unused where a wrapper has no
 * runtime linkage) rather than called in the runtime.
 */
#ifndef LIBWRAP_NEXT_H
#define LIBWRAP_NEXT_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

#include "libwrap/libwrap.h"

#ifndef RTLD_NEXT
/* dlfcn.h defines RTLD_NEXT only under _GNU_SOURCE, which must not be
 * forced on the user's header (it changes declarations such as
 * strerror_r). This is its value in glibc and musl. */
#define RTLD_NEXT ((void *)-1l)
#endif

#ifdef __cplusplus
extern "C" {
#endif
/* dlvsym under its own name: <dlfcn.h> declares it only with _GNU_SOURCE. */
void *libwrap_dlvsym(void *, const char *, const char *) __asm__("dlvsym");
#ifdef __cplusplus
}
#endif

/* dlsym(RTLD_NEXT, symbol), or for a versioned symbol (the region's
 * "foo@V1", "foo@@V2") dlvsym of exactly that version, or for the default
 * version a definition without versions before it: the one the loader
 * would bind the program to (an interposer preloaded after the wrapper,
 * libwrap_unversioned). */
__attribute__((unused)) static void *libwrap_dlnext(const char *symbol)
{
    size_t n = 0;
    while (symbol[n] != '\0' && symbol[n] != '@')
        n++;
    if (symbol[n] == '\0')
        return dlsym(RTLD_NEXT, symbol);
    const char *version = symbol + n + (symbol[n + 1] == '@' ? 2 : 1);
    char buf[256];
    char *name = n < sizeof buf ? buf : (char *)malloc(n + 1);
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++)
        name[i] = symbol[i];
    name[n] = '\0';
    void *p = libwrap_dlvsym(RTLD_NEXT, name, version);
    if (symbol[n + 1] == '@') {
        void *d = dlsym(RTLD_NEXT, name);
        if (d != NULL && d != p && libwrap_unversioned(d))
            p = d;
    }
    if (name != buf)
        free(name);
    return p;
}

#endif
