/*
 * json.c - the runtime's streaming JSON writer (json.h).
 */
#include "core/base/json.h"
#include "core/base/base.h"

#include "utf8.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LW_JSON_SOME 0x80 /* something written in the level */
/* Indentation stops growing there: a document of deep call paths stays
 * proportional to its size, not to its size times its depth. */
#define LW_JSON_INDENT_MAX 128

void lw_json_init(lw_json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->level = j->inline_levels;
    j->cap = LW_JSON_LEVELS;
    j->failed = 0;
    j->level[0] = 0;
    j->n = 0;
}

static void lw_json_flush(lw_json *j)
{
    if (j->n)
        fwrite(j->buf, 1, j->n, j->f);
    j->n = 0;
}

static void lw_json_put(lw_json *j, const void *s, size_t len)
{
    if (len > sizeof j->buf - j->n) {
        lw_json_flush(j);
        if (len > sizeof j->buf) {
            fwrite(s, 1, len, j->f);
            return;
        }
    }
    memcpy(j->buf + j->n, s, len);
    j->n += len;
}

static void lw_json_putc(lw_json *j, char c)
{
    if (j->n == sizeof j->buf)
        lw_json_flush(j);
    j->buf[j->n++] = c;
}

static void lw_json_puts(lw_json *j, const char *s)
{
    lw_json_put(j, s, strlen(s));
}

static void lw_json_indent(lw_json *j)
{
    static const char spaces[] = "                                                                ";
    lw_json_putc(j, '\n');
    for (size_t n = 2 * (size_t)(j->depth < LW_JSON_INDENT_MAX ? j->depth : LW_JSON_INDENT_MAX); n;) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        lw_json_put(j, spaces, k);
        n -= k;
    }
}

/* Printable ASCII but '"' and '\\': written as it is. */
static int lw_json_plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

static void lw_json_quoted(lw_json *j, const char *s)
{
    lw_json_putc(j, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (lw_json_plain(*p)) {
            const unsigned char *q = p + 1;
            while (lw_json_plain(*q))
                q++;
            lw_json_put(j, p, (size_t)(q - p));
            p = q - 1;
            continue;
        }
        switch (*p) {
        case '"': lw_json_puts(j, "\\\""); break;
        case '\\': lw_json_puts(j, "\\\\"); break;
        case '\n': lw_json_puts(j, "\\n"); break;
        case '\r': lw_json_puts(j, "\\r"); break;
        case '\t': lw_json_puts(j, "\\t"); break;
        case '\b': lw_json_puts(j, "\\b"); break;
        case '\f': lw_json_puts(j, "\\f"); break;
        default:
            if (*p < 0x20 || *p == 0x7f) {
                char u[8];
                snprintf(u, sizeof u, "\\u%04x", *p);
                lw_json_puts(j, u);
            } else if (*p < 0x80)
                lw_json_putc(j, (char)*p);
            else {
                /* A byte outside a valid UTF-8 sequence: U+FFFD, and the
                 * member KEY_bytes keeps the original (utf8.h). */
                size_t n = lw_utf8_seq(p);
                if (!n)
                    lw_json_puts(j, "\\ufffd");
                else {
                    lw_json_put(j, p, n);
                    p += n - 1;
                }
            }
        }
    }
    lw_json_putc(j, '"');
}

/* The separator, indentation and key before a value. */
static void lw_json_key(lw_json *j, const char *key)
{
    if (j->depth > 0) {
        if (j->level[j->depth] & LW_JSON_SOME)
            lw_json_putc(j, ',');
        j->level[j->depth] |= LW_JSON_SOME;
        lw_json_indent(j);
    }
    if (key) {
        lw_json_quoted(j, key);
        lw_json_put(j, ": ", 2);
    }
}

/* Room for level `d`: the levels move to the heap past LW_JSON_LEVELS. */
static int lw_json_room(lw_json *j, size_t d)
{
    if (d < j->cap)
        return 1;
    size_t cap = 2 * j->cap;
    unsigned char *v = j->level == j->inline_levels ? malloc(cap) : realloc(j->level, cap);
    if (!v)
        return 0;
    if (j->level == j->inline_levels)
        memcpy(v, j->inline_levels, j->cap);
    j->level = v;
    j->cap = cap;
    return 1;
}

static void lw_json_open(lw_json *j, const char *key, char open, char close)
{
    lw_json_key(j, key);
    lw_json_putc(j, open);
    if (!lw_json_room(j, (size_t)j->depth + 1)) {
        /* Closed at once, and the document marked failed. */
        j->failed = 1;
        lw_json_putc(j, close);
        j->level[j->depth] |= LW_JSON_SOME;
        return;
    }
    j->depth++;
    j->level[j->depth] = (unsigned char)close;
}

void lw_json_object(lw_json *j, const char *key)
{
    lw_json_open(j, key, '{', '}');
}

void lw_json_array(lw_json *j, const char *key)
{
    lw_json_open(j, key, '[', ']');
}

void lw_json_end(lw_json *j)
{
    if (j->depth == 0)
        return;
    int had = j->level[j->depth] & LW_JSON_SOME;
    char close = (char)(j->level[j->depth] & ~LW_JSON_SOME);
    j->depth--;
    if (had)
        lw_json_indent(j);
    lw_json_putc(j, close);
}

void lw_json_string(lw_json *j, const char *key, const char *s)
{
    lw_json_key(j, key);
    if (!s) {
        lw_json_puts(j, "null");
        return;
    }
    lw_json_quoted(j, s);
    if (!key || lw_utf8_valid(s))
        return;
    char bytes_key[128];
    if (snprintf(bytes_key, sizeof bytes_key, "%s_bytes", key) >= (int)sizeof bytes_key)
        return;
    lw_json_key(j, bytes_key);
    lw_json_putc(j, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        lw_json_putc(j, "0123456789abcdef"[*p >> 4]);
        lw_json_putc(j, "0123456789abcdef"[*p & 15]);
    }
    lw_json_putc(j, '"');
}

/* v in decimal, a '-' before it when `minus`. */
static void lw_json_digits(lw_json *j, uint64_t v, int minus)
{
    char b[21];
    char *p = lw_decimal(b + sizeof b, v);
    if (minus)
        *--p = '-';
    lw_json_put(j, p, (size_t)(b + sizeof b - p));
}

void lw_json_uint(lw_json *j, const char *key, uint64_t v)
{
    lw_json_key(j, key);
    lw_json_digits(j, v, 0);
}

void lw_json_int(lw_json *j, const char *key, int64_t v)
{
    lw_json_key(j, key);
    lw_json_digits(j, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
}

void lw_json_double(lw_json *j, const char *key, double v)
{
    lw_json_key(j, key);
    char d[32];
    if (isfinite(v) && snprintf(d, sizeof d, "%.17g", v) < (int)sizeof d)
        lw_json_puts(j, d);
    else
        lw_json_puts(j, "null");
}

void lw_json_bool(lw_json *j, const char *key, int v)
{
    lw_json_key(j, key);
    lw_json_puts(j, v ? "true" : "false");
}

int lw_json_finish(lw_json *j)
{
    while (j->depth > 0)
        lw_json_end(j);
    lw_json_putc(j, '\n');
    lw_json_flush(j);
    if (j->level != j->inline_levels)
        free(j->level);
    j->level = j->inline_levels;
    j->cap = LW_JSON_LEVELS;
    return ferror(j->f) || j->failed ? -1 : 0;
}
