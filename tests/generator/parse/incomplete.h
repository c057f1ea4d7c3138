/* Classes the headers only declare (protobuf's Symbol, MapIterator),
 * taken or returned by value: no typed wrapper can spell such a call, so
 * the function is left out of typed forwarding, with the reason; by
 * pointer, and a class defined, are wrapped. */
// LANG: c++
namespace opq {
class Handle;
struct Done {
    int v;
};
Handle make_handle(int v);
int take_handle(Handle h);
int use_ptr(Handle *h);
Done done(int v);
/* A template's specialization, not instantiated in the header: wrapped. */
template <typename T> struct Box {
    T v;
};
int take_box(Box<int> b);
} // namespace opq
// CHECK-SKIP: _ZN3opq11make_handleEi unsupported
// CHECK-SKIP: _ZN3opq11take_handleENS_6HandleE unsupported
// CHECK: _ZN3opq7use_ptrEPNS_6HandleE name=opq::use_ptr file=incomplete.h:13 ret=int (opq::Handle *h)
// CHECK: _ZN3opq4doneEi name=opq::done file=incomplete.h:14 ret=opq::Done (int v)
// CHECK: _ZN3opq8take_boxENS_3BoxIiEE name=opq::take_box file=incomplete.h:19 ret=int (opq::Box<int> b)
