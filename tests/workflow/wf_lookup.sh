#!/usr/bin/env bash
# A library that hands out pointers to its own functions (eglGetProcAddress,
# vkGetInstanceProcAddr, a plugin table's accessor: lookup/lk.c): the
# program's calls through them are visits, as its direct calls and its
# dlsym lookups' are, in both modes, with ABI-level and typed wrappers,
# typed ones generated as C and as C++ (-x c++, the C++ body). A
# pointer into another library is passed on as it is; a lookup of the
# unwrapped va_list twin of a variadic function finds the twin. Output and
# status equal the unwrapped run's.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
src=$here/lookup
mkdir -p lib
# Bound to its own functions (-Bsymbolic, as libEGL is): the table holds
# them, not what symbol lookup (a preloaded wrapper) would find.
$CC -O2 -fPIC -shared -Wl,-Bsymbolic -o lib/liblk.so "$src/lk.c"
$CC -O2 -I"$src" -o plain "$src/lk_app.c" -Llib -Wl,-rpath,"$scratch/lib" -llk
./plain > plain.out || fail "the unwrapped program failed"

for forward in abi typed cxx; do
    step "$forward wrappers: init, make, make install"
    lang=c main=main.c
    [ $forward = cxx ] && lang=c++ main=main.cc
    run_ok init-$forward.log libwrap-init --name lk -x $lang --cppflags "-I$src" \
        --ldflags "-L$scratch/lib -Wl,-rpath,$scratch/lib" --libs -llk --prefix "$scratch/prefix-$forward" w-$forward
    echo '#include "lk.h"' > w-$forward/libwrap.h
    cp "$src/lk_app.c" w-$forward/$main
    [ $forward != abi ] && echo 'GENFLAGS = --forward typed' > w-$forward/local.mk
    # The variadic lk_sum's twin left unwrapped: lk_sum's wrapper forwards
    # to it, and the program's own lookup of it gets the twin.
    printf 'LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE lk_vsum\nLIBWRAP_REGION_NAMES_END\n' >> w-$forward/lk.filter
    run_ok make-$forward.log make -C w-$forward all install
    export LIBWRAP_PATH=$scratch/prefix-$forward
    run_ok lt-$forward.log libwrap --libwrap=linktime:lk "$CC" -O2 -I"$src" -o app-lt-$forward "$src/lk_app.c" \
        -Llib -Wl,-rpath,"$scratch/lib" -llk
    for mode in preload linktime; do
        d=$PWD/exp-$forward-$mode
        if [ $mode = preload ]; then
            LD_PRELOAD=$(libwrap-info preload lk) LIBWRAP_EXPERIMENT_DIRECTORY=$d ./plain > $d.out 2> $d.err ||
                fail "$forward $mode: status $?"
        else
            LIBWRAP_EXPERIMENT_DIRECTORY=$d ./app-lt-$forward > $d.out 2> $d.err || fail "$forward $mode: status $?"
        fi
        cmp -s plain.out $d.out || fail "$forward $mode: stdout differs: $(cat $d.out)"
        [ ! -s $d.err ] || fail "$forward $mode: stderr: $(cat $d.err)"
        $CHECK "$d" "visits('lk_lookup') == 4" "visits('lk_leaf') == 6" "visits('lk_twice') == 3" \
            "visits('lk_foreign') == 1" "visits('lk_sum') == 1" "visits('lk_vsum') == 0" || fail "$forward $mode: visits differ from the calls made"
        echo "ok: $forward $mode"
    done
done

# Two ABI-level wrappers of the library preloaded together: each call is
# measured once, also of lk_lookup, whose wrapper is a shim (its table
# entry is its own, not the other wrapper's under the same name).
step "two wrappers preloaded together"
run_ok init-abi2.log libwrap-init --name lk2 -x c --cppflags "-I$src" \
    --ldflags "-L$scratch/lib -Wl,-rpath,$scratch/lib" --libs -llk --prefix "$scratch/prefix-abi2" w-abi2
echo '#include "lk.h"' > w-abi2/libwrap.h
cp "$src/lk_app.c" w-abi2/main.c
printf 'LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE lk_vsum\nLIBWRAP_REGION_NAMES_END\n' >> w-abi2/lk2.filter
run_ok make-abi2.log make -C w-abi2 all install
d=$PWD/exp-two
LD_PRELOAD="$scratch/prefix-abi/lib/libwrap_lk_runtime.so $scratch/prefix-abi2/lib/libwrap_lk2_runtime.so" \
    LIBWRAP_EXPERIMENT_DIRECTORY=$d ./plain > $d.out 2> $d.err || fail "two wrappers: status $?"
cmp -s plain.out $d.out || fail "two wrappers: stdout differs: $(cat $d.out)"
[ ! -s $d.err ] || fail "two wrappers: stderr: $(cat $d.err)"
$CHECK "$d" "visits('lk_lookup') == 4" "visits('lk_leaf') == 6" "visits('lk_twice') == 3" \
    "visits('lk_foreign') == 1" "visits('lk_sum') == 1" || fail "two wrappers: a call counted twice"
echo PASS
