/*
 * emit/wrappers.c - the wrapper source NAME.wrappers.c and the ld response
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

#include "emit/parts.h"
#include "util/strbuf.h"

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

/* The N of version k of function i: the inventory index for the default
 * version (and for an unversioned symbol), "vb_12" for the second version
 * of function 12. Stable across runs, and drop.c still finds the index as
 * the last number of a C name (libwrap_w_vb_12). */
static char *item_n(const lwg_function *f, size_t i, size_t k)
{
    if (f->nversions == 0 || k == f->default_version)
        return xstrdup_printf("%zu", i);
    return xstrdup_printf("v%c%c_%zu", 'a' + (char)(k / 26 % 26), 'a' + (char)(k % 26), i);
}

/* What every wrapper's template variables hold, typed or ABI-level: its
 * item name N (the C names derive from it), its region's symbol, name and
 * place, and its symbol version (docs/inventory.md): version k of a
 * function with several is its own wrapper and region, "foo@V1" or
 * "foo@@V2" as nm -D spells them. */
static void set_region_vars(lwg_tvars *v, const lwg_function *f, size_t i, size_t k)
{
    char *s, *n = item_n(f, i, k), *base = item_n(f, i, f->default_version);
    bool versioned = f->nversions > 0;
    bool is_default = !versioned || k == f->default_version;
    tvars_set(v, "N", n);
    tvars_set(v, "BASE_N", base);
    tvars_set(v, "SYMBOL", s = emit_c_string(f->symbol));
    free(s);
    char *vsym = inventory_version_symbol(f, k);
    tvars_set(v, "REGION_SYMBOL", s = emit_c_string(vsym));
    free(s);
    free(vsym);
    tvars_set_bool(v, "VERSIONED", versioned);
    tvars_set_bool(v, "DEFAULT", is_default);
    tvars_set_bool(v, "LOCAL_AT_LINKTIME", !is_default);
    /* A weak __real_SYM where the static archive beside the target lacks
     * SYM: a static link then succeeds, and a call of it fails with ENOSYS
     * (the runtime says so once). */
    tvars_set(v, "REAL_WEAK", f->static_missing ? " __attribute__((weak))" : "");
    tvars_set_bool(v, "STATIC_MISSING", f->static_missing);
    /* The wrapper's linker name, as a C string expression: a versioned
     * wrapper is defined under a local name that .symver exports. */
    char *sym = emit_c_string(f->symbol);
    if (!versioned)
        tvars_setf(v, "ASM_LABEL", "LIBWRAP_LABEL(\"%s\")", sym);
    else if (is_default)
        tvars_setf(v, "ASM_LABEL", "LIBWRAP_VLABEL(\"%s\", \"libwrap_x_%s\")", sym, n);
    else
        tvars_setf(v, "ASM_LABEL", "\"libwrap_x_%s\"", n);
    free(sym);
    free(n);
    free(base);
    /* The version as .symver defines it (foo@V1, foo@@V2). */
    if (versioned)
        tvars_setf(v, "VERSION_DEF", "%s%s%s", f->symbol, is_default ? "@@" : "@", f->versions[k]);
    else
        tvars_set(v, "VERSION_DEF", "");
    char *display = inventory_display_name(f);
    if (versioned) {
        char *d = xstrdup_printf("%s%s%s", display, is_default ? "@@" : "@", f->versions[k]);
        free(display);
        display = d;
    }
    tvars_set(v, "NAME", s = emit_c_string(display));
    free(s);
    free(display);
    tvars_set(v, "FILE", s = emit_c_string(f->file ? f->file : ""));
    free(s);
    tvars_setf(v, "LINE", "%u", f->line);
}

/* Whether f returns a pointer to a function (a library's lookup of its
 * own functions: eglGetProcAddress, vkGetInstanceProcAddr), in one
 * general register: its wrapper hands the program the wrapper of a
 * wrapped function it points to (libwrap_answer_pointer). */
static bool returns_function_pointer(const lwg_function *f)
{
    return !f->ret_void && f->ret_canonical && strstr(f->ret_canonical, "(*)(") &&
           !strstr(f->ret_canonical, "::*") && f->ret_arg.abi_class == LWG_ABI_CLASS_INTEGER;
}

/* The C names are derived from the inventory index, stable across runs. */
static void set_function_vars(lwg_tvars *v, const lwg_inventory *inv, size_t i, size_t ver,
                              bool cxx)
{
    const lwg_function *f = &inv->funcs[i];
    /* The C++ body returns the original's result directly, which a
     * variadic wrapper cannot (va_end comes after the call). */
    bool cxx_body = cxx && !f->variadic;
    char *s, *n = item_n(f, i, ver);
    char *w = xstrdup_printf("libwrap_w_%s", n);
    char *r = xstrdup_printf("libwrap_r_%s", n);
    free(n);

    set_region_vars(v, f, i, ver);
    if (f->variadic) { /* forwarded to its va_list twin, not to __real_SYM */
        tvars_set(v, "REAL_WEAK", "");
        tvars_set_bool(v, "STATIC_MISSING", false);
    }
    emit_param_vars(v, f, i);
    tvars_set(v, "WRAPPER", w);
    tvars_set(v, "WRAPPER_DECL", s = declarator_named(f->declarator, w));
    free(s);
    tvars_set_bool(v, "VOID", f->ret_void);
    tvars_set_bool(v, "NORETURN", f->noreturn);
    tvars_set_bool(v, "VARIADIC", f->variadic);
    tvars_set_bool(v, "CXX_BODY", cxx_body);
    tvars_set_bool(v, "FNPTR_RESULT", returns_function_pointer(f));

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
    const lwg_function *twin = f->variadic ? inventory_find_symbol(inv, f->va_twin) : NULL;
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
        char *vsym = inventory_version_symbol(f, ver);
        const char *orig = f->variadic ? f->va_twin : vsym;
        tvars_set_bool(v, "DECLARE_REAL", true);
        tvars_set(v, "REAL", r);
        tvars_set(v, "REAL_DECL", decl);
        free(decl);
        char *label = f->variadic ? xstrdup(orig) : xstrdup_printf("__real_%s", f->symbol);
        tvars_set(v, "REAL_LABEL", s = emit_c_string(label));
        free(s);
        free(label);
        tvars_set_bool(v, "RESOLVE", true);
        tvars_set(v, "RESOLVE_SYMBOL", s = emit_c_string(orig));
        free(s);
        free(vsym);
        tvars_set(v, "TWIN_WRAPPER", "");
    }
    /* At link time only the default version's wrapper exists; its original
     * tells which version the program's link chose. */
    if (twin_wrapped) {
        tvars_setf(v, "LINK_REAL", "libwrap_r_%zu", (size_t)(twin - inv->funcs));
    } else {
        char *base = item_n(f, i, f->default_version);
        tvars_setf(v, "LINK_REAL", "libwrap_r_%s", base);
        free(base);
    }
    free(w);
    free(r);
}

/* Is the result of C++ function f an object or a reference, for which no
 * zero value can be returned when the original is missing? Pointers,
 * arithmetic types and enums spelled as such have one; anything else (a
 * class, or a name that may be one) is taken as an object. */
static bool cxx_result_without_zero(const lwg_function *f)
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

/* Whether no argument and no result of f is in a vector register
 * (LIBWRAP_ABI_NO_VECTOR): every parameter in general registers or
 * memory, the result too or none. A result of two eightbytes may be a
 * small struct of doubles (%xmm0/%xmm1): not counted. Unknown classes,
 * variadic and unprototyped functions are not either. */
static bool abi_no_vector(const lwg_function *f)
{
    if (f->variadic || f->unprototyped)
        return false;
    for (size_t i = 0; i < f->nparams; i++) {
        lwg_abi_class c = f->params[i].arg.abi_class;
        if (c != LWG_ABI_CLASS_INTEGER && c != LWG_ABI_CLASS_INTEGER2 && c != LWG_ABI_CLASS_MEMORY)
            return false;
    }
    lwg_abi_class r = f->ret_void ? LWG_ABI_CLASS_NONE : f->ret_arg.abi_class;
    return r == LWG_ABI_CLASS_INTEGER || r == LWG_ABI_CLASS_NONE || r == LWG_ABI_CLASS_MEMORY;
}

/* The parameter list of an ABI-level wrapper's C shim (SHIM_PARAMS,
 * SHIM_TYPES, SHIM_ARGS), for a function returning a function pointer
 * whose parameters all travel in registers, each in one on both ABIs: an
 * integer or pointer in a general register ("unsigned long"), a float or
 * double in a vector register ("double", which carries a float's bits
 * unchanged). The shim calls the ABI-level wrapper with the same
 * registers and maps the result. False where any parameter is otherwise
 * (on the stack, an aggregate, a vector), or the function is variadic or
 * has versions: its result is then passed on as it is. */
static bool abi_shim_params(const lwg_function *f, strbuf *params, strbuf *types, strbuf *args)
{
    if (!returns_function_pointer(f) || f->variadic || f->unprototyped || f->nversions > 0)
        return false;
    unsigned gprs = 0, sses = 0;
    for (size_t i = 0; i < f->nparams; i++) {
        const lwg_argmeta *a = &f->params[i].arg;
        const char *t;
        if (a->abi_class == LWG_ABI_CLASS_INTEGER && a->a64_class == LWG_A64_GPR && a->width <= 8) {
            t = "unsigned long";
            gprs++;
        } else if (a->abi_class == LWG_ABI_CLASS_SSE && a->a64_class == LWG_A64_FP &&
                   a->kind == LWG_ARG_DOUBLE && a->width <= 8) {
            t = "double";
            sses++;
        } else {
            return false;
        }
        sb_printf(params, "%s%s libwrap_a%zu", i ? ", " : "", t, i + 1);
        sb_printf(types, "%s%s", i ? ", " : "", t);
        sb_printf(args, "%slibwrap_a%zu", i ? ", " : "", i + 1);
    }
    if (gprs > 6 || sses > 8)
        return false;
    if (!f->nparams) {
        sb_put(params, "void");
        sb_put(types, "void");
    }
    return true;
}

/* One entry of the ABI-level table (templates/wrappers_abi.c.in), the
 * k-th (INDEX). */
static void set_abi_vars(lwg_tvars *v, const lwg_inventory *inv, size_t i, size_t ver, size_t k,
                         size_t base_k, bool cxx)
{
    const lwg_function *f = &inv->funcs[i];
    set_region_vars(v, f, i, ver);
    tvars_setf(v, "BASE_INDEX", "%zu", base_k);
    emit_param_vars(v, f, i);
    tvars_setf(v, "INDEX", "%zu", k);
    const char *flags = f->noreturn ? "LIBWRAP_ABI_NORETURN | "
                        : cxx && cxx_result_without_zero(f) ? "LIBWRAP_ABI_NO_ZERO | "
                                                             : "";
    /* Its parameter table is lib->params[k]: the index rides in the flags. */
    tvars_setf(v, "FLAGS", "%s%sLIBWRAP_ABI_PARAMS | (%zuu << LIBWRAP_ABI_INDEX_SHIFT)", flags,
               abi_no_vector(f) ? "LIBWRAP_ABI_NO_VECTOR | " : "", k);
    strbuf params = STRBUF_INIT, types = STRBUF_INIT, args = STRBUF_INIT;
    bool shim = abi_shim_params(f, &params, &types, &args);
    tvars_set_bool(v, "FNPTR_SHIM", shim);
    tvars_set(v, "SHIM_PARAMS", shim ? params.s : "");
    tvars_set(v, "SHIM_TYPES", shim ? types.s : "");
    tvars_set(v, "SHIM_ARGS", shim && args.s ? args.s : "");
    sb_free(&params);
    sb_free(&types);
    sb_free(&args);
}

int emit_wrappers(const lwg_inventory *inv, const lwg_emit_options *opt, emit_batch *batch)
{
    const char *name = opt->name ? opt->name : inv->name;
    lwg_tvars *vars = tvars_new();
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
    /* One item per wrapper: a function with several symbol versions has
     * one per version. The version nodes, in order of first use, make the
     * version script NAME.versions. */
    tvars_list(vars, "FUNCTIONS");
    tvars_list(vars, "VERSION_NODES");
    char **nodes = NULL;
    size_t nnodes = 0;
    for (size_t i = 0; i < inv->nfuncs; i++) {
        const lwg_function *f = &inv->funcs[i];
        if (!inventory_is_wrapped(inv, f))
            continue;
        size_t nv = f->nversions ? f->nversions : 1;
        size_t base_k = count + (f->nversions ? f->default_version : 0);
        for (size_t ver = 0; ver < nv; ver++) {
            lwg_tvars *v = tvars_append(vars, "FUNCTIONS");
            if (inv->abi)
                set_abi_vars(v, inv, i, ver, count, base_k, cxx);
            else
                set_function_vars(v, inv, i, ver, cxx);
            count++;
        }
        for (size_t ver = 0; ver < f->nversions; ver++) {
            bool seen = false;
            for (size_t j = 0; j < nnodes && !seen; j++)
                seen = strcmp(nodes[j], f->versions[ver]) == 0;
            if (!seen) {
                nodes = xrealloc(nodes, (nnodes + 1) * sizeof *nodes);
                nodes[nnodes++] = f->versions[ver];
                lwg_tvars *nv_ = tvars_append(vars, "VERSION_NODES");
                tvars_set(nv_, "NODE", f->versions[ver]);
                tvars_set_bool(nv_, "FIRST", nnodes == 1);
            }
        }
    }
    free(nodes);
    tvars_setf(vars, "COUNT", "%zu", count);

    char *cname = xstrdup_printf("%s.wrappers.c", name);
    char *wname = xstrdup_printf("%s.wrap", name);
    char *vname = xstrdup_printf("%s.versions", name);
    int rc = emit_render(batch, opt, inv->abi ? "wrappers_abi.c.in" : "wrappers.c.in", vars, cname);
    if (rc == 0)
        rc = emit_render(batch, opt, "wrap.in", vars, wname);
    if (rc == 0)
        rc = emit_render(batch, opt, "versions.in", vars, vname);
    free(cname);
    free(wname);
    free(vname);
    tvars_free(vars);
    return rc;
}
