/* plug_lib.c - built as libplug.so, the library the plugin tests wrap. */
#include "plug_lib.h"

#include <fcntl.h>
#include <unistd.h>

long plug_read(const char *path, long n)
{
    static unsigned char buf[1 << 16];
    if (n < 0 || n > (long)sizeof buf)
        return -1;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t got = read(fd, buf, (size_t)n);
    close(fd);
    if (got != n)
        return -1;
    long sum = 0;
    for (long i = 0; i < n; i++)
        sum += buf[i];
    return sum;
}

unsigned long plug_work(unsigned long rounds)
{
    unsigned long x = 88172645463325252ul;
    for (unsigned long i = 0; i < rounds; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

int plug_add(int a, int b)
{
    return a + b;
}
