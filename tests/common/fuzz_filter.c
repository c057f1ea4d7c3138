/*
 * fuzz_filter.c - libFuzzer target for the filter parser and the glob.
 *
 * Every input is parsed as a filter; a parsed filter is queried with names
 * taken from the input. The input is also split at its first newline into a
 * glob and a text; when the filter accepts the glob as a pattern, it must
 * match exactly as fnmatch(3) does. Patterns the filter rejects (an
 * unterminated '[', where glibc itself is inconsistent), POSIX classes such
 * as "[:alpha:]" that the filter language does not have, and a lone
 * trailing backslash (fnmatch rejects it, the filter reads it literally) are
 * left out of that comparison.
 */
#include "filter.h"

#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool ends_in_lone_backslash(const char *s, size_t len)
{
    size_t n = 0;
    while (n < len && s[len - 1 - n] == '\\')
        n++;
    return n % 2 == 1;
}

/* True when the filter parser accepts `pattern` as a single pattern. */
static bool filter_accepts(const char *pattern)
{
    static const char head[] = "LIBWRAP_REGION_NAMES_BEGIN EXCLUDE ";
    static const char tail[] = " LIBWRAP_REGION_NAMES_END";

    if (strpbrk(pattern, " \t\r\v\f#"))
        return false;
    size_t len = strlen(pattern);
    char *text = malloc(sizeof head + len + sizeof tail);
    if (!text)
        return false;
    memcpy(text, head, sizeof head - 1);
    memcpy(text + sizeof head - 1, pattern, len);
    memcpy(text + sizeof head - 1 + len, tail, sizeof tail);
    lw_filter *f = lw_filter_parse(text, strlen(text), "glob", NULL, 0);
    free(text);
    lw_filter_free(f);
    return f != NULL;
}

static void check_glob(const char *data, size_t size)
{
    const char *nl = memchr(data, '\n', size);
    if (!nl || memchr(data, '\0', size))
        return;
    size_t plen = (size_t)(nl - data);
    char *pattern = strndup(data, plen);
    char *text = strndup(nl + 1, size - plen - 1);
    if (pattern && text && !strstr(pattern, "[:") && !strstr(pattern, "[=") &&
        !strstr(pattern, "[.") && !ends_in_lone_backslash(pattern, plen) &&
        filter_accepts(pattern)) {
        bool ours = lw_glob_match(pattern, text);
        bool theirs = fnmatch(pattern, text, 0) == 0;
        if (ours != theirs)
            abort();
    }
    free(pattern);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    lw_filter *f = lw_filter_parse((const char *)data, size, "fuzz.filter", err, sizeof err);
    if (!f && !strstr(err, "fuzz.filter:"))
        abort(); /* every parse error names its origin and line */
    if (f) {
        char name[64];
        size_t n = size < sizeof name - 1 ? size : sizeof name - 1;
        memcpy(name, data, n);
        name[n] = '\0';
        lw_filter_excludes(f, name, name, name);
        lw_filter_excludes(f, NULL, "_ZN3foo3barEv", "foo::bar()");
        lw_filter_excludes_file(f, "/usr/include/foo/foo.h");
        lw_filter_free(f);
    }
    check_glob((const char *)data, size);
    return 0;
}
