/* app.c - calls foo 3 times, bar twice and baz once; the same source is linked
 * against the old library (it then references foo@V1) and the new one
 * (foo@V2). */
#include <stdio.h>

#include "foo.h"

int main(void)
{
    static const int v[] = {100, 101, 102};
    int s = 0;
    for (int i = 0; i < 3; i++)
        s = foo(v, 3);
    printf("foo sum=%d\n", s);
    fprintf(stderr, "bar=%d\n", bar(bar(1)));
    printf("baz=%d\n", baz(2));
    return s % 7;
}
