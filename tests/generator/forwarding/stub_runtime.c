/*
 * stub_runtime.c - a stand-in for the measurement runtime (libwrap.h) that
 * makes the wrappers' obligations visible:
 *   - counts regions, enters and exits and writes "regions=R enters=E
 *     exits=X" to $STUB_COUNT_FILE at exit;
 *   - keeps errno, as libwrap.h promises of the real runtime (the wrappers
 *     leave errno to it; the real runtime's keeping is what
 *     generator_fwd_real_runtime and runtime_errno check);
 *   - excludes every region when STUB_EXCLUDE_ALL is set (the wrappers'
 *     filtered fast path);
 *   - warns on EVERY call of libwrap_resolve_fallback that finds nothing, so
 *     "exactly one warning" proves that a wrapper disables itself;
 *   - with STUB_RECORD_ALL set, selects every parameter and result that
 *     can be recorded (argument recording), counts the values the wrappers
 *     hand over ("values=V"), keeping errno there too.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#define LIBWRAP_BUILDING_RUNTIME
#include <libwrap/libwrap.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int regions, enters, exits, values;
static __thread int resolving;

int32_t libwrap_region_register(libwrap_region *region)
{
    int32_t id = getenv("STUB_EXCLUDE_ALL") ? -1 : __atomic_add_fetch(&regions, 1, __ATOMIC_SEQ_CST);
    int32_t expected = 0;
    if (!__atomic_compare_exchange_n(&region->id, &expected, id, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return expected;
    return id;
}

int32_t libwrap_region_register_params(libwrap_region *region, libwrap_params *params)
{
    if (getenv("STUB_RECORD_ALL") && params->record == 0) {
        uint64_t mask = 0;
        for (uint32_t i = 0; i < params->n && i < LIBWRAP_PARAMS_MAX; i++)
            if (params->param[i].kind != LIBWRAP_PARAM_NONE)
                mask |= 1ull << i;
        __atomic_store_n(&params->record, mask, __ATOMIC_RELAXED);
    }
    return libwrap_region_register(region);
}

void libwrap_record_params(int32_t id, libwrap_params *params, const uint64_t *v)
{
    if (id <= 0 || !params->record)
        abort();
    for (uint32_t i = 0; i < params->n; i++)
        if (((params->record >> i) & 1) && !(params->param[i].flags & LIBWRAP_PARAM_RESULT)) {
            /* A string's address is that of a string: read it. */
            if (params->param[i].kind == LIBWRAP_PARAM_STRING && v[i])
                (void)*(volatile const char *)(uintptr_t)v[i];
            __atomic_add_fetch(&values, 1, __ATOMIC_SEQ_CST);
        }
}

void libwrap_record_result(int32_t id, libwrap_params *params, uint64_t value)
{
    (void)value;
    if (id <= 0 || !params->n || !(params->param[params->n - 1].flags & LIBWRAP_PARAM_RESULT))
        abort();
    __atomic_add_fetch(&values, 1, __ATOMIC_SEQ_CST);
}

int libwrap_enter(int32_t id, void *frame)
{
    if (id <= 0 || frame == NULL)
        abort();
    __atomic_add_fetch(&enters, 1, __ATOMIC_SEQ_CST);
    return 1;
}

int libwrap_enter_params(int32_t id, void *frame, libwrap_params *params, const uint64_t *v)
{
    int r = libwrap_enter(id, frame);
    libwrap_record_params(id, params, v);
    return r;
}

void libwrap_exit(int32_t id)
{
    if (id <= 0)
        abort();
    __atomic_add_fetch(&exits, 1, __ATOMIC_SEQ_CST);
}

void *libwrap_resolve_fallback(const char *symbol, const char *soname, const void *self)
{
    void *p = NULL;
    resolving++;
    if (soname) {
        void *h = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            p = dlsym(h, symbol);
            dlclose(h);
        }
    }
    if (p == NULL) {
        p = dlsym(RTLD_DEFAULT, symbol);
        if (p == self)
            p = NULL;
    }
    resolving--;
    if (p == NULL)
        fprintf(stderr, "libwrap: warning: %s: original not found (stub)\n", symbol);
    return p;
}

/* The real runtime's: dlvsym of "foo@V1" in the global scope is orig. */
int libwrap_target_loaded(const char *soname)
{
    void *h = soname ? dlopen(soname, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    if (h)
        dlclose(h);
    return !soname || h != NULL;
}

int libwrap_is_version(const void *orig, const char *symbol)
{
    const char *at = orig ? strchr(symbol, '@') : NULL;
    char *name = at ? strndup(symbol, (size_t)(at - symbol)) : NULL;
    if (!name)
        return 0;
    void *p = dlvsym(RTLD_DEFAULT, name, at + (at[1] == '@' ? 2 : 1));
    free(name);
    return p != NULL && p == orig;
}

/* The stub takes dlvsym's answer: no interposer without versions here. */
int libwrap_unversioned(const void *p)
{
    (void)p;
    return 0;
}

void *libwrap_answer_pointer(void *p)
{
    return p;
}

void libwrap_warn_once(const void *what, const char *fmt, ...)
{
    va_list ap;
    (void)what;
    va_start(ap, fmt);
    fputs("libwrap: warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

int libwrap_resolving(void)
{
    return resolving;
}

void libwrap_resolve_begin(void)
{
    resolving++;
}

void libwrap_resolve_end(void)
{
    resolving--;
}

void libwrap_finalize(void)
{
}

__attribute__((destructor)) static void stub_report(void)
{
    const char *path = getenv("STUB_COUNT_FILE");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f)
        return;
    fprintf(f, "regions=%d enters=%d exits=%d values=%d\n", regions, enters, exits, values);
    fclose(f);
}

/* The real runtime answers the program's own dlsym with the wrapper. */
void libwrap_typed_register(void **orig, const char *symbol, const void *wrapper, const char *soname)
{
    (void)orig;
    (void)symbol;
    (void)wrapper;
    (void)soname;
}
