/*
 * fortran.h - Fortran-ABI functions that the target exports and libwrap.h
 * does not declare (docs/workflow.md, "Fortran libraries").
 *
 * A Fortran library (BLAS, LAPACK) exports `dgemm_` with no C prototype in
 * the headers a C program includes (cblas.h declares cblas_dgemm). Such a
 * function is never in the inventory, so nothing would say that its calls
 * are not measured. This step lists them and looks for a header that
 * declares them: the top-level headers of the --cppflags -I directories and
 * of the system include directories whose text names one of them, parsed
 * with libclang.
 */
#ifndef LIBWRAP_FORTRAN_H
#define LIBWRAP_FORTRAN_H

#include <stdbool.h>
#include <stddef.h>

#include "model/inventory.h"
#include "util/words.h"

/* Is s a Fortran-ABI name: lower case, a trailing '_' (gfortran, f2c)? */
bool fortran_name(const char *s);

/* Prints one warning to stderr when some of `exported` (the Fortran-ABI
 * names the target libraries export; name i from libnames[from[i]], of
 * nlibs) are named by no in-scope declaration of `inv`, with the
 * libraries that export those and the header that declares them if one
 * is found. Names that look like a C library's own (fortran.c,
 * c_internal) are left out unless `fortran_runtime` (a target needs a
 * Fortran run-time library) or the names themselves say that the library
 * is Fortran's. Returns the number of functions listed. */
size_t fortran_undeclared(lwg_inventory *inv, const lwg_strv *exported, const size_t *from,
                          const char *const *libnames, size_t nlibs, bool fortran_runtime, const char *cppflags);

#endif /* LIBWRAP_FORTRAN_H */
