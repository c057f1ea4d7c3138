/* main.c - calls self_open N times (tests/runtime/dlself.sh). */
#include <stdio.h>
#include <stdlib.h>
#include "self.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3;
    for (int i = 0; i < n; i++)
        printf("self_open %d\n", self_open());
    return 0;
}
