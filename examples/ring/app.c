/* app.c - the "real program" of the ring example: linked normally against
 * libring.so, it also loads ring_plugin.so with dlopen(). Measured unmodified
 * with LD_PRELOAD=$(libwrap-info preload ring). */
#include <dlfcn.h>
#include <stdio.h>

#include "ring.h"

int main(int argc, char **argv)
{
    const char *plugin = argc > 1 ? argv[1] : "./ring_plugin.so";
    void *h = dlopen(plugin, RTLD_NOW);
    if (!h) {
        fprintf(stderr, "app: %s\n", dlerror());
        return 1;
    }
    int (*fill)(ring *, int) = (int (*)(ring *, int))dlsym(h, "ring_plugin_fill");
    if (!fill) {
        fprintf(stderr, "app: %s\n", dlerror());
        return 1;
    }
    static const int values[] = {7, 8, 9};
    ring *r = ring_new(8);
    if (!r)
        return 1;
    size_t n = ring_push_all(r, values, 3);
    int filled = fill(r, 10);
    printf("app: pushed %zu, plugin filled %d, size %zu, sum %d\n", n, filled, ring_size(r), ring_sum(r));
    ring_free(r);
    dlclose(h);
    return 0;
}
