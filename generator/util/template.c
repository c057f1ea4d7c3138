/*
 * template.c - variables, parser and renderer of the text templates (see
 * template.h, docs/templates.md).
 *
 * A template is parsed into a tree of text lines and @if/@foreach blocks
 * before anything is rendered, so an unbalanced block is reported even when
 * the data would never reach it; rendering goes to memory, so an error
 * leaves no partial output.
 */
#define _GNU_SOURCE /* vasprintf */
#include "util/template.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/strbuf.h"

/* ---- variables ---- */

typedef struct tvar {
    char *name;
    char *value;      /* scalar, or NULL for a list */
    lwg_tvars **items; /* list items */
    size_t nitems, cap;
} tvar;

struct lwg_tvars {
    tvar *v;
    size_t n, cap;
};

lwg_tvars *tvars_new(void)
{
    return xcalloc(1, sizeof(lwg_tvars));
}

static void tvar_clear(tvar *t)
{
    free(t->value);
    t->value = NULL;
    for (size_t i = 0; i < t->nitems; i++)
        tvars_free(t->items[i]);
    free(t->items);
    t->items = NULL;
    t->nitems = t->cap = 0;
}

void tvars_free(lwg_tvars *vars)
{
    if (!vars)
        return;
    for (size_t i = 0; i < vars->n; i++) {
        tvar_clear(&vars->v[i]);
        free(vars->v[i].name);
    }
    free(vars->v);
    free(vars);
}

static tvar *tvar_find(const lwg_tvars *vars, const char *name, size_t len)
{
    for (size_t i = 0; i < vars->n; i++)
        if (strlen(vars->v[i].name) == len && memcmp(vars->v[i].name, name, len) == 0)
            return &vars->v[i];
    return NULL;
}

static tvar *tvar_get(lwg_tvars *vars, const char *name)
{
    tvar *t = tvar_find(vars, name, strlen(name));
    if (t)
        return t;
    if (vars->n == vars->cap) {
        vars->cap = vars->cap ? 2 * vars->cap : 16;
        vars->v = xrealloc(vars->v, vars->cap * sizeof *vars->v);
    }
    t = &vars->v[vars->n++];
    memset(t, 0, sizeof *t);
    t->name = xstrdup(name);
    return t;
}

void tvars_set(lwg_tvars *vars, const char *name, const char *value)
{
    tvar *t = tvar_get(vars, name);
    tvar_clear(t);
    t->value = xstrdup(value ? value : "");
}

void tvars_setf(lwg_tvars *vars, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) {
        fprintf(stderr, "libwrap-gen: out of memory (formatting %s)\n", name);
        exit(1);
    }
    tvar *t = tvar_get(vars, name);
    tvar_clear(t);
    t->value = s;
}

void tvars_set_bool(lwg_tvars *vars, const char *name, bool value)
{
    tvars_set(vars, name, value ? "1" : "");
}

void tvars_list(lwg_tvars *vars, const char *name)
{
    tvar *t = tvar_get(vars, name);
    if (t->value) {
        free(t->value);
        t->value = NULL;
    }
}

lwg_tvars *tvars_append(lwg_tvars *vars, const char *name)
{
    tvars_list(vars, name);
    tvar *t = tvar_find(vars, name, strlen(name));
    if (t->nitems == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->items = xrealloc(t->items, t->cap * sizeof *t->items);
    }
    lwg_tvars *item = tvars_new();
    t->items[t->nitems++] = item;
    return item;
}

/* ---- parsing ---- */

typedef enum { NODE_TEXT, NODE_IF, NODE_FOREACH } node_kind;

typedef struct nodelist {
    struct node *v;
    size_t n, cap;
} nodelist;

typedef struct node {
    node_kind kind;
    size_t line;
    const char *text; /* TEXT: the line with its newline; IF/FOREACH: the name */
    size_t len;
    bool negate;      /* @if !NAME@ */
    nodelist body;    /* IF: then-branch; FOREACH: the repeated block */
    nodelist alt;     /* IF: else-branch */
} node;

typedef enum { DIR_NONE, DIR_IF, DIR_ELSE, DIR_ENDIF, DIR_FOREACH, DIR_END, DIR_EOF } dir_kind;

typedef struct parser {
    const char *text, *end, *pos;
    const char *origin;
    size_t line;
} parser;

static void nodelist_free(nodelist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        nodelist_free(&l->v[i].body);
        nodelist_free(&l->v[i].alt);
    }
    free(l->v);
}

static node *nodelist_add(nodelist *l, node_kind kind, size_t line)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    node *nd = &l->v[l->n++];
    memset(nd, 0, sizeof *nd);
    nd->kind = kind;
    nd->line = line;
    return nd;
}

static bool is_name_start(char c)
{
    return c >= 'A' && c <= 'Z';
}

static bool is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9') || c == '_';
}

/* Length of the variable name at s (up to end), 0 when there is none. */
size_t template_name_length(const char *s, const char *end)
{
    if (s >= end || !is_name_start(*s))
        return 0;
    size_t n = 1;
    while (s + n < end && is_name_char(s[n]))
        n++;
    return n;
}

/* Classifies one line [s, e) (without its newline). For IF and FOREACH the
 * name is returned through *name and *nlen, and @if !X@ sets *negate. */
static dir_kind classify(const char *s, const char *e, const char **name, size_t *nlen,
                         bool *negate)
{
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    if (e - s < 3 || s[0] != '@' || e[-1] != '@')
        return DIR_NONE;
    s++;
    e--;
    size_t n = (size_t)(e - s);
    if (n == 4 && memcmp(s, "else", 4) == 0)
        return DIR_ELSE;
    if (n == 5 && memcmp(s, "endif", 5) == 0)
        return DIR_ENDIF;
    if (n == 3 && memcmp(s, "end", 3) == 0)
        return DIR_END;
    dir_kind kind;
    if (n > 3 && memcmp(s, "if ", 3) == 0) {
        kind = DIR_IF;
        s += 3;
    } else if (n > 8 && memcmp(s, "foreach ", 8) == 0) {
        kind = DIR_FOREACH;
        s += 8;
    } else {
        return DIR_NONE;
    }
    *negate = false;
    if (kind == DIR_IF && s < e && *s == '!') {
        *negate = true;
        s++;
    }
    size_t len = template_name_length(s, e);
    if (len == 0 || s + len != e)
        return DIR_NONE;
    *name = s;
    *nlen = len;
    return kind;
}

static const char *const dir_spelling[] = {
    [DIR_ELSE] = "@else@", [DIR_ENDIF] = "@endif@", [DIR_END] = "@end@",
};

static int parse_error(const parser *ps, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int parse_error(const parser *ps, size_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "libwrap-gen: %s:%zu: ", ps->origin, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return -1;
}

/* Parses lines into `out` until a directive that closes a block (or the
 * end), which is returned in *ended with its line in *ended_line. */
static int parse_block(parser *ps, nodelist *out, dir_kind *ended, size_t *ended_line)
{
    while (ps->pos < ps->end) {
        const char *s = ps->pos;
        const char *nl = memchr(s, '\n', (size_t)(ps->end - s));
        const char *e = nl ? nl : ps->end;
        size_t line = ++ps->line;
        ps->pos = nl ? nl + 1 : ps->end;

        const char *name = NULL;
        size_t nlen = 0;
        bool negate = false;
        dir_kind d = classify(s, e, &name, &nlen, &negate);
        if (d == DIR_NONE) {
            node *nd = nodelist_add(out, NODE_TEXT, line);
            nd->text = s;
            nd->len = (size_t)(ps->pos - s);
            continue;
        }
        if (d == DIR_ELSE || d == DIR_ENDIF || d == DIR_END) {
            *ended = d;
            *ended_line = line;
            return 0;
        }
        node *nd = nodelist_add(out, d == DIR_IF ? NODE_IF : NODE_FOREACH, line);
        nd->text = name;
        nd->len = nlen;
        nd->negate = negate;
        dir_kind closer;
        size_t closer_line;
        if (parse_block(ps, &nd->body, &closer, &closer_line) < 0)
            return -1;
        if (d == DIR_IF && closer == DIR_ELSE) {
            if (parse_block(ps, &nd->alt, &closer, &closer_line) < 0)
                return -1;
            if (closer == DIR_ELSE)
                return parse_error(ps, closer_line,
                                   "second @else@ for the @if %.*s@ at line %zu: expected @endif@",
                                   (int)nlen, name, line);
        }
        dir_kind want = d == DIR_IF ? DIR_ENDIF : DIR_END;
        const char *opener = d == DIR_IF ? "@if" : "@foreach";
        if (closer == DIR_EOF)
            return parse_error(ps, line, "%s %.*s@ is never closed: expected %s", opener,
                               (int)nlen, name, dir_spelling[want]);
        if (closer != want)
            return parse_error(ps, closer_line, "%s closes %s %.*s@ of line %zu: expected %s",
                               dir_spelling[closer], opener, (int)nlen, name, line,
                               dir_spelling[want]);
    }
    *ended = DIR_EOF;
    *ended_line = ps->line;
    return 0;
}

/* ---- rendering ---- */

typedef struct scope {
    const lwg_tvars *vars;
    const struct scope *up;
} scope;

typedef struct renderer {
    const char *origin;
    strbuf out;
} renderer;

static const tvar *lookup(const scope *sc, const char *name, size_t len)
{
    for (; sc; sc = sc->up) {
        const tvar *t = tvar_find(sc->vars, name, len);
        if (t)
            return t;
    }
    return NULL;
}

static int unknown_variable(const renderer *r, size_t line, const char *name, size_t len,
                            const scope *sc)
{
    strbuf known = STRBUF_INIT;
    for (; sc; sc = sc->up)
        for (size_t i = 0; i < sc->vars->n; i++)
            sb_printf(&known, "%s%s", known.len ? ", " : "", sc->vars->v[i].name);
    fprintf(stderr,
            "libwrap-gen: %s:%zu: unknown variable %.*s: define it (render: %.*s=VALUE) or fix "
            "the template; defined here: %s\n",
            r->origin, line, (int)len, name, (int)len, name, known.len ? known.s : "none");
    sb_free(&known);
    return -1;
}

static int render_text(renderer *r, const node *nd, const scope *sc)
{
    const char *s = nd->text, *end = nd->text + nd->len;
    while (s < end) {
        const char *at = memchr(s, '@', (size_t)(end - s));
        if (!at) {
            sb_putn(&r->out, s, (size_t)(end - s));
            break;
        }
        sb_putn(&r->out, s, (size_t)(at - s));
        size_t len = template_name_length(at + 1, end);
        if (len == 0 || at + 1 + len >= end || at[1 + len] != '@') {
            sb_putn(&r->out, "@", 1);
            s = at + 1;
            continue;
        }
        const tvar *t = lookup(sc, at + 1, len);
        if (!t)
            return unknown_variable(r, nd->line, at + 1, len, sc);
        if (!t->value) {
            fprintf(stderr,
                    "libwrap-gen: %s:%zu: %.*s is a list: use it in @foreach %.*s@, not as "
                    "@%.*s@\n",
                    r->origin, nd->line, (int)len, at + 1, (int)len, at + 1, (int)len, at + 1);
            return -1;
        }
        sb_put(&r->out, t->value);
        s = at + 2 + len;
    }
    return 0;
}

static int render_list(renderer *r, const nodelist *l, const scope *sc)
{
    for (size_t i = 0; i < l->n; i++) {
        const node *nd = &l->v[i];
        if (nd->kind == NODE_TEXT) {
            if (render_text(r, nd, sc) < 0)
                return -1;
            continue;
        }
        const tvar *t = lookup(sc, nd->text, nd->len);
        if (!t)
            return unknown_variable(r, nd->line, nd->text, nd->len, sc);
        if (nd->kind == NODE_IF) {
            bool truth = t->value ? t->value[0] != '\0' : t->nitems > 0;
            if (render_list(r, truth != nd->negate ? &nd->body : &nd->alt, sc) < 0)
                return -1;
            continue;
        }
        if (t->value) {
            fprintf(stderr, "libwrap-gen: %s:%zu: @foreach %.*s@: %.*s is not a list\n",
                    r->origin, nd->line, (int)nd->len, nd->text, (int)nd->len, nd->text);
            return -1;
        }
        for (size_t k = 0; k < t->nitems; k++) {
            scope inner = {t->items[k], sc};
            if (render_list(r, &nd->body, &inner) < 0)
                return -1;
        }
    }
    return 0;
}

int template_render(const char *text, size_t len, const char *origin, const lwg_tvars *vars,
                    char **out, size_t *outlen)
{
    parser ps = {text, text + len, text, origin, 0};
    nodelist root = {NULL, 0, 0};
    dir_kind ended;
    size_t ended_line;
    int rc = parse_block(&ps, &root, &ended, &ended_line);
    if (rc == 0 && ended != DIR_EOF)
        rc = parse_error(&ps, ended_line, "%s without an open block", dir_spelling[ended]);
    renderer r = {origin, STRBUF_INIT};
    scope top = {vars, NULL};
    if (rc == 0)
        rc = render_list(&r, &root, &top);
    nodelist_free(&root);
    if (rc < 0) {
        sb_free(&r.out);
        return -1;
    }
    if (outlen)
        *outlen = r.out.len;
    *out = sb_steal(&r.out);
    return 0;
}

int template_render_file(const char *path, const lwg_tvars *vars, char **out, size_t *outlen)
{
    size_t len;
    char *text = read_whole_file(path, &len);
    if (!text) {
        fprintf(stderr, "libwrap-gen: %s: cannot read template: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = template_render(text, len, path, vars, out, outlen);
    free(text);
    return rc;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *template_default_dir(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    /* libexec/libwrap/libwrap-gen is two levels below the prefix; accept
     * bin/ (one level) as well. */
    static const char *const rel[] = {"/../../share/libwrap/templates",
                                      "/../share/libwrap/templates"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char *dir = xstrdup_printf("%s%s", exe, rel[i]);
        char *real = realpath(dir, NULL);
        free(dir);
        if (real && is_dir(real))
            return real;
        free(real);
    }
    return NULL;
}

/* ---- libwrap-gen render ---- */

/* TEMPLATE as given when it names a file, else NAME or NAME.in in the
 * template directory. A new string, or NULL when nothing is found. */
char *template_find(const char *arg, const char *dir_opt)
{
    struct stat st;
    if (strchr(arg, '/') || stat(arg, &st) == 0)
        return xstrdup(arg);
    char *dir = dir_opt ? xstrdup(dir_opt) : template_default_dir();
    if (!dir)
        return NULL;
    char *path = xstrdup_printf("%s/%s", dir, arg);
    if (stat(path, &st) != 0) {
        free(path);
        path = xstrdup_printf("%s/%s.in", dir, arg);
        if (stat(path, &st) != 0) {
            free(path);
            path = NULL;
        }
    }
    free(dir);
    return path;
}
