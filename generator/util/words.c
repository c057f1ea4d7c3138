/*
 * words.c - string lists and shell-like word splitting (words.h).
 */
#include "util/words.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

void strv_push(lwg_strv *sv, const char *s)
{
    if (sv->n == sv->cap) {
        sv->cap = sv->cap ? 2 * sv->cap : 8;
        sv->v = xrealloc(sv->v, sv->cap * sizeof *sv->v);
    }
    sv->v[sv->n++] = xstrdup(s);
}

bool strv_contains(const lwg_strv *sv, const char *s)
{
    for (size_t i = 0; i < sv->n; i++)
        if (strcmp(sv->v[i], s) == 0)
            return true;
    return false;
}

void strv_free(lwg_strv *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    memset(sv, 0, sizeof *sv);
}

int words_split(const char *text, const char *what, lwg_strv *words)
{
    strbuf b = STRBUF_INIT;
    const char *p = text ? text : "";

    for (;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        while (*p && !isspace((unsigned char)*p)) {
            if (*p == '\'') {
                const char *end = strchr(p + 1, '\'');
                if (!end)
                    goto unterminated;
                sb_putn(&b, p + 1, (size_t)(end - p - 1));
                p = end + 1;
            } else if (*p == '"') {
                for (p++; *p && *p != '"'; p++) {
                    /* Inside double quotes a backslash only escapes these. */
                    if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
                        p++;
                    sb_putn(&b, p, 1);
                }
                if (!*p)
                    goto unterminated;
                p++;
            } else if (*p == '\\' && p[1]) {
                sb_putn(&b, p + 1, 1);
                p += 2;
            } else {
                sb_putn(&b, p++, 1);
            }
        }
        /* sb_steal gives "" for an empty quoted word (''): still a word */
        char *word = sb_steal(&b);
        strv_push(words, word);
        free(word);
    }
    return 0;

unterminated:
    fprintf(stderr, "libwrap-gen: %s: unterminated quote in \"%s\": close it or remove it\n",
            what, text);
    sb_free(&b);
    return -1;
}
