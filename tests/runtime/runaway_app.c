/* runaway_app.c - three threads call zlib in a loop while main returns
 * (runaway.sh): the process ends while other threads still call the
 * library. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <zlib.h>

static unsigned char buf[64];

static void *loop(void *arg)
{
    (void)arg;
    unsigned long s = 0;
    for (;;)
        s += adler32(1, buf, sizeof buf);
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        if (pthread_create(&t[i], NULL, loop, NULL) != 0)
            return 1;
    usleep(20000);
    printf("done\n");
    return 0;
}
