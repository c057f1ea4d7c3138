/*
 * json.c - the runtime's streaming JSON writer (json.h).
 */
#include "core/base/json.h"

#include "utf8.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void lw_json_init(lw_json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->count[0] = 0;
}

static void lw_json_indent(lw_json *j)
{
    static const char spaces[] = "                                                                ";
    fputc('\n', j->f);
    for (size_t n = 2 * (size_t)j->depth; n;) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        fwrite(spaces, 1, k, j->f);
        n -= k;
    }
}

/* Printable ASCII but '"' and '\\': written as it is. */
static int lw_json_plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

static void lw_json_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (lw_json_plain(*p)) {
            const unsigned char *q = p + 1;
            while (lw_json_plain(*q))
                q++;
            fwrite(p, 1, (size_t)(q - p), f);
            p = q - 1;
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(f, "\\u%04x", *p);
            else if (*p < 0x80)
                fputc(*p, f);
            else {
                /* A byte outside a valid UTF-8 sequence: U+FFFD, and the
                 * member KEY_bytes keeps the original (utf8.h). */
                size_t n = lw_utf8_seq(p);
                if (!n)
                    fputs("\\ufffd", f);
                else {
                    fwrite(p, 1, n, f);
                    p += n - 1;
                }
            }
        }
    }
    fputc('"', f);
}

/* The separator, indentation and key before a value. */
static void lw_json_key(lw_json *j, const char *key)
{
    if (j->depth > 0) {
        if (j->count[j->depth])
            fputc(',', j->f);
        j->count[j->depth] = 1;
        lw_json_indent(j);
    }
    if (key) {
        lw_json_quoted(j->f, key);
        fputs(": ", j->f);
    }
}

static void lw_json_open(lw_json *j, const char *key, char open, char close)
{
    lw_json_key(j, key);
    fputc(open, j->f);
    if (j->depth + 1 < LW_JSON_MAX_DEPTH)
        j->depth++;
    j->count[j->depth] = 0;
    j->close[j->depth] = close;
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
    int had = j->count[j->depth];
    char close = j->close[j->depth];
    j->depth--;
    if (had)
        lw_json_indent(j);
    fputc(close, j->f);
}

void lw_json_string(lw_json *j, const char *key, const char *s)
{
    lw_json_key(j, key);
    if (!s) {
        fputs("null", j->f);
        return;
    }
    lw_json_quoted(j->f, s);
    if (!key || lw_utf8_valid(s))
        return;
    char bytes_key[128];
    if (snprintf(bytes_key, sizeof bytes_key, "%s_bytes", key) >= (int)sizeof bytes_key)
        return;
    lw_json_key(j, bytes_key);
    fputc('"', j->f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fprintf(j->f, "%02x", *p);
    fputc('"', j->f);
}

/* v in decimal, a '-' before it when `minus`. */
static void lw_json_digits(FILE *f, uint64_t v, int minus)
{
    char b[21];
    size_t i = sizeof b;
    do {
        b[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (minus)
        b[--i] = '-';
    fwrite(b + i, 1, sizeof b - i, f);
}

void lw_json_uint(lw_json *j, const char *key, uint64_t v)
{
    lw_json_key(j, key);
    lw_json_digits(j->f, v, 0);
}

void lw_json_int(lw_json *j, const char *key, int64_t v)
{
    lw_json_key(j, key);
    lw_json_digits(j->f, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
}

void lw_json_double(lw_json *j, const char *key, double v)
{
    lw_json_key(j, key);
    if (isfinite(v))
        fprintf(j->f, "%.17g", v);
    else
        fputs("null", j->f);
}

void lw_json_bool(lw_json *j, const char *key, int v)
{
    lw_json_key(j, key);
    fputs(v ? "true" : "false", j->f);
}

int lw_json_finish(lw_json *j)
{
    while (j->depth > 0)
        lw_json_end(j);
    fputc('\n', j->f);
    return ferror(j->f) ? -1 : 0;
}
