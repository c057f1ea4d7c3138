/*
 * hooks.h - what the core tells the layers above it, which it never names
 * (docs/architecture.md, "Seams"): the start of measurement, a thread's
 * begin and end, a fork child, a region registered, the sections the
 * plugin host adds to profile.json and profile.txt, config.txt, the
 * wrapper tables of a library, a job's end, a throttled region's new
 * wrapped callee (core/abi/throttle.c), whether an argument rule names
 * functions of libraries not loaded, the MPI library's own MPI_Init,
 * MPI_Finalize and MPI_Abort wrapped.
 *
 * One table, provided by the top layer (process/lifecycle.c) with
 * LW_HOOKS: the linker puts it in the section lw_hooks, so the table is
 * there before any code runs, even for a wrapped call from another
 * library's constructor that comes before the runtime's own. None of the
 * hooks is on the hot path: they are called at a thread's first measured
 * call and end, at a region's registration, when a call path is new (the
 * full path), at start and at the end.
 */
#ifndef LIBWRAP_RUNTIME_CORE_MEASURE_HOOKS_H
#define LIBWRAP_RUNTIME_CORE_MEASURE_HOOKS_H

#include "core/measure/measure.h"

/* Internal to the runtime's shared object: hidden, so that -fPIC code
 * reaches it directly instead of through the GOT. */
#pragma GCC visibility push(hidden)

struct lw_json;

typedef struct lw_hooks {
    void (*start)(void);                                /* once, the first to ask */
    void (*thread_begin)(lw_thread *t);                 /* at its first measured call */
    void (*thread_end)(lw_thread *t);
    void (*fork_child)(lw_thread *t);                   /* the child's one thread, or NULL */
    void (*region)(int32_t id, const libwrap_region *r); /* registered (region lock held) */
    void (*samples_json)(struct lw_json *j);            /* profile.json's "samples" */
    void (*samples_txt)(FILE *f);
    int (*config_txt)(FILE *out, const char *dir);      /* a claimed directory's config.txt */
    void (*abi_tables)(libwrap_abi_entry *e, uint32_t n); /* a wrapper library's table */
    /* An original `p` found for e: the original to call (p, or, where p
     * is another wrapper library's wrapper of it, that one's original). */
    void *(*past_wrappers)(const libwrap_abi_entry *e, void *p);
    void (*abi_resolved)(libwrap_abi_entry *e, uint32_t n); /* its originals looked up */
    void (*job_complete)(const char *dir);              /* in the process that completed it */
    void (*group_complete)(const char *dir, const char *group_dir); /* a large job's group, likewise */
    void (*throttled_callee)(int32_t parent);           /* a throttled region calls wrapped ones */
    /* 1 where the functions that `glob` names are all of wrapped libraries
     * this process has not loaded (an argument rule for another program's
     * library, among several wrappers preloaded), else 0. */
    int (*functions_unloaded)(const char *glob);
    /* A wrapper of the MPI library itself: its MPI_Init's (after the call),
     * MPI_Finalize's (before it) or MPI_Abort's (once entered) step of the
     * job, which the runtime's own interposers (mpi_interpose.c, weak)
     * would have taken:
     * kind is LW_ABI_MPI_INIT, _FINALIZE or _ABORT (core/abi/abi.h). */
    void (*mpi_call)(uint32_t kind);
} lw_hooks;

/* `retain` (SHF_GNU_RETAIN): a static link with --gc-sections keeps the
 * section, which only __start_lw_hooks names (lld drops such a section
 * since LLVM 13; Rust links statically so). */
#if defined(__has_attribute) && __has_attribute(retain)
#define LW_HOOKS_RETAIN retain,
#else
#define LW_HOOKS_RETAIN
#endif
#define LW_HOOKS(name) \
    static const lw_hooks name __attribute__((section("lw_hooks"), used, LW_HOOKS_RETAIN aligned(8)))

extern const lw_hooks __start_lw_hooks[];
/* The table (one, a link error without it). */
#define lw_hook (&__start_lw_hooks[0])

/* Starts measurement once, in whichever thread asks first (pthread_once in
 * the top layer's start hook). */
static inline void lw_ensure_started(void)
{
    if (LW_LOAD(lw_state) == 0)
        lw_hook->start();
}

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_CORE_MEASURE_HOOKS_H */
