/* Another header that declares a procedure of libfdemo, but whose types
 * conflict with fdemo_f77.h's (as OpenBLAS's f77blas.h and lapack.h do):
 * it does not compile after it, and make must not send the user there. */
typedef float fdemo_real;
void fnoproto_(void);
