/* driver.cc - calls every wrapped shape of geo.h and prints what it sees;
 * the output must not change when the library is wrapped. */
#include "geo.h"

#include <cstdio>
#include <stdexcept>
#include <string>

int main()
{
    geo::Shape a("a");
    std::printf("name %s count %d\n", a.name(), geo::Shape::count());
    a.rename("b");
    a.rename(std::string("c"));
    geo::Shape &same = a.sprintf("%s-%d-%.1f", "f", 7, 0.5);
    std::printf("sprintf %s same-object %d\n", a.name(), &same == &a);
    a.rename(std::string("c"));
    int s1 = a.scale(3);
    double s2 = a.scale(2.5);
    std::printf("scale %d %.2f\n", s1, s2);
    geo::Shape::Box b = a.box();
    a.grow(b, geo::Unit::cm);
    std::printf("box %ld %ld\n", b.w, b.h);
    std::printf("area %.1f inline %d\n", a.area(), a.inlined());
    geo::Shape t = a.twin();
    std::printf("twin %s %s\n", t.name(), geo::Shape::describe(t).c_str());
    t += 4;
    std::printf("equal %d %d\n", a == a, a == t);
    try {
        a.check(1);
        a.check(-2);
        std::printf("no exception\n");
    } catch (const std::invalid_argument &e) {
        std::printf("caught %s\n", e.what());
    }
    try {
        a.verify(-3);
        std::printf("no exception\n");
    } catch (const std::invalid_argument &e) {
        std::printf("caught through a tail call: %s\n", e.what());
    }
    geo::Shape *sq = new geo::Square(5);
    std::printf("square %.1f count %d\n", sq->area(), geo::Shape::count());
    delete sq;
    int v[] = {1, 2, 3, 4};
    std::printf("sum %d twice %d\n", geo::sum(v, 4), geo::twice(21));
    std::string j = geo::join("x", "y");
    std::printf("join %s take %s\n", j.c_str(), geo::take(std::string("z")).c_str());
    geo::detail::TagT tag{100};
    std::printf("tagged %d\n", geo::tagged(tag, std::vector<int>{1, 2}));
    std::printf("weigh %d\n", geo::weigh(a, 3));
    std::printf("count %d\n", geo::Shape::count());
    return 0;
}
