#!/usr/bin/env bash
# zlib.sh FORWARD - the login-node workflow for AArch64 (docs/workflow.md,
# "Cross-wrapping"): libwrap-init --host aarch64-linux-gnu on the bundled
# zlib example, make (headers parsed for the target, symbols checked with
# the cross linker, AArch64 wrappers), make install, make installcheck (main
# run through the emulator), then libwrap and libwrap-info for the target:
# identical stdout, stderr and exit status, and exact visits (those of
# examples/zlib/expected-profile.txt) in both linkages. FORWARD: abi (the
# default on AArch64) or typed.
source "$LIBWRAP_SOURCE_DIR/tests/aarch64/lib.sh"
forward=$1

libwrap-init --host $host --name zlib -x c --libs -lz --prefix "$PWD/prefix" w > init.log ||
    { cat init.log >&2; fail "libwrap-init --host"; }
grep -q "for $host" init.log || fail "libwrap-init does not say the target"
cp "$examples/zlib/libwrap.h" "$examples/zlib/main.c" w/
[ "$forward" = typed ] && echo 'GENFLAGS = --forward typed' > w/local.mk
run_ok make.log make -C w
want_fwd=ABI-level; [ "$forward" = typed ] && want_fwd=typed
grep -q "($want_fwd forwarding)" w/zlib.gen.log || fail "not $want_fwd forwarding: $(cat w/zlib.gen.log)"
# The cross C library's headers (/usr/aarch64-linux-gnu/include) are the
# system's, not zlib's: nothing of theirs is a candidate.
grep -q "left out 0 MISSING" w/zlib.gen.log || fail "the C library's functions were taken for zlib's: $(cat w/zlib.gen.log)"
# Variadic gzprintf: forwarded at the ABI level, or to its twin gzvprintf.
grep -qx -- '--wrap=gzprintf' w/zlib.wrap || fail "gzprintf is not wrapped"
for f in w/libwrap_zlib_linktime.so w/libwrap_zlib_runtime.so; do
    file "$f" | grep -q 'ARM aarch64' || fail "$f is not an AArch64 object: $(file "$f")"
done
if [ "$forward" = abi ]; then
    run_ok check.log make -C w check
fi
run_ok install.log make -C w install
[ -f prefix/lib/$host/libwrap_zlib_runtime.so ] || fail "make install: not in PREFIX/lib/$host"
grep -qx "host=$host" prefix/share/libwrap/zlib.libwrap || fail "the anchor does not name the target"
run_ok ic.log make -C w installcheck
[ "$(uname -m)" = aarch64 ] || grep -q "NOTE  main is an aarch64 program: it runs through" ic.log ||
    fail "installcheck does not say that main runs through the emulator"
grep -q 'OK .*linktime' ic.log || fail "installcheck linktime: $(cat ic.log)"
grep -q 'OK .*runtime' ic.log || fail "installcheck runtime: $(cat ic.log)"

# expected-profile.txt: SYMBOL LINKTIME RUNTIME
check_visits() {   # DIR COLUMN
    visits "$1" | sort > got.txt
    grep -v '^#' "$examples/zlib/expected-profile.txt" | awk -v c="$2" '$c > 0 { print $1, $c }' | sort > want.txt
    diff want.txt got.txt || fail "$1: visits differ from examples/zlib/expected-profile.txt (column $2)"
}
check_visits w/installcheck/linktime 2
check_visits w/installcheck/runtime 3

# The user's own link and an unmodified program, with the installed wrapper.
export LIBWRAP_PATH=$PWD/prefix
aarch64-linux-gnu-gcc -O2 "$examples/zlib/main.c" -o plain -lz
s=0; ./plain > plain.out 2> plain.err || s=$?; echo $s > plain.status
grep -q 'crc32=' plain.out || fail "the unwrapped program printed nothing"
run_ok link.log libwrap --libwrap=linktime:zlib aarch64-linux-gnu-gcc -O2 "$examples/zlib/main.c" -o linked -lz
file linked | grep -q 'ARM aarch64' || fail "libwrap did not link an AArch64 program"
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-linked same_run linked ./linked
check_visits exp-linked 2
so=$(libwrap-info preload zlib)
[ "$so" = "$PWD/prefix/lib/$host/libwrap_zlib_runtime.so" ] || fail "libwrap-info preload: $so"
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-preload LD_PRELOAD=$so same_run preload ./plain
check_visits exp-preload 3
# The cntvct_el0 timer, and a clear refusal of the host compiler.
grep -qx '  "timer": "tsc",' exp-preload/profile.json || grep -q '"timer": "tsc"' exp-preload/profile.json ||
    fail "the timer is not the virtual counter: $(grep timer exp-preload/profile.json)"
if libwrap --libwrap=linktime:zlib cc "$examples/zlib/main.c" -o wrong -lz 2> wrong.err; then
    fail "libwrap linked an AArch64 wrapper with the build machine's compiler"
fi
grep -q "is for $host, but cc compiles for" wrong.err || fail "libwrap's refusal: $(cat wrong.err)"
# A wrapper of the build machine (an anchor without host=) beside it: not in
# one LD_PRELOAD with it, not linked by the cross compiler, and not
# installed into the prefix that holds it under the same name.
mkdir -p native/share/libwrap native/lib
sed 's/^host=.*/host=/; s/^name=.*/name=znative/' prefix/share/libwrap/zlib.libwrap > native/share/libwrap/znative.libwrap
touch native/lib/libwrap_znative_runtime.so
if LIBWRAP_PATH=$PWD/prefix:$PWD/native libwrap-info preload zlib znative > mixed.out 2> mixed.err; then
    fail "libwrap-info preload mixed two machines' wrappers: $(cat mixed.out)"
fi
grep -q "wrappers for different machines in one LD_PRELOAD: 'zlib' is for $host and 'znative' for this machine" mixed.err ||
    fail "libwrap-info preload's refusal: $(cat mixed.err)"
if LIBWRAP_PATH=$PWD/native libwrap --libwrap=linktime:znative aarch64-linux-gnu-gcc "$examples/zlib/main.c" -o wrong -lz 2> wrong.err; then
    fail "libwrap linked the build machine's wrapper with the cross compiler"
fi
grep -q "wrapper 'znative' is for this machine ($(uname -m)), but aarch64-linux-gnu-gcc compiles for $host" wrong.err ||
    fail "libwrap's refusal of the cross compiler: $(cat wrong.err)"
mkdir -p both/share/libwrap
sed 's/^host=.*/host=/' prefix/share/libwrap/zlib.libwrap > both/share/libwrap/zlib.libwrap
if make -C w install PREFIX=$PWD/both > both.log 2>&1; then
    fail "make install put the $host wrapper over the build machine's of the same name"
fi
grep -q "make: error: .*zlib.libwrap is the wrapper 'zlib' for the toolchain's own machine, and this one is for $host" both.log ||
    fail "make install's refusal: $(cat both.log)"
grep -qx 'host=' both/share/libwrap/zlib.libwrap || fail "make install overwrote the other machine's anchor"
echo "ok: zlib for $host ($forward forwarding): installcheck, link-time and LD_PRELOAD, exact visits"
