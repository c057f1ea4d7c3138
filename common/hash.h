/*
 * hash.h - FNV-1a, the one string hash of libwrap's tools and runtime
 * (definition tables, the trace merge's digest, the probe cache key).
 * Header only: the runtime's plugins use it without linking anything.
 */
#ifndef LIBWRAP_COMMON_HASH_H
#define LIBWRAP_COMMON_HASH_H

#include <stdint.h>

#define LW_FNV_OFFSET 14695981039346656037u

/* h extended by one byte, and by the bytes of the string s. */
static inline uint64_t lw_fnv1a_byte(uint64_t h, unsigned char c)
{
    return (h ^ c) * 1099511628211u;
}

static inline uint64_t lw_fnv1a_add(uint64_t h, const char *s)
{
    while (*s)
        h = lw_fnv1a_byte(h, (unsigned char)*s++);
    return h;
}

static inline uint64_t lw_fnv1a(const char *s)
{
    return lw_fnv1a_add(LW_FNV_OFFSET, s);
}

#endif /* LIBWRAP_COMMON_HASH_H */
