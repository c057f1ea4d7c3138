/*
 * emit/params.c - the parameter tables of the wrappers (docs/arguments.md):
 * for each wrapped function a constant table of libwrap_param (name, type,
 * kind, width, flags, x86-64 location), one entry per parameter and one for
 * the result, from the inventory's argument metadata. Both templates get
 * the same table; the typed one also the code that captures the values.
 *
 * Template variables (per function item): HAS_TABLE, NPARAMS, PARAMS
 * (items PNAME PTYPE PKIND PWIDTH PFLAGS PABI PABI_A64), PARAMS_PTR (the table, or
 * NULL), and for typed wrappers HAS_ARGS, CAPTURE, RECORD_RESULT,
 * RESULT_VALUE, USES_REC, PARAMS_BITS and RESULT_BIT (the bits of the
 * runtime's record mask that call for each).
 */
#include <stdlib.h>
#include <string.h>

#include "emit/parts.h"
#include "util/strbuf.h"

static const char *const kind_macros[LWG_ARG_KIND_COUNT_] = {
    [LWG_ARG_NONE] = "LIBWRAP_PARAM_NONE",     [LWG_ARG_SIGNED] = "LIBWRAP_PARAM_SIGNED",
    [LWG_ARG_UNSIGNED] = "LIBWRAP_PARAM_UNSIGNED", [LWG_ARG_DOUBLE] = "LIBWRAP_PARAM_DOUBLE",
    [LWG_ARG_STRING] = "LIBWRAP_PARAM_STRING", [LWG_ARG_ENUM] = "LIBWRAP_PARAM_ENUM",
    [LWG_ARG_FORTRAN_CHAR] = "LIBWRAP_PARAM_FORTRAN_CHAR",
};

/* How a wrapper hands a value of this kind to the runtime (libwrap.h). */
static char *capture(const lwg_argmeta *m, const char *expr)
{
    switch (m->kind) {
    case LWG_ARG_SIGNED:
    case LWG_ARG_UNSIGNED:
    case LWG_ARG_ENUM:
        return xstrdup_printf("LIBWRAP_VALUE_INT(%s)", expr);
    case LWG_ARG_DOUBLE:
        return xstrdup_printf(m->width == 4 ? "LIBWRAP_VALUE_FLOAT(%s)" : "LIBWRAP_VALUE_DOUBLE(%s)", expr);
    case LWG_ARG_STRING:
        return xstrdup_printf("LIBWRAP_VALUE_PTR(%s)", expr);
    default:
        return xstrdup("0");
    }
}

/* A location (LIBWRAP_PARAM_ABI_*) as the macro that writes it. */
static void set_loc(lwg_tvars *p, const char *var, unsigned loc)
{
    unsigned n = loc & 0xffu;
    switch (loc & ~0xffu) {
    case 0x100u: tvars_setf(p, var, "LIBWRAP_PARAM_ABI_GPR(%u)", n); break;
    case 0x200u: tvars_setf(p, var, "LIBWRAP_PARAM_ABI_SSE(%u)", n); break;
    case 0x400u: tvars_setf(p, var, "LIBWRAP_PARAM_ABI_STACK(%u)", n); break;
    default: tvars_set(p, var, "0"); break;
    }
}

static void add_entry(lwg_tvars *list, const char *name, const char *type, const lwg_argmeta *m,
                      bool result)
{
    lwg_tvars *p = tvars_append(list, "PARAMS");
    char *s;
    tvars_set(p, "PNAME", s = emit_c_string(name));
    free(s);
    tvars_set(p, "PTYPE", s = emit_c_string(type ? type : ""));
    free(s);
    tvars_set(p, "PKIND",
              kind_macros[(unsigned)m->kind < LWG_ARG_KIND_COUNT_ ? m->kind : LWG_ARG_NONE]);
    tvars_setf(p, "PWIDTH", "%u", m->width);
    strbuf flags = STRBUF_INIT;
    if (m->size)
        sb_put(&flags, "LIBWRAP_PARAM_SIZE");
    if (result)
        sb_printf(&flags, "%sLIBWRAP_PARAM_RESULT", flags.len ? " | " : "");
    if (m->zext)
        sb_printf(&flags, "%sLIBWRAP_PARAM_ZEXT", flags.len ? " | " : "");
    tvars_set(p, "PFLAGS", flags.len ? flags.s : "0");
    sb_free(&flags);
    set_loc(p, "PABI", m->abi);
    set_loc(p, "PABI_A64", m->abi_a64);
}

void emit_param_vars(lwg_tvars *v, const lwg_function *f, size_t i)
{
    /* `record` has a bit per entry: a function with more is described only
     * as far as it can be recorded. */
    size_t nparams = f->nparams < LWG_PARAMS_MAX ? f->nparams : LWG_PARAMS_MAX;
    bool result = !f->ret_void && nparams < LWG_PARAMS_MAX;
    size_t n = nparams + (result ? 1 : 0);
    tvars_list(v, "PARAMS");
    for (size_t k = 0; k < nparams; k++)
        add_entry(v, f->params[k].name, f->params[k].type, &f->params[k].arg, false);
    if (result)
        add_entry(v, "return", f->ret_type, &f->ret_arg, true);
    tvars_set_bool(v, "HAS_TABLE", n > 0);
    tvars_setf(v, "NPARAMS", "%zu", n);
    if (n)
        tvars_setf(v, "PARAMS_PTR", "libwrap_d_%zu", i);
    else
        tvars_set(v, "PARAMS_PTR", "NULL");

    strbuf cap = STRBUF_INIT;
    bool any = false;
    for (size_t k = 0; k < nparams; k++) {
        char *c = capture(&f->params[k].arg, f->params[k].fwd);
        any |= f->params[k].arg.kind != LWG_ARG_NONE;
        sb_printf(&cap, "%s%s", k ? ", " : "", c);
        free(c);
    }
    tvars_set_bool(v, "HAS_ARGS", any);
    /* The bits of `record` the wrapper tests: its parameters', its result's. */
    tvars_setf(v, "PARAMS_BITS", "0x%llxull",
               nparams >= 64 ? ~0ull : (unsigned long long)((1ull << nparams) - 1));
    tvars_setf(v, "RESULT_BIT", "0x%llxull", result ? (unsigned long long)(1ull << nparams) : 0ull);
    tvars_set(v, "CAPTURE", any ? cap.s : "");
    sb_free(&cap);
    bool record_result = result && f->ret_arg.kind != LWG_ARG_NONE && !f->noreturn;
    tvars_set_bool(v, "RECORD_RESULT", record_result);
    char *rv = record_result ? capture(&f->ret_arg, "libwrap_result") : xstrdup("");
    tvars_set(v, "RESULT_VALUE", rv);
    free(rv);
    tvars_set_bool(v, "USES_REC", any || record_result);
}
