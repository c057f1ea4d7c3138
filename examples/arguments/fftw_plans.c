/*
 * fftw_plans.c - the sizes a program plans FFTs of: complex 1-d plans of
 * six sizes (two repeated), real-to-complex 1-d plans of two, one 2-d
 * plan; each executed once.
 *
 *   LIBWRAP_ARGUMENTS='fftw_plan_dft*:n*' ./fftw_plans
 *   libwrap-report --arguments libwrap-*
 */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    static const int sizes[] = {16, 64, 256, 1024, 64, 256};
    fftw_complex *in = fftw_malloc(sizeof(fftw_complex) * 2048), *out = fftw_malloc(sizeof(fftw_complex) * 2048);
    double *rin = fftw_malloc(sizeof(double) * 2048);
    for (int i = 0; i < 2048; i++) {
        in[i][0] = rin[i] = sin(0.01 * i);
        in[i][1] = 0;
    }
    for (int k = 0; k < 6; k++) {
        fftw_plan p = fftw_plan_dft_1d(sizes[k], in, out, FFTW_FORWARD, FFTW_ESTIMATE);
        fftw_execute(p);
        printf("dft_1d(%d) out[1]=%.6f\n", sizes[k], out[1][0]);
        fftw_destroy_plan(p);
    }
    for (int n = 128; n <= 512; n *= 4) {
        fftw_plan p = fftw_plan_dft_r2c_1d(n, rin, out, FFTW_ESTIMATE);
        fftw_execute(p);
        printf("dft_r2c_1d(%d) out[1]=%.6f\n", n, out[1][0]);
        fftw_destroy_plan(p);
    }
    fftw_plan p = fftw_plan_dft_2d(32, 64, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(p);
    printf("dft_2d(32, 64) out[1]=%.6f\n", out[1][0]);
    fftw_destroy_plan(p);
    fftw_free(in);
    fftw_free(out);
    fftw_free(rin);
    return 0;
}
