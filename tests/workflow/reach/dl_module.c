/* dl_module.c - a module linked with the ring library, loaded by dl_app. */
#include "ring.h"

int module_run(void)
{
    ring *r = ring_new(8);
    ring_push(r, 1);
    ring_push(r, 2);
    int sum = ring_sum(r);
    ring_free(r);
    return sum;
}
