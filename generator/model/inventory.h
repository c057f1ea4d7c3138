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

typedef enum lwg_fn_kind {
    LWG_FN_FUNCTION = 0, /* C function or C++ free function */
    LWG_FN_METHOD,       /* C++ non-static member function */
    LWG_FN_STATIC_METHOD,
    LWG_FN_CONSTRUCTOR,
    LWG_FN_DESTRUCTOR,
    LWG_FN_OPERATOR
} lwg_fn_kind;

/* Why a function is not wrapped. LWG_WRAP (0) means it is wrapped. */
typedef enum lwg_skip {
    LWG_WRAP = 0,
    LWG_SKIP_INLINE,         /* inline or static inline: no symbol to intercept */
    LWG_SKIP_STATIC,         /* internal linkage */
    LWG_SKIP_HIDDEN,         /* visibility("hidden"/"internal") */
    LWG_SKIP_VARIADIC,       /* variadic without a va_list twin */
    LWG_SKIP_UNPROTOTYPED,   /* f() in C: parameters unknown */
    LWG_SKIP_UNSUPPORTED,    /* a type the emitter cannot spell (detail says which) */
    LWG_SKIP_OUT_OF_SCOPE,   /* declared in a header outside the default scope */
    LWG_SKIP_FILTERED,       /* excluded by the filter file */
    LWG_SKIP_MISSING,        /* the target libraries do not export the symbol */
    LWG_SKIP_UNCERTAIN,      /* resolvable without the target libraries too */
    LWG_SKIP_DUPLICATE,      /* another declaration of the same symbol is kept */
    LWG_SKIP_BUILTIN,        /* compiler builtin / compiler runtime */
    LWG_SKIP_DIAGNOSTIC,     /* libclang reported an error inside the declaration */
    LWG_SKIP_SIGNAL,         /* a Qt signal: its address is its identity */
    LWG_SKIP_RETURNS_TWICE,  /* setjmp, vfork, getcontext: returns twice */
    LWG_SKIP_COMPILE,        /* its typed wrapper did not compile (NAME.dropped) */
    LWG_SKIP_COUNT_
} lwg_skip;

/* What argument recording can take of a value (docs/arguments.md); the
 * values are those of LIBWRAP_PARAM_* in libwrap/libwrap.h. */
typedef enum lwg_arg_kind {
    LWG_ARG_NONE = 0,     /* not recordable: pointers, structs, long double, ... */
    LWG_ARG_SIGNED,       /* signed integers */
    LWG_ARG_UNSIGNED,     /* unsigned integers, bool */
    LWG_ARG_DOUBLE,       /* float, double */
    LWG_ARG_STRING,       /* const char * */
    LWG_ARG_ENUM,         /* enumerations */
    LWG_ARG_FORTRAN_CHAR, /* Fortran CHARACTER (char * of a Fortran-ABI function): not recordable */
    LWG_ARG_KIND_COUNT_
} lwg_arg_kind;

/* How the x86-64 System V ABI passes a value (argmeta.c), for the ABI-level
 * wrappers: the register classes of its eightbytes, or memory. */
typedef enum lwg_abi_class {
    LWG_ABI_CLASS_UNKNOWN = 0, /* cannot tell (a small struct by value, a C++ class) */
    LWG_ABI_CLASS_INTEGER,     /* one general register (integers, pointers, enums) */
    LWG_ABI_CLASS_INTEGER2,    /* two general registers (__int128) */
    LWG_ABI_CLASS_SSE,         /* one vector register (float, double) */
    LWG_ABI_CLASS_SSE2,        /* two vector registers (double _Complex) */
    LWG_ABI_CLASS_MEMORY,      /* on the stack (a struct over 16 bytes, long double) */
    LWG_ABI_CLASS_NONE,        /* void: no result */
    LWG_ABI_CLASS_REGS,        /* a struct or class of up to 16 bytes: abi_gprs general and
                                * abi_sses vector registers, or abi_size bytes of stack */
} lwg_abi_class;

/* How AAPCS64 (Linux) passes a value (argmeta.c), for the ABI-level
 * wrappers built for AArch64. A composite over 16 bytes is passed by
 * reference: a pointer, LWG_A64_GPR. */
typedef enum lwg_a64_class {
    LWG_A64_UNKNOWN = 0, /* cannot tell (a C++ class, a union, a wide vector) */
    LWG_A64_GPR,         /* one general register (integers, pointers, enums, composites up to 8 bytes) */
    LWG_A64_GPR2,        /* two general registers (__int128, composites of 9 to 16 bytes) */
    LWG_A64_FP,          /* one SIMD and floating-point register (float, double, long double) */
    LWG_A64_HFA,         /* a64_regs of them: a homogeneous floating-point aggregate, a complex */
    LWG_A64_NONE,        /* void: no result */
} lwg_a64_class;

/* The argument metadata of a parameter or of the result. */
typedef struct lwg_argmeta {
    lwg_arg_kind kind;
    unsigned width;        /* bytes */
    bool size;             /* declared size_t or ssize_t (directly or through typedefs) */
    bool zext;             /* an enumeration with an unsigned underlying type */
    unsigned abi;          /* the location on x86-64, LIBWRAP_PARAM_ABI_* encoding; 0 unknown */
    unsigned abi_a64;      /* the location on AArch64, the same encoding; 0 unknown */
    /* Not in the JSON: how the ABIs pass it, to place the next ones. */
    lwg_abi_class abi_class;
    unsigned abi_size, abi_align; /* LWG_ABI_CLASS_MEMORY, _REGS: bytes on the stack */
    unsigned abi_gprs, abi_sses;  /* LWG_ABI_CLASS_REGS: the registers of its eightbytes */
    bool abi_x87;                 /* LWG_ABI_CLASS_MEMORY for a struct of a long double:
                                   * a result comes back in %st0 */
    lwg_a64_class a64_class;
    unsigned a64_regs;            /* LWG_A64_HFA: its members */
    unsigned a64_size, a64_align; /* bytes and alignment of the value itself */
} lwg_argmeta;

typedef struct lwg_param {
    char *name;           /* as declared; invented ("arg3") when unnamed */
    bool name_invented;
    char *type;           /* spelled type, as declared */
    char *canonical;      /* canonical type */
    char *decl;           /* declarator usable in a wrapper, with a safe parameter
                           * name: "int (*libwrap_a2)(void *, int)" */
    char *fwd;            /* the safe name used in decl, to forward the argument */
    lwg_argmeta arg;       /* for argument recording */
} lwg_param;

typedef struct lwg_function {
    char *name;           /* source name; qualified for C++ ("ns::C::f") */
    char *scope;          /* C++ enclosing scope ("ns::C"), "" for C */
    char *symbol;         /* linker symbol (asm label honoured; mangled for C++) */
    lwg_fn_kind kind;
    char *file;           /* declaring header, presumed location (line markers) */
    unsigned line;
    char *ret_type;       /* spelled */
    char *ret_canonical;
    bool ret_void;
    lwg_argmeta ret_arg;   /* the result's argument metadata ("return") */
    lwg_param *params;
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
    /* The shared target exports it, the static archive beside it does not
     * (libzstd.a lacks two functions of libzstd.so): the link-time
     * wrapper's reference to its original is weak, so that a -static or
     * -Bstatic link succeeds (generation only, not in the JSON). */
    bool static_missing;
    /* NAME.filter's region block names it in an INCLUDE MANGLED rule of
     * its own (lw_filter_includes): the symbol check's UNCERTAIN yields to
     * it (generation only, not in the JSON). */
    bool filter_included;
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
    lwg_skip skip;
    char *skip_detail;    /* free text, may be NULL */
} lwg_function;

typedef struct lwg_inventory {
    char *name;           /* the wrapper's NAME */
    char *language;       /* "c" or "c++" */
    char *source;         /* the parsed file (libwrap.i) */
    char *header;         /* the file it was preprocessed from (libwrap.h), from
                           * the first line marker; the wrappers include it */
    bool abi;             /* forwarding: true at the ABI level (x86-64), false typed */
    lwg_function *funcs;
    size_t nfuncs;
    size_t cap;
} lwg_inventory;

/* Names used in JSON and in the dump; stable, documented in docs/inventory.md. */
const char *lwg_skip_name(lwg_skip skip);
const char *lwg_fn_kind_name(lwg_fn_kind kind);
/* "none", "signed", "unsigned", "double", "string", "enum", "fortran-char"; LWG_ARG_KIND_COUNT_
 * for an unknown name. */
const char *lwg_arg_kind_name(lwg_arg_kind kind);
lwg_arg_kind lwg_arg_kind_from_name(const char *name);
/* A location as text ("rdi", "xmm1", "stack+16", for a result "rax",
 * "xmm0"), NULL for unknown; and back (0 for an unknown text). Writes into buf. */
const char *lwg_abi_loc_name(unsigned loc, bool result, char buf[24]);
unsigned lwg_abi_loc_from_name(const char *name, bool result);
/* The same for AArch64: "x0".."x7", "v0".."v7", "stack+16"; a result "x0", "v0". */
const char *lwg_a64_loc_name(unsigned loc, bool result, char buf[24]);
unsigned lwg_a64_loc_from_name(const char *name, bool result);


void inventory_init(lwg_inventory *inv);
void inventory_free(lwg_inventory *inv);
/* Appends a zeroed function and returns it; aborts on out-of-memory. */
lwg_function *inventory_add(lwg_inventory *inv);
lwg_function *inventory_find_symbol(const lwg_inventory *inv, const char *symbol);
size_t inventory_count_wrapped(const lwg_inventory *inv);
/* Why f gets no wrapper, or LWG_WRAP when it gets one: the one decision
 * behind every generated file, count and list (the inventory's "wrapped"
 * and "skip", the dump, the wrappers, NAME.wrap, NAME.skipped.txt, the
 * summary, installcheck), so that they cannot disagree: a `--wrap=SYM`
 * without `__wrap_SYM` would break the user's link. f->skip when a step
 * set it; else an ABI-level wrapper needs only a symbol, and a typed one
 * also, for a variadic function, its va_list twin after a fixed parameter
 * (LWG_SKIP_VARIADIC) and a spelled type (LWG_SKIP_UNSUPPORTED). */
lwg_skip inventory_verdict(const lwg_inventory *inv, const lwg_function *f);
/* Does f get a wrapper? inventory_verdict(inv, f) == LWG_WRAP. */
bool inventory_is_wrapped(const lwg_inventory *inv, const lwg_function *f);

/* The readable name of a region: for C the function's name; for C++ the
 * qualified name with the parameter types as declared and the method's
 * const (`QRegion::QRegion(const QRect &)`), so that overloads differ,
 * and the variant for the base-object and deleting constructors and
 * destructors (` [base object]`, ` [deleting]`). Filters match it with
 * and without the parameters (common/filter.h). Free it. */
char *inventory_display_name(const lwg_function *f);

/* A region per symbol version: the symbol of version k as nm -D spells it,
 * "foo@V1" or, for the default, "foo@@V2"; the plain symbol when f has no
 * versions. Free it. */
char *inventory_version_symbol(const lwg_function *f, size_t k);
/* Replaces f's versions (copied). */
void function_set_versions(lwg_function *f, const char *const *names, size_t n,
                           size_t default_index);

/* Marks f as skipped unless already skipped; detail is copied (may be NULL). */
void function_skip(lwg_function *f, lwg_skip why, const char *detail);

/* One line per function (docs/inventory.md):
 * "SYMBOL name=NAME file=FILE:LINE ret=TYPE (PARAMS) [FLAGS] skip=REASON(DETAIL)". */
void inventory_dump(const lwg_inventory *inv, FILE *out);

/* JSON via json-c. Writing goes to path.tmp, then rename: no partial file.
 * Both return 0, or -1 after printing "libwrap-gen: PATH: what" to stderr. */
int inventory_write_json(const lwg_inventory *inv, const char *path);
int inventory_read_json(lwg_inventory *inv, const char *path);
/* The same from text in memory (need not be NUL-terminated); `origin` names
 * it in messages. inventory_read_json reads the file and calls this. */
int inventory_read_json_string(lwg_inventory *inv, const char *text, size_t len,
                               const char *origin);

#endif /* LIBWRAP_INVENTORY_H */
