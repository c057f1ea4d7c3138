// LANG: c++
/* C++: functions and members are wrapped by mangled symbol, members with the
 * object pointer first, structors once per ABI variant; inline ones are not. */
namespace geo {
struct Point { double x, y; };
double distance(const Point &a, const Point &b);
class Shape {
public:
    Shape(int sides);
    ~Shape();
    int sides() const;
    static Shape *make(int sides);
    int inline_sides() { return 3; }
    Shape &operator+=(const Shape &o);
};
}
extern "C" int c_entry(const char *s);
int overload(int);
int overload(double);
// CHECK: _ZN3geo8distanceERKNS_5PointES2_ name=geo::distance file=cxx.h:6 ret=double (const geo::Point &a, const geo::Point &b)
// CHECK: _ZN3geo5ShapeC1Ei name=geo::Shape::Shape kind=constructor file=cxx.h:9 ret=void (geo::Shape *this, int sides)
// CHECK: _ZN3geo5ShapeC2Ei name=geo::Shape::Shape kind=constructor file=cxx.h:9 ret=void (geo::Shape *this, int sides)
// CHECK: _ZN3geo5ShapeD1Ev name=geo::Shape::~Shape kind=destructor file=cxx.h:10 ret=void (geo::Shape *this)
// CHECK: _ZN3geo5ShapeD2Ev name=geo::Shape::~Shape kind=destructor file=cxx.h:10 ret=void (geo::Shape *this)
// CHECK: _ZNK3geo5Shape5sidesEv name=geo::Shape::sides kind=method file=cxx.h:11 ret=int (const geo::Shape *this)
// CHECK: _ZN3geo5Shape4makeEi name=geo::Shape::make kind=static-method file=cxx.h:12 ret=geo::Shape * (int sides)
// CHECK: _ZN3geo5Shape12inline_sidesEv name=geo::Shape::inline_sides kind=method file=cxx.h:13 ret=int (geo::Shape *this) [inline] skip=inline
// CHECK: _ZN3geo5ShapepLERKS0_ name=geo::Shape::operator+= kind=operator file=cxx.h:14 ret=geo::Shape & (geo::Shape *this, const geo::Shape &o)
// CHECK: c_entry name=c_entry file=cxx.h:17 ret=int (const char *s)
// CHECK: _Z8overloadi name=overload file=cxx.h:18 ret=int (int arg1)
// CHECK: _Z8overloadd name=overload file=cxx.h:19 ret=int (double arg1)
