// A small C++ library of free functions: overloads (distinct mangled names)
// in a namespace, for the C++ path of the workflow.
namespace shapes {
double area(double w, double h);
double area(double r);
const char *describe(int sides);
}
