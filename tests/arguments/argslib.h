/*
 * argslib.h - the test library of argument recording (args.sh): every kind
 * of value LIBWRAP_ARGUMENTS records, in registers and on the stack, and
 * parameters it cannot record.
 */
#ifndef ARGSLIB_H
#define ARGSLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum al_color { AL_RED = 0, AL_GREEN = 5, AL_BLUE = -3 };
/* An enum whose underlying type is unsigned int. */
typedef enum al_level { AL_LOW = 1u, AL_HIGH = 4000000000u } al_level;

struct al_big { long v[4]; };     /* passed in memory */
struct al_small { int a; float b; }; /* one eightbyte with an int: %rdi (x0) */
struct al_pair { double x, y; };     /* two of doubles: %xmm0 and %xmm1 (an HFA: v0, v1) */
/* A vector inside: on x86-64 libwrap-gen does not place what follows; on
 * AArch64 it is an HVA of one vector (v0), and what follows is placed. */
struct al_vec { float v __attribute__((vector_size(8))); };

/* Eight integers: the last two on the stack. */
int al_ints(int8_t i8, int16_t i16, int32_t i32, int64_t i64, uint8_t u8, uint16_t u16, uint32_t u32,
            uint64_t u64);
int al_mixed(int i, unsigned u, enum al_color color, double d, float f, bool b, const char *s, size_t n);
ssize_t al_write(int fd, const void *buf, size_t len);
double al_scale(double x, al_level level);
/* Nine doubles: the last one on the stack. */
double al_sum9(double a, double b, double c, double d, double e, double f, double g, double h, double i);
const char *al_name(int i);
/* Reads `s` only when `read` is set: the test passes unreadable pointers. */
int al_len(const char *s, int read);
long al_big(struct al_big big, long after);
int al_small(struct al_small s, int after);
double al_pair(struct al_pair p, double d, int k);
int al_vec(struct al_vec s, int after);
char *al_fill(char *out, size_t cap);
void al_void(long x);
/* fn(x) under a setjmp: al_throw(code), called from fn, jumps back there
 * and al_protect returns -code (as Lua's lua_pcall and luaL_error): the
 * result of a call whose callee was left by longjmp. */
int al_protect(int (*fn)(int), int x);
void al_throw(int code) __attribute__((noreturn));

#endif
