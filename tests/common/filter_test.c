/*
 * filter_test.c - unit tests of the filter language (common/filter.h).
 * Prints each failed check with its line and exits non-zero if any failed.
 */
#include "filter.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
static int checks;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

static lw_filter *parse(const char *text)
{
    char err[512];
    lw_filter *f = lw_filter_parse(text, strlen(text), "t.filter", err, sizeof err);
    if (!f)
        fprintf(stderr, "unexpected parse error: %s\n", err);
    return f;
}

/* Parses text that must fail and compares the whole message. */
static void expect_error(int line, const char *text, const char *message)
{
    char err[512];
    checks++;
    lw_filter *f = lw_filter_parse(text, strlen(text), "t.filter", err, sizeof err);
    if (f) {
        failures++;
        fprintf(stderr, "%s:%d: filter parsed, expected error \"%s\"\n", __FILE__, line, message);
        lw_filter_free(f);
        return;
    }
    if (strcmp(err, message) != 0) {
        failures++;
        fprintf(stderr, "%s:%d: error\n  got      \"%s\"\n  expected \"%s\"\n", __FILE__, line, err,
                message);
    }
}
#define EXPECT_ERROR(text, message) expect_error(__LINE__, text, message)

/* Region-only exclusion of a C function (mangled == demangled). */
static bool excl(const lw_filter *f, const char *name)
{
    return lw_filter_excludes(f, NULL, name, name);
}

static void test_glob(void)
{
    CHECK(lw_glob_match("foo", "foo"));
    CHECK(!lw_glob_match("foo", "foo2"));
    CHECK(!lw_glob_match("foo", "fo"));
    CHECK(lw_glob_match("", ""));
    CHECK(!lw_glob_match("", "a"));
    CHECK(lw_glob_match("*", ""));
    CHECK(lw_glob_match("*", "anything/with/slashes"));
    CHECK(lw_glob_match("/usr/include/*", "/usr/include/foo/bar.h"));
    CHECK(!lw_glob_match("/usr/include/*", "/usr/local/include/foo.h"));
    CHECK(lw_glob_match("*/foo.h", "/a/b/c/foo.h"));
    CHECK(lw_glob_match("foo_*_bar", "foo__bar"));
    CHECK(lw_glob_match("foo_*_bar", "foo_x_y_bar"));
    CHECK(!lw_glob_match("foo_*_bar", "foo_x_y_baz"));
    CHECK(lw_glob_match("**a**", "xxaxx"));
    CHECK(lw_glob_match("*ab", "aab"));
    CHECK(lw_glob_match("a*b*c", "abbbbc"));
    CHECK(!lw_glob_match("a*b*c", "abbbb"));

    CHECK(lw_glob_match("?", "x"));
    CHECK(lw_glob_match("?", "/"));
    CHECK(!lw_glob_match("?", ""));
    CHECK(!lw_glob_match("?", "xy"));
    CHECK(lw_glob_match("f??", "foo"));

    CHECK(lw_glob_match("[abc]", "b"));
    CHECK(!lw_glob_match("[abc]", "d"));
    CHECK(lw_glob_match("v[0-9]", "v7"));
    CHECK(!lw_glob_match("v[0-9]", "vx"));
    CHECK(lw_glob_match("[a-cx-z]", "y"));
    CHECK(!lw_glob_match("[a-cx-z]", "m"));
    CHECK(lw_glob_match("[!x]", "y"));
    CHECK(!lw_glob_match("[!x]", "x"));
    CHECK(lw_glob_match("[^x]", "y"));
    CHECK(!lw_glob_match("[^x]", "x"));
    CHECK(lw_glob_match("[]]", "]"));
    CHECK(lw_glob_match("[]a]", "a"));
    CHECK(lw_glob_match("[!]]", "a"));
    CHECK(!lw_glob_match("[!]]", "]"));
    CHECK(lw_glob_match("[a-]", "-"));
    CHECK(lw_glob_match("[-a]", "-"));
    CHECK(!lw_glob_match("[a-]", "b"));
    CHECK(lw_glob_match("[*]", "*"));
    CHECK(!lw_glob_match("[*]", "x"));
    CHECK(lw_glob_match("[\\]]", "]"));
    CHECK(lw_glob_match("*[0-9]", "deflate9"));

    /* An unterminated '[' matches itself when called directly. */
    CHECK(lw_glob_match("a[b", "a[b"));
    CHECK(!lw_glob_match("a[b", "ab"));

    CHECK(lw_glob_match("\\*", "*"));
    CHECK(!lw_glob_match("\\*", "x"));
    CHECK(lw_glob_match("a\\?", "a?"));
    CHECK(!lw_glob_match("a\\?", "ab"));
    CHECK(lw_glob_match("\\#x", "#x"));
    CHECK(lw_glob_match("a\\", "a\\"));

    /* High bytes compare as unsigned in ranges. */
    CHECK(lw_glob_match("[\x80-\xff]", "\xe9"));
    CHECK(!lw_glob_match("[a-z]", "\xe9"));

    CHECK(!lw_glob_match(NULL, "x"));
    CHECK(!lw_glob_match("x", NULL));

    /* Must stay linear-ish: an exponential matcher would never return. */
    size_t n = 200000;
    char *long_a = malloc(n + 1);
    CHECK(long_a != NULL);
    if (long_a) {
        memset(long_a, 'a', n);
        long_a[n] = '\0';
        CHECK(!lw_glob_match("*a*a*a*a*a*a*a*a*b", long_a));
        long_a[n - 1] = 'b';
        CHECK(lw_glob_match("*a*a*a*a*a*a*a*a*b", long_a));
        free(long_a);
    }
}

static void test_spec_example(void)
{
    lw_filter *f =
        parse("LIBWRAP_FILE_NAMES_BEGIN        # also accepted: SCOREP_FILE_NAMES_BEGIN\n"
              "  EXCLUDE *\n"
              "  INCLUDE /usr/include/foo/*\n"
              "LIBWRAP_FILE_NAMES_END\n"
              "LIBWRAP_REGION_NAMES_BEGIN\n"
              "  EXCLUDE foo_internal_* bar\n"
              "          baz                   # continuation line, same rule\n"
              "  INCLUDE MANGLED _ZN3foo3barEv\n"
              "LIBWRAP_REGION_NAMES_END\n");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(lw_filter_excludes_file(f, "/usr/include/stdio.h"));
    CHECK(!lw_filter_excludes_file(f, "/usr/include/foo/foo.h"));
    CHECK(!lw_filter_excludes_file(f, "/usr/include/foo/sub/x.h"));
    CHECK(lw_filter_excludes(f, "/usr/include/stdio.h", "printf", "printf"));
    CHECK(!lw_filter_excludes(f, "/usr/include/foo/foo.h", "foo_open", "foo_open"));
    CHECK(lw_filter_excludes(f, "/usr/include/foo/foo.h", "foo_internal_x", "foo_internal_x"));
    CHECK(lw_filter_excludes(f, "/usr/include/foo/foo.h", "bar", "bar"));
    CHECK(lw_filter_excludes(f, "/usr/include/foo/foo.h", "baz", "baz"));
    CHECK(!lw_filter_excludes(f, "/usr/include/foo/foo.h", "bazz", "bazz"));
    CHECK(!lw_filter_excludes(f, "/usr/include/foo/foo.h", "_ZN3foo3barEv", "foo::bar()"));
    /* The file block wins over the region block. */
    CHECK(lw_filter_excludes(f, "/usr/include/other.h", "_ZN3foo3barEv", "foo::bar()"));
    /* Without a file, only the region block decides. */
    CHECK(!lw_filter_excludes(f, NULL, "printf", "printf"));
    CHECK(lw_filter_excludes(f, NULL, "bar", "bar"));
    lw_filter_free(f);
}

static void test_last_match_wins(void)
{
    lw_filter *f = parse("LIBWRAP_REGION_NAMES_BEGIN\n"
                         "EXCLUDE *\n"
                         "INCLUDE deflate*\n"
                         "EXCLUDE deflateBound\n"
                         "LIBWRAP_REGION_NAMES_END\n");
    CHECK(f != NULL);
    if (f) {
        CHECK(excl(f, "inflate"));
        CHECK(!excl(f, "deflate"));
        CHECK(!excl(f, "deflateInit_"));
        CHECK(excl(f, "deflateBound"));
        lw_filter_free(f);
    }

    f = parse("LIBWRAP_REGION_NAMES_BEGIN\n"
              "INCLUDE deflate*\n"
              "EXCLUDE *\n"
              "LIBWRAP_REGION_NAMES_END\n");
    CHECK(f != NULL);
    if (f) {
        CHECK(excl(f, "deflate"));
        lw_filter_free(f);
    }

    /* Everything is included at start. */
    f = parse("LIBWRAP_REGION_NAMES_BEGIN\n"
              "INCLUDE a\n"
              "LIBWRAP_REGION_NAMES_END\n");
    CHECK(f != NULL);
    if (f) {
        CHECK(!excl(f, "a"));
        CHECK(!excl(f, "b"));
        lw_filter_free(f);
    }
}

static void test_blocks_accumulate(void)
{
    lw_filter *f = parse("SCOREP_REGION_NAMES_BEGIN\n"
                         "EXCLUDE *\n"
                         "SCOREP_REGION_NAMES_END\n"
                         "LIBWRAP_FILE_NAMES_BEGIN\n"
                         "EXCLUDE */private/*\n"
                         "LIBWRAP_FILE_NAMES_END\n"
                         "LIBWRAP_REGION_NAMES_BEGIN\n"
                         "INCLUDE keep_*\n"
                         "LIBWRAP_REGION_NAMES_END\n"
                         "SCOREP_FILE_NAMES_BEGIN\n"
                         "INCLUDE */private/ok.h\n"
                         "SCOREP_FILE_NAMES_END\n");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(excl(f, "drop"));
    CHECK(!excl(f, "keep_me"));
    CHECK(lw_filter_excludes_file(f, "/x/private/a.h"));
    CHECK(!lw_filter_excludes_file(f, "/x/private/ok.h"));
    CHECK(!lw_filter_excludes_file(f, "/x/public/a.h"));
    CHECK(lw_filter_excludes(f, "/x/private/a.h", "keep_me", "keep_me"));
    CHECK(!lw_filter_excludes(f, "/x/private/ok.h", "keep_me", "keep_me"));
    lw_filter_free(f);
}

/* A C++ name is matched with and without its parameter list. */
static void test_cxx_parameters(void)
{
    CHECK(lw_name_params_start("plain") == SIZE_MAX);
    CHECK(lw_name_params_start("ns::f(int)") == 5);
    CHECK(lw_name_params_start("ns::C::size() const") == 11);
    CHECK(lw_name_params_start("C::operator()(int)") == 13);
    CHECK(lw_name_params_start("C::operator()()") == 13);
    CHECK(lw_name_params_start("C::operator>(const C &) const") == 12);
    CHECK(lw_name_params_start("f(std::function<void (int)>)") == 1);
    CHECK(lw_name_params_start("C::C(const C &) [base object]") == 4);
    CHECK(lw_name_params_start("g() &&") == 1);
    lw_filter *f = parse("LIBWRAP_REGION_NAMES_BEGIN\n"
                         "EXCLUDE QPainter::drawEllipse\n"
                         "EXCLUDE QRegion::QRegion(const\\ QRect\\ &)\n"
                         "INCLUDE QPainter::drawEllipse(int,\\ int,\\ int,\\ int)\n"
                         "LIBWRAP_REGION_NAMES_END\n");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(lw_filter_excludes(f, NULL, "_ZN8QPainter11drawEllipseERK6QRectF",
                             "QPainter::drawEllipse(const QRectF &)"));
    CHECK(!lw_filter_excludes(f, NULL, "_ZN8QPainter11drawEllipseEiiii",
                              "QPainter::drawEllipse(int, int, int, int)"));
    CHECK(lw_filter_excludes(f, NULL, "_ZN7QRegionC1ERK5QRect", "QRegion::QRegion(const QRect &)"));
    CHECK(!lw_filter_excludes(f, NULL, "_ZN7QRegionC1Ev", "QRegion::QRegion()"));
    CHECK(!lw_filter_excludes(f, NULL, "_ZN8QPainter11drawEllipsesEv", "QPainter::drawEllipses()"));
    lw_filter_free(f);
}

/* A versioned symbol (foo@V1, foo@@V2) is matched with and without its
 * version, the later rule winning. */
static void test_versions(void)
{
    lw_filter *f = parse("LIBWRAP_REGION_NAMES_BEGIN\n"
                         "EXCLUDE numa_node_to_cpus\n"
                         "INCLUDE numa_node_to_cpus@@libnuma_1.2\n"
                         "EXCLUDE lzma_*@XZ_5.0 exp@*\n"
                         "LIBWRAP_REGION_NAMES_END\n");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(lw_filter_excludes(f, NULL, "numa_node_to_cpus@libnuma_1.1", "numa_node_to_cpus@libnuma_1.1"));
    CHECK(!lw_filter_excludes(f, NULL, "numa_node_to_cpus@@libnuma_1.2", "numa_node_to_cpus@@libnuma_1.2"));
    CHECK(lw_filter_excludes(f, NULL, "numa_node_to_cpus", "numa_node_to_cpus"));
    CHECK(lw_filter_excludes(f, NULL, "lzma_code@XZ_5.0", "lzma_code@XZ_5.0"));
    CHECK(!lw_filter_excludes(f, NULL, "lzma_code@@XZ_5.2", "lzma_code@@XZ_5.2"));
    CHECK(lw_filter_excludes(f, NULL, "exp@@GLIBC_2.29", "exp@@GLIBC_2.29"));
    CHECK(!lw_filter_excludes(f, NULL, "exp", "exp"));
    lw_filter_free(f);
}

static void test_mangled(void)
{
    lw_filter *f = parse("LIBWRAP_REGION_NAMES_BEGIN\n"
                         "EXCLUDE MANGLED _ZN2ns*\n"
                         "        _ZN5other*   # continuation keeps MANGLED\n"
                         "INCLUDE ns::keep* MANGLED _ZN2ns4keepEv DEMANGLED ns::also*\n"
                         "EXCLUDE DEMANGLED plain\n"
                         "LIBWRAP_REGION_NAMES_END\n");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(lw_filter_excludes(f, NULL, "_ZN2ns3fooEv", "ns::foo()"));
    CHECK(lw_filter_excludes(f, NULL, "_ZN5other3fooEv", "other::foo()"));
    /* The demangled pattern ns::keep* matches the readable name. */
    CHECK(!lw_filter_excludes(f, NULL, "_ZN2ns6keeperEv", "ns::keeper()"));
    CHECK(!lw_filter_excludes(f, NULL, "_ZN2ns4keepEv", "nothing::alike()"));
    CHECK(!lw_filter_excludes(f, NULL, "_ZN2ns7alsothisEv", "ns::alsothis()"));
    /* Mangled patterns do not see the readable name and vice versa. */
    CHECK(!lw_filter_excludes(f, NULL, "zzz", "_ZN2ns3fooEv"));
    CHECK(!lw_filter_excludes(f, NULL, "plain", "notplain"));
    CHECK(lw_filter_excludes(f, NULL, "notplain", "plain"));
    /* One name missing: the other stands in. */
    CHECK(lw_filter_excludes(f, NULL, "_ZN2ns3fooEv", NULL));
    CHECK(lw_filter_excludes(f, NULL, NULL, "plain"));
    CHECK(!lw_filter_excludes(f, NULL, NULL, NULL));
    lw_filter_free(f);

    /* A new rule starts DEMANGLED again. */
    f = parse("LIBWRAP_REGION_NAMES_BEGIN\n"
              "EXCLUDE MANGLED _Z*\n"
              "EXCLUDE x*\n"
              "LIBWRAP_REGION_NAMES_END\n");
    CHECK(f != NULL);
    if (f) {
        CHECK(lw_filter_excludes(f, NULL, "_Zabc", "abc"));
        CHECK(lw_filter_excludes(f, NULL, "abc", "xyz"));
        CHECK(!lw_filter_excludes(f, NULL, "xyz", "abc"));
        lw_filter_free(f);
    }
}

static void test_lexical(void)
{
    /* Comments anywhere, '\#' literal, keywords on one line, CRLF, tabs,
     * an escaped space inside a pattern. */
    lw_filter *f = parse("# leading comment\r\n"
                         "\r\n"
                         "LIBWRAP_REGION_NAMES_BEGIN # comment after keyword\r\n"
                         "\tEXCLUDE a#b c\r\n"
                         "  EXCLUDE x\\#y   # real comment\r\n"
                         "  EXCLUDE operator\\ new*\r\n"
                         "LIBWRAP_REGION_NAMES_END\r\n"
                         "LIBWRAP_REGION_NAMES_BEGIN EXCLUDE one INCLUDE on* EXCLUDE oz "
                         "LIBWRAP_REGION_NAMES_END");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(excl(f, "a"));
    CHECK(!excl(f, "a#b"));
    CHECK(!excl(f, "c")); /* after the '#': comment */
    CHECK(excl(f, "x#y"));
    CHECK(!excl(f, "x"));
    CHECK(lw_filter_excludes(f, NULL, "_Znwm", "operator new(unsigned long)"));
    CHECK(!lw_filter_excludes(f, NULL, "_Znwm", "operatornew"));
    CHECK(!excl(f, "one"));
    CHECK(excl(f, "oz"));
    lw_filter_free(f);

    /* Empty and comment-only filters include everything. */
    f = parse("");
    CHECK(f != NULL);
    CHECK(!excl(f, "x"));
    CHECK(!lw_filter_excludes_file(f, "/a.h"));
    lw_filter_free(f);
    f = parse("   # nothing here\n\n\t\n");
    CHECK(f != NULL);
    CHECK(!excl(f, "x"));
    lw_filter_free(f);
    f = lw_filter_parse(NULL, 0, "t.filter", NULL, 0);
    CHECK(f != NULL);
    lw_filter_free(f);

    /* Empty blocks are fine; the rule may start on the line after EXCLUDE. */
    f = parse("LIBWRAP_FILE_NAMES_BEGIN\nLIBWRAP_FILE_NAMES_END\n"
              "LIBWRAP_REGION_NAMES_BEGIN\nEXCLUDE\n  foo\nLIBWRAP_REGION_NAMES_END\n");
    CHECK(f != NULL);
    if (f) {
        CHECK(excl(f, "foo"));
        lw_filter_free(f);
    }

    /* Only len bytes are read. */
    const char *text = "LIBWRAP_REGION_NAMES_BEGIN EXCLUDE a LIBWRAP_REGION_NAMES_END garbage";
    char err[256];
    f = lw_filter_parse(text, strlen(text) - strlen(" garbage"), "t", err, sizeof err);
    CHECK(f != NULL);
    if (f) {
        CHECK(excl(f, "a"));
        lw_filter_free(f);
    }

    /* A UTF-8 byte order mark at the start is skipped (some editors
     * write one); names that only resemble keywords stay patterns. */
    f = parse("\xEF\xBB\xBFLIBWRAP_REGION_NAMES_BEGIN EXCLUDE a libwrap_x_end SCOREP_User_RegionEnd "
              "LIBWRAP_REGION_NAMES_END");
    CHECK(f != NULL);
    if (f) {
        CHECK(excl(f, "a"));
        CHECK(excl(f, "libwrap_x_end"));
        CHECK(excl(f, "SCOREP_User_RegionEnd"));
        lw_filter_free(f);
    }

    /* NULL filter excludes nothing. */
    CHECK(!lw_filter_excludes(NULL, "/a.h", "x", "x"));
    CHECK(!lw_filter_excludes_file(NULL, "/a.h"));
}

static void test_errors(void)
{
    EXPECT_ERROR("EXCLUDE foo\n",
                 "t.filter:1: 'EXCLUDE' outside a block: expected LIBWRAP_FILE_NAMES_BEGIN or "
                 "LIBWRAP_REGION_NAMES_BEGIN");
    EXPECT_ERROR("# comment\n\n  stray # more\n",
                 "t.filter:3: 'stray' outside a block: expected LIBWRAP_FILE_NAMES_BEGIN or "
                 "LIBWRAP_REGION_NAMES_BEGIN");
    EXPECT_ERROR("LIBWRAP_FUNCTION_NAMES_BEGIN\n",
                 "t.filter:1: unknown block keyword 'LIBWRAP_FUNCTION_NAMES_BEGIN': expected "
                 "LIBWRAP_FILE_NAMES_BEGIN or LIBWRAP_REGION_NAMES_BEGIN (or the SCOREP_ "
                 "spellings)");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\nEXCLUDE a\nLIBWRAP_REGION_NAME_END\n",
                 "t.filter:3: unknown block keyword 'LIBWRAP_REGION_NAME_END': expected "
                 "LIBWRAP_REGION_NAMES_END or a pattern");
    /* A keyword one slip away, or cut short, is named where it is, not
     * as a block left open at the end of the text. */
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\nEXCLUDE a\nLIBWRAP_REGION_NAMES_ENDD\n\n\n",
                 "t.filter:3: unknown block keyword 'LIBWRAP_REGION_NAMES_ENDD': expected "
                 "LIBWRAP_REGION_NAMES_END or a pattern");
    EXPECT_ERROR("SCOREP_FILE_NAMES_BEGIN\nEXCLUDE a\nSCOREP_FILE_NAMES_EDN\n",
                 "t.filter:3: unknown block keyword 'SCOREP_FILE_NAMES_EDN': expected "
                 "SCOREP_FILE_NAMES_END or a pattern");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\nEXCLUDE a\nLIBWRAP_REGION_NAMES_end\n",
                 "t.filter:3: unknown block keyword 'LIBWRAP_REGION_NAMES_end': expected "
                 "LIBWRAP_REGION_NAMES_END or a pattern");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\nEXCLUDE a\nLIBWRAP_REGION_NAMES\n",
                 "t.filter:3: unknown block keyword 'LIBWRAP_REGION_NAMES': expected "
                 "LIBWRAP_REGION_NAMES_END or a pattern");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGN\n",
                 "t.filter:1: unknown block keyword 'LIBWRAP_REGION_NAMES_BEGN': expected "
                 "LIBWRAP_FILE_NAMES_BEGIN or LIBWRAP_REGION_NAMES_BEGIN (or the SCOREP_ "
                 "spellings)");
    EXPECT_ERROR("\nLIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE a\n\n",
                 "t.filter:4: LIBWRAP_REGION_NAMES_BEGIN at line 2 is not closed by "
                 "LIBWRAP_REGION_NAMES_END");
    EXPECT_ERROR("SCOREP_FILE_NAMES_BEGIN\n  EXCLUDE a",
                 "t.filter:2: SCOREP_FILE_NAMES_BEGIN at line 1 is not closed by "
                 "SCOREP_FILE_NAMES_END");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_END\n",
                 "t.filter:1: LIBWRAP_REGION_NAMES_END outside a block: expected "
                 "LIBWRAP_REGION_NAMES_BEGIN before it");
    EXPECT_ERROR("LIBWRAP_FILE_NAMES_BEGIN\nLIBWRAP_FILE_NAMES_END\nSCOREP_FILE_NAMES_END\n",
                 "t.filter:3: SCOREP_FILE_NAMES_END outside a block: expected "
                 "SCOREP_FILE_NAMES_BEGIN before it");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\n EXCLUDE a\n LIBWRAP_FILE_NAMES_BEGIN\n",
                 "t.filter:3: LIBWRAP_FILE_NAMES_BEGIN inside the block opened at line 1: "
                 "expected LIBWRAP_REGION_NAMES_END first");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\n EXCLUDE a\nLIBWRAP_FILE_NAMES_END\n",
                 "t.filter:3: LIBWRAP_FILE_NAMES_END does not close LIBWRAP_REGION_NAMES_BEGIN "
                 "at line 1: expected LIBWRAP_REGION_NAMES_END");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\n EXCLUDE a\nSCOREP_REGION_NAMES_END\n",
                 "t.filter:3: SCOREP_REGION_NAMES_END does not close LIBWRAP_REGION_NAMES_BEGIN "
                 "at line 1: expected LIBWRAP_REGION_NAMES_END");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\n  foo\n",
                 "t.filter:2: expected EXCLUDE or INCLUDE before pattern 'foo'");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\n  MANGLED _Z*\n",
                 "t.filter:2: expected EXCLUDE or INCLUDE before MANGLED");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\n  exclude foo\n",
                 "t.filter:2: expected EXCLUDE or INCLUDE before pattern 'exclude'");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE\n  INCLUDE a\n",
                 "t.filter:2: EXCLUDE without a pattern: expected one or more region name "
                 "patterns");
    EXPECT_ERROR(
        "LIBWRAP_REGION_NAMES_BEGIN\n  INCLUDE MANGLED # nothing\nLIBWRAP_REGION_NAMES_END\n",
        "t.filter:2: INCLUDE without a pattern: expected one or more region name "
        "patterns");
    EXPECT_ERROR("LIBWRAP_FILE_NAMES_BEGIN\n  EXCLUDE\nLIBWRAP_FILE_NAMES_END\n",
                 "t.filter:2: EXCLUDE without a pattern: expected one or more file name "
                 "patterns");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE ok\n\n     v[0-9\n",
                 "t.filter:4: unterminated '[' in pattern 'v[0-9': expected ']'");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE []\n",
                 "t.filter:2: unterminated '[' in pattern '[]': expected ']'");
    EXPECT_ERROR("LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE a[\\]\n",
                 "t.filter:2: unterminated '[' in pattern 'a[\\]': expected ']'");
    EXPECT_ERROR("LIBWRAP_FILE_NAMES_BEGIN\n  EXCLUDE MANGLED *.h\n",
                 "t.filter:2: MANGLED in a file block: expected file name patterns (MANGLED and "
                 "DEMANGLED apply to region names only)");
    EXPECT_ERROR("LIBWRAP_FILE_NAMES_BEGIN\n  INCLUDE *.h DEMANGLED\n",
                 "t.filter:2: DEMANGLED in a file block: expected file name patterns (MANGLED "
                 "and DEMANGLED apply to region names only)");
    {
        static const char nul[] = "LIBWRAP_REGION_NAMES_BEGIN\nEXCLUDE a\0b\n";
        char err[256];
        lw_filter *f = lw_filter_parse(nul, sizeof nul - 1, "t.filter", err, sizeof err);
        CHECK(f == NULL);
        CHECK(f == NULL && strcmp(err, "t.filter:2: NUL byte in the filter: expected text") == 0);
        lw_filter_free(f);
    }

    /* A '[' escaped or inside a bracket expression is no error. */
    lw_filter *f = parse("LIBWRAP_REGION_NAMES_BEGIN EXCLUDE a\\[ b[[] LIBWRAP_REGION_NAMES_END");
    CHECK(f != NULL);
    if (f) {
        CHECK(excl(f, "a["));
        CHECK(excl(f, "b["));
        lw_filter_free(f);
    }

    /* The message is cut to errlen, always terminated; no buffer is fine. */
    char small[12];
    memset(small, 'x', sizeof small);
    f = lw_filter_parse("EXCLUDE", 7, "a-long-origin.filter", small, sizeof small);
    CHECK(f == NULL);
    CHECK(memchr(small, '\0', sizeof small) != NULL);
    CHECK(strncmp(small, "a-long-orig", 11) == 0);
    f = lw_filter_parse("EXCLUDE", 7, "o", NULL, 0);
    CHECK(f == NULL);

    /* A default origin when none is given. */
    char err[256];
    f = lw_filter_parse("x", 1, NULL, err, sizeof err);
    CHECK(f == NULL && strncmp(err, "<filter>:1: ", 12) == 0);
}

static void test_load(void)
{
    char err[512];
    lw_filter *f = lw_filter_load("/nonexistent/dir/app.filter", err, sizeof err);
    CHECK(f == NULL);
    CHECK(strcmp(err, "/nonexistent/dir/app.filter: cannot open the filter file: "
                      "No such file or directory") == 0);

    const char *dir = getenv("LIBWRAP_SCRATCH");
    char path[4096];
    snprintf(path, sizeof path, "%s/filter_test.%ld.filter", dir && *dir ? dir : "/tmp",
             (long)getpid());
    FILE *out = fopen(path, "w");
    CHECK(out != NULL);
    if (!out)
        return;
    /* Large enough to need several reads. */
    fputs("LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE\n", out);
    for (int i = 0; i < 2000; i++)
        fprintf(out, "    generated_name_%d\n", i);
    fputs("LIBWRAP_REGION_NAMES_END\n", out);
    fclose(out);
    f = lw_filter_load(path, err, sizeof err);
    CHECK(f != NULL);
    if (f) {
        CHECK(excl(f, "generated_name_0"));
        CHECK(excl(f, "generated_name_1999"));
        CHECK(!excl(f, "generated_name_2000"));
        lw_filter_free(f);
    }

    out = fopen(path, "w");
    CHECK(out != NULL);
    if (out) {
        fputs("LIBWRAP_REGION_NAMES_BEGIN\n  oops\n", out);
        fclose(out);
        f = lw_filter_load(path, err, sizeof err);
        CHECK(f == NULL);
        char expected[4200];
        snprintf(expected, sizeof expected,
                 "%s:2: expected EXCLUDE or INCLUDE before pattern 'oops'", path);
        CHECK(strcmp(err, expected) == 0);
    }
    unlink(path);
}

/* Random filters over a small vocabulary, checked against a direct reading
 * of the rules: walk them all in order and keep the last match. This covers
 * the matcher's split into literal names (binary search) and globs. */
struct ref_rule {
    const char *pattern;
    bool exclude, mangled;
};

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

static unsigned rng(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

static void test_random_against_reference(void)
{
    static const char *const patterns[] = {"a",  "b",     "ab",  "_Za", "_Zb", "a*",   "*b",
                                           "?b", "[ab]b", "_Z*", "*",   "abc", "a\\b", "_Z?"};
    static const char *const names[][2] = {
        {"a", "a"},     {"b", "b"},     {"ab", "ab"}, {"_Za", "a"}, {"_Zb", "b"},
        {"_Zab", "ab"}, {"abc", "abc"}, {"bb", "bb"}, {"_Za", "x"}, {"x", "_Zb"},
    };
    const size_t npat = sizeof patterns / sizeof patterns[0];
    const size_t nnames = sizeof names / sizeof names[0];
    int mismatches = 0;

    for (int round = 0; round < 300; round++) {
        struct ref_rule rules[64];
        size_t nrules = 0;
        char text[4096];
        size_t len = 0;
        len += (size_t)snprintf(text + len, sizeof text - len, "LIBWRAP_REGION_NAMES_BEGIN\n");
        unsigned nr = 1 + rng(10);
        for (unsigned r = 0; r < nr; r++) {
            bool exclude = rng(2);
            bool mangled = false;
            len += (size_t)snprintf(text + len, sizeof text - len, "%s",
                                    exclude ? "EXCLUDE" : "INCLUDE");
            unsigned np = 1 + rng(4);
            for (unsigned k = 0; k < np; k++) {
                if (rng(4) == 0) {
                    mangled = !mangled;
                    len += (size_t)snprintf(text + len, sizeof text - len, " %s",
                                            mangled ? "MANGLED" : "DEMANGLED");
                }
                const char *pat = patterns[rng((unsigned)npat)];
                /* Sometimes on a continuation line. */
                len += (size_t)snprintf(text + len, sizeof text - len, "%s%s",
                                        rng(3) == 0 ? "\n   " : " ", pat);
                rules[nrules++] = (struct ref_rule){pat, exclude, mangled};
            }
            len += (size_t)snprintf(text + len, sizeof text - len, "\n");
            /* Sometimes close the block and open another one. */
            if (rng(4) == 0)
                len += (size_t)snprintf(text + len, sizeof text - len,
                                        "LIBWRAP_REGION_NAMES_END\nSCOREP_REGION_NAMES_BEGIN\n"
                                        "SCOREP_REGION_NAMES_END\nLIBWRAP_REGION_NAMES_BEGIN\n");
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "LIBWRAP_REGION_NAMES_END\n");
        CHECK(len < sizeof text);
        lw_filter *f = parse(text);
        CHECK(f != NULL);
        if (!f)
            continue;
        for (size_t q = 0; q < nnames; q++) {
            const char *mangled = names[q][0], *readable = names[q][1];
            bool expected = false;
            for (size_t i = 0; i < nrules; i++)
                if (lw_glob_match(rules[i].pattern, rules[i].mangled ? mangled : readable))
                    expected = rules[i].exclude;
            if (lw_filter_excludes(f, NULL, mangled, readable) != expected && mismatches++ < 3)
                fprintf(stderr, "mismatch for %s/%s (expected %s) in:\n%s\n", mangled, readable,
                        expected ? "exclude" : "include", text);
        }
        lw_filter_free(f);
    }
    CHECK(mismatches == 0);
}

/* Matching from several threads at once on one filter (the header allows
 * it): results must equal the single-threaded ones. Run under TSan in
 * common_filter_unit_tsan, this also catches any write a matcher might make. */
#define THREAD_NAMES 2000

struct thread_job {
    const lw_filter *filter;
    const bool *expected;
    int wrong;
};

static void thread_name(char *buf, size_t len, int i)
{
    snprintf(buf, len, i % 3 ? "func_%d" : "keep_%d", i);
}

static void *thread_main(void *arg)
{
    struct thread_job *job = arg;
    char name[32];
    for (int round = 0; round < 5; round++)
        for (int i = 0; i < THREAD_NAMES; i++) {
            thread_name(name, sizeof name, i);
            if (lw_filter_excludes(job->filter, "/usr/include/x.h", name, name) != job->expected[i])
                job->wrong++;
        }
    return NULL;
}

static void test_threads(void)
{
    lw_filter *f = parse("LIBWRAP_REGION_NAMES_BEGIN\n"
                         "  EXCLUDE func_*1 keep_3 func_2\n"
                         "  INCLUDE func_11*\n"
                         "LIBWRAP_REGION_NAMES_END\n");
    CHECK(f != NULL);
    if (!f)
        return;
    static bool expected[THREAD_NAMES];
    char name[32];
    int excluded = 0;
    for (int i = 0; i < THREAD_NAMES; i++) {
        thread_name(name, sizeof name, i);
        expected[i] = lw_filter_excludes(f, "/usr/include/x.h", name, name);
        excluded += expected[i];
    }
    CHECK(excluded > 0 && excluded < THREAD_NAMES);
    struct thread_job jobs[4];
    pthread_t tids[4];
    for (int t = 0; t < 4; t++) {
        jobs[t] = (struct thread_job){f, expected, 0};
        CHECK(pthread_create(&tids[t], NULL, thread_main, &jobs[t]) == 0);
    }
    for (int t = 0; t < 4; t++) {
        pthread_join(tids[t], NULL);
        CHECK(jobs[t].wrong == 0);
    }
    lw_filter_free(f);
}

int main(void)
{
    test_glob();
    test_spec_example();
    test_last_match_wins();
    test_blocks_accumulate();
    test_mangled();
    test_versions();
    test_cxx_parameters();
    test_lexical();
    test_errors();
    test_load();
    test_random_against_reference();
    test_threads();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
