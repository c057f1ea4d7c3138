/* foo_old.c - the library when only V1 existed: foo@@V1, baz@@V1. */
int foo(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

int bar(int x)
{
    return x + 1;
}

int baz(int x)
{
    return 3 * x;
}
