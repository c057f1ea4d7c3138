/*
 * ring.h - a fixed-capacity ring buffer of ints: the small library that the
 * libwrap examples and workflow tests wrap.
 */
#ifndef RING_H
#define RING_H

#include <stddef.h>

typedef struct ring ring;

/* A new, empty ring of `capacity` (> 0) ints, or NULL (errno set). */
ring *ring_new(size_t capacity);
void ring_free(ring *r);

/* 0 on success, -1 when full (push) or empty (pop). */
int ring_push(ring *r, int value);
int ring_pop(ring *r, int *value);

/* Pushes values[0..n) with ring_push; returns how many fitted. Calls the
 * exported ring_push, so a preloaded wrapper sees the library's own calls. */
size_t ring_push_all(ring *r, const int *values, size_t n);

size_t ring_size(const ring *r);
int ring_sum(const ring *r);

#endif /* RING_H */
