/* foo.h - a library whose foo changed behaviour in version V2: foo@V1
 * (old binaries) and foo@@V2 (the default). bar has one version. */
int foo(const int *v, int n);
int bar(int x);
