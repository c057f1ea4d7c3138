/* The libpng16 headers an application includes (corpus case.env HEADERS). */
#include <png.h>
