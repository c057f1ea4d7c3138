/*
 * argmeta.h - what argument recording needs to know of each parameter and
 * result (docs/arguments.md): its kind, width, whether it is a size, and,
 * for the ABI-level wrappers, where the x86-64 System V ABI and AAPCS64
 * pass it.
 */
#ifndef LIBWRAP_ARGMETA_H
#define LIBWRAP_ARGMETA_H

#include <clang-c/Index.h>
#include <stdbool.h>

#include "model/inventory.h"

/* The kind, width and size flag of a value of type `t`, and how the ABI
 * passes it; `cxx`: C++ rules for classes (which may be passed by hidden
 * reference). */
void argmeta_classify(CXType t, bool cxx, lwg_argmeta *m);

/* The same for a function's result: its class says whether the caller
 * passes memory for it (LWG_ABI_CLASS_MEMORY: its address comes first). */
void argmeta_classify_result(CXType t, bool cxx, lwg_argmeta *m);

/* A Fortran-ABI function (a C symbol in lower case ending in '_', as
 * gfortran and f2c name them: BLAS dgemm_, LAPACK dgesdd_; its arguments
 * by reference but trailing hidden lengths) takes a CHARACTER argument as
 * a char pointer without a terminating NUL, its length as a hidden
 * argument after the declared ones. Marks its char pointer parameters
 * LWG_ARG_FORTRAN_CHAR so that LIBWRAP_ARGUMENTS refuses them with that
 * reason instead of reading them as C strings. */
void argmeta_fortran(lwg_function *f);

/* The object pointer of a C++ method. */
void argmeta_pointer(lwg_argmeta *m);

/* Places the parameters of `f` (the object pointer included) in registers
 * and on the stack, and its result, from their classes: as x86-64 System
 * V does (lwg_argmeta.abi), and as AAPCS64 does (.abi_a64). */
void argmeta_locate(lwg_function *f);
void argmeta_locate_a64(lwg_function *f);

#endif /* LIBWRAP_ARGMETA_H */
