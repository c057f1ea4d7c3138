// outer.cc - the library of outer.h.
#include "outer.h"
Outer::Iter::Iter(const std::map<Key, int>::iterator &it) : it_(it) {}
int Outer::Iter::value() const { return it_->second; }
Outer::Outer() { items_[Key{1}] = 10; items_[Key{2}] = 20; }
int Outer::size() const { return (int)items_.size(); }
Outer::Iter Outer::first() { return Iter(items_.begin()); }
