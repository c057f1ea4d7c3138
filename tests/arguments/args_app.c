/*
 * args_app.c - calls argslib with the values args.sh expects to find
 * recorded (check_args.py holds the same lists), and prints what the
 * library returns: the output must not change when measured.
 */
#include "argslib.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Threads record without a lock; their values are added up at the end.
 * More calls than the runtime sets aside at once (LW_ARG_PEND, 512), and
 * not a multiple of it: some values reach their statistics on the way,
 * the rest when the profile is written. */
static void *thread_calls(void *arg)
{
    for (int i = 0; i < 1300; i++)
        al_void((long)(intptr_t)arg * 1000 + i % 7);
    return NULL;
}

static int thrower(int x)
{
    if (x > 1)
        al_throw(x);
    return x;
}

int main(void)
{
    printf("ints %d\n", al_ints(0, 1, 2, 3, 4, 5, 6, 7));
    printf("ints %d\n", al_ints(-1, -300, 100000, -5000000000ll, 255, 65535, 4000000000u, UINT64_MAX));
    printf("ints %d\n", al_ints(127, 32767, INT32_MIN, INT64_MAX, 0, 0, 0, 0));

    printf("mixed %d\n", al_mixed(1, 10u, AL_RED, 1.5, 0.25f, true, "alpha", 10));
    printf("mixed %d\n", al_mixed(-2, 20u, AL_GREEN, -2.5, 1e10f, false, "beta", 20));
    printf("mixed %d\n", al_mixed(3, 30u, AL_BLUE, 0.0, -3.0f, true, "alpha", 0));
    printf("mixed %d\n", al_mixed(4, 40u, AL_GREEN, 1e-40, 2.0f, false, NULL, 5));

    char buf[16] = "data";
    printf("write %zd\n", al_write(1, buf, 5));
    printf("write %zd\n", al_write(1, buf, 0));
    printf("write %zd\n", al_write(1, buf, 1000));

    printf("scale %g\n", al_scale(1.5, AL_HIGH));
    printf("scale %g\n", al_scale(-4.0, AL_LOW));
    printf("sum9 %g\n", al_sum9(1, 2, 3, 4, 5, 6, 7, 8, 9.5));

    for (int i = 0; i < 3; i++)
        printf("name %s\n", al_name(i) ? al_name(i) : "(none)");

    /* Strings that are not readable as such: NULL, an address in a page
     * without access, a string running into such a page; one that ends
     * right before such a page is readable, and one too long is cut. Four
     * pages: readable, none, readable, none. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *pages = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED || mprotect(pages + page, page, PROT_NONE) != 0 ||
        mprotect(pages + 3 * page, page, PROT_NONE) != 0)
        return 2;
    memcpy(pages + page - 5, "edge", 5);
    memset(pages + 2 * page, 'q', page);
    char longer[300];
    memset(longer, 'y', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    printf("len %d\n", al_len("x", 1));
    printf("len %d\n", al_len("x", 1));
    printf("len %d\n", al_len(NULL, 0));
    printf("len %d\n", al_len(pages + page, 0));
    printf("len %d\n", al_len(pages + page - 5, 1));
    printf("len %d\n", al_len(pages + 3 * page - 10, 0));
    printf("len %d\n", al_len(longer, 1));

    struct al_big big = {{1, 2, 3, 4}};
    printf("big %ld\n", al_big(big, 7));
    printf("big %ld\n", al_big(big, 8));
    struct al_small small = {2, 0.5f};
    printf("small %d\n", al_small(small, 9));
    struct al_pair pair = {1.5, 4.0};
    printf("pair %g\n", al_pair(pair, 0.25, 3));
    struct al_vec vec = {{1.5f, 2.5f}};
    printf("vec %d\n", al_vec(vec, 11));

    char out[8];
    printf("fill %s\n", al_fill(out, 4));
    al_void(-12);
    for (int x = 1; x <= 4; x += 3)
        printf("protect %d\n", al_protect(thrower, x));
    printf("protect %d\n", al_protect(thrower, 3));
    pthread_t th[4];
    for (int t = 0; t < 4; t++)
        if (pthread_create(&th[t], NULL, thread_calls, (void *)(intptr_t)(t + 1)) != 0)
            return 3;
    for (int t = 0; t < 4; t++)
        pthread_join(th[t], NULL);
    fflush(stdout);
    fprintf(stderr, "args_app done\n");
    return 5;
}
