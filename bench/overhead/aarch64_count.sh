#!/usr/bin/env bash
# bench/overhead/aarch64_count.sh [BUILD_DIR] - instructions per wrapped call
# on AArch64, counted exactly: the loop of bench_main.c calling bench_fn
# (libbench.so) is built for aarch64-linux-gnu, plain and with the default
# generated wrapper (ABI-level, link-time) on the target's runtime, and run
# under qemu-aarch64's gdb stub; gdb-multiarch single-steps one call (after
# WARMUP calls: the call path known, every check of the common case passed)
# from the call instruction to the one after it. Prints both counts and the
# wrapper's cost; exits 1 when the wrapped call exceeds LIMIT (120)
# instructions. Needs gcc-aarch64-linux-gnu, qemu-user-static and
# gdb-multiarch (scripts/install-deps.sh installs them), and a build with
# LIBWRAP_TARGETS=aarch64-linux-gnu.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
stage=$build/stage
host=aarch64-linux-gnu
cc=$host-gcc
WARMUP=${WARMUP:-1000}
LIMIT=${LIMIT:-120}
PORT=${PORT:-$((20000 + $$ % 20000))}
rt=$stage/lib/$host
[ -f "$rt/liblibwrap_runtime.so" ] || { echo "no $host runtime in $rt: configure with -DLIBWRAP_TARGETS=$host" >&2; exit 2; }
for t in $cc qemu-aarch64-static gdb-multiarch; do
    command -v $t > /dev/null || { echo "$t is not installed (scripts/install-deps.sh installs it)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

$cc -O2 -fPIC -shared -o libbench.so "$here/bench_lib.c"
printf '#include "bench_lib.h"\n' > libwrap.h
$cc -E -I"$here" libwrap.h > libwrap.i
"$stage/libexec/libwrap/libwrap-gen" --quiet --name bench -x c --target $host --libs "-L$work -lbench" -o gen libwrap.i
$cc -O2 -fPIC -DLIBWRAP_LINKTIME -I"$stage/include" -c gen/bench.wrappers.c -o linktime.o
$cc -shared -o libwrap_bench_linktime.so linktime.o -Wl,@gen/bench.wrap -L. -lbench \
    -L"$rt" -llibwrap_runtime -Wl,-rpath,"$rt" -Wl,-rpath,"$work"
# Fixed addresses (no PIE), every symbol bound at load (no resolver on the way).
flags=(-O2 -no-pie -Wl,-z,now -I"$here" "$here/bench_main.c" -L. -Wl,-rpath,"$work")
$cc "${flags[@]}" -o plain -lbench
$cc "${flags[@]}" -o wrapped -Wl,@gen/bench.wrap -lwrap_bench_linktime -lbench -L"$rt" -llibwrap_runtime \
    -Wl,-rpath,"$rt"

# count PROGRAM: instructions from the loop's call of bench_fn to its return.
count() {
    local prog=$1 call
    call=$($host-objdump -d "$prog" | awk '/\tbl\t.*<(__wrap_)?bench_fn@plt>/ { sub(":", "", $1); print $1; exit }')
    [ -n "$call" ] || { echo "no call of bench_fn in $prog" >&2; exit 2; }
    LIBWRAP_EXPERIMENT_DIRECTORY=$work/exp-$prog qemu-aarch64-static -g $PORT "./$prog" $((WARMUP * 4)) 1 > /dev/null &
    local qemu=$!
    sleep 1
    gdb-multiarch -q -batch -nx -ex "set sysroot /" -ex "target remote :$PORT" \
        -ex "python
import gdb
call = 0x$call
gdb.execute('break *%#x' % call, to_string=True)
gdb.execute('continue', to_string=True)
gdb.execute('ignore 1 $WARMUP', to_string=True)
gdb.execute('continue', to_string=True)
n = 0
while int(gdb.parse_and_eval('\$pc')) != call + 4 and n < 100000:
    gdb.execute('stepi', to_string=True)
    n += 1
print('COUNT %d' % n)
gdb.execute('delete', to_string=True)
" -ex "kill" "./$prog" 2>/dev/null | sed -n 's/^COUNT //p'
    kill $qemu 2>/dev/null || true
    wait $qemu 2>/dev/null || true
}
plain=$(count plain)
wrapped=$(count wrapped)
[ -n "$plain" ] && [ -n "$wrapped" ] || { echo "the count failed (plain '$plain', wrapped '$wrapped')" >&2; exit 2; }
echo "aarch64 instructions per call of bench_fn: plain $plain, wrapped (ABI-level, profile) $wrapped, the wrapper's cost $((wrapped - plain))"
if [ "$wrapped" -gt "$LIMIT" ]; then
    echo "over the target: $wrapped > $LIMIT instructions per wrapped call" >&2
    exit 1
fi
