/* corolib.h - a library that calls back (coroutines.sh). */
int co_call(int (*cb)(int), int x);
int co_leaf(int x);
