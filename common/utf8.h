/*
 * utf8.h - how every JSON writer of libwrap keeps its output valid UTF-8
 * (profile.json, libwrap-report --format=json, the timeline).
 *
 * Strings the runtime records come from the system and the program: a
 * program path, a header path, a string argument. They are bytes, and may
 * not be UTF-8. A writer copies the valid UTF-8 sequences of a string and
 * writes U+FFFD for each byte that is not part of one. When that happened,
 * and the string is the value of an object member "KEY", the member
 * "KEY_bytes" follows it with the original bytes in lowercase hex, so a
 * reader restores them exactly (Python: bytes.fromhex(o["KEY_bytes"])).
 * docs/python.md and docs/runtime.md describe it for users.
 *
 * Header only: the runtime, its plugins and the report use it without
 * linking anything.
 */
#ifndef LIBWRAP_COMMON_UTF8_H
#define LIBWRAP_COMMON_UTF8_H

#include <stddef.h>

/* The length of the valid UTF-8 sequence at p (1 to 4; 1 for ASCII), or 0
 * when the byte at p does not start one (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF). p points into a NUL-terminated
 * string, so a truncated sequence meets the NUL and is invalid. */
static inline size_t lw_utf8_seq(const unsigned char *p)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return n;
}

/* 1 when the NUL-terminated string s is valid UTF-8. */
static inline int lw_utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = lw_utf8_seq(p);
        if (!n)
            return 0;
        p += n;
    }
    return 1;
}

/* s as valid UTF-8 into out (room for 3 * strlen(s) + 1 bytes): each byte
 * outside a valid sequence becomes U+FFFD, as the JSON writers write it
 * (the OTF2 archive's strings, which its readers take as UTF-8). */
static inline void lw_utf8_fix(const char *s, char *out)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = lw_utf8_seq(p);
        if (n) {
            for (size_t i = 0; i < n; i++)
                *out++ = (char)*p++;
        } else {
            *out++ = (char)0xef;
            *out++ = (char)0xbf;
            *out++ = (char)0xbd;
            p++;
        }
    }
    *out = 0;
}

#endif /* LIBWRAP_COMMON_UTF8_H */
