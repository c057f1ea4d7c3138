#!/bin/bash
# bench/overhead/run.sh [BUILD_DIR] - per-call overhead of libwrap's wrappers.
#
# Builds a loop calling a trivial library function (libbench.so) and runs it,
# one process invocation per variant:
#   plain     no wrapper
#   hand      hand-written minimal --wrap wrapper: two rdtsc, TLS call stack
#   profile   the generated wrapper (ABI-level on x86-64, docs/abi.md) + the
#             runtime, call-path profile
#   typed     the typed generated wrapper (--forward typed), same runtime
#   typed+listener  the typed wrapper with the empty listener
#   excluded  the same binary, bench_fn excluded by LIBWRAP_FILTERING_FILE
#   trace     the same binary with LIBWRAP_ENABLE_TRACING=true (and profile)
#   listener  the same binary with an event listener whose enter and exit do
#             nothing (empty_listener.c, LIBWRAP_LISTENERS=its path)
#   nop       the generated wrapper + the no-op runtime
#   args      the profile binary recording bench_fn's integer argument
#             (LIBWRAP_ARGUMENTS=bench_fn:x, docs/arguments.md)
#   typed-args  the same with the typed wrapper
# and prints ns per call, ratios against "hand" and the targets:
#   profile/hand <= 1.25, excluded - plain <= 3 ns, trace/hand <= 2,
#   listener - profile <= 5 ns, args - profile <= 5 ns (and typed-args - typed).
# Then instructions per call under callgrind (when valgrind is installed)
# and uftrace's overhead on the same loop (when uftrace is installed).
# Environment: N (calls per repetition, default 2000000), REPEAT (7),
# ROUNDS (3: the variants run in turn, each keeps its best), CC, GEN_DIR (a
# directory with bench.wrappers.c and bench.wrap already generated, for
# machines without the generator).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
stage=$build/stage
N=${N:-2000000}
REPEAT=${REPEAT:-7}
CC=${CC:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/libwrap-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

for f in "$stage/lib/liblibwrap_runtime.so" "$stage/lib/liblibwrap_runtime_nop.so"; do
    [ -e "$f" ] || { echo "run.sh: $f missing: build the runtime first (cmake --build $build)" >&2; exit 1; }
done

CFLAGS="-O2 -I$here -I$stage/include"
$CC $CFLAGS -fPIC -shared -o libbench.so "$here/bench_lib.c"
$CC $CFLAGS -fPIC -shared -fvisibility=hidden -o libwrap_plugin_empty.so "$here/empty_listener.c"
link() { # link OUTPUT EXTRA...
    local out=$1
    shift
    $CC $CFLAGS -o "$out" "$here/bench_main.c" "$@" -L. -lbench -Wl,-rpath,"$work"
}

# The wrapper as the generator emits it, or the libwrap.h pattern.
wrapper=pattern
gen=$stage/libexec/libwrap/libwrap-gen
if [ -n "${GEN_DIR:-}" ]; then
    cp -r "$GEN_DIR" gen
    $CC $CFLAGS -DLIBWRAP_LINKTIME -fPIC -c gen/bench.wrappers.c -o wrap.o
    wrapper=generated
    wrapflags="-Wl,@gen/bench.wrap"
elif [ -x "$gen" ] && $CC -E "$here/bench_lib.h" -o bench.i &&
    "$gen" --name bench -x c -o gen --quiet bench.i >gen.log 2>&1 &&
    $CC $CFLAGS -DLIBWRAP_LINKTIME -fPIC -c gen/bench.wrappers.c -o wrap.o 2>>gen.log; then
    wrapper=generated
    wrapflags="-Wl,@gen/bench.wrap"
else
    $CC $CFLAGS -c "$here/pattern_wrap.c" -o wrap.o
    wrapflags="-Wl,--wrap=bench_fn"
fi

variants="plain hand profile excluded trace listener nop args"
typed_variant=""
if [ -x "$gen" ] && "$gen" --name bench -x c -o gen_typed --quiet --forward typed bench.i >>gen.log 2>&1 &&
    $CC $CFLAGS -DLIBWRAP_LINKTIME -fPIC -c gen_typed/bench.wrappers.c -o wrap_typed.o 2>>gen.log; then
    link typed wrap_typed.o -Wl,@gen_typed/bench.wrap -L"$stage/lib" -llibwrap_runtime -Wl,-rpath,"$stage/lib"
    typed_variant=typed
    variants="$variants typed typed+listener typed-args"
fi
link plain
link hand "$here/hand_wrap.c" -Wl,--wrap=bench_fn
link profile wrap.o $wrapflags -L"$stage/lib" -llibwrap_runtime -Wl,-rpath,"$stage/lib"
link nop wrap.o $wrapflags -L"$stage/lib" -llibwrap_runtime_nop -Wl,-rpath,"$stage/lib"
printf 'LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE bench_fn\nLIBWRAP_REGION_NAMES_END\n' >exclude.filter

export LIBWRAP_EXPERIMENT_DIRECTORY=$work/exp
measure() { # measure NAME BINARY [VAR=VALUE...]: best ns per call
    local name=$1 bin=$2
    shift 2
    rm -rf "$work"/exp*
    env "$@" "./$bin" "$N" "$REPEAT"
}

declare -A ns
keep_best() { # keep_best VARIANT NS
    if [ -z "${ns[$1]:-}" ] || awk -v a="$2" -v b="${ns[$1]}" 'BEGIN { exit !(a < b) }'; then
        ns[$1]=$2
    fi
}
for ((round = 0; round < ${ROUNDS:-3}; round++)); do
    keep_best plain "$(measure plain plain)"
    keep_best hand "$(measure hand hand)"
    keep_best profile "$(measure profile profile)"
    keep_best excluded "$(measure excluded profile LIBWRAP_FILTERING_FILE=$work/exclude.filter)"
    keep_best trace "$(measure trace profile LIBWRAP_ENABLE_TRACING=true LIBWRAP_TOTAL_MEMORY=64M)"
    keep_best listener "$(measure listener profile LIBWRAP_LISTENERS=$work/libwrap_plugin_empty.so)"
    keep_best nop "$(measure nop nop)"
    keep_best args "$(measure args profile LIBWRAP_ARGUMENTS=bench_fn:x)"
    if [ -n "$typed_variant" ]; then
        keep_best typed "$(measure typed typed)"
        keep_best typed+listener "$(measure typed+listener typed LIBWRAP_LISTENERS=$work/libwrap_plugin_empty.so)"
        keep_best typed-args "$(measure typed-args typed LIBWRAP_ARGUMENTS=bench_fn:x)"
    fi
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v v="$1" -v lim="$2" 'BEGIN { print (v <= lim ? "ok" : "OVER") }'; }

echo "libwrap overhead benchmark: $N calls x $REPEAT repetitions x ${ROUNDS:-3} rounds (best), $wrapper wrapper"
echo "machine: $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%-15s %10s %12s\n' variant ns/call "vs hand"
for v in $variants; do
    printf '%-15s %10.2f %12s\n' "$v" "${ns[$v]}" "$(ratio "${ns[$v]}" "${ns[hand]}")"
done
r=$(ratio "${ns[profile]}" "${ns[hand]}")
echo "target profile/hand <= 1.25: $r $(verdict "$r" 1.25)"
d=$(awk -v a="${ns[excluded]}" -v b="${ns[plain]}" 'BEGIN { printf "%.2f", a - b }')
echo "target excluded - plain <= 3 ns: $d $(verdict "$d" 3)"
r=$(ratio "${ns[trace]}" "${ns[hand]}")
echo "target trace/hand <= 2: $r $(verdict "$r" 2)"
d=$(awk -v a="${ns[listener]}" -v b="${ns[profile]}" 'BEGIN { printf "%.2f", a - b }')
echo "target listener - profile <= 5 ns: $d $(verdict "$d" 5)"
# Argument recording: one integer per call, over profile mode, both
# measured in this run.
d=$(awk -v a="${ns[args]}" -v b="${ns[profile]}" 'BEGIN { printf "%.2f", a - b }')
echo "target args - profile <= 5 ns (one integer recorded): $d $(verdict "$d" 5)"
if [ -n "$typed_variant" ]; then
    d=$(awk -v a="${ns[typed+listener]}" -v b="${ns[typed]}" 'BEGIN { printf "%.2f", a - b }')
    echo "  typed wrapper: typed+listener - typed: $d ns $(verdict "$d" 5)"
    d=$(awk -v a="${ns[typed-args]}" -v b="${ns[typed]}" 'BEGIN { printf "%.2f", a - b }')
    echo "target typed-args - typed <= 5 ns (one integer recorded): $d $(verdict "$d" 5)"
fi

if command -v valgrind >/dev/null; then
    # Instructions per call: the difference of two loop lengths cancels
    # start-up and finalisation.
    ir() { # ir BINARY CALLS [VAR=VALUE...]
        local bin=$1 calls=$2
        shift 2
        rm -rf "$work"/exp*
        env "$@" valgrind --tool=callgrind --callgrind-out-file=/dev/null "./$bin" "$calls" 1 2>&1 >/dev/null |
            sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
    }
    echo "instructions per call (callgrind):"
    for v in plain hand profile excluded listener nop args $typed_variant ${typed_variant:+typed+listener} ${typed_variant:+typed-args}; do
        extra=()
        bin=$v
        case $v in
            excluded) bin=profile extra=(LIBWRAP_FILTERING_FILE=$work/exclude.filter) ;;
            listener) bin=profile extra=(LIBWRAP_LISTENERS=$work/libwrap_plugin_empty.so) ;;
            typed+listener) bin=typed extra=(LIBWRAP_LISTENERS=$work/libwrap_plugin_empty.so) ;;
            args) bin=profile extra=(LIBWRAP_ARGUMENTS=bench_fn:x) ;;
            typed-args) bin=typed extra=(LIBWRAP_ARGUMENTS=bench_fn:x) ;;
        esac
        a=$(ir "$bin" 100000 "${extra[@]}")
        b=$(ir "$bin" 200000 "${extra[@]}")
        printf '  %-15s %8.1f\n' "$v" "$(awk -v a="$a" -v b="$b" 'BEGIN { print (b - a) / 100000 }')"
    done
else
    echo "instructions per call: valgrind not installed"
fi

if command -v uftrace >/dev/null; then
    $CC $CFLAGS -pg -o plain_pg "$here/bench_main.c" -L. -lbench -Wl,-rpath,"$work"
    # Fewer calls: uftrace writes every call to disk.
    u=$(uftrace record -d "$work/uftrace.data" ./plain_pg 200000 3 2>/dev/null | tail -1)
    echo "uftrace record (-pg, library calls through the PLT): $u ns/call, $(ratio "$u" "${ns[hand]}") x hand"
else
    echo "uftrace: not installed"
fi
