/*
 * driver.c - calls every function of hard.h with distinctive values and
 * prints every result bit-exactly ("= " lines; the library prints "hard_"
 * lines, one per call). Its stdout must be byte-identical with and without
 * wrappers. On stderr it reports how many of its calls go to a variadic
 * function, which a runtime wrapper forwards to its wrapped va_list twin
 * (two measured calls instead of one).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hard.h"

static int variadic_calls;

static void hex128(const char *what, unsigned __int128 v)
{
    printf("= %s %#llx:%016llx\n", what, (unsigned long long)(v >> 64), (unsigned long long)v);
}

static int twice(int x)
{
    return 2 * x + 1;
}

static int outer(int (*in)(int), int x)
{
    return in(x) + 100;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int handled;

static void handler(int sig)
{
    handled += sig;
}

static void print_large(const char *what, const struct hard_large *l)
{
    printf("= %s", what);
    for (int i = 0; i < 8; i++)
        printf(" %#lx", (unsigned long)l->v[i]);
    printf(" %a %.13s\n", l->d, l->tag);
}

static void integers(void)
{
    printf("= i8 %#x\n", (uint8_t)hard_i8(-128, 0xa5));
    printf("= i16 %#x\n", (uint16_t)hard_i16(-32768, 0xbeef));
    printf("= i32 %#x\n", (uint32_t)hard_i32(-0x7edcba98, 0xdeadbeef));
    printf("= i64 %#llx\n",
           (unsigned long long)hard_i64(-0x123456789abcdefLL, 0xfedcba9876543210ULL));
    printf("= char %#x\n", (unsigned char)hard_char('z', -100, 0xff));
    printf("= short %#x\n", hard_short(-12345, 0xfffe));
    printf("= long %#lx\n", (unsigned long)hard_long(-0x7fffffffffffffffL, 0x8000000000000001UL));
    printf("= llong %#llx\n", hard_llong(-3, 0xffffffff00000000ULL));
    printf("= size %#tx\n", hard_size((size_t)-7, -0x1000));
    printf("= bool %d %d\n", hard_bool(1, 0, 77), hard_bool(0, 0, -1));
    __int128 a = ((__int128)0x0123456789abcdefLL << 64) | 0xfedcba9876543210ULL;
    unsigned __int128 b = ((unsigned __int128)0x8000000000000000ULL << 64) | 0x1ULL;
    hex128("i128", (unsigned __int128)hard_i128(-a, b));
}

static void floats(void)
{
    printf("= float %a\n", hard_float(0x1.fffffep+127f, 0x1p-149f));
    printf("= double %a\n", hard_double(0x1.123456789abcdp-1022));
    printf("= ldouble %La\n", hard_ldouble(0x1.123456789abcdef2p+16000L, 0x3.3p-5L));
    float _Complex cf = hard_cfloat(1.5f + 2.25fi);
    printf("= cfloat %a %a\n", __real__ cf, __imag__ cf);
    double _Complex cd = hard_cdouble(0x1.1p-3 - 7.0i, -0.0 + 0x1.8p+1000i);
    printf("= cdouble %a %a\n", __real__ cd, __imag__ cd);
    long double _Complex cl = hard_cldouble(0x1.00000000000000fep0L + 3.0Li);
    printf("= cldouble %La %La\n", __real__ cl, __imag__ cl);
}

static void aggregates(void)
{
    struct hard_small s = hard_small_pass((struct hard_small){'A', -2, 0x7abcdef0}, 3);
    printf("= small %#x %#x %#x\n", (unsigned char)s.c, (unsigned short)s.s, (unsigned)s.i);
    struct hard_large la = {{1, -2, 3, -4, 5, -6, 7, 0x7fffffffffffffffL}, 0x1.5p-3, "large-a"};
    struct hard_large lb = {{10, 20, 30, 40, 50, 60, 70, 80}, -0x1.cp+9, "other tag 12"};
    struct hard_large lr = hard_large_pass(la, lb);
    print_large("large", &lr);
    union hard_union u = hard_union_pass((union hard_union){.u = 0x0123456789abcdefULL});
    printf("= union %#llx\n", (unsigned long long)u.u);
    union hard_bigunion bu;
    for (int i = 0; i < 40; i++)
        bu.bytes[i] = (char)(i * 7 + 1);
    bu = hard_bigunion_pass(bu);
    printf("= bigunion");
    for (int i = 0; i < 40; i++)
        printf(" %02x", (unsigned char)bu.bytes[i]);
    printf("\n");
    hard_vec2 v = hard_vec2_add((hard_vec2){0x1.2p0f, -3.5f}, (hard_vec2){1e-40f, 0x1p100f});
    printf("= vec2 %a %a\n", v.x, v.y);
    hard_mixed m = hard_mixed_pass((hard_mixed){-0x1.fp-7, -99}, 0x1.8p4f);
    printf("= mixed %a %#lx\n", m.re, (unsigned long)m.im);
    struct hard_aligned al = hard_aligned_pass((struct hard_aligned){{1.0, -2.5, 0x1p-1074, 4e300}});
    printf("= aligned %a %a %a %a\n", al.d[0], al.d[1], al.d[2], al.d[3]);
    struct hard_bits bits = hard_bits_pass((struct hard_bits){6, 0x1abc, -33});
    printf("= bits %#x %#x %d\n", bits.a, bits.b, bits.c);
    struct hard_f3 f3 = hard_f3_pass((struct hard_f3){0x1.5p-1f, -8.25f, 1e30f}, -0x1.8p+2);
    printf("= f3 %a %a %a\n", f3.x, f3.y, f3.z);
    struct hard_ld ld = hard_ld_pass((struct hard_ld){0x1.fffffffffffffffep+100L},
                                     (struct hard_ld){-0x1p-16382L});
    printf("= ld %La\n", ld.v);
    printf("= enum %d %d\n", (int)hard_enum(HARD_RED, HARD_SMALL_A),
           (int)hard_enum(HARD_BLUE, HARD_SMALL_B));
}

static void arrays(void)
{
    int a[4] = {4, 3, 2, 1};
    const int b[2] = {-10, 20};
    printf("= array %d %d\n", hard_array(a, b), a[0]);
    int m[2][3] = {{1, 2, 3}, {4, 5, 6}};
    printf("= ptr_array %d\n", hard_ptr_array(m, 2));
    double vla[2][3] = {{0.5, 1.5, -2}, {0x1p-20, 3, 9}};
    printf("= vla %a\n", hard_vla(2, 3, vla));
    int out[6];
    hard_fill(6, out);
    printf("= fill %d %d %d %d %d %d\n", out[0], out[1], out[2], out[3], out[4], out[5]);
    int mat[2][5] = {{1, 2, 3, 4, 5}, {-1, -2, -3, -4, -5}};
    printf("= matrix %d\n", hard_matrix(mat, 2));
}

static void function_pointers(void)
{
    printf("= apply %d\n", hard_apply(twice, 20));
    printf("= apply_nested %d\n", hard_apply_nested(outer, twice, 5));
    int v[5] = {9, -4, 7, 0, 3};
    printf("= sort_first %d %d\n", hard_sort_first(v, 5, cmp_int), v[4]);
    int (*op)(int, int) = hard_get_op('-');
    printf("= get_op %d\n", op(10, 3));
    void (*old)(int) = hard_handler(5, handler);
    old = hard_handler(6, old);
    printf("= handler %d %d\n", handled, old == handler);
    int (*(*weird)(int))[4] = hard_weird(3);
    printf("= weird %d %d\n", (*weird(0))[1], (*weird(1))[3]);
    hard_binop *pick = hard_pick(1);
    printf("= pick %d\n", pick(6, 7));
    printf("= call_binop %d\n", hard_call_binop(hard_pick(0), -4, 9));
}

static void qualifiers_and_more(void)
{
    char dst[16];
    printf("= copy %zu %s\n", hard_copy(dst, "restricted", 10), dst);
    volatile int vi = 41;
    const volatile long vl = -21;
    printf("= volatile %ld %d\n", hard_volatile(&vi, &vl), vi);
    const char *const names[] = {"zero", "one", "two"};
    printf("= const_ret %s\n", hard_const_ret(names, 2));
    char a0[] = "prog", a1[] = "-x", a2[] = "file";
    char *const argv[] = {a0, a1, a2, NULL};
    printf("= argv %d\n", hard_argv(3, argv));
    printf("= unnamed %d\n", hard_unnamed(-5, 0x1.999999999999ap-4, "unnamed"));
    printf("= many %a\n", hard_many(1, 2.5, -3, 4.25f, 'e', 6.125L, -7, 8e10, 9, 10.5f, -11, 12.75,
                                    13u, -14.0, 15LL, 16.5f, -17, 0x1.3p-9));
    struct hard_large l = {{100, 200, 300, 400, 500, 600, 700, 800}, 0.125, "stack-passed"};
    __int128 big = -((__int128)1 << 100) + 12345;
    struct hard_large r = hard_many_struct(1, (struct hard_small){'s', 22, -333}, 4.5, l, -6.5f,
                                           big, 0x1.fp-16000L, 8, 9, 10,
                                           (hard_vec2){0.25f, -0.75f}, 11);
    print_large("many_struct", &r);
}

static void errnos(void)
{
    errno = 0;
    int rc = hard_fail(EDOM);
    printf("= fail %d errno=%d\n", rc, errno);
    errno = 0;
    double d = hard_fail_double(0x1p100);
    printf("= fail_double %a errno=%d\n", d, errno);
    errno = 0;
    hard_set_errno(EILSEQ);
    printf("= set_errno errno=%d\n", errno);
    /* errno the library leaves alone reaches the caller unchanged too */
    errno = ENOTDIR;
    int32_t x = hard_i32(1, 2);
    printf("= kept errno=%d %d\n", errno, x);
}

static int sum_via_twin(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int s = hard_vsum(n, ap);
    va_end(ap);
    return s;
}

static void variadics(void)
{
    printf("= sum %d\n", hard_sum(5, 1, -2, 3, -4, 0x7fff));
    variadic_calls++;
    printf("= sum0 %d\n", hard_sum(0));
    variadic_calls++;
    printf("= vsum %d\n", sum_via_twin(3, 10, 20, 30));
    char buf[64];
    int n = hard_format(buf, sizeof buf, "%s|%d|%a|%Lg|%lld", "fmt", -42, 0x1.8p-3, 1.5L,
                        -9000000000LL);
    variadic_calls++;
    printf("= format %d %s\n", n, buf);
}

int main(void)
{
    integers();
    floats();
    aggregates();
    arrays();
    function_pointers();
    qualifiers_and_more();
    errnos();
    variadics();
    printf("= old %d\n", hard_old(12));
    printf("= labelled %d\n", hard_labelled(40));
    hard_void();
    printf("= counter %d %d\n", hard_counter(), hard_counter());
    struct hard_opaque *o = hard_open("opaque");
    printf("= close %d\n", hard_close(o));
    fprintf(stderr, "driver: variadic=%d\n", variadic_calls);
    hard_exit(0);
}
