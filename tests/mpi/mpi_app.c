/*
 * mpi_app.c - an MPI program of the kind libwrap measures in a job: every
 * rank runs two threads that call the wrapped library (mlib) a known number
 * of times, then the ranks combine their results; only rank 0 prints, so
 * the output does not depend on the order in which ranks finish.
 *
 *   mpi_app CALLS [idle=R] [exit=S] [abort=R] [system] [tags]
 *
 * CALLS: mlib_step calls per thread; each thread also calls mlib_chain
 * once. idle=R: rank R makes no library call. exit=S: rank 0 exits with
 * status S after MPI_Finalize. abort=R: rank R calls MPI_Abort with 7
 * once its threads are done (the others wait in MPI_Reduce). system: every rank runs a shell command
 * with system(3) (which inherits LD_PRELOAD and the launcher's variables).
 * tags: each thread also calls mlib_tag (tags.h).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlib.h"
#include "tags.h"

static long calls;
static int rank, with_tags;

static void *work(void *arg)
{
    long x = (long)(size_t)arg;
    for (long i = 0; i < calls; i++)
        x = mlib_step(x);
    x = mlib_chain(x, 100000); /* some 100 us: a time to compare (mpi_job.sh) */
    if (with_tags)
        tags(rank, (int)((size_t)arg - 1) % 2);
    return (void *)(size_t)(x & 0xffff);
}

int main(int argc, char **argv)
{
    int provided, size, idle = -1, status = 0, shell = 0, abort_rank = -1;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    calls = argc > 1 ? atol(argv[1]) : 1000;
    for (int i = 2; i < argc; i++) {
        if (strncmp(argv[i], "idle=", 5) == 0)
            idle = atoi(argv[i] + 5);
        else if (strncmp(argv[i], "exit=", 5) == 0)
            status = atoi(argv[i] + 5);
        else if (strncmp(argv[i], "abort=", 6) == 0)
            abort_rank = atoi(argv[i] + 6);
        else if (strcmp(argv[i], "system") == 0)
            shell = 1;
        else if (strcmp(argv[i], "tags") == 0)
            with_tags = 1;
    }
    if (shell && system("echo system | md5sum > /dev/null") != 0) {
        fprintf(stderr, "mpi_app: system() failed\n");
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
    long local = 0;
    if (rank != idle) {
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            if (pthread_create(&t[i], NULL, work, (void *)(size_t)(rank * 2 + i + 1)) != 0) {
                fprintf(stderr, "mpi_app: pthread_create failed\n");
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
        for (int i = 0; i < 2; i++) {
            void *r;
            pthread_join(t[i], &r);
            local += (long)(size_t)r;
        }
    }
    if (rank == abort_rank)
        MPI_Abort(MPI_COMM_WORLD, 7);
    long total = 0;
    MPI_Reduce(&local, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("ranks %d, calls per thread %ld, checksum %ld\n", size, calls, total);
        fflush(stdout);
    }
    MPI_Finalize();
    return rank == 0 ? status : 0;
}
