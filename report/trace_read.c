/*
 * trace_read.c - streams an OTF2 archive into a lwr_trace_sink.
 *
 * Locations are read one after another with their local event readers, so
 * memory stays at OTF2's chunk buffers plus one call stack per location, no
 * matter how many events the trace holds: consumers that need no global time
 * order (Chrome JSON, the timeline) get calls as each Leave arrives.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>

#include "report.h"

typedef struct {
    uint32_t name, canonical, file, line;
    int defined; /* 0: a number no definition gave (below the highest) */
} raw_region;

typedef struct {
    uint32_t region;
    uint64_t begin_ns;
} frame;

typedef struct {
    const char *anchor;
    const lwr_trace_sink *sink;
    int failed; /* a sink callback failed: stop reading */

    char **strings;
    size_t nstrings;
    raw_region *raw;
    size_t nraw, raw_cap; /* nraw: the highest region defined, plus 1 */
    lwr_region *regions;
    size_t nregions;
    uint64_t *locations;
    uint32_t *location_names;
    uint64_t *location_events; /* as defined; 0: the writer may have made no event file */
    uint32_t *location_groups;
    size_t nlocations;
    uint32_t *group_names; /* by location group id */
    size_t ngroups, ngroups_defined;
    int64_t rank; /* >= 0: only the locations of this rank */
    /* Metric classes: member ids; instances resolve to their class. */
    uint32_t **class_members;
    uint8_t *class_count;
    uint32_t *member_name;
    size_t nclasses, nmembers;

    uint64_t resolution, offset, length;

    frame *stack;
    size_t depth, cap;
    uint64_t last_ns;
    uint64_t unmatched;
} reader;

/* p, of *cap elements, grown to `need` at least (to a power of two), the
 * new elements zero: a capacity, not a count of definitions. */
static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *r = realloc(p, n * elem);
    if (!r) {
        perror(LWR_PROG);
        exit(1);
    }
    memset((char *)r + *cap * elem, 0, (n - *cap) * elem);
    *cap = n;
    return r;
}

static const char *str(const reader *r, uint32_t ref)
{
    return ref < r->nstrings && r->strings[ref] ? r->strings[ref] : "";
}

static OTF2_CallbackCode def_string(void *ud, OTF2_StringRef self, const char *s)
{
    reader *r = ud;
    r->strings = grow(r->strings, &r->nstrings, (size_t)self + 1, sizeof *r->strings);
    free(r->strings[self]);
    r->strings[self] = strdup(s);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canonical,
                                    OTF2_StringRef description, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin, uint32_t end)
{
    reader *r = ud;
    r->raw = grow(r->raw, &r->raw_cap, (size_t)self + 1, sizeof *r->raw);
    r->raw[self] = (raw_region){name, canonical, file, begin, 1};
    if (self >= r->nraw)
        r->nraw = (size_t)self + 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
                                      uint64_t nevents, OTF2_LocationGroupRef group)
{
    reader *r = ud;
    size_t cap = r->nlocations, cap2 = r->nlocations, cap3 = r->nlocations, cap4 = r->nlocations;
    r->locations = grow(r->locations, &cap, r->nlocations + 1, sizeof *r->locations);
    r->location_names = grow(r->location_names, &cap2, r->nlocations + 1, sizeof *r->location_names);
    r->location_events = grow(r->location_events, &cap3, r->nlocations + 1, sizeof *r->location_events);
    r->location_groups = grow(r->location_groups, &cap4, r->nlocations + 1, sizeof *r->location_groups);
    r->locations[r->nlocations] = self;
    r->location_events[r->nlocations] = nevents;
    r->location_groups[r->nlocations] = group;
    r->location_names[r->nlocations++] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *ud, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                   OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                   OTF2_LocationGroupRef creator)
{
    reader *r = ud;
    size_t had = r->ngroups;
    r->group_names = grow(r->group_names, &r->ngroups, (size_t)self + 1, sizeof *r->group_names);
    /* The numbers no definition gives name no string (str: ""). */
    for (size_t i = had; i < r->ngroups; i++)
        r->group_names[i] = OTF2_UNDEFINED_STRING;
    r->group_names[self] = name;
    r->ngroups_defined++;
    return OTF2_CALLBACK_SUCCESS;
}

/* A job's trace names its location groups "rank N" (otf2_merge.c). */
static int group_rank(const reader *r, uint32_t group, int64_t *rank)
{
    const char *name = group < r->ngroups ? str(r, r->group_names[group]) : "";
    char *end;
    if (strncmp(name, "rank ", 5) != 0 || name[5] < '0' || name[5] > '9')
        return 0;
    *rank = strtoll(name + 5, &end, 10);
    return 1;
}

static OTF2_CallbackCode def_clock(void *ud, uint64_t resolution, uint64_t offset, uint64_t length,
                                   uint64_t realtime)
{
    reader *r = ud;
    r->resolution = resolution;
    r->offset = offset;
    r->length = length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_member(void *ud, OTF2_MetricMemberRef self, OTF2_StringRef name,
                                    OTF2_StringRef description, OTF2_MetricType type, OTF2_MetricMode mode,
                                    OTF2_Type value_type, OTF2_Base base, int64_t exponent, OTF2_StringRef unit)
{
    reader *r = ud;
    size_t had = r->nmembers;
    r->member_name = grow(r->member_name, &r->nmembers, (size_t)self + 1, sizeof *r->member_name);
    for (size_t i = had; i < r->nmembers; i++)
        r->member_name[i] = OTF2_UNDEFINED_STRING;
    r->member_name[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static void set_class(reader *r, uint32_t self, uint8_t n, const uint32_t *members)
{
    size_t cap = r->nclasses;
    r->class_members = grow(r->class_members, &cap, (size_t)self + 1, sizeof *r->class_members);
    r->class_count = grow(r->class_count, &r->nclasses, (size_t)self + 1, sizeof *r->class_count);
    free(r->class_members[self]);
    r->class_members[self] = malloc((n ? n : 1) * sizeof(uint32_t));
    if (!r->class_members[self]) {
        perror(LWR_PROG);
        exit(1);
    }
    memcpy(r->class_members[self], members, n * sizeof(uint32_t));
    r->class_count[self] = n;
}

static OTF2_CallbackCode def_class(void *ud, OTF2_MetricRef self, uint8_t n, const OTF2_MetricMemberRef *members,
                                   OTF2_MetricOccurrence occurrence, OTF2_RecorderKind kind)
{
    set_class(ud, self, n, members);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_instance(void *ud, OTF2_MetricRef self, OTF2_MetricRef cls,
                                      OTF2_LocationRef recorder, OTF2_MetricScope scope, uint64_t scope_ref)
{
    reader *r = ud;
    if (cls < r->nclasses)
        set_class(r, self, r->class_count[cls], r->class_members[cls]);
    return OTF2_CALLBACK_SUCCESS;
}

static uint64_t to_ns(const reader *r, OTF2_TimeStamp t)
{
    uint64_t d = t > r->offset ? t - r->offset : 0;
    if (r->resolution == 1000000000u || r->resolution == 0)
        return d;
    return (uint64_t)((unsigned __int128)d * 1000000000u / r->resolution);
}

static OTF2_CallbackCode evt_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                   OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    reader *r = ud;
    r->stack = grow(r->stack, &r->cap, r->depth + 1, sizeof *r->stack);
    r->last_ns = to_ns(r, t);
    r->stack[r->depth++] = (frame){region, r->last_ns};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode evt_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                   OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    reader *r = ud;
    r->last_ns = to_ns(r, t);
    /* A Leave without its Enter (a damaged trace): count it, keep going. */
    if (r->depth == 0 || r->stack[r->depth - 1].region != region) {
        r->unmatched++;
        return OTF2_CALLBACK_SUCCESS;
    }
    frame f = r->stack[--r->depth];
    int undefined = region >= r->nregions || !r->raw[region].defined;
    if (undefined || r->sink->call(r->sink->ud, region, f.begin_ns, r->last_ns, (unsigned)r->depth)) {
        if (undefined)
            fprintf(stderr, "%s: %s: event refers to undefined region %u\n", LWR_PROG, r->anchor, region);
        r->failed = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode evt_metric(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *ud,
                                    OTF2_AttributeList *attrs, OTF2_MetricRef metric, uint8_t n,
                                    const OTF2_Type *types, const OTF2_MetricValue *values)
{
    reader *r = ud;
    if (!r->sink->metric || metric >= r->nclasses)
        return OTF2_CALLBACK_SUCCESS;
    uint64_t ns = to_ns(r, t);
    for (uint8_t i = 0; i < n && i < r->class_count[metric]; i++) {
        uint32_t m = r->class_members[metric][i];
        const char *name = m < r->nmembers ? str(r, r->member_name[m]) : "";
        name = *name ? name : "metric";
        double v = types[i] == OTF2_TYPE_DOUBLE ? values[i].floating_point
                   : types[i] == OTF2_TYPE_INT64 ? (double)values[i].signed_int
                                                 : (double)values[i].unsigned_int;
        if (r->sink->metric(r->sink->ud, name, ns, v)) {
            r->failed = 1;
            return OTF2_CALLBACK_INTERRUPT;
        }
    }
    return OTF2_CALLBACK_SUCCESS;
}

static int otf2_fail(const reader *r, OTF2_ErrorCode e, const char *what)
{
    fprintf(stderr, "%s: %s: %s: %s (%s); is it a complete OTF2 archive written with LIBWRAP_ENABLE_TRACING=true?\n",
            LWR_PROG, r->anchor, what, OTF2_Error_GetDescription(e), OTF2_Error_GetName(e));
    return -1;
}

/* OTF2 prints its own diagnostics by default; ours name the file instead. */
static OTF2_ErrorCode quiet(void *ud, const char *file, uint64_t line, const char *fn, OTF2_ErrorCode code,
                            const char *fmt, va_list va)
{
    return code;
}

static int read_location(reader *r, OTF2_Reader *rd, size_t i)
{
    OTF2_EvtReader *evt = OTF2_Reader_GetEvtReader(rd, r->locations[i]);
    int empty = r->location_events[i] == 0;
    if (!evt && empty)
        return 0;
    if (!evt) {
        fprintf(stderr, "%s: %s: cannot open the events of location %s (is traces/%llu.evt missing?)\n", LWR_PROG,
                r->anchor, str(r, r->location_names[i]), (unsigned long long)r->locations[i]);
        return -1;
    }
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, evt_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, evt_leave);
    OTF2_EvtReaderCallbacks_SetMetricCallback(cb, evt_metric);
    OTF2_Reader_RegisterEvtCallbacks(rd, evt, cb, r);
    OTF2_EvtReaderCallbacks_Delete(cb);

    r->depth = 0;
    r->unmatched = 0;
    r->last_ns = 0;
    uint32_t g = r->location_groups[i];
    if (r->sink->location_begin(r->sink->ud, r->locations[i], str(r, r->location_names[i]), g,
                                g < r->ngroups ? str(r, r->group_names[g]) : "", r->ngroups_defined))
        return -1;
    uint64_t n = 0;
    OTF2_ErrorCode e = OTF2_Reader_ReadAllLocalEvents(rd, evt, &n);
    if (r->failed)
        return -1;
    /* A location defined without events may have no event file at all. */
    if (e != OTF2_SUCCESS && e != OTF2_ERROR_INTERRUPTED_BY_CALLBACK && !(empty && n == 0))
        return otf2_fail(r, e, "cannot read events");
    if (r->unmatched || r->depth)
        fprintf(stderr, "%s: %s: warning: location %s: %llu Leave events without Enter, %zu calls never left "
                        "(closed at the last event); the trace is incomplete\n",
                LWR_PROG, r->anchor, str(r, r->location_names[i]), (unsigned long long)r->unmatched, r->depth);
    while (r->depth > 0) {
        frame f = r->stack[--r->depth];
        if (f.region < r->nregions && r->raw[f.region].defined && r->sink->call(r->sink->ud, f.region, f.begin_ns, r->last_ns, (unsigned)r->depth))
            return -1;
    }
    OTF2_Reader_CloseEvtReader(rd, evt);
    return r->sink->location_end ? r->sink->location_end(r->sink->ud) : 0;
}

static void reader_free(reader *r)
{
    for (size_t i = 0; i < r->nstrings; i++)
        free(r->strings[i]);
    free(r->strings);
    for (size_t i = 0; i < r->nregions; i++) {
        free(r->regions[i].name);
        free(r->regions[i].symbol);
        free(r->regions[i].file);
    }
    free(r->regions);
    free(r->raw);
    free(r->locations);
    free(r->location_names);
    free(r->location_events);
    free(r->location_groups);
    free(r->group_names);
    for (size_t i = 0; i < r->nclasses; i++)
        free(r->class_members[i]);
    free(r->class_members);
    free(r->class_count);
    free(r->member_name);
    free(r->stack);
}

int lwr_trace_read(const char *anchor, const lwr_trace_sink *sink, int64_t rank)
{
    reader r = {.anchor = anchor, .sink = sink, .rank = rank};
    FILE *probe = fopen(anchor, "rb");
    if (!probe) {
        int err = errno;
        char *dir = lwr_xstrdup(anchor);
        char *slash = strrchr(dir, '/');
        struct stat st;
        if (slash)
            *slash = 0;
        int no_dir = stat(slash ? (*dir ? dir : "/") : ".", &st) != 0 && errno == ENOENT;
        free(dir);
        if (err != ENOENT)
            fprintf(stderr, "%s: %s: cannot read: %s\n", LWR_PROG, anchor, strerror(err));
        else if (no_dir) /* as lwr_profile_load says it */
            fprintf(stderr, "%s: %s: no such file; is this a libwrap experiment directory "
                            "(LIBWRAP_EXPERIMENT_DIRECTORY) with tracing on?\n",
                    LWR_PROG, anchor);
        else if (lwr_dir_unfinished(anchor, "LIBWRAP_ENABLE_TRACING"))
            fprintf(stderr, "%s: %s: %s\n", LWR_PROG, anchor, LWR_UNFINISHED);
        else
            fprintf(stderr, "%s: %s: no trace here; run the program with LIBWRAP_ENABLE_TRACING=true\n", LWR_PROG,
                    anchor);
        return -1;
    }
    fclose(probe);

    OTF2_Error_RegisterCallback(quiet, NULL);
    OTF2_Reader *rd = OTF2_Reader_Open(anchor);
    if (!rd) {
        fprintf(stderr, "%s: %s: not an OTF2 archive (cannot open it)\n", LWR_PROG, anchor);
        return -1;
    }
    int rc = -1;
    OTF2_ErrorCode e = OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    if (e != OTF2_SUCCESS) {
        otf2_fail(&r, e, "not an OTF2 archive");
        goto out;
    }
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
    if (!gdr) {
        fprintf(stderr, "%s: %s: cannot open the global definitions (is traces.def missing?)\n", LWR_PROG, anchor);
        goto out;
    }
    OTF2_GlobalDefReaderCallbacks *gcb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(gcb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(gcb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, def_location);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(gcb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(gcb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(gcb, def_member);
    OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(gcb, def_class);
    OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(gcb, def_instance);
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, gcb, &r);
    OTF2_GlobalDefReaderCallbacks_Delete(gcb);
    uint64_t ndefs = 0;
    e = OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &ndefs);
    if (e != OTF2_SUCCESS) {
        otf2_fail(&r, e, "cannot read the global definitions (traces.def)");
        goto out;
    }
    OTF2_Reader_CloseGlobalDefReader(rd, gdr);

    r.regions = calloc(r.nraw ? r.nraw : 1, sizeof *r.regions);
    if (!r.regions) {
        perror(LWR_PROG);
        exit(1);
    }
    r.nregions = r.nraw;
    for (size_t i = 0; i < r.nraw; i++) {
        /* A number between definitions names nothing. */
        const char *name = r.raw[i].defined ? str(&r, r.raw[i].name) : "",
                   *sym = r.raw[i].defined ? str(&r, r.raw[i].canonical) : "";
        r.regions[i].name = strdup(lwr_display_name(name, sym));
        r.regions[i].symbol = strdup(*sym ? sym : name);
        r.regions[i].file = strdup(r.raw[i].defined ? str(&r, r.raw[i].file) : "");
        r.regions[i].line = r.raw[i].line;
    }
    uint64_t duration = to_ns(&r, r.offset + r.length);
    if (sink->defs(sink->ud, r.regions, r.nregions, duration))
        goto out;

    /* One rank of a job: only its locations are read. */
    if (rank >= 0) {
        size_t kept = 0;
        for (size_t i = 0; i < r.nlocations; i++) {
            int64_t lr;
            if (!group_rank(&r, r.location_groups[i], &lr) || lr != rank)
                continue;
            r.locations[kept] = r.locations[i];
            r.location_names[kept] = r.location_names[i];
            r.location_events[kept] = r.location_events[i];
            r.location_groups[kept++] = r.location_groups[i];
        }
        if (kept == 0) {
            fprintf(stderr, "%s: %s: no thread of rank %lld in this trace\n", LWR_PROG, anchor, (long long)rank);
            goto out;
        }
        r.nlocations = kept;
    }

    for (size_t i = 0; i < r.nlocations; i++)
        OTF2_Reader_SelectLocation(rd, r.locations[i]);
    /* Local definition files are optional; without them there is nothing to map. */
    int defs_open = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
    e = OTF2_Reader_OpenEvtFiles(rd);
    if (e != OTF2_SUCCESS) {
        otf2_fail(&r, e, "cannot open the event files (traces/)");
        goto out;
    }
    for (size_t i = 0; i < r.nlocations && defs_open; i++) {
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, r.locations[i]);
        if (dr) {
            uint64_t n = 0;
            OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
            OTF2_Reader_CloseDefReader(rd, dr);
        }
    }
    if (defs_open)
        OTF2_Reader_CloseDefFiles(rd);
    rc = 0;
    for (size_t i = 0; i < r.nlocations && rc == 0; i++)
        rc = read_location(&r, rd, i);
    OTF2_Reader_CloseEvtFiles(rd);
out:
    OTF2_Reader_Close(rd);
    reader_free(&r);
    return rc;
}
