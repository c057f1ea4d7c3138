#!/usr/bin/env bash
# A target whose static TLS is large (initial-exec variables, as jemalloc's):
# under the audit module that make installcheck runs the unwrapped main
# with, the loader keeps too little room for it and main could not start
# (status 127, "cannot allocate memory in static TLS block"); installcheck
# asks for more, and passes in both modes. A main that cannot start at all
# (no run path to its library) is said to be so.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mkdir -p lib
printf 'int tl_touch(int i);\n' > lib/tl.h
printf 'static __thread char buf[8192] __attribute__((tls_model("initial-exec")));\nint tl_touch(int i) { buf[i & 8191] = 1; return buf[(i + 1) & 8191] + i; }\n' > lib/tl.c
$CC -O2 -fPIC -shared -o lib/libtl.so lib/tl.c
step "init, make, make install, make installcheck"
run_ok init.log libwrap-init --name tl -x c --cppflags "-I$scratch/lib" --ldflags "-L$scratch/lib -Wl,-rpath,$scratch/lib" \
    --libs -ltl --prefix "$scratch/prefix" w
echo '#include "tl.h"' > w/libwrap.h
printf '#include <stdio.h>\n#include "tl.h"\nint main(void) { printf("%%d\\n", tl_touch(41)); return 0; }\n' > w/main.c
run_ok make.log make -C w all install
run_ok installcheck.log make -C w installcheck
grep -q "OK    linktime" installcheck.log && grep -q "OK    runtime" installcheck.log ||
    { cat installcheck.log; fail "installcheck did not pass in both modes"; }

step "a working directory whose path holds a blank: installcheck there"
mkdir -p "a b"
cp -a w "a b/w"
run_ok installcheck3.log make -C "a b/w" installcheck
grep -q "OK    linktime" installcheck3.log && grep -q "OK    runtime" installcheck3.log ||
    { cat installcheck3.log; fail "installcheck in 'a b/w' did not pass in both modes"; }
[ -f "a b/w/installcheck/runtime/profile.json" ] || fail "no results in 'a b/w/installcheck/runtime'"

step "a main that cannot start unwrapped is said to be so, not blamed on a measured run"
run_ok init2.log libwrap-init --name tl -x c --cppflags "-I$scratch/lib" --ldflags "-L$scratch/lib" \
    --libs -ltl --prefix "$scratch/prefix2" w2
cp w/libwrap.h w/main.c w2/
run_ok make2.log make -C w2 all install
expect_fail installcheck2.log "main, run unwrapped, could not start \(status 127\): .*libtl\.so: cannot open shared object file.*fix LDFLAGS" \
    make -C w2 installcheck
echo PASS
