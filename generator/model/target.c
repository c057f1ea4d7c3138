/*
 * target.c - the machine the wrappers are generated for (target.h).
 */
#include "model/target.h"

#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *target_arch(const char *triple)
{
    static char arch[64];
    if (!triple || !*triple) {
#if defined(__x86_64__)
        return "x86_64";
#elif defined(__aarch64__)
        return "aarch64";
#else
        return "other";
#endif
    }
    size_t n = strcspn(triple, "-");
    if (n >= sizeof arch)
        n = sizeof arch - 1;
    memcpy(arch, triple, n);
    arch[n] = '\0';
    if (!strcmp(arch, "amd64"))
        return "x86_64";
    if (!strcmp(arch, "arm64"))
        return "aarch64";
    return arch;
}

bool target_has_abi(const char *arch)
{
    return !strcmp(arch, "x86_64") || !strcmp(arch, "aarch64");
}

char *target_clang_arg(const char *triple)
{
    if (!triple || !*triple)
        return NULL;
    return xstrdup_printf("--target=%s", triple);
}

/* An SVE vector or predicate type in a canonical spelling: clang's builtin
 * __SVInt32_t, __SVBool_t, the tuples __clang_svint32x2_t. */
static bool is_sve_type(const char *canonical)
{
    return canonical && (strstr(canonical, "__SV") || strstr(canonical, "__clang_sv"));
}

static bool uses_sve(const lwg_function *f)
{
    if (is_sve_type(f->ret_canonical) || (f->declarator && (strstr(f->declarator, "sve_vector_pcs") ||
                                                            strstr(f->declarator, "aarch64_sve_pcs"))))
        return true;
    for (size_t i = 0; i < f->nparams; i++)
        if (is_sve_type(f->params[i].canonical))
            return true;
    return false;
}

size_t target_adjust_inventory(lwg_inventory *inv, const char *arch)
{
    if (strcmp(arch, "aarch64") != 0)
        return 0;
    size_t left_out = 0;
    for (size_t i = 0; i < inv->nfuncs; i++) {
        lwg_function *f = &inv->funcs[i];
        f->ret_arg.abi = 0;
        for (size_t k = 0; k < f->nparams; k++)
            f->params[k].arg.abi = 0;
        if (f->skip == LWG_WRAP && uses_sve(f)) {
            f->skip = LWG_SKIP_UNSUPPORTED;
            free(f->skip_detail);
            f->skip_detail = xstrdup("SVE vector or predicate registers (the SVE vector PCS): the AArch64 "
                                     "trampoline keeps the base PCS's registers only; generate typed "
                                     "wrappers (--forward typed) to wrap it");
            left_out++;
        }
    }
    return left_out;
}
