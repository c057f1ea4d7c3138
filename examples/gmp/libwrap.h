/* The gmp headers an application includes (corpus case.env HEADERS). */
#include <stdio.h>
#include <gmp.h>
