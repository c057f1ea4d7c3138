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

step "a changed header regenerates the wrappers"
sed -i 's|^}$|int sides(const char *name);\n}|' "$src/shapes.h"
run_ok remake.log make
grep -q 'GEN .*shapes: 4 functions' remake.log || { cat remake.log; fail "the new declaration was not seen"; }
echo PASS
