/*
 * spawn_app.c - calls the ring library, then starts itself with
 * posix_spawn (or posix_spawnp) and an environment of one variable: no
 * LD_PRELOAD, no LIBWRAP_*. The child calls the library again.
 *
 *   spawn_app spawn|spawnp     2 ring_push, the child, 1 ring_push
 *   spawn_app child            3 ring_push
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "ring.h"

static void pushes(int n)
{
    ring *r = ring_new(16);
    if (!r) {
        perror("spawn_app: ring_new");
        exit(1);
    }
    for (int i = 0; i < n; i++)
        ring_push(r, i);
    ring_free(r);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: spawn_app spawn|spawnp|child\n");
        return 2;
    }
    if (!strcmp(argv[1], "child")) {
        pushes(3);
        printf("child: SPAWN_APP=%s\n", getenv("SPAWN_APP") ? getenv("SPAWN_APP") : "(unset)");
        return 3;
    }
    pushes(2);
    fflush(stdout);
    char *child_argv[] = {argv[0], "child", NULL};
    char *child_env[] = {"SPAWN_APP=given", NULL};
    pid_t pid;
    int r = !strcmp(argv[1], "spawnp") ? posix_spawnp(&pid, argv[0], NULL, NULL, child_argv, child_env)
                                       : posix_spawn(&pid, argv[0], NULL, NULL, child_argv, child_env);
    if (r != 0) {
        fprintf(stderr, "spawn_app: posix_spawn: %s\n", strerror(r));
        return 1;
    }
    int status;
    if (waitpid(pid, &status, 0) != pid) {
        perror("spawn_app: waitpid");
        return 1;
    }
    pushes(1);
    printf("parent: child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
