/*
 * static_app.c - zlib from the main thread, a second thread and a fork
 * child that exits, in a program linked with -static or -static-pie
 * (static.sh).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

static unsigned char buf[1000];

static void *crc_thread(void *arg)
{
    (void)arg;
    unsigned long s = 0;
    for (int i = 0; i < 100; i++)
        s += crc32(0, buf, sizeof buf);
    return (void *)s;
}

int main(void)
{
    unsigned long s = 0;
    for (int i = 0; i < 1000; i++)
        s += adler32(1, buf, sizeof buf);
    pthread_t t;
    void *r;
    if (pthread_create(&t, NULL, crc_thread, NULL) != 0 || pthread_join(t, &r) != 0)
        return 1;
    pid_t p = fork();
    if (p == 0) {
        for (int i = 0; i < 7; i++)
            s += adler32(1, buf, sizeof buf);
        exit(0);
    }
    int status = 0;
    if (p < 0 || waitpid(p, &status, 0) != p || status != 0)
        return 2;
    printf("%lu %lu %s\n", s, (unsigned long)r, zlibVersion());
    return 0;
}
