/*
 * chrome_json.c - the trace as Chrome trace-event JSON (Perfetto,
 * chrome://tracing), written while the trace streams.
 *
 * One complete ("X") event per call halves the output against B/E pairs.
 * Events of a location arrive in order of leaving, not of entering; both
 * viewers sort by timestamp themselves, so nothing is buffered here.
 * Numbers are formatted by hand: printf dominates otherwise at 10^7 events.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

typedef struct {
    const char *path, *anchor;
    lwr_out file; /* created once the trace's definitions are read */
    FILE *out;
    char **prefix; /* per region: {"name":"...","cat":"libwrap","ph":"X", */
    size_t nregions;
    uint64_t tid;
    uint64_t pid;      /* 1 for a lone process; a job: its location group + 1, one per rank */
    uint8_t *named;    /* per location group: process_name written */
    size_t nnamed;
    int first;
} chrome;

static char *put_u64(char *p, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* Microseconds with three decimals: exact for nanosecond input. */
static char *put_us(char *p, uint64_t ns)
{
    p = put_u64(p, ns / 1000);
    unsigned frac = (unsigned)(ns % 1000);
    *p++ = '.';
    *p++ = (char)('0' + frac / 100);
    *p++ = (char)('0' + frac / 10 % 10);
    *p++ = (char)('0' + frac % 10);
    return p;
}

static void sep(chrome *c)
{
    fputs(c->first ? "\n" : ",\n", c->out);
    c->first = 0;
}

static int on_defs(void *ud, const lwr_region *regions, size_t n, uint64_t duration)
{
    chrome *c = ud;
    (void)duration;
    /* The trace's definitions read: only now is the output created. */
    if (lwr_out_open(&c->file, c->path))
        return -1;
    c->out = c->file.f;
    setvbuf(c->out, NULL, _IOFBF, 1 << 20);
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"libwrap-report\",\"trace\":", c->out);
    lwr_json_string(c->out, c->anchor);
    fputs("},\"traceEvents\":[", c->out);
    c->nregions = n;
    c->prefix = calloc(n ? n : 1, sizeof *c->prefix);
    if (!c->prefix) {
        perror(LWR_PROG);
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (!m) {
            perror(LWR_PROG);
            exit(1);
        }
        fputs("{\"name\":", m);
        lwr_json_string(m, regions[i].name);
        fputs(",\"cat\":\"libwrap\",\"ph\":\"X\",", m);
        fclose(m);
        c->prefix[i] = buf;
    }
    return 0;
}

static int on_location(void *ud, uint64_t id, const char *name, uint32_t group, const char *group_name,
                       size_t ngroups)
{
    chrome *c = ud;
    c->tid = id;
    /* A job's trace: a process track per rank, named after it. */
    int job = ngroups > 1 || strncmp(group_name, "rank ", 5) == 0;
    c->pid = job ? (uint64_t)group + 1 : 1;
    if (job && (group >= c->nnamed || !c->named[group])) {
        if (group >= c->nnamed) {
            size_t n = (size_t)group + 1;
            uint8_t *v = realloc(c->named, n);
            if (!v) {
                perror(LWR_PROG);
                exit(1);
            }
            memset(v + c->nnamed, 0, n - c->nnamed);
            c->named = v;
            c->nnamed = n;
        }
        c->named[group] = 1;
        sep(c);
        fprintf(c->out, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%llu,\"args\":{\"name\":",
                (unsigned long long)c->pid);
        lwr_json_string(c->out, group_name);
        fprintf(c->out, "}},\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%llu,\"args\":"
                        "{\"sort_index\":%u}}",
                (unsigned long long)c->pid, group);
    }
    sep(c);
    fprintf(c->out, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%llu,\"tid\":%llu,\"args\":{\"name\":",
            (unsigned long long)c->pid, (unsigned long long)id);
    lwr_json_string(c->out, *name ? name : "thread");
    fputs("}}", c->out);
    return 0;
}

static int on_call(void *ud, uint32_t region, uint64_t begin, uint64_t end, unsigned depth)
{
    chrome *c = ud;
    char buf[192], *p = buf;
    sep(c);
    fputs(c->prefix[region], c->out);
    memcpy(p, "\"pid\":", 6);
    p = put_u64(p + 6, c->pid);
    memcpy(p, ",\"tid\":", 7);
    p = put_u64(p + 7, c->tid);
    memcpy(p, ",\"ts\":", 6);
    p = put_us(p + 6, begin);
    memcpy(p, ",\"dur\":", 7);
    p = put_us(p + 7, end - begin);
    *p++ = '}';
    fwrite(buf, 1, (size_t)(p - buf), c->out);
    return 0;
}

static int on_metric(void *ud, const char *name, uint64_t ns, double value)
{
    chrome *c = ud;
    char ts[40];
    *put_us(ts, ns) = 0;
    sep(c);
    fputs("{\"name\":", c->out);
    lwr_json_string(c->out, name);
    fprintf(c->out, ",\"ph\":\"C\",\"pid\":%llu,\"tid\":%llu,\"ts\":%s,\"args\":{\"value\":%.17g}}",
            (unsigned long long)c->pid, (unsigned long long)c->tid, ts, value);
    return 0;
}

static int on_location_end(void *ud)
{
    chrome *c = ud;
    if (ferror(c->out)) {
        fprintf(stderr, "%s: %s: write failed (disk full?)\n", LWR_PROG, c->path);
        return -1;
    }
    return 0;
}

int lwr_chrome_json(const char *anchor, const char *out_path, int64_t rank)
{
    chrome c = {.path = out_path, .anchor = anchor, .first = 1, .pid = 1};
    lwr_trace_sink sink = {&c, on_defs, on_location, on_call, on_metric, on_location_end};
    int rc = lwr_trace_read(anchor, &sink, rank);
    if (c.out) {
        if (rc == 0) {
            fputs("\n]}\n", c.out);
            rc = lwr_out_commit(&c.file);
        } else {
            lwr_out_abort(&c.file);
        }
    } else if (rc == 0) {
        rc = -1; /* no definitions were handed over: nothing written */
    }
    for (size_t i = 0; i < c.nregions; i++)
        free(c.prefix[i]);
    free(c.prefix);
    free(c.named);
    return rc;
}
