#include <stdio.h>

#include "fdemo.h"
#include "fdemo_f77.h"

int main(void)
{
    double x[3] = {1, 2, 3};
    int n = 3;
    fscale_("S", &n, x, 1);
    fscale_("N", &n, x, 1);
    printf("fdemo %d: %g %g %g\n", fdemo_version(), x[0], x[1], x[2]);
    return 0;
}
