/* Named by libwrap.h, under an -I directory: in scope. */
#include <stdlib.h>            /* scope/sys/stdlib.h: a standard name in a system directory */
#include <vendor.h>            /* scope/sys/vendor.h: included by an in-scope header */
#include "detail.h"
#include "../../other/extra.h" /* outside every -I directory, included by an in-scope header */
int api_open(const char *name);
/* A function of the standard header declared again by the library
 * (jemalloc.h's malloc): the declaration in scope is kept. */
int fake_std_impl(int x);
