/*
 * internal.h - what the files of parse/ share; nothing outside parse/
 * includes it (parse.h is the folder's interface).
 */
#ifndef LIBWRAP_GEN_PARSE_INTERNAL_H
#define LIBWRAP_GEN_PARSE_INTERNAL_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/inventory.h"
#include "parse/parse.h"

/* A libclang string as a new C string; disposes of s. */
char *cx_string(CXString s);

/* ---- gcc_spelling.c ---- */

/* The prelude included before libwrap.i: typedefs and a macro that give
 * clang gcc's meaning of _FloatN and __malloc__(deallocator, index). */
extern const char parse_prelude_name[];
extern const char parse_prelude_c[];
extern const size_t parse_prelude_len;

/* libwrap.i's text with the spellings only gcc accepts rewritten
 * (`_Complex _FloatN`, a GNU attribute before a C++11 one); a new string
 * of *outlen bytes, or NULL when nothing needed rewriting. */
char *parse_gcc_spelling(const char *text, size_t len, size_t *outlen);

bool parse_is_ident_char(char c);

/* ---- diagnostics.c ---- */

/* An error libclang reported, where the source text has it (an offset
 * into libwrap.i, to find the declaration that holds it) and where the
 * header has it (for the messages). */
typedef struct parse_error {
    unsigned offset;
    bool in_source;  /* in libwrap.i, not in the prelude */
    bool fatal;
    bool in_main;    /* in the user's own file (libwrap.h), not a library header */
    bool used;       /* a declaration was left out for it */
    char *where;     /* "header.h:LINE:COL" */
    char *msg;
} parse_error;

typedef struct parse_errors {
    parse_error *e;  /* sorted by offset */
    size_t n;
} parse_errors;

/* The file libwrap.i was preprocessed from: its first line marker. */
char *main_file_of(const char *text, size_t len);
/* Collects the errors and fatals, at the presumed location. */
void collect_errors(CXTranslationUnit tu, bool cxx, const char *main_file, parse_errors *out);
void free_errors(parse_errors *pe);
void print_error(const parse_error *pe, const char *severity);
/* "FILE:LINE:COL: warning: declaration of NAME left out: MSG", with what
 * to do where the header uses a type it does not declare. */
void print_left_out(const parse_error *pe, const char *name);
/* How many errors stop generation (fatal, or the preprocessor's). */
unsigned stopping_errors(const parse_errors *pe);
/* The first error within [begin, end] of libwrap.i, or NULL. */
parse_error *error_within(parse_errors *pe, unsigned begin, unsigned end);
/* Function declarations libclang dropped, listed as not parsing. */
void list_dropped_declarations(lwg_inventory *inv, parse_errors *pe, const char *text, size_t len);
/* Warns of the errors no declaration was left out for. */
void warn_unused_errors(const parse_errors *pe);

/* ---- visitor.c ---- */

typedef struct visit_ctx {
    lwg_inventory *inv;
    const lwg_parse_options *opt;
    bool cxx;
    char **usr;      /* per function: the entity's USR (redeclarations share it) */
    size_t usr_cap;
    parse_errors *errors;
    CXCursor signals;  /* the class whose Q_SIGNALS section is being read, or null */
} visit_ctx;

/* Adds the function declared at c (and, for C++ constructors and
 * destructors, its other variants). */
void add_function(visit_ctx *ctx, CXCursor c);
enum CXChildVisitResult decl_visitor(CXCursor c, CXCursor parent, CXClientData data);

/* ---- cxx.c ---- */

/* The enclosing namespaces and classes of c, "a::B"; "" at file scope. */
char *qualified_scope(CXCursor c);
/* The function's own name, with its template arguments when it is a
 * specialization of a function template ("make<A>"), so that two
 * specializations are told apart by name as overloads are. */
char *specialization_name(CXCursor c);
lwg_fn_kind cursor_func_kind(CXCursor c);
/* Does the member function take the object pointer (`this`)? */
bool takes_this(CXCursor c);
/* Adds `this` as the first parameter (ABI level), a void pointer where the
 * class cannot be named: then false, with *why set when why is given. */
bool prepend_this(lwg_function *f, CXCursor c, char **why);
/* Why a C++ function with external linkage cannot be wrapped, or NULL. */
const char *cxx_unwrappable(CXCursor c, lwg_skip *why);
/* Has the class a virtual base (its structors take a VTT)? */
bool has_virtual_base(CXCursor cls);
/* The Itanium ABI variants of the constructor or destructor just added. */
void add_structor_variants(visit_ctx *ctx, CXCursor c);
/* Is class cursor c an explicit instantiation? */
bool explicit_instantiation(CXCursor c);
/* The members of explicit instantiation c, listed as unsupported. */
void list_instantiation_members(visit_ctx *ctx, CXCursor c);
/* Explicit instantiations of function templates, found in the tokens. */
void list_function_instantiations(CXTranslationUnit tu, lwg_inventory *inv);

/* ---- duplicates.c ---- */

/* All declarations of an entity take the symbol of the last one (and, in
 * C++, the inline-ness of any). */
void unify_redeclarations(lwg_inventory *inv, char **usr, bool cxx);
/* The same symbol declared twice: the first declaration is kept. */
void mark_duplicates(lwg_inventory *inv);

#endif /* LIBWRAP_GEN_PARSE_INTERNAL_H */
