/* foo.h - a library whose foo changed behaviour in version V2: foo@V1
 * (old binaries) and foo@@V2 (the default). bar has one version. baz is
 * one function under the versions V1, V2 (the default) and V3. */
int foo(const int *v, int n);
int bar(int x);
int baz(int x);
