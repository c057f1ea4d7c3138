#!/usr/bin/env bash
# bench/real/run.sh - what measurement costs real programs, beside the loop
# of bench/overhead, in one run (docs/runtime.md, "Cost on real programs").
#
#   bench/real/run.sh [ROWS]           (default 200000)
#
# Cases, each run plain and with its wrappers preloaded (profile mode, and
# with LIBWRAP_THROTTLE=100000:200 where the runtime has it):
#   sqlite3   Debian's sqlite3 shell on a script that inserts ROWS rows,
#             indexes them and queries them (libsqlite3 wrapper);
#   python    Debian's python3 inserting zlib-compressed blobs into sqlite3
#             (the zlib and sqlite3 wrappers preloaded together);
#   cxx       xmlbench.cc: a C++ program that parses and walks an XML
#             document ROWS/20 times with tinyxml2 (libtinyxml2 wrapper);
#   shell     a shell script under LD_PRELOAD (the sqlite3 wrapper) that
#             runs ROWS/2000 short commands: each a sqlite3 shell making
#             one query, and /bin/true, which calls nothing wrapped (what a
#             process's start and end cost, not its calls).
# CASES (default "sqlite3 python cxx shell") selects them; each round's
# runs share one CPU (taskset; PIN=0: the scheduler's choice).
# Prints per case: the median wall time of ROUNDS (default 5) interleaved
# runs each and its ratio to the plain run's, the ratio of the fastest runs
# (the least disturbed on a shared machine), the median of each round's
# ratio to that round's plain run (a virtual machine's slow and fast phases
# last longer than a round, and cancel there), the wrapped calls made, and the
# instructions per wrapped call under callgrind: the difference of two
# sizes of the same run (which cancels start-up and the end), minus the
# plain program's difference, over the difference in wrapped calls. And
# the limit of any tool that times every call: the plain run plus two
# timestamps (rdtsc, measured here) per wrapped call.
#
# Needs: the staged toolchain (build/stage, BUILD_DIR overrides), sqlite3,
# python3 (Debian's), valgrind for the instruction counts.
#
# On a machine without the toolchain, sqlite3 or tinyxml2 (a second CPU to
# compare): `run.sh --prepare KIT [ROWS]` puts the wrappers, the programs,
# the libraries they load beside glibc and the inputs into the folder KIT,
# which runs anywhere with the same glibc or a newer one and a python3:
# `run.sh --prepared KIT [ROWS]` there (ROWS as prepared).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$here/bench/kit.sh"
kit_mode "$@"
shift $kit_shift
stage=${BUILD_DIR:-$here/build}/stage
rows=${1:-200000}
export PATH=$stage/bin:$PATH
py=/usr/bin/python3
[ -x $py ] || py=$(command -v python3)
work=$(mktemp -d "${TMPDIR:-/tmp}/libwrap-real.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The wrappers, programs and inputs lie in $dir; the results go to $work.
dir=$work
[ $mode = run ] || dir=$kit
cd "$dir"
pre() { echo "$dir/libwrap_$1_runtime.so"; }
sqlite3=sqlite3
cxx_prog=$dir/xmlbench

if [ $mode != prepared ]; then
# The wrappers, as a user makes them (examples/NAME/init.sh, make).
for name in sqlite3 zlib tinyxml2; do
    bash "$here/examples/$name/init.sh" "$work/$name" "$work/prefix" > "$work/$name.init.log" 2>&1
    make -C "$work/$name" > "$work/$name.make.log" 2>&1 || { cat "$work/$name.make.log"; exit 1; }
    cp "$work/$name/libwrap_${name}_runtime.so" .
done

# Timed: ROWS rows. Counted under callgrind (50 times slower): a tenth and
# a hundredth, whose difference is the cost of the rows between.
for f in "big $rows" "irbig $((rows / 10))" "irsmall $((rows / 100))"; do
    bash "$here/bench/real/sql.sh" ${f#* } > ${f% *}.sql
done
cp "$here/bench/real/blobs.py" blobs.py
cat > short.sh <<'SH'
# short.sh SQLITE3 N: N short commands, each a query and a /bin/true
for ((i = 0; i < $2; i++)); do
    echo "select $i;" | "$1" -batch -init /dev/null :memory:
    /bin/true
done
SH
c++ -O2 -o "$cxx_prog" "$here/bench/real/xmlbench.cc" -ltinyxml2 2> "$work/cxx.log" || rm -f "$cxx_prog"
# What a timestamp costs here (rdtsc, the default timer): a tool that times
# every call reads it twice, so CALLS x 2 of it is the least any such tool
# adds (on virtual machines it may cost tens of ns).
cat > tsc.c <<'C'
#include <stdint.h>
#include <stdio.h>
#include <time.h>
int main(void)
{
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
        struct timespec a, b;
        uint32_t lo, hi, s = 0;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (int i = 0; i < 1000000; i++) {
            __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
            s += lo;
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        double ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e6 + (s & 0);
        best = ns < best ? ns : best;
    }
    printf("%.2f\n", best);
    return 0;
}
C
[ "$(uname -m)" != x86_64 ] || cc -O2 -o tsc tsc.c
if [ $mode = prepare ]; then
    cp "$(command -v sqlite3)" .
    kit_libs deps sqlite3 libwrap_*_runtime.so $(ls xmlbench 2> /dev/null)
    echo "run.sh: the programs are in $kit: bench/real/run.sh --prepared $kit $rows"
    exit 0
fi
fi
if [ $mode = prepared ]; then
    export LD_LIBRARY_PATH=$dir/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    sqlite3=$dir/sqlite3
fi
[ -x "$cxx_prog" ] || cxx_prog=

# run CASE SIZE [env...]: the command of a case
cmd() {
    local c=$1 size=$2
    case $c in
        sqlite3) echo "$sqlite3 -batch -init /dev/null :memory:" ;;
        python) echo "$py $dir/blobs.py $(case $size in big) echo $((rows / 4)) ;; irbig) echo $((rows / 40)) ;; *) echo $((rows / 400)) ;; esac)" ;;
        cxx) echo "$cxx_prog $(case $size in big) echo $((rows / 20)) ;; irbig) echo $((rows / 200)) ;; *) echo $((rows / 2000)) ;; esac)" ;;
        shell) echo "bash $dir/short.sh $sqlite3 $(case $size in big) echo $((rows / 2000)) ;; irbig) echo $((rows / 20000)) ;; *) echo $((rows / 200000)) ;; esac)" ;;
    esac
}
input() { case $1 in sqlite3) echo "$dir/$2.sql" ;; *) echo /dev/null ;; esac; }
preload() {
    case $1 in
        sqlite3 | shell) pre sqlite3 ;;
        python) echo "$(pre zlib) $(pre sqlite3)" ;;
        cxx) pre tinyxml2 ;;
    esac
}

# one CASE SIZE MODE [ROUND]: runs it once (MODE plain, profile, throttle),
# on ROUND's CPU (pin)
one() {
    local c=$1 size=$2 mode=$3 env=()
    [ $mode = plain ] || env=(LD_PRELOAD="$(preload $c)" LIBWRAP_EXPERIMENT_DIRECTORY="$work/exp-$c-$size-$mode")
    [ $mode = throttle ] && env+=(LIBWRAP_THROTTLE=100000:200)
    rm -rf "$work/exp-$c-$size-$mode"
    $(pin ${4:-}) env "${env[@]}" $(cmd $c $size) < "$(input $c $size)" > /dev/null
}
secs() { local t0 t1; t0=$(date +%s.%N); "$@"; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'; }
# pin ROUND: each round's runs on one CPU, the next round's on the next
# (PIN=0 leaves them to the scheduler): a virtual machine's CPUs can run
# at speeds far apart for long stretches, which the round's ratios then
# share instead of mixing.
pin() {
    [ -n "${1:-}" ] && [ "${PIN:-1}" != 0 ] && command -v taskset > /dev/null || return 0
    echo taskset -c $(($1 % $(nproc)))
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
fastest() { sort -g | head -1; }
visits() { # visits DIR...: wrapped calls recorded
    $py - "$@" <<'PY'
import glob, json, sys
n = 0
for d in sys.argv[1:]:
    for p in glob.glob(d + "*/profile.json"):
        n += sum(f["visits"] for f in json.load(open(p))["functions"])
print(n)
PY
}
ir() { # ir CASE SIZE MODE: instructions of the run (callgrind, children traced)
    local c=$1 size=$2 mode=$3 env=()
    [ $mode = plain ] || env=(LD_PRELOAD="$(preload $c)" LIBWRAP_EXPERIMENT_DIRECTORY="$work/ir-$c-$size-$mode")
    # Under callgrind every call is some 50 times slower: no function would
    # stay under 200 ns. The functions called 100,000 times are throttled
    # there whatever their time, much the set that the timed run throttles.
    [ $mode = throttle ] && env+=(LIBWRAP_THROTTLE=100000:100000000)
    rm -rf "$work"/ir-$c-$size-$mode*
    # Python's string hashing is seeded at random, and with it the
    # instructions a run takes: one seed for every count.
    env "${env[@]}" PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null $(cmd $c $size) \
        < "$(input $c $size)" 2>&1 >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

tsc_ns=$( { [ "$(uname -m)" = x86_64 ] && ./tsc; } 2>/dev/null || echo 0)

modes="plain profile"
rt=$stage/lib/liblibwrap_runtime.so
[ $mode = run ] || rt=$dir/deps/liblibwrap_runtime.so
if grep -q LIBWRAP_THROTTLE "$rt" 2>/dev/null; then modes="$modes throttle"; fi
echo "libwrap on real programs: $rows rows; $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "rdtsc: $tsc_ns ns; the limit below: the plain run plus two of them per wrapped call"
printf '%-8s %-9s %10s %7s %9s %9s %12s %10s\n' case mode wall_s ratio min_ratio rnd_ratio calls ins/call
for c in ${CASES:-sqlite3 python cxx shell}; do
    [ $c = cxx ] && [ -z "$cxx_prog" ] && continue
    declare -A wall=() best=()
    for m in $modes; do : > "times-$c-$m"; done
    for ((r = 0; r < ${ROUNDS:-5}; r++)); do
        for m in $modes; do secs one $c big $m $r >> "times-$c-$m"; done
    done
    for m in $modes; do
        wall[$m]=$(median < "times-$c-$m")
        best[$m]=$(fastest < "times-$c-$m")
    done
    for m in $modes; do
        calls=- per=-
        if [ $m != plain ]; then
            calls=$(visits "$work/exp-$c-big-$m")
            # (shell: callgrind follows the script, not its commands)
            if [ $c != shell ] && command -v valgrind > /dev/null; then
                a=$(ir $c irbig $m); b=$(ir $c irsmall $m)
                pa=$(ir $c irbig plain); pb=$(ir $c irsmall plain)
                va=$(visits "$work/ir-$c-irbig-$m"); vb=$(visits "$work/ir-$c-irsmall-$m")
                per=$(awk -v a="$a" -v b="$b" -v pa="$pa" -v pb="$pb" -v va="$va" -v vb="$vb" \
                    'BEGIN { printf "%.0f", ((a - b) - (pa - pb)) / (va - vb) }')
            fi
        fi
        printf '%-8s %-9s %10s %7s %9s %9s %12s %10s\n' $c $m "${wall[$m]}" \
            "$(awk -v a="${wall[$m]}" -v b="${wall[plain]}" 'BEGIN { printf "%.2f", a / b }')" \
            "$(awk -v a="${best[$m]}" -v b="${best[plain]}" 'BEGIN { printf "%.2f", a / b }')" \
            "$(paste "times-$c-$m" "times-$c-plain" | awk '{ printf "%.4f\n", $1 / $2 }' | median | awk '{ printf "%.2f", $1 }')" \
            "$calls" "$per"
        if [ $m = profile ] && [ "$calls" != - ]; then
            printf '%-8s %-9s %10s %7s\n' $c limit - \
                "$(awk -v c="$calls" -v t="$tsc_ns" -v b="${wall[plain]}" 'BEGIN { printf "%.2f", (b + c * 2 * t / 1e9) / b }')"
        fi
    done
done
