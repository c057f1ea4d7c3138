/* a64_driver.c - calls every function of a64.h and prints what it got;
 * its stdout, stderr and exit status must not change under any wrapper.
 * The calls it makes are listed in abi.sh. */
#include "a64.h"

#include <inttypes.h>
#include <stdio.h>

a64_pair a64_regs_probe(void); /* probe.S */

int main(void)
{
    for (int i = 0; i < 3; i++) {
        a64_pair r = a64_regs_probe();
        printf("regs %" PRIu64 " mask %" PRIx64 "\n", r.lo, r.hi);
    }
    a64_hfa4 h = a64_hfa((a64_hfa4){1.5, 2.5, 3.5, 4.5}, (a64_hfa3f){0.25f, 0.5f, 0.75f}, 3);
    printf("hfa %g %g %g %g\n", h.a, h.b, h.c, h.d);
    a64_hva2 v = a64_hva((a64_hva2){{1, 2, 3, 4}, {5, 6, 7, 8}}, (a64_hva2){{0.5f, 1, 1.5f, 2}, {2, 3, 4, 5}});
    printf("hva %g %g %g %g / %g %g %g %g\n", v.u[0], v.u[1], v.u[2], v.u[3], v.v[0], v.v[1], v.v[2], v.v[3]);
    printf("hfa_stack %.17g\n", a64_hfa_stack((a64_hfa4){1, 2, 3, 4}, (a64_hfa4){5, 6, 7, 8},
                                              (a64_hfa4){9, 10, 11, 12}, 0.5f));
    a64_big b = a64_big_make(11, "big-struct");
    printf("big %" PRId64 " %" PRId64 " %s\n", b.v[0], b.v[5], b.tag);
    __int128 w = a64_i128_stack(3, ((__int128)5 << 90) + 77, 1, 2, 3, 4, 5, -((__int128)9 << 65), 1.0L / 3, 2.75L);
    printf("i128 %016" PRIx64 "%016" PRIx64 "\n", (uint64_t)((unsigned __int128)w >> 64), (uint64_t)w);
    printf("vmix %.17g\n", a64_vmix(10, 1.5, 2.25L, (a64_hfa4){1, 2, 3, 4}, 7L, 0.5, 9.75L,
                                    (a64_hfa4){0.5, 0.25, 0.125, 2}, -3L, 4.0, 1e10L));
    return 0;
}
