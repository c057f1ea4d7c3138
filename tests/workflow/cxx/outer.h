// outer.h - a constructor whose parameter names a private nested type inside
// a template argument: a typed wrapper cannot spell it from outside the class.
#ifndef OUTER_H
#define OUTER_H
#include <map>
class Outer {
    struct Key {
        int k;
        bool operator<(const Key &o) const { return k < o.k; }
    };
    std::map<Key, int> items_;
public:
    class Iter {
    public:
        Iter(const std::map<Key, int>::iterator &it);
        int value() const;
    private:
        std::map<Key, int>::iterator it_;
    };
    Outer();
    int size() const;
    Iter first();
};
#endif
