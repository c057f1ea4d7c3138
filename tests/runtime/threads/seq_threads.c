/*
 * seq_threads.c - N threads made one after another, each calling zlib's
 * adler32 once and joined (a server's thread a request), N given. Prints
 * the checksum; to stderr, how much address space the process grew by
 * from the first thread to the last (VmSize, kB), as "grew N kB".
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static long vm_kb(void)
{
    char line[256];
    long kb = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmSize:", 7))
            kb = atol(line + 7);
    if (f)
        fclose(f);
    return kb;
}

static void *work(void *arg)
{
    return (void *)(uintptr_t)adler32(1, (const Bytef *)arg, 1);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000, before = 0;
    unsigned long sum = 0;
    for (long i = 0; i < n; i++) {
        pthread_t t;
        void *r;
        if (pthread_create(&t, NULL, work, "x") != 0 || pthread_join(t, &r) != 0)
            return 1;
        sum += (uintptr_t)r;
        if (i == 0)
            before = vm_kb();
    }
    printf("%lu\n", sum);
    fprintf(stderr, "grew %ld kB\n", vm_kb() - before);
    return 0;
}
