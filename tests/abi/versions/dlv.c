/* dlv.c - calls bar (one version, V1) through a pointer from dlvsym three
 * times, through one from dlsym twice, and directly once (versions.sh). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include "foo.h"

int main(void)
{
    int (*v)(int) = (int (*)(int))dlvsym(RTLD_DEFAULT, "bar", "V1");
    int (*s)(int) = (int (*)(int))dlsym(RTLD_DEFAULT, "bar");
    if (!v || !s) {
        fprintf(stderr, "dlv: bar not found\n");
        return 1;
    }
    int x = 0;
    for (int i = 0; i < 3; i++)
        x = v(x);
    for (int i = 0; i < 2; i++)
        x = s(x);
    printf("bar %d\n", bar(x));
    return 0;
}
