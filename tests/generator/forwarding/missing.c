/*
 * missing.c - calls functions whose library is not loaded: it is linked
 * against the runtime wrapper only, so the wrappers cannot find their
 * originals. Each must warn once, return a zero value with errno ENOSYS,
 * and let the program go on.
 */
#include <errno.h>
#include <stdio.h>

#include "hard.h"

int main(void)
{
    for (int i = 0; i < 3; i++) {
        errno = 0;
        int32_t r = hard_i32(i, 1);
        printf("hard_i32 -> %d errno=%s\n", r, errno == ENOSYS ? "ENOSYS" : "other");
    }
    errno = 0;
    hard_set_errno(5);
    printf("hard_set_errno errno=%s\n", errno == ENOSYS ? "ENOSYS" : "other");
    struct hard_large l = {{1, 2, 3, 4, 5, 6, 7, 8}, 1.0, "x"};
    l = hard_large_pass(l, l);
    printf("hard_large_pass -> %ld %g\n", l.v[0], l.d);
    return 0;
}
