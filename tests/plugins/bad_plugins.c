/*
 * bad_plugins.c - shared objects that the runtime must refuse, each with
 * one warning, and a marker listener for the search order. Built by bad.sh
 * with one of:
 *   -DBAD_NO_ENTRY     a shared object without libwrap_plugin_entry
 *   -DBAD_ABI_NEXT     a listener built for the next plugin ABI version
 *   -DMARKER=\"TEXT\"  a listener that says "marker TEXT" when loaded
 */
#include <libwrap/plugin.h>

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
#else
    (void)host;
#endif
    return 0;
}

static const libwrap_listener bad_listener = {.init = bad_init};

#ifdef BAD_ABI_NEXT
#define BAD_ABI (LIBWRAP_PLUGIN_ABI_VERSION + 1)
#else
#define BAD_ABI LIBWRAP_PLUGIN_ABI_VERSION
#endif
static const libwrap_plugin bad_plugin = {BAD_ABI, LIBWRAP_PLUGIN_LISTENER, "marker", NULL,
                                          &bad_listener};
LIBWRAP_PLUGIN_DEFINE(bad_plugin)
#endif
