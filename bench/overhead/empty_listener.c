/* empty_listener.c - built as libwrap_plugin_empty.so by run.sh: an event
 * listener whose enter and exit do nothing, so that the "listener" variant
 * measures what the runtime itself adds per call once a listener is loaded
 * (the dispatch through the plugin's table). */
#include <libwrap/plugin.h>

static void empty_enter(void *thread, int32_t region, uint64_t ticks, const uint64_t *metrics)
{
    (void)thread, (void)region, (void)ticks, (void)metrics;
}

static void empty_exit(void *thread, int32_t region, uint64_t ticks, const uint64_t *metrics)
{
    (void)thread, (void)region, (void)ticks, (void)metrics;
}

static const libwrap_listener empty_listener = {.enter = empty_enter, .exit = empty_exit};
static const libwrap_plugin empty_plugin = {LIBWRAP_PLUGIN_ABI_VERSION, LIBWRAP_PLUGIN_LISTENER,
                                            "empty", NULL, &empty_listener};
LIBWRAP_PLUGIN_DEFINE(empty_plugin)
