/* main.c - calls every function of the ring library once or more. */
#include <stdio.h>

#include "ring.h"

int main(void)
{
    static const int values[] = {1, 2, 3, 4, 5, 6};
    ring *r = ring_new(4);
    if (!r) {
        perror("ring_new");
        return 1;
    }
    if (ring_push(r, 10) != 0)
        return 1;
    size_t pushed = ring_push_all(r, values, sizeof values / sizeof values[0]);
    printf("pushed %zu, size %zu, sum %d\n", pushed, ring_size(r), ring_sum(r));
    int v;
    while (ring_pop(r, &v) == 0)
        printf("pop %d\n", v);
    ring_free(r);
    return 0;
}
