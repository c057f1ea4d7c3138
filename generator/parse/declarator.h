/*
 * declarator.h - spells C (and simple C++) declarators from libclang types.
 *
 * clang_getTypeSpelling gives "void (*)(int)" for a type, which cannot be
 * turned into a declaration by appending a name. These functions rebuild the
 * declarator from the type's structure, the way C nests them: the name goes
 * inside pointers, pointers are parenthesized before function and array
 * suffixes ("void (*name)(int)", "int (*name)[4]"). Leaf types (builtins,
 * typedef names, struct/union/enum tags) keep clang's spelling, so typedef
 * names survive into the generated code.
 */
#ifndef LIBWRAP_DECLARATOR_H
#define LIBWRAP_DECLARATOR_H

#include <clang-c/Index.h>

/* Type `t` declared around `inner` (a name, "@@(...)" or "" for an abstract
 * declarator). Returns a new string, or NULL with *why set to a new string
 * saying which type cannot be spelled (anonymous struct without typedef,
 * variably modified type, C++ member pointer, ...). */
char *declarator_spell(CXType t, const char *inner, char **why);

/* A parameter of type `t` named `name`, adjusted as C adjusts parameters:
 * arrays and functions decay to pointers. A VLA parameter becomes a pointer
 * to its element, a pointer to a VLA becomes `void *` (ABI-identical; the
 * size expression names other parameters and cannot be spelled). */
char *declarator_param(CXType t, const char *name, char **why);

/* Why a C++ declaration (a type's or a class's) cannot be named by the
 * wrappers: it is a private or protected member, or nested in one. NULL when
 * it can. */
const char *declarator_inaccessible(CXCursor decl);

/* The type alone, as an abstract declarator ("void (*)(int)"), or NULL. */
char *declarator_type(CXType t, char **why);

#endif /* LIBWRAP_DECLARATOR_H */
