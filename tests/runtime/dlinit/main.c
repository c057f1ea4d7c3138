/* main.c - loads libtop (tests/runtime/dlinit.sh) and calls it N times. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3;
    void *h = dlopen("libtop.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    int (*top)(int) = (int (*)(int))dlsym(h, "top_value");
    long s = 0;
    for (int i = 0; i < n; i++)
        s += top(i);
    printf("sum %ld\n", s);
    return 0;
}
