/*
 * timeline.c - a downsampled per-thread timeline for the HTML report.
 *
 * A page cannot show millions of calls, and should not carry them. Spans
 * are kept at full detail until there are more than the budget; then the
 * merge threshold doubles and every lane is compacted: a short call joins
 * the previous span at its depth when the gap between them is short too,
 * and the span counts the calls it covers. Memory and output stay bounded
 * by the budget whatever the trace size, and small traces keep every call.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define MAX_DEPTH 64 /* deeper calls are counted, not drawn */
#define MIXED UINT32_MAX

typedef struct {
    uint32_t region; /* MIXED when merged calls differ */
    uint32_t depth;
    uint64_t begin, end, count;
} span;

typedef struct {
    char *name;
    uint64_t id;
    span *spans; /* per depth in time order; depths interleaved */
    size_t n, cap;
} lane;

struct lwr_timeline {
    char **names;
    size_t nregions;
    uint64_t first, last; /* time range of the calls */
    uint64_t threshold;   /* ns; 0 until the budget is first exceeded */
    int saturated;        /* merging cannot shrink further: drop instead */
    lane *lanes;
    size_t nlanes;
    size_t total, max_spans;
    uint64_t dropped;
    size_t last_at[MAX_DEPTH]; /* 1 + index of the current lane's last span per depth; 0: none */
};

/* A merged span stays within two thresholds, so that coarsening degrades
 * the picture step by step (halving the spans) instead of collapsing a
 * regular trace into one bar per depth. */
static int mergeable(const span *prev, const span *s, uint64_t thr)
{
    return s->end - s->begin < thr && (prev->count > 1 || prev->end - prev->begin < thr) && s->begin >= prev->end &&
           s->begin - prev->end <= thr && s->end - prev->begin <= 2 * thr;
}

static void merge(span *prev, const span *s)
{
    if (prev->region != s->region)
        prev->region = MIXED;
    prev->end = s->end;
    prev->count += s->count;
}

/* Compacts a lane under the current threshold; `keep` gets the last span per depth. */
static size_t remerge(lane *l, uint64_t thr, size_t keep[MAX_DEPTH])
{
    size_t w = 0;
    memset(keep, 0, MAX_DEPTH * sizeof *keep);
    for (size_t r = 0; r < l->n; r++) {
        span s = l->spans[r];
        size_t k = keep[s.depth];
        if (k && mergeable(&l->spans[k - 1], &s, thr)) {
            merge(&l->spans[k - 1], &s);
        } else {
            l->spans[w] = s;
            keep[s.depth] = ++w;
        }
    }
    size_t removed = l->n - w;
    l->n = w;
    return removed;
}

static void coarsen(lwr_timeline *t)
{
    size_t keep[MAX_DEPTH];
    while (t->total > t->max_spans / 4 * 3) {
        /* Beyond the whole range every short neighbour is merged already. */
        if (t->threshold > t->last - t->first) {
            t->saturated = 1;
            return;
        }
        t->threshold = t->threshold ? 2 * t->threshold : 1;
        for (size_t k = 0; k < t->nlanes; k++) {
            t->total -= remerge(&t->lanes[k], t->threshold, keep);
            if (k + 1 == t->nlanes)
                memcpy(t->last_at, keep, sizeof keep);
        }
    }
}

static int on_defs(void *ud, const lwr_region *regions, size_t n, uint64_t duration)
{
    lwr_timeline *t = ud;
    t->names = calloc(n ? n : 1, sizeof *t->names);
    if (!t->names) {
        perror(LWR_PROG);
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        t->names[i] = strdup(regions[i].name);
    t->nregions = n;
    return 0;
}

static int on_location(void *ud, uint64_t id, const char *name, uint32_t group, const char *group_name,
                       size_t ngroups)
{
    lwr_timeline *t = ud;
    lane *l = realloc(t->lanes, (t->nlanes + 1) * sizeof *l);
    if (!l) {
        perror(LWR_PROG);
        exit(1);
    }
    t->lanes = l;
    l[t->nlanes] = (lane){.name = strdup(*name ? name : "thread"), .id = id};
    t->nlanes++;
    memset(t->last_at, 0, sizeof t->last_at);
    return 0;
}

static int on_call(void *ud, uint32_t region, uint64_t begin, uint64_t end, unsigned depth)
{
    lwr_timeline *t = ud;
    if (depth >= MAX_DEPTH) {
        t->dropped++;
        return 0;
    }
    if (begin < t->first)
        t->first = begin;
    if (end > t->last)
        t->last = end;
    lane *l = &t->lanes[t->nlanes - 1];
    span s = {region, depth, begin, end, 1};
    size_t k = t->last_at[depth];
    if (k && mergeable(&l->spans[k - 1], &s, t->threshold)) {
        merge(&l->spans[k - 1], &s);
        return 0;
    }
    if (t->saturated && t->total >= t->max_spans) {
        t->dropped++;
        return 0;
    }
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        span *ns = realloc(l->spans, l->cap * sizeof *ns);
        if (!ns) {
            perror(LWR_PROG);
            exit(1);
        }
        l->spans = ns;
    }
    l->spans[l->n++] = s;
    t->last_at[depth] = l->n;
    if (++t->total > t->max_spans && !t->saturated)
        coarsen(t);
    return 0;
}

int lwr_timeline_build(const char *anchor, size_t max_spans, int64_t rank, lwr_timeline **out)
{
    lwr_timeline *t = calloc(1, sizeof *t);
    if (!t) {
        perror(LWR_PROG);
        exit(1);
    }
    t->max_spans = max_spans;
    t->first = UINT64_MAX;
    lwr_trace_sink sink = {t, on_defs, on_location, on_call, NULL, NULL};
    if (lwr_trace_read(anchor, &sink, rank)) {
        lwr_timeline_free(t);
        return -1;
    }
    *out = t;
    return 0;
}

void lwr_timeline_write_js(FILE *out, const lwr_timeline *t)
{
    uint64_t first = t->first == UINT64_MAX ? 0 : t->first;
    fprintf(out, "{\"start\":%llu,\"duration\":%llu,\"dropped\":%llu,\"regions\":[", (unsigned long long)first,
            (unsigned long long)(t->last - first), (unsigned long long)t->dropped);
    for (size_t i = 0; i < t->nregions; i++) {
        if (i)
            fputc(',', out);
        lwr_json_string(out, t->names[i]);
    }
    fputs("],\"threads\":[", out);
    for (size_t k = 0; k < t->nlanes; k++) {
        const lane *l = &t->lanes[k];
        fprintf(out, "%s\n{\"name\":", k ? "," : "");
        lwr_json_string(out, l->name);
        fputs(",\"spans\":[", out);
        for (size_t i = 0; i < l->n; i++) {
            const span *s = &l->spans[i];
            fprintf(out, "%s[%d,%u,%llu,%llu,%llu]", i ? "," : "", s->region == MIXED ? -1 : (int)s->region,
                    s->depth, (unsigned long long)(s->begin - first), (unsigned long long)(s->end - first),
                    (unsigned long long)s->count);
        }
        fputs("]}", out);
    }
    fputs("]}", out);
}

uint64_t lwr_timeline_dropped(const lwr_timeline *t)
{
    return t->dropped;
}

void lwr_timeline_free(lwr_timeline *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nregions; i++)
        free(t->names[i]);
    free(t->names);
    for (size_t k = 0; k < t->nlanes; k++) {
        free(t->lanes[k].name);
        free(t->lanes[k].spans);
    }
    free(t->lanes);
    free(t);
}
