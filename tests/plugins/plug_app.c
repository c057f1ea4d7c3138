/*
 * plug_app.c - the program of the plugin tests; calls libplug.so.
 *   plug_app io FILE N     plug_read(FILE, N) once, plug_add 1000 times
 *   plug_app work ROUNDS   plug_work 20 times (the rss sampler's run)
 *   plug_app threads N     plug_add N times on main and on 3 threads
 *   plug_app fork N        plug_add N times, then in a child 2N times
 *   plug_app fork2 N       as fork, and the child's own child (a
 *                          grandchild) plug_add 3N times
 *   plug_app maps          plug_add once, then prints the names of the
 *                          files mapped into the process, one a line
 *   plug_app exit N        plug_add once, exits with status N
 *   plug_app watch FILE N  plug_add N times, then waits (60 s at most)
 *                          until FILE holds the line "N plug_add": the
 *                          live listener's writer thread at work
 * Its output is the same with and without measurement.
 */
#include "plug_lib.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void *adder(void *arg)
{
    long n = (long)arg, sum = 0;
    for (long i = 0; i < n; i++)
        sum = plug_add((int)sum, 1);
    return (void *)sum;
}

/* The distinct names of the files mapped into the process, one a line. */
static int maps(void)
{
    static char names[512][256];
    int n = 0;
    char line[4096];
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return 1;
    while (fgets(line, sizeof line, f) && n < 512) {
        char *path = strchr(line, '/'); /* the path field: the last one, absolute */
        if (!path)
            continue;
        path[strcspn(path, "\n")] = '\0';
        const char *name = strrchr(path, '/') + 1;
        int i = 0;
        while (i < n && strcmp(names[i], name))
            i++;
        if (i == n)
            snprintf(names[n++], sizeof names[0], "%s", name);
    }
    fclose(f);
    for (int i = 0; i < n; i++)
        puts(names[i]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    const char *mode = argv[1];
    if (!strcmp(mode, "io") && argc == 4) {
        long sum = plug_read(argv[2], atol(argv[3]));
        int acc = 0;
        for (int i = 0; i < 1000; i++)
            acc = plug_add(acc, i);
        printf("read sum %ld, add %d\n", sum, acc);
        return sum < 0;
    }
    if (!strcmp(mode, "work") && argc == 3) {
        unsigned long x = 0, rounds = strtoul(argv[2], NULL, 10);
        for (int i = 0; i < 20; i++)
            x ^= plug_work(rounds);
        printf("work %lx\n", x);
        return 0;
    }
    if (!strcmp(mode, "threads") && argc == 3) {
        long n = atol(argv[2]);
        pthread_t th[3];
        for (int i = 0; i < 3; i++)
            if (pthread_create(&th[i], NULL, adder, (void *)(n * (i + 2))) != 0)
                return 1;
        long total = (long)adder((void *)n);
        for (int i = 0; i < 3; i++) {
            void *r;
            pthread_join(th[i], &r);
            total += (long)r;
        }
        printf("threads total %ld\n", total);
        return 0;
    }
    if ((!strcmp(mode, "fork") || !strcmp(mode, "fork2")) && argc == 3) {
        long n = atol(argv[2]);
        long parent = (long)adder((void *)n);
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0)
            return 1;
        if (pid == 0) {
            long child = (long)adder((void *)(2 * n));
            printf("child %ld\n", child);
            fflush(stdout);
            if (!strcmp(mode, "fork2")) {
                pid_t gpid = fork();
                if (gpid < 0)
                    return 1;
                if (gpid == 0) {
                    printf("grandchild %ld\n", (long)adder((void *)(3 * n)));
                    return 0;
                }
                int gst;
                waitpid(gpid, &gst, 0);
            }
            return 0;
        }
        int st;
        waitpid(pid, &st, 0);
        printf("parent %ld, child status %d\n", parent, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        return 0;
    }
    if (!strcmp(mode, "maps")) {
        plug_add(1, 2);
        return maps();
    }
    if (!strcmp(mode, "watch") && argc == 4) {
        long n = atol(argv[3]);
        adder((void *)n);
        char want[64], line[256];
        snprintf(want, sizeof want, "%ld plug_add\n", n);
        for (int i = 0; i < 6000; i++) {
            FILE *f = fopen(argv[2], "r");
            int seen = 0;
            while (f && !seen && fgets(line, sizeof line, f))
                seen = !strcmp(line, want);
            if (f)
                fclose(f);
            if (seen) {
                printf("live %ld\n", n);
                return 0;
            }
            struct timespec ts = {0, 10000000};
            nanosleep(&ts, NULL);
        }
        printf("timeout\n");
        return 1;
    }
    if (!strcmp(mode, "exit") && argc == 3) {
        printf("add %d\n", plug_add(40, 2));
        return atoi(argv[2]);
    }
    return 2;
}
