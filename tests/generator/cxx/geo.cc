/* geo.cc - the test library behind geo.h. */
#include "geo.h"

#include <cstring>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace geo {

static int live;

Shape::Shape(const char *name) : name_(name), size_(1) { live++; }
Shape::Shape(const Shape &other) : name_(other.name_ + "'"), size_(other.size_) { live++; }
Shape::~Shape() { live--; }
double Shape::area() const { return (double)size_ * (double)size_; }
const char *Shape::name() const { return name_.c_str(); }
void Shape::rename(const char *name) { name_ = name; }
void Shape::rename(const std::string &name) { name_ = name + "!"; }
Shape &Shape::vsprintf(const char *format, va_list ap)
{
    char buf[128];
    std::vsnprintf(buf, sizeof buf, format, ap);
    name_ = buf;
    return *this;
}
Shape &Shape::sprintf(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    Shape &r = vsprintf(format, ap);
    va_end(ap);
    return r;
}
int Shape::scale(int factor) { size_ *= factor; return (int)size_; }
double Shape::scale(double factor) { size_ = (coord)((double)size_ * factor); return (double)size_ / 2; }
Shape::Box Shape::box() const { return Box{size_, size_ + 1}; }
void Shape::grow(Box &by, Unit unit)
{
    coord k = unit == Unit::m ? 1000 : unit == Unit::cm ? 10 : 1;
    by.w += size_ * k;
    by.h += size_ * k;
    touch();
}
int Shape::count() { return live; }
std::string Shape::describe(const Shape &s) { return s.name_ + "/" + std::to_string(s.size_); }
Shape Shape::twin() const { return Shape(*this); }
void Shape::check(int v) const
{
    if (v < 0)
        throw std::invalid_argument(name_ + ": negative " + std::to_string(v));
}
void Shape::verify(int v) const { checked(v, "verify"); }
void Shape::checked(int v, const char *who) const
{
    std::string what = std::string(who) + " of a shape with a name long enough for the heap: " + name_;
    check(v);
    if (what.empty())
        std::abort();
}
Shape &Shape::operator+=(int n) { size_ += n; return *this; }
bool Shape::operator==(const Shape &o) const { return size_ == o.size_ && name_ == o.name_; }
void Shape::touch() { size_ += 0; }
Shape::Secret Shape::secret() const { return Secret{3}; }
int Shape::doubled() const { return (int)size_ * 2; }

Square::Square(int side) : Shape("square"), side_(side) {}
Square::~Square() {}
double Square::area() const { return (double)side_ * side_; }

int sum(const int *v, std::size_t n)
{
    int s = 0;
    for (std::size_t i = 0; i < n; i++)
        s += v[i];
    return s;
}
std::string join(const std::string &a, const std::string &b) { return a + "+" + b; }
std::string take(std::string &&s) { std::string r = static_cast<std::string &&>(s); return r + "."; }

int tagged(const detail::TagT &t, std::vector<int> v)
{
    int s = t.v;
    for (int x : v)
        s += x;
    return s;
}

int weigh(Shape s, int k) { return (int)std::strlen(s.name()) * 100 + Shape::count() * 10 + k; }

} // namespace geo
