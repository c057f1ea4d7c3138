/* user_app.c - a server's shape: the parent forks a worker and measures
 * nothing (or, with "first", one call before the fork); the worker drops
 * root's rights (user and group 65534, nobody) and then calls zlib N times
 * (user.sh). With "drop", the process calls zlib once, drops root's
 * rights itself, and calls it N times; with "daemon", a grandchild is the
 * worker, forked by a measured master; with "pools", an unmeasured master
 * forks one worker as user 65534, then one as 65533. */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

/* Forks a worker that drops root's rights to `uid`, calls zlib n times
 * and exits; waits for it. */
static int run_worker(int n, unsigned uid)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (setgroups(0, NULL) != 0 || setgid(uid) != 0 || setuid(uid) != 0)
            _exit(3);
        unsigned long c = 0;
        for (int i = 0; i < n; i++)
            c = crc32(c, (const unsigned char *)"worker", 6);
        printf("worker %u: %08lx\n", uid, c);
        exit(0);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return 2;
    printf("worker %u exited %d\n", uid, WEXITSTATUS(st));
    fflush(stdout);
    return WEXITSTATUS(st);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    if (argc > 2)
        crc32(0, NULL, 0);
    if (argc > 2 && (!strcmp(argv[2], "daemon") || !strcmp(argv[2], "pools"))) {
        /* A daemon: the process forks its master and waits for it. */
        pid_t m = fork();
        if (m != 0) {
            int st = 0;
            if (m < 0 || waitpid(m, &st, 0) != m)
                return 2;
            printf("parent: master exited %d\n", WEXITSTATUS(st));
            return 0;
        }
        /* Apache's master measures, and forks a worker that drops root's
         * rights; php-fpm's measures nothing, and forks a worker as one
         * user, then one as another (its pools). */
        if (!strcmp(argv[2], "daemon")) {
            crc32(0, NULL, 0);
            return run_worker(n, 65534);
        }
        return run_worker(n, 65534) || run_worker(n, 65533);
    }
    if (argc > 2 && !strcmp(argv[2], "kid")) {
        /* Squid's master: real user nobody, effective root, execs its
         * worker (squid --kid squid-1), which the loader then starts in
         * secure-execution mode. */
        unsigned long c = crc32(0, (const unsigned char *)"kid", 3);
        if (argc > 3) {
            printf("kid %lu ruid %d euid %d\n", c, (int)getuid(), (int)geteuid());
            return 0;
        }
        fflush(stdout);
        if (setreuid(65534, 0) != 0)
            return 3;
        execl("/proc/self/exe", argv[0], argv[1], "kid", "worker", (char *)NULL);
        return 4;
    }
    if (argc > 2 && !strcmp(argv[2], "drop")) {
        /* No worker: the process itself drops root's rights (tcpdump). */
        if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
            return 3;
        unsigned long c = 0;
        for (int i = 0; i < n; i++)
            c = crc32(c, (const unsigned char *)"dropped", 7);
        printf("dropped %08lx\n", c);
        return 0;
    }
    pid_t pid = fork();
    if (pid == 0) {
        if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
            _exit(3);
        unsigned long c = 0;
        for (int i = 0; i < n; i++)
            c = crc32(c, (const unsigned char *)"worker", 6);
        printf("worker %08lx\n", c);
        return 0;
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return 2;
    printf("parent: worker exited %d\n", WEXITSTATUS(st));
    return 0;
}
