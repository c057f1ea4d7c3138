/* The ring library's public header, as its applications include it. */
#include <ring.h>
