/*
 * resolve.c - finding originals for runtime-mode wrappers when dlsym
 * (RTLD_NEXT) in the wrapper failed, and warning once about it; whether a
 * wrapper's target is loaded at all.
 */
#include "core/abi/abi.h"

#include "core/base/dl.h"
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static __thread int lw_resolving_depth __attribute__((tls_model("initial-exec")));
static __thread int lw_resolving_guard __attribute__((tls_model("initial-exec")));

int libwrap_resolving(void)
{
    return lw_resolving_depth;
}

/* The bracket holds the thread's guard too: what dlsym and dlopen call
 * (an allocator a wrapper wraps) is the runtime's, not the program's. */
void libwrap_resolve_begin(void)
{
    if (lw_resolving_depth++ == 0) {
        lw_resolving_guard = LW_LOAD(lw_tls.guard);
        LW_STORE(lw_tls.guard, lw_resolving_guard | 1);
    }
}

void libwrap_resolve_end(void)
{
    if (--lw_resolving_depth == 0)
        LW_STORE(lw_tls.guard, lw_resolving_guard);
}

struct lw_lookup {
    const char *symbol;
    const char *version; /* NULL: any, else exactly this version */
    const void *self;
    void *found;
};

/* dlsym, or dlvsym for a versioned symbol. */
static void *lw_sym(void *h, const char *symbol, const char *version)
{
    return version ? dlvsym(h, symbol, version) : dlsym(h, symbol);
}

/* Every loaded object, RTLD_LOCAL ones included: a library dlopen()ed
 * privately (Python extensions) is not in the global scope. */
static int lw_lookup_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct lw_lookup *l = data;
    if (!info->dlpi_name || !info->dlpi_name[0])
        return 0;
    void *h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return 0;
    void *p = lw_sym(h, l->symbol, l->version);
    dlclose(h);
    if (p && p != l->self) {
        l->found = p;
        return 1;
    }
    return 0;
}

int lw_soname_next(const char **list, char *buf, size_t size)
{
    const char *p = *list;
    if (!p || !*p || !size)
        return 0;
    const char *colon = strchr(p, ':');
    size_t n = colon ? (size_t)(colon - p) : strlen(p);
    if (n >= size) /* a name that long loads nothing */
        n = size - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    *list = colon ? colon + 1 : p + strlen(p);
    return 1;
}

/* `symbol` (a region's: "foo@V1" means exactly that version) in the
 * objects of `soname` (a wrapper's list: lw_soname_next) that are loaded,
 * then in every loaded object, skipping `self`; NULL when found nowhere.
 * Quiet. */
void *lw_resolve_lookup(const char *symbol, const char *soname, const void *self)
{
    void *p = NULL;
    libwrap_resolve_begin();
    /* Without memory for the name the lookup fails, and the wrapper warns
     * (libwrap_resolve_fallback). */
    const char *at = strchr(symbol, '@');
    char *name = at ? strndup(symbol, (size_t)(at - symbol)) : NULL;
    const char *version = at ? at + (at[1] == '@' ? 2 : 1) : NULL;
    if (lw_dl_available() && (!at || name)) {
        const char *base = name ? name : symbol;
        char one[LW_SONAME_MAX];
        for (const char *it = soname; (!p || p == self) && lw_soname_next(&it, one, sizeof one);) {
            void *h = dlopen(one, RTLD_LAZY | RTLD_NOLOAD);
            if (h) {
                p = lw_sym(h, base, version);
                dlclose(h);
            }
        }
        if (!p || p == self) {
            struct lw_lookup l = {base, version, self, NULL};
            dl_iterate_phdr(lw_lookup_object, &l);
            p = l.found;
        }
    }
    free(name);
    libwrap_resolve_end();
    return p;
}

/* dlopen(name, flags) and its dlclose, inside the resolving bracket (a
 * wrapped allocator called there does not look up again): whether `name`
 * is (or now was) loaded. RTLD_NODELETE keeps it loaded after the
 * dlclose. errno as it was. */
static int lw_dl_touch(const char *name, int flags)
{
    if (!lw_dl_available())
        return 0;
    int saved = errno;
    libwrap_resolve_begin();
    void *h = dlopen(name, flags);
    if (h)
        dlclose(h);
    libwrap_resolve_end();
    errno = saved;
    return h != NULL;
}

/* `name` (a soname) loaded as the module holding `self` (a wrapper) would
 * load it: along that module's search path (its RUNPATH: a target found
 * through the -Wl,-rpath given to libwrap-init), which a dlopen from the
 * runtime does not search. Whether it is (now) loaded. */
static int lw_dl_touch_as(const void *self, const char *name, int flags)
{
    Dl_info info;
    if (!lw_dl_available() || !self || strchr(name, '/') || !dladdr(self, &info) || !info.dli_fname)
        return 0;
    libwrap_resolve_begin();
    void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    Dl_serinfo size;
    Dl_serinfo *si = NULL;
    if (h && dlinfo(h, RTLD_DI_SERINFOSIZE, &size) == 0 && (si = malloc(size.dls_size)) != NULL) {
        si->dls_size = size.dls_size;
        si->dls_cnt = size.dls_cnt;
        if (dlinfo(h, RTLD_DI_SERINFO, si) != 0)
            si->dls_cnt = 0;
    }
    if (h)
        dlclose(h);
    libwrap_resolve_end();
    int ok = 0;
    for (unsigned i = 0; si && i < si->dls_cnt && !ok; i++) {
        char path[PATH_MAX];
        int n = snprintf(path, sizeof path, "%s/%s", si->dls_serpath[i].dls_name, name);
        if (n > 0 && (size_t)n < sizeof path && access(path, F_OK) == 0)
            ok = lw_dl_touch(path, flags);
    }
    free(si);
    return ok;
}

void lw_resolve_pin(const void *orig)
{
    Dl_info info;
    if (orig && lw_dl_available() && dladdr(orig, &info) && info.dli_fname)
        (void)lw_dl_touch(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}

void *libwrap_resolve_fallback(const char *symbol, const char *soname, const void *self)
{
    int saved = errno;
    void *p = lw_resolve_lookup(symbol, soname, self);
    /* A function of a library that the program has not loaded (it found
     * the wrapper's definition: a weak reference, dlsym(RTLD_DEFAULT)):
     * the library is loaded for it (privately: the wrapper alone looks in
     * it; never unloaded), as the wrapper's dependency on it once did. */
    if (!p && soname && !libwrap_target_loaded(soname)) {
        /* A wrapper of several libraries: each in turn, until one has it. */
        char one[LW_SONAME_MAX];
        for (const char *it = soname; !p && lw_soname_next(&it, one, sizeof one);)
            if (lw_dl_touch(one, RTLD_LAZY | RTLD_LOCAL | RTLD_NODELETE) ||
                lw_dl_touch_as(self, one, RTLD_LAZY | RTLD_LOCAL | RTLD_NODELETE)) {
                lw_log(LW_LOG_RESOLVE, "%s called where %s is not loaded: loaded for it", symbol, one);
                p = lw_resolve_lookup(symbol, soname, self);
            }
    }
    if (p) {
        lw_resolve_pin(p);
        lw_log(LW_LOG_RESOLVE, "%s found by the fallback lookup", symbol);
    } else
        libwrap_warn_once(symbol,
                          "cannot find the original %s%s%s: its wrapper is disabled and calls "
                          "fail with ENOSYS (is the library loaded?)",
                          symbol, soname ? " in " : "", soname ? soname : "");
    errno = saved;
    return p;
}

/* ---- the version a module asks for ------------------------------------- */

/* A dynamic entry's address: the loader relocates them in place on most
 * machines, not on all. */
static const void *lw_dyn_ptr(const struct dl_phdr_info *info, ElfW(Addr) p)
{
    return (const void *)(p < info->dlpi_addr ? p + info->dlpi_addr : p);
}

/* The number of dynamic symbols of a module with only DT_GNU_HASH: past
 * the highest that a bucket starts with, the end of its chain. */
static size_t lw_gnu_hash_count(const uint32_t *gh)
{
    uint32_t nbuckets = gh[0], symoffset = gh[1], bloom_size = gh[2];
    const uint32_t *buckets = (const uint32_t *)((const ElfW(Addr) *)(gh + 4) + bloom_size);
    const uint32_t *chain = buckets + nbuckets;
    uint32_t last = 0;
    for (uint32_t b = 0; b < nbuckets; b++)
        if (buckets[b] > last)
            last = buckets[b];
    if (last < symoffset)
        return symoffset;
    while (!(chain[last - symoffset] & 1))
        last++;
    return (size_t)last + 1;
}

int lw_object_has(const struct dl_phdr_info *info, const void *at, uintptr_t *lo, uintptr_t *hi)
{
    uintptr_t a = (uintptr_t)at, min = UINTPTR_MAX, max = 0;
    int inside = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t s = info->dlpi_addr + ph->p_vaddr;
        inside |= a >= s && a - s < ph->p_memsz;
        min = s < min ? s : min;
        max = s + ph->p_memsz > max ? s + ph->p_memsz : max;
    }
    if (inside && lo)
        *lo = min;
    if (inside && hi)
        *hi = max;
    return inside;
}

/* The tables of a loaded object's dynamic section that the version
 * lookups read; NULL where it has none. */
struct lw_dynamic {
    const ElfW(Sym) *symtab;
    const char *strtab;
    const ElfW(Half) *versym;
    const char *verneed;
    const uint32_t *hash, *gnu_hash;
    const char *soname; /* DT_SONAME, once strtab is known */
};

static void lw_dynamic_read(const struct dl_phdr_info *info, struct lw_dynamic *t)
{
    memset(t, 0, sizeof *t);
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum && !dyn; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    const ElfW(Dyn) *soname = NULL;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
        const void *p = lw_dyn_ptr(info, dyn->d_un.d_ptr);
        switch (dyn->d_tag) {
        case DT_SYMTAB: t->symtab = p; break;
        case DT_STRTAB: t->strtab = p; break;
        case DT_VERSYM: t->versym = p; break;
        case DT_VERNEED: t->verneed = p; break;
        case DT_HASH: t->hash = p; break;
        case DT_GNU_HASH: t->gnu_hash = p; break;
        case DT_SONAME: soname = dyn; break;
        }
    }
    if (soname && t->strtab)
        t->soname = t->strtab + soname->d_un.d_val;
}

/*
 * Whether a wrapper's target (a soname, or a path where the library has
 * none; a list: lw_soname_next) is loaded: an object whose soname, path or
 * file name is that name, read from the loaded objects themselves. Not by
 * dlopen(RTLD_NOLOAD): that runs the initialisers of an object loaded but
 * not yet initialised, and of its dependencies, out of their order (a
 * library's constructor that calls dlopen, inside the dlopen that loads
 * it and the target: Python's cv2 and libGLdispatch, whose libGLX then
 * ran before it and crashed).
 */
struct lw_loaded_q {
    const char *name;
    struct stat st; /* of a path */
    int by_path, found;
};

static int lw_loaded_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct lw_loaded_q *q = data;
    const char *path = info->dlpi_name;
    if (!path || !path[0])
        return 0;
    if (q->by_path) {
        struct stat st;
        q->found = !strcmp(path, q->name) ||
                   (stat(path, &st) == 0 && st.st_dev == q->st.st_dev && st.st_ino == q->st.st_ino);
        return q->found;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (!strcmp(base, q->name) || !strcmp(path, q->name))
        return q->found = 1;
    struct lw_dynamic t;
    lw_dynamic_read(info, &t);
    return q->found = t.soname && !strcmp(t.soname, q->name);
}

int libwrap_target_loaded(const char *soname)
{
    if (!soname || !lw_dl_available())
        return 1;
    int saved = errno, found = 0;
    char one[LW_SONAME_MAX];
    for (const char *it = soname; !found && lw_soname_next(&it, one, sizeof one);) {
        struct lw_loaded_q q = {.name = one, .by_path = strchr(one, '/') != NULL};
        if (q.by_path && stat(one, &q.st) != 0)
            continue;
        dl_iterate_phdr(lw_loaded_object, &q);
        found = q.found;
    }
    errno = saved;
    return found;
}

/* The object that holds `at`, found by dl_iterate_phdr: its tables. */
struct lw_dyn_find {
    const void *at;
    struct lw_dynamic t;
    int found;
};

static int lw_dyn_of(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct lw_dyn_find *f = data;
    if (!lw_object_has(info, f->at, NULL, NULL))
        return 0;
    f->found = 1;
    lw_dynamic_read(info, &f->t);
    return 1;
}

/* The version that the undefined reference to `name` in the object of
 * tables `t` asks for, or NULL (none, or no reference). */
static const char *lw_verneed_of(const struct lw_dynamic *t, const char *name)
{
    if (!t->symtab || !t->strtab || !t->versym || !t->verneed || (!t->hash && !t->gnu_hash))
        return NULL;
    size_t n = t->hash ? t->hash[1] : lw_gnu_hash_count(t->gnu_hash);
    for (size_t i = 1; i < n; i++) {
        if (t->symtab[i].st_shndx != SHN_UNDEF || strcmp(t->strtab + t->symtab[i].st_name, name) != 0)
            continue;
        ElfW(Half) want = t->versym[i] & 0x7fff;
        if (want <= 1) /* local or global: no version asked */
            return NULL;
        for (const char *vn = t->verneed;; ) {
            const ElfW(Verneed) *need = (const ElfW(Verneed) *)vn;
            const char *va = vn + need->vn_aux;
            for (unsigned k = 0; k < need->vn_cnt; k++) {
                const ElfW(Vernaux) *aux = (const ElfW(Vernaux) *)va;
                if (aux->vna_other == want)
                    return t->strtab + aux->vna_name;
                va += aux->vna_next;
            }
            if (!need->vn_next)
                return NULL;
            vn += need->vn_next;
        }
    }
    return NULL;
}

int libwrap_is_version(const void *orig, const char *symbol)
{
    const char *at = orig ? strchr(symbol, '@') : NULL;
    char *name = at && lw_dl_available() ? strndup(symbol, (size_t)(at - symbol)) : NULL;
    if (!name)
        return 0;
    const char *version = at + (at[1] == '@' ? 2 : 1);
    int saved = errno;
    /* The version that the caller's module (the link-time wrapper's, in
     * the program or a library of its own) asks for: ld wrote it there
     * when it bound __real_foo. Versions that share one address (liblzma's
     * lzma_stream_encoder_mt@@XZ_5.2 and @XZ_5.2.2) are told apart only
     * so, as the loader binds them for LD_PRELOAD. */
    struct lw_dyn_find f = {__builtin_extract_return_addr(__builtin_return_address(0)), {0}, 0};
    dl_iterate_phdr(lw_dyn_of, &f);
    const char *asked = f.found ? lw_verneed_of(&f.t, name) : NULL;
    int r;
    if (asked) {
        r = strcmp(asked, version) == 0;
    } else {
        /* No version recorded (a module without them): the address. */
        libwrap_resolve_begin();
        void *p = dlvsym(RTLD_DEFAULT, name, version);
        libwrap_resolve_end();
        r = p != NULL && p == orig;
    }
    errno = saved;
    free(name);
    return r;
}

int libwrap_unversioned(const void *p)
{
    if (!p || !lw_dl_available())
        return 0;
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (!dladdr1(p, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym)
        return 0;
    struct lw_dyn_find f = {p, {0}, 0};
    dl_iterate_phdr(lw_dyn_of, &f);
    if (!f.found || !f.t.symtab || sym < f.t.symtab)
        return 0;
    if (!f.t.versym)
        return 1; /* an object without symbol versions */
    return (f.t.versym[sym - f.t.symtab] & 0x7fff) <= 1; /* VER_NDX_LOCAL, VER_NDX_GLOBAL */
}

static pthread_mutex_t lw_warned_mutex = PTHREAD_MUTEX_INITIALIZER;
static const void **lw_warned;
static size_t lw_nwarned, lw_warned_cap;

void libwrap_warn_once(const void *what, const char *fmt, ...)
{
    if (LW_LOAD(lw_state) == 2)
        return;
    int saved = errno;
    int first = 1;
    /* realloc below may be a wrapper: with the guard set it takes no lock
     * of the runtime under this one (core/measure/measure.h). */
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1);
    pthread_mutex_lock(&lw_warned_mutex);
    for (size_t i = 0; i < lw_nwarned && first; i++)
        first = lw_warned[i] != what;
    if (first) {
        if (lw_nwarned == lw_warned_cap) {
            size_t cap = lw_warned_cap ? lw_warned_cap * 2 : 16;
            const void **v = realloc(lw_warned, cap * sizeof *v);
            if (v) {
                lw_warned = v;
                lw_warned_cap = cap;
            }
        }
        /* Out of memory: warn anyway, possibly again later. */
        if (lw_nwarned < lw_warned_cap)
            lw_warned[lw_nwarned++] = what;
    }
    pthread_mutex_unlock(&lw_warned_mutex);
    LW_STORE(lw_tls.guard, guard);
    if (first) {
        va_list ap;
        va_start(ap, fmt);
        lw_vwarn(fmt, ap);
        va_end(ap);
    }
    errno = saved;
}
