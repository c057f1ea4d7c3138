#!/usr/bin/env bash
# The workflow for a C++ library (-x c++, main.cc, mangled overloads): make,
# make install, make installcheck, visits per mangled symbol, and a changed
# library header regenerating the wrappers.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cp -r "$here/cxx" src
src=$scratch/src
"$CXX" -O2 -fPIC -shared -I"$src" "$src/shapes.cc" -o libshapes.so
run_ok init.log libwrap-init --name shapes -x c++ --cppflags "-I$src" \
    --ldflags "-L$scratch -Wl,-rpath,$scratch" --libs -lshapes --prefix "$scratch/prefix" w
[ -f w/main.cc ] || fail "no main.cc for C++"
echo '#include "shapes.h"' > w/libwrap.h
cp "$src/main.cc" w/main.cc
cd w
run_ok make.log make
cat make.log
for s in _ZN6shapes4areaEdd _ZN6shapes4areaEd _ZN6shapes8describeEi; do
    grep -qx -- "--wrap=$s" shapes.wrap || fail "$s is not wrapped"
done
run_ok install.log make install
run_ok ic.log make installcheck
cat ic.log
grep -q 'OK .*linktime: 3 wrapped functions' ic.log && grep -q 'OK .*runtime: 3 wrapped functions' ic.log \
    || fail "installcheck"
visits installcheck/linktime | sort > got.txt
printf '%s\n' '_ZN6shapes4areaEd 1' '_ZN6shapes4areaEdd 1' '_ZN6shapes8describeEi 2' > want.txt
diff want.txt got.txt || fail "visits per mangled symbol"
# installcheck names C++ functions readably: one main references on a path
# not taken.
cp main.cc main.cc.good
cat > main.cc <<'CC'
#include <cstdlib>
#include <iostream>

#include "shapes.h"

int main()
{
    std::cout << shapes::area(2, 3) << "\n";
    if (std::getenv("SHAPES_NEVER_SET"))
        std::cout << shapes::area(1.0) << "\n";
    return 0;
}
CC
run_ok ic-nottaken.log make installcheck
grep -q 'referenced by main but not called on this run: shapes::area(double)$' ic-nottaken.log ||
    { cat ic-nottaken.log; fail "installcheck does not name a C++ function readably"; }
cp main.cc.good main.cc

step "a changed header regenerates the wrappers"
sed -i 's|^}$|int sides(const char *name);\n}|' "$src/shapes.h"
run_ok remake.log make
grep -q 'GEN .*shapes: 4 functions' remake.log || { cat remake.log; fail "the new declaration was not seen"; }

step "typed wrappers: one that does not compile is left out, not the build"
cd "$scratch"
"$CXX" -O2 -fPIC -shared -I"$src" "$src/outer.cc" -o libouter.so
run_ok init2.log libwrap-init --name outer -x c++ --cppflags "-I$src" \
    --ldflags "-L$scratch -Wl,-rpath,$scratch" --libs -louter --prefix "$scratch/prefix" w2
echo '#include "outer.h"' > w2/libwrap.h
cp "$src/outer_main.cc" w2/main.cc
echo 'GENFLAGS = --forward typed' > w2/local.mk
cd w2
run_ok make.log make
cat make.log
grep -q "warning: _ZN5Outer4IterC1E.* left out, its wrapper does not compile: .*private" make.log ||
    fail "no warning for the wrapper that does not compile"
grep -q 'GEN .*outer: .* 2 whose wrapper does not compile' make.log || fail "the summary does not say it"
sed -n '/^\[compile\]/,/^$/p' outer.skipped.txt | grep -q '^_ZN5Outer4IterC2E.*private' ||
    { cat outer.skipped.txt; fail "not listed under [compile] with the compiler's message"; }
grep -qx -- '--wrap=_ZNK5Outer4sizeEv' outer.wrap || fail "the other functions are not wrapped"
run_ok install2.log make install
run_ok ic2.log make installcheck
cat ic2.log
grep -q 'OK .*linktime' ic2.log || fail "installcheck of the typed wrapper"
run_ok again.log make
grep -q 'warning' again.log && { cat again.log; fail "an up-to-date make warned again"; }
# The same from scratch with make -j2: both objects' compiles fail at once,
# and the first generation must not confuse the other's attribution.
run_ok cleanj.log make clean
run_ok makej.log make -j2
grep -qx -- '--wrap=_ZNK5Outer4sizeEv' outer.wrap || fail "make -j2: the other functions are not wrapped"
[ "$(sed -n '/^\[compile\]/,/^$/p' outer.skipped.txt | grep -c '^_ZN5Outer4Iter')" = 2 ] ||
    { cat outer.skipped.txt; fail "make -j2: not exactly the two constructors left out"; }
echo PASS
