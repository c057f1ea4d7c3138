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
/* A parameter of a private nested type keeps its place (the ABI-level
 * wrapper's names and argument locations count every parameter), and a
 * member of a specialization is named with its arguments. */
class Tokens {
public:
    int run(int n);
private:
    class Tok { public: int v; };
    using Loc = const char *;
    void both(int a, Loc b, int c);
    bool dec(Tok &t, int &out);
};
template <typename T> struct Codec;
template <> struct Codec<long> { static int size(); };
namespace later { /* declared, then defined inline further on (yaml-cpp's YAML::Node) */
struct Node { Node(); int size() const; };
inline Node::Node() {}
inline int Node::size() const { return 0; }
int twice(int x);
inline int twice(int x) { return 2 * x; }
}
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
// CHECK: _ZN6Tokens3runEi name=Tokens::run kind=method file=cxx.h:25 ret=int (Tokens *this, int n)
// CHECK: _ZN6Tokens4bothEiPKci name=Tokens::both kind=method file=cxx.h:29 ret=void (Tokens *this, int a, Tokens::Loc b, int c) skip=unsupported(a private or protected member type of a class (the wrapper cannot name it))
// CHECK: _ZN6Tokens3decERNS_3TokERi name=Tokens::dec kind=method file=cxx.h:30 ret=bool (Tokens *this, Tokens::Tok & t, int &out) skip=unsupported(a private or protected member type of a class (the wrapper cannot name it))
// CHECK: _ZN5CodecIlE4sizeEv name=Codec<long>::size kind=static-method file=cxx.h:33 ret=int (void)
// CHECK: _ZN5later4NodeC1Ev name=later::Node::Node kind=constructor file=cxx.h:35 ret=void (later::Node *this) [inline] skip=inline
// CHECK: _ZN5later4NodeC2Ev name=later::Node::Node kind=constructor file=cxx.h:35 ret=void (later::Node *this) [inline] skip=inline
// CHECK: _ZNK5later4Node4sizeEv name=later::Node::size kind=method file=cxx.h:35 ret=int (const later::Node *this) [inline] skip=inline
// CHECK: _ZN5later5twiceEi name=later::twice file=cxx.h:38 ret=int (int x) [inline] skip=inline
struct Maker { template <typename T> static T *make(int); }; /* explicit specializations, named with their arguments */
template <> Tokens *Maker::make<Tokens>(int);
template <> geo::Shape *Maker::make<geo::Shape>(int);
template <typename T> T twice_of(T);
template <> long twice_of<long>(long);
// CHECK: _ZN5Maker4makeI6TokensEEPT_i name=Maker::make<Tokens> kind=static-method file=cxx.h:62 ret=Tokens * (int arg1)
// CHECK: _ZN5Maker4makeIN3geo5ShapeEEEPT_i name=Maker::make<geo::Shape> kind=static-method file=cxx.h:63 ret=geo::Shape * (int arg1)
// CHECK: _Z8twice_ofIlET_S0_ name=twice_of<long> file=cxx.h:65 ret=long (long arg1)
