/* plug_lib.h - the library that the plugin tests wrap (libplug.so). */
#ifndef PLUG_LIB_H
#define PLUG_LIB_H

/* Reads exactly n bytes of `path` with read(2) (one call for a regular
 * file of at least n bytes) and returns their sum, or -1. */
long plug_read(const char *path, long n);
/* A fixed amount of arithmetic: the same result on every run. */
unsigned long plug_work(unsigned long rounds);
int plug_add(int a, int b);
#endif
