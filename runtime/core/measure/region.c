/*
 * region.c - the table of measured functions ("regions") and the runtime
 * filter (LIBWRAP_FILTERING_FILE, SPEC section 3, parsed by common/filter.c
 * as the generator does).
 *
 * Each wrapper registers its static libwrap_region on its first call; the id
 * is published with a release store, so later calls read it lock-free. Ids
 * are dense from 1: region id i is lw_regions[i - 1].
 */
#include "core/measure/listen.h"
#include "core/measure/hooks.h"
#include "core/measure/lane.h"
#include "hash.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Excluded by the runtime filter / measurement switched off. */
#define LW_REGION_FILTERED (-1)
#define LW_REGION_DISABLED (-2)

/* Lock 1 of the order in core/measure/measure.h. */
static pthread_mutex_t lw_regions_mutex = PTHREAD_MUTEX_INITIALIZER;
static const libwrap_region **lw_regions;
static unsigned char *lw_region_kinds; /* enum lw_wrapper_kind, beside lw_regions */
static const char **lw_region_names;   /* display names (lw_region_name), beside lw_regions */
static size_t lw_nregions;
static lw_filter *lw_runtime_filter;

uint64_t (*lw_region_args_select)(int32_t id, const libwrap_region *r, const libwrap_params *p, int abi);

void lw_region_init(void)
{
    if (!lw_cfg.filtering_file)
        return;
    char err[1024];
    lw_runtime_filter = lw_filter_load(lw_cfg.filtering_file, err, sizeof err);
    if (!lw_runtime_filter)
        lw_warn("%s; LIBWRAP_FILTERING_FILE is ignored, every function is measured "
                "(fix the file or unset the variable)",
                err);
    else
        lw_log(LW_LOG_REGION, "runtime filter %s loaded", lw_cfg.filtering_file);
}

#ifdef LIBWRAP_NOP
int32_t libwrap_region_register(libwrap_region *region)
{
    __atomic_store_n(&region->id, 1, __ATOMIC_RELEASE);
    return 1;
}

int32_t libwrap_region_register_params(libwrap_region *region, libwrap_params *params)
{
    (void)params;
    return libwrap_region_register(region);
}

int32_t lw_region_register_abi(libwrap_abi_entry *e)
{
    return libwrap_region_register(&e->region);
}
#else
static size_t lw_regions_cap;

/* A rule of the runtime filter that names a function by the name its
 * header renames (gmp's mpz_gcd is __gmpz_gcd, ICU's ucnv_open
 * ucnv_open_72) matches nothing: said once a rule, as the function the
 * program calls registers. Under the region lock. */
static void lw_filter_renamed_warn(const char *name)
{
    static const char *said[16];
    static size_t nsaid;
    size_t line = 0;
    const char *rule = lw_filter_renamed(lw_runtime_filter, name, &line);
    if (!rule)
        return;
    for (size_t i = 0; i < nsaid; i++)
        if (said[i] == rule)
            return;
    if (nsaid < sizeof said / sizeof *said)
        said[nsaid++] = rule;
    lw_warn("LIBWRAP_FILTERING_FILE %s:%zu: \"%s\" names no function: its header renames it, and "
            "the program calls %s; name that in the rule",
            lw_cfg.filtering_file, line, rule, name);
}

/*
 * One function, one region: two wrappers of one library in a process (a
 * program or module linked with the link-time wrapper, the runtime
 * wrapper preloaded) each register the function, and their calls are one
 * function's, in one row and one call-path node (report.md: a function's
 * identity is its linker symbol). Regions are found by symbol, display
 * name and declaring file: an index of ids, open addressing, a power of
 * two at least twice the regions. Under the region lock.
 */
static int32_t *lw_region_index;
static size_t lw_region_index_cap;

static uint64_t lw_region_key(const libwrap_region *r, const char *name)
{
    uint64_t h = lw_fnv1a_add(lw_fnv1a(r->symbol), name);
    return lw_fnv1a_add(h, r->file ? r->file : "");
}

static int lw_region_same(const libwrap_region *a, const char *aname, const libwrap_region *b, const char *bname)
{
    return !strcmp(a->symbol, b->symbol) && !strcmp(aname, bname) &&
           !strcmp(a->file ? a->file : "", b->file ? b->file : "");
}

static void lw_region_index_put(int32_t id)
{
    size_t mask = lw_region_index_cap - 1;
    size_t i = (size_t)lw_region_key(lw_regions[id - 1], lw_region_names[id - 1]) & mask;
    while (lw_region_index[i])
        i = (i + 1) & mask;
    lw_region_index[i] = id;
}

/* The id of a region of the same function, or 0. */
static int32_t lw_region_find(const libwrap_region *r, const char *name)
{
    if (!lw_region_index_cap)
        return 0;
    size_t mask = lw_region_index_cap - 1;
    for (size_t i = (size_t)lw_region_key(r, name) & mask; lw_region_index[i]; i = (i + 1) & mask) {
        int32_t id = lw_region_index[i];
        if (lw_region_same(lw_regions[id - 1], lw_region_names[id - 1], r, name))
            return id;
    }
    return 0;
}

/* Region `id`, just added, into the index (grown as needed: without
 * memory, the region is not found by a later wrapper of the function). */
static void lw_region_index_add(int32_t id)
{
    if ((size_t)id * 2 > lw_region_index_cap) {
        size_t cap = lw_region_index_cap ? lw_region_index_cap * 2 : 512;
        int32_t *v = calloc(cap, sizeof *v);
        if (!v)
            return;
        free(lw_region_index);
        lw_region_index = v;
        lw_region_index_cap = cap;
        for (int32_t k = 1; k < id; k++)
            lw_region_index_put(k);
    }
    lw_region_index_put(id);
}

/* The arguments of region `id` to record, for the wrapper of `region`:
 * into `params`, and an ABI-level entry's flags. */
static void lw_region_record(int32_t id, const libwrap_region *region, libwrap_params *params,
                             libwrap_abi_entry *abi)
{
    uint64_t record = params && lw_region_args_select ? lw_region_args_select(id, region, params, abi != NULL) : 0;
    if (!record)
        return;
    __atomic_store_n(&params->record, record, __ATOMIC_RELAXED);
    /* The trampoline's hooks test a flag each: parameters at entry, the
     * result at exit. */
    int res = lw_args_result_index(params);
    uint64_t result = res >= 0 ? record & (1ull << res) : 0;
    uint32_t flags = (record & ~result ? LIBWRAP_ABI_RECORD : 0) | (result ? LIBWRAP_ABI_RECORD_RESULT : 0);
    if (abi)
        __atomic_fetch_or(&abi->flags, flags, __ATOMIC_RELAXED);
}

/* Registers `region`; `params` (may be NULL) gets the arguments to record,
 * and an ABI-level entry `abi` (or NULL) its LIBWRAP_ABI_RECORD flag,
 * before the id is published: a wrapper that reads the id sees them. */
static int32_t lw_register(libwrap_region *region, libwrap_params *params, libwrap_abi_entry *abi)
{
    int32_t id = __atomic_load_n(&region->id, __ATOMIC_ACQUIRE);
    if (id)
        return id;
    /* The runtime itself calls the wrapped function (the wrapped library is
     * the allocator or libc: strdup while starting, malloc while writing
     * results, realloc below under the region lock). Checked before
     * lw_ensure_started and before any lock: this thread may be the one
     * running the start-up (pthread_once would wait for itself) or holding
     * the lock. Not stored: a later call, outside the runtime, registers it. */
    if (LW_LOAD(lw_tls.guard)) {
        /* A signal handler that interrupted the runtime: the call is
         * counted in the thread's lane, registered at its merge. */
        if ((LW_LOAD(lw_tls.guard) & LW_GUARD_SIGNAL) && !abi)
            lw_lane_first_call(region, params);
        return LW_REGION_FILTERED;
    }
    /* Signals held back (lw_signals_hold): the start-up, the region lock,
     * allocations. */
    sigset_t held;
    lw_signals_hold(&held);
    lw_ensure_started();
    if (LW_LOAD(lw_state) != 1) {
        lw_signals_release(&held);
        return LW_REGION_FILTERED;
    }
    /* The process calls the library: what its start-up said. */
    lw_messages_release();

    int saved = errno;
    LW_STORE(lw_tls.guard, 1);
    pthread_mutex_lock(&lw_regions_mutex);
    id = region->id;
    if (!id) {
        /* The display name, once: name, else symbol. */
        const char *name = region->name && *region->name ? region->name : region->symbol;
        if (!lw_cfg.profiling && !lw_nlisteners) {
            id = LW_REGION_DISABLED;
        } else if (lw_runtime_filter &&
                   lw_filter_excludes(lw_runtime_filter, region->file, region->symbol, name)) {
            id = LW_REGION_FILTERED;
            lw_log(LW_LOG_REGION, "%s excluded by the runtime filter", region->symbol);
        } else if ((id = lw_region_find(region, name)) > 0) {
            lw_log(LW_LOG_REGION, "%s is region %d, as another wrapper's", region->symbol, id);
            lw_region_record(id, region, params, abi);
        } else {
            id = 0;
            if (lw_runtime_filter)
                lw_filter_renamed_warn(name);
            if (lw_nregions == lw_regions_cap) {
                size_t cap = lw_regions_cap ? lw_regions_cap * 2 : 256;
                const libwrap_region **v = realloc(lw_regions, cap * sizeof *v);
                if (v)
                    lw_regions = v;
                unsigned char *k = v ? realloc(lw_region_kinds, cap) : NULL;
                if (k)
                    lw_region_kinds = k;
                const char **nm = k ? realloc(lw_region_names, cap * sizeof *nm) : NULL;
                if (nm) {
                    lw_region_names = nm;
                    lw_regions_cap = cap;
                }
            }
            if (lw_nregions < lw_regions_cap) {
                lw_region_kinds[lw_nregions] = LW_KIND_TYPED;
                lw_region_names[lw_nregions] = name;
                lw_regions[lw_nregions++] = region;
                id = (int32_t)lw_nregions;
                lw_region_index_add(id);
                lw_log(LW_LOG_REGION, "%s is region %d", region->symbol, id);
                lw_region_record(id, region, params, abi);
                lw_hook->region(id, region); /* before any thread can enter it */
            }
        }
        if (id)
            __atomic_store_n(&region->id, id, __ATOMIC_RELEASE);
        else
            id = LW_REGION_FILTERED; /* out of memory: not measured this time */
    }
    pthread_mutex_unlock(&lw_regions_mutex);
    LW_STORE(lw_tls.guard, 0);
    errno = saved;
    lw_signals_release(&held);
    return id;
}

int32_t libwrap_region_register(libwrap_region *region)
{
    return lw_register(region, NULL, NULL);
}

int32_t libwrap_region_register_params(libwrap_region *region, libwrap_params *params)
{
    return lw_register(region, params, NULL);
}

int32_t lw_region_register_abi(libwrap_abi_entry *e)
{
    libwrap_params *params = NULL;
    if ((e->flags & LIBWRAP_ABI_PARAMS) && e->lib && e->lib->params)
        params = &e->lib->params[LIBWRAP_ABI_INDEX(e->flags)];
    return lw_register(&e->region, params, e);
}
#endif

size_t lw_region_count(void)
{
    return lw_nregions;
}

const libwrap_region *lw_region_get(int32_t id)
{
    return id > 0 && (size_t)id <= lw_nregions ? lw_regions[id - 1] : NULL;
}

const char *lw_region_name(int32_t id)
{
    return id > 0 && (size_t)id <= lw_nregions ? lw_region_names[id - 1] : "?";
}

const libwrap_region *const *lw_region_table(size_t *n)
{
    *n = lw_nregions;
    return lw_regions;
}

/* Once per region, from the ABI path's first call of it. */
void lw_region_set_kind(int32_t id, enum lw_wrapper_kind kind)
{
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1);
    pthread_mutex_lock(&lw_regions_mutex);
    if (id > 0 && (size_t)id <= lw_nregions)
        lw_region_kinds[id - 1] = (unsigned char)kind;
    pthread_mutex_unlock(&lw_regions_mutex);
    LW_STORE(lw_tls.guard, guard);
}

/* With the region lock held (the finaliser). */
enum lw_wrapper_kind lw_region_kind(int32_t id)
{
    return id > 0 && (size_t)id <= lw_nregions ? (enum lw_wrapper_kind)lw_region_kinds[id - 1]
                                               : LW_KIND_TYPED;
}

void lw_region_lock(void)
{
    pthread_mutex_lock(&lw_regions_mutex);
}

void lw_region_unlock(void)
{
    pthread_mutex_unlock(&lw_regions_mutex);
}

void lw_region_after_fork_child(void)
{
    pthread_mutex_init(&lw_regions_mutex, NULL);
}
