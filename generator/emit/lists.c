/*
 * emit/lists.c - the listings of what is not wrapped: NAME.skipped.txt (every
 * unwrapped function, grouped by reason) and missing.filter /
 * uncertain.filter (the symbol check's verdicts in filter syntax, so that the
 * user can INCLUDE a function back through NAME.filter). `libwrap-gen check`
 * rewrites the two filter files alone, with emit_skip_filters.
 */
#include <stdio.h>
#include <stdlib.h>

#include "emit/parts.h"
#include "util/fileio.h"
#include "util/strbuf.h"

/* One line per reason for the listing's section headers. */
static const char *const reason_text[LWG_SKIP_COUNT_] = {
    [LWG_SKIP_INLINE] = "inline: there is no symbol to intercept",
    [LWG_SKIP_STATIC] = "static: internal linkage, invisible to the linker",
    [LWG_SKIP_HIDDEN] = "hidden visibility: not exported",
    [LWG_SKIP_VARIADIC] = "variadic without a va_list twin (name one with --va-twin SYM=TWIN)",
    [LWG_SKIP_UNPROTOTYPED] = "declared without a prototype (use --declare-void SYM for f(void))",
    [LWG_SKIP_UNSUPPORTED] =
        "no wrapper can be written: nothing to call (deleted, pure virtual, a class "
        "template's member) or, with typed wrappers, a type that cannot be spelled",
    [LWG_SKIP_OUT_OF_SCOPE] =
        "declared outside the headers in scope (add its -I dir to --cppflags)",
    [LWG_SKIP_FILTERED] = "excluded by the filter",
    [LWG_SKIP_MISSING] = "not exported by the target libraries",
    [LWG_SKIP_UNCERTAIN] = "also resolvable without the target libraries",
    [LWG_SKIP_DUPLICATE] = "another declaration of the same symbol speaks for it (the first)",
    [LWG_SKIP_BUILTIN] = "a compiler builtin or compiler runtime function",
    [LWG_SKIP_DIAGNOSTIC] = "the declaration does not parse (libclang's error in the detail)",
    [LWG_SKIP_SIGNAL] = "a Qt signal: QObject::connect identifies it by its address (docs/cxx.md)",
    [LWG_SKIP_RETURNS_TWICE] =
        "returns twice (setjmp, vfork, getcontext): the call's second return would find its "
        "wrapper's state reused; calls go to the library unmeasured (docs/inventory.md)",
    [LWG_SKIP_COMPILE] =
        "its wrapper did not compile (the compiler's error in the detail; NAME.dropped)",
};

static void add_function(lwg_tvars *list_owner, const lwg_function *f, const char *detail)
{
    lwg_tvars *item = tvars_append(list_owner, "FUNCTIONS");
    tvars_set(item, "SYMBOL", f->symbol ? f->symbol : f->name);
    tvars_setf(item, "FILE", "%s:%u", f->file ? f->file : "?", f->line);
    if (detail && detail[0])
        tvars_setf(item, "DETAIL", "  (%s)", detail);
    else
        tvars_set(item, "DETAIL", "");
}

static int emit_skipped(const lwg_inventory *inv, const lwg_emit_options *opt, emit_batch *batch,
                        const char *name)
{
    lwg_tvars *vars = tvars_new();
    size_t wrapped = 0, skipped = 0;
    tvars_list(vars, "REASONS");
    /* Grouped by the model's verdict (inventory_verdict). */
    for (int reason = LWG_WRAP + 1; reason < LWG_SKIP_COUNT_; reason++) {
        lwg_tvars *group = NULL;
        size_t count = 0;
        for (size_t i = 0; i < inv->nfuncs; i++) {
            const lwg_function *f = &inv->funcs[i];
            if ((int)inventory_verdict(inv, f) != reason)
                continue;
            if (!group) {
                group = tvars_append(vars, "REASONS");
                tvars_set(group, "REASON", lwg_skip_name(reason));
                tvars_set(group, "WHY", reason_text[reason]);
            }
            /* A verdict of the model's own (f->skip not set) says why. */
            const char *detail = f->skip_detail;
            if (f->skip == LWG_WRAP && !f->symbol)
                detail = "no symbol";
            else if (f->skip == LWG_WRAP && f->variadic)
                detail = f->va_twin ? "no fixed parameter to va_start after" : "no va_list twin";
            else if (f->skip == LWG_WRAP)
                detail = "no declarator";
            add_function(group, f, detail);
            count++;
        }
        if (group)
            tvars_setf(group, "COUNT", "%zu", count);
        skipped += count;
    }
    /* The functions as make's GEN line counts them: those of the library's
     * headers, each once; the other declarations besides. */
    size_t dup = 0, out = 0;
    for (size_t i = 0; i < inv->nfuncs; i++) {
        wrapped += inventory_is_wrapped(inv, &inv->funcs[i]);
        lwg_skip v = inventory_verdict(inv, &inv->funcs[i]);
        dup += v == LWG_SKIP_DUPLICATE;
        out += v == LWG_SKIP_OUT_OF_SCOPE;
    }
    tvars_set(vars, "LIBNAME", name);
    tvars_setf(vars, "TOTAL", "%zu", inv->nfuncs - dup - out);
    tvars_setf(vars, "WRAPPED", "%zu", wrapped);
    tvars_setf(vars, "SKIPPED", "%zu", skipped - dup - out);
    if (dup || out)
        tvars_setf(vars, "BESIDES", "; besides, %zu more declaration%s of them [duplicate] and %zu of functions "
                                    "outside its headers [out-of-scope]",
                   dup, dup == 1 ? "" : "s", out);
    else
        tvars_set(vars, "BESIDES", "");
    char *file = xstrdup_printf("%s.skipped.txt", name);
    int rc = emit_render(batch, opt, "skipped.txt.in", vars, file);
    free(file);
    tvars_free(vars);
    return rc;
}

/* The variables of skip.filter.in for the functions skipped as `which`. */
static lwg_tvars *filter_vars(const lwg_inventory *inv, const char *name, lwg_skip which)
{
    lwg_tvars *vars = tvars_new();
    size_t count = 0;
    tvars_list(vars, "FUNCTIONS");
    for (size_t i = 0; i < inv->nfuncs; i++) {
        const lwg_function *f = &inv->funcs[i];
        if (inventory_verdict(inv, f) != which || !f->symbol)
            continue;
        add_function(vars, f, f->skip_detail);
        count++;
    }
    tvars_set(vars, "LIBNAME", name);
    tvars_set(vars, "KIND", which == LWG_SKIP_MISSING ? "MISSING" : "UNCERTAIN");
    tvars_set(vars, "WHY", reason_text[which]);
    tvars_setf(vars, "COUNT", "%zu", count);
    return vars;
}

static int emit_filter(const lwg_inventory *inv, const lwg_emit_options *opt, emit_batch *batch,
                       const char *name, lwg_skip which, const char *file)
{
    lwg_tvars *vars = filter_vars(inv, name, which);
    int rc = emit_render(batch, opt, "skip.filter.in", vars, file);
    tvars_free(vars);
    return rc;
}

int emit_lists(const lwg_inventory *inv, const lwg_emit_options *opt, emit_batch *batch)
{
    const char *name = opt->name ? opt->name : inv->name;
    if (emit_skipped(inv, opt, batch, name) < 0)
        return -1;
    return emit_filter_lists(inv, opt, batch);
}

int emit_filter_lists(const lwg_inventory *inv, const lwg_emit_options *opt, emit_batch *batch)
{
    const char *name = opt->name ? opt->name : inv->name;
    if (emit_filter(inv, opt, batch, name, LWG_SKIP_MISSING, "missing.filter") < 0)
        return -1;
    return emit_filter(inv, opt, batch, name, LWG_SKIP_UNCERTAIN, "uncertain.filter");
}
