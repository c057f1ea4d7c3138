/* plugin.c - a module that ring_app loads with dlopen() and that calls the
 * ring library: LD_PRELOAD measurement must see these calls too. */
#include "ring.h"

int ring_plugin_fill(ring *r, int n);

int ring_plugin_fill(ring *r, int n)
{
    int pushed = 0;
    for (int i = 0; i < n; i++)
        pushed += ring_push(r, 100 + i) == 0;
    return pushed;
}
