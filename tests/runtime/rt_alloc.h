/* rt_alloc.h - the allocation functions the runtime itself uses, declared as
 * a library header so that libwrap-gen wraps them (rt_alloc.sh). */
#include <stddef.h>

void *malloc(size_t size);
void free(void *ptr);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);
char *strdup(const char *s);
