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
#   excluded  the same binary, bench_fn excluded by LIBWRAP_FILTERING_FILE
#   trace     the same binary with LIBWRAP_ENABLE_TRACING=true (and profile)
#   nop       the generated wrapper + the no-op runtime
#   listener  the profile binary with an event listener that does nothing
#             (empty_listener.c) and takes its events in batches
#   listener-percall  the same listener, one enter and one exit callback a call
#   args      the profile binary recording bench_fn's integer argument
#             (LIBWRAP_ARGUMENTS=bench_fn:x, docs/arguments.md)
#   throttled the profile binary with bench_fn throttled after its first
#             4,096 calls (LIBWRAP_THROTTLE=4096:1e9, docs/runtime.md): its
#             visits counted, one call in 64 timed
#   typed-args  the same with the typed wrapper
#   turn-plain, turn-profile, turn-throttled
#             plain, profile and throttled with the loop calling eight
#             functions in turn (BENCH_TURN=1, bench_main.c): more children
#             of main's call path than the four it keeps at hand, each found
#             in the thread's table
# and prints, in one run: ns per call and ratios against "hand";
# instructions and stores per call under callgrind (when valgrind is
# installed); the accuracy of the profile (the mean exclusive time it
# reports for bench_fn, which does nothing, less the plain call's cost),
# with overhead compensation on and off, with and without its argument
# recorded; the trace's bytes per event; and the targets:
#   profile: <= 100 instructions per call, profile/hand <= 1.1,
#   accuracy within 5 ns (with an argument recorded too), trace/hand <= 1.5,
#   excluded - plain <= 3 ns,
#   listener - profile <= 5 ns, listener-percall - profile <= 20 ns,
#   args - profile <= 5 ns.
# Then uftrace's overhead on the same loop (when uftrace is installed).
# Environment: N (calls per repetition, default 2000000), REPEAT (7),
# ROUNDS (3: the variants run in turn, each keeps its best), CC, GEN_DIR (a
# directory with bench.wrappers.c and bench.wrap already generated, for
# machines without the generator).
#
# On a machine without the compiler, the generator or the libraries (a
# second CPU to compare): `run.sh --prepare KIT [BUILD_DIR]` builds the
# programs and copies the runtime into the folder KIT, which runs anywhere
# with the same glibc or a newer one: `run.sh --prepared KIT` there.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../kit.sh"
kit_mode "$@"
shift $kit_shift
N=${N:-2000000}
REPEAT=${REPEAT:-7}
ROUNDS=${ROUNDS:-3}
CC=${CC:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/libwrap-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The programs and their libraries lie together in $dir (each finds the
# others through its run path, $ORIGIN); the results go to $work.
dir=$work
[ $mode = run ] || dir=$kit
[ $mode = prepared ] || build=$(cd "${1:-$here/../../build}" && pwd)
cd "$dir"

if [ $mode != prepared ]; then
stage=$build/stage
for f in "$stage/lib/liblibwrap_runtime.so" "$stage/lib/liblibwrap_runtime_nop.so"; do
    [ -e "$f" ] || { echo "run.sh: $f missing: build the runtime first (cmake --build $build)" >&2; exit 1; }
    cp "$f" .
done
# The runtime's plugins (the trace writer), and what they load.
cp -r "$stage/lib/libwrap" .
kit_libs deps libwrap/*.so

CFLAGS="-O2 -I$here -I$stage/include"
$CC $CFLAGS -fPIC -shared -o libbench.so "$here/bench_lib.c"
link() { # link OUTPUT EXTRA...
    local out=$1
    shift
    $CC $CFLAGS -o "$out" "$here/bench_main.c" "$@" -L. -lbench -Wl,-rpath,'$ORIGIN'
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

# The empty listener, batched (LIBWRAP_PLUGIN_EVENTS) and per call.
$CC $CFLAGS -fPIC -shared -fvisibility=hidden -DEMPTY_EVENTS -o libwrap_plugin_empty.so "$here/empty_listener.c"
$CC $CFLAGS -fPIC -shared -fvisibility=hidden -o libwrap_plugin_empty_percall.so "$here/empty_listener.c"

if [ -x "$gen" ] && "$gen" --name bench -x c -o gen_typed --quiet --forward typed bench.i >>gen.log 2>&1 &&
    $CC $CFLAGS -DLIBWRAP_LINKTIME -fPIC -c gen_typed/bench.wrappers.c -o wrap_typed.o 2>>gen.log; then
    link typed wrap_typed.o -Wl,@gen_typed/bench.wrap -L. -llibwrap_runtime
fi
link plain
link hand "$here/hand_wrap.c" -Wl,--wrap=bench_fn
# The hand wrapper's variants that place the cost (hand_wrap.c).
link hand-noclock "$here/hand_wrap.c" -DHAND_NO_RDTSC -Wl,--wrap=bench_fn
link hand-adds-before "$here/hand_wrap.c" -DHAND_ADDS_BEFORE -Wl,--wrap=bench_fn
link hand-adds-after "$here/hand_wrap.c" -DHAND_ADDS_AFTER -Wl,--wrap=bench_fn
link hand-loads "$here/hand_wrap.c" -DHAND_LOADS=6 -Wl,--wrap=bench_fn
link hand-stores "$here/hand_wrap.c" -DHAND_STORES=20 -Wl,--wrap=bench_fn
link profile wrap.o $wrapflags -L. -llibwrap_runtime
link nop wrap.o $wrapflags -L. -llibwrap_runtime_nop
printf 'LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE bench_fn\nLIBWRAP_REGION_NAMES_END\n' >exclude.filter
echo "$wrapper" >wrapper.txt
if [ $mode = prepare ]; then
    rm -rf gen gen_typed ./*.o ./*.i
    echo "run.sh: the programs are in $kit: bench/overhead/run.sh --prepared $kit"
    exit 0
fi
fi
wrapper=$(cat wrapper.txt)
export LD_LIBRARY_PATH=$dir/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
variants="plain hand profile excluded trace nop listener listener-percall args throttled turn-plain turn-profile turn-throttled"
placing=""
[ ! -x hand-loads ] || placing="hand-noclock hand-adds-before hand-adds-after hand-loads"
[ ! -x hand-stores ] || placing="$placing hand-stores"
variants="$variants $placing"
typed_variant=""
if [ -x typed ]; then
    typed_variant=typed
    variants="$variants $typed_variant typed-args"
fi

# The variants of one binary, as VARIANT=BINARY [VAR=VALUE...].
declare -A bin=([plain]=plain [hand]=hand [hand-noclock]=hand-noclock [hand-adds-before]=hand-adds-before
    [hand-adds-after]=hand-adds-after [hand-loads]=hand-loads [hand-stores]=hand-stores [profile]=profile
    [excluded]=profile [trace]=profile [nop]=nop [typed]=typed [listener]=profile
    [listener-percall]=profile [args]=profile [typed-args]=typed [throttled]=profile
    [turn-plain]=plain [turn-profile]=profile [turn-throttled]=profile)
declare -A vars=([excluded]="LIBWRAP_FILTERING_FILE=$dir/exclude.filter"
    [trace]="LIBWRAP_ENABLE_TRACING=true LIBWRAP_TOTAL_MEMORY=64M"
    [listener]="LIBWRAP_LISTENERS=$dir/libwrap_plugin_empty.so"
    [listener-percall]="LIBWRAP_LISTENERS=$dir/libwrap_plugin_empty_percall.so"
    [args]="LIBWRAP_ARGUMENTS=bench_fn:x" [typed-args]="LIBWRAP_ARGUMENTS=bench_fn:x"
    [throttled]="LIBWRAP_THROTTLE=4096:1000000000" [turn-plain]="BENCH_TURN=1" [turn-profile]="BENCH_TURN=1"
    [turn-throttled]="BENCH_TURN=1 LIBWRAP_THROTTLE=4096:1000000000")

export LIBWRAP_EXPERIMENT_DIRECTORY=$work/exp
measure() { # measure VARIANT [VAR=VALUE...]: best ns per call; the results stay in $work/exp
    local v=$1
    shift
    rm -rf "$work"/exp*
    env ${vars[$v]:-} "$@" "./${bin[$v]}" "$N" "$REPEAT"
}

declare -A ns
keep_best() { # keep_best VARIANT NS
    if [ -z "${ns[$1]:-}" ] || awk -v a="$2" -v b="${ns[$1]}" 'BEGIN { exit !(a < b) }'; then
        ns[$1]=$2
    fi
}
for ((round = 0; round < ROUNDS; round++)); do
    for v in $variants; do
        keep_best $v "$(measure $v)"
    done
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
verdict() { awk -v v="$1" -v lim="$2" 'BEGIN { print (v <= lim ? "ok" : "OVER") }'; }
absverdict() { awk -v v="$1" -v lim="$2" 'BEGIN { print (v <= lim && -v <= lim ? "ok" : "OVER") }'; }
declare -A result

echo "libwrap overhead benchmark: $N calls x $REPEAT repetitions x $ROUNDS rounds (best), $wrapper wrapper"
echo "machine: $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%-17s %10s %12s\n' variant ns/call "vs hand"
for v in $variants; do
    printf '%-17s %10.2f %12s\n' "$v" "${ns[$v]}" "$(ratio "${ns[$v]}" "${ns[hand]}")"
done

# Where a CPU puts the cost of work between two timestamps: the hand
# wrapper with more work beside its rdtsc, or without them.
if [ -n "$placing" ]; then
    echo "where the time goes (the hand wrapper's variants, hand_wrap.c):"
    printf '  %-44s %8.2f ns (hand less its two rdtsc)\n' "its work with a counter for a clock" \
        "$(minus "${ns[hand-noclock]}" "${ns[plain]}")"
    for v in ${placing#hand-noclock }; do
        case $v in
            hand-adds-before) what="60 additions before the exit's rdtsc" ;;
            hand-adds-after) what="60 additions after it" ;;
            hand-loads) what="6 dependent loads after it" ;;
            hand-stores) what="20 independent stores before it" ;;
        esac
        printf '  %-44s %+8.2f ns\n' "$what" "$(minus "${ns[$v]}" "${ns[hand]}")"
    done
    echo "  (about 0: the work overlaps the timestamps; its latency: each timestamp waits for the work around it)"
fi

# The profile's own word on bench_fn: its mean exclusive time, which
# should be what a plain call costs. The mean is over every call of a run,
# so a run that was preempted inside measured calls counts that time (on a
# loaded machine, several ns per call): the least disturbed of 7 short runs
# of N/4 calls, as the timings keep their best repetition.
mean_excl() { # mean_excl VARIANT [VAR=VALUE...]: ns, from profile.json
    local v=$1 k
    shift
    for k in 1 2 3 4 5 6 7; do
        rm -rf "$work"/exp*
        env ${vars[$v]:-} "$@" "./${bin[$v]}" "$((N / 4))" 1 >/dev/null
        python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
f = [f for f in p["functions"] if f["symbol"] == "bench_fn"][0]
print("%.2f" % (f["exclusive_ns"] / f["visits"]))' "$work/exp/profile.json"
    done | sort -g | head -1
}
echo "accuracy: mean exclusive time reported for bench_fn (empty; best of 7 runs) - plain call (${ns[plain]} ns)"
for v in profile $typed_variant args ${typed_variant:+typed-args}; do
    for c in true false; do
        m=$(mean_excl $v LIBWRAP_COMPENSATE=$c)
        d=$(minus "$m" "${ns[plain]}")
        [ $c = true ] && result[accuracy_$v]=$d
        printf '  %-8s compensation %-5s %8.2f ns reported, %+7.2f ns\n' "$v" "$([ $c = true ] && echo on || echo off)" "$m" "$d"
    done
done
cfg=$(grep '^# LIBWRAP_COMPENSATE calibration' "$work/exp/config.txt" | sed 's/^# LIBWRAP_COMPENSATE calibration: //' || true)
[ -z "$cfg" ] || echo "  calibration (config.txt, last run): $cfg"

# Trace bytes per event: the archive over its events (two per call).
measure trace >/dev/null
events=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
print(2 * sum(f["visits"] for f in p["functions"]))' "$work/exp/profile.json")
bytes=$(du -cb "$work/exp/traces" "$work/exp/traces.otf2" "$work/exp/traces.def" | tail -1 | cut -f1)
printf 'trace: %d events, %d bytes in the archive, %.2f bytes per event\n' "$events" "$bytes" \
    "$(awk -v b="$bytes" -v e="$events" 'BEGIN { print b / e }')"

if command -v valgrind >/dev/null; then
    # Instructions and stores per call: the difference of two loop lengths
    # cancels start-up and finalisation. Collected inside main only, so
    # that the trace archive written at the end is shown apart ("trace +
    # end"). Stores are what each call costs most of on CPUs whose
    # timestamps wait for them (docs/runtime.md, "On Intel Xeon").
    ir() { # ir VARIANT CALLS [valgrind options...]: "instructions stores"
        local v=$1 calls=$2
        shift 2
        rm -rf "$work"/exp*
        env ${vars[$v]:-} valgrind --tool=callgrind --cache-sim=yes --callgrind-out-file=/dev/null "$@" \
            "./${bin[$v]}" "$calls" 1 2>&1 >/dev/null |
            sed -n 's/.*Collected : *\([0-9]*\) *[0-9]* *\([0-9]*\).*/\1 \2/p'
    }
    per_call() { # per_call VARIANT [valgrind options...]: "instructions stores" per call
        local v=$1 a b
        shift
        a=$(ir $v 100000 "$@")
        b=$(ir $v 200000 "$@")
        awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ")
            printf "%.1f %.1f", (y[1] - x[1]) / 100000, (y[2] - x[2]) / 100000 }'
    }
    echo "instructions and stores per call (callgrind):"
    for v in plain hand profile $typed_variant trace excluded nop listener listener-percall args throttled \
        turn-plain turn-profile turn-throttled; do
        read -r result[ir_$v] st <<< "$(per_call $v --toggle-collect=main)"
        printf '  %-17s %8s %8s\n' "$v" "${result[ir_$v]}" "$st"
    done
    read -r i st <<< "$(per_call trace)"
    printf '  %-17s %8s %8s   (with the archive written at the end)\n' "trace + end" "$i" "$st"
else
    echo "instructions and stores per call: valgrind not installed"
fi

echo "targets:"
if [ -n "${result[ir_profile]:-}" ]; then
    echo "  profile instructions per call <= 100: ${result[ir_profile]} $(verdict "${result[ir_profile]}" 100)"
fi
r=$(ratio "${ns[profile]}" "${ns[hand]}")
echo "  profile/hand <= 1.1: $r $(verdict "$r" 1.1)"
echo "  accuracy, compensated, within 5 ns: ${result[accuracy_profile]} $(absverdict "${result[accuracy_profile]}" 5)"
echo "  accuracy with one integer recorded, within 5 ns: ${result[accuracy_args]} $(absverdict "${result[accuracy_args]}" 5)"
r=$(ratio "${ns[trace]}" "${ns[hand]}")
echo "  trace/hand <= 1.5: $r $(verdict "$r" 1.5)"
d=$(minus "${ns[excluded]}" "${ns[plain]}")
echo "  excluded - plain <= 3 ns: $d $(verdict "$d" 3)"
d=$(minus "${ns[listener]}" "${ns[profile]}")
echo "  listener - profile <= 5 ns (an empty listener, events in batches): $d $(verdict "$d" 5)"
d=$(minus "${ns[listener-percall]}" "${ns[profile]}")
echo "  listener-percall - profile <= 20 ns (one enter and one exit callback a call): $d $(verdict "$d" 20)"
d=$(minus "${ns[args]}" "${ns[profile]}")
echo "  args - profile <= 5 ns (one integer recorded): $d $(verdict "$d" 5)"
if [ -n "$typed_variant" ]; then
    d=$(minus "${ns[typed-args]}" "${ns[typed]}")
    echo "  typed-args - typed <= 5 ns (one integer recorded): $d $(verdict "$d" 5)"
fi

if [ $mode = run ] && command -v uftrace >/dev/null; then
    $CC $CFLAGS -pg -o plain_pg "$here/bench_main.c" -L. -lbench -Wl,-rpath,"$work"
    # Fewer calls: uftrace writes every call to disk.
    u=$(uftrace record -d "$work/uftrace.data" ./plain_pg 200000 3 2>/dev/null | tail -1)
    echo "uftrace record (-pg, library calls through the PLT): $u ns/call, $(ratio "$u" "${ns[hand]}") x hand"
else
    echo "uftrace: not installed"
fi
