/*
 * parse.c - libwrap.i through libclang into the inventory (see parse.h):
 * the source with gcc's spellings rewritten (gcc_spelling.c), parsed, its
 * diagnostics judged (diagnostics.c), every declaration visited
 * (visitor.c, cxx.c), one entry kept per symbol (duplicates.c).
 */
#include "parse/parse.h"
#include "parse/language.h"
#include "model/target.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/internal.h"
#include "util/fileio.h"
#include "util/strbuf.h"


static char *read_source(const char *path, size_t *len)
{
    char *text = read_whole_file(path, len);
    if (!text)
        fprintf(stderr, "libwrap-gen: %s: %s (run make to preprocess libwrap.h first)\n", path,
                strerror(errno));
    return text;
}


int parse_inventory(lwg_inventory *inv, const lwg_parse_options *opt)
{
    int rc = -1;
    bool cxx = parse_language_is_cxx(opt->language);
    size_t len = 0, rlen = 0;
    char *text = read_source(opt->source, &len);
    if (!text)
        return -1;
    char *rewritten = parse_gcc_spelling(text, len, &rlen);

    const char *args[16];
    int nargs = 0;
    char *std = NULL;
    args[nargs++] = "-x";
    args[nargs++] = cxx ? "c++" : "c";
    if (opt->language && strcmp(opt->language, "c") != 0 && strcmp(opt->language, "c++") != 0) {
        std = xstrdup_printf("-std=%s", opt->language);
        args[nargs++] = std;
    } else if (cxx) {
        /* g++'s default, which libclang 14 (gnu++14) does not share: the
         * library headers preprocessed by g++ chose their branches by it. */
        args[nargs++] = "-std=gnu++17";
    }
    args[nargs++] = "-include";
    args[nargs++] = parse_prelude_name;
    /* Warnings about gcc-only attributes in system headers are noise here;
     * only errors decide. */
    args[nargs++] = "-w";
    /* Every error, each costing only its declaration: past libclang's
     * default of 20 it would stop with a fatal "too many errors". */
    args[nargs++] = "-ferror-limit=0";
    /* The wrappers' machine: type sizes, long double, builtins (model/target.h). */
    char *target_arg = target_clang_arg(opt->target);
    if (target_arg)
        args[nargs++] = target_arg;
    if (strcmp(target_arch(opt->target), "aarch64") == 0) {
        /* __bf16 (gcc's arm_bf16.h, the prelude's __Bfloat16x4_t), which
         * libclang 14 knows on AArch64 only with the feature. */
        args[nargs++] = "-Xclang";
        args[nargs++] = "-target-feature";
        args[nargs++] = "-Xclang";
        args[nargs++] = "+bf16";
    }

    struct CXUnsavedFile unsaved[2] = {
        {parse_prelude_name, parse_prelude_c, parse_prelude_len},
        {opt->source, rewritten ? rewritten : text, rewritten ? rlen : len},
    };

    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    if (!index) {
        fprintf(stderr, "libwrap-gen: libclang could not create an index\n");
        goto out_text;
    }
    unsigned flags = CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_KeepGoing;
    enum CXErrorCode err = clang_parseTranslationUnit2(index, opt->source, args, nargs, unsaved, 2,
                                                       flags, &tu);
    if (err != CXError_Success || !tu) {
        fprintf(stderr, "libwrap-gen: %s: libclang failed to parse (error code %d)%s\n", opt->source,
                (int)err,
                err == CXError_ASTReadError ? "" : "; check that the file exists and is readable");
        goto out_index;
    }
    char *main_file = main_file_of(text, len);
    parse_errors errors;
    collect_errors(tu, cxx, main_file, &errors);
    free(main_file);
    unsigned stop = stopping_errors(&errors);
    if (stop) {
        fprintf(stderr, "libwrap-gen: %s: %u error%s; fix the includes or flags in libwrap.h\n",
                opt->source, stop, stop == 1 ? "" : "s");
        free_errors(&errors);
        goto out_tu;
    }

    free(inv->source);
    free(inv->language);
    inv->source = xstrdup(opt->source);
    inv->language = xstrdup(cxx ? "c++" : "c");
    visit_ctx ctx = {inv, opt, cxx, NULL, 0, &errors, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), decl_visitor, &ctx);
    unify_redeclarations(inv, ctx.usr, cxx);
    for (size_t i = 0; i < inv->nfuncs; i++)
        free(ctx.usr[i]);
    free(ctx.usr);
    mark_duplicates(inv);
    if (cxx)
        list_function_instantiations(tu, inv);
    list_dropped_declarations(inv, &errors, rewritten ? rewritten : text, rewritten ? rlen : len);
    warn_unused_errors(&errors);
    free_errors(&errors);
    rc = 0;

out_tu:
    clang_disposeTranslationUnit(tu);
out_index:
    clang_disposeIndex(index);
out_text:
    free(std);
    free(target_arg);
    free(rewritten);
    free(text);
    return rc;
}

