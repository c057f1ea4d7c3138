/*
 * rt_interposers.c - a shared object that carries its own copy of
 * liblibwrap_exec.a, as every wrapper library does: preloaded in front of
 * rt_app's runtime, its interposers are called first and reach the
 * runtime's copy through dlsym(RTLD_NEXT). The archive is linked whole;
 * this file only gives the library a source.
 */
int rt_interposers_copy = 1;
