/*
 * filter.c - parser and matcher for the Score-P filter language (SPEC §3).
 *
 * The text is read as a stream of whitespace-separated tokens, as Score-P
 * does: block keywords and EXCLUDE/INCLUDE are recognised wherever they
 * appear, so a line without a keyword simply continues the current rule.
 * Every pattern becomes one flat rule entry; matching looks for the entry
 * with the highest index that matches, which is "last match wins".
 *
 * Generated lists of thousands of plain names (a filter made from a symbol
 * list) would make matching 10,000 functions quadratic, so patterns without
 * glob characters are also kept in sorted arrays and found by binary search;
 * only the real globs are walked, from the last one backwards, and only
 * down to the best literal hit.
 */
/* strdup, also when built as strict C11 */
#define _POSIX_C_SOURCE 200809L

#include "filter.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lw_rule {
    char *pattern;
    bool exclude;
    bool mangled; /* match the linker symbol instead of the readable name */
    size_t line;  /* of the pattern, in the filter's text */
};

struct lw_literal {
    const char *text; /* a rule's pattern */
    size_t index;     /* the rule's index */
};

struct lw_rules {
    struct lw_rule *v;
    size_t n, cap;
    /* Built by rules_index once parsing is done: the literal rules by name
     * ([0] readable names, [1] mangled ones), sorted, one entry per name
     * holding its last rule; and the indices of the glob rules, in order. */
    struct lw_literal *literal[2];
    size_t nliteral[2];
    size_t *glob;
    size_t nglob;
};

struct lw_filter {
    struct lw_rules file;
    struct lw_rules region;
};

/* ------------------------------------------------------------------ glob */

/* Returns the character after the ']' closing the bracket expression that
 * starts at `p` (which points at '['), or NULL when it is not closed. A ']'
 * right after '[', '[!' or '[^' is a literal member, as in fnmatch. */
static const char *class_end(const char *p)
{
    p++;
    if (*p == '!' || *p == '^')
        p++;
    if (*p == ']')
        p++;
    while (*p != ']') {
        if (*p == '\0')
            return NULL;
        if (*p == '\\' && p[1] != '\0')
            p++;
        p++;
    }
    return p + 1;
}

/* Reads one possibly escaped member character of a bracket expression. */
static unsigned char class_char(const char **p)
{
    if (**p == '\\' && (*p)[1] != '\0')
        (*p)++;
    return (unsigned char)*(*p)++;
}

/* `p` points at '[' of a closed bracket expression ending before `end`. */
static bool class_match(const char *p, const char *end, unsigned char c)
{
    bool negate = false, hit = false;

    p++;
    if (*p == '!' || *p == '^') {
        negate = true;
        p++;
    }
    /* class_end found the closing ']', so every character before it,
     * a leading ']' included, is a member or part of a range. */
    const char *last = end - 1;
    while (p < last) {
        unsigned char lo = class_char(&p);
        unsigned char hi = lo;
        if (*p == '-' && p + 1 < last) {
            p++;
            hi = class_char(&p);
        }
        if (lo <= c && c <= hi)
            hit = true;
    }
    return hit != negate;
}

/* Matches one non-'*' pattern element against `c`; sets *len to the number
 * of pattern characters it used. An unterminated '[' is a literal '['. */
static bool element_match(const char *p, unsigned char c, size_t *len)
{
    switch (*p) {
    case '\0':
        *len = 0;
        return false;
    case '?':
        *len = 1;
        return true;
    case '[': {
        const char *end = class_end(p);
        if (end) {
            *len = (size_t)(end - p);
            return class_match(p, end, c);
        }
        *len = 1;
        return c == '[';
    }
    case '\\':
        if (p[1] != '\0') {
            *len = 2;
            return (unsigned char)p[1] == c;
        }
        *len = 1;
        return c == '\\';
    default:
        *len = 1;
        return (unsigned char)*p == c;
    }
}

/* Iterative matcher: only the most recent '*' is ever resumed. Because '*'
 * matches any run (including '/'), an earlier star can never do better than
 * a later one, so this is exact and bounded by O(|pattern| * |text|) rather
 * than exponential for patterns like "*a*a*a*b". */
bool lw_glob_match(const char *pattern, const char *text)
{
    const char *p = pattern, *t = text;
    const char *star_p = NULL, *star_t = NULL;

    if (!pattern || !text)
        return false;
    for (;;) {
        if (*p == '*') {
            while (*p == '*')
                p++;
            if (*p == '\0')
                return true;
            star_p = p;
            star_t = t;
            continue;
        }
        if (*t == '\0')
            return *p == '\0';
        size_t len;
        if (element_match(p, (unsigned char)*t, &len)) {
            p += len;
            t++;
            continue;
        }
        if (!star_p)
            return false;
        p = star_p;
        t = ++star_t;
    }
}

bool lw_glob_match_unversioned(const char *pattern, const char *text)
{
    if (lw_glob_match(pattern, text))
        return true;
    const char *at = text ? strchr(text, '@') : NULL;
    char bare[512];
    if (!at || at == text || (size_t)(at - text) >= sizeof bare)
        return false;
    memcpy(bare, text, (size_t)(at - text));
    bare[at - text] = '\0';
    return lw_glob_match(pattern, bare);
}

/* --------------------------------------------------------------- parsing */

enum block_kind { BLOCK_FILE, BLOCK_REGION };

struct block_word {
    const char *word;
    enum block_kind kind;
    bool begin;
};

static const struct block_word block_words[] = {
    {"LIBWRAP_FILE_NAMES_BEGIN", BLOCK_FILE, true},
    {"LIBWRAP_FILE_NAMES_END", BLOCK_FILE, false},
    {"LIBWRAP_REGION_NAMES_BEGIN", BLOCK_REGION, true},
    {"LIBWRAP_REGION_NAMES_END", BLOCK_REGION, false},
    {"SCOREP_FILE_NAMES_BEGIN", BLOCK_FILE, true},
    {"SCOREP_FILE_NAMES_END", BLOCK_FILE, false},
    {"SCOREP_REGION_NAMES_BEGIN", BLOCK_REGION, true},
    {"SCOREP_REGION_NAMES_END", BLOCK_REGION, false},
};
#define N_BLOCK_WORDS (sizeof block_words / sizeof block_words[0])

/* The END that closes block_words[i] (a BEGIN) is the next entry. */
static const char *closing_word(size_t begin_index)
{
    return block_words[begin_index + 1].word;
}

struct parser {
    const char *text, *cur, *end;
    const char *origin;
    size_t line;
    char *err;
    size_t errlen;
    lw_filter *filter;

    /* open block: index into block_words, or -1 */
    int block;
    size_t block_line;

    /* current rule */
    bool in_rule;
    bool rule_exclude;
    bool rule_mangled;
    size_t rule_line;
    size_t rule_patterns;

    /* current token, NUL-terminated copy */
    char *tok;
    size_t tok_cap;
    size_t tok_line;
};

static bool fail(struct parser *ps, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(struct parser *ps, size_t line, const char *fmt, ...)
{
    if (ps->err && ps->errlen > 0) {
        int n = snprintf(ps->err, ps->errlen, "%s:%zu: ", ps->origin, line);
        if (n >= 0 && (size_t)n < ps->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return false;
}

static bool out_of_memory(struct parser *ps)
{
    return fail(ps, ps->line, "out of memory while reading the filter");
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool tok_push(struct parser *ps, size_t *n, char c)
{
    if (*n + 1 >= ps->tok_cap) {
        size_t cap = ps->tok_cap ? ps->tok_cap * 2 : 64;
        char *t = realloc(ps->tok, cap);
        if (!t)
            return false;
        ps->tok = t;
        ps->tok_cap = cap;
    }
    ps->tok[(*n)++] = c;
    return true;
}

/* Reads the next token into ps->tok. Returns 1 with a token, 0 at the end
 * of the text, -1 on error. An unescaped '#' starts a comment up to the end
 * of the line; a backslash keeps the next character in the token (so "\#"
 * is no comment and "\ " no separator) and stays in the pattern, where the
 * glob reads it as an escape. */
static int next_token(struct parser *ps)
{
    for (;;) {
        while (ps->cur < ps->end && is_space(*ps->cur))
            ps->cur++;
        if (ps->cur == ps->end)
            return 0;
        if (*ps->cur == '\n') {
            ps->line++;
            ps->cur++;
            continue;
        }
        if (*ps->cur == '#') {
            while (ps->cur < ps->end && *ps->cur != '\n')
                ps->cur++;
            continue;
        }
        break;
    }
    size_t n = 0;
    ps->tok_line = ps->line;
    while (ps->cur < ps->end) {
        char c = *ps->cur;
        if (c == '\n' || c == '#' || is_space(c))
            break;
        if (c == '\0') {
            fail(ps, ps->line, "NUL byte in the filter: expected text");
            return -1;
        }
        if (c == '\\' && ps->cur + 1 < ps->end && ps->cur[1] != '\n' && ps->cur[1] != '\r' &&
            ps->cur[1] != '\0') {
            if (!tok_push(ps, &n, c)) {
                out_of_memory(ps);
                return -1;
            }
            c = *++ps->cur;
        }
        if (!tok_push(ps, &n, c)) {
            out_of_memory(ps);
            return -1;
        }
        ps->cur++;
    }
    ps->tok[n] = '\0';
    return 1;
}

static int find_block_word(const char *tok)
{
    for (size_t i = 0; i < N_BLOCK_WORDS; i++)
        if (strcmp(tok, block_words[i].word) == 0)
            return (int)i;
    return -1;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

static char upper(char c)
{
    return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* Whether s[0..n) is `word` (upper case) when read in upper case. */
static bool upper_eq(const char *s, const char *word, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (upper(s[i]) != word[i])
            return false;
    return true;
}

/* Whether `s` (of n characters, compared in upper case) is `word` with at
 * most one character inserted, left out, changed, or two neighbours
 * swapped: BEGINN, BEGN, EDN, end. */
static bool near_word(const char *s, size_t n, const char *word)
{
    size_t m = strlen(word), i = 0;
    while (i < n && i < m && upper(s[i]) == word[i])
        i++;
    if (i == n && i == m)
        return true;
    const char *a = s + i, *b = word + i;
    size_t ra = n - i, rb = m - i;
    /* The rest after one edit at the first difference must be equal. */
    if (ra == rb + 1 && upper_eq(a + 1, b, rb)) /* inserted */
        return true;
    if (rb == ra + 1 && upper_eq(a, b + 1, ra)) /* left out */
        return true;
    if (ra == rb && ra >= 1 && upper_eq(a + 1, b + 1, ra - 1)) /* changed */
        return true;
    if (ra == rb && ra >= 2 && upper(a[0]) == b[1] && upper(a[1]) == b[0] &&
        upper_eq(a + 2, b + 2, ra - 2)) /* swapped */
        return true;
    return false;
}

/* A misspelt block keyword would otherwise be read as a pattern and the
 * real mistake reported far away as an unclosed block (or at the end of
 * the text): a word that starts with LIBWRAP_ or SCOREP_ and ends in
 * _BEGIN or _END, or in a word one slip away from them (_ENDD, _BEGN,
 * _end), or in _NAMES (the keyword cut short). */
static bool looks_like_block_word(const char *tok)
{
    if (strncmp(tok, "LIBWRAP_", 8) != 0 && strncmp(tok, "SCOREP_", 7) != 0)
        return false;
    if (has_suffix(tok, "_BEGIN") || has_suffix(tok, "_END") || has_suffix(tok, "_NAMES"))
        return true;
    const char *last = strrchr(tok, '_') + 1;
    size_t n = strlen(last);
    return near_word(last, n, "BEGIN") || near_word(last, n, "END");
}

static bool end_rule(struct parser *ps)
{
    if (ps->in_rule && ps->rule_patterns == 0)
        return fail(ps, ps->rule_line, "%s without a pattern: expected one or more %s patterns",
                    ps->rule_exclude ? "EXCLUDE" : "INCLUDE",
                    block_words[ps->block].kind == BLOCK_FILE ? "file name" : "region name");
    ps->in_rule = false;
    return true;
}

static bool add_pattern(struct parser *ps)
{
    const char *tok = ps->tok;

    if (!ps->in_rule)
        return fail(ps, ps->tok_line, "expected EXCLUDE or INCLUDE before pattern '%s'", tok);
    for (const char *p = tok; *p; p++) {
        if (*p == '\\' && p[1] != '\0') {
            p++;
        } else if (*p == '[' && !class_end(p)) {
            return fail(ps, ps->tok_line, "unterminated '[' in pattern '%s': expected ']'", tok);
        } else if (*p == '[') {
            p = class_end(p) - 1;
        }
    }

    struct lw_rules *rules =
        block_words[ps->block].kind == BLOCK_FILE ? &ps->filter->file : &ps->filter->region;
    if (rules->n == rules->cap) {
        size_t cap = rules->cap ? rules->cap * 2 : 16;
        struct lw_rule *v = realloc(rules->v, cap * sizeof *v);
        if (!v)
            return out_of_memory(ps);
        rules->v = v;
        rules->cap = cap;
    }
    char *copy = strdup(tok);
    if (!copy)
        return out_of_memory(ps);
    rules->v[rules->n++] = (struct lw_rule){copy, ps->rule_exclude, ps->rule_mangled, ps->tok_line};
    ps->rule_patterns++;
    return true;
}

static bool block_token(struct parser *ps, int word)
{
    const struct block_word *bw = &block_words[word];

    if (ps->block < 0) {
        if (!bw->begin)
            return fail(ps, ps->tok_line, "%s outside a block: expected %s before it", bw->word,
                        block_words[word - 1].word);
        ps->block = word;
        ps->block_line = ps->tok_line;
        return true;
    }
    if (bw->begin)
        return fail(ps, ps->tok_line, "%s inside the block opened at line %zu: expected %s first",
                    bw->word, ps->block_line, closing_word((size_t)ps->block));
    if (word != ps->block + 1)
        return fail(ps, ps->tok_line, "%s does not close %s at line %zu: expected %s", bw->word,
                    block_words[ps->block].word, ps->block_line, closing_word((size_t)ps->block));
    if (!end_rule(ps))
        return false;
    ps->block = -1;
    return true;
}

static bool parse_token(struct parser *ps)
{
    const char *tok = ps->tok;
    int word = find_block_word(tok);

    if (word >= 0)
        return block_token(ps, word);
    if (ps->block < 0) {
        if (looks_like_block_word(tok))
            return fail(ps, ps->tok_line,
                        "unknown block keyword '%s': expected LIBWRAP_FILE_NAMES_BEGIN or "
                        "LIBWRAP_REGION_NAMES_BEGIN (or the SCOREP_ spellings)",
                        tok);
        return fail(ps, ps->tok_line,
                    "'%s' outside a block: expected LIBWRAP_FILE_NAMES_BEGIN or "
                    "LIBWRAP_REGION_NAMES_BEGIN",
                    tok);
    }
    if (looks_like_block_word(tok))
        return fail(ps, ps->tok_line, "unknown block keyword '%s': expected %s or a pattern", tok,
                    closing_word((size_t)ps->block));
    if (strcmp(tok, "EXCLUDE") == 0 || strcmp(tok, "INCLUDE") == 0) {
        if (!end_rule(ps))
            return false;
        ps->in_rule = true;
        ps->rule_exclude = tok[0] == 'E';
        ps->rule_mangled = false;
        ps->rule_line = ps->tok_line;
        ps->rule_patterns = 0;
        return true;
    }
    if (strcmp(tok, "MANGLED") == 0 || strcmp(tok, "DEMANGLED") == 0) {
        if (block_words[ps->block].kind == BLOCK_FILE)
            return fail(ps, ps->tok_line,
                        "%s in a file block: expected file name patterns (MANGLED and DEMANGLED "
                        "apply to region names only)",
                        tok);
        if (!ps->in_rule)
            return fail(ps, ps->tok_line, "expected EXCLUDE or INCLUDE before %s", tok);
        ps->rule_mangled = tok[0] == 'M';
        return true;
    }
    return add_pattern(ps);
}

/* The line number of the last line of the text, for errors at its end. */
static size_t last_line(const struct parser *ps)
{
    size_t line = ps->line;
    if (ps->end > ps->text && ps->end[-1] == '\n')
        line--;
    return line;
}

static int literal_cmp(const void *a, const void *b)
{
    const struct lw_literal *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    if (c)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

static bool rules_index(struct lw_rules *rules)
{
    for (int k = 0; k < 2; k++) {
        rules->literal[k] = malloc((rules->n ? rules->n : 1) * sizeof *rules->literal[k]);
        if (!rules->literal[k])
            return false;
    }
    rules->glob = malloc((rules->n ? rules->n : 1) * sizeof *rules->glob);
    if (!rules->glob)
        return false;
    for (size_t i = 0; i < rules->n; i++) {
        const struct lw_rule *r = &rules->v[i];
        if (strpbrk(r->pattern, "*?[\\")) {
            rules->glob[rules->nglob++] = i;
        } else {
            int k = r->mangled;
            rules->literal[k][rules->nliteral[k]++] = (struct lw_literal){r->pattern, i};
        }
    }
    for (int k = 0; k < 2; k++) {
        struct lw_literal *lit = rules->literal[k];
        size_t n = rules->nliteral[k], kept = 0;
        qsort(lit, n, sizeof *lit, literal_cmp);
        /* Equal names sort by index: keep the last of each run. */
        for (size_t i = 0; i < n; i++) {
            if (i + 1 < n && strcmp(lit[i].text, lit[i + 1].text) == 0)
                continue;
            lit[kept++] = lit[i];
        }
        rules->nliteral[k] = kept;
    }
    return true;
}

static int literal_key_cmp(const void *key, const void *elem)
{
    return strcmp(key, ((const struct lw_literal *)elem)->text);
}

/* The index of the last rule that matches, SIZE_MAX when none does. */
static size_t last_match(const struct lw_rules *rules, const char *readable, const char *mangled)
{
    const char *names[2] = {readable, mangled};
    size_t best = SIZE_MAX;

    for (int k = 0; k < 2; k++) {
        if (!rules->nliteral[k])
            continue;
        const struct lw_literal *hit =
            bsearch(names[k], rules->literal[k], rules->nliteral[k], sizeof *hit, literal_key_cmp);
        if (hit && (best == SIZE_MAX || hit->index > best))
            best = hit->index;
    }
    for (size_t i = rules->nglob; i-- > 0;) {
        size_t index = rules->glob[i];
        if (best != SIZE_MAX && index < best)
            break;
        const struct lw_rule *r = &rules->v[index];
        if (lw_glob_match(r->pattern, r->mangled ? mangled : readable))
            return index;
    }
    return best;
}

static void rules_free(struct lw_rules *rules)
{
    for (size_t i = 0; i < rules->n; i++)
        free(rules->v[i].pattern);
    free(rules->v);
    free(rules->literal[0]);
    free(rules->literal[1]);
    free(rules->glob);
}

void lw_filter_free(lw_filter *filter)
{
    if (!filter)
        return;
    rules_free(&filter->file);
    rules_free(&filter->region);
    free(filter);
}

lw_filter *lw_filter_parse(const char *text, size_t len, const char *origin, char *err,
                           size_t errlen)
{
    struct parser ps = {
        .text = text ? text : "",
        .origin = origin ? origin : "<filter>",
        .line = 1,
        .err = err,
        .errlen = errlen,
        .block = -1,
    };
    ps.cur = ps.text;
    ps.end = ps.text + (text ? len : 0);
    /* A UTF-8 byte order mark, which some editors write, is no word. */
    if (ps.end - ps.cur >= 3 && memcmp(ps.cur, "\xEF\xBB\xBF", 3) == 0)
        ps.cur += 3;
    if (err && errlen > 0)
        err[0] = '\0';

    ps.filter = calloc(1, sizeof *ps.filter);
    if (!ps.filter) {
        out_of_memory(&ps);
        return NULL;
    }
    bool ok = true;
    int r;
    while (ok && (r = next_token(&ps)) > 0)
        ok = parse_token(&ps);
    if (ok && r < 0)
        ok = false;
    if (ok && ps.block >= 0)
        ok = fail(&ps, last_line(&ps), "%s at line %zu is not closed by %s",
                  block_words[ps.block].word, ps.block_line, closing_word((size_t)ps.block));
    free(ps.tok);
    if (ok && (!rules_index(&ps.filter->file) || !rules_index(&ps.filter->region)))
        ok = out_of_memory(&ps);
    if (!ok) {
        lw_filter_free(ps.filter);
        return NULL;
    }
    return ps.filter;
}

lw_filter *lw_filter_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err && errlen > 0)
            snprintf(err, errlen, "%s: cannot open the filter file: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            char *nbuf = realloc(buf, ncap);
            if (!nbuf) {
                if (err && errlen > 0)
                    snprintf(err, errlen, "%s: out of memory while reading the filter file", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    bool read_error = ferror(f);
    int saved = errno;
    fclose(f);
    if (read_error) {
        if (err && errlen > 0)
            snprintf(err, errlen, "%s: cannot read the filter file: %s", path, strerror(saved));
        free(buf);
        return NULL;
    }
    lw_filter *filter = lw_filter_parse(buf, len, path, err, errlen);
    free(buf);
    return filter;
}

/* -------------------------------------------------------------- matching */

bool lw_filter_excludes_file(const lw_filter *filter, const char *file)
{
    if (!filter || !file)
        return false;
    size_t i = last_match(&filter->file, file, file);
    return i != SIZE_MAX && filter->file.v[i].exclude;
}

/* The region block's last rule that matches the function, or SIZE_MAX. */
static size_t region_rule(const lw_filter *filter, const char *mangled, const char *demangled)
{
    /* Each name stands in for the other when a caller only has one. */
    if (!demangled)
        demangled = mangled;
    if (!mangled)
        mangled = demangled;
    if (!mangled)
        return SIZE_MAX;
    size_t i = last_match(&filter->region, demangled, mangled);
    /* A C++ name with its parameters (`ns::f(int) const`) is also matched
     * without them (`ns::f`), so that one rule takes every overload. */
    size_t open = lw_name_params_start(demangled);
    char base[512];
    if (open != SIZE_MAX && open < sizeof base) {
        memcpy(base, demangled, open);
        base[open] = '\0';
        size_t j = last_match(&filter->region, base, mangled);
        if (j != SIZE_MAX && (i == SIZE_MAX || j > i))
            i = j;
    }
    /* A symbol's version (`foo@V1`, `foo@@V2`, docs/wrappers.md) likewise:
     * `foo` takes every version, as the generation filter does. */
    const char *at_m = strchr(mangled, '@'), *at_d = strchr(demangled, '@');
    char base_m[512], base_d[512];
    if (at_m && at_d && (size_t)(at_m - mangled) < sizeof base_m && (size_t)(at_d - demangled) < sizeof base_d) {
        memcpy(base_m, mangled, (size_t)(at_m - mangled));
        base_m[at_m - mangled] = '\0';
        memcpy(base_d, demangled, (size_t)(at_d - demangled));
        base_d[at_d - demangled] = '\0';
        size_t j = last_match(&filter->region, base_d, base_m);
        if (j != SIZE_MAX && (i == SIZE_MAX || j > i))
            i = j;
    }
    return i;
}

bool lw_filter_excludes(const lw_filter *filter, const char *file, const char *mangled,
                        const char *demangled)
{
    if (!filter)
        return false;
    if (lw_filter_excludes_file(filter, file))
        return true;
    size_t i = region_rule(filter, mangled, demangled);
    return i != SIZE_MAX && filter->region.v[i].exclude;
}

bool lw_filter_includes(const lw_filter *filter, const char *file, const char *mangled,
                        const char *demangled)
{
    if (!filter || !mangled || lw_filter_excludes_file(filter, file))
        return false;
    size_t i = region_rule(filter, mangled, demangled);
    const struct lw_rule *r = i == SIZE_MAX ? NULL : &filter->region.v[i];
    return r && !r->exclude && r->mangled && strcmp(r->pattern, mangled) == 0;
}

bool lw_name_renames(const char *name, const char *func)
{
    size_t n = strlen(func);
    if (n && strncmp(name, func, n) == 0 && name[n] == '_' && name[n + 1]) {
        const char *v = name + n + 1;
        while (*v >= '0' && *v <= '9')
            v++;
        return !*v;
    }
    for (size_t pre = 1; n && name[0] == '_' && pre <= 4 && name[pre]; pre++)
        if (strcmp(name + pre, func) == 0)
            return true;
    return false;
}

const char *lw_filter_renamed(const lw_filter *filter, const char *name, size_t *line)
{
    if (!filter || !name || region_rule(filter, name, name) != SIZE_MAX)
        return NULL;
    for (size_t i = 0; i < filter->region.n; i++) {
        const struct lw_rule *r = &filter->region.v[i];
        if (!strpbrk(r->pattern, "*?[") && lw_name_renames(name, r->pattern)) {
            if (line)
                *line = r->line;
            return r->pattern;
        }
    }
    return NULL;
}

size_t lw_name_params_start(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    /* A variant's suffix: " [base object]", " [deleting]". */
    if (n > 0 && name[n - 1] == ']') {
        const char *open = memchr(name, '[', n);
        while (open && memchr(open + 1, '[', n - (size_t)(open + 1 - name)))
            open = memchr(open + 1, '[', n - (size_t)(open + 1 - name));
        if (open && open > name && open[-1] == ' ')
            n = (size_t)(open - name) - 1;
    }
    /* Trailing qualifiers: const, volatile, &, &&, noexcept. */
    for (;;) {
        while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == '&'))
            n--;
        static const char *const quals[] = {"const", "volatile", "noexcept"};
        bool cut = false;
        for (size_t q = 0; q < sizeof quals / sizeof *quals; q++) {
            size_t l = strlen(quals[q]);
            if (n > l && memcmp(name + n - l, quals[q], l) == 0 && name[n - l - 1] == ' ') {
                n -= l;
                cut = true;
            }
        }
        if (!cut)
            break;
    }
    if (n == 0 || name[n - 1] != ')')
        return SIZE_MAX;
    int depth = 0;
    for (size_t i = n; i-- > 0;) {
        if (name[i] == ')' || name[i] == '>')
            depth++;
        else if ((name[i] == '(' || name[i] == '<') && --depth == 0)
            return i > 0 ? i : SIZE_MAX;
    }
    return SIZE_MAX;
}
