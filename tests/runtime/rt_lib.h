/* rt_lib.h - the test library's API (wrapped names) and its originals. */
#ifndef RT_LIB_H
#define RT_LIB_H

#include <setjmp.h>
#include <stdint.h>

int lib_add(int a, int b);
int lib_call(int (*cb)(int), int x);
int lib_recurse(int n);
int lib_fail(void);
int lib_exit(int status);
int lib_crash(int how);
int lib_jump(jmp_buf *env, int value);
int lib_fork(void);
int lib_clone(int flags, int (*fn)(void *));

int real_lib_add(int a, int b);
int real_lib_call(int (*cb)(int), int x);
int real_lib_recurse(int n);
int real_lib_fail(void);
int real_lib_exit(int status);
int real_lib_crash(int how);
int real_lib_jump(jmp_buf *env, int value);
int real_lib_fork(void);
int real_lib_clone(int flags, int (*fn)(void *));

#endif
