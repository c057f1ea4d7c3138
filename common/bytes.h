/*
 * bytes.h - values into a growing buffer and back, in the machine's own
 * byte order: the records a job's processes leave each other (the
 * profile records of runtime/jobs, the trace merge's union file). A
 * failed allocation or a read past the end is remembered, not fatal: the
 * caller checks `failed` or `bad` once at the end.
 */
#ifndef LIBWRAP_BYTES_H
#define LIBWRAP_BYTES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *p;
    size_t len, cap;
    int failed;
} lw_buf;

static inline void lw_put(lw_buf *b, const void *v, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, v, n);
    b->len += n;
}

static inline void lw_put_u32(lw_buf *b, uint32_t v)
{
    lw_put(b, &v, sizeof v);
}

static inline void lw_put_u64(lw_buf *b, uint64_t v)
{
    lw_put(b, &v, sizeof v);
}

/* Its length (32 bits), then its bytes. */
static inline void lw_put_str(lw_buf *b, const char *s)
{
    uint32_t n = (uint32_t)strlen(s);
    lw_put(b, &n, sizeof n);
    lw_put(b, s, n);
}

typedef struct {
    const char *p, *end;
    int bad;
} lw_rd;

static inline void lw_get(lw_rd *r, void *v, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        memset(v, 0, n);
        return;
    }
    memcpy(v, r->p, n);
    r->p += n;
}

static inline uint32_t lw_get_u32(lw_rd *r)
{
    uint32_t v;
    lw_get(r, &v, sizeof v);
    return v;
}

static inline uint64_t lw_get_u64(lw_rd *r)
{
    uint64_t v;
    lw_get(r, &v, sizeof v);
    return v;
}

/* A string of lw_put_str, copied into *s (grown as needed, *cap its size;
 * NUL-terminated); NULL when the buffer holds none. */
static inline char *lw_get_str(lw_rd *r, char **s, size_t *cap)
{
    uint32_t n;
    lw_get(r, &n, sizeof n);
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        return NULL;
    }
    if (n + 1 > *cap) {
        char *p = realloc(*s, n + 1);
        if (!p) {
            r->bad = 1;
            return NULL;
        }
        *s = p;
        *cap = n + 1;
    }
    memcpy(*s, r->p, n);
    (*s)[n] = 0;
    r->p += n;
    return *s;
}

#endif /* LIBWRAP_BYTES_H */
