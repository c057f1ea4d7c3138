#!/bin/bash
# generator_symcheck_lto: static archives of link-time-optimisation objects.
# gcc -flto writes slim objects (only __gnu_lto_slim and .gnu.lto_ sections
# in the symbol table, the code as GIMPLE); clang -flto writes LLVM bitcode,
# not ELF at all. Their functions are in the archive index that gcc-ar,
# llvm-ar and an ar with the LTO plugin write; the symbol check reads it for
# those members, keeps the ELF members' own symbol tables, and when the
# index lists none of the LTO members (ar without the plugin, ar S) says so
# in the MISSING reason instead of "not exported".
# Arguments: the symcheck driver, the staged libwrap-gen.
. "$(dirname "$0")/lib.sh"
GEN=$2

command -v gcc > /dev/null || skip "no gcc"
command -v gcc-ar > /dev/null || skip "no gcc-ar"
plugin=$(gcc -print-file-name=liblto_plugin.so)
[ -f "$plugin" ] || plugin=$(gcc -print-prog-name=liblto_plugin.so)
[ -f "$plugin" ] || skip "no LTO plugin of gcc (gcc -print-file-name=liblto_plugin.so)"

cat > "$S/lt.h" <<'EOS'
int lt_add(int a, int b);
int lt_weak(void);
int lt_sum(const int *v, int n);
int pl_fn(void);
int pl_weak(void);
EOS
cat > "$S/lto1.c" <<'EOS'
#include "lt.h"
int lt_add(int a, int b) { return a + b; }
__attribute__((weak)) int lt_weak(void) { return 2; }
EOS
cat > "$S/lto2.c" <<'EOS'
#include "lt.h"
static int lt_local(int x) { return x; }
int lt_sum(const int *v, int n) { int s = 0; for (int i = 0; i < n; i++) s = lt_add(s, lt_local(v[i])); return s; }
EOS
# An ordinary member beside them: its symbol table answers as before.
cat > "$S/plain.c" <<'EOS'
int pl_fn(void) { return 1; }
__attribute__((weak)) int pl_weak(void) { return 2; }
int pl_data = 3;
EOS
gcc -O2 -flto -c "$S/lto1.c" -o "$S/lto1.o" && gcc -O2 -flto -c "$S/lto2.c" -o "$S/lto2.o" &&
    gcc -O2 -c "$S/plain.c" -o "$S/plain.o" || fail "compiling"
grep -aq __gnu_lto_slim "$S/lto1.o" || skip "gcc -flto does not write slim objects here"

mkdir -p "$S/slim" "$S/noidx" "$S/fat"
gcc-ar rcs "$S/slim/libslim.a" "$S/lto1.o" "$S/lto2.o" "$S/plain.o" || fail "gcc-ar"
if command -v nm > /dev/null && ! nm --print-armap "$S/slim/libslim.a" 2> /dev/null | grep -q '^lt_add in '; then
    skip "gcc-ar wrote no index of the LTO objects' names (its LTO plugin did not load)"
fi
syms="lt_add lt_weak lt_sum lt_local pl_fn pl_weak pl_data nosuch_fn"
out=$("$DRIVER" exports "-L$S/slim" -lslim $syms)
expect "slim LTO (gcc-ar): lt_add from the index" '^lt_add yes$' "$out"
expect "slim LTO (gcc-ar): weak lt_weak from the index" '^lt_weak yes$' "$out"
expect "slim LTO (gcc-ar): lt_sum from the index" '^lt_sum yes$' "$out"
expect "slim LTO (gcc-ar): a static function is not in the index" '^lt_local no$' "$out"
expect "slim LTO (gcc-ar): the ELF member's pl_fn" '^pl_fn yes$' "$out"
expect "slim LTO (gcc-ar): the ELF member's weak pl_weak" '^pl_weak yes$' "$out"
expect "slim LTO (gcc-ar): the ELF member's data is no function" '^pl_data no$' "$out"
expect "slim LTO (gcc-ar): unknown name" '^nosuch_fn no$' "$out"
out=$("$DRIVER" inventory "-L$S/slim" -lslim lt_add lt_sum pl_fn nosuch_fn)
expect "slim LTO (gcc-ar): inventory keeps lt_add" '^lt_add wrap -$' "$out"
expect "slim LTO (gcc-ar): inventory keeps lt_sum" '^lt_sum wrap -$' "$out"
expect "slim LTO (gcc-ar): MISSING as usual" '^nosuch_fn missing not exported by libslim\.a$' "$out"
expect "slim LTO (gcc-ar): counts" '^missing 1 uncertain 0$' "$out"

# No index (ar S): the LTO members cannot answer; the reason says why and
# what to do. The ELF member still answers.
ar rcS "$S/noidx/libnoidx.a" "$S/lto1.o" "$S/lto2.o" "$S/plain.o" || fail "ar rcS"
out=$("$DRIVER" inventory "-L$S/noidx" -lnoidx lt_add pl_fn)
expect "slim LTO without an index: the reason names the LTO objects and the way out" \
    '^lt_add missing not known in libnoidx\.a: LTO objects .*rebuild the archive with gcc-ar.*-ffat-lto-objects$' "$out"
expect "slim LTO without an index: the ELF member's pl_fn" '^pl_fn wrap -$' "$out"
# With a shared target beside it: both named, each with its own reason.
gcc -fPIC -shared "$S/plain.c" -o "$S/noidx/libother.so" || fail "libother.so"
out=$("$DRIVER" inventory "-L$S/noidx" "-lother -lnoidx" nosuch_fn)
expect "slim LTO without an index, and a shared target" \
    '^nosuch_fn missing not exported by libother\.so; not known in libnoidx\.a: LTO objects ' "$out"
# ar that does not load the plugin indexes only __gnu_lto_slim.
if ar --plugin /dev/null rcs "$S/noidx/libnoplug.a" "$S/lto1.o" "$S/lto2.o" > /dev/null 2>&1; then
    out=$("$DRIVER" inventory "-L$S/noidx" -lnoplug lt_add)
    expect "slim LTO, index of ar without the plugin: the reason" \
        '^lt_add missing not known in libnoplug\.a: LTO objects ' "$out"
fi

# Fat LTO objects carry machine code and a full symbol table: no index needed.
gcc -O2 -flto -ffat-lto-objects -c "$S/lto1.c" -o "$S/fat1.o" || fail "compiling fat"
ar rcS "$S/fat/libfat.a" "$S/fat1.o" || fail "ar rcS fat"
out=$("$DRIVER" inventory "-L$S/fat" -lfat lt_add lt_weak nosuch_fn)
expect "fat LTO without an index: lt_add from the symbol table" '^lt_add wrap -$' "$out"
expect "fat LTO without an index: weak lt_weak" '^lt_weak wrap -$' "$out"
expect "fat LTO without an index: MISSING as usual" '^nosuch_fn missing not exported by libfat\.a$' "$out"

# clang -flto: LLVM bitcode members, indexed by llvm-ar.
if command -v clang > /dev/null && command -v llvm-ar > /dev/null; then
    mkdir -p "$S/bc"
    clang -O2 -flto -c "$S/lto1.c" -o "$S/bc1.o" && clang -O2 -flto=thin -c "$S/lto2.c" -o "$S/bc2.o" &&
        llvm-ar rcs "$S/bc/libbc.a" "$S/bc1.o" "$S/bc2.o" || fail "clang -flto, llvm-ar"
    out=$("$DRIVER" exports "-L$S/bc" -lbc lt_add lt_weak lt_sum lt_local)
    expect "bitcode (llvm-ar): lt_add" '^lt_add yes$' "$out"
    expect "bitcode (llvm-ar): weak lt_weak" '^lt_weak yes$' "$out"
    expect "bitcode (llvm-ar, ThinLTO): lt_sum" '^lt_sum yes$' "$out"
    expect "bitcode (llvm-ar): static lt_local" '^lt_local no$' "$out"
fi

# Generation, as make runs it (the survey's case): the functions of a slim
# LTO archive are wrapped; without an index, the message says why.
gen() {
    local dir=$1; shift
    mkdir -p "$dir" && cp "$S/lt.h" "$dir/" && printf '#include "lt.h"\n' > "$dir/libwrap.h" || exit 1
    (cd "$dir" && $CC -E libwrap.h > libwrap.i && "$GEN" --name lt -x c -o . "$@" libwrap.i) > "$dir/gen.log" 2>&1
}
gen "$S/gen" --ldflags "-L$S/slim" --libs -lslim; rc=$?
expect "generation, slim LTO archive: all wrapped" '^0 GEN   lt: 5 functions, 5 wrapped' "$rc $(cat "$S/gen/gen.log")"
printf 'int lt_add(int a, int b);\n' > "$S/lt.h"
gen "$S/gen-noidx" --ldflags "-L$S/noidx" --libs -lnoidx; rc=$?
log=$(cat "$S/gen-noidx/gen.log")
expect "generation, no index: fails" '^1$' "$rc"
expect "generation, no index: the LTO reason" \
    'nothing left to wrap after the symbol check; .*not known in libnoidx\.a: LTO objects .*gcc-ar' "$log"

finish
