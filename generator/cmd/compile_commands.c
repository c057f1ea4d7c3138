/*
 * compile_commands.c - `libwrap-gen compile-commands FILE`: the
 * preprocessor flags of a compile_commands.json, for libwrap-init
 * --from-compile-commands.
 *
 * Every entry's -I, -isystem, -iquote, -include, -D, -U and -std= flags, in
 * first-seen order without repeats, are printed on one line, each word
 * shell-quoted when it needs it. Relative paths are made absolute against
 * the entry's "directory": make runs elsewhere. An entry gives its command
 * as "arguments" (an array) or "command" (one string, split as a shell
 * would, without expansion).
 */
#define _GNU_SOURCE /* realpath */
#include <errno.h>
#include <json-c/json.h>
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

int cmd_compile_commands(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: libwrap-gen compile-commands compile_commands.json\n");
        return 2;
    }
    const char *path = argv[1];
    size_t len = 0;
    char *text = read_whole_file(path, &len);
    if (!text) {
        fprintf(stderr, "libwrap-gen: %s: %s\n", path, strerror(errno));
        return 1;
    }
    json_tokener *tok = json_tokener_new();
    json_object *root = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    json_tokener_free(tok);
    free(text);
    int rc = 1;
    if (!root || jerr != json_tokener_success) {
        fprintf(stderr, "libwrap-gen: %s: not a compile_commands.json: %s\n", path,
                json_tokener_error_desc(jerr));
        goto out;
    }
    if (!json_object_is_type(root, json_type_array) || json_object_array_length(root) == 0) {
        fprintf(stderr, "libwrap-gen: %s: expected a non-empty JSON array of compile commands\n",
                path);
        goto out;
    }
    lwg_strv flags = {0};
    for (size_t i = 0; i < json_object_array_length(root); i++) {
        json_object *e = json_object_array_get_idx(root, i), *v = NULL;
        const char *dir = json_object_object_get_ex(e, "directory", &v) ? json_object_get_string(v)
                                                                           : NULL;
        lwg_strv args = {0};
        if (json_object_object_get_ex(e, "arguments", &v) && json_object_is_type(v, json_type_array)) {
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
    return rc;
}
