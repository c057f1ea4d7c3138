/* uv_quiet.c - linked with libuv (NEEDED), never calls it: libuv's fini
 * array still calls uv_library_shutdown at exit. */
#include <stdio.h>

int main(void)
{
    printf("quiet\n");
    return 4;
}
