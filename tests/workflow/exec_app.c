/*
 * exec_app.c - calls the ring library, then replaces itself with exec; the
 * new image (argument "after") calls it again. Linked against libring only:
 * the wrapper comes in by LD_PRELOAD or the libwrap link prefix.
 *
 *   exec_app execle|execv      5 ring_push, then exec of itself
 *   exec_app retry             the same, with a cleaned environment, after
 *                              an execve that fails (a directory of PATH
 *                              without it, as execvp and GLib's spawn try)
 *   exec_app forkexec          5 ring_push, then a fork child that execs
 *                              itself in the directory sub
 *   exec_app vforkexec         5 ring_push, then a vfork child that execs
 *                              itself with a cleaned environment
 *   exec_app system|popen      5 ring_push, then this program again,
 *                              through the shell
 *   exec_app after             3 ring_push
 */
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ring.h"

static void pushes(int n)
{
    ring *r = ring_new(16);
    if (!r) {
        perror("exec_app: ring_new");
        exit(1);
    }
    for (int i = 0; i < n; i++)
        ring_push(r, i);
    ring_free(r);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: exec_app execle|execv|retry|forkexec|vforkexec|system|popen|after\n");
        return 2;
    }
    if (!strcmp(argv[1], "after")) {
        pushes(3);
        printf("after exec, EXEC_APP=%s\n", getenv("EXEC_APP") ? getenv("EXEC_APP") : "(unset)");
        return 0;
    }
    pushes(5);
    fflush(stdout);
    if (!strcmp(argv[1], "execle")) {
        /* A cleaned environment: LD_PRELOAD and LIBWRAP_* must come back. */
        execle("/proc/self/exe", argv[0], "after", (char *)NULL, (char *[]){"EXEC_APP=given", NULL});
    } else if (!strcmp(argv[1], "retry")) {
        char *args[] = {argv[0], "after", NULL}, *env[] = {"EXEC_APP=retried", NULL};
        if (execve("/nonexistent/exec_app", args, env) == 0 || errno != ENOENT)
            perror("exec_app: the first execve");
        execve("/proc/self/exe", args, env);
    } else if (!strcmp(argv[1], "vforkexec")) {
        /* vfork, then exec with a cleaned environment (Python's
         * subprocess with env=): the new image must be measured, beside
         * the parent's results. */
        char *args[] = {argv[0], "after", NULL}, *env[] = {"EXEC_APP=vforked", NULL};
        pid_t pid = vfork();
        if (pid == 0) {
            execve("/proc/self/exe", args, env);
            _exit(1);
        }
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
            return 1;
        return WEXITSTATUS(st);
    } else if (!strcmp(argv[1], "system") || !strcmp(argv[1], "popen")) {
        /* The shell runs this program again (glibc starts it where no
         * interposer sees it): its results beside the caller's. */
        char cmd[4200];
        if (!realpath("/proc/self/exe", cmd + 1))
            return 1;
        cmd[0] = '\'';
        strcat(cmd, "' after");
        if (!strcmp(argv[1], "system"))
            return system(cmd) == 0 ? 0 : 1;
        FILE *p = popen(cmd, "r");
        char line[200];
        while (p && fgets(line, sizeof line, p))
            fputs(line, stdout);
        return p && pclose(p) == 0 ? 0 : 1;
    } else if (!strcmp(argv[1], "forkexec")) {
        /* fork, then exec in the child from another working directory (a
         * JVM's ProcessBuilder.directory): the child's new image must
         * write beside the parent's results, not under "sub". */
        pid_t pid = fork();
        if (pid == 0) {
            char *args[] = {argv[0], "after", NULL};
            if (mkdir("sub", 0755) != 0 && errno != EEXIST)
                _exit(3);
            if (chdir("sub") != 0)
                _exit(3);
            execv("/proc/self/exe", args);
            _exit(1);
        }
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
            return 1;
        return WEXITSTATUS(st);
    } else {
        char *args[] = {argv[0], "after", NULL};
        execv("/proc/self/exe", args);
    }
    perror("exec_app: exec");
    return 1;
}
