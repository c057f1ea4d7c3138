/* foo_new.c - the library after the change: foo@@V2 doubles each value;
 * foo@V1 keeps the old sum for binaries linked against the old library.
 * baz is one function under three versions (baz@V1, the default baz@@V2
 * and baz@V3, as liblzma exports lzma_stream_encoder_mt): one address. */
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

int baz_any(int x);
__asm__(".symver baz_any, baz@V1");
__asm__(".symver baz_any, baz@@V2");
__asm__(".symver baz_any, baz@V3");

int baz_any(int x)
{
    return 3 * x;
}
