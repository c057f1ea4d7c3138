/* argmeta_cxx.h - C++ classes by value (argmeta.sh, -x c++): a class not
 * trivial for calls (a user-provided destructor or copy constructor, a
 * virtual function, or such a member; std::string and std::vector, whose
 * specializations the header never instantiates) is passed by a hidden
 * reference, one general register, and returned in memory whose address
 * comes first (%rdi; x8 on AArch64, which takes no argument register); so
 * is any class over 16 bytes returned. Other small classes are not known,
 * nor the size of a specialization never instantiated (width 0). */
#include <optional>
#include <string>
#include <vector>

struct cx_virt { virtual ~cx_virt(); int x; };
struct cx_trivial { int a, b; };
struct cx_big { long v[4]; };
struct cx_owner { std::string s; };

extern "C" {
// ARG: cx_string_result k=signed/4/rsi return=none/32/-
// A64: cx_string_result k=x0 return=-
std::string cx_string_result(int k);

// ARG: cx_string_param s=none/32/- k=signed/4/rsi return=signed/4/rax
// A64: cx_string_param s=- k=x1 return=x0
int cx_string_param(std::string s, int k);

// ARG: cx_vector_param v=none/0/- k=signed/4/rsi return=signed/4/rax
// A64: cx_vector_param v=- k=x1 return=x0
int cx_vector_param(std::vector<int> v, int k);

// ARG: cx_virt_result k=signed/4/rsi return=none/16/-
// A64: cx_virt_result k=x0 return=-
cx_virt cx_virt_result(int k);

// ARG: cx_owner_param o=none/32/- k=signed/4/rsi return=signed/4/rax
// A64: cx_owner_param o=- k=x1 return=x0
int cx_owner_param(cx_owner o, int k);

// ARG: cx_big_result k=signed/4/rsi return=none/32/-
// A64: cx_big_result k=x0 return=-
cx_big cx_big_result(int k);

// ARG: cx_trivial_param t=none/8/- k=signed/4/- return=signed/4/rax
// A64: cx_trivial_param t=- k=- return=x0
int cx_trivial_param(cx_trivial t, int k);

// ARG: cx_optional_result k=signed/4/- return=none/0/-
// A64: cx_optional_result k=x0 return=-
std::optional<int> cx_optional_result(int k);
}
