/* gcd.c - sums mpz_gcd of 3000 random 120-bit pairs. GMP's assembly
 * mpn_gcd_22 tail-calls mpn_gcd_11 expecting %rdx to survive: a wrapper
 * that does not keep it changes the sum (tests/abi/gmp.sh). */
#include <gmp.h>

int main(void)
{
    gmp_randstate_t st;
    gmp_randinit_default(st);
    gmp_randseed_ui(st, 42);
    mpz_t a, b, g, sum;
    mpz_inits(a, b, g, sum, NULL);
    for (int i = 0; i < 3000; i++) {
        mpz_urandomb(a, st, 120);
        mpz_urandomb(b, st, 120);
        mpz_gcd(g, a, b);
        mpz_add(sum, sum, g);
    }
    gmp_printf("gcd sum %Zd\n", sum);
    mpz_clears(a, b, g, sum, NULL);
    gmp_randclear(st);
    return 0;
}
