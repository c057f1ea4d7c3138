/*
 * inventory.h - the function inventory: one model of a library's API that
 * every later step reads (filters, symbol check, wrapper emitters, the ld
 * response file, probes, reports). Nothing else keeps a symbol list.
 *
 * The model is shaped for C and C++: a function has a scope (namespaces and
 * classes, empty for C), a kind (free function, method, constructor, ...),
 * a source name and a linker symbol (mangled for C++, asm label for C).
 *
 * JSON form: docs/inventory.md. Text dump form: one line per function,
 * inventory_dump() below.
 */
#ifndef LIBWRAP_INVENTORY_H
#define LIBWRAP_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum lw_func_kind {
    LW_KIND_FUNCTION = 0, /* C function or C++ free function */
    LW_KIND_METHOD,       /* C++ non-static member function */
    LW_KIND_STATIC_METHOD,
    LW_KIND_CONSTRUCTOR,
    LW_KIND_DESTRUCTOR,
    LW_KIND_OPERATOR
} lw_func_kind;

/* Why a function is not wrapped. LW_WRAP (0) means it is wrapped. */
typedef enum lw_skip {
    LW_WRAP = 0,
    LW_SKIP_INLINE,         /* inline or static inline: no symbol to intercept */
    LW_SKIP_STATIC,         /* internal linkage */
    LW_SKIP_HIDDEN,         /* visibility("hidden"/"internal") */
    LW_SKIP_VARIADIC,       /* variadic without a va_list twin */
    LW_SKIP_UNPROTOTYPED,   /* f() in C: parameters unknown */
    LW_SKIP_UNSUPPORTED,    /* a type the emitter cannot spell (detail says which) */
    LW_SKIP_OUT_OF_SCOPE,   /* declared in a header outside the default scope */
    LW_SKIP_FILTERED,       /* excluded by the filter file */
    LW_SKIP_MISSING,        /* the target libraries do not export the symbol */
    LW_SKIP_UNCERTAIN,      /* resolvable without the target libraries too */
    LW_SKIP_DUPLICATE,      /* another declaration of the same symbol is kept */
    LW_SKIP_BUILTIN,        /* compiler builtin / compiler runtime */
    LW_SKIP_DIAGNOSTIC,     /* libclang reported an error inside the declaration */
    LW_SKIP_SIGNAL,         /* a Qt signal: its address is its identity */
    LW_SKIP_COMPILE,        /* its typed wrapper did not compile (NAME.dropped) */
    LW_SKIP_COUNT_
} lw_skip;

/* What argument recording can take of a value (docs/arguments.md); the
 * values are those of LIBWRAP_PARAM_* in libwrap/libwrap.h. */
typedef enum lw_arg_kind {
    LW_ARG_NONE = 0,     /* not recordable: pointers, structs, long double, ... */
    LW_ARG_SIGNED,       /* signed integers */
    LW_ARG_UNSIGNED,     /* unsigned integers, bool */
    LW_ARG_DOUBLE,       /* float, double */
    LW_ARG_STRING,       /* const char * */
    LW_ARG_ENUM,         /* enumerations */
    LW_ARG_FORTRAN_CHAR, /* a Fortran CHARACTER (char * of a Fortran-ABI function): not recordable */
    LW_ARG_KIND_COUNT_
} lw_arg_kind;

/* How the x86-64 System V ABI passes a value (argmeta.c), for the ABI-level
 * wrappers: the register classes of its eightbytes, or memory. */
typedef enum lw_abi_class {
    LW_ABI_CLASS_UNKNOWN = 0, /* cannot tell (a small struct by value, a C++ class) */
    LW_ABI_CLASS_INTEGER,     /* one general register (integers, pointers, enums) */
    LW_ABI_CLASS_INTEGER2,    /* two general registers (__int128) */
    LW_ABI_CLASS_SSE,         /* one vector register (float, double) */
    LW_ABI_CLASS_SSE2,        /* two vector registers (double _Complex) */
    LW_ABI_CLASS_MEMORY,      /* on the stack (a struct over 16 bytes, long double) */
    LW_ABI_CLASS_NONE,        /* void: no result */
} lw_abi_class;

/* The argument metadata of a parameter or of the result. */
typedef struct lw_argmeta {
    lw_arg_kind kind;
    unsigned width;        /* bytes */
    bool size;             /* declared size_t or ssize_t (directly or through typedefs) */
    bool zext;             /* an enumeration with an unsigned underlying type */
    unsigned abi;          /* the location, LIBWRAP_PARAM_ABI_* encoding; 0 unknown */
    /* Not in the JSON: how the ABI passes it, to place the next ones. */
    lw_abi_class abi_class;
    unsigned abi_size, abi_align; /* LW_ABI_CLASS_MEMORY: bytes on the stack */
} lw_argmeta;

typedef struct lw_param {
    char *name;           /* as declared; invented ("arg3") when unnamed */
    bool name_invented;
    char *type;           /* spelled type, as declared */
    char *canonical;      /* canonical type */
    char *decl;           /* declarator usable in a wrapper, with a safe parameter
                           * name: "int (*libwrap_a2)(void *, int)" */
    char *fwd;            /* the safe name used in decl, to forward the argument */
    lw_argmeta arg;       /* for argument recording */
} lw_param;

typedef struct lw_function {
    char *name;           /* source name; qualified for C++ ("ns::C::f") */
    char *scope;          /* C++ enclosing scope ("ns::C"), "" for C */
    char *symbol;         /* linker symbol (asm label honoured; mangled for C++) */
    lw_func_kind kind;
    char *file;           /* declaring header, presumed location (line markers) */
    unsigned line;
    char *ret_type;       /* spelled */
    char *ret_canonical;
    bool ret_void;
    lw_argmeta ret_arg;   /* the result's argument metadata ("return") */
    lw_param *params;
    size_t nparams;
    /* The wrapper's head as a declarator in which "@@" stands for the
     * function's name: "void (*@@(int libwrap_a1, void (*libwrap_a2)(int)))(int)".
     * Built from the type structure, so function pointers, arrays and
     * qualifiers are spelled correctly. */
    char *declarator;
    bool variadic;
    bool noreturn;
    bool deprecated;
    bool is_inline;
    bool is_static;
    bool hidden;
    bool unprototyped;
    int format_index;     /* __attribute__((format(printf, I, F))): I, or 0 */
    int format_first;     /* F */
    char *va_twin;        /* variadic: symbol of the va_list twin, or NULL */
    /* Symbol versions, when the target exports more than one of `symbol`
     * (foo@V1 and the default foo@@V2; docs/inventory.md): their names,
     * oldest first, and which one is the default. nversions is 0 for an
     * unversioned symbol or one with a single version. */
    char **versions;
    size_t nversions;
    size_t default_version;
    lw_skip skip;
    char *skip_detail;    /* free text, may be NULL */
} lw_function;

typedef struct lw_inventory {
    char *name;           /* the wrapper's NAME */
    char *language;       /* "c" or "c++" */
    char *source;         /* the parsed file (libwrap.i) */
    char *header;         /* the file it was preprocessed from (libwrap.h), from
                           * the first line marker; the wrappers include it */
    bool abi;             /* forwarding: true at the ABI level (x86-64), false typed */
    lw_function *funcs;
    size_t nfuncs;
    size_t cap;
} lw_inventory;

/* Names used in JSON and in the dump; stable, documented in docs/inventory.md. */
const char *lw_skip_name(lw_skip skip);
const char *lw_kind_name(lw_func_kind kind);
/* "none", "signed", "unsigned", "double", "string", "enum", "fortran-char"; LW_ARG_KIND_COUNT_
 * for an unknown name. */
const char *lw_arg_kind_name(lw_arg_kind kind);
lw_arg_kind lw_arg_kind_from_name(const char *name);
/* A location as text ("rdi", "xmm1", "stack+16", for a result "rax",
 * "xmm0"), NULL for unknown; and back (0 for an unknown text). Writes into buf. */
const char *lw_abi_loc_name(unsigned loc, bool result, char buf[24]);
unsigned lw_abi_loc_from_name(const char *name, bool result);


void inventory_init(lw_inventory *inv);
void inventory_free(lw_inventory *inv);
/* Appends a zeroed function and returns it; aborts on out-of-memory. */
lw_function *inventory_add(lw_inventory *inv);
lw_function *inventory_find_symbol(const lw_inventory *inv, const char *symbol);
size_t inventory_count_wrapped(const lw_inventory *inv);
/* Why f gets no wrapper, or LW_WRAP when it gets one: the one decision
 * behind every generated file, count and list (the inventory's "wrapped"
 * and "skip", the dump, the wrappers, NAME.wrap, NAME.skipped.txt, the
 * summary, installcheck), so that they cannot disagree: a `--wrap=SYM`
 * without `__wrap_SYM` would break the user's link. f->skip when a step
 * set it; else an ABI-level wrapper needs only a symbol, and a typed one
 * also, for a variadic function, its va_list twin after a fixed parameter
 * (LW_SKIP_VARIADIC) and a spelled type (LW_SKIP_UNSUPPORTED). */
lw_skip inventory_verdict(const lw_inventory *inv, const lw_function *f);
/* Does f get a wrapper? inventory_verdict(inv, f) == LW_WRAP. */
bool inventory_is_wrapped(const lw_inventory *inv, const lw_function *f);

/* The readable name of a region: for C the function's name; for C++ the
 * qualified name with the parameter types as declared and the method's
 * const (`QRegion::QRegion(const QRect &)`), so that overloads differ,
 * and the variant for the base-object and deleting constructors and
 * destructors (` [base object]`, ` [deleting]`). Filters match it with
 * and without the parameters (common/filter.h). Free it. */
char *inventory_display_name(const lw_function *f);

/* A region per symbol version: the symbol of version k as nm -D spells it,
 * "foo@V1" or, for the default, "foo@@V2"; the plain symbol when f has no
 * versions. Free it. */
char *inventory_version_symbol(const lw_function *f, size_t k);
/* Replaces f's versions (copied). */
void function_set_versions(lw_function *f, const char *const *names, size_t n, size_t default_index);

/* Marks f as skipped unless already skipped; detail is copied (may be NULL). */
void function_skip(lw_function *f, lw_skip why, const char *detail);

/* One line per function (docs/inventory.md):
 * "SYMBOL name=NAME file=FILE:LINE ret=TYPE (PARAMS) [FLAGS] skip=REASON(DETAIL)". */
void inventory_dump(const lw_inventory *inv, FILE *out);

/* JSON via json-c. Writing goes to path.tmp, then rename: no partial file.
 * Both return 0, or -1 after printing "libwrap-gen: PATH: what" to stderr. */
int inventory_write_json(const lw_inventory *inv, const char *path);
int inventory_read_json(lw_inventory *inv, const char *path);
/* The same from text in memory (need not be NUL-terminated); `origin` names
 * it in messages. inventory_read_json reads the file and calls this. */
int inventory_read_json_string(lw_inventory *inv, const char *text, size_t len, const char *origin);

#endif /* LIBWRAP_INVENTORY_H */
