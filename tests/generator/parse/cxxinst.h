// LANG: c++
/* Explicit instantiations declared in the header (docs/cxx.md): the
 * library exports their members, libclang shows neither declarations nor
 * symbols; each member is listed as unsupported with that reason. */
template <typename T> class Box {
public:
    Box(T v);
    T get() const;
    static int count();
private:
    T v_;
};
extern template class Box<int>;
extern template class Box<double>;
template <> class Box<char> {
public:
    char get() const;
};
int plain(int);
// CHECK: _Z5plaini name=plain file=cxxinst.h:19 ret=int (int arg1)
// CHECK: _ZNK3BoxIcE3getEv name=Box::get kind=method file=cxxinst.h:17 ret=char (const Box<char> *this)
// CHECK: Box<int>::get name=Box<int>::get kind=method file=cxxinst.h:8 ret=T (void) skip=unsupported(member of the explicit instantiation Box<int>: exported by the library, but libclang gives neither its declaration nor its symbol; not wrapped)
// CHECK-SKIP: Box<double>::get unsupported
// CHECK-SKIP: Box<int>::count unsupported
// CHECK-SKIP: Box<int>::Box unsupported
// CHECK-SKIP: Box<double>::Box unsupported
