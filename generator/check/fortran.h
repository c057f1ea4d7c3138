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

#include "model/inventory.h"
#include "check/symcheck.h"

/* Prints one warning to stderr when `targets` export Fortran-ABI functions
 * (lower-case names ending in '_') that no in-scope declaration of `inv`
 * names, with the header that declares them if one is found. Returns the
 * number of such functions. */
size_t fortran_undeclared(lwg_inventory *inv, const lwg_libset *targets, const char *cppflags);

#endif /* LIBWRAP_FORTRAN_H */
