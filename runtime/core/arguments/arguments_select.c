/*
 * arguments_select.c - which arguments are recorded: LIBWRAP_ARGUMENTS
 * (docs/arguments.md), a comma list of rules
 *
 *     FUNCTION_GLOB:PARAM_GLOB   parameters by name; "return" is the result
 *     sizes                      every size_t and ssize_t parameter and result
 *
 * matched when a region registers (region lock held), with the globs of the
 * filters (common/filter.c): a function by its symbol, its readable name,
 * or a C++ name without its parameter list. The result is the region's
 * record mask, which its wrapper tests on every call.
 *
 * Names that match nothing are worth one warning per rule. A rule naming
 * one function exactly is settled when that function registers, and warns
 * then; a glob may still match a function registered later, so its
 * warnings wait for the end of the process.
 */
#include "core/arguments/arguments.h"
#include "core/measure/hooks.h"
#include "filter.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct lw_argrule {
    char *text;        /* as written, for messages */
    char *func, *param; /* globs; func NULL for `sizes` */
    int exact;         /* func names one function (no glob character) */
    int warned;
    unsigned long funcs, params, selected; /* matched so far */
    char *first;       /* the first function matched, and its parameters */
    char *first_params;
    char *unrecordable; /* why the first matched parameter cannot be recorded */
    char *near;        /* no function matched yet: one whose name holds func (lw_name_renames) */
} lw_argrule;

static lw_argrule *lw_rules;
static size_t lw_nrules;

static int lw_has_glob(const char *s)
{
    return strpbrk(s, "*?[") != NULL;
}

static void lw_trim(char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*n)--;
    }
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
        (*n)--;
}

#if defined(__x86_64__)
int lw_cpu_lzcnt;
#endif

void lw_args_init(void)
{
#if defined(__x86_64__)
    /* CPUID 0x80000001: ECX bit 5, LZCNT (ABM). */
    unsigned eax, ebx, ecx, edx;
    lw_cpu_lzcnt = __get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx) && (ecx >> 5 & 1);
#endif
    lw_region_args_select = lw_args_select;
    const char *v = lw_cfg.arguments;
    if (!v)
        return;
    size_t cap = 1;
    for (const char *p = v; *p; p++)
        cap += *p == ',';
    lw_rules = calloc(cap, sizeof *lw_rules);
    if (!lw_rules) {
        lw_warn("LIBWRAP_ARGUMENTS: out of memory; nothing is recorded");
        return;
    }
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ",");
        char *item = (char *)p;
        size_t len = n;
        p += n + (p[n] == ',');
        lw_trim(&item, &len);
        if (!len)
            continue;
        lw_argrule *r = &lw_rules[lw_nrules];
        r->text = strndup(item, len);
        if (!r->text)
            continue;
        if (strcmp(r->text, "sizes") == 0) {
            lw_nrules++;
            continue;
        }
        /* The parameter follows the last ':' (C++ names have "::"). */
        char *colon = strrchr(r->text, ':');
        if (!colon || colon == r->text || !colon[1] || colon[-1] == ':') {
            lw_warn("LIBWRAP_ARGUMENTS: \"%s\" is not a rule (expected FUNCTION:PARAMETER, "
                    "FUNCTION:return or sizes; globs * ? [...] allowed); it is ignored",
                    r->text);
            free(r->text);
            r->text = NULL;
            continue;
        }
        r->func = strndup(r->text, (size_t)(colon - r->text));
        r->param = strdup(colon + 1);
        if (!r->func || !r->param) {
            free(r->func);
            free(r->param);
            free(r->text);
            memset(r, 0, sizeof *r);
            continue;
        }
        r->exact = !lw_has_glob(r->func);
        lw_nrules++;
    }
    lw_log(LW_LOG_REGION, "LIBWRAP_ARGUMENTS: %zu rule(s)", lw_nrules);
}

/* 1: the glob matches the symbol or the readable name, or either without
 * its version (`pci_fill_info` takes `pci_fill_info@@LIBPCI_3.8` and every
 * other version, as the filter does), 2: a C++ name without its
 * parameters (an overload of several), 0: no match. */
static int lw_func_matches(const char *glob, const libwrap_region *r, const char *name)
{
    if (lw_glob_match_unversioned(glob, r->symbol) || lw_glob_match_unversioned(glob, name))
        return 1;
    size_t k = lw_name_params_start(name);
    if (k == SIZE_MAX)
        return 0;
    char *bare = strndup(name, k);
    int m = bare && lw_glob_match(glob, bare) ? 2 : 0;
    free(bare);
    return m;
}

/* Why entry `i` cannot be recorded, or NULL. */
static const char *lw_unrecordable(const libwrap_params *p, uint32_t i, int abi)
{
    const libwrap_param *d = &p->param[i];
    if (d->kind == LIBWRAP_PARAM_FORTRAN_CHAR)
        return "cannot be recorded: a Fortran CHARACTER argument (the function has the Fortran "
               "ABI, its name ends in '_'), which is not a NUL-terminated C string; its length "
               "is passed as a hidden argument after the declared ones";
    if (d->kind == LIBWRAP_PARAM_NONE || d->kind > LIBWRAP_PARAM_ENUM || !d->width || d->width > 8)
        return "cannot be recorded: only integers, enums, bool, float, double and C strings "
               "(const char *) can";
    if (i >= LIBWRAP_PARAMS_MAX)
        return "cannot be recorded: only the first 64 parameters of a function can";
    if (abi && lw_param_loc(d) == LIBWRAP_PARAM_ABI_UNKNOWN)
#if defined(__aarch64__)
        return "cannot be recorded by ABI-level wrappers: it comes after a parameter whose "
               "registers libwrap-gen does not know (a union, a struct with a vector inside, a C++ "
               "class template's specialization, passed by value), or "
               "the wrappers were generated before AArch64 locations were (generate them again); "
               "typed wrappers (--forward typed) record it";
#else
        return "cannot be recorded by ABI-level wrappers: libwrap-gen does not know its register, "
               "after a parameter passed by value, or a result returned by value, whose registers "
               "it does not know (a struct with a vector inside, a C++ class template's "
               "specialization, a class with a virtual base or several bases); generate typed "
               "wrappers (--forward typed) to record it";
#endif
    return NULL;
}

/* "file, buf, len, return". */
static char *lw_param_list(const libwrap_params *p)
{
    size_t len = 1;
    for (uint32_t i = 0; i < p->n; i++)
        len += strlen(p->param[i].name ? p->param[i].name : "?") + 2;
    char *s = malloc(len + 8);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (uint32_t i = 0; i < p->n; i++) {
        if (i)
            strcat(s, ", ");
        strcat(s, p->param[i].name ? p->param[i].name : "?");
    }
    if (!p->n)
        strcpy(s, "none");
    return s;
}


/* The end: rules that name no function are settled then. */
static int lw_args_ended;

static void lw_rule_warn(lw_argrule *r)
{
    if (r->warned)
        return;
    if (!r->func) {
        /* "sizes": settled at the end only. */
        if (!r->selected && lw_args_ended)
            lw_warn("LIBWRAP_ARGUMENTS: no function %s (pid %ld) called has a parameter declared "
                    "size_t or ssize_t (rule \"sizes\"): it recorded nothing (a library's own size "
                    "types, such as GLib's gsize, are other types: name such parameters, "
                    "FUNCTION:PARAMETER)", lw_program_name(), (long)getpid());
        r->warned = lw_args_ended;
        return;
    }
    /* Of this process: in a run of several (a shell's commands, a
     * program's children) another may have called it and recorded it.
     * Nothing where it names functions of wrapped libraries this process
     * has not loaded (gpg's rule for libnpth, which only gpg-agent uses). */
    if (!r->funcs && lw_hook->functions_unloaded && lw_hook->functions_unloaded(r->func)) {
        r->warned = 1;
        return;
    }
    if (!r->funcs && r->near)
        lw_warn("LIBWRAP_ARGUMENTS: no function %s (pid %ld) called matches \"%s\" (rule \"%s\"): "
                "it recorded nothing for it; did you mean %s (the header renames it)?",
                lw_program_name(), (long)getpid(), r->func, r->text, r->near);
    else if (!r->funcs)
        lw_warn("LIBWRAP_ARGUMENTS: no function %s (pid %ld) called matches \"%s\" (rule \"%s\"): "
                "it recorded nothing for it",
                lw_program_name(), (long)getpid(), r->func, r->text);
    else if (!r->params && r->funcs == 1)
        lw_warn("LIBWRAP_ARGUMENTS: %s has no parameter \"%s\" (rule \"%s\"); it has: %s",
                r->first, r->param, r->text, r->first_params ? r->first_params : "?");
    else if (!r->params)
        lw_warn("LIBWRAP_ARGUMENTS: none of the %lu functions matching \"%s\" has a parameter "
                "\"%s\" (rule \"%s\"); %s has: %s",
                r->funcs, r->func, r->param, r->text, r->first, r->first_params ? r->first_params : "?");
    else if (!r->selected)
        lw_warn("LIBWRAP_ARGUMENTS: %s (rule \"%s\")", r->unrecordable ? r->unrecordable : "?",
                r->text);
    else
        return;
    r->warned = 1;
}

uint64_t lw_args_select(int32_t id, const libwrap_region *region, const libwrap_params *p, int abi)
{
    if (!lw_nrules || !p || !p->param)
        return 0;
    uint32_t n = p->n < LIBWRAP_PARAMS_MAX ? p->n : LIBWRAP_PARAMS_MAX;
    const char *name = lw_region_name(id);
    uint64_t mask = 0;
    for (size_t k = 0; k < lw_nrules; k++) {
        lw_argrule *r = &lw_rules[k];
        if (!r->func) {
            for (uint32_t i = 0; i < n; i++)
                if ((p->param[i].flags & LIBWRAP_PARAM_SIZE) && !lw_unrecordable(p, i, abi)) {
                    mask |= 1ull << i;
                    r->selected++;
                }
            continue;
        }
        int how = lw_func_matches(r->func, region, name);
        if (!how) {
            if (r->exact && !r->near && !r->funcs && lw_name_renames(name, r->func))
                r->near = strdup(name);
            continue;
        }
        if (!r->funcs++) {
            r->first = strdup(name);
            r->first_params = lw_param_list(p);
        }
        for (uint32_t i = 0; i < p->n; i++) {
            const char *pname = p->param[i].name ? p->param[i].name : "";
            if (!lw_glob_match(r->param, pname))
                continue;
            r->params++;
            const char *why = lw_unrecordable(p, i, abi);
            if (!why) {
                mask |= 1ull << i;
                r->selected++;
                lw_log(LW_LOG_REGION, "%s: recording %s (%s)", region->symbol, pname,
                       p->param[i].type ? p->param[i].type : "?");
            } else if (!r->unrecordable &&
                       asprintf(&r->unrecordable, "%s: %s \"%s\" (%s) %s", name,
                                p->param[i].flags & LIBWRAP_PARAM_RESULT ? "the result" : "parameter",
                                pname, p->param[i].type ? p->param[i].type : "?", why) < 0) {
                r->unrecordable = NULL;
            }
        }
        /* Named exactly: this was the function; the rule is settled. */
        if (r->exact && how == 1)
            lw_rule_warn(r);
    }
    return mask;
}

void lw_args_warn_unmatched(void)
{
    lw_args_ended = 1;
    for (size_t k = 0; k < lw_nrules; k++)
        lw_rule_warn(&lw_rules[k]);
}
