/*
 * samples.c - the ASYNC samples plugins hand over (libwrap_host.sample):
 * kept in time order for the listeners' finalize, and summed up in
 * profile.json's "samples" and profile.txt.
 */
#include "plugins/host/host.h"
#include "core/base/json.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lw_samples_lock = PTHREAD_MUTEX_INITIALIZER;
libwrap_sample *lw_samples;
size_t lw_nsamples;
static size_t lw_samples_cap;
static int lw_samples_full;   /* said once */
static int lw_samples_frozen; /* the end: no more samples */

void lw_samples_add(const libwrap_plugin *self, uint32_t metric, uint64_t ticks, uint64_t value)
{
    const lw_plugin *pl = lw_plugin_of(self);
    if (!pl || metric >= pl->ninfo || pl->info[metric].timing != LIBWRAP_METRIC_ASYNC ||
        LW_LOAD(lw_state) != 1)
        return;
    int saved = errno;
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1); /* a wrapped allocator records nothing here */
    pthread_mutex_lock(&lw_samples_lock);
    if (lw_samples_frozen) {
        pthread_mutex_unlock(&lw_samples_lock);
        LW_STORE(lw_tls.guard, guard);
        errno = saved;
        return;
    }
    if (lw_nsamples == lw_samples_cap) {
        /* Bounded by the memory budget: samples beyond it are dropped. */
        size_t cap = lw_samples_cap ? lw_samples_cap * 2 : 1024;
        void *p = cap * sizeof *lw_samples <= lw_cfg.total_memory
                      ? realloc(lw_samples, cap * sizeof *lw_samples)
                      : NULL;
        if (p) {
            lw_samples = p;
            lw_samples_cap = cap;
        } else if (!lw_samples_full) {
            lw_samples_full = 1;
            lw_warn("%s: more samples than LIBWRAP_TOTAL_MEMORY holds; later ones are dropped",
                    self->name);
        }
    }
    if (lw_nsamples < lw_samples_cap)
        lw_samples[lw_nsamples++] = (libwrap_sample){pl->global[metric], 0, ticks, value};
    pthread_mutex_unlock(&lw_samples_lock);
    LW_STORE(lw_tls.guard, guard);
    errno = saved;
}

static int lw_sample_cmp(const void *a, const void *b)
{
    const libwrap_sample *x = a, *y = b;
    return x->ticks < y->ticks ? -1 : x->ticks > y->ticks;
}

void lw_samples_freeze(void)
{
    pthread_mutex_lock(&lw_samples_lock);
    lw_samples_frozen = 1;
    if (lw_samples && lw_nsamples > 1)
        qsort(lw_samples, lw_nsamples, sizeof *lw_samples, lw_sample_cmp);
    pthread_mutex_unlock(&lw_samples_lock);
}

void lw_samples_after_fork(void)
{
    pthread_mutex_init(&lw_samples_lock, NULL);
    lw_nsamples = 0;
    lw_samples_frozen = 0;
}

/* Per ASYNC metric: how many samples, their range and mean, and when. */
typedef struct lw_sample_stats {
    uint64_t count, min, max, first, last;
    long double sum;
} lw_sample_stats;

static void lw_sample_stats_of(size_t metric, lw_sample_stats *s)
{
    memset(s, 0, sizeof *s);
    s->min = UINT64_MAX;
    for (size_t i = 0; i < lw_nsamples; i++) {
        const libwrap_sample *x = &lw_samples[i];
        if (x->metric != metric)
            continue;
        if (!s->count)
            s->first = x->ticks;
        s->last = x->ticks;
        s->count++;
        s->sum += x->value;
        if (x->value < s->min)
            s->min = x->value;
        if (x->value > s->max)
            s->max = x->value;
    }
}

void lw_samples_json(struct lw_json *j)
{
    lw_json_array(j, "samples");
    for (size_t m = lw_nmetrics; m < lw_nmetrics_all; m++) {
        lw_sample_stats s;
        lw_sample_stats_of(m, &s);
        lw_json_object(j, NULL);
        lw_json_string(j, "metric", lw_metrics[m].info.name);
        lw_json_string(j, "unit", lw_metrics[m].info.unit);
        lw_json_string(j, "source", lw_metrics[m].source);
        lw_json_uint(j, "count", s.count);
        lw_json_uint(j, "min", s.count ? s.min : 0);
        lw_json_uint(j, "max", s.max);
        lw_json_double(j, "mean", s.count ? (double)(s.sum / s.count) : 0.0);
        lw_json_uint(j, "first_ns", s.count ? lw_host_ns(s.first) : 0);
        lw_json_uint(j, "last_ns", s.count ? lw_host_ns(s.last) : 0);
        lw_json_end(j);
    }
    lw_json_end(j);
}

void lw_samples_txt(FILE *f)
{
    if (lw_nmetrics == lw_nmetrics_all)
        return;
    fprintf(f, "\nasynchronous samples\n%12s %16s %16s %16s  %s\n", "samples", "min", "mean", "max",
            "metric");
    for (size_t m = lw_nmetrics; m < lw_nmetrics_all; m++) {
        lw_sample_stats s;
        lw_sample_stats_of(m, &s);
        fprintf(f, "%12llu %16llu %16.1f %16llu  %s [%s]\n", (unsigned long long)s.count,
                (unsigned long long)(s.count ? s.min : 0),
                s.count ? (double)(s.sum / s.count) : 0.0, (unsigned long long)s.max,
                lw_metrics[m].info.name, lw_metrics[m].info.unit);
    }
}

