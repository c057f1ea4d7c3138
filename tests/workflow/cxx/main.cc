#include <iostream>

#include "shapes.h"

int main()
{
    std::cout << shapes::area(2, 3) << " " << shapes::area(1.0) << " " << shapes::describe(3) << " "
              << shapes::describe(5) << "\n";
    return 0;
}
