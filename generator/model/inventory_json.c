/*
 * inventory_json.c - the inventory as JSON, with json-c (keys documented in
 * docs/inventory.md). Reading is used by the probes and by tests; it checks
 * types so that a hand-edited file gives a message instead of a crash.
 */
#include "model/inventory.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/strbuf.h"

static json_object *jstr(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

/* {"kind", "width", "size", "zext", "abi", "abi_a64"}: docs/inventory.md. */
static json_object *argmeta_to_json(const lwg_argmeta *m, bool result)
{
    char buf[24];
    json_object *o = json_object_new_object();
    json_object_object_add(o, "kind", jstr(lwg_arg_kind_name(m->kind)));
    json_object_object_add(o, "width", json_object_new_int(m->width));
    json_object_object_add(o, "size", json_object_new_boolean(m->size));
    json_object_object_add(o, "zext", json_object_new_boolean(m->zext));
    json_object_object_add(o, "abi", jstr(lwg_abi_loc_name(m->abi, result, buf)));
    json_object_object_add(o, "abi_a64", jstr(lwg_a64_loc_name(m->abi_a64, result, buf)));
    return o;
}

static json_object *function_to_json(const lwg_inventory *inv, const lwg_function *f)
{
    lwg_skip verdict = inventory_verdict(inv, f);
    json_object *o = json_object_new_object();
    json_object_object_add(o, "symbol", jstr(f->symbol));
    json_object_object_add(o, "name", jstr(f->name));
    json_object_object_add(o, "scope", jstr(f->scope ? f->scope : ""));
    json_object_object_add(o, "kind", jstr(lwg_fn_kind_name(f->kind)));
    json_object_object_add(o, "file", jstr(f->file));
    json_object_object_add(o, "line", json_object_new_int64(f->line));
    json_object *ret = json_object_new_object();
    json_object_object_add(ret, "type", jstr(f->ret_type));
    json_object_object_add(ret, "canonical", jstr(f->ret_canonical));
    json_object_object_add(ret, "arg", argmeta_to_json(&f->ret_arg, true));
    json_object_object_add(o, "return", ret);
    json_object *params = json_object_new_array();
    for (size_t i = 0; i < f->nparams; i++) {
        const lwg_param *p = &f->params[i];
        json_object *po = json_object_new_object();
        json_object_object_add(po, "name", jstr(p->name));
        json_object_object_add(po, "name_invented", json_object_new_boolean(p->name_invented));
        json_object_object_add(po, "type", jstr(p->type));
        json_object_object_add(po, "canonical", jstr(p->canonical));
        json_object_object_add(po, "decl", jstr(p->decl));
        json_object_object_add(po, "fwd", jstr(p->fwd));
        json_object_object_add(po, "arg", argmeta_to_json(&p->arg, false));
        json_object_array_add(params, po);
    }
    json_object_object_add(o, "params", params);
    json_object_object_add(o, "declarator", jstr(f->declarator));
    json_object_object_add(o, "variadic", json_object_new_boolean(f->variadic));
    json_object_object_add(o, "va_twin", jstr(f->va_twin));
    if (f->nversions) {
        /* Only for a symbol with several versions: inventories of
         * unversioned libraries stay as they were. */
        json_object *vs = json_object_new_array();
        for (size_t k = 0; k < f->nversions; k++) {
            json_object *vo = json_object_new_object();
            json_object_object_add(vo, "version", jstr(f->versions[k]));
            json_object_object_add(vo, "default", json_object_new_boolean(k == f->default_version));
            json_object_array_add(vs, vo);
        }
        json_object_object_add(o, "versions", vs);
    }
    json_object *format = NULL;
    if (f->format_index) {
        format = json_object_new_object();
        json_object_object_add(format, "index", json_object_new_int(f->format_index));
        json_object_object_add(format, "first", json_object_new_int(f->format_first));
    }
    json_object_object_add(o, "format", format);
    json_object_object_add(o, "noreturn", json_object_new_boolean(f->noreturn));
    json_object_object_add(o, "deprecated", json_object_new_boolean(f->deprecated));
    json_object_object_add(o, "inline", json_object_new_boolean(f->is_inline));
    json_object_object_add(o, "static", json_object_new_boolean(f->is_static));
    json_object_object_add(o, "hidden", json_object_new_boolean(f->hidden));
    json_object_object_add(o, "unprototyped", json_object_new_boolean(f->unprototyped));
    json_object_object_add(o, "wrapped", json_object_new_boolean(verdict == LWG_WRAP));
    json_object_object_add(o, "skip", verdict == LWG_WRAP ? NULL : jstr(lwg_skip_name(verdict)));
    json_object_object_add(o, "skip_detail", jstr(f->skip_detail));
    return o;
}

int inventory_write_json(const lwg_inventory *inv, const char *path)
{
    json_object *root = json_object_new_object();
    json_object_object_add(root, "libwrap_inventory", json_object_new_int(1));
    json_object_object_add(root, "name", jstr(inv->name));
    json_object_object_add(root, "language", jstr(inv->language));
    json_object_object_add(root, "source", jstr(inv->source));
    json_object_object_add(root, "header", jstr(inv->header));
    json_object_object_add(root, "forwarding", jstr(inv->abi ? "abi" : "typed"));
    json_object *funcs = json_object_new_array();
    for (size_t i = 0; i < inv->nfuncs; i++)
        json_object_array_add(funcs, function_to_json(inv, &inv->funcs[i]));
    json_object_object_add(root, "functions", funcs);

    const char *text = json_object_to_json_string_ext(
        root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
    /* The JSON text ends with a newline, as text files do. */
    char *doc = xstrdup_printf("%s\n", text);
    int rc = write_file_atomically(path, doc, strlen(doc));
    free(doc);
    json_object_put(root);
    return rc;
}

/* Reading: each getter records the first problem and returns a default, so
 * that one message names the first bad key. */
typedef struct reader {
    char *error;
} reader;

#define TOP SIZE_MAX /* index of the top-level object in messages */

/* `what` is a message with one %s for `a`. */
__attribute__((format(printf, 3, 0)))
static void fail(reader *r, size_t index, const char *what, const char *a)
{
    if (r->error)
        return;
    char *msg = xstrdup_printf(what, a);
    r->error = index == TOP ? msg : xstrdup_printf("function %zu: %s", index, msg);
    if (index != TOP)
        free(msg);
}

static json_object *get(reader *r, json_object *o, const char *key, json_type type, bool nullable,
                        size_t index)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, key, &v)) {
        fail(r, index, "key \"%s\" is missing", key);
        return NULL;
    }
    if (!v && nullable)
        return NULL;
    if (!json_object_is_type(v, type)) {
        fail(r, index, "key \"%s\" has the wrong type", key);
        return NULL;
    }
    return v;
}

static char *get_str(reader *r, json_object *o, const char *key, bool nullable, size_t index)
{
    json_object *v = get(r, o, key, json_type_string, nullable, index);
    return v ? xstrdup(json_object_get_string(v)) : (nullable ? NULL : xstrdup(""));
}

static bool get_bool(reader *r, json_object *o, const char *key, size_t index)
{
    json_object *v = get(r, o, key, json_type_boolean, false, index);
    return v && json_object_get_boolean(v);
}

/* "arg" of a parameter or result; absent from inventories written before
 * argument recording: nothing is recorded of them. */
static void read_argmeta(reader *r, json_object *o, lwg_argmeta *m, bool result, size_t idx)
{
    memset(m, 0, sizeof *m);
    if (!json_object_object_get_ex(o, "arg", NULL))
        return;
    json_object *a = get(r, o, "arg", json_type_object, false, idx);
    if (!a)
        return;
    char *kind = get_str(r, a, "kind", false, idx);
    m->kind = lwg_arg_kind_from_name(kind);
    if (m->kind == LWG_ARG_KIND_COUNT_) {
        fail(r, idx, "unknown argument kind \"%s\"", kind);
        m->kind = LWG_ARG_NONE;
    }
    free(kind);
    json_object *width = get(r, a, "width", json_type_int, false, idx);
    int64_t w = width ? json_object_get_int64(width) : 0;
    if (w < 0 || w > 255)
        fail(r, idx, "%s", "an argument width is out of range");
    m->width = w >= 0 && w <= 255 ? (unsigned)w : 0;
    m->size = get_bool(r, a, "size", idx);
    m->zext = get_bool(r, a, "zext", idx);
    char *abi = get_str(r, a, "abi", true, idx);
    if (abi) {
        m->abi = lwg_abi_loc_from_name(abi, result);
        if (!m->abi)
            fail(r, idx, "unknown argument location \"%s\"", abi);
        free(abi);
    }
    /* Absent from an inventory written before AArch64 locations were. */
    char *a64 = json_object_object_get_ex(a, "abi_a64", NULL) ? get_str(r, a, "abi_a64", true, idx) : NULL;
    if (a64) {
        m->abi_a64 = lwg_a64_loc_from_name(a64, result);
        if (!m->abi_a64)
            fail(r, idx, "unknown AArch64 argument location \"%s\"", a64);
        free(a64);
    }
}

static lwg_skip skip_from_name(const char *name)
{
    for (int i = 1; i < LWG_SKIP_COUNT_; i++)
        if (strcmp(lwg_skip_name((lwg_skip)i), name) == 0)
            return (lwg_skip)i;
    return LWG_SKIP_COUNT_;
}

static void read_function(reader *r, json_object *o, lwg_function *f, size_t idx)
{
    f->symbol = get_str(r, o, "symbol", false, idx);
    f->name = get_str(r, o, "name", false, idx);
    f->scope = get_str(r, o, "scope", false, idx);
    char *kind = get_str(r, o, "kind", false, idx);
    f->kind = LWG_FN_FUNCTION;
    for (int k = LWG_FN_FUNCTION; k <= LWG_FN_OPERATOR; k++)
        if (strcmp(kind, lwg_fn_kind_name((lwg_fn_kind)k)) == 0)
            f->kind = (lwg_fn_kind)k;
    free(kind);
    f->file = get_str(r, o, "file", false, idx);
    json_object *line = get(r, o, "line", json_type_int, false, idx);
    f->line = line ? (unsigned)json_object_get_int64(line) : 0;
    json_object *ret = get(r, o, "return", json_type_object, false, idx);
    if (ret) {
        f->ret_type = get_str(r, ret, "type", false, idx);
        f->ret_canonical = get_str(r, ret, "canonical", false, idx);
        f->ret_void = strcmp(f->ret_canonical, "void") == 0;
        read_argmeta(r, ret, &f->ret_arg, true, idx);
    }
    json_object *params = get(r, o, "params", json_type_array, false, idx);
    size_t n = params ? json_object_array_length(params) : 0;
    if (n)
        f->params = xcalloc(n, sizeof *f->params);
    for (size_t i = 0; i < n; i++) {
        json_object *po = json_object_array_get_idx(params, i);
        if (!json_object_is_type(po, json_type_object)) {
            fail(r, idx, "%s", "a parameter is not an object");
            break;
        }
        lwg_param *p = &f->params[f->nparams++];
        p->name = get_str(r, po, "name", false, idx);
        p->name_invented = get_bool(r, po, "name_invented", idx);
        p->type = get_str(r, po, "type", false, idx);
        p->canonical = get_str(r, po, "canonical", false, idx);
        p->decl = get_str(r, po, "decl", false, idx);
        p->fwd = get_str(r, po, "fwd", false, idx);
        read_argmeta(r, po, &p->arg, false, idx);
    }
    f->declarator = get_str(r, o, "declarator", false, idx);
    f->variadic = get_bool(r, o, "variadic", idx);
    f->va_twin = get_str(r, o, "va_twin", true, idx);
    json_object *vs = NULL;
    if (json_object_object_get_ex(o, "versions", &vs)) {
        if (!json_object_is_type(vs, json_type_array) || json_object_array_length(vs) == 0) {
            fail(r, idx, "key \"%s\" has the wrong type", "versions");
        } else {
            size_t n = json_object_array_length(vs), def = n;
            f->versions = xcalloc(n, sizeof *f->versions);
            f->nversions = n;
            for (size_t k = 0; k < n && !r->error; k++) {
                json_object *vo = json_object_array_get_idx(vs, k);
                if (!json_object_is_type(vo, json_type_object)) {
                    fail(r, idx, "key \"%s\" has the wrong type", "versions");
                    break;
                }
                f->versions[k] = get_str(r, vo, "version", false, idx);
                if (get_bool(r, vo, "default", idx))
                    def = def == n ? k : n + 1;
            }
            for (size_t k = 0; k < n; k++)
                if (!f->versions[k])
                    f->versions[k] = xstrdup("");
            if (!r->error && def >= n)
                fail(r, idx, "key \"%s\" needs exactly one default version", "versions");
            f->default_version = def < n ? def : 0;
        }
    }
    json_object *format = get(r, o, "format", json_type_object, true, idx);
    if (format) {
        json_object *i = get(r, format, "index", json_type_int, false, idx);
        json_object *first = get(r, format, "first", json_type_int, false, idx);
        f->format_index = i ? json_object_get_int(i) : 0;
        f->format_first = first ? json_object_get_int(first) : 0;
    }
    f->noreturn = get_bool(r, o, "noreturn", idx);
    f->deprecated = get_bool(r, o, "deprecated", idx);
    f->is_inline = get_bool(r, o, "inline", idx);
    f->is_static = get_bool(r, o, "static", idx);
    f->hidden = get_bool(r, o, "hidden", idx);
    f->unprototyped = get_bool(r, o, "unprototyped", idx);
    bool wrapped = get_bool(r, o, "wrapped", idx);
    char *skip = get_str(r, o, "skip", true, idx);
    if (skip) {
        f->skip = skip_from_name(skip);
        if (f->skip == LWG_SKIP_COUNT_)
            fail(r, idx, "unknown skip reason \"%s\"", skip);
        free(skip);
    }
    if (wrapped != (f->skip == LWG_WRAP))
        fail(r, idx, "%s", "\"wrapped\" and \"skip\" disagree");
    f->skip_detail = get_str(r, o, "skip_detail", true, idx);
}

int inventory_read_json_string(lwg_inventory *inv, const char *text, size_t len, const char *origin)
{
    inventory_init(inv);
    /* json-c takes an int length; an inventory that large is not ours. */
    if (len > INT_MAX) {
        fprintf(stderr, "libwrap-gen: %s: too large for an inventory; rerun make to regenerate it\n",
                origin);
        return -1;
    }
    json_tokener *tok = json_tokener_new();
    if (!tok) {
        fprintf(stderr, "libwrap-gen: %s: out of memory\n", origin);
        return -1;
    }
    json_object *root = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    /* The tokener stops after the first value: whatever follows it (a
     * second document, a stray NUL) makes the file something else. */
    while (jerr == json_tokener_success && end < len && text[end] && strchr(" \t\r\n", text[end]))
        end++;
    if (jerr != json_tokener_success || end < len || !root) {
        fprintf(stderr, "libwrap-gen: %s: not a readable JSON file (%s at byte %zu); rerun make to regenerate it\n",
                origin,
                jerr == json_tokener_continue ? "truncated"
                : jerr != json_tokener_success ? json_tokener_error_desc(jerr)
                                               : "unexpected data after the inventory",
                end);
        json_object_put(root);
        return -1;
    }
    reader r = {NULL};
    json_object *version = NULL;
    if (!json_object_object_get_ex(root, "libwrap_inventory", &version) ||
        !json_object_is_type(version, json_type_int) || json_object_get_int(version) != 1) {
        fprintf(stderr, "libwrap-gen: %s: not a libwrap inventory (version 1 expected)\n", origin);
        json_object_put(root);
        return -1;
    }
    inv->name = get_str(&r, root, "name", true, TOP);
    inv->language = get_str(&r, root, "language", true, TOP);
    inv->source = get_str(&r, root, "source", true, TOP);
    inv->header = get_str(&r, root, "header", true, TOP);
    /* Absent from inventories written before ABI-level forwarding: typed. */
    if (json_object_object_get_ex(root, "forwarding", NULL)) {
        char *forwarding = get_str(&r, root, "forwarding", true, TOP);
        inv->abi = forwarding && strcmp(forwarding, "abi") == 0;
        free(forwarding);
    }
    json_object *funcs = get(&r, root, "functions", json_type_array, false, TOP);
    size_t n = funcs ? json_object_array_length(funcs) : 0;
    for (size_t i = 0; i < n && !r.error; i++) {
        json_object *o = json_object_array_get_idx(funcs, i);
        if (!json_object_is_type(o, json_type_object)) {
            fail(&r, i, "%s", "not an object");
            break;
        }
        read_function(&r, o, inventory_add(inv), i);
    }
    json_object_put(root);
    if (r.error) {
        fprintf(stderr, "libwrap-gen: %s: %s\n", origin, r.error);
        free(r.error);
        inventory_free(inv);
        return -1;
    }
    return 0;
}

int inventory_read_json(lwg_inventory *inv, const char *path)
{
    inventory_init(inv);
    size_t len;
    char *text = read_whole_file(path, &len);
    if (!text) {
        fprintf(stderr, "libwrap-gen: %s: cannot read (%s); rerun make to regenerate it\n", path,
                strerror(errno));
        return -1;
    }
    int rc = inventory_read_json_string(inv, text, len, path);
    free(text);
    return rc;
}
