/*
 * process.c - what this process is: its pid (a fork child's own), its
 * program, whether measurement runs (lw_state), whether it has measured a
 * call, and its place in a job (lw_job_info, filled by jobs/job.c). Read
 * everywhere; written by the top layer (process/) and jobs/.
 */
#include "core/base/base.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

int lw_state;
lw_job lw_job_info = {.rank = -1, .size = -1};
static pid_t lw_pid;
static int lw_any_thread; /* a thread has recorded a call */
static int lw_late_only;  /* none had when exit() began: later calls are not measured */

pid_t lw_process_pid(void)
{
    return lw_pid;
}

void lw_process_set_pid(pid_t pid)
{
    lw_pid = pid;
}

const char *lw_program_name(void)
{
    return program_invocation_name;
}

int lw_measured_something(void)
{
    return LW_LOAD(lw_any_thread);
}

void lw_note_measured(void)
{
    LW_STORE(lw_any_thread, 1);
}

/*
 * Registered with atexit when main begins (libwrap_main_begins): exit()
 * runs it after the program's own atexit handlers and static destructors
 * and before the ELF destructors of the loaded libraries (_dl_fini,
 * registered by __libc_start_main before main, runs after it). A library's destructor may call its own exported function through
 * a wrapper (libuv's fini array calls uv_library_shutdown): such a call
 * alone must not make a process that never used the library leave results.
 */
void lw_exit_began(void)
{
    if (!lw_measured_something())
        LW_STORE(lw_late_only, 1);
}

int lw_exit_unmeasured(void)
{
    return LW_LOAD(lw_late_only);
}

void lw_signals_hold(sigset_t *old)
{
    int saved = errno;
    sigset_t all;
    sigfillset(&all);
    static const int sync[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof sync / sizeof sync[0]; i++)
        sigdelset(&all, sync[i]);
    pthread_sigmask(SIG_BLOCK, &all, old);
    errno = saved;
}

void lw_signals_release(const sigset_t *old)
{
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, old, NULL);
    errno = saved;
}
