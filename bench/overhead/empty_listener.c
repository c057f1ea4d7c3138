/* empty_listener.c - built by run.sh as libwrap_plugin_empty.so (with
 * EMPTY_EVENTS: the events of a thread in batches, LIBWRAP_PLUGIN_EVENTS)
 * and as libwrap_plugin_empty_percall.so (one enter and one exit callback
 * a call): an event listener that does nothing, so that the "listener"
 * variants measure what the runtime itself adds per call once a listener
 * is loaded. */
#include <libwrap/plugin.h>

static void empty_enter(void *thread, int32_t region, uint64_t ticks, const uint64_t *metrics)
{
    (void)thread, (void)region, (void)ticks, (void)metrics;
}

static void empty_exit(void *thread, int32_t region, uint64_t ticks, const uint64_t *metrics)
{
    (void)thread, (void)region, (void)ticks, (void)metrics;
}

#ifdef EMPTY_EVENTS
static void empty_events(void *thread, const libwrap_event *ev, size_t n)
{
    (void)thread, (void)ev, (void)n;
}
#define EMPTY_KINDS (LIBWRAP_PLUGIN_LISTENER | LIBWRAP_PLUGIN_EVENTS)
#else
#define empty_events NULL
#define EMPTY_KINDS LIBWRAP_PLUGIN_LISTENER
#endif

static const libwrap_listener empty_listener = {
    .enter = empty_enter, .exit = empty_exit, .events = empty_events};
static const libwrap_plugin empty_plugin = {LIBWRAP_PLUGIN_ABI_VERSION, EMPTY_KINDS, "empty", NULL,
                                            &empty_listener};
LIBWRAP_PLUGIN_DEFINE(empty_plugin)
