/* missing.cc - calls geo.h functions through the run-time wrappers with no
 * libgeo loaded: scalars come back zero with errno ENOSYS, a function
 * returning an object stops the program (there is no value to make up). */
#include "geo.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    (void)argv;
    errno = 0;
    int n = geo::Shape::count();
    std::printf("count %d %s\n", n, errno == ENOSYS ? "ENOSYS" : std::strerror(errno));
    std::fflush(stdout);
    if (argc > 1)
        std::printf("join %s\n", geo::join("a", "b").c_str());
    return 0;
}
