/*
 * format.c - units and escaping shared by every writer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report.h"
#include "utf8.h"

const char *lwr_fmt_time(char buf[32], double ns)
{
    if (ns < 1e3)
        snprintf(buf, 32, "%.0f ns", ns);
    else if (ns < 1e6)
        snprintf(buf, 32, "%.2f us", ns / 1e3);
    else if (ns < 1e9)
        snprintf(buf, 32, "%.2f ms", ns / 1e6);
    else
        snprintf(buf, 32, "%.3f s", ns / 1e9);
    return buf;
}

void lwr_fmt_metric(char buf[40], double v)
{
    if (v == floor(v) && fabs(v) < 1e18)
        snprintf(buf, 40, "%.0f", v);
    else
        snprintf(buf, 40, "%.6g", v);
}

void lwr_xml_escape(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            /* Control characters are not allowed in XML 1.0 at all. */
            if (c < 0x20 && c != '\t' && c != '\n')
                fputc('?', out);
            else
                fputc(c, out);
        }
    }
}

void lwr_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        /* "</script>" inside an inline <script> would end it early. */
        else if (c == '<')
            fputs("\\u003c", out);
        else if (c < 0x80)
            fputc(c, out);
        else {
            /* Not UTF-8: U+FFFD, the bytes in KEY_bytes (lwr_json_bytes). */
            size_t n = lw_utf8_seq((const unsigned char *)s);
            if (!n)
                fputs("\\ufffd", out);
            else {
                fwrite(s, 1, n, out);
                s += n - 1;
            }
        }
    }
    fputc('"', out);
}

void lwr_text_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c == '\r')
            fputs("\\r", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\x%02x", c);
        else if (c < 0x80)
            fputc(c, out);
        else {
            size_t n = lw_utf8_seq((const unsigned char *)s);
            if (!n)
                fprintf(out, "\\x%02x", c); /* not UTF-8: the byte */
            else {
                fwrite(s, 1, n, out);
                s += n - 1;
            }
        }
    }
    fputc('"', out);
}

void lwr_json_bytes(FILE *out, const char *key, const char *s)
{
    if (!s || lw_utf8_valid(s))
        return;
    fprintf(out, ", \"%s_bytes\": \"", key);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fprintf(out, "%02x", *p);
    fputc('"', out);
}

const void **lwr_sorted_view(const void *base, size_t n, size_t size,
                             int (*cmp)(const void *, const void *))
{
    const void **view = malloc((n ? n : 1) * sizeof *view);
    if (!view) {
        perror(LWR_PROG);
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        view[i] = (const char *)base + i * size;
    qsort(view, n, sizeof *view, cmp);
    return view;
}

void lwr_walk_sorted(const lwr_node *root, int (*cmp)(const void *, const void *), double x0,
                     int (*visit)(const lwr_node *k, size_t depth, double *x, double *child_x, void *ud),
                     void *ud)
{
    struct level {
        const lwr_node **order;
        size_t n, next;
        double x;
    } *st = NULL;
    size_t d = 0, cap = 0;
    const lwr_node *n = root;
    double child_x = x0;
    for (;;) {
        if (n) {
            if (d == cap) {
                cap = cap ? 2 * cap : 64;
                st = lwr_xrealloc(st, cap * sizeof *st);
            }
            st[d++] = (struct level){
                (const lwr_node **)lwr_sorted_view(n->children, n->nchildren, sizeof *n->children, cmp),
                n->nchildren, 0, child_x};
        }
        n = NULL;
        if (!d)
            break;
        struct level *l = &st[d - 1];
        if (l->next == l->n) {
            free(l->order);
            d--;
            continue;
        }
        const lwr_node *k = l->order[l->next++];
        child_x = l->x;
        if (visit(k, d, &l->x, &child_x, ud))
            n = k;
    }
    free(st);
}
