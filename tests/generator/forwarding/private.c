/* private.c - loads plugin.c's library privately and calls into it. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "private: %s\n", dlerror());
        return 1;
    }
    int (*run)(void) = (int (*)(void))dlsym(h, "plugin_run");
    if (!run) {
        fprintf(stderr, "private: %s\n", dlerror());
        return 1;
    }
    printf("plugin_run -> %d\n", run());
    return 0;
}
