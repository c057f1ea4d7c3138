#include <bits/impl.h>
int fake_std_fn(int x);
