/* The libm headers an application includes (corpus case.env HEADERS). */
#include <math.h>
#include <complex.h>
