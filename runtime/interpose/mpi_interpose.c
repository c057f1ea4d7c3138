/*
 * mpi_interpose.c - MPI_Init, MPI_Init_thread, MPI_Finalize and MPI_Abort
 * (C and Fortran bindings), interposed when the program has them, built into
 * liblibwrap_exec.a next to the exec interposers (exec_interpose.c explains why a copy lives in every wrapper
 * library: only an object that precedes libmpi in symbol lookup is called).
 *
 * The runtime never links libmpi: the real functions are found with
 * dlsym(RTLD_NEXT) from this object, the runtime's own MPI calls with
 * dlsym(RTLD_DEFAULT) of the PMPI names (mpi.c). In a program without MPI
 * these definitions are never called; if one is (a library probing for MPI
 * by symbol), it fails with MPI's "other error" class instead of crashing.
 *
 * Weak, like the exec interposers: an MPI profiling tool linked into the
 * same object keeps its own definitions.
 */
#include "interpose/mpi_interpose.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stddef.h>
#include <unistd.h>

#define LW_MPI_INTERPOSER __attribute__((weak, visibility("default")))

/* Every copy of these interposers defines it (the runtime and each wrapper
 * library carry one): an object that does is not the MPI library. */
LW_MPI_INTERPOSER const char libwrap_mpi_interposers = 1;

/* The MPI library's `name`: the next definition in symbol lookup, or,
 * where the library is not in the global scope (loaded with RTLD_LOCAL:
 * mpi4py, a plugin that links it), the first loaded object that defines
 * it itself and is none of libwrap's. The object calling MPI_Init binds it
 * here first (a preloaded library comes before its own scope). */
/* Whether the object `l` carries these interposers (a wrapper library, or
 * the runtime) and so is not the MPI library. */
static int lw_mpi_libwrap_object(struct link_map *l)
{
    void *h = l && l->l_name && l->l_name[0] ? dlopen(l->l_name, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    if (!h)
        return 0;
    void *m = dlsym(h, "libwrap_mpi_interposers");
    Dl_info info;
    struct link_map *mine = NULL;
    int yes = m && dladdr1(m, &info, (void **)&mine, RTLD_DL_LINKMAP) && mine == l;
    dlclose(h);
    return yes;
}

/* Whether `p`, the next definition, is a wrapper of the MPI library's own
 * function (a wrapper library carries these interposers too, weak, and
 * its wrapper of MPI_Abort takes their step once it has counted the call:
 * core/abi/abi_slow.c). */
static int lw_mpi_next_wraps(void *p)
{
    Dl_info info;
    struct link_map *l = NULL;
    return p && dladdr1(p, &info, (void **)&l, RTLD_DL_LINKMAP) && lw_mpi_libwrap_object(l);
}

static void *lw_mpi_real(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (p)
        return p;
    for (struct link_map *l = _r_debug.r_map; l; l = l->l_next) {
        if (!l->l_name || !l->l_name[0])
            continue;
        void *h = dlopen(l->l_name, RTLD_LAZY | RTLD_NOLOAD);
        if (!h)
            continue;
        void *q = dlsym(h, name);
        Dl_info info;
        struct link_map *def = NULL;
        int own = q && dladdr1(q, &info, (void **)&def, RTLD_DL_LINKMAP) && def == l && !lw_mpi_libwrap_object(l);
        dlclose(h);
        if (own)
            return q;
    }
    return NULL;
}

/* No MPI library below us: a non-zero MPI error code (there is no mpi.h to
 * take MPI_ERR_OTHER from, and its value differs between libraries). */
#define LW_MPI_NO_LIBRARY 16

LW_MPI_INTERPOSER int MPI_Init(int *argc, char ***argv)
{
    int (*real)(int *, char ***) = (int (*)(int *, char ***))lw_mpi_real("MPI_Init");
    if (!real) {
        errno = ENOSYS;
        return LW_MPI_NO_LIBRARY;
    }
    int r = real(argc, argv);
    if (r == 0)
        libwrap_mpi_after_init();
    return r;
}

LW_MPI_INTERPOSER int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int (*real)(int *, char ***, int, int *) =
        (int (*)(int *, char ***, int, int *))lw_mpi_real("MPI_Init_thread");
    if (!real) {
        errno = ENOSYS;
        return LW_MPI_NO_LIBRARY;
    }
    int r = real(argc, argv, required, provided);
    if (r == 0)
        libwrap_mpi_after_init();
    return r;
}

LW_MPI_INTERPOSER int MPI_Finalize(void)
{
    int (*real)(void) = (int (*)(void))lw_mpi_real("MPI_Finalize");
    if (!real) {
        errno = ENOSYS;
        return LW_MPI_NO_LIBRARY;
    }
    libwrap_mpi_before_finalize();
    return real();
}

/* MPI_Abort(comm, errorcode): the communicator is a pointer (Open MPI) or
 * an int (MPICH), in the first argument register either way, passed on as
 * it came. Without an MPI library below, the process ends as the call
 * would have ended it. */
LW_MPI_INTERPOSER int MPI_Abort(void *comm, int errorcode)
{
    int (*real)(void *, int) = (int (*)(void *, int))lw_mpi_real("MPI_Abort");
    if (!lw_mpi_next_wraps((void *)real))
        libwrap_mpi_before_abort();
    if (!real)
        _exit(errorcode ? errorcode : 1);
    return real(comm, errorcode);
}

/*
 * The Fortran bindings (mpif.h, `use mpi`) under gfortran's names: lower
 * case with one trailing underscore, every argument by reference, the last
 * one the error code (a default INTEGER, int with Open MPI and MPICH).
 * Their implementations call the C library's PMPI functions, not MPI_Init,
 * so they are interposed on their own; a binding that does reach MPI_Init
 * as well only calls the idempotent hooks twice.
 */
LW_MPI_INTERPOSER void mpi_init_(int *ierr)
{
    void (*real)(int *) = (void (*)(int *))lw_mpi_real("mpi_init_");
    if (!real) {
        if (ierr)
            *ierr = LW_MPI_NO_LIBRARY;
        return;
    }
    real(ierr);
    if (ierr && *ierr == 0)
        libwrap_mpi_after_init();
}

LW_MPI_INTERPOSER void mpi_init_thread_(int *required, int *provided, int *ierr)
{
    void (*real)(int *, int *, int *) = (void (*)(int *, int *, int *))lw_mpi_real("mpi_init_thread_");
    if (!real) {
        if (ierr)
            *ierr = LW_MPI_NO_LIBRARY;
        return;
    }
    real(required, provided, ierr);
    if (ierr && *ierr == 0)
        libwrap_mpi_after_init();
}

LW_MPI_INTERPOSER void mpi_finalize_(int *ierr)
{
    void (*real)(int *) = (void (*)(int *))lw_mpi_real("mpi_finalize_");
    if (!real) {
        if (ierr)
            *ierr = LW_MPI_NO_LIBRARY;
        return;
    }
    libwrap_mpi_before_finalize();
    real(ierr);
}

LW_MPI_INTERPOSER void mpi_abort_(void *comm, int *errorcode, int *ierr)
{
    void (*real)(void *, int *, int *) = (void (*)(void *, int *, int *))lw_mpi_real("mpi_abort_");
    if (!lw_mpi_next_wraps((void *)real))
        libwrap_mpi_before_abort();
    if (!real)
        _exit(errorcode && *errorcode ? *errorcode : 1);
    real(comm, errorcode, ierr);
}
