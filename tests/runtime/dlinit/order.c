/*
 * order.c - the libraries of tests/runtime/dlinit.sh, one file built four
 * times (-DLIB_C, -DLIB_X, -DLIB_T, -DLIB_TOP). A program dlopens libtop,
 * which needs libc_ (its constructor calls dlopen, as libGLdispatch's
 * does) and libt (the wrapped target), which needs libx, which needs
 * libc_ ready: the loader runs libc_'s constructor, then libx's, then
 * libt's. libx's constructor says so when it runs before libc_'s ended.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef LIB_C
int c_ready;
__attribute__((constructor)) static void c_init(void)
{
    /* A library's own lookup while it starts (libGLdispatch: dlopen(NULL)). */
    void *self = dlopen(NULL, RTLD_LAZY);
    if (self)
        dlclose(self);
    c_ready = 1;
}
#endif

#ifdef LIB_X
extern int c_ready;
int x_ready;
__attribute__((constructor)) static void x_init(void)
{
    if (!c_ready) {
        fprintf(stderr, "libx started before libc_ was ready\n");
        abort();
    }
    x_ready = 1;
}
#endif

#ifdef LIB_T
extern int x_ready;
int t_value(int v)
{
    return v + x_ready;
}
#endif

#ifdef LIB_TOP
int t_value(int v);
int top_value(int v)
{
    return t_value(v) * 2;
}
#endif
