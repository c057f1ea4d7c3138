/*
 * merge.h - inside the trace merge (otf2_merge.h says what it does,
 * docs/mpi.md why this way): what its files share.
 *
 *   parts.c      reading a part's (or a group archive's) definitions;
 *                which parts a job directory holds, and their digest
 *   union.c      the merged definitions under the job's numbers, and the
 *                file a job of groups keeps them in (DIR/.traces-union)
 *   write.c      writing an archive: global definitions, and per location
 *                its event file linked and its local definitions
 *   otf2_merge.c the merges: a job from its parts, a group, a job from
 *                its group archives
 */
#ifndef LIBWRAP_OTF2_MERGE_INTERNAL_H
#define LIBWRAP_OTF2_MERGE_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <otf2/otf2.h>

#pragma GCC visibility push(hidden)

typedef struct {
    uint32_t name, canonical, description, file, begin, end;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
    OTF2_RegionFlag flags;
    int defined;
} mg_region;

typedef struct {
    uint32_t name, description, unit;
    OTF2_MetricType type;
    OTF2_MetricMode mode;
    OTF2_Type value_type;
    OTF2_Base base;
    int64_t exponent;
    int defined;
} mg_member;

typedef struct {
    uint32_t *members;
    uint8_t n;
    OTF2_MetricOccurrence occurrence;
    OTF2_RecorderKind kind;
    int defined;
} mg_class;

typedef struct {
    uint64_t id, events;
    uint64_t group; /* its location group */
    uint32_t name;
    OTF2_LocationType type;
} mg_location;

/* A location group of a group archive (a part has one, its process). */
typedef struct {
    uint64_t id;
    uint32_t name;
    uint64_t node; /* its system tree node: a host */
} mg_lgroup;

/* A parameter of recorded arguments (docs/arguments.md). */
typedef struct {
    uint32_t name;
    OTF2_ParameterType type;
    int defined;
} mg_param;

typedef struct {
    char *dir;  /* the part's directory */
    long rank;  /* from the directory name rank-N[.K] */
    long image; /* K: the images of one process that exec'd, 0 first */
    char *host;
    char **strings;
    size_t nstrings;
    mg_region *regions;
    size_t nregions;
    mg_location *locations;
    size_t nlocations;
    mg_member *members;
    size_t nmembers;
    mg_class *classes;
    size_t nclasses;
    mg_param *params;
    size_t nparams;
    uint64_t resolution, offset, length, realtime;
    uint64_t chunk; /* event chunk size: the merged archive reads its files with it */
    size_t npoints;
    uint64_t ticks[8], ns[8];
    uint64_t *region_map, *class_map, *location_map;
    /* Parameter events name a parameter and, for a string value, a string
     * of the part: both are mapped to the merged definitions. */
    uint64_t *param_map, *string_map;
    /* In the merged archive: its location group, host (system tree node)
     * and the names of both. */
    uint64_t lgroup, node;
    uint32_t lgroup_name, *location_name;
    /* Read from a group archive (ranks/G/traces.otf2) only. */
    mg_lgroup *lgroups;
    size_t nlgroups;
    uint32_t union_strings; /* LW_PROP_UNION_STRINGS: its strings below this are the job's */
    uint64_t nparts;        /* LW_PROP_PARTS */
    char *digest;           /* LW_PROP_PARTS_DIGEST */
} mg_part;

typedef struct {
    char *err;
    size_t errlen;
    char otf2_error[256];
} mg_ctx;

/* Strings by id, each once. */
typedef struct {
    char **keys; /* hashed; the same pointers as byid */
    uint32_t *vals;
    size_t mask, used;
    char **byid;
    uint32_t n, cap;
    int oom;
} mg_strings;

typedef struct {
    char *key;
    uint64_t id;
} mg_key;

/* Keys to ids: a sorted part, and a short unsorted tail sorted in when it
 * grows. */
typedef struct {
    mg_key *k;
    size_t n, sorted, cap;
} mg_index;

/*
 * The merged definitions that events refer to (regions, metrics,
 * parameters and the strings of their values) with the strings they name,
 * the hosts, and the numbers given out so far. A job's merge makes it from
 * the parts; a job of groups keeps it in DIR/.traces-union, each
 * group adding its parts in turn, so that every group archive uses the
 * job's numbers and its files are the job's (lw_trace_merge_group).
 */
typedef struct {
    mg_strings str;
    mg_index regk, memk, clsk, park, nodek;
    mg_region *reg;
    mg_member *mem;
    mg_class *cls;
    mg_param *par;
    uint32_t *node; /* a host's name */
    size_t nreg, nmem, ncls, npar, nnode;
    uint64_t next_location, chunk;
} mg_union;

/* What an archive's global definitions hold besides the union. */
typedef struct {
    const mg_lgroup *lgroups;
    size_t nlgroups;
    const mg_location *locations;
    size_t nlocations;
    uint64_t t0, t1; /* its first and last time, ns since the Unix epoch */
    /* LIBWRAP::* properties of the anchor, NULL-terminated pairs. */
    const char *const *props;
} mg_layout;

/* The merge running on this thread, for OTF2's error callback. */
extern __thread mg_ctx *mg_current;

/* ---- parts.c ------------------------------------------------------------ */

/* The first message of a merge into c->err; returns -1. */
int mg_fail(mg_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
OTF2_ErrorCode mg_otf2_error(void *data, const char *file, uint64_t line, const char *func,
                             OTF2_ErrorCode code, const char *fmt, va_list va);
/* Appends one element to an array of n that only this function grew. */
int mg_append(void **arr, size_t n, size_t elem, const void *v);
const char *mg_str(const mg_part *p, uint32_t ref);
int mg_read_part(mg_ctx *c, mg_part *p);
void mg_part_free(mg_part *p);
void mg_parts_free(mg_part *parts, size_t np);
int mg_part_cmp(const void *a, const void *b);
int mg_list_parts(mg_ctx *c, const char *dir, mg_part **out, size_t *n);
int mg_list_group(mg_ctx *c, const char *dir, long g, mg_part **out, size_t *n);
uint64_t mg_part_ns(const mg_part *p, uint64_t t);
void mg_digest_plain(const mg_part *parts, size_t np, char out[32]);
uint64_t mg_digest_group(uint64_t h, long g, const char *digest);
void mg_digest(const char *dir, const mg_part *parts, size_t np, char out[32]);
void mg_merged_digest(const char *anchor, char out[32]);

/* ---- union.c ------------------------------------------------------------ */

uint32_t mg_string(mg_strings *t, const char *s);
void mg_union_free(mg_union *u);
int mg_union_add(mg_ctx *c, mg_union *u, mg_part *p);
int mg_part_names(mg_ctx *c, mg_strings *s, mg_part *p);
int mg_union_load(mg_ctx *c, const char *path, mg_union *u);
int mg_union_write(mg_ctx *c, int fd, const char *path, const mg_union *u);

/* ---- write.c ------------------------------------------------------------ */

int mg_place(const char *src, const char *dst);
void mg_remove_archive(const char *dir);
int mg_write(mg_ctx *c, const char *dir, const mg_union *u, const mg_layout *L, mg_part *parts,
             size_t np);
int mg_layout_parts(mg_ctx *c, mg_union *u, mg_part *parts, size_t np, mg_layout *L);
void mg_layout_free(mg_layout *L);

#pragma GCC visibility pop

#endif /* LIBWRAP_OTF2_MERGE_INTERNAL_H */
