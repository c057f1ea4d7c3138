/*
 * plain_app.c - a program without MPI that a launcher starts many times
 * (mpirun, srun): the rank comes only from the launcher's environment. Two
 * threads call the wrapped library; nothing is printed but by the process
 * the launcher calls rank 0 (OMPI_COMM_WORLD_RANK), or a lone process.
 *
 *   plain_app CALLS [idle=R] [tags]
 *
 * tags: each thread also calls mlib_tag (tags.h), as the rank the
 * launcher's environment names (SLURM_PROCID or OMPI_COMM_WORLD_RANK).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlib.h"
#include "tags.h"

static long calls;
static int tag_rank = -1;

static void *work(void *arg)
{
    long x = (long)(size_t)arg;
    for (long i = 0; i < calls; i++)
        x = mlib_step(x);
    if (tag_rank >= 0)
        tags(tag_rank, (int)(size_t)arg - 1);
    return (void *)(size_t)(x & 0xffff);
}

int main(int argc, char **argv)
{
    const char *r = getenv("OMPI_COMM_WORLD_RANK");
    int rank = r ? atoi(r) : 0, idle = -1;
    calls = argc > 1 ? atol(argv[1]) : 1000;
    for (int i = 2; i < argc; i++)
        if (strncmp(argv[i], "idle=", 5) == 0) {
            idle = atoi(argv[i] + 5);
        } else if (strcmp(argv[i], "tags") == 0) {
            const char *p = getenv("SLURM_PROCID");
            tag_rank = p ? atoi(p) : rank;
        }
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
