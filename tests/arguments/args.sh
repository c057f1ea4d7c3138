#!/usr/bin/env bash
# args.sh abi|typed
#
# Argument recording (docs/arguments.md) end to end on argslib: integers of
# every width (two on the stack), enums (one unsigned), double and float
# (one on the stack), bool, C strings (NULL, unreadable, cut), size_t
# parameters and ssize_t and string results, and parameters that cannot be
# recorded. Wrappers generated with the forwarding given (ABI-level or
# typed), each run link-time (-Wl,@args.wrap) and under LD_PRELOAD:
#   - nothing selected: no "arguments" in the profile, no parameter event;
#   - LIBWRAP_ARGUMENTS='al_*:*': exact counts, sums, min, max, histograms,
#     values (check_args.py), per function and per call path;
#   - sizes: exactly the size_t and ssize_t ones;
#   - traced: one OTF2 parameter event per recorded value (otf2-print);
#   - names that match nothing: exactly one warning each.
# The program's stdout, stderr and exit status stay those of the unwrapped
# run (stderr plus the warnings, in the last case). LW_TEST_HOST
# (tests/aarch64/args.sh): the same for another machine, CC its compiler,
# its runtime in lib/HOST; the sanitizer builds are this machine's only.
set -euo pipefail

forward=$1
src=$LIBWRAP_SOURCE_DIR/tests/arguments
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
rtlib=$LIBWRAP_STAGE/lib${LW_TEST_HOST:+/$LW_TEST_HOST}
TEST_LABEL="args $forward${LW_TEST_HOST:+ $LW_TEST_HOST}"
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
here=$PWD
CHECK_ARGS="python3 $src/check_args.py"
OTF2_PRINT=${OTF2_PRINT:-$(command -v otf2-print || true)}

$CC -O2 -g -fPIC -shared -Wl,-soname,libargs.so -o libargs.so "$src/argslib.c"
$CC -O2 -g -I"$src" -c "$src/args_app.c" -o args_app.o

printf '#include "argslib.h"\n' > libwrap.h
$CC -E -I"$src" libwrap.h > libwrap.i
"$gen" --quiet --name args -x c --cppflags "-I$src" --ldflags "-L$here" --libs -largs \
    ${LW_TEST_HOST:+--target "$LW_TEST_HOST"} --forward "$forward" -o gen libwrap.i
# What check_args.py expects: the ABI-level wrappers place the parameters
# after small structs (al_small's int, al_pair's doubles: section 3.2.3 of
# the x86-64 ABI, AAPCS64's HFAs), but on x86-64 not al_vec's `after`,
# which follows a struct with a vector inside; on AArch64 that struct is an
# HVA of one short vector (one v register) and `after` is placed, recorded
# as by typed wrappers.
placed=$forward
arch=${LW_TEST_HOST:-$(uname -m)}
[ "$forward" = abi ] && [ "${arch%%-*}" = aarch64 ] && placed=typed
for mode in linktime runtime; do
    MODE=$(echo $mode | tr a-z A-Z)
    $CC -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_$MODE -I"$src" -I. -I"$inc" -c gen/args.wrappers.c \
        -o $mode.o || fail "the $mode wrappers do not compile under -Wall -Wextra -Werror"
done
rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib" -Wl,-rpath,"$here")
$CC -shared -o libwrap_args_linktime.so linktime.o -Wl,@gen/args.wrap -L. -largs "${rt[@]}"
$CC -shared -o libwrap_args_runtime.so runtime.o -L. -Wl,--no-as-needed -largs "${rt[@]}" -ldl
$CC -o plain args_app.o -L. -largs -Wl,-rpath,"$here" -lpthread
$CC -o linked args_app.o -Wl,@gen/args.wrap -L. -lwrap_args_linktime -largs "${rt[@]}" -lpthread

status=0
./plain > plain.out 2> plain.err || status=$?
[ "$status" = 5 ] || fail "the unwrapped program exited $status"

# run NAME LINKAGE VAR=VALUE...: the program measured; stdout and the exit
# status as unwrapped; stderr in NAME.err.
run() {
    local name=$1 linkage=$2 s=0
    shift 2
    local dir=$here/exp-$name
    rm -rf "$dir"
    if [ "$linkage" = linktime ]; then
        env LIBWRAP_EXPERIMENT_DIRECTORY="$dir" "$@" ./linked > $name.out 2> $name.err || s=$?
    else
        env LIBWRAP_EXPERIMENT_DIRECTORY="$dir" "$@" LD_PRELOAD=$here/libwrap_args_runtime.so ./plain \
            > $name.out 2> $name.err || s=$?
    fi
    [ "$s" = 5 ] || { cat $name.err >&2; fail "$name: exit status $s, unwrapped 5"; }
    cmp -s plain.out $name.out || { diff plain.out $name.out >&2 || true; fail "$name: stdout differs"; }
    $CHECK "$dir" "visits('al_ints') == 3" "visits('al_mixed') == 4" "visits('al_name') == 5" \
        "visits('al_len') == 7" "visits('al_void') == 5201" "len(threads) == 5" ||
        fail "$name: visits differ from the calls"
}
same_stderr() {
    cmp -s plain.err $1.err || { diff plain.err $1.err >&2 || true; fail "$1: stderr differs"; }
}

for linkage in linktime preload; do
    n=$linkage
    run $n-none $linkage
    same_stderr $n-none
    $CHECK_ARGS exp-$n-none none $placed plain.out || fail "$n-none"

    run $n-all $linkage LIBWRAP_ARGUMENTS='al_*:*'
    same_stderr $n-all
    $CHECK_ARGS exp-$n-all all $placed plain.out || fail "$n-all"
    grep -qx 'LIBWRAP_ARGUMENTS=al_\*:\*' exp-$n-all/config.txt || fail "$n-all: config.txt lacks LIBWRAP_ARGUMENTS"
    grep -q 'recorded arguments' exp-$n-all/profile.txt || fail "$n-all: profile.txt lacks the arguments"

    run $n-sizes $linkage LIBWRAP_ARGUMENTS=sizes
    same_stderr $n-sizes
    $CHECK_ARGS exp-$n-sizes sizes $placed plain.out || fail "$n-sizes"

    # Each of al_ints's integers recorded alone: a function with one
    # recorded parameter takes the trampoline's own path from its second
    # call on (six registers, then the stack; narrow types extended), the
    # rest the hook that records several. The same statistics either way.
    for p in i8 i16 i32 i64 u8 u16 u32 u64; do
        run $n-one-$p $linkage LIBWRAP_ARGUMENTS=al_ints:$p
        same_stderr $n-one-$p
        python3 - exp-$n-all/profile.json exp-$n-one-$p/profile.json $p <<'PY' || fail "$n-one-$p"
import json, sys
def stats(path):
    f = [f for f in json.load(open(path))["functions"] if f["name"] == "al_ints"][0]
    return {a["name"]: a for a in f.get("arguments", [])}
every, one = stats(sys.argv[1]), stats(sys.argv[2])
if list(one) != [sys.argv[3]] or one[sys.argv[3]] != every[sys.argv[3]]:
    sys.exit("recorded alone: %s; with the others: %s" % (one, every.get(sys.argv[3])))
PY
    done

    # One warning per rule whose names match nothing (or only what cannot
    # be recorded); the rest of stderr is the program's.
    rules='al_nope:x,al_ints:zz,al_fill:out,al_int?:qq,bad,al_vec:after,sizes'
    run $n-warn $linkage LIBWRAP_ARGUMENTS="$rules"
    grep -v '^libwrap: warning: LIBWRAP_ARGUMENTS' $n-warn.err > $n-warn.rest || true
    cmp -s plain.err $n-warn.rest || { cat $n-warn.err >&2; fail "$n-warn: stderr has more than the warnings"; }
    expect=(al_nope:x al_ints:zz al_fill:out 'al_int?:qq' '"bad"')
    [ "$placed" = abi ] && expect+=(al_vec:after)
    nwarn=$(grep -c '^libwrap: warning: LIBWRAP_ARGUMENTS' $n-warn.err || true)
    [ "$nwarn" = ${#expect[@]} ] || { cat $n-warn.err >&2; fail "$n-warn: $nwarn warnings, expected ${#expect[@]}"; }
    for r in "${expect[@]}"; do
        [ "$(grep -cF -- "$r" $n-warn.err)" = 1 ] || { cat $n-warn.err >&2; fail "$n-warn: not one warning about $r"; }
    done
    grep -q 'al_ints has no parameter "zz".*it has: i8, i16, i32, i64, u8, u16, u32, u64, return' $n-warn.err ||
        { cat $n-warn.err >&2; fail "$n-warn: the warning does not list al_ints's parameters"; }
    # A function not called is this process's: named with its PID.
    grep -q 'no function [^ ]* (pid [0-9]*) called matches "al_nope" (rule "al_nope:x"): it recorded nothing for it$' $n-warn.err ||
        { cat $n-warn.err >&2; fail "$n-warn: the warning about al_nope does not name the process"; }
    $CHECK_ARGS exp-$n-warn warn $placed plain.out || fail "$n-warn: what was recorded"

    if [ -n "$OTF2_PRINT" ]; then
        run $n-trace $linkage LIBWRAP_ENABLE_TRACING=true LIBWRAP_ARGUMENTS='al_*:*'
        same_stderr $n-trace
        "$OTF2_PRINT" exp-$n-trace/traces.otf2 > $n-trace.print 2> $n-trace.print.err ||
            fail "$n-trace: otf2-print cannot read the trace: $(head -3 $n-trace.print.err)"
        [ ! -s $n-trace.print.err ] || fail "$n-trace: otf2-print warns: $(head -3 $n-trace.print.err)"
        $CHECK_ARGS exp-$n-trace all $placed plain.out $n-trace.print || fail "$n-trace"
    fi
    echo "ok $forward $linkage"
done

# A second wrapper preloaded, of a library this program does not load (as
# gpg's rules for libnpth, which only gpg-agent uses): a rule naming its
# functions gets no warning here; one that names no wrapped function does.
if [ -z "${LW_TEST_HOST:-}" ]; then
    printf 'int other_fn(int v);\n' > other.h
    printf 'int other_fn(int v) { return v + 1; }\n' > other.c
    $CC -O2 -fPIC -shared -Wl,-soname,libother.so -o libother.so other.c
    printf '#include "other.h"\n' > other_libwrap.h
    $CC -E -I. other_libwrap.h > other.i
    "$gen" --quiet --name other -x c --cppflags "-I$here" --ldflags "-L$here" --libs -lother \
        --forward "$forward" -o gen-other other.i
    $CC -O2 -fPIC -Wall -Werror -DLIBWRAP_RUNTIME -I. -I"$inc" -c gen-other/other.wrappers.c -o other-runtime.o
    # As the Makefile links it: no NEEDED on its target.
    $CC -shared -o libwrap_other_runtime.so other-runtime.o -L. -Wl,--as-needed -lother -Wl,--no-as-needed "${rt[@]}" -ldl
    ! readelf -d libwrap_other_runtime.so | grep -q libother || fail "the other wrapper needs its target"
    s=0
    LD_PRELOAD="$here/libwrap_args_runtime.so $here/libwrap_other_runtime.so" LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-other \
        LIBWRAP_ARGUMENTS='al_name:*,other_fn:v,other_nope:x' ./plain > other.out 2> other.err || s=$?
    [ "$s" = 5 ] || { cat other.err >&2; fail "other: exit status $s"; }
    cmp -s plain.out other.out || fail "other: stdout differs"
    [ "$(grep -c '^libwrap: warning: LIBWRAP_ARGUMENTS' other.err)" = 1 ] && grep -q '"other_nope"' other.err ||
        { cat other.err >&2; fail "other: not the one warning about other_nope"; }
    echo "ok $forward: a rule for a library not loaded"
fi

# A recorded string that is not UTF-8 ("caf\xe9"): the trace's string is
# valid UTF-8 (U+FFFD for the stray byte), which OTF2's readers need (its
# Python binding refuses anything else); profile.json keeps the bytes.
if [ -z "${LW_TEST_HOST:-}" ] && [ -n "$OTF2_PRINT" ]; then
    printf '#include <stdio.h>\n#include "argslib.h"\nint main(void) { printf("%%d\\n", al_len("caf\\xe9", 1)); return 0; }\n' > utf8_app.c
    $CC -O2 -I"$src" utf8_app.c -o utf8_app -L. -largs -Wl,-rpath,"$here"
    LD_PRELOAD=$here/libwrap_args_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-utf8 LIBWRAP_ENABLE_TRACING=true \
        LIBWRAP_ARGUMENTS=al_len:s ./utf8_app > utf8.out 2> utf8.err || fail "utf8: status $?"
    [ ! -s utf8.err ] || fail "utf8: messages: $(cat utf8.err)"
    "$OTF2_PRINT" -G exp-utf8/traces.otf2 > utf8.defs || fail "utf8: otf2-print"
    iconv -f UTF-8 -t UTF-8 utf8.defs > /dev/null || fail "utf8: the trace's definitions are not UTF-8"
    grep -q $'caf\xef\xbf\xbd' utf8.defs || fail "utf8: no U+FFFD string in the trace: $(grep -a caf utf8.defs)"
    grep -q '"value_bytes": "636166e9"' exp-utf8/profile.json || fail "utf8: profile.json lost the bytes"
    echo "ok $forward: a string not UTF-8 in the trace"
fi

# The sanitizer builds of the runtime (LIBWRAP_SANITIZER_TESTS): recording
# on five threads, traced, under AddressSanitizer and ThreadSanitizer.
for san in address thread; do
    srt=$LIBWRAP_BINARY_DIR/runtime/$san
    [ -f "$srt/liblibwrap_runtime_$san.so" ] && [ -z "${LW_TEST_HOST:-}" ] || continue
    sf=(-fsanitize=$san -g -O1)
    $CC "${sf[@]}" -I"$src" -c "$src/args_app.c" -o app_$san.o
    $CC "${sf[@]}" -fPIC -DLIBWRAP_LINKTIME -I"$src" -I. -I"$inc" -c gen/args.wrappers.c -o lt_$san.o
    $CC "${sf[@]}" -o linked_$san app_$san.o lt_$san.o -Wl,@gen/args.wrap -L. -largs \
        -L"$srt" -llibwrap_runtime_$san -Wl,-rpath,"$srt" -Wl,-rpath,"$here" -lpthread
    s=0
    ASAN_OPTIONS=detect_leaks=0 TSAN_OPTIONS=halt_on_error=1:exitcode=66 LIBWRAP_ENABLE_TRACING=true \
        LIBWRAP_ARGUMENTS='al_*:*' LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-$san ./linked_$san \
        > $san.out 2> $san.err || s=$?
    [ "$s" = 5 ] || { cat $san.err >&2; fail "$san: exit status $s"; }
    cmp -s plain.out $san.out || fail "$san: stdout differs"
    $CHECK_ARGS exp-$san all $placed plain.out || fail "$san: recorded values"
    echo "ok $san"
done

# libwrap-report: the arguments as recorded, for a process and for a job of
# two (its ranks' values added up), in the HTML report and in --diff.
report=$LIBWRAP_STAGE/bin/libwrap-report
$report --arguments exp-linktime-all > report.txt || fail "libwrap-report --arguments failed"
grep -q '^al_mixed: s (const char \*) *4 ' report.txt && grep -qE '^ +2  "alpha"$' report.txt &&
    grep -qE '^ +\[512, 1023\] +1 ' report.txt || { cat report.txt >&2; fail "report --arguments: rows missing"; }
$report --arguments --format=json exp-linktime-all > report.json
python3 "$src/check_report.py" exp-linktime-all report.json || fail "report --arguments --format=json"
$report --arguments --format=tsv exp-linktime-all | grep -q $'^al_write\tal_write\tlen\tsize_t\tunsigned\t3\t1005\t' ||
    fail "report --arguments --format=tsv"
$report --arguments exp-linktime-none | grep -q 'no recorded arguments' || fail "report --arguments: no hint without arguments"
# A recorded string in the text table: C's escapes, '<' as it is (SQL's
# "where score < 1e10", a format's newlines), not JSON's \u003c and \u000a.
rm -rf exp-escaped && cp -r exp-linktime-all exp-escaped
python3 - exp-escaped/profile.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
for f in p["functions"]:
    for a in f.get("arguments", []):
        for v in a.get("values", []):
            if v.get("value") == "alpha":
                v["value"] = 'a < b\n\t"c"'
json.dump(p, open(sys.argv[1], "w"))
PY
$report --arguments exp-escaped > escaped.txt || fail "libwrap-report --arguments (escaped) failed"
grep -qF '2  "a < b\n\t\"c\""' escaped.txt || { grep -F 'a ' escaped.txt >&2; fail "report --arguments: a string's escapes"; }
mkdir -p job/rank-0 job/rank-1
for r in 0 1; do cp exp-linktime-all/profile.json exp-linktime-all/config.txt job/rank-$r/; done
$report --arguments --format=json job > job.json || fail "report --arguments on a job failed"
python3 "$src/check_report.py" exp-linktime-all job.json 2 || fail "report --arguments on a job"
$report --html=report.html exp-linktime-all > /dev/null && grep -q 'id="arguments"' report.html &&
    [ "$(grep -c 'class="arg"' report.html)" -ge 40 ] || fail "the HTML report lacks the arguments"
$report --diff exp-linktime-sizes exp-linktime-all > diff.txt || fail "report --diff failed"
grep -qE '^al_write: len \(size_t\) +3 +3 ' diff.txt && grep -qE '^al_mixed: s \(const char \*\) +0 +4 .* new$' diff.txt ||
    { cat diff.txt >&2; fail "report --diff: the arguments are missing"; }
$report --diff --format=json exp-linktime-sizes exp-linktime-all | python3 -c '
import json, sys
d = json.load(sys.stdin)
n = {(a["symbol"], a["argument"]): a for a in d["arguments"]}
assert n[("al_write", "len")]["count"] == [3, 3] and n[("al_write", "len")]["sum"] == [1005, 1005], n[("al_write", "len")]
assert n[("al_mixed", "s")]["status"] == "new" and {"value": "alpha", "count": [0, 2]} in n[("al_mixed", "s")]["values"]
' || fail "report --diff --format=json: the arguments are wrong"
echo "ok report"

if [ -n "$OTF2_PRINT" ]; then
    # A job of two processes (as srun starts them): the last one merges the
    # parts into one archive, parameters and string values mapped.
    for r in 0 1; do
        SLURM_STEP_ID=0 SLURM_PROCID=$r SLURM_STEP_NUM_TASKS=2 SLURM_JOB_ID=4242 \
            LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-job LIBWRAP_ENABLE_TRACING=true \
            LIBWRAP_ARGUMENTS='al_*:*' ./linked > job-$r.out 2> job-$r.err || [ $? = 5 ] || fail "job rank $r"
    done
    [ -f exp-job/traces.otf2 ] || fail "job: no merged trace"
    "$OTF2_PRINT" exp-job/traces.otf2 > job.print 2> job.print.err || fail "job: otf2-print: $(head -3 job.print.err)"
    [ ! -s job.print.err ] || fail "job: otf2-print warns: $(head -3 job.print.err)"
    one=$(grep -c '^PARAMETER' linktime-trace.print)
    [ "$(grep -c '^PARAMETER' job.print)" = $((2 * one)) ] ||
        fail "job: not the 2 x $one parameter events of two processes"
    [ "$(grep -c 'Parameter: "s" <[0-9]*>, Value: "alpha"' job.print)" = 4 ] || fail "job: string values not mapped"
    echo "ok job trace"

    run trace-none linktime LIBWRAP_ENABLE_TRACING=true
    "$OTF2_PRINT" exp-trace-none/traces.otf2 > trace-none.print
    ! grep -q PARAMETER trace-none.print || fail "trace-none: parameter events without LIBWRAP_ARGUMENTS"
    grep -q ENTER trace-none.print || fail "trace-none: no events"
else
    echo "otf2-print not found: the trace is not checked"
fi
echo "ok $forward"
