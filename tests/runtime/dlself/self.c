/*
 * self.c - a library that finds its own file by the address of one of its
 * functions, as libasound does (snd_dlopen(NULL) opens dladdr(snd_dlopen)'s
 * file, then looks its configuration hooks up there):
 * tests/runtime/dlself.sh. Under a preloaded wrapper of self_open, the
 * library's &self_open is the wrapper's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include "self.h"

/* Not in self.h: not wrapped, looked up in the library's own file. */
int self_hook(void)
{
    return 42;
}

int self_open(void)
{
    Dl_info info;
    if (!dladdr((void *)self_open, &info) || !info.dli_fname)
        return -1;
    /* The address asked about is the symbol's start, as without a wrapper. */
    if (info.dli_saddr != (void *)self_open)
        return -6;
    void *h = dlopen(info.dli_fname, RTLD_LAZY);
    if (!h)
        return -2;
    int (*hook)(void) = (int (*)(void))dlsym(h, "self_hook");
    int r = hook ? hook() : -3;
    dlclose(h);
    /* dladdr1's link map and symbol: the library's own. */
    struct link_map *l = NULL;
    const ElfW(Sym) *sym = NULL;
    if (!dladdr1((void *)self_open, &info, (void **)&l, RTLD_DL_LINKMAP) || !l || !strstr(l->l_name, "libself"))
        return -4;
    if (!dladdr1((void *)self_open, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym || !info.dli_sname ||
        strcmp(info.dli_sname, "self_open"))
        return -5;
    return r;
}
