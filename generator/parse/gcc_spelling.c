/*
 * gcc_spelling.c - what gcc's preprocessed output spells in a way only gcc
 * accepts, made readable to libclang: the prelude and the rewrites of the
 * source text (internal.h).
 */
#define _GNU_SOURCE /* memmem */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "parse/internal.h"
#include "util/strbuf.h"

/*
 * libwrap.i is usually preprocessed by gcc, and glibc's headers then use
 * spellings that only gcc accepts: the _FloatN keywords (clang has only
 * typedefs for them, from glibc, when glibc sees clang) and
 * __attribute__((__malloc__(deallocator, index))). The prelude, included
 * before the source, gives clang the same meaning. Redefining a typedef to
 * the same type is valid C11 and C++, so a clang-preprocessed file that
 * already has these typedefs parses too.
 *
 * `_Complex _Float32` cannot be made valid by a typedef (C allows _Complex
 * only with the floating keywords), so the source text is rewritten to an
 * alias (see rewrite_complex_floatn); declarator.c maps the alias back to
 * the header's spelling.
 */
#define LW_SVE_T(t, b) "typedef __SV" b "_t sv" t "_t;\n"
#define LW_SVE_TUPLES(t) "typedef __clang_sv" t "x2_t sv" t "x2_t;\ntypedef __clang_sv" t "x3_t sv" t \
                         "x3_t;\ntypedef __clang_sv" t "x4_t sv" t "x4_t;\n"
#define LW_SVE_TYPEDEFS                                                                               \
    LW_SVE_T("int8", "Int8") LW_SVE_T("int16", "Int16") LW_SVE_T("int32", "Int32")                \
    LW_SVE_T("int64", "Int64") LW_SVE_T("uint8", "Uint8") LW_SVE_T("uint16", "Uint16")            \
    LW_SVE_T("uint32", "Uint32") LW_SVE_T("uint64", "Uint64") LW_SVE_T("float16", "Float16")      \
    LW_SVE_T("float32", "Float32") LW_SVE_T("float64", "Float64") LW_SVE_T("bfloat16", "BFloat16") \
    LW_SVE_T("bool", "Bool") LW_SVE_TUPLES("int8") LW_SVE_TUPLES("int16") LW_SVE_TUPLES("int32")  \
    LW_SVE_TUPLES("int64") LW_SVE_TUPLES("uint8") LW_SVE_TUPLES("uint16") LW_SVE_TUPLES("uint32") \
    LW_SVE_TUPLES("uint64") LW_SVE_TUPLES("float16") LW_SVE_TUPLES("float32")                     \
    LW_SVE_TUPLES("float64")
/*
 * gcc's AdvSIMD (NEON) types: builtin types of gcc (__Int8x8_t ...
 * __Float32x4_t, __Poly8_t) that arm_neon.h only names. Clang's own NEON
 * vector types stand in: the same size, alignment, element and kind (a
 * short vector that AAPCS64 passes in one v register, as gcc's), and, in
 * C++, the same mangled names (10__Int8x8_t; not gcc 15's __Mfloat8x8_t,
 * bytes here). gcc 15's scalar __mfp8 has no counterpart in libclang 14:
 * a declaration with it is left out with its error. The tuples
 * (int8x8x2_t) gcc 12 and later make at `#pragma GCC aarch64
 * "arm_neon.h"` (rewrite_neon_pragma; earlier arm_neon.h defines them as
 * structs).
 */
#define LW_NEON_V(name, n, elt) \
    "typedef __attribute__((neon_vector_type(" #n "))) " elt " __" name "_t;\n"
#define LW_NEON_P(name, n, elt) \
    "typedef __attribute__((neon_polyvector_type(" #n "))) " elt " __" name "_t;\n"
#define LW_NEON_TYPEDEFS                                                                                  \
    LW_NEON_V("Int8x8", 8, "signed char") LW_NEON_V("Int8x16", 16, "signed char")                       \
    LW_NEON_V("Int16x4", 4, "short") LW_NEON_V("Int16x8", 8, "short") LW_NEON_V("Int32x2", 2, "int")   \
    LW_NEON_V("Int32x4", 4, "int") LW_NEON_V("Int64x1", 1, "long") LW_NEON_V("Int64x2", 2, "long")    \
    LW_NEON_V("Uint8x8", 8, "unsigned char") LW_NEON_V("Uint8x16", 16, "unsigned char")                 \
    LW_NEON_V("Uint16x4", 4, "unsigned short") LW_NEON_V("Uint16x8", 8, "unsigned short")               \
    LW_NEON_V("Uint32x2", 2, "unsigned int") LW_NEON_V("Uint32x4", 4, "unsigned int")                   \
    LW_NEON_V("Uint64x1", 1, "unsigned long") LW_NEON_V("Uint64x2", 2, "unsigned long")                 \
    LW_NEON_V("Float16x4", 4, "__fp16") LW_NEON_V("Float16x8", 8, "__fp16")                             \
    LW_NEON_V("Float32x2", 2, "float") LW_NEON_V("Float32x4", 4, "float")                               \
    LW_NEON_V("Float64x1", 1, "double") LW_NEON_V("Float64x2", 2, "double")                             \
    LW_NEON_V("Bfloat16x4", 4, "__bf16") LW_NEON_V("Bfloat16x8", 8, "__bf16")                           \
    LW_NEON_V("Mfloat8x8", 8, "unsigned char") LW_NEON_V("Mfloat8x16", 16, "unsigned char")             \
    LW_NEON_P("Poly8x8", 8, "unsigned char") LW_NEON_P("Poly8x16", 16, "unsigned char")                 \
    LW_NEON_P("Poly16x4", 4, "unsigned short") LW_NEON_P("Poly16x8", 8, "unsigned short")               \
    LW_NEON_P("Poly64x1", 1, "unsigned long") LW_NEON_P("Poly64x2", 2, "unsigned long")                 \
    "typedef unsigned char __Poly8_t;\ntypedef unsigned short __Poly16_t;\n"                             \
    "typedef unsigned long __Poly64_t;\ntypedef unsigned __int128 __Poly128_t;\n"
const char parse_prelude_name[] = "/libwrap-gen/prelude.h";
const char parse_prelude_c[] =
    "typedef float _Float32;\n"
    "typedef double _Float64;\n"
    "typedef double _Float32x;\n"
    "typedef long double _Float64x;\n"
    "typedef _Complex float __libwrap_cFloat32;\n"
    "typedef _Complex double __libwrap_cFloat64;\n"
    "typedef _Complex double __libwrap_cFloat32x;\n"
    "typedef _Complex long double __libwrap_cFloat64x;\n"
    /* AArch64 (--target): long double is binary128 there, and clang has
     * no __float128. */
    "#if defined(__aarch64__)\n"
    "typedef long double _Float128;\n"
    "typedef _Complex long double __libwrap_cFloat128;\n"
    /* gcc's arm_sve.h makes the SVE types with a pragma that leaves no
     * trace in the preprocessed file: clang's builtin types stand in, so
     * that model/target.c can see them (an SVE function is not forwarded
     * at the ABI level). */
    LW_SVE_TYPEDEFS
    LW_NEON_TYPEDEFS
    "#else\n"
    "typedef __float128 _Float128;\n"
    "typedef _Complex __float128 __libwrap_cFloat128;\n"
    "#endif\n"
    "#define __malloc__(...) __malloc__\n";


bool parse_is_ident_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The end of a rewrite that copied text[0, copied) into sb with its
 * changes: the rest appended, the new text returned (its length in
 * *outlen); NULL, sb freed, where nothing was changed (copied 0). */
static char *rewrite_end(strbuf *sb, const char *text, size_t len, size_t copied, size_t *outlen)
{
    if (copied == 0) {
        sb_free(sb);
        return NULL;
    }
    sb_putn(sb, text + copied, len - copied);
    *outlen = sb->len;
    return sb_steal(sb);
}

/* Replaces the token pair `_Complex _FloatN[x]` by `__libwrap_cFloatN[x]`.
 * This is a token substitution in preprocessed text (identifiers only), not
 * parsing; the pair does not occur in valid code outside declarations. */
static char *rewrite_complex_floatn(const char *text, size_t len, size_t *outlen)
{
    static const char kw[] = "_Complex";
    strbuf sb = STRBUF_INIT;
    size_t i = 0, copied = 0;
    while (i < len) {
        const char *hit = memmem(text + i, len - i, kw, sizeof kw - 1);
        if (!hit)
            break;
        size_t at = (size_t)(hit - text);
        size_t j = at + sizeof kw - 1;
        i = j;
        if (at > 0 && parse_is_ident_char(text[at - 1]))
            continue;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (j + 6 > len || memcmp(text + j, "_Float", 6) != 0)
            continue;
        size_t k = j + 6;
        while (k < len && parse_is_ident_char(text[k]))
            k++;
        const char *suffix = text + j + 6;
        size_t slen = k - (j + 6);
        bool known = (slen == 2 && (!memcmp(suffix, "32", 2) || !memcmp(suffix, "64", 2))) ||
                     (slen == 3 && (!memcmp(suffix, "32x", 3) || !memcmp(suffix, "64x", 3) ||
                                    !memcmp(suffix, "128", 3)));
        if (!known)
            continue;
        sb_putn(&sb, text + copied, at - copied);
        sb_put(&sb, "__libwrap_cFloat");
        sb_putn(&sb, suffix, slen);
        copied = i = k;
    }
    return rewrite_end(&sb, text, len, copied, outlen);
}

/* The vector types of the NEON tuples: the tuple's name without "xN_t",
 * and gcc's builtin type of its members. */
static const char *const neon_tuple_types[][2] = {
    {"int8x8", "__Int8x8_t"},         {"int8x16", "__Int8x16_t"},       {"int16x4", "__Int16x4_t"},
    {"int16x8", "__Int16x8_t"},       {"int32x2", "__Int32x2_t"},       {"int32x4", "__Int32x4_t"},
    {"int64x1", "__Int64x1_t"},       {"int64x2", "__Int64x2_t"},       {"uint8x8", "__Uint8x8_t"},
    {"uint8x16", "__Uint8x16_t"},     {"uint16x4", "__Uint16x4_t"},     {"uint16x8", "__Uint16x8_t"},
    {"uint32x2", "__Uint32x2_t"},     {"uint32x4", "__Uint32x4_t"},     {"uint64x1", "__Uint64x1_t"},
    {"uint64x2", "__Uint64x2_t"},     {"float16x4", "__Float16x4_t"},   {"float16x8", "__Float16x8_t"},
    {"float32x2", "__Float32x2_t"},   {"float32x4", "__Float32x4_t"},   {"float64x1", "__Float64x1_t"},
    {"float64x2", "__Float64x2_t"},   {"poly8x8", "__Poly8x8_t"},       {"poly8x16", "__Poly8x16_t"},
    {"poly16x4", "__Poly16x4_t"},     {"poly16x8", "__Poly16x8_t"},     {"poly64x1", "__Poly64x1_t"},
    {"poly64x2", "__Poly64x2_t"},     {"bfloat16x4", "__Bfloat16x4_t"}, {"bfloat16x8", "__Bfloat16x8_t"},
    {"mfloat8x8", "__Mfloat8x8_t"},   {"mfloat8x16", "__Mfloat8x16_t"},
};

/* Whether text[i..len) has the words of `words` (one blank or more
 * between them, and none after the last but before the end of the line);
 * the index of the line's end, or 0. */
static size_t has_words(const char *text, size_t len, size_t i, const char *const *words, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        size_t wl = strlen(words[k]), j;
        if (i + wl > len || memcmp(text + i, words[k], wl) != 0)
            return 0;
        for (j = i + wl; j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r'); j++)
            ;
        if (j == i + wl && k + 1 < n)
            return 0;
        i = j;
    }
    return i == len || text[i] == '\n' ? i : 0;
}

/* gcc 12 and later make the NEON tuple types (int8x8x2_t ... x4_t, each
 * `struct NAME { VECTOR val[N]; }`) at the line `#pragma GCC aarch64
 * "arm_neon.h"`, which libclang ignores: the line is replaced by their
 * typedefs, on the same line, so that every line keeps its number. */
static char *rewrite_neon_pragma(const char *text, size_t len, size_t *outlen)
{
    static const char kw[] = "#pragma";
    strbuf sb = STRBUF_INIT;
    size_t i = 0, copied = 0;
    while (i < len) {
        const char *hit = memmem(text + i, len - i, kw, sizeof kw - 1);
        if (!hit)
            break;
        static const char *const words[] = {"#pragma", "GCC", "aarch64", "\"arm_neon.h\""};
        size_t at = (size_t)(hit - text), bol = at;
        i = at + sizeof kw - 1;
        while (bol > 0 && (text[bol - 1] == ' ' || text[bol - 1] == '\t'))
            bol--;
        size_t eol = has_words(text, len, at, words, sizeof words / sizeof *words);
        if ((bol > 0 && text[bol - 1] != '\n') || !eol)
            continue;
        if (copied) { /* once, as gcc makes them */
            i = eol;
            continue;
        }
        sb_putn(&sb, text + copied, at - copied);
        for (size_t t = 0; t < sizeof neon_tuple_types / sizeof *neon_tuple_types; t++)
            for (int n = 2; n <= 4; n++)
                sb_printf(&sb, "typedef struct %sx%d_t { %s val[%d]; } %sx%d_t; ", neon_tuple_types[t][0], n,
                          neon_tuple_types[t][1], n, neon_tuple_types[t][0], n);
        copied = i = eol;
    }
    return rewrite_end(&sb, text, len, copied, outlen);
}

/* Skips a balanced group opened at text[i] (one of "([") up to and
 * including its closing character; string and character literals inside
 * are skipped whole. Returns the index after it, or len if unbalanced. */
static size_t skip_group(const char *text, size_t len, size_t i)
{
    int depth = 0;
    while (i < len) {
        char c = text[i];
        if (c == '"' || c == '\'') {
            for (i++; i < len && text[i] != c; i++)
                if (text[i] == '\\')
                    i++;
        } else if (c == '(' || c == '[') {
            depth++;
        } else if (c == ')' || c == ']') {
            if (--depth == 0)
                return i + 1;
        }
        i++;
    }
    return len;
}

static size_t skip_space(const char *text, size_t len, size_t i)
{
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        i++;
    return i;
}

/* g++ accepts a GNU attribute before a C++11 one,
 * `__attribute__((deprecated("..."))) [[nodiscard]] T f();` (Qt's
 * QT_DEPRECATED_X followed by Q_REQUIRED_RESULT, as g++ expands them);
 * clang only the other order. The C++11 attributes are moved before the
 * run of GNU ones, a space added: no newline moves, so every line keeps its
 * number, and no attribute is lost. Returns NULL when nothing changed. */
static char *rewrite_attribute_order(const char *text, size_t len, size_t *outlen)
{
    static const char kw[] = "__attribute__";
    strbuf sb = STRBUF_INIT;
    size_t i = 0, copied = 0;
    while (i < len) {
        const char *hit = memmem(text + i, len - i, kw, sizeof kw - 1);
        if (!hit)
            break;
        size_t at = (size_t)(hit - text), j = at;
        i = at + sizeof kw - 1;
        if (at > 0 && parse_is_ident_char(text[at - 1]))
            continue;
        size_t run_end = at; /* the run of GNU attributes: [at, run_end) */
        while (j + sizeof kw - 1 <= len && memcmp(text + j, kw, sizeof kw - 1) == 0 &&
               (j + sizeof kw - 1 == len || !parse_is_ident_char(text[j + sizeof kw - 1]))) {
            size_t k = skip_space(text, len, j + sizeof kw - 1);
            if (k >= len || text[k] != '(')
                break;
            run_end = skip_group(text, len, k);
            j = skip_space(text, len, run_end);
        }
        if (run_end == at)
            continue;
        size_t cxx = j, cxx_end = j; /* the C++11 attributes that follow: [cxx, cxx_end) */
        while (cxx_end + 1 < len && text[cxx_end] == '[' && text[cxx_end + 1] == '[') {
            cxx_end = skip_group(text, len, cxx_end);
            j = skip_space(text, len, cxx_end);
            if (j + 1 < len && text[j] == '[' && text[j + 1] == '[')
                cxx_end = j;
        }
        i = run_end;
        if (cxx_end == cxx)
            continue;
        sb_putn(&sb, text + copied, at - copied);
        sb_putn(&sb, text + cxx, cxx_end - cxx);
        sb_put(&sb, " ");
        sb_putn(&sb, text + at, cxx - at);
        copied = i = cxx_end;
    }
    return rewrite_end(&sb, text, len, copied, outlen);
}


const size_t parse_prelude_len = sizeof parse_prelude_c - 1;

char *parse_gcc_spelling(const char *text, size_t len, size_t *outlen)
{
    size_t rlen = 0, olen = 0;
    char *rewritten = rewrite_complex_floatn(text, len, &rlen);
    char *ordered = rewritten ? rewrite_attribute_order(rewritten, rlen, &olen)
                              : rewrite_attribute_order(text, len, &olen);
    if (ordered) {
        free(rewritten);
        rewritten = ordered;
        rlen = olen;
    }
    char *neon = rewritten ? rewrite_neon_pragma(rewritten, rlen, &olen)
                           : rewrite_neon_pragma(text, len, &olen);
    if (neon) {
        free(rewritten);
        rewritten = neon;
        rlen = olen;
    }
    *outlen = rlen;
    return rewritten;
}
