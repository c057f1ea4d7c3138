/* Declarators the header may write in unusual ways. */
typedef int fn_t(int, double);
fn_t via_typedef;
int (*ret_arr(void))[3];
void static_arr(int a[static 10], const int b[const 4]);
typedef struct opaque opaque_t;
opaque_t *make(void);
void takes_fn(int f(int));
struct s2 { int a; };
struct s2 by_tag(struct s2 v);
typedef enum { A1, B1 } anon_enum;
anon_enum get_e(anon_enum e);
void nested(void (*(*pp)(int))(void (*)(long)));
_Atomic int atom(_Atomic int *p);
// CHECK: via_typedef name=via_typedef file=declarators.h:3 ret=int (int arg1, double arg2)
// CHECK: ret_arr name=ret_arr file=declarators.h:4 ret=int (*)[3] (void)
// CHECK: static_arr name=static_arr file=declarators.h:5 ret=void (int *a, const int *b)
// CHECK: make name=make file=declarators.h:7 ret=opaque_t * (void)
// CHECK: takes_fn name=takes_fn file=declarators.h:8 ret=void (int (*f)(int))
// CHECK: by_tag name=by_tag file=declarators.h:10 ret=struct s2 (struct s2 v)
// CHECK: get_e name=get_e file=declarators.h:12 ret=anon_enum (anon_enum e)
// CHECK: nested name=nested file=declarators.h:13 ret=void (void (*(*pp)(int))(void (*)(long)))
// CHECK: atom name=atom file=declarators.h:14 ret=_Atomic(int) (_Atomic(int) *p)
