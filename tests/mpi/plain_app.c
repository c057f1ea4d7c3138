/*
 * plain_app.c - a program without MPI that a launcher starts many times
 * (mpirun, srun): the rank comes only from the launcher's environment. Two
 * threads call the wrapped library; nothing is printed but by the process
 * the launcher calls rank 0 (OMPI_COMM_WORLD_RANK), or a lone process.
 *
 *   plain_app CALLS [idle=R]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlib.h"

static long calls;

static void *work(void *arg)
{
    long x = (long)(size_t)arg;
    for (long i = 0; i < calls; i++)
        x = mlib_step(x);
    return (void *)(size_t)(x & 0xffff);
}

int main(int argc, char **argv)
{
    const char *r = getenv("OMPI_COMM_WORLD_RANK");
    int rank = r ? atoi(r) : 0, idle = -1;
    calls = argc > 1 ? atol(argv[1]) : 1000;
    if (argc > 2 && strncmp(argv[2], "idle=", 5) == 0)
        idle = atoi(argv[2] + 5);
    long sum = 0;
    if (rank != idle) {
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            if (pthread_create(&t[i], NULL, work, (void *)(size_t)(i + 1)) != 0)
                return 3;
        for (int i = 0; i < 2; i++) {
            void *v;
            pthread_join(t[i], &v);
            sum += (long)(size_t)v;
        }
    }
    if (rank == 0)
        printf("plain: calls per thread %ld, checksum %ld\n", calls, sum);
    return 0;
}
