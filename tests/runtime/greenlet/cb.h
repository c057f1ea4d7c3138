#ifndef CB_H
#define CB_H
int cb_call(int (*f)(int), int x);
int cb_leaf(int x);
#endif
