/* A library header that needs <complex.h>, as lapacke.h does. */
#include <complex.h>
#include <stddef.h>
double _Complex zlapk_dot(size_t n, const double _Complex *x, const double _Complex *y);
