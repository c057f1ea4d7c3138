/* runaway_app.c - three threads call zlib in a loop while main returns
 * (runaway.sh): the process ends while other threads still call the
 * library. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <zlib.h>

static unsigned char buf[64];
static int running; /* threads past their first 1,000 calls */

static void *loop(void *arg)
{
    (void)arg;
    unsigned long s = 0;
    for (long n = 0;; n++) {
        s += adler32(1, buf, sizeof buf);
        if (n == 1000)
            __atomic_add_fetch(&running, 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        if (pthread_create(&t[i], NULL, loop, NULL) != 0)
            return 1;
    /* Every thread well inside its loop, however loaded the machine: the
     * end then always meets three threads calling the library. */
    while (__atomic_load_n(&running, __ATOMIC_ACQUIRE) < 3)
        usleep(1000);
    usleep(5000);
    printf("done\n");
    return 0;
}
