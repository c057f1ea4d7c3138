#include <iostream>

#include "outer.h"

int main()
{
    Outer o;
    Outer::Iter it = o.first();
    std::cout << "size " << o.size() << " first " << it.value() << "\n";
    return 0;
}
