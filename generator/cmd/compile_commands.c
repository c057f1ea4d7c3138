/*
 * compile_commands.c - `libwrap-gen compile-commands FILE`: the
 * preprocessor flags of a compile_commands.json, for libwrap-init
 * --from-compile-commands.
 *
 * Every entry's -I, -isystem, -iquote, -include, -D, -U and -std= flags, in
 * first-seen order without repeats, are printed on one line, each word
 * shell-quoted when it needs it. Relative paths are made absolute against
 * the entry's "directory": make runs elsewhere. An entry gives its command
 * as "arguments" (an array of strings) or "command" (one string, split as
 * a shell would, without expansion).
 *
 * A file that is not such JSON is an error at FILE:LINE:COLUMN saying what
 * was expected (empty, cut off, text after the array; a UTF-8 byte order
 * mark is skipped); every member an entry has is type-checked.
 */
#define _GNU_SOURCE /* realpath */
#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "util/fileio.h"
#include "check/ldsearch.h"
#include "util/strbuf.h"

static void add_flag(lwg_strv *out, char *flag)
{
    if (!strv_contains(out, flag))
        strv_push(out, flag);
    free(flag);
}

static char *absolute(const char *dir, const char *path)
{
    if (path[0] == '/' || !dir || !dir[0])
        return xstrdup(path);
    char *joined = xstrdup_printf("%s/%s", dir, path);
    char *real = realpath(joined, NULL); /* dir/../include -> /include */
    if (!real)
        return joined;
    free(joined);
    return real;
}

/* The flags of one entry's words. */
static void entry_flags(const lwg_strv *args, const char *dir, lwg_strv *out)
{
    static const char *const with_path[] = {"-I", "-isystem", "-iquote", "-include"};
    for (size_t i = 0; i < args->n; i++) {
        const char *a = args->v[i];
        const char *next = i + 1 < args->n ? args->v[i + 1] : NULL;
        if (strncmp(a, "-std=", 5) == 0) {
            add_flag(out, xstrdup(a));
            continue;
        }
        bool done = false;
        for (size_t k = 0; k < sizeof with_path / sizeof *with_path && !done; k++) {
            const char *opt = with_path[k];
            size_t n = strlen(opt);
            const char *value = NULL;
            if (strcmp(a, opt) == 0 && next) {
                value = next;
                i++;
            } else if (k == 0 && strncmp(a, opt, n) == 0 && a[n]) {
                value = a + n; /* -IDIR */
            }
            if (!value)
                continue;
            char *path = absolute(dir, value);
            add_flag(out, k == 0 ? xstrdup_printf("-I%s", path) : xstrdup_printf("%s %s", opt, path));
            free(path);
            done = true;
        }
        if (done)
            continue;
        if ((strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0) && next) {
            add_flag(out, xstrdup_printf("%s%s", a, next));
            i++;
        } else if ((strncmp(a, "-D", 2) == 0 || strncmp(a, "-U", 2) == 0) && a[2]) {
            add_flag(out, xstrdup(a));
        }
    }
}

/* A word for a shell: quoted when it holds anything but safe characters;
 * "-include PATH" stays two words. */
static void put_word(strbuf *sb, const char *w)
{
    if (strncmp(w, "-include ", 9) == 0 || strncmp(w, "-isystem ", 9) == 0 ||
        strncmp(w, "-iquote ", 8) == 0) {
        const char *sp = strchr(w, ' ');
        sb_putn(sb, w, (size_t)(sp - w) + 1);
        w = sp + 1;
    }
    bool safe = *w != '\0';
    for (const char *p = w; *p && safe; p++)
        safe = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,%@", *p);
    if (safe) {
        sb_put(sb, w);
        return;
    }
    sb_put(sb, "'");
    for (const char *p = w; *p; p++) {
        if (*p == '\'')
            sb_put(sb, "'\\''");
        else
            sb_putn(sb, p, 1);
    }
    sb_put(sb, "'");
}

/* JSON's whitespace. */
static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Line and column (1-based; columns in characters, not bytes) of byte
 * `off` of `text`. */
static void position(const char *text, size_t off, size_t *line, size_t *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            ++*line;
            *col = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            ++*col;
        }
    }
}

static void json_error(const char *path, const char *text, size_t off, const char *what)
{
    size_t line, col;
    position(text, off, &line, &col);
    fprintf(stderr, "libwrap-gen: %s: not a compile_commands.json: %s:%zu:%zu: %s\n", path, path, line, col,
            what);
}

/* What was expected where the text ends too soon: the innermost string,
 * object or array still open (strings skipped), and where it began. */
static void cut_off(const char *path, const char *text, size_t len)
{
    size_t cap = 64, depth = 0, *open = xmalloc(cap * sizeof *open);
    size_t string_at = SIZE_MAX;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (string_at != SIZE_MAX) {
            if (c == '\\')
                i++;
            else if (c == '"')
                string_at = SIZE_MAX;
        } else if (c == '"') {
            string_at = i;
        } else if (c == '[' || c == '{') {
            if (depth == cap)
                open = xrealloc(open, (cap *= 2) * sizeof *open);
            open[depth++] = i;
        } else if ((c == ']' || c == '}') && depth) {
            depth--;
        }
    }
    size_t line, col;
    char what[160];
    if (string_at != SIZE_MAX) {
        position(text, string_at, &line, &col);
        snprintf(what, sizeof what, "the string begun at %zu:%zu is not closed: expected '\"'", line, col);
    } else if (depth) {
        position(text, open[depth - 1], &line, &col);
        int object = text[open[depth - 1]] == '{';
        snprintf(what, sizeof what, "the %s begun at %zu:%zu is not closed: expected %s", object ? "object" : "array",
                 line, col, object ? "'}'" : "']'");
    } else {
        snprintf(what, sizeof what, "expected the rest of a value");
    }
    char *msg = xstrdup_printf("the file ends too soon (cut off?): %s", what);
    json_error(path, text, len, msg);
    free(msg);
    free(open);
}

static const char *type_word(json_object *v)
{
    switch (json_object_get_type(v)) {
    case json_type_null: return "null";
    case json_type_boolean: return "true or false";
    case json_type_double:
    case json_type_int: return "a number";
    case json_type_object: return "an object";
    case json_type_array: return "an array";
    case json_type_string: return "a string";
    }
    return "something else";
}

/* The members of an entry that must be strings when present. */
static bool entry_strings_ok(const char *path, size_t n, json_object *e)
{
    static const char *const keys[] = {"directory", "file", "command", "output"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        json_object *v;
        if (json_object_object_get_ex(e, keys[k], &v) && !json_object_is_type(v, json_type_string)) {
            fprintf(stderr, "libwrap-gen: %s: entry %zu: \"%s\" must be a string, not %s\n", path, n, keys[k],
                    type_word(v));
            return false;
        }
    }
    return true;
}

int cmd_compile_commands(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: libwrap-gen compile-commands compile_commands.json\n");
        return 2;
    }
    const char *path = argv[1];
    size_t len = 0;
    char *file = read_whole_file(path, &len);
    if (!file) {
        fprintf(stderr, "libwrap-gen: %s: %s\n", path, strerror(errno));
        return 1;
    }
    /* A UTF-8 byte order mark (some Windows tools write one) is no JSON
     * but says nothing either: skipped, as RFC 8259 allows. */
    char *text = file;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    int rc = 1;
    json_object *root = NULL;
    size_t first = 0;
    while (first < len && is_blank(text[first]))
        first++;
    if (first == len) {
        json_error(path, text, len, "the file is empty: expected a JSON array of compile commands");
        goto out;
    }
    json_tokener *tok = json_tokener_new();
    root = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (jerr == json_tokener_continue || (!root && jerr == json_tokener_success)) {
        cut_off(path, text, len);
        goto out;
    }
    if (!root || jerr != json_tokener_success) {
        char *msg = xstrdup_printf("invalid JSON: %s", json_tokener_error_desc(jerr));
        json_error(path, text, end < len ? end : len, msg);
        free(msg);
        goto out;
    }
    while (end < len && is_blank(text[end]))
        end++;
    if (end < len) {
        json_error(path, text, end, "more text after the JSON array: expected the end of the file");
        goto out;
    }
    if (!json_object_is_type(root, json_type_array) || json_object_array_length(root) == 0) {
        fprintf(stderr, "libwrap-gen: %s: expected a non-empty JSON array of compile commands, not %s\n", path,
                json_object_is_type(root, json_type_array) ? "an empty one" : type_word(root));
        goto out;
    }
    lwg_strv flags = {0};
    for (size_t i = 0; i < json_object_array_length(root); i++) {
        json_object *e = json_object_array_get_idx(root, i), *v = NULL;
        if (!json_object_is_type(e, json_type_object)) {
            fprintf(stderr,
                    "libwrap-gen: %s: entry %zu: expected an object with \"directory\", \"file\" and "
                    "\"arguments\" or \"command\", not %s\n",
                    path, i + 1, type_word(e));
            strv_free(&flags);
            goto out;
        }
        if (!entry_strings_ok(path, i + 1, e)) {
            strv_free(&flags);
            goto out;
        }
        const char *dir = json_object_object_get_ex(e, "directory", &v) ? json_object_get_string(v)
                                                                           : NULL;
        lwg_strv args = {0};
        if (json_object_object_get_ex(e, "arguments", &v)) {
            /* An array of strings, one a word; the command line as one
             * string is "command". */
            size_t bad = SIZE_MAX;
            if (json_object_is_type(v, json_type_array))
                for (size_t k = 0; k < json_object_array_length(v) && bad == SIZE_MAX; k++)
                    if (!json_object_is_type(json_object_array_get_idx(v, k), json_type_string))
                        bad = k;
            if (!json_object_is_type(v, json_type_array))
                fprintf(stderr,
                        "libwrap-gen: %s: entry %zu: \"arguments\" must be an array of strings, not %s%s\n",
                        path, i + 1, type_word(v),
                        json_object_is_type(v, json_type_string) ? " (a command line in one string is \"command\")"
                                                                 : "");
            else if (bad != SIZE_MAX)
                fprintf(stderr,
                        "libwrap-gen: %s: entry %zu: \"arguments\" must be an array of strings: "
                        "element %zu is %s\n",
                        path, i + 1, bad + 1, type_word(json_object_array_get_idx(v, bad)));
            if (!json_object_is_type(v, json_type_array) || bad != SIZE_MAX) {
                strv_free(&flags);
                goto out;
            }
            for (size_t k = 0; k < json_object_array_length(v); k++)
                strv_push(&args, json_object_get_string(json_object_array_get_idx(v, k)));
        } else if (json_object_object_get_ex(e, "command", &v)) {
            char *what = xstrdup_printf("%s: entry %zu \"command\"", path, i + 1);
            int split = words_split(json_object_get_string(v), what, &args);
            free(what);
            if (split != 0) {
                strv_free(&args);
                strv_free(&flags);
                goto out;
            }
        } else {
            fprintf(stderr, "libwrap-gen: %s: entry %zu has neither \"arguments\" nor \"command\"\n",
                    path, i + 1);
            strv_free(&flags);
            goto out;
        }
        entry_flags(&args, dir, &flags);
        strv_free(&args);
    }
    strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < flags.n; i++) {
        if (i)
            sb_put(&sb, " ");
        put_word(&sb, flags.v[i]);
    }
    printf("%s\n", sb.s ? sb.s : "");
    sb_free(&sb);
    strv_free(&flags);
    rc = fflush(stdout) == 0 ? 0 : 1;
out:
    json_object_put(root);
    free(file);
    return rc;
}
