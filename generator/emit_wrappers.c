/*
 * emit_wrappers.c - the wrapper source NAME.wrappers.c and the ld response
 * file NAME.wrap, both from the inventory's wrapped functions, through
 * templates/wrappers.c.in and templates/wrap.in. The anatomy of a wrapper
 * is described in docs/wrappers.md.
 *
 * Every wrapper gets fresh C names numbered by its inventory index N
 * (libwrap_w_N the wrapper, libwrap_r_N the original's declaration,
 * libwrap_g_N its region) and its linker name from an asm label, so the
 * header's own declaration of SYM, possibly asm-labelled itself, never
 * clashes with the wrapper's definition.
 */
#define _GNU_SOURCE /* realpath */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_parts.h"
#include "strbuf.h"

/* The declarator with "@@" replaced by `name`. */
static char *declarator_named(const char *decl, const char *name)
{
    strbuf sb = STRBUF_INIT;
    for (const char *s = decl; *s;) {
        const char *at = strstr(s, "@@");
        if (!at) {
            sb_put(&sb, s);
            break;
        }
        sb_putn(&sb, s, (size_t)(at - s));
        sb_put(&sb, name);
        s = at + 2;
    }
    return sb_steal(&sb);
}

/* The va_list twin's declarator built from the variadic declarator: the
 * "..." that ends the parameter list after "@@(" becomes a va_list. NULL
 * when the declarator does not have that shape. */
static char *twin_declarator(const char *decl)
{
    const char *open = strstr(decl, "@@(");
    if (!open)
        return NULL;
    int depth = 0;
    const char *close = NULL;
    for (const char *s = open + 2; *s; s++) {
        if (*s == '(')
            depth++;
        else if (*s == ')' && --depth == 0) {
            close = s;
            break;
        }
    }
    if (!close)
        return NULL;
    const char *dots = close;
    while (dots > open && (dots[-1] == ' '))
        dots--;
    if (dots - open < 3 || strncmp(dots - 3, "...", 3) != 0)
        return NULL;
    dots -= 3;
    strbuf sb = STRBUF_INIT;
    sb_putn(&sb, decl, (size_t)(dots - decl));
    sb_put(&sb, "va_list libwrap_ap");
    sb_put(&sb, close);
    return sb_steal(&sb);
}

/* Splits an absolute path into its components (modifies `path`). */
static size_t split_path(char *path, char ***comps)
{
    size_t n = 0, cap = 8;
    char *save = NULL;
    *comps = xmalloc(cap * sizeof **comps);
    for (char *c = strtok_r(path, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        if (n == cap)
            *comps = xrealloc(*comps, (cap *= 2) * sizeof **comps);
        (*comps)[n++] = c;
    }
    return n;
}

/* `path` relative to the directory `dir` (both absolute and normalised), or
 * NULL when they share nothing but the root: an absolute include is clearer
 * than a chain of "../" then. */
static char *relative_to(const char *path, const char *dir)
{
    char *p = xstrdup(path), *d = xstrdup(dir);
    char **pc, **dc;
    size_t np = split_path(p, &pc), nd = split_path(d, &dc);
    size_t k = 0;
    while (k + 1 < np && k < nd && strcmp(pc[k], dc[k]) == 0)
        k++;
    char *result = NULL;
    if (k > 0) {
        strbuf sb = STRBUF_INIT;
        for (size_t i = k; i < nd; i++)
            sb_put(&sb, "../");
        for (size_t i = k; i < np; i++)
            sb_printf(&sb, "%s%s", i > k ? "/" : "", pc[i]);
        result = sb_steal(&sb);
    }
    free(pc);
    free(dc);
    free(p);
    free(d);
    return result;
}

/* How NAME.wrappers.c (in outdir) includes the user's header: relative to
 * the output directory when both can be resolved, as recorded otherwise
 * (the compile's -I flags then find it). */
static char *include_path(const char *header, const char *outdir)
{
    char *hreal = realpath(header, NULL);
    char *dreal = realpath(outdir ? outdir : ".", NULL);
    char *rel = hreal && dreal ? relative_to(hreal, dreal) : NULL;
    char *result = rel ? rel : xstrdup(hreal ? hreal : header);
    free(hreal);
    free(dreal);
    return result;
}

/* What every wrapper's template variables hold, typed or ABI-level: its
 * inventory index N (the C names derive from it, stable across runs) and
 * its region's symbol, name and place. */
static void set_region_vars(lw_tvars *v, const lw_function *f, size_t i)
{
    char *s;
    tvars_setf(v, "N", "%zu", i);
    tvars_set(v, "SYMBOL", s = emit_c_string(f->symbol));
    free(s);
    char *display = inventory_display_name(f);
    tvars_set(v, "NAME", s = emit_c_string(display));
    free(s);
    free(display);
    tvars_set(v, "FILE", s = emit_c_string(f->file ? f->file : ""));
    free(s);
    tvars_setf(v, "LINE", "%u", f->line);
}

/* The C names are derived from the inventory index, stable across runs. */
static void set_function_vars(lw_tvars *v, const lw_inventory *inv, size_t i, bool cxx)
{
    const lw_function *f = &inv->funcs[i];
    /* The C++ body returns the original's result directly, which a
     * variadic wrapper cannot (va_end comes after the call). */
    bool cxx_body = cxx && !f->variadic;
    char *w = xstrdup_printf("libwrap_w_%zu", i);
    char *r = xstrdup_printf("libwrap_r_%zu", i);
    char *s;

    set_region_vars(v, f, i);
    emit_param_vars(v, f, i);
    tvars_set(v, "WRAPPER", w);
    tvars_set(v, "WRAPPER_DECL", s = declarator_named(f->declarator, w));
    free(s);
    tvars_set_bool(v, "VOID", f->ret_void);
    tvars_set_bool(v, "NORETURN", f->noreturn);
    tvars_set_bool(v, "VARIADIC", f->variadic);
    tvars_set_bool(v, "CXX_BODY", cxx_body);

    strbuf args = STRBUF_INIT;
    for (size_t k = 0; k < f->nparams; k++)
        sb_printf(&args, cxx_body ? "%sLIBWRAP_FWD(%s)" : "%s%s", k ? ", " : "", f->params[k].fwd);
    if (f->variadic) {
        sb_put(&args, ", libwrap_ap");
        tvars_set(v, "LAST", f->params[f->nparams - 1].fwd);
    } else {
        tvars_set(v, "LAST", "");
    }
    tvars_set(v, "ARGS", args.s);
    sb_free(&args);

    /* The original: __real_SYM, or for a variadic function its twin. A
     * wrapped twin is called through its own wrapper's pieces (its
     * __real_ at link time, its wrapper at run time, as the library calling
     * its twin would be measured); an unwrapped one by its plain symbol. */
    const lw_function *twin = f->variadic ? inventory_find_symbol(inv, f->va_twin) : NULL;
    bool twin_wrapped = twin && !twin->variadic && inventory_is_wrapped(inv, twin);
    if (twin_wrapped) {
        size_t m = (size_t)(twin - inv->funcs);
        tvars_set_bool(v, "DECLARE_REAL", false);
        tvars_setf(v, "REAL", "libwrap_r_%zu", m);
        tvars_set(v, "REAL_DECL", "");
        tvars_set(v, "REAL_LABEL", "");
        tvars_set_bool(v, "RESOLVE", false);
        tvars_set(v, "RESOLVE_SYMBOL", "");
        tvars_setf(v, "TWIN_WRAPPER", "libwrap_w_%zu", m);
    } else {
        char *decl;
        if (!f->variadic)
            decl = declarator_named(f->declarator, r);
        else if (twin && !twin->variadic && twin->declarator)
            decl = declarator_named(twin->declarator, r);
        else {
            char *t = twin_declarator(f->declarator);
            decl = declarator_named(t ? t : f->declarator, r);
            free(t);
        }
        const char *orig = f->variadic ? f->va_twin : f->symbol;
        tvars_set_bool(v, "DECLARE_REAL", true);
        tvars_set(v, "REAL", r);
        tvars_set(v, "REAL_DECL", decl);
        free(decl);
        char *label = f->variadic ? xstrdup(orig) : xstrdup_printf("__real_%s", orig);
        tvars_set(v, "REAL_LABEL", s = emit_c_string(label));
        free(s);
        free(label);
        tvars_set_bool(v, "RESOLVE", true);
        tvars_set(v, "RESOLVE_SYMBOL", s = emit_c_string(orig));
        free(s);
        tvars_set(v, "TWIN_WRAPPER", "");
    }
    free(w);
    free(r);
}

/* Is the result of C++ function f an object or a reference, for which no
 * zero value can be returned when the original is missing? Pointers,
 * arithmetic types and enums spelled as such have one; anything else (a
 * class, or a name that may be one) is taken as an object. */
static bool cxx_result_without_zero(const lw_function *f)
{
    if (f->ret_void || !f->ret_canonical || !f->ret_canonical[0])
        return false;
    const char *t = f->ret_canonical;
    size_t n = strlen(t);
    if (t[n - 1] == '&')
        return true;
    if (t[n - 1] == '*' || strstr(t, "(*)") || strncmp(t, "enum ", 5) == 0)
        return false;
    static const char *const builtin[] = {"const", "volatile", "signed", "unsigned", "short", "long",
                                          "int", "char", "bool", "float", "double", "wchar_t",
                                          "char8_t", "char16_t", "char32_t", "__int128", "_Float128"};
    for (const char *w = t; *w;) {
        size_t len = strcspn(w, " ");
        bool known = false;
        for (size_t i = 0; i < sizeof builtin / sizeof builtin[0] && !known; i++)
            known = strlen(builtin[i]) == len && strncmp(w, builtin[i], len) == 0;
        if (!known)
            return true;
        w += len;
        w += strspn(w, " ");
    }
    return false;
}

/* One entry of the ABI-level table (templates/wrappers_abi.c.in), the
 * k-th (INDEX). */
static void set_abi_vars(lw_tvars *v, const lw_inventory *inv, size_t i, size_t k, bool cxx)
{
    const lw_function *f = &inv->funcs[i];
    set_region_vars(v, f, i);
    emit_param_vars(v, f, i);
    tvars_setf(v, "INDEX", "%zu", k);
    const char *flags = f->noreturn ? "LIBWRAP_ABI_NORETURN | "
                        : cxx && cxx_result_without_zero(f) ? "LIBWRAP_ABI_NO_ZERO | "
                                                             : "";
    /* Its parameter table is lib->params[k]: the index rides in the flags. */
    tvars_setf(v, "FLAGS", "%sLIBWRAP_ABI_PARAMS | (%zuu << LIBWRAP_ABI_INDEX_SHIFT)", flags, k);
}

int emit_wrappers(const lw_inventory *inv, const lw_emit_options *opt, emit_batch *batch)
{
    const char *name = opt->name ? opt->name : inv->name;
    lw_tvars *vars = tvars_new();
    char *s;
    size_t count = 0;

    tvars_set(vars, "LIBNAME", name);
    bool cxx = inv->language && strstr(inv->language, "++");
    tvars_set_bool(vars, "CXX", cxx);
    if (opt->soname) {
        s = emit_c_string(opt->soname);
        tvars_setf(vars, "SONAME", "\"%s\"", s);
        free(s);
    } else {
        tvars_set(vars, "SONAME", "NULL");
    }
    /* Typed wrappers include the user's header; ABI-level ones need none. */
    if (!inv->abi) {
        const char *header = inv->header && inv->header[0] ? inv->header : "libwrap.h";
        char *inc = include_path(header, opt->outdir);
        if (strpbrk(inc, "\"\n")) {
            fprintf(stderr, "libwrap-gen: %s: a header path with '\"' or a newline cannot be "
                            "#included: rename it\n", inc);
            free(inc);
            tvars_free(vars);
            return -1;
        }
        tvars_set(vars, "HEADER", inc);
        free(inc);
    }
    tvars_list(vars, "FUNCTIONS");
    for (size_t i = 0; i < inv->nfuncs; i++) {
        if (!inventory_is_wrapped(inv, &inv->funcs[i]))
            continue;
        lw_tvars *v = tvars_append(vars, "FUNCTIONS");
        if (inv->abi)
            set_abi_vars(v, inv, i, count, cxx);
        else
            set_function_vars(v, inv, i, cxx);
        count++;
    }
    tvars_setf(vars, "COUNT", "%zu", count);

    char *cname = xstrdup_printf("%s.wrappers.c", name);
    char *wname = xstrdup_printf("%s.wrap", name);
    int rc = emit_render(batch, opt, inv->abi ? "wrappers_abi.c.in" : "wrappers.c.in", vars, cname);
    if (rc == 0)
        rc = emit_render(batch, opt, "wrap.in", vars, wname);
    free(cname);
    free(wname);
    tvars_free(vars);
    return rc;
}
