/* A library that hands out pointers to its own functions (as
 * eglGetProcAddress and vkGetInstanceProcAddr do): tests/workflow/wf_lookup.sh. */
#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*lk_fn)(int);
int lk_leaf(int x);
int lk_twice(int x);
double lk_scale(double x, int k);
/* The function named `name`, from the library's own table, or NULL;
 * `bias` and `weight` only travel in registers (a shim's test). */
lk_fn lk_lookup(const char *name, double weight, int bias);
/* A variadic function and its va_list twin (which the test's filter
 * leaves unwrapped): a lookup of the twin finds the twin. */
int lk_sum(int n, ...);
int lk_vsum(int n, va_list ap);
/* A pointer into another library (libc's abs): passed on as it is. */
lk_fn lk_foreign(void);

#ifdef __cplusplus
}
#endif
