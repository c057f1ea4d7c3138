/* foo_new.c - the library after the change: foo@@V2 doubles each value;
 * foo@V1 keeps the old sum for binaries linked against the old library. */
int foo_v1(const int *v, int n);
int foo_v2(const int *v, int n);

__asm__(".symver foo_v1, foo@V1");
__asm__(".symver foo_v2, foo@@V2");

int foo_v1(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

int foo_v2(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += 2 * v[i];
    return s;
}

int bar(int x)
{
    return x + 1;
}
