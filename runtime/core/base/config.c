/*
 * config.c - the LIBWRAP_* variables of SPEC section 5, and their lines of
 * config.txt (the file is written by process/lifecycle.c).
 *
 * Every variable is read once, at start. An invalid value never stops the
 * measured program: it is one warning that names the variable and the
 * accepted values, and the default is used.
 */
#include "core/base/base.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct lw_config lw_cfg = {
    .profiling = true,
    .compensate = true,
    .tracing = false,
    .mpi_collectives = true,
    .timer = LW_TIMER_TSC,
    .total_memory = 16u << 20,
    .verbose = 0,
};

/* LIBWRAP_JOB_GROUP_SIZE's default: the groups' size and the warning's words. */
#define LW_JOB_GROUP_DEFAULT 1000
#define LW_STR_(x) #x
#define LW_STR(x) LW_STR_(x)

static void lw_invalid(const char *var, const char *value, const char *accepted, const char *dflt)
{
    lw_warn("%s=\"%s\" is not valid (accepted: %s); using %s", var, value, accepted, dflt);
}

static int lw_parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (!strcasecmp(s, yes[i])) {
            *out = true;
            return 0;
        }
        if (!strcasecmp(s, no[i])) {
            *out = false;
            return 0;
        }
    }
    return -1;
}

static void lw_get_bool(const char *var, bool *out)
{
    const char *v = getenv(var);
    if (!v || !*v)
        return;
    if (lw_parse_bool(v, out) < 0)
        lw_invalid(var, v, "true, false, yes, no, on, off, 1, 0", *out ? "true" : "false");
}

/* "16M", "512K", "1G", "4096", optionally with a trailing B. */
static int lw_parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno || *s == '-')
        return -1;
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    default: break;
    }
    if (toupper((unsigned char)*end) == 'B')
        end++;
    if (*end || v == 0 || v > (SIZE_MAX >> shift))
        return -1;
    *out = (size_t)v << shift;
    return 0;
}

/* LIBWRAP_VERBOSE: a boolean, or a comma list of domains. */
static int lw_parse_verbose(const char *s, unsigned *out)
{
    bool b;
    if (lw_parse_bool(s, &b) == 0) {
        *out = b ? LW_LOG_ALL : 0;
        return 0;
    }
    unsigned set = 0;
    const char *p = s;
    while (*p) {
        size_t n = strcspn(p, ",");
        bool found = false;
        if (n == 3 && !strncasecmp(p, "all", 3)) {
            set |= LW_LOG_ALL;
            found = true;
        }
        for (unsigned i = 0; !found && lw_log_domain_name(i); i++)
            if (strlen(lw_log_domain_name(i)) == n && !strncasecmp(p, lw_log_domain_name(i), n)) {
                set |= 1u << i;
                found = true;
            }
        if (!found)
            return -1;
        p += n;
        if (*p == ',')
            p++;
    }
    *out = set;
    return 0;
}

static char *lw_get_string(const char *var)
{
    const char *v = getenv(var);
    return v && *v ? strdup(v) : NULL;
}

void lw_config_load(void)
{
    const char *v;

    /* Verbosity first, so that the other settings can be logged. */
    if ((v = getenv("LIBWRAP_VERBOSE")) && *v && lw_parse_verbose(v, &lw_cfg.verbose) < 0)
        lw_invalid("LIBWRAP_VERBOSE", v,
                   "true, false, or a comma list of all, config, timer, thread, region, "
                   "profile, lifecycle, resolve, exec, job, plugin",
                   "false");

    lw_get_bool("LIBWRAP_ENABLE_PROFILING", &lw_cfg.profiling);
    lw_get_bool("LIBWRAP_ENABLE_TRACING", &lw_cfg.tracing);
    lw_cfg.tracing_requested = lw_cfg.tracing;
    lw_get_bool("LIBWRAP_MPI_COLLECTIVES", &lw_cfg.mpi_collectives);
    lw_get_bool("LIBWRAP_MEASURE_LAUNCHER", &lw_cfg.measure_launcher);
    /* auto by default: a part per rank in a job of at most a group (SPEC
     * section 6: each process's profile.json names its rank), the job's
     * one profile in a larger one (a few files whatever its size). */
    lw_cfg.job_parts = LW_JOB_PARTS_AUTO;
    if ((v = getenv("LIBWRAP_JOB_PARTS")) && *v && strcasecmp(v, "auto") != 0) {
        bool b;
        if (lw_parse_bool(v, &b) == 0)
            lw_cfg.job_parts = b;
        else
            lw_invalid("LIBWRAP_JOB_PARTS", v, "auto, true, false, yes, no, on, off, 1, 0", "auto");
    }
    lw_cfg.trace_merge = true;
    lw_get_bool("LIBWRAP_TRACE_MERGE", &lw_cfg.trace_merge);
    lw_get_bool("LIBWRAP_COMPENSATE", &lw_cfg.compensate);

    if ((v = getenv("LIBWRAP_THROTTLE")) && *v) {
        char *end;
        errno = 0;
        unsigned long long calls = strtoull(v, &end, 10);
        double ns = 0;
        int ok = end != v && *v != '-' && !errno && *end == ':' && calls > 0;
        if (ok) {
            const char *p = end + 1;
            ns = strtod(p, &end);
            ok = end != p && *end == '\0' && ns > 0;
        }
        if (ok) {
            lw_cfg.throttle_calls = calls;
            lw_cfg.throttle_ns = ns;
        } else {
            lw_invalid("LIBWRAP_THROTTLE", v, "CALLS:NS, two positive numbers such as 100000:200", "off");
        }
#if !LW_ABI_THROTTLES
        /* The trampolines throttle (throttle.c); elsewhere, say so. */
        if (lw_cfg.throttle_calls) {
            lw_cfg.throttle_unapplied = "wrappers other than the ABI-level ones of x86-64 and AArch64";
            lw_warn("LIBWRAP_THROTTLE: throttling exists for the ABI-level wrappers of x86-64 and "
                    "AArch64 only: here every call is timed, visits exact");
        }
#endif
    }
    if ((v = getenv("LIBWRAP_TIMER")) && *v) {
        if (!strcasecmp(v, "tsc"))
            lw_cfg.timer = LW_TIMER_TSC;
        else if (!strcasecmp(v, "clock_gettime"))
            lw_cfg.timer = LW_TIMER_CLOCK;
        else
            lw_invalid("LIBWRAP_TIMER", v, "tsc, clock_gettime", "tsc");
    }

    if ((v = getenv("LIBWRAP_TOTAL_MEMORY")) && *v && lw_parse_size(v, &lw_cfg.total_memory) < 0)
        lw_invalid("LIBWRAP_TOTAL_MEMORY", v, "a positive size such as 16M, 512K, 1G or 4096", "16M");
    if ((v = getenv("LIBWRAP_JOB_GROUP_SIZE")) && *v && lw_env_long("LIBWRAP_JOB_GROUP_SIZE") <= 0)
        lw_invalid("LIBWRAP_JOB_GROUP_SIZE", v, "a positive number of ranks, such as " LW_STR(LW_JOB_GROUP_DEFAULT),
                   LW_STR(LW_JOB_GROUP_DEFAULT));

    lw_cfg.experiment_directory = lw_get_string("LIBWRAP_EXPERIMENT_DIRECTORY");
    lw_cfg.filtering_file = lw_get_string("LIBWRAP_FILTERING_FILE");
    /* LIBWRAP_METRIC_<NAME> and LIBWRAP_LISTENER_<NAME> belong to the
     * plugins, and are read where they are loaded (plugin.c). */
    lw_cfg.metric_plugins = lw_get_string("LIBWRAP_METRIC_PLUGINS");
    lw_cfg.listeners = lw_get_string("LIBWRAP_LISTENERS");
    lw_cfg.plugin_path = lw_get_string("LIBWRAP_PLUGIN_PATH");
    lw_cfg.arguments = lw_get_string("LIBWRAP_ARGUMENTS");

    lw_log(LW_LOG_CONFIG, "profiling=%d tracing=%d timer=%s total_memory=%zu filter=%s",
           lw_cfg.profiling, lw_cfg.tracing, lw_cfg.timer == LW_TIMER_TSC ? "tsc" : "clock_gettime",
           lw_cfg.total_memory, lw_cfg.filtering_file ? lw_cfg.filtering_file : "(none)");
}

long lw_env_long(const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return -1;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    return *end || errno || n < 0 ? -1 : n;
}

long lw_job_group_size(void)
{
    static long group;
    if (!group) {
        long g = lw_env_long("LIBWRAP_JOB_GROUP_SIZE");
        group = g > 0 ? g : LW_JOB_GROUP_DEFAULT;
    }
    return group;
}

int lw_job_parts_on(void)
{
    if (lw_cfg.job_parts != LW_JOB_PARTS_AUTO)
        return lw_cfg.job_parts;
    return lw_job_info.size <= lw_job_group_size();
}

static const char *lw_or_none(const char *s)
{
    return s ? s : "none";
}

int lw_config_write(FILE *out, const char *experiment_dir)
{
    fprintf(out, "LIBWRAP_ENABLE_PROFILING=%s\n", lw_cfg.profiling ? "true" : "false");
    fprintf(out, "LIBWRAP_ENABLE_TRACING=%s\n", lw_cfg.tracing ? "true" : "false");
    fprintf(out, "LIBWRAP_EXPERIMENT_DIRECTORY=%s\n", experiment_dir);
    fprintf(out, "LIBWRAP_FILTERING_FILE=%s\n", lw_or_none(lw_cfg.filtering_file));
    fprintf(out, "LIBWRAP_TIMER=%s\n", lw_timer_name());
    if (lw_cfg.throttle_calls && !lw_cfg.throttle_unapplied)
        fprintf(out, "LIBWRAP_THROTTLE=%llu:%g\n", (unsigned long long)lw_cfg.throttle_calls, lw_cfg.throttle_ns);
    else
        fprintf(out, "LIBWRAP_THROTTLE=off\n");
    if (lw_cfg.throttle_calls && lw_cfg.throttle_unapplied)
        fprintf(out, "# LIBWRAP_THROTTLE as set: %llu:%g (not applied with %s)\n",
                (unsigned long long)lw_cfg.throttle_calls, lw_cfg.throttle_ns, lw_cfg.throttle_unapplied);
    return ferror(out) ? -1 : 0;
}

int lw_config_write_rest(FILE *out)
{
    char verbose[128] = "";
    if (lw_cfg.verbose == LW_LOG_ALL)
        snprintf(verbose, sizeof verbose, "true");
    else if (lw_cfg.verbose == 0)
        snprintf(verbose, sizeof verbose, "false");
    else
        for (unsigned i = 0; lw_log_domain_name(i); i++)
            if (lw_cfg.verbose & (1u << i)) {
                size_t n = strlen(verbose);
                snprintf(verbose + n, sizeof verbose - n, "%s%s", n ? "," : "", lw_log_domain_name(i));
            }
    fprintf(out, "LIBWRAP_TOTAL_MEMORY=%zu\n", lw_cfg.total_memory);
    fprintf(out, "LIBWRAP_VERBOSE=%s\n", verbose);
    fprintf(out, "LIBWRAP_MPI_COLLECTIVES=%s\n", lw_cfg.mpi_collectives ? "true" : "false");
    fprintf(out, "LIBWRAP_MEASURE_LAUNCHER=%s\n", lw_cfg.measure_launcher ? "true" : "false");
    fprintf(out, "LIBWRAP_JOB_PARTS=%s\n", lw_job_parts_on() ? "true" : "false");
    if (lw_cfg.job_parts == LW_JOB_PARTS_AUTO) {
        if (lw_job_info.size > 1)
            fprintf(out, "# LIBWRAP_JOB_PARTS as set: auto (a job of %ld ranks, %s LIBWRAP_JOB_GROUP_SIZE=%ld)\n",
                    lw_job_info.size, lw_job_parts_on() ? "at most" : "more than", lw_job_group_size());
        else
            fprintf(out, "# LIBWRAP_JOB_PARTS as set: auto (not a job)\n");
    }
    fprintf(out, "LIBWRAP_TRACE_MERGE=%s\n", lw_cfg.trace_merge ? "true" : "false");
    fprintf(out, "LIBWRAP_ARGUMENTS=%s\n", lw_or_none(lw_cfg.arguments));
    return ferror(out) ? -1 : 0;
}
