/*
 * fftw_app.c - the case: an MPI program whose ranks run two
 * threads each, every thread executing an FFTW plan a known number of
 * times (fftw_execute is thread-safe; the planner is not, so plans are made
 * and destroyed under a lock). Rank 0 prints the job's result.
 *
 *   fftw_app EXECUTES
 */
#include <fftw3.h>
#include <math.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 256

static long executes;
static pthread_mutex_t planner = PTHREAD_MUTEX_INITIALIZER;

static void *work(void *arg)
{
    int seed = (int)(size_t)arg;
    fftw_complex *in = fftw_malloc(sizeof(fftw_complex) * N), *out = fftw_malloc(sizeof(fftw_complex) * N);
    pthread_mutex_lock(&planner);
    fftw_plan p = fftw_plan_dft_1d(N, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
    pthread_mutex_unlock(&planner);
    for (int i = 0; i < N; i++) {
        in[i][0] = sin(0.1 * i * seed);
        in[i][1] = 0;
    }
    for (long k = 0; k < executes; k++)
        fftw_execute(p);
    double *sum = malloc(sizeof *sum);
    *sum = 0;
    for (int i = 0; i < N; i++)
        *sum += fabs(out[i][0]) + fabs(out[i][1]);
    pthread_mutex_lock(&planner);
    fftw_destroy_plan(p);
    pthread_mutex_unlock(&planner);
    fftw_free(in);
    fftw_free(out);
    return sum;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    executes = argc > 1 ? atol(argv[1]) : 1000;
    pthread_t t[2];
    double local = 0;
    for (int i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, work, (void *)(size_t)(rank * 2 + i + 1)) != 0)
            MPI_Abort(MPI_COMM_WORLD, 3);
    for (int i = 0; i < 2; i++) {
        void *r;
        pthread_join(t[i], &r);
        local += *(double *)r;
        free(r);
    }
    /* Each rank's sum to rank 0 in rank order: the same digits every run. */
    double *all = rank == 0 ? malloc(sizeof *all * (size_t)size) : NULL;
    MPI_Gather(&local, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double total = 0;
        for (int r = 0; r < size; r++)
            total += all[r];
        printf("ranks %d, threads 2, fftw_execute per thread %ld, spectrum sum %.6e\n", size, executes,
               total);
        free(all);
    }
    MPI_Finalize();
    return 0;
}
