/* argmeta_cxx.h - C++ classes by value (argmeta.sh, -x c++): a class not
 * trivial for calls (a user-provided destructor or copy constructor, a
 * virtual function, or such a member; std::string and std::vector, whose
 * specializations the header never instantiates) is passed by a hidden
 * reference, one general register, and returned in memory whose address
 * comes first (%rdi; x8 on AArch64, which takes no argument register); so
 * is any class over 16 bytes returned. A class trivial for calls of up to
 * 16 bytes takes registers as a C struct, where its layout can be followed
 * (its fields, and those of its one base with data; empty bases take no
 * space); with two bases with data it is not known, nor the size of a
 * specialization never instantiated (width 0). */
#include <optional>
#include <utility>
#include <string>
#include <vector>

struct cx_virt { virtual ~cx_virt(); int x; };
struct cx_trivial { int a, b; };
struct cx_base { int a; };
struct cx_base2 { int b; };
struct cx_derived : cx_base { float f; };   /* one base with data: laid out */
struct cx_empty {};
struct cx_eb : cx_empty { double d; };      /* an empty base takes no space */
struct cx_two_bases : cx_base, cx_base2 {}; /* two bases with data: not followed */
struct cx_ae { cx_empty e; int i; };
struct cx_shift : cx_empty, cx_ae { float g; }; /* cx_ae moves to offset 4: not followed */
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

// ARG: cx_trivial_param t=none/8/- k=signed/4/rsi return=signed/4/rax
// A64: cx_trivial_param t=- k=x1 return=x0
int cx_trivial_param(cx_trivial t, int k);

// ARG: cx_derived_param d=none/8/- k=signed/4/rsi return=signed/4/rax
// A64: cx_derived_param d=- k=x1 return=x0
int cx_derived_param(cx_derived d, int k);

// ARG: cx_empty_base_param e=none/8/- k=signed/4/rdi x=double/8/xmm1 return=signed/4/rax
// A64: cx_empty_base_param e=- k=x0 x=v1 return=x0
int cx_empty_base_param(cx_eb e, int k, double x);

// ARG: cx_two_bases_param t=none/8/- k=signed/4/- return=signed/4/rax
// A64: cx_two_bases_param t=- k=- return=x0
int cx_two_bases_param(cx_two_bases t, int k);

// ARG: cx_shift_param s=none/16/- k=signed/4/- x=double/8/- return=signed/4/rax
// A64: cx_shift_param s=- k=- x=- return=x0
int cx_shift_param(cx_shift s, int k, double x);

// A specialization shows libclang none of its members (here a
// std::string): not known, on either ABI.
// ARG: cx_pairstr_param p=none/0/- k=signed/4/- return=signed/4/rax
// A64: cx_pairstr_param p=- k=- return=x0
int cx_pairstr_param(std::pair<std::string, int> p, int k);

// ARG: cx_trivial_result k=signed/4/rdi return=none/8/-
// A64: cx_trivial_result k=x0 return=-
cx_trivial cx_trivial_result(int k);

// ARG: cx_optional_result k=signed/4/- return=none/0/-
// A64: cx_optional_result k=x0 return=-
std::optional<int> cx_optional_result(int k);
}
