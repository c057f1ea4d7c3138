#include "ring.h"

#include <errno.h>
#include <stdlib.h>

struct ring {
    size_t capacity, head, size;
    int values[];
};

ring *ring_new(size_t capacity)
{
    if (capacity == 0) {
        errno = EINVAL;
        return NULL;
    }
    ring *r = malloc(sizeof *r + capacity * sizeof r->values[0]);
    if (!r)
        return NULL;
    r->capacity = capacity;
    r->head = r->size = 0;
    return r;
}

void ring_free(ring *r)
{
    free(r);
}

int ring_push(ring *r, int value)
{
    if (r->size == r->capacity)
        return -1;
    r->values[(r->head + r->size++) % r->capacity] = value;
    return 0;
}

int ring_pop(ring *r, int *value)
{
    if (r->size == 0)
        return -1;
    *value = r->values[r->head];
    r->head = (r->head + 1) % r->capacity;
    r->size--;
    return 0;
}

size_t ring_push_all(ring *r, const int *values, size_t n)
{
    size_t i = 0;
    while (i < n && ring_push(r, values[i]) == 0)
        i++;
    return i;
}

size_t ring_size(const ring *r)
{
    return r->size;
}

int ring_sum(const ring *r)
{
    int sum = 0;
    for (size_t i = 0; i < r->size; i++)
        sum += r->values[(r->head + i) % r->capacity];
    return sum;
}
