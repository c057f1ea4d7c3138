/* Calls the library's functions through the pointers its lookup hands
 * out: each call is a visit of the function, as a direct one is. */
#include "lk.h"
#include <stdio.h>

int main(void)
{
    lk_fn leaf = lk_lookup("leaf", 1.5, 7), twice = lk_lookup("twice", 1.5, 7);
    if (!leaf || !twice || lk_lookup("none", 1.5, 7) || lk_lookup("leaf", 2.0, 7))
        return 3;
    int s = 0;
    for (int i = 0; i < 5; i++)
        s += leaf(i);
    for (int i = 0; i < 3; i++)
        s += twice(i);
    s += lk_leaf(100);
    s += lk_foreign()(-4);
    printf("sum %d\n", s);
    return 0;
}
