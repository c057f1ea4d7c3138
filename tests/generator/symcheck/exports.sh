#!/bin/bash
# generator_symcheck_exports: which functions the libraries export (libelf), and the
# MISSING / UNCERTAIN marks on an inventory.
. "$(dirname "$0")/lib.sh"

# libm: IFUNCs (sin, floor), weak (frexp), two versions (exp@GLIBC_2.2.5 and
# exp@@GLIBC_2.29), a compat-only hidden version (matherr), an internal name.
out=$("$DRIVER" exports "" "-lm" sin floor exp frexp matherr __sin nosuch_fn)
expect "libm: IFUNC sin exported" '^sin yes$' "$out"
expect "libm: IFUNC floor exported" '^floor yes$' "$out"
expect "libm: versioned exp exported once" '^exp yes$' "$out"
expect "libm: weak frexp exported" '^frexp yes$' "$out"
expect "libm: compat-only matherr@GLIBC_2.2.5 not linkable" '^matherr no$' "$out"
expect "libm: __sin not exported" '^__sin no$' "$out"
expect "libm: unknown name" '^nosuch_fn no$' "$out"

# A private library with every kind of symbol, as .so and as .a.
cat > "$S/kinds.c" <<'EOS'
int plain_fn(void) { return 1; }
__attribute__((weak)) int weak_fn(void) { return 2; }
__attribute__((visibility("hidden"))) int hidden_fn(void) { return 3; }
__attribute__((visibility("protected"))) int protected_fn(void) { return 4; }
static int local_fn(void) { return 5; }
int (*use_local)(void) = local_fn;
int data_obj = 6;
static int impl(void) { return 7; }
static int (*resolve_ifunc(void))(void) { return impl; }
int ifunc_fn(void) __attribute__((ifunc("resolve_ifunc")));
int old_impl(void) { return 8; }
int new_impl(void) { return 9; }
__asm__(".symver old_impl, versioned_fn@VER_1");
__asm__(".symver new_impl, versioned_fn@@VER_2");
int compat_impl(void) { return 10; }
__asm__(".symver compat_impl, compat_fn@VER_1");
EOS
cat > "$S/kinds.map" <<'EOS'
VER_1 { global: plain_fn; weak_fn; protected_fn; ifunc_fn; data_obj; use_local; local: *; };
VER_2 { } VER_1;
EOS
mkdir -p "$S/lib"
"$CC" -fPIC -shared "$S/kinds.c" -o "$S/lib/libkinds.so" -Wl,--version-script="$S/kinds.map"
syms="plain_fn weak_fn hidden_fn protected_fn local_fn data_obj ifunc_fn versioned_fn compat_fn old_impl"
out=$("$DRIVER" exports "-L$S/lib" "-lkinds" $syms)
expect ".so: plain" '^plain_fn yes$' "$out"
expect ".so: weak" '^weak_fn yes$' "$out"
expect ".so: hidden visibility" '^hidden_fn no$' "$out"
expect ".so: protected" '^protected_fn yes$' "$out"
expect ".so: static" '^local_fn no$' "$out"
expect ".so: data is not a function" '^data_obj no$' "$out"
expect ".so: IFUNC" '^ifunc_fn yes$' "$out"
expect ".so: default version @@VER_2" '^versioned_fn yes$' "$out"
expect ".so: only a non-default version" '^compat_fn no$' "$out"
expect ".so: local: * in the version script" '^old_impl no$' "$out"

"$CC" -c "$S/kinds.c" -o "$S/kinds.o"
mkdir -p "$S/ar" && ar rcs "$S/ar/libkinds.a" "$S/kinds.o"
out=$("$DRIVER" exports "-L$S/ar" "-lkinds" $syms)
expect ".a: plain" '^plain_fn yes$' "$out"
expect ".a: weak" '^weak_fn yes$' "$out"
# Hidden visibility only limits a shared object's exports: in a static link
# the program's reference binds to it.
expect ".a: hidden visibility still links" '^hidden_fn yes$' "$out"
expect ".a: static" '^local_fn no$' "$out"
expect ".a: data is not a function" '^data_obj no$' "$out"
expect ".a: IFUNC" '^ifunc_fn yes$' "$out"

# MISSING and UNCERTAIN on an inventory: libm's frexp, ldexp and copysign are
# in libc too.
out=$("$DRIVER" inventory "" "-lm" sin exp frexp ldexp copysign nosuch_fn)
expect "inventory: sin kept" '^sin wrap -$' "$out"
expect "inventory: exp kept" '^exp wrap -$' "$out"
expect "inventory: frexp UNCERTAIN" '^frexp uncertain also in libc\.so\.6$' "$out"
expect "inventory: ldexp UNCERTAIN" '^ldexp uncertain also in libc\.so\.6$' "$out"
expect "inventory: MISSING names the targets" '^nosuch_fn missing not exported by libm\.so\.6 libmvec\.so\.1$' "$out"
expect "inventory: counts" '^missing 1 uncertain 3$' "$out"

finish
