/*
 * both_app.c - a program linked with the ring's link-time wrapper, run
 * with its runtime wrapper preloaded too (wf_reach.sh): its own calls go
 * through the first, a lookup's answer through the second. Each function
 * is one function of the profile, its calls counted once.
 */
#include <dlfcn.h>
#include <stdio.h>
#include "ring.h"

int main(void)
{
    ring *r = ring_new(8);
    int (*push)(ring *, int) = (int (*)(ring *, int))dlsym(RTLD_DEFAULT, "ring_push");
    for (int i = 0; i < 3; i++)
        ring_push(r, i);
    for (int i = 0; i < 2; i++)
        push(r, 10 + i);
    printf("sum %d\n", ring_sum(r));
    ring_free(r);
    return 0;
}
