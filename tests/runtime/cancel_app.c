/* cancel_app.c - a thread with a deferred cancellation request waiting
 * while it calls zlib N times, then reaches pthread_testcancel (cancel.sh).
 * With "early", main calls crc32 first. Prints the thread's result, 0 when
 * it was cancelled before the end of its loop. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static unsigned long r;

static void *work(void *arg)
{
    pthread_cancel(pthread_self()); /* deferred: acts at the next cancellation point */
    for (long i = 0; i < (long)arg; i++)
        r = crc32(r, (const unsigned char *)"abc", 3);
    pthread_testcancel();
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t t;
    void *ret;
    if (argc > 2 && strcmp(argv[2], "early") == 0)
        crc32(0, NULL, 0);
    if (pthread_create(&t, NULL, work, (void *)atol(argv[1])) != 0 || pthread_join(t, &ret) != 0)
        return 2;
    printf("r=%08lx %s\n", r, ret == PTHREAD_CANCELED ? "cancelled" : "returned");
    return 0;
}
