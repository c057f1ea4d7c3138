/*
 * rt_alloc_app.c - a program that allocates, run with wrappers of malloc, free,
 * calloc, realloc and strdup preloaded (rt_alloc.sh).
 *
 *   rt_alloc_app N [thread] [fork]
 *
 * Makes N rounds of malloc, strdup, calloc, realloc and 3 x free in the main
 * thread; with "thread", the same in a second thread; with "fork", the same
 * again in a forked child. Prints a checksum that does not depend on the
 * wrappers.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long rounds;

static void *allocate(void *arg)
{
    long sum = 0;
    for (long i = 0; i < rounds; i++) {
        char *p = malloc(32 + (size_t)i);
        char *q = strdup("libwrap");
        int *z = calloc(4, sizeof *z);
        int *r = realloc(z, 64 * sizeof *r);
        if (!p || !q || !r)
            return (void *)-1L;
        memset(p, 1, 32);
        sum += (long)strlen(q) + r[0] + p[31];
        free(p);
        free(q);
        free(r);
    }
    *(long *)arg = sum;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: rt_alloc_app N [thread] [fork]\n");
        return 2;
    }
    rounds = atol(argv[1]);
    int thread = 0, child = 0;
    for (int i = 2; i < argc; i++) {
        thread |= !strcmp(argv[i], "thread");
        child |= !strcmp(argv[i], "fork");
    }
    long sum = 0, tsum = 0;
    pthread_t t;
    if (thread && pthread_create(&t, NULL, allocate, &tsum)) {
        fprintf(stderr, "rt_alloc_app: pthread_create failed\n");
        return 1;
    }
    if (allocate(&sum))
        return 1;
    if (thread && (pthread_join(t, NULL) || tsum != sum))
        return 1;
    if (child) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0)
            exit(allocate(&sum) ? 1 : 0);
        int status;
        if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0) {
            fprintf(stderr, "rt_alloc_app: the child failed\n");
            return 1;
        }
    }
    printf("sum %ld\n", sum);
    return 0;
}
