/*
 * profile_format.h - the keys of profile.json (SPEC §6, docs/runtime.md),
 * defined once for its writer (the runtime: profile_write.c,
 * profile_reduce.c), its reader (libwrap-report: profile_read.c, job.c)
 * and make installcheck (generator/installcheck.c).
 *
 * Every key is listed once in LWP_KEYS as X(key, what): the key is a C
 * identifier spelled as in the file, and code names it as LWP_KEY(key),
 * which does not compile for a key not listed here. The lists below say
 * which keys each object of the file has.
 *
 * A function's identity, wherever profiles or traces of several
 * processes, threads or images are merged (libwrap-report on a job, the
 * runtime's reduction at MPI_Finalize, the merge of a job's trace parts):
 * its "symbol" alone, the linker symbol with its version where the library
 * versions it ("foo@V1" and "foo@@V2" are two functions, both named
 * "foo"). C++ overloads have distinct mangled symbols; the readable "name"
 * may be the same for two functions, and "file" and "line" may differ
 * between the builds of two processes for one function, so neither takes
 * part in the identity. A merged function keeps the name, file and line of
 * the first process that has it.
 *
 * Its display name is "name", or its symbol where "name" is absent or
 * empty (libwrap-report: lwr_display_name).
 */
#ifndef LIBWRAP_PROFILE_FORMAT_H
#define LIBWRAP_PROFILE_FORMAT_H

/* The value of "libwrap_profile": this format. */
#define LWP_FORMAT_VERSION 1

/* The file in an experiment directory (and in each part of a job's). */
#define LWP_FILE "profile.json"

/* A metric's "mode": how its values combine over calls, call paths,
 * threads and processes (docs/metrics.md). */
#define LWP_MODE_ACCUMULATED "accumulated" /* summed */
#define LWP_MODE_ABSOLUTE "absolute"       /* a level: the largest */

#define LWP_KEYS(X)                                                                                  \
    /* the top-level object */                                                                       \
    X(libwrap_profile, "the format version, LWP_FORMAT_VERSION")                                    \
    X(program, "the measured program")                                                               \
    X(pid, "its process id")                                                                         \
    X(rank, "its rank in its job, 0 for a lone process")                                             \
    X(size, "the ranks of its job, 1 for a lone process")                                            \
    X(host, "the host it ran on")                                                                    \
    X(launcher, "the launcher of its job (a job only)")                                              \
    X(job, "the id of its job (a job only)")                                                         \
    X(timer, "the timer (LIBWRAP_TIMER)")                                                            \
    X(compensation, "the measurement's own cost taken out of the times (compensate.c)")             \
    X(metrics, "top level: the metric definitions; an entry: its totals by metric name")            \
    X(samples, "sampled call stacks (LIBWRAP_SAMPLING)")                                             \
    X(functions, "the flat profile: an entry per function, over all call paths of all threads")     \
    X(threads, "a thread's call paths")                                                              \
    X(reduced, "a job's own profile, reduced over its ranks at MPI_Finalize")                        \
    /* a metric definition; "name" too */                                                            \
    X(unit, "the metric's unit")                                                                     \
    X(source, "the metric's source: papi, perf, rusage or a plugin")                                 \
    X(mode, "LWP_MODE_ACCUMULATED or LWP_MODE_ABSOLUTE")                                             \
    /* a function or call-path entry */                                                              \
    X(symbol, "the linker symbol: the function's identity")                                          \
    X(name, "the readable name (a metric's name in a definition)")                                   \
    X(file, "the header that declares the function")                                                 \
    X(line, "its line there")                                                                        \
    X(visits, "calls")                                                                               \
    X(inclusive_ns, "time in the calls, callees included (outermost activations only)")             \
    X(exclusive_ns, "time in the calls less that in measured callees")                               \
    X(min_ns, "the shortest call")                                                                   \
    X(max_ns, "the longest call")                                                                    \
    X(inclusive_raw_ns, "inclusive_ns as measured, before compensation")                             \
    X(exclusive_raw_ns, "exclusive_ns as measured, before compensation")                             \
    X(throttled, "how a throttled function was timed (LIBWRAP_THROTTLE)")                            \
    X(arguments, "recorded arguments (LIBWRAP_ARGUMENTS, docs/arguments.md)")                        \
    X(children, "a call-path entry's callees")                                                       \
    X(ranks, "a reduced function's per-rank statistics; in \"reduced\", the job's ranks")           \
    /* "throttled" */                                                                                \
    X(after, "calls timed before throttling began")                                                  \
    X(sampled, "the calls timed since, \"1/K\"")                                                     \
    /* a thread */                                                                                   \
    X(id, "the thread's number")                                                                     \
    X(label, "what the thread stands for (a reduced profile)")                                       \
    X(callpath, "the thread's outermost calls, with their children")                                 \
    /* "reduced" */                                                                                  \
    X(ranks_reduced, "the ranks whose profiles were reduced")                                        \
    X(at, "where the reduction ran: MPI_Finalize")                                                   \
    X(metrics_differ, "the ranks measured different metrics: none are written")                      \
    /* a function's "ranks"; "visits", "exclusive_ns", "inclusive_ns" hold a statistic each */       \
    X(called, "the ranks that called it")                                                            \
    X(min, "a statistic's smallest value over the ranks")                                            \
    X(min_rank, "the (lowest) rank that had it")                                                     \
    X(mean, "the mean over the ranks")                                                               \
    X(max, "the largest value")                                                                      \
    X(max_rank, "the (lowest) rank that had it")

/* The counts every function and call-path entry must have. */
#define LWP_REQUIRED_COUNTS(X) X(visits) X(inclusive_ns) X(exclusive_ns)

enum lwp_key {
#define LWP_X_ENUM(key, what) LWP_K_##key,
    LWP_KEYS(LWP_X_ENUM)
#undef LWP_X_ENUM
    LWP_NKEYS
};

static const char *const lwp_keys[LWP_NKEYS] = {
#define LWP_X_NAME(key, what) #key,
    LWP_KEYS(LWP_X_NAME)
#undef LWP_X_NAME
};

/* The key `key` of profile.json, as a string. */
#define LWP_KEY(key) (lwp_keys[LWP_K_##key])

#endif /* LIBWRAP_PROFILE_FORMAT_H */
