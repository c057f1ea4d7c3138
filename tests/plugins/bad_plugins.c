/*
 * bad_plugins.c - shared objects that the runtime must refuse, each with
 * one warning, and a marker listener for the search order. Built by bad.sh
 * with one of:
 *   -DBAD_NO_ENTRY     a shared object without libwrap_plugin_entry
 *   -DBAD_ABI_NEXT     a listener built for the next plugin ABI version
 *   -DMARKER=\"TEXT\"  a listener that says "marker TEXT" when loaded
 *   -DBAD_INIT_SAYS    a listener whose init fails after saying why
 *   -DBAD_INIT_SILENT  a listener whose init fails without a word
 *   -DBAD_CRASH_ENTER  a listener whose enter callback faults at the 50th call
 *   -DBAD_CRASH_EVENTS a listener of buffered events whose events callback faults
 */
#include <libwrap/plugin.h>
#include <stddef.h>

#if defined(BAD_NO_ENTRY)
__attribute__((visibility("default"))) int not_a_libwrap_plugin(void);
__attribute__((visibility("default"))) int not_a_libwrap_plugin(void)
{
    return 1;
}
#else
static const libwrap_plugin bad_plugin;

static int bad_init(const libwrap_host *host, const char *request,
                    const libwrap_metric_info *metrics, uint32_t nmetrics)
{
    (void)request;
    (void)metrics;
    (void)nmetrics;
#ifdef MARKER
    host->warn(&bad_plugin, "marker %s", MARKER);
#elif defined(BAD_INIT_SAYS)
    host->warn(&bad_plugin, "cannot open /dev/nosuch");
    return -1;
#elif defined(BAD_INIT_SILENT)
    (void)host;
    return -1;
#else
    (void)host;
#endif
    return 0;
}

/* A fault the compiler cannot see through. */
static int *volatile bad_null;

#if defined(BAD_CRASH_ENTER)
static unsigned bad_calls;
static void bad_enter(void *thread, int32_t region, uint64_t ticks, const uint64_t *metrics)
{
    (void)thread;
    (void)region;
    (void)ticks;
    (void)metrics;
    if (++bad_calls == 50)
        *bad_null = 1;
}
static const libwrap_listener bad_listener = {.init = bad_init, .enter = bad_enter};
#define BAD_KINDS LIBWRAP_PLUGIN_LISTENER
#elif defined(BAD_CRASH_EVENTS)
static void bad_events(void *thread, const libwrap_event *events, size_t n)
{
    (void)thread;
    (void)events;
    (void)n;
    *bad_null = 1;
}
static const libwrap_listener bad_listener = {.init = bad_init, .events = bad_events};
#define BAD_KINDS (LIBWRAP_PLUGIN_LISTENER | LIBWRAP_PLUGIN_EVENTS)
#else
static const libwrap_listener bad_listener = {.init = bad_init};
#define BAD_KINDS LIBWRAP_PLUGIN_LISTENER
#endif

#ifdef BAD_ABI_NEXT
#define BAD_ABI (LIBWRAP_PLUGIN_ABI_VERSION + 1)
#else
#define BAD_ABI LIBWRAP_PLUGIN_ABI_VERSION
#endif
static const libwrap_plugin bad_plugin = {BAD_ABI, BAD_KINDS, "marker", NULL,
                                          &bad_listener};
LIBWRAP_PLUGIN_DEFINE(bad_plugin)
#endif
