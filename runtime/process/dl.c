/*
 * dl.c - lookups and loads made by the program itself (dl_interpose.h).
 *
 * A program that dlopen()s a wrapped library and calls through
 * dlsym(handle, "sym") (plugin hosts, ctypes, dispatchers) would bypass
 * the wrappers: symbol lookup in a handle's scope never sees a preloaded
 * object. So a lookup whose answer is the original that a wrapper of this
 * process forwards to is answered with that wrapper. Every ABI wrapper
 * library registers its table here (libwrap_abi_register); a lookup is
 * answered by the runtime only when its name is in a table and it comes
 * from neither the runtime nor a wrapper library (they look for
 * originals). RTLD_NEXT lookups, and RTLD_DEFAULT ones under LD_PRELOAD
 * (where the global scope already finds the wrapper first), go to libc
 * unchanged.
 *
 * RTLD_DEEPBIND and dlmopen() bind a module's calls inside its own scope
 * or namespace, where no wrapper is: each such load is checked at the next
 * call of a dl function (or at the end) and, if calls to a wrapped library
 * escape there, named in one warning.
 */
#include "core/abi/abi.h"
#include "interpose/dl_interpose.h"
#include "process/process.h"
#include "filter.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <gnu/lib-names.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

/* The bootstrap runs inside a sanitizer's start-up, before its
 * interceptors of the string functions work: its own comparisons. */
static int lw_streq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

int lw_dl_names_libc(const char *path)
{
    const char *base = path;
    for (const char *c = base; c && *c; c++)
        if (*c == '/')
            base = c + 1;
    return base && lw_streq(base, LIBC_SO);
}

#ifndef LIBWRAP_STATIC

/* libc's own functions, found in its dynamic symbol table: dlsym cannot be
 * asked for them, since dlsym may be this very interposer. */
static void *lw_real[LW_DL_KINDS];

struct lw_elf {
    ElfW(Addr) base;
    const ElfW(Sym) *symtab;
    const char *strtab;
    const ElfW(Half) *versym;
    const uint32_t *gnu_hash;
    const char *soname;
};

static void lw_elf_read(struct lw_elf *o, ElfW(Addr) base, const ElfW(Dyn) *dyn)
{
    o->base = base;
    o->symtab = NULL;
    o->strtab = NULL;
    o->versym = NULL;
    o->gnu_hash = NULL;
    o->soname = NULL;
    ElfW(Addr) soname = 0;
    int has_soname = 0;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
        /* glibc relocates these in place on most targets; not everywhere. */
        ElfW(Addr) p = dyn->d_un.d_ptr;
        if (dyn->d_tag != DT_SONAME && p < base)
            p += base;
        switch (dyn->d_tag) {
        case DT_SYMTAB: o->symtab = (const void *)p; break;
        case DT_STRTAB: o->strtab = (const void *)p; break;
        case DT_VERSYM: o->versym = (const void *)p; break;
        case DT_GNU_HASH: o->gnu_hash = (const void *)p; break;
        case DT_SONAME: soname = dyn->d_un.d_val; has_soname = 1; break;
        }
    }
    if (has_soname && o->strtab)
        o->soname = o->strtab + soname;
}

/* The default version of `name` defined in `o` (GNU hash lookup). */
static void *lw_elf_sym(const struct lw_elf *o, const char *name)
{
    if (!o->symtab || !o->strtab || !o->gnu_hash)
        return NULL;
    const uint32_t *ht = o->gnu_hash;
    uint32_t nbuckets = ht[0], symoffset = ht[1], bloom_size = ht[2];
    const ElfW(Addr) *bloom = (const void *)&ht[4];
    const uint32_t *buckets = (const void *)&bloom[bloom_size];
    const uint32_t *chain = &buckets[nbuckets];
    uint32_t h = 5381;
    for (const unsigned char *s = (const void *)name; *s; s++)
        h = h * 33 + *s;
    uint32_t i = buckets[h % nbuckets];
    if (i < symoffset)
        return NULL;
    for (;; i++) {
        uint32_t h2 = chain[i - symoffset];
        const ElfW(Sym) *s = &o->symtab[i];
        if ((h | 1) == (h2 | 1) && s->st_shndx != SHN_UNDEF && lw_streq(o->strtab + s->st_name, name) &&
            !(o->versym && (o->versym[i] & 0x8000)))
            return (void *)(o->base + s->st_value);
        if (h2 & 1)
            return NULL;
    }
}

static void lw_dl_find_real(void)
{
    static const char *const names[LW_DL_KINDS] = {"dlsym", "dlvsym", "dlopen", "dlmopen", "dladdr", "dladdr1"};
    for (struct link_map *l = _r_debug.r_map; l; l = l->l_next) {
        if (!lw_dl_names_libc(l->l_name))
            continue;
        struct lw_elf o;
        lw_elf_read(&o, l->l_addr, l->l_ld);
        for (int k = 0; k < LW_DL_KINDS; k++)
            __atomic_store_n(&lw_real[k], lw_elf_sym(&o, names[k]), __ATOMIC_RELEASE);
        return;
    }
}

static void *lw_real_fn(int kind)
{
    void *p = __atomic_load_n(&lw_real[kind], __ATOMIC_ACQUIRE);
    if (!p) {
        lw_dl_find_real();
        p = __atomic_load_n(&lw_real[kind], __ATOMIC_ACQUIRE);
    }
    if (!p)
        abort(); /* libc without dlsym: nothing can go on */
    return p;
}

#define LW_REAL_DLSYM ((void *(*)(void *, const char *))lw_real_fn(LW_DL_SYM))
#define LW_REAL_DLVSYM ((void *(*)(void *, const char *, const char *))lw_real_fn(LW_DL_VSYM))
#define LW_REAL_DLOPEN ((void *(*)(const char *, int))lw_real_fn(LW_DL_OPEN))
#define LW_REAL_DLADDR ((int (*)(const void *, Dl_info *))lw_real_fn(LW_DL_ADDR))
#define LW_REAL_DLADDR1 ((int (*)(const void *, Dl_info *, void **, int))lw_real_fn(LW_DL_ADDR1))

/* The wrapper tables, pushed once each and never removed. */
struct lw_dl_table {
    libwrap_abi_entry *entries;
    uint32_t n;
    const void *base;  /* the wrapper library's */
    uintptr_t lo, hi;  /* the extent of its object's segments (the program's too) */
    int shadow_checked; /* lw_dl_shadow_check looked at it, its target loaded */
    struct lw_dl_table *next;
};
static struct lw_dl_table *lw_tables;
/* A runtime wrapper whose target was not loaded as main began: the check
 * is made again once a dlopen may have brought it. */
static int lw_shadow_waiting;

struct lw_extent {
    const void *at;
    uintptr_t lo, hi;
};

static int lw_extent_of(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct lw_extent *x = arg;
    return lw_object_has(info, x->at, &x->lo, &x->hi);
}

void lw_dl_register(libwrap_abi_entry *entries, uint32_t n)
{
    struct lw_dl_table *t = calloc(1, sizeof *t);
    if (!t)
        return;
    Dl_info info;
    struct link_map *l = NULL;
    t->entries = entries;
    t->n = n;
    /* A wrapper archive linked into the program: the program's lookups are
     * not a wrapper's. */
    if (dladdr1(entries, &info, (void **)&l, RTLD_DL_LINKMAP) && l != _r_debug.r_map)
        t->base = info.dli_fbase;
    struct lw_extent x = {entries, 0, 0};
    dl_iterate_phdr(lw_extent_of, &x);
    t->lo = x.lo;
    t->hi = x.hi;
    t->next = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE);
    while (!__atomic_compare_exchange_n(&lw_tables, &t->next, t, 0, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
        ;
}

static struct lw_dl_table *lw_dl_table_of(const libwrap_abi_entry *e)
{
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t; t = t->next)
        if (e >= t->entries && e < t->entries + t->n)
            return t;
    return NULL;
}

/* `symbol` (a region's: "foo", "foo@V1", "foo@@V2") is what dlsym(name) or
 * dlvsym(name, version) finds. A region of a function with one version
 * keeps the plain name (docs/wrappers.md): it may be any version's, and the
 * callers compare the answer with its original. */
static int lw_names(const char *symbol, const char *name, const char *version)
{
    size_t n = strlen(name);
    if (strncmp(symbol, name, n))
        return 0;
    const char *at = symbol + n;
    if (!version)
        return !*at || (at[0] == '@' && at[1] == '@');
    if (*at != '@')
        return !*at;
    at += at[1] == '@' ? 2 : 1;
    return !strcmp(at, version);
}

static libwrap_abi_entry *lw_dl_entry(const char *name, const char *version, struct lw_dl_table **in)
{
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t; t = t->next)
        for (uint32_t i = 0; i < t->n; i++)
            if (t->entries[i].region.symbol[0] == name[0] &&
                lw_names(t->entries[i].region.symbol, name, version)) {
                if (in)
                    *in = t;
                return &t->entries[i];
            }
    return NULL;
}

/* The runtime's own object, by extent (lw_dl_in_libwrap). */
static uintptr_t lw_self_lo, lw_self_hi;

/* `p` lies in the runtime or in a runtime wrapper library: by the objects'
 * extents, since dladdr is the question being answered. */
static int lw_dl_in_libwrap(const void *p)
{
    if (!__atomic_load_n(&lw_self_hi, __ATOMIC_ACQUIRE)) {
        struct lw_extent x = {(const void *)lw_dl_register, 0, 0};
        dl_iterate_phdr(lw_extent_of, &x);
        __atomic_store_n(&lw_self_lo, x.lo, __ATOMIC_RELAXED);
        __atomic_store_n(&lw_self_hi, x.hi, __ATOMIC_RELEASE);
    }
    uintptr_t a = (uintptr_t)p;
    if (a >= lw_self_lo && a < lw_self_hi)
        return 1;
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t; t = t->next)
        if (t->base && a >= t->lo && a < t->hi)
            return 1;
    return 0;
}

/* The caller is the runtime or a wrapper library, or lies in no loaded
 * object (nothing to tell it by): it wants originals. */
static int lw_dl_from_libwrap(const void *caller)
{
    Dl_info info;
    return lw_dl_in_libwrap(caller) || !dladdr(caller, &info);
}

/*
 * The wrapper that forwards to `p`, the answer libc gave for name (and
 * version), or `p` itself. A wrapper whose original is not known yet (the
 * target was loaded after the wrapper, privately) takes `p` when `p` is
 * the base namespace's definition in the wrapper's target.
 */
/* The functions typed wrappers registered (libwrap_typed_register). */
static struct lw_typed {
    void **orig;
    const char *symbol;
    const void *wrapper;
    const char *soname;
} *lw_typed;
static size_t lw_ntyped, lw_typed_cap;
static int lw_typed_any; /* read without the lock by the quiet path */

static pthread_mutex_t lw_typed_mutex = PTHREAD_MUTEX_INITIALIZER;

/*
 * Two wrapper libraries of one function (a GLib wrapper and a GObject one,
 * whose link flags name GLib too, preloaded together): the first in symbol
 * lookup finds the second's wrapper as its original (RTLD_NEXT), and every
 * call would be measured twice, nested in itself. An original of `e` that
 * is another library's wrapper is replaced by that wrapper's own original
 * (looked up from there when it has none yet), hop by hop: the call is
 * measured once, by the wrapper the program reaches. NULL stays NULL; a
 * wrapper whose original cannot be had is kept (measured twice rather than
 * not called). ABI-level wrappers only: a typed wrapper library takes the
 * address of its own functions through its GOT, which interposition may
 * bind to another library's, so its functions are not told apart so.
 */
void *lw_dl_past_wrappers(const libwrap_abi_entry *e, void *p)
{
    static int said;
    const struct lw_dl_table *own = lw_dl_table_of(e);
    for (int hop = 0; p && hop < 16; hop++) {
        const libwrap_abi_entry *y = NULL;
        for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t && !y; t = t->next)
            if (t != own && (uintptr_t)p >= t->lo && (uintptr_t)p < t->hi)
                for (uint32_t i = 0; i < t->n && !y; i++)
                    if (lw_abi_wrapper(&t->entries[i]) == p)
                        y = &t->entries[i];
        if (!y)
            return p;
        void *q = __atomic_load_n(&y->orig, __ATOMIC_ACQUIRE);
        if (!q && y->lib && y->lib->next)
            q = y->lib->next(y->region.symbol);
        /* A runtime wrapper whose target is loaded, not in the global
         * scope: a module that links the library and the link-time
         * wrapper, loaded with dlopen under the preloaded wrapper. */
        if (!q && y->lib && y->lib->next && y->lib->soname && libwrap_target_loaded(y->lib->soname))
            q = lw_resolve_lookup(y->region.symbol, y->lib->soname, lw_abi_wrapper(y));
        if (!q || q == lw_abi_wrapper(e))
            return p;
        if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
            lw_log(LW_LOG_RESOLVE, "%s: the original found is another wrapper library's wrapper of it: "
                   "that one's original is called instead, so that a call is measured once",
                   e->region.symbol);
        p = q;
    }
    return p;
}

void lw_dl_registered(libwrap_abi_entry *entries, uint32_t n)
{
    (void)n;
    const struct lw_dl_table *mine = lw_dl_table_of(entries);
    if (!mine || !mine->hi)
        return;
    /* The libraries registered before it whose originals are its wrappers. */
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t; t = t->next) {
        if (t == mine)
            continue;
        for (uint32_t i = 0; i < t->n; i++) {
            libwrap_abi_entry *x = &t->entries[i];
            void *o = __atomic_load_n(&x->orig, __ATOMIC_ACQUIRE);
            if (o && (uintptr_t)o >= mine->lo && (uintptr_t)o < mine->hi) {
                void *q = lw_dl_past_wrappers(x, o);
                if (q != o)
                    __atomic_store_n(&x->orig, q, __ATOMIC_RELEASE);
            }
        }
    }
    /* Its own originals found before it registered, when the library
     * whose wrapper they are was not known yet: a target's constructor
     * called the function first (GObject's calls g_rw_lock_writer_lock). */
    for (uint32_t i = 0; i < mine->n; i++) {
        libwrap_abi_entry *x = &mine->entries[i];
        void *o = __atomic_load_n(&x->orig, __ATOMIC_ACQUIRE);
        void *q = o ? lw_dl_past_wrappers(x, o) : NULL;
        if (q != o)
            __atomic_store_n(&x->orig, q, __ATOMIC_RELEASE);
    }
}

/*
 * A runtime wrapper that another object comes before in symbol lookup:
 * an allocator preloaded ahead of its wrapper (LD_PRELOAD="libjemalloc.so.2
 * wrapper"), a wrapper linked after its target, a library bundling a copy
 * of some of the target's functions. The program's calls go to that
 * object's definitions first, which nothing else shows. Checked once as
 * main begins (the objects loaded with the program have registered), for
 * a wrapper that has objects before it in the global scope other than the
 * program (static_target.c's), the vDSO, wrappers and the runtime: each of
 * its functions is looked up there once, and one warning per object that
 * defines some names the count and a function. The usual preload, the
 * wrapper first, looks nothing up.
 */

/* `symbol` ("foo", "foo@V1", "foo@@V2") as the global scope binds a
 * reference to it: the first default or unversioned definition, or for
 * an old version exactly that one. */
static void *lw_dl_global(const char *symbol)
{
    const char *at = strchr(symbol, '@');
    char name[512];
    size_t n = at ? (size_t)(at - symbol) : strlen(symbol);
    if (n >= sizeof name)
        return NULL;
    memcpy(name, symbol, n);
    name[n] = 0;
    if (!at || at[1] == '@')
        return LW_REAL_DLSYM(RTLD_DEFAULT, name);
    return LW_REAL_DLVSYM(RTLD_DEFAULT, name, at + 1);
}

/* `l` is a wrapper library: an ABI-level one's table, or a typed one's
 * functions (libwrap_typed_register), lie in it. */
static int lw_dl_is_wrapper(const struct link_map *l)
{
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t; t = t->next)
        if ((uintptr_t)l->l_ld >= t->lo && (uintptr_t)l->l_ld < t->hi)
            return 1;
    struct lw_extent x = {l->l_ld, 0, 0};
    dl_iterate_phdr(lw_extent_of, &x);
    int typed = 0;
    pthread_mutex_lock(&lw_typed_mutex);
    for (size_t i = 0; i < lw_ntyped && !typed && x.hi; i++)
        typed = (uintptr_t)lw_typed[i].wrapper >= x.lo && (uintptr_t)lw_typed[i].wrapper < x.hi;
    pthread_mutex_unlock(&lw_typed_mutex);
    return typed;
}

static int lw_dl_is_self(const struct link_map *l)
{
    static struct lw_extent self;
    if (!self.hi) {
        self.at = (const void *)lw_dl_shadow_check;
        dl_iterate_phdr(lw_extent_of, &self);
    }
    return (uintptr_t)l->l_ld >= self.lo && (uintptr_t)l->l_ld < self.hi;
}

/* An object whose definitions are not another library's: the program, the
 * vDSO (on the load list, not in the lookup scope), a wrapper, the runtime
 * itself (preloaded before a wrapper of libc: its exec and dl interposers
 * pass every call on). */
static int lw_dl_not_other(const struct link_map *l, uintptr_t vdso)
{
    /* The vDSO's dynamic section lies in its few pages. */
    uintptr_t ld = (uintptr_t)l->l_ld;
    return l == _r_debug.r_map || !l->l_name || !*l->l_name || (vdso && ld >= vdso && ld - vdso < 0x10000) ||
           lw_dl_is_self(l) || lw_dl_is_wrapper(l);
}

static const char *lw_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void lw_dl_shadow_warn(const struct link_map *own, const struct link_map *l, uint32_t found,
                              uint32_t n, const char *example)
{
    /* libwrap_NAME_runtime.so: NAME for libwrap-info. */
    const char *w = lw_basename(own->l_name);
    const char *end = strstr(w, "_runtime.so");
    int named = !strncmp(w, "libwrap_", 8) && end && end > w + 8;
    const char *other = lw_basename(l->l_name);
    const char *preload = getenv("LD_PRELOAD");
    int nl = named ? (int)(end - w - 8) : 4;
    const char *ns = named ? w + 8 : "NAME";
    char how[256];
    if (preload && strstr(preload, other))
        snprintf(how, sizeof how, "LD_PRELOAD=\"$(libwrap-info preload %.*s) %s\"", nl, ns, other);
    else
        snprintf(how, sizeof how, "on the link line: libwrap --libwrap=%.*s cc ...", nl, ns);
    lw_warn("%s comes before the wrapper %s in symbol lookup and defines %u of its %u "
            "functions (%s%s): the program's calls to them go there first, and are measured "
            "only where it passes them on; load the wrapper first (%s)",
            other, w, found, n, example, found > 1 ? ", ..." : "", how);
}

void lw_dl_shadow_check(void)
{
    uintptr_t vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
    libwrap_resolve_begin();
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t; t = t->next) {
        /* Runtime wrapper libraries only: a link-time wrapper's --wrap
         * reaches the program's calls whatever the lookup order. */
        if (!t->base || !t->n || !t->entries[0].lib || !t->entries[0].lib->next)
            continue;
        /* Nor where its target is not loaded: a process that does not use
         * the library (a shell, /bin/true, a CGI script under a measured
         * server) calls none of its functions, and says nothing; one that
         * loads it later (dlopen: Python's zlib module) is asked then. */
        if (__atomic_load_n(&t->shadow_checked, __ATOMIC_ACQUIRE))
            continue;
        if (t->entries[0].lib->soname && !libwrap_target_loaded(t->entries[0].lib->soname)) {
            __atomic_store_n(&lw_shadow_waiting, 1, __ATOMIC_RELEASE);
            continue;
        }
        if (__atomic_exchange_n(&t->shadow_checked, 1, __ATOMIC_ACQ_REL))
            continue;
        /* Its object, found by its extent (dladdr would search its symbols). */
        const struct link_map *own = NULL;
        int any = 0;
        for (struct link_map *l = _r_debug.r_map ? _r_debug.r_map->l_next : NULL; l && !own; l = l->l_next) {
            if ((uintptr_t)l->l_ld >= t->lo && (uintptr_t)l->l_ld < t->hi)
                own = l;
            else if (!any)
                any = !lw_dl_not_other(l, vdso);
        }
        if (!own || !any)
            continue;
        struct {
            const struct link_map *l;
            uint32_t found;
            const char *example;
        } by[8];
        size_t nby = 0;
        for (uint32_t i = 0; i < t->n; i++) {
            uintptr_t p = (uintptr_t)lw_dl_global(t->entries[i].region.symbol);
            if (!p || (p >= t->lo && p < t->hi))
                continue;
            Dl_info info;
            struct link_map *l = NULL;
            if (!dladdr1((void *)p, &info, (void **)&l, RTLD_DL_LINKMAP) || !l || lw_dl_not_other(l, vdso))
                continue;
            size_t k = 0;
            while (k < nby && by[k].l != l)
                k++;
            if (k == nby) {
                if (nby == sizeof by / sizeof *by)
                    continue;
                by[nby++] = (__typeof__(by[0])){l, 0, t->entries[i].region.symbol};
            }
            by[k].found++;
        }
        for (size_t k = 0; k < nby; k++)
            lw_dl_shadow_warn(own, by[k].l, by[k].found, t->n, by[k].example);
    }
    libwrap_resolve_end();
}

int lw_dl_functions_unloaded(const char *glob)
{
    int named = 0;
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t; t = t->next) {
        const libwrap_abi_library *lib = t->n ? t->entries[0].lib : NULL;
        for (uint32_t i = 0; i < t->n; i++) {
            const libwrap_region *r = &t->entries[i].region;
            if (!lw_glob_match_unversioned(glob, r->symbol) && !lw_glob_match_unversioned(glob, r->name))
                continue;
            /* A link-time wrapper's target is linked: loaded. */
            if (!lib || !lib->next || !lib->soname || libwrap_target_loaded(lib->soname))
                return 0;
            named = 1;
            break;
        }
    }
    int loaded = 0;
    pthread_mutex_lock(&lw_typed_mutex);
    for (size_t i = 0; i < lw_ntyped && !loaded; i++)
        if (lw_glob_match_unversioned(glob, lw_typed[i].symbol)) {
            named = 1;
            loaded = !lw_typed[i].soname || libwrap_target_loaded(lw_typed[i].soname);
        }
    pthread_mutex_unlock(&lw_typed_mutex);
    return named && !loaded;
}

void libwrap_typed_register(void **orig, const char *symbol, const void *wrapper, const char *soname)
{
    pthread_mutex_lock(&lw_typed_mutex);
    if (lw_ntyped == lw_typed_cap) {
        size_t cap = lw_typed_cap ? 2 * lw_typed_cap : 256;
        struct lw_typed *v = realloc(lw_typed, cap * sizeof *v);
        if (v) {
            lw_typed = v;
            lw_typed_cap = cap;
        }
    }
    if (lw_ntyped < lw_typed_cap)
        lw_typed[lw_ntyped++] = (struct lw_typed){orig, symbol, wrapper, soname};
    __atomic_store_n(&lw_typed_any, 1, __ATOMIC_RELEASE);
    /* A wrapper registers its functions one after the other with one
     * soname: whether its target is loaded is asked once. */
    static const char *asked;
    int loaded = -1;
    if (lw_abi_calibration_wanted() && soname != asked) {
        asked = soname;
        loaded = *orig || libwrap_target_loaded(soname);
    }
    pthread_mutex_unlock(&lw_typed_mutex);
    if (loaded == 1) /* calls come: calibrated now */
        lw_abi_calibrate();
    else if (loaded == 0)
        lw_abi_calibrate_waits();
}

/* A typed wrapper wraps `name`. */
static int lw_dl_typed_has(const char *name, const char *version)
{
    int found = 0;
    pthread_mutex_lock(&lw_typed_mutex);
    for (size_t i = 0; i < lw_ntyped && !found; i++)
        found = lw_typed[i].symbol[0] == name[0] && lw_names(lw_typed[i].symbol, name, version);
    pthread_mutex_unlock(&lw_typed_mutex);
    return found;
}

/* Whether `name` (of `version`) is `p` in one of the loaded target
 * libraries `sonames` (a wrapper's list, lw_soname_next). */
static int lw_dl_in_targets(const char *sonames, const char *name, const char *version, const void *p)
{
    char one[LW_SONAME_MAX];
    for (const char *it = sonames; lw_soname_next(&it, one, sizeof one);) {
        void *h = LW_REAL_DLOPEN(one, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
        void *q = !h ? NULL : version ? LW_REAL_DLVSYM(h, name, version) : LW_REAL_DLSYM(h, name);
        if (h)
            dlclose(h);
        if (q && q == p)
            return 1;
    }
    return 0;
}

/* The typed wrapper of `name` whose original is `p`, or NULL. A wrapper
 * that has no original yet takes `p` when its library (loaded privately
 * after the wrapper) gives `p` for the name. */
static void *lw_dl_typed_wrapper_for(void *p, const char *name, const char *version)
{
    const void *w = NULL;
    pthread_mutex_lock(&lw_typed_mutex);
    for (size_t i = 0; i < lw_ntyped && !w; i++) {
        struct lw_typed *t = &lw_typed[i];
        if (t->symbol[0] != name[0] || !lw_names(t->symbol, name, version))
            continue;
        void *orig = __atomic_load_n(t->orig, __ATOMIC_ACQUIRE);
        if (orig == p) {
            w = t->wrapper;
        } else if (!orig && t->soname) {
            void *none = NULL;
            if (lw_dl_in_targets(t->soname, name, version, p) &&
                __atomic_compare_exchange_n(t->orig, &none, p, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
                w = t->wrapper;
        }
    }
    pthread_mutex_unlock(&lw_typed_mutex);
    return (void *)w;
}

static void *lw_dl_wrapper_for(void *p, const char *name, const char *version)
{
    if (!p)
        return p;
    void *typed = lw_dl_typed_wrapper_for(p, name, version);
    if (typed) {
        lw_log(LW_LOG_RESOLVE, "dlsym(%s): answered with its typed wrapper", name);
        return typed;
    }
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t; t = t->next)
        for (uint32_t i = 0; i < t->n; i++) {
            libwrap_abi_entry *e = &t->entries[i];
            if (e->region.symbol[0] != name[0] || !lw_names(e->region.symbol, name, version))
                continue;
            void *orig = __atomic_load_n(&e->orig, __ATOMIC_ACQUIRE);
            if (orig == p)
                return (void *)lw_abi_wrapper(e);
            /* A runtime wrapper's function missing at a call made before
             * the program loaded the target (a probe's) is had now. */
            int missing = __atomic_load_n(&e->state, __ATOMIC_RELAXED) == LW_ABI_STATE_MISSING;
            if (orig || !e->lib || !e->lib->soname || (missing && !e->lib->next))
                continue;
            if (lw_dl_in_targets(e->lib->soname, name, version, p)) {
                void *none = NULL;
                __atomic_compare_exchange_n(&e->orig, &none, p, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
                if (missing)
                    lw_abi_set_state(e, LW_ABI_STATE_UNKNOWN);
                lw_log(LW_LOG_RESOLVE, "dlsym(%s): answered with its wrapper", name);
                return (void *)lw_abi_wrapper(e);
            }
        }
    return p;
}

static void *lw_dl_answer_sym(void *handle, const char *name)
{
    int saved = errno;
    void *p = LW_REAL_DLSYM(handle, name);
    void *w = lw_dl_wrapper_for(p, name, NULL);
    errno = saved;
    return w;
}

static void *lw_dl_answer_vsym(void *handle, const char *name, const char *version)
{
    int saved = errno;
    void *p = LW_REAL_DLVSYM(handle, name, version);
    void *w = lw_dl_wrapper_for(p, name, version);
    errno = saved;
    return w;
}

void *libwrap_answer_pointer(void *p)
{
    if (!p || (!__atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE) && !__atomic_load_n(&lw_typed_any, __ATOMIC_ACQUIRE)) ||
        LW_LOAD(lw_tls.guard) || libwrap_resolving())
        return p;
    int saved = errno;
    void *w = NULL;
    /* An original already found. */
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t && !w; t = t->next)
        for (uint32_t i = 0; i < t->n && !w; i++)
            if (__atomic_load_n(&t->entries[i].orig, __ATOMIC_ACQUIRE) == p)
                w = (void *)lw_abi_wrapper(&t->entries[i]);
    if (!w && __atomic_load_n(&lw_typed_any, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&lw_typed_mutex);
        for (size_t i = 0; i < lw_ntyped && !w; i++)
            if (__atomic_load_n(lw_typed[i].orig, __ATOMIC_ACQUIRE) == p)
                w = (void *)lw_typed[i].wrapper;
        pthread_mutex_unlock(&lw_typed_mutex);
    }
    /* Else the function's name, as its object defines it at `p`: an
     * original not looked up yet is then found as a dlsym answer's. */
    Dl_info info;
    if (!w && dladdr(p, &info) && info.dli_sname && info.dli_saddr == p)
        w = lw_dl_wrapper_for(p, info.dli_sname, NULL);
    if (w && w != p)
        lw_log(LW_LOG_RESOLVE, "a function pointer a wrapped function returned: answered with its wrapper");
    errno = saved;
    return w ? w : p;
}

/*
 * dladdr and dladdr1 (dl_interpose.h). A library's reference to its own
 * function binds to the runtime wrapper of it, which the global scope
 * finds first: asked where that function is, libc names the wrapper
 * library. A library that finds its own file so (libasound's
 * snd_dlopen(NULL) opens dladdr(snd_dlopen)'s file, then looks up its
 * configuration hooks there: not found in the wrapper, every ALSA
 * program failed) is answered for the original, as without the wrapper:
 * its file, base and name, and dladdr1's link map or symbol. The address
 * stays the one asked about (`dli_saddr == p` where p is a function's
 * address, as without the wrapper). ABI-level wrappers and typed ones.
 * The runtime and the wrappers (they look for themselves) get libc's
 * answer.
 */
int libwrap_dl_addr(const void *addr, void *info_, void **extra, int flags, int kind, const void *caller)
{
    Dl_info *info = info_;
    int r = kind == LW_DL_ADDR1 ? LW_REAL_DLADDR1(addr, info, extra, flags) : LW_REAL_DLADDR(addr, info);
    if (!r || !info->dli_saddr || !info->dli_sname ||
        (!__atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE) && !__atomic_load_n(&lw_typed_any, __ATOMIC_ACQUIRE)))
        return r;
    int saved = errno;
    libwrap_abi_entry *e = NULL;
    void *orig = NULL;
    int found = 0;
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t && !e; t = t->next) {
        if (!t->base || (uintptr_t)addr < t->lo || (uintptr_t)addr >= t->hi || !t->n || !t->entries[0].lib ||
            !t->entries[0].lib->next)
            continue;
        for (uint32_t i = 0; i < t->n && !e; i++)
            if (lw_abi_wrapper(&t->entries[i]) == info->dli_saddr)
                e = &t->entries[i];
    }
    if (e) {
        found = 1;
        orig = __atomic_load_n(&e->orig, __ATOMIC_ACQUIRE);
    } else if (__atomic_load_n(&lw_typed_any, __ATOMIC_ACQUIRE)) {
        /* A typed runtime wrapper exports the function's own name (a
         * link-time one __wrap_NAME, which is the program's: not asked). */
        pthread_mutex_lock(&lw_typed_mutex);
        for (size_t i = 0; i < lw_ntyped && !found; i++)
            if (lw_typed[i].wrapper == info->dli_saddr && lw_typed[i].soname &&
                lw_names(lw_typed[i].symbol, info->dli_sname, NULL)) {
                found = 1;
                orig = __atomic_load_n(lw_typed[i].orig, __ATOMIC_ACQUIRE);
            }
        pthread_mutex_unlock(&lw_typed_mutex);
    }
    if (!found || lw_dl_in_libwrap(caller)) {
        errno = saved;
        return r;
    }
    if (!orig && e && !LW_LOAD(lw_tls.guard) && !libwrap_resolving()) {
        libwrap_resolve_begin();
        orig = lw_hook->past_wrappers(e, e->lib->next(e->region.symbol));
        libwrap_resolve_end();
    }
    Dl_info o;
    void *x = NULL;
    if (orig && (kind == LW_DL_ADDR1 ? LW_REAL_DLADDR1(orig, &o, &x, flags) : LW_REAL_DLADDR(orig, &o))) {
        lw_log(LW_LOG_RESOLVE, "dladdr(%s): answered for its original, in %s", info->dli_sname,
               o.dli_fname ? o.dli_fname : "?");
        o.dli_saddr = info->dli_saddr;
        *info = o;
        if (kind == LW_DL_ADDR1 && extra)
            *extra = x;
    }
    errno = saved;
    return r;
}

/* Loads to check (RTLD_DEEPBIND, dlmopen), recorded before libc's dlopen
 * runs and checked at the next call of a dl function or at the end. */
static pthread_mutex_t lw_pending_mutex = PTHREAD_MUTEX_INITIALIZER;
static char *lw_pending_deep[16];
static int lw_pending_ndeep, lw_pending_mopen, lw_pending_shadow, lw_pending_copying;
static int lw_pending_any;

/* Whether a library that switches coroutines by copying their stacks
 * (greenlet: Python's greenlet._greenlet, which gevent and SQLAlchemy's
 * asyncio load) is loaded now; then stack-copying mode (core/abi/abi.h),
 * for every wrapper table from now on. Checked after each dlopen, at the
 * next call of a dl function (Python looks up the module's PyInit_ at
 * once, before any of its code runs). */
static void lw_dl_check_copying(void)
{
    if (__atomic_load_n(&lw_abi_copying, __ATOMIC_RELAXED))
        return;
    const char *found = NULL;
    for (const struct link_map *l = _r_debug.r_map; l && !found; l = l->l_next)
        if (l->l_name && !strncmp(lw_basename(l->l_name), "_greenlet.", 10))
            found = l->l_name;
    if (!found)
        return;
    lw_abi_copying_on();
    /* Each entry's state set again: lw_abi_set_state moves those of the
     * trampoline's own paths to the C hooks in this mode. */
    uint32_t n = 0;
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t; t = t->next)
        for (uint32_t i = 0; i < t->n; i++) {
            libwrap_abi_entry *e = &t->entries[i];
            int32_t s = __atomic_load_n(&e->state, __ATOMIC_RELAXED);
            lw_abi_set_state(e, s);
            n += __atomic_load_n(&e->state, __ATOMIC_RELAXED) != s;
        }
    lw_log(LW_LOG_RESOLVE, "%s switches coroutines by copying their stacks: every wrapped call takes "
           "the C hooks from now on (%u functions moved off the fast path)", found, n);
}

static void lw_dl_check_deepbind(const char *file)
{
    void *h = LW_REAL_DLOPEN(file, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return;
    struct link_map *module = NULL;
    if (dlinfo(h, RTLD_DI_LINKMAP, &module) != 0)
        module = NULL;
    /* Every such module, each once, with every wrapped library it binds
     * (PHP loads each of its extensions so: xml.so, dom.so, sqlite3.so). */
    char targets[512];
    size_t len = 0;
    const void *key = module;
    targets[0] = 0;
    for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t; t = t->next) {
        const libwrap_abi_entry *e = NULL;
        /* Run-time wrappers only: a link-time one's calls are bound by
         * the linker (--wrap), whatever the scope. */
        for (uint32_t i = 0; i < t->n && !e; i++)
            if (!strchr(t->entries[i].region.symbol, '@') && t->entries[i].lib && t->entries[i].lib->next)
                e = &t->entries[i];
        void *p = e ? LW_REAL_DLSYM(h, e->region.symbol) : NULL;
        Dl_info info;
        if (!p || p == lw_abi_wrapper(e) || !dladdr(p, &info))
            continue;
        /* The target itself: the program's dlsym lookups in it are answered
         * with the wrappers. */
        if (module && info.dli_fname && !strcmp(info.dli_fname, module->l_name))
            continue;
        /* A module linked with the link-time wrapper (libwrap
         * --libwrap=linktime:NAME): its calls go to __wrap_SYM, measured. */
        char wrap[256];
        int w = snprintf(wrap, sizeof wrap, "__wrap_%s", e->region.symbol);
        if (w > 0 && (size_t)w < sizeof wrap && LW_REAL_DLSYM(h, wrap))
            continue;
        const char *name = e->lib && e->lib->soname ? e->lib->soname : info.dli_fname;
        if (!name)
            name = "?";
        /* Each library once (a wrapper's table and a typed one's). */
        int seen = 0;
        for (const char *at = targets; !seen && (at = strstr(at, name)) != NULL; at++) {
            size_t k = strlen(name);
            seen = (at == targets || at[-1] == ' ') && (at[k] == ',' || at[k] == '\0');
        }
        if (seen)
            continue;
        int n = snprintf(targets + len, sizeof targets - len, "%s%s", len ? ", " : "", name);
        if (n > 0 && (size_t)n < sizeof targets - len)
            len += (size_t)n;
        if (!key)
            key = e;
    }
    if (len)
        libwrap_warn_once(key, "%s was loaded with RTLD_DEEPBIND and binds its calls to %s inside "
                               "its own scope: they are not measured (load it without "
                               "RTLD_DEEPBIND, or link it with the link-time wrapper: libwrap "
                               "--libwrap=linktime:NAME)",
                          file, targets);
    dlclose(h);
}

/* The other namespaces' objects are listed by the extended r_debug
 * (glibc 2.35 on; r_version 2): dl_iterate_phdr shows the caller's only. */
extern const struct r_debug_extended lw_r_debug_extended __asm__("_r_debug");

static void lw_dl_check_namespaces(void)
{
    if (lw_r_debug_extended.base.r_version < 2)
        return;
    const struct r_debug_extended *ns = lw_r_debug_extended.r_next;
    for (; ns; ns = ns->r_next)
        for (const struct link_map *l = ns->base.r_map; l; l = l->l_next) {
            struct lw_elf o;
            lw_elf_read(&o, l->l_addr, l->l_ld);
            if (!o.soname)
                continue;
            for (struct lw_dl_table *t = __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE); t; t = t->next) {
                const libwrap_abi_library *lib = t->n ? t->entries[0].lib : NULL;
                if (lib && lib->soname && !strcmp(o.soname, lib->soname))
                    libwrap_warn_once(t, "%s (%s) was loaded by dlmopen into a namespace of its "
                                         "own: calls to it there are not measured (libwrap's "
                                         "wrappers are in the main namespace: load it with "
                                         "dlopen)",
                                      lib->soname, l->l_name);
            }
        }
}

void lw_dl_check_pending(void)
{
    if (!__atomic_load_n(&lw_pending_any, __ATOMIC_ACQUIRE))
        return;
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1);
    pthread_mutex_lock(&lw_pending_mutex);
    char *deep[16];
    int ndeep = lw_pending_ndeep, mopen = lw_pending_mopen, shadow = lw_pending_shadow;
    int copying = lw_pending_copying;
    memcpy(deep, lw_pending_deep, sizeof deep);
    lw_pending_ndeep = lw_pending_mopen = lw_pending_shadow = lw_pending_copying = 0;
    __atomic_store_n(&lw_pending_any, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lw_pending_mutex);
    for (int i = 0; i < ndeep; i++) {
        lw_dl_check_deepbind(deep[i]);
        free(deep[i]);
    }
    if (mopen)
        lw_dl_check_namespaces();
    if (shadow)
        lw_dl_shadow_check();
    if (copying)
        lw_dl_check_copying();
    LW_STORE(lw_tls.guard, guard);
}

static void lw_dl_note_load(const char *file, int deepbind)
{
    if (!__atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE) || (deepbind && !file))
        return;
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1);
    char *copy = deepbind ? strdup(file) : NULL;
    pthread_mutex_lock(&lw_pending_mutex);
    if (!deepbind)
        lw_pending_mopen = 1;
    else if (copy && lw_pending_ndeep < 16)
        lw_pending_deep[lw_pending_ndeep++] = copy, copy = NULL;
    __atomic_store_n(&lw_pending_any, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lw_pending_mutex);
    free(copy);
    LW_STORE(lw_tls.guard, guard);
}

void *libwrap_dl_route(void *a0, void *a1, void *a2, void *caller, int kind)
{
    void *to = lw_real_fn(kind);
    /* The common cases first, calling nothing: a sanitizer's start-up
     * looks up its originals here before its runtime works. */
    int quiet = kind == LW_DL_SYM || kind == LW_DL_VSYM
                    ? a0 == RTLD_NEXT || (!__atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE) &&
                                          !__atomic_load_n(&lw_typed_any, __ATOMIC_ACQUIRE))
                    : !__atomic_load_n(&lw_pending_any, __ATOMIC_ACQUIRE) && !lw_abi_calibration_wanted() &&
                          (kind == LW_DL_OPEN ? !((int)(intptr_t)a1 & RTLD_DEEPBIND) &&
                                                    (__atomic_load_n(&lw_abi_copying, __ATOMIC_RELAXED) ||
                                                     !__atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE))
                                              : (Lmid_t)(intptr_t)a0 == LM_ID_BASE);
    if (quiet)
        return to;
    int saved = errno;
    if (!LW_LOAD(lw_tls.guard) && !libwrap_resolving()) {
        lw_dl_check_pending();
        switch (kind) {
        case LW_DL_SYM:
        case LW_DL_VSYM: {
            struct lw_dl_table *t = NULL;
            const char *name = a1, *version = kind == LW_DL_VSYM ? a2 : NULL;
            libwrap_abi_entry *e;
            /* Under LD_PRELOAD the global scope finds a runtime wrapper
             * first, but not for dlvsym when the wrapper exports the plain
             * name (a function of one version: the lookup wants that
             * version's definition); a link-time wrapper (__wrap_SYM) must
             * be given. */
            if (a0 != RTLD_NEXT && name && (e = lw_dl_entry(name, version, &t)) &&
                (a0 != RTLD_DEFAULT || !e->lib || !e->lib->next ||
                 (kind == LW_DL_VSYM && !strchr(e->region.symbol, '@'))) &&
                !lw_dl_from_libwrap(caller))
                to = kind == LW_DL_SYM ? (void *)lw_dl_answer_sym : (void *)lw_dl_answer_vsym;
            /* A typed runtime wrapper: on a handle, or dlvsym (the global
             * scope finds it first for dlsym; for dlvsym only where it
             * exports that version, and the answer is then the wrapper). */
            else if (a0 != RTLD_NEXT && (a0 != RTLD_DEFAULT || kind == LW_DL_VSYM) && name &&
                     lw_dl_typed_has(name, version) && !lw_dl_from_libwrap(caller))
                to = kind == LW_DL_SYM ? (void *)lw_dl_answer_sym : (void *)lw_dl_answer_vsym;
            break;
        }
        case LW_DL_OPEN:
            if ((int)(intptr_t)a1 & RTLD_DEEPBIND)
                lw_dl_note_load(a0, 1);
            /* It may bring a target that an object before its wrapper
             * shadows, or a stack-copying library: asked at the next
             * check (lw_dl_check_pending). */
            pthread_mutex_lock(&lw_pending_mutex);
            if (__atomic_load_n(&lw_shadow_waiting, __ATOMIC_ACQUIRE))
                lw_pending_shadow = 1;
            if (!__atomic_load_n(&lw_abi_copying, __ATOMIC_RELAXED) && __atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE))
                lw_pending_copying = 1;
            __atomic_store_n(&lw_pending_any, lw_pending_any | lw_pending_shadow | lw_pending_copying,
                             __ATOMIC_RELEASE);
            pthread_mutex_unlock(&lw_pending_mutex);
            /* The load may bring a wrapper's target, whose calls come
             * next: calibrated before (lw_abi_calibrate_later). */
            if (lw_abi_calibration_wanted() && (__atomic_load_n(&lw_tables, __ATOMIC_ACQUIRE) ||
                                                __atomic_load_n(&lw_typed_any, __ATOMIC_ACQUIRE)))
                lw_abi_calibrate();
            break;
        case LW_DL_MOPEN:
            if ((Lmid_t)(intptr_t)a0 != LM_ID_BASE)
                lw_dl_note_load(a1, 0);
            break;
        }
    }
    errno = saved;
    return to;
}

#else /* LIBWRAP_STATIC: a static program loads nothing (dl.h) */

void *libwrap_answer_pointer(void *p)
{
    return p;
}

void libwrap_typed_register(void **orig, const char *symbol, const void *wrapper, const char *soname)
{
    (void)orig;
    (void)symbol;
    (void)wrapper;
    (void)soname;
}

void lw_dl_register(libwrap_abi_entry *entries, uint32_t n)
{
    (void)entries;
    (void)n;
}

int lw_dl_functions_unloaded(const char *glob)
{
    (void)glob;
    return 0;
}

void *lw_dl_past_wrappers(const libwrap_abi_entry *e, void *p)
{
    (void)e;
    return p;
}

void lw_dl_registered(libwrap_abi_entry *entries, uint32_t n)
{
    (void)entries;
    (void)n;
}

void lw_dl_check_pending(void)
{
}

void lw_dl_shadow_check(void)
{
}

#endif
