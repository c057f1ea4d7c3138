/*
 * inventory.c - the function inventory model and its text dump (see
 * inventory.h; the dump format is documented in docs/inventory.md).
 */
#include "model/inventory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

static const char *const skip_names[LWG_SKIP_COUNT_] = {
    [LWG_WRAP] = "wrap",
    [LWG_SKIP_INLINE] = "inline",
    [LWG_SKIP_STATIC] = "static",
    [LWG_SKIP_HIDDEN] = "hidden",
    [LWG_SKIP_VARIADIC] = "variadic",
    [LWG_SKIP_UNPROTOTYPED] = "unprototyped",
    [LWG_SKIP_UNSUPPORTED] = "unsupported",
    [LWG_SKIP_OUT_OF_SCOPE] = "out-of-scope",
    [LWG_SKIP_FILTERED] = "filtered",
    [LWG_SKIP_MISSING] = "missing",
    [LWG_SKIP_UNCERTAIN] = "uncertain",
    [LWG_SKIP_DUPLICATE] = "duplicate",
    [LWG_SKIP_BUILTIN] = "builtin",
    [LWG_SKIP_DIAGNOSTIC] = "diagnostic",
    [LWG_SKIP_SIGNAL] = "signal",
    [LWG_SKIP_RETURNS_TWICE] = "returns-twice",
    [LWG_SKIP_COMPILE] = "compile",
};

static const char *const kind_names[] = {
    [LWG_FN_FUNCTION] = "function",
    [LWG_FN_METHOD] = "method",
    [LWG_FN_STATIC_METHOD] = "static-method",
    [LWG_FN_CONSTRUCTOR] = "constructor",
    [LWG_FN_DESTRUCTOR] = "destructor",
    [LWG_FN_OPERATOR] = "operator",
};

static const char *const arg_kind_names[LWG_ARG_KIND_COUNT_] = {
    [LWG_ARG_NONE] = "none",         [LWG_ARG_SIGNED] = "signed", [LWG_ARG_UNSIGNED] = "unsigned",
    [LWG_ARG_DOUBLE] = "double",     [LWG_ARG_STRING] = "string", [LWG_ARG_ENUM] = "enum",
    [LWG_ARG_FORTRAN_CHAR] = "fortran-char",
};

const char *lwg_arg_kind_name(lwg_arg_kind kind)
{
    return (unsigned)kind < LWG_ARG_KIND_COUNT_ ? arg_kind_names[kind] : "none";
}

lwg_arg_kind lwg_arg_kind_from_name(const char *name)
{
    for (int k = 0; k < LWG_ARG_KIND_COUNT_; k++)
        if (strcmp(name, arg_kind_names[k]) == 0)
            return (lwg_arg_kind)k;
    return LWG_ARG_KIND_COUNT_;
}

/* The encoding of LIBWRAP_PARAM_ABI_* (libwrap/libwrap.h). */
#define LOC_GPR 0x100u
#define LOC_SSE 0x200u
#define LOC_STACK 0x400u

static const char *const gpr_names[] = {"rdi", "rsi", "rdx", "rcx", "r8", "r9"};

const char *lwg_abi_loc_name(unsigned loc, bool result, char buf[24])
{
    unsigned n = loc & 0xffu;
    switch (loc & ~0xffu) {
    case LOC_GPR:
        if (result)
            return n == 0 ? "rax" : NULL;
        return n < 6 ? gpr_names[n] : NULL;
    case LOC_SSE:
        if (result && n != 0)
            return NULL;
        snprintf(buf, 24, "xmm%u", n);
        return n < 8 ? buf : NULL;
    case LOC_STACK:
        if (result)
            return NULL;
        snprintf(buf, 24, "stack+%u", 8 * n);
        return buf;
    default:
        return NULL;
    }
}

unsigned lwg_abi_loc_from_name(const char *name, bool result)
{
    char buf[24];
    for (unsigned n = 0; n < 6; n++)
        if (strcmp(name, result ? "rax" : gpr_names[n]) == 0)
            return LOC_GPR | (result ? 0 : n);
    unsigned n;
    char tail;
    if (sscanf(name, "xmm%u%c", &n, &tail) == 1 && n < 8 && (!result || n == 0))
        return LOC_SSE | n;
    if (!result && sscanf(name, "stack+%u%c", &n, &tail) == 1 && n % 8 == 0 && n / 8 < 256) {
        unsigned loc = LOC_STACK | (n / 8);
        const char *back = lwg_abi_loc_name(loc, false, buf);
        return back && strcmp(back, name) == 0 ? loc : 0;
    }
    return 0;
}

const char *lwg_a64_loc_name(unsigned loc, bool result, char buf[24])
{
    unsigned n = loc & 0xffu;
    switch (loc & ~0xffu) {
    case LOC_GPR:
    case LOC_SSE:
        if (n >= 8 || (result && n != 0))
            return NULL;
        snprintf(buf, 24, "%c%u", (loc & ~0xffu) == LOC_GPR ? 'x' : 'v', n);
        return buf;
    case LOC_STACK:
        return result ? NULL : lwg_abi_loc_name(loc, false, buf);
    default:
        return NULL;
    }
}

unsigned lwg_a64_loc_from_name(const char *name, bool result)
{
    unsigned n;
    char tail;
    if ((name[0] == 'x' || name[0] == 'v') && sscanf(name + 1, "%u%c", &n, &tail) == 1 && n < 8 &&
        (!result || n == 0)) {
        char buf[24];
        unsigned loc = (name[0] == 'x' ? LOC_GPR : LOC_SSE) | n;
        const char *back = lwg_a64_loc_name(loc, result, buf);
        return back && strcmp(back, name) == 0 ? loc : 0;
    }
    return strncmp(name, "stack+", 6) == 0 ? lwg_abi_loc_from_name(name, result) : 0;
}

const char *lwg_skip_name(lwg_skip skip)
{
    return (unsigned)skip < LWG_SKIP_COUNT_ ? skip_names[skip] : "unknown";
}

const char *lwg_fn_kind_name(lwg_fn_kind kind)
{
    return (unsigned)kind <= LWG_FN_OPERATOR ? kind_names[kind] : "unknown";
}

void inventory_init(lwg_inventory *inv)
{
    memset(inv, 0, sizeof *inv);
}

static void function_free(lwg_function *f)
{
    free(f->name);
    free(f->scope);
    free(f->symbol);
    free(f->file);
    free(f->ret_type);
    free(f->ret_canonical);
    for (size_t i = 0; i < f->nparams; i++) {
        free(f->params[i].name);
        free(f->params[i].type);
        free(f->params[i].canonical);
        free(f->params[i].decl);
        free(f->params[i].fwd);
    }
    free(f->params);
    free(f->declarator);
    free(f->va_twin);
    for (size_t i = 0; i < f->nversions; i++)
        free(f->versions[i]);
    free(f->versions);
    free(f->skip_detail);
}

void inventory_free(lwg_inventory *inv)
{
    for (size_t i = 0; i < inv->nfuncs; i++)
        function_free(&inv->funcs[i]);
    free(inv->funcs);
    free(inv->name);
    free(inv->language);
    free(inv->source);
    free(inv->header);
    memset(inv, 0, sizeof *inv);
}

lwg_function *inventory_add(lwg_inventory *inv)
{
    if (inv->nfuncs == inv->cap) {
        inv->cap = inv->cap ? inv->cap * 2 : 64;
        inv->funcs = xrealloc(inv->funcs, inv->cap * sizeof *inv->funcs);
    }
    lwg_function *f = &inv->funcs[inv->nfuncs++];
    memset(f, 0, sizeof *f);
    return f;
}

lwg_function *inventory_find_symbol(const lwg_inventory *inv, const char *symbol)
{
    for (size_t i = 0; i < inv->nfuncs; i++)
        if (inv->funcs[i].symbol && strcmp(inv->funcs[i].symbol, symbol) == 0)
            return &inv->funcs[i];
    return NULL;
}

lwg_skip inventory_verdict(const lwg_inventory *inv, const lwg_function *f)
{
    if (f->skip != LWG_WRAP)
        return f->skip;
    if (!f->symbol)
        return LWG_SKIP_UNSUPPORTED;
    if (inv->abi)
        return LWG_WRAP;
    if (f->variadic && (!f->va_twin || f->nparams == 0))
        return LWG_SKIP_VARIADIC;
    if (!f->declarator || !f->declarator[0])
        return LWG_SKIP_UNSUPPORTED;
    return LWG_WRAP;
}

bool inventory_is_wrapped(const lwg_inventory *inv, const lwg_function *f)
{
    return inventory_verdict(inv, f) == LWG_WRAP;
}

size_t inventory_count_wrapped(const lwg_inventory *inv)
{
    size_t n = 0;
    for (size_t i = 0; i < inv->nfuncs; i++)
        n += inventory_is_wrapped(inv, &inv->funcs[i]);
    return n;
}

void function_skip(lwg_function *f, lwg_skip why, const char *detail)
{
    if (f->skip != LWG_WRAP)
        return;
    f->skip = why;
    free(f->skip_detail);
    f->skip_detail = detail ? xstrdup(detail) : NULL;
}

/* Paths in the dump must not depend on the machine (golden files): a file
 * below the primary header's directory is shown relative to it, any other
 * file by its base name. */
static const char *dump_path(const lwg_inventory *inv, const char *file)
{
    if (!file)
        return "?";
    if (inv->header) {
        const char *slash = strrchr(inv->header, '/');
        size_t dirlen = slash ? (size_t)(slash - inv->header) + 1 : 0;
        if (dirlen && strncmp(file, inv->header, dirlen) == 0)
            return file + dirlen;
    }
    const char *base = strrchr(file, '/');
    return base ? base + 1 : file;
}

/* The parameter as the header wrote it: its decl with the safe name
 * replaced by the declared one (the safe name is a unique token). */
static void put_param(strbuf *sb, const lwg_param *p)
{
    const char *at = p->fwd && p->fwd[0] ? strstr(p->decl, p->fwd) : NULL;
    if (!at) {
        sb_put(sb, p->decl ? p->decl : p->type);
        return;
    }
    sb_putn(sb, p->decl, (size_t)(at - p->decl));
    sb_put(sb, p->name);
    sb_put(sb, at + strlen(p->fwd));
}

static void put_flags(strbuf *sb, const lwg_function *f)
{
    size_t start = sb->len;
#define FLAG(cond, text)                                                       \
    do {                                                                       \
        if (cond)                                                              \
            sb_put(sb, sb->len == start ? " [" text : " " text);               \
    } while (0)
    FLAG(f->variadic, "variadic");
    FLAG(f->unprototyped, "unprototyped");
    FLAG(f->noreturn, "noreturn");
    FLAG(f->deprecated, "deprecated");
    FLAG(f->is_inline, "inline");
    FLAG(f->is_static, "static");
    FLAG(f->hidden, "hidden");
#undef FLAG
    if (f->format_index) {
        sb_put(sb, sb->len == start ? " [" : " ");
        sb_printf(sb, "format(printf,%d,%d)", f->format_index, f->format_first);
    }
    if (f->va_twin) {
        sb_put(sb, sb->len == start ? " [" : " ");
        sb_printf(sb, "va_twin=%s", f->va_twin);
    }
    if (f->nversions) {
        sb_put(sb, sb->len == start ? " [versions=" : " versions=");
        for (size_t k = 0; k < f->nversions; k++)
            sb_printf(sb, "%s%s%s", k ? "," : "", k == f->default_version ? "@@" : "@", f->versions[k]);
    }
    if (sb->len != start)
        sb_put(sb, "]");
}

/* Type spellings and details may hold paths too ("struct (unnamed at
 * /dir/x.h:3:1)"): the primary header's directory is removed everywhere. */
static void fputs_relative(const lwg_inventory *inv, const char *line, FILE *out)
{
    const char *slash = inv->header ? strrchr(inv->header, '/') : NULL;
    size_t dirlen = slash ? (size_t)(slash - inv->header) + 1 : 0;
    char *dir = dirlen ? strndup(inv->header, dirlen) : NULL;
    const char *p = line, *hit;
    while (dir && (hit = strstr(p, dir)) != NULL) {
        fwrite(p, 1, (size_t)(hit - p), out);
        p = hit + dirlen;
    }
    free(dir);
    fputs(p, out);
    fputc('\n', out);
}

void inventory_dump(const lwg_inventory *inv, FILE *out)
{
    strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < inv->nfuncs; i++) {
        const lwg_function *f = &inv->funcs[i];
        sb_printf(&sb, "%s name=%s", f->symbol, f->name);
        if (f->kind != LWG_FN_FUNCTION)
            sb_printf(&sb, " kind=%s", lwg_fn_kind_name(f->kind));
        sb_printf(&sb, " file=%s:%u ret=%s (", dump_path(inv, f->file), f->line,
                  f->ret_type ? f->ret_type : "?");
        for (size_t k = 0; k < f->nparams; k++) {
            if (k)
                sb_put(&sb, ", ");
            put_param(&sb, &f->params[k]);
        }
        if (f->variadic)
            sb_put(&sb, f->nparams ? ", ..." : "...");
        else if (f->nparams == 0 && !f->unprototyped)
            sb_put(&sb, "void");
        sb_put(&sb, ")");
        put_flags(&sb, f);
        lwg_skip verdict = inventory_verdict(inv, f);
        if (verdict != LWG_WRAP) {
            sb_printf(&sb, " skip=%s", lwg_skip_name(verdict));
            if (f->skip_detail)
                sb_printf(&sb, "(%s)", f->skip_detail);
        }
        fputs_relative(inv, sb.s, out);
        sb.len = 0;
    }
    sb_free(&sb);
}

/* The Itanium variant code of a constructor or destructor symbol
 * (`_ZN7QRegionC2ERK5QRect`: C2), or NULL. */
static const char *structor_variant(const char *symbol)
{
    static const char *const codes[] = {"C1E", "C2E", "C1I", "C2I", "D0E", "D1E", "D2E"};
    for (const char *p = symbol; p && *p; p++)
        for (size_t k = 0; k < sizeof codes / sizeof *codes; k++)
            if (strncmp(p, codes[k], 3) == 0 && p > symbol && p[-1] >= 'A')
                return codes[k];
    return NULL;
}

char *inventory_display_name(const lwg_function *f)
{
    if (!f->scope || !f->scope[0] || !f->name)
        return xstrdup(f->name ? f->name : f->symbol);
    strbuf sb = STRBUF_INIT;
    sb_put(&sb, f->name);
    sb_put(&sb, "(");
    size_t first = f->nparams && strcmp(f->params[0].name, "this") == 0 && !f->params[0].name_invented;
    for (size_t i = first; i < f->nparams; i++) {
        if (i > first)
            sb_put(&sb, ", ");
        sb_put(&sb, f->params[i].type);
    }
    if (f->variadic)
        sb_put(&sb, f->nparams > first ? ", ..." : "...");
    sb_put(&sb, ")");
    if (first && strncmp(f->params[0].type, "const ", 6) == 0)
        sb_put(&sb, " const");
    if (f->kind == LWG_FN_CONSTRUCTOR || f->kind == LWG_FN_DESTRUCTOR) {
        const char *v = structor_variant(f->symbol);
        if (v && v[1] == '2')
            sb_put(&sb, " [base object]");
        else if (v && v[1] == '0')
            sb_put(&sb, " [deleting]");
    }
    return sb_steal(&sb);
}

char *inventory_version_symbol(const lwg_function *f, size_t k)
{
    if (k >= f->nversions)
        return xstrdup(f->symbol);
    return xstrdup_printf("%s%s%s", f->symbol, k == f->default_version ? "@@" : "@", f->versions[k]);
}

void function_set_versions(lwg_function *f, const char *const *names, size_t n,
                           size_t default_index)
{
    for (size_t i = 0; i < f->nversions; i++)
        free(f->versions[i]);
    free(f->versions);
    f->versions = n ? xcalloc(n, sizeof *f->versions) : NULL;
    for (size_t i = 0; i < n; i++)
        f->versions[i] = xstrdup(names[i]);
    f->nversions = n;
    f->default_version = default_index < n ? default_index : 0;
}
