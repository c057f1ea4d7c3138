/* glibc's asm labels: with _FILE_OFFSET_BITS=64 the 64-bit variants are
 * the symbols (__REDIRECT), and the C99 scanf family is __isoc99_*. */
// CPPFLAGS: -D_FILE_OFFSET_BITS=64
// ARGS: --filter offbits.filter
#include <stdio.h>
// CHECK-WRAP: fopen64 fopen
// CHECK-WRAP: fseeko64 fseeko
// CHECK-WRAP: ftello64 ftello
// CHECK-WRAP: tmpfile64 tmpfile
// CHECK-WRAP: __isoc99_sscanf sscanf
// CHECK-SKIP: printf filtered
