/* tags.h - the calls of mlib_tag that the programs of the MPI tests make
 * when asked ("tags"), for the recorded arguments of a job: thread t of
 * rank r calls mlib_tag(NAMES[(r + k) % 3], k) for k = 0 .. r + t + 2,
 * then mlib_tag("rank-R", -r). Rank r makes 2r + 9 calls: the ranks
 * differ, and mpi_job.sh's arguments scenario computes every count, sum,
 * extreme and value. */
#ifndef MPI_TESTS_TAGS_H
#define MPI_TESTS_TAGS_H

#include <stdio.h>

#include "mlib.h"

static long tags(int rank, int thread)
{
    static const char *const names[3] = {"alpha", "beta", "gamma"};
    char own[32];
    long sum = 0;
    for (int k = 0; k < rank + thread + 3; k++)
        sum += mlib_tag(names[(rank + k) % 3], k);
    snprintf(own, sizeof own, "rank-%d", rank);
    return sum + mlib_tag(own, -rank);
}

#endif
