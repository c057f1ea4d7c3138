/* rr_app.c - calls rr_walk on two threads: the main thread runs
 * rr_walk(3) 6 times, a second thread rr_walk(2) 4 times, each spinning
 * 200 us and touching 256 KiB in its innermost call. Prints the
 * calls made; exit 0. */
#include <pthread.h>
#include <stdio.h>

#include "rr.h"

#define LEAF_NS 200000L

static void *worker(void *arg)
{
    int *calls = arg;
    for (int i = 0; i < 4; i++)
        *calls += rr_walk(2, LEAF_NS, 256);
    return NULL;
}

int main(void)
{
    pthread_t t;
    int mine = 0, theirs = 0;
    if (pthread_create(&t, NULL, worker, &theirs) != 0)
        return 1;
    for (int i = 0; i < 6; i++)
        mine += rr_walk(3, LEAF_NS, 256);
    if (pthread_join(t, NULL) != 0)
        return 1;
    printf("calls %d %d\n", mine, theirs);
    return 0;
}
