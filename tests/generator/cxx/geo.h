/* geo.h - a small C++ library with the shapes a C++ wrapper must handle:
 * a namespaced class with overloads, const and static methods, constructors
 * and a virtual destructor, a virtual method, results of class type by
 * value, a method that throws, operators, nested and private types, an
 * inline method calling a private one, a template and free functions in a
 * namespace, types written with partial qualifiers. */
#ifndef GEO_H
#define GEO_H

#include <cstdarg>
#include <cstddef>
#include <string>
#include <vector>

namespace geo {

typedef long coord;

namespace detail {
struct Tag {
    int v;
};
typedef Tag TagT;
} // namespace detail

enum class Unit { mm, cm, m };

class Shape {
public:
    struct Box {
        coord w, h;
    };

    explicit Shape(const char *name);
    Shape(const Shape &other);
    virtual ~Shape();

    virtual double area() const;
    const char *name() const;
    void rename(const char *name);
    void rename(const std::string &name);
    /* printf-like, returning the object itself, through its va_list twin */
    Shape &sprintf(const char *format, ...) __attribute__((format(printf, 2, 3)));
    Shape &vsprintf(const char *format, va_list ap);
    int scale(int factor);
    double scale(double factor);
    Box box() const;
    void grow(Box &by, Unit unit = Unit::mm);
    static int count();
    static std::string describe(const Shape &s);
    Shape twin() const;
    void check(int v) const;      /* throws std::invalid_argument when v < 0 */
    /* checked(v, "verify") as its last act: a tail call from one wrapped
     * function into another, through which check's exception passes (and
     * checked's cleanup: _Unwind_Resume) */
    void verify(int v) const;
    void checked(int v, const char *who) const;
    int inlined() const { return doubled(); }
    Shape &operator+=(int n);
    bool operator==(const Shape &o) const;
    Shape &operator=(const Shape &) = delete;

protected:
    void touch();

private:
    struct Secret {
        int k;
    };
    Secret secret() const;
    int doubled() const;
    std::string name_;
    coord size_;
};

class Square : public Shape {
public:
    explicit Square(int side);
    ~Square() override;
    double area() const override;

private:
    int side_;
};

template <typename T> T twice(T v)
{
    return v + v;
}

int sum(const int *v, std::size_t n);
std::string join(const std::string &a, const std::string &b);
std::string take(std::string &&s);
/* Types written with a partial qualifier (detail::, vector<> inside std). */
int tagged(const detail::TagT &t, std::vector<int> v);
/* A class not trivial for calls by value (a hidden reference): the object
 * the caller made is the parameter; a wrapper that copied it would show in
 * its name (each copy adds a quote) and in the count of live shapes. */
int weigh(Shape s, int k);

} // namespace geo

#endif
