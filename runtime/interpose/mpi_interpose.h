/*
 * mpi_interpose.h - between the MPI interposers (mpi_interpose.c, built
 * into liblibwrap_exec.a with the exec interposers: a copy in the runtime
 * and in every wrapper shared library) and the runtime (mpi.c).
 *
 * Exported from the runtime so that a wrapper's copy of the interposers
 * reaches it; kept out of libwrap.h because only the interposers call them.
 * Both are idempotent per process: with several copies of the interposers
 * loaded, the first one in symbol lookup calls them, the next one (reached
 * through RTLD_NEXT) calls them again and they do nothing.
 */
#ifndef LIBWRAP_RUNTIME_MPI_INTERPOSE_H
#define LIBWRAP_RUNTIME_MPI_INTERPOSE_H

#define LIBWRAP_MPI_API __attribute__((visibility("default")))

/*
 * MPI_Init or MPI_Init_thread succeeded: the runtime learns the rank and
 * size, and, in a job of several processes running one program, takes part
 * in a few collectives of its own on a duplicate of MPI_COMM_WORLD (the
 * job's identity from rank 0, a clock offset measurement). errno is kept.
 */
LIBWRAP_MPI_API void libwrap_mpi_after_init(void);

/* MPI_Finalize is about to run: a second clock measurement, and the ranks
 * agree whether any of them measured something (then every rank writes its
 * part, so that the end of the job can be counted, and the ranks reduce
 * their profiles into the job's, written by rank 0). errno is kept. */
LIBWRAP_MPI_API void libwrap_mpi_before_finalize(void);

/* MPI_Abort is about to run: the launcher ends the job, this rank perhaps
 * by SIGKILL, so its results are written now. errno is kept. */
LIBWRAP_MPI_API void libwrap_mpi_before_abort(void);

#endif /* LIBWRAP_RUNTIME_MPI_INTERPOSE_H */
