/* C prototypes of libfdemo's Fortran procedures, as cblas_f77.h and
 * lapack.h give them: CHARACTER arguments as char pointers, their lengths
 * as hidden size_t arguments after the declared ones. */
#include <stddef.h>
typedef double fdemo_real;
void fscale_(const char *jobz, const int *n, double *x, size_t jobz_len);
