/*
 * audit.c - the rtld-audit module of `make installcheck` (liblibwrap_audit.so).
 *
 * Run as LD_AUDIT=liblibwrap_audit.so LIBWRAP_AUDIT_OUTPUT=FILE ./main with
 * lazy binding, it writes to FILE the name of every function the program
 * itself called through its PLT, once, when the dynamic linker binds the
 * call: the functions main really called on this run, which its undefined
 * symbols (calls on paths not taken, compiler builtins expanded inline)
 * cannot tell. Calls from the libraries are not recorded: only bindings
 * from the main program. A call bound first in a fork()ed child is written
 * "fork NAME": the child writes results of its own (fork-PID/), or none
 * when it ends by _exit. Nothing else is touched: the program runs as
 * without the module.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int out_fd = -1;
static uintptr_t *main_cookie;
static pid_t start_pid;

unsigned int la_version(unsigned int version)
{
    (void)version;
    const char *path = getenv("LIBWRAP_AUDIT_OUTPUT");
    /* Appended to: the image an exec starts (the same process) adds to
     * what the one before wrote. */
    if (path && *path)
        out_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    start_pid = getpid();
    return LAV_CURRENT;
}

unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
    /* The first object of the base namespace is the program. */
    if (!main_cookie && lmid == LM_ID_BASE && map->l_name && map->l_name[0] == '\0') {
        main_cookie = cookie;
        return LA_FLG_BINDFROM | LA_FLG_BINDTO;
    }
    return LA_FLG_BINDTO;
}

static void record(uintptr_t *refcook, const char *name)
{
    if (out_fd < 0 || refcook != main_cookie || !name)
        return;
    size_t n = strlen(name), k = getpid() == start_pid ? 0 : 5;
    char line[512];
    if (k + n + 1 > sizeof line)
        return;
    memcpy(line, "fork ", k);
    memcpy(line + k, name, n);
    line[k + n] = '\n';
    ssize_t w = write(out_fd, line, k + n + 1);
    (void)w;
}

uintptr_t la_symbind64(Elf64_Sym *sym, unsigned int ndx, uintptr_t *refcook, uintptr_t *defcook,
                       unsigned int *flags, const char *symname)
{
    (void)ndx;
    (void)defcook;
    /* Bindings at load time (LA_SYMB_... without a call: -z now, or an
     * address taken) would claim calls that never happen; lazy PLT
     * bindings are the calls. */
    if (!(*flags & LA_SYMB_DLSYM))
        record(refcook, symname);
    return sym->st_value;
}
