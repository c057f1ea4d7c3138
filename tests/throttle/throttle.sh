#!/usr/bin/env bash
# throttle.sh - LIBWRAP_THROTTLE (docs/runtime.md, "Throttling"): a tiny
# function called 300,000 times from main and 300,000 times inside another
# wrapped function, with the default ABI-level wrappers in both linkages.
# Throttled (CALLS:NS that every call meets), the output is the program's,
# every call path keeps its exact visits, the function is marked throttled
# with the sampling rate in profile.json, profile.txt and libwrap-report,
# a function called fewer times than CALLS is not, and the estimated
# time is the timed calls' mean over every visit. The third way in, a
# tail call (`jmp thr_leaf@PLT` at the end of thr_tail, as sqlite3_free
# ends in sqlite3_mutex_leave), is nested in its caller on the
# trampoline's fast path, timed and throttled; thr_tail, whose callee is
# wrapped under LD_PRELOAD, is throttled keeping its frames. Every mode
# gives the call paths that the C hooks give (the clock_gettime timer
# takes them). A function called on four call paths, CALLS times on none
# of them, is throttled once its calls on all of them add up to CALLS
# (counted 4,096 at a time). A function throttled on a call path where
# it calls no wrapped function, while it does on another (thr_maybe), or
# before it ever has (thr_later), keeps its callees on their call paths:
# only a function none of whose calls has had a callee is throttled
# without a frame, and the first callee seen gives it its frames back.
# NS is compared with a mean in ns, while the program runs.
# Off, profile.txt
# names the functions the suggested setting would throttle. A malformed
# value is one warning. LW_TEST_HOST (tests/aarch64/throttle.sh): the same
# for another machine, CC its compiler, its runtime in lib/HOST.
set -euo pipefail
src=$LIBWRAP_SOURCE_DIR/tests/throttle
rtlib=$LIBWRAP_STAGE/lib${LW_TEST_HOST:+/$LW_TEST_HOST}
TEST_LABEL="throttle${LW_TEST_HOST:+ $LW_TEST_HOST}"
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
here=$PWD
cc=${CC:-cc}
objdump=${LW_TEST_HOST:+$LW_TEST_HOST-}objdump

$cc -O2 -fPIC -shared -Wl,-soname,libthr.so -o libthr.so "$src/thrlib.c"
# The tail call: `jmp` on x86-64, `b` on AArch64.
$objdump -d libthr.so | grep -A6 '<thr_tail>:' | grep -qE '(jmp|\sb)\s.*<thr_leaf@plt>' ||
    fail "the compiler made no tail call of thr_leaf in thr_tail: $($objdump -d libthr.so | grep -A6 '<thr_tail>:')"
wrap_library thr '"thrlib.h"' "-I$src" "-L$here" -lthr
rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib" -Wl,-rpath,"$here")
$cc -O2 -I"$src" -o plain "$src/thrapp.c" -L. -lthr -Wl,-rpath,"$here"
$cc -O2 -I"$src" -o linked "$src/thrapp.c" -Wl,@gen-thr/thr.wrap -L. -lwrap_thr_linktime -lthr "${rt[@]}"
./plain > plain.out 2> plain.err

# run NAME COMMAND...: output as unwrapped, results in exp-NAME
run() {
    local name=$1
    shift
    rm -rf "exp-$name"
    LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-$name "$@" > $name.out 2> $name.err || fail "$name: exit status $?"
    cmp -s plain.out $name.out || fail "$name: stdout differs"
    cmp -s plain.err $name.err || fail "$name: stderr differs: $(cat $name.err)"
}
# named PREFIX FILE: the function names after PREFIX on FILE's line that
# starts with it, sorted (profile.txt lists them in its table's order).
named() {
    sed -n "s/^$1//p" "$2" | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' '
}
preload=(env LD_PRELOAD=$here/libwrap_thr_runtime.so ./plain)
for m in preload linktime; do
    if [ $m = preload ]; then cmd=("${preload[@]}"); nested=300000 tail=200000 via=8192 maybe=8000 later=8192 turn=10000
    else cmd=(./linked); nested=0 tail=0 via=0 maybe=0 later=0 turn=0; fi
    run $m-timed "${cmd[@]}"
    run $m-throttled env LIBWRAP_THROTTLE=1000:1000000000 "${cmd[@]}"
    run $m-hooks env LIBWRAP_TIMER=clock_gettime "${cmd[@]}"
    paths="path('thr_leaf') == 300000 and path('thr_parent') == 300 and path('thr_parent/thr_leaf') == $nested \
        and path('thr_tail') == 200000 and path('thr_tail/thr_leaf') == $tail and path('thr_spread') == 8192 \
        and all(path('thr_via%d' % k) == 1 and path('thr_via%d/thr_spread' % k) == $via for k in (1, 2, 3)) \
        and path('thr_maybe') == 8192 and path('thr_maybe_via') == 2 and path('thr_maybe_via/thr_maybe') == $maybe \
        and path('thr_maybe_via/thr_maybe/thr_inner') == $maybe and path('thr_maybe_via/thr_inner') == 0 \
        and path('thr_later') == 8192 and path('thr_later_via') == 1 and path('thr_later_via/thr_later') == $later \
        and path('thr_later_via/thr_later/thr_inner') == $later and path('thr_later_via/thr_inner') == 0 \
        and all(path('thr_rot%d' % k) == 10000 and path('thr_frot%d' % k) == 10000 \
                and path('thr_frot%d/thr_inner' % k) == $turn for k in range(6))"
    $CHECK exp-$m-timed "$paths" "'throttled' not in fn('thr_leaf')" || fail "$m: timed visits"
    $CHECK exp-$m-hooks "$paths" || fail "$m: visits through the C hooks"
    $CHECK exp-$m-hooks "paths == paths_of('exp-$m-timed')" "paths == paths_of('exp-$m-throttled')" ||
        fail "$m: the call paths differ between the fast path, the C hooks and throttling"
    $CHECK exp-$m-throttled "$paths" "visits('thr_other') == 5" \
        "fn('thr_leaf')['throttled']['sampled'] == '1/64'" "fn('thr_leaf')['throttled']['after'] >= 1000" \
        "'throttled' not in fn('thr_parent')" "'throttled' not in fn('thr_other')" \
        "fn('thr_tail')['throttled']['sampled'] == '1/64'" \
        "all(c.get('throttled') for t in threads for c in t['callpath'] if c['symbol'] == 'thr_leaf')" ||
        fail "$m: throttled visits or marks"
    throttled=$(echo thr_later thr_leaf thr_maybe thr_spread thr_tail thr_work thr_{,f}rot{0..5} \
        $([ $m = linktime ] || echo thr_inner) | tr ' ' '\n' | sort | tr '\n' ' ')
    [ "$(named 'throttled (LIBWRAP_THROTTLE): visits exact, times estimated from one call in 64:' \
        exp-$m-throttled/profile.txt)" = "$throttled" ] ||
        fail "$m: profile.txt does not say what is throttled"
    # thr_spread: 8,192 calls on each of its paths, under CALLS; under
    # LD_PRELOAD 32,768 in all, throttled at the check that counts 12,288.
    run $m-spread env LIBWRAP_THROTTLE=10000:1000000000 "${cmd[@]}"
    if [ $m = preload ]; then spread="fn('thr_spread')['throttled']['after'] == 12288"
    else spread="'throttled' not in fn('thr_spread')"; fi
    $CHECK exp-$m-spread "$paths" "$spread" "fn('thr_leaf')['throttled']['after'] >= 10000" ||
        fail "$m: a function called on several call paths"
    $CHECK exp-$m-spread "paths == paths_of('exp-$m-timed')" || fail "$m: spread: the call paths differ"
    grep -q 'thr_leaf \[throttled 1/64\]' <("$LIBWRAP_STAGE/bin/libwrap-report" exp-$m-throttled) ||
        fail "$m: libwrap-report does not show thr_leaf as throttled"
    # Every view of it: each of its call paths in the tree, the per-thread
    # tables, the HTML report's table.
    "$LIBWRAP_STAGE/bin/libwrap-report" --tree exp-$m-throttled > $m-tree.txt
    [ "$(grep -c 'thr_leaf' $m-tree.txt)" = "$(grep -c 'thr_leaf \[throttled 1/64\]' $m-tree.txt)" ] &&
        grep -q 'thr_leaf \[throttled 1/64\]' $m-tree.txt || fail "$m: --tree does not mark thr_leaf's paths"
    grep -q 'thr_leaf \[throttled 1/64\]' <("$LIBWRAP_STAGE/bin/libwrap-report" --threads exp-$m-throttled) ||
        fail "$m: --threads does not mark thr_leaf"
    "$LIBWRAP_STAGE/bin/libwrap-report" --html exp-$m-throttled > /dev/null
    grep -q 'thr_leaf <span class="thr"[^>]*>\[throttled 1/64\]</span>' exp-$m-throttled/report.html ||
        fail "$m: the HTML report does not mark thr_leaf"
    # The estimate: the mean of the timed calls, scaled to every visit, so
    # it lies within their min and max. (How close it is to a run timed on
    # every call depends on the machine's load: printed, not asserted.)
    python3 - exp-$m-timed exp-$m-throttled <<'PY' || fail "$m: the estimated time is not the timed calls' mean"
import json, sys
t, e = (next(f for f in json.load(open(d + "/profile.json"))["functions"] if f["symbol"] == "thr_leaf")
        for d in sys.argv[1:3])
mean = e["inclusive_ns"] / e["visits"]
print("thr_leaf: timed on every call %d ns, estimated %d ns (%.2f); estimate's mean %.1f ns in [%d, %d]"
      % (t["inclusive_ns"], e["inclusive_ns"], e["inclusive_ns"] / max(t["inclusive_ns"], 1), mean,
         e["min_ns"], e["max_ns"]))
sys.exit(not (e["inclusive_ns"] > 0 and e["min_ns"] <= mean + 1 and mean <= e["max_ns"] + 1))
PY
    # Twelve children of main's call path in turn, more than the four it
    # keeps at hand: each is found in the tree's table on the throttled
    # paths too (leaf, and with a frame under LD_PRELOAD), so that after
    # the throttling one call in 64 is timed (said under
    # LIBWRAP_VERBOSE=profile), not every call. So is thr_leaf on each of
    # its call paths, the one of tail calls from thr_tail's original
    # included (the first call of a path new after the throttling is
    # timed: some more).
    rm -rf exp-$m-turn
    LIBWRAP_VERBOSE=profile LIBWRAP_THROTTLE=1000:1000000000 LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-$m-turn \
        "${cmd[@]}" > $m-turn.out 2> $m-turn.err || fail "$m: turn: exit status $?"
    cmp -s plain.out $m-turn.out || fail "$m: turn: stdout differs"
    $CHECK exp-$m-turn "$paths" || fail "$m: turn: visits"
    python3 - $m-turn.err $((300000 + nested + tail)) <<'PY' || fail "$m: throttled calls timed more than one in 64"
import re, sys
err, ok = open(sys.argv[1]).read(), True
for name in ["thr_leaf"] + ["thr_rot%d" % k for k in range(6)] + ["thr_frot%d" % k for k in range(6)]:
    m = re.search(r"\] %s: (\d+) visits, (\d+) of them timed \(throttled after (\d+) calls" % name, err)
    if not m:
        print("%s: no line of its timed calls" % name)
        ok = False
        continue
    visits, timed, after = map(int, m.groups())
    most = after + (visits - after) // 64 + (8 if name == "thr_leaf" else 1)
    print("%s: %d visits, %d timed, at most %d expected" % (name, visits, timed, most))
    ok = ok and visits == (int(sys.argv[2]) if name == "thr_leaf" else 10000) and timed <= most
sys.exit(not ok)
PY
done
# NS is in ns while the program runs: the mean that throttling decides on
# (said under LIBWRAP_VERBOSE=profile) is the profile's mean, not a mean in
# ticks of the timer (some 2 to 4 per ns on x86-64's TSC, under 0.1 on
# AArch64's virtual counter).
rm -rf exp-ns
LIBWRAP_VERBOSE=profile LIBWRAP_THROTTLE=1000:1000000000 LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-ns \
    "${preload[@]}" > ns.out 2> ns.err || fail "ns: exit status $?"
cmp -s plain.out ns.out || fail "ns: stdout differs"
python3 - exp-ns ns.err <<'PY' || fail "throttling decides on a mean that is not in ns"
import json, re, sys
f = next(f for f in json.load(open(sys.argv[1] + "/profile.json"))["functions"] if f["symbol"] == "thr_work")
m = re.search(r"thr_work throttled after \d+ calls \(mean (-?[\d.]+) ns", open(sys.argv[2]).read())
mean = f["exclusive_ns"] / f["visits"]
print("thr_work: mean %s ns when throttled, %.1f ns in the profile" % (m and m.group(1), mean))
sys.exit(not (m and 0.67 * mean < float(m.group(1)) < 1.5 * mean))
PY

# Off: the line naming what 100000:200 would throttle, by the functions'
# times. Under an emulator (LW_TEST_HOST) a call of thr_leaf takes 100 to
# 300 ns of the host's time: whether it is under 200 ns depends on the load.
would=$(named 'with LIBWRAP_THROTTLE=100000:200 these functions would be timed on one call in 64 only, their visits kept exact:' \
    exp-preload-timed/profile.txt)
if [ -z "${LW_TEST_HOST:-}" ]; then
    [ "$would" = "thr_leaf thr_tail " ] || fail "off: profile.txt does not name what would be throttled"
else
    case "$would" in "" | "thr_leaf " | "thr_tail " | "thr_leaf thr_tail ") ;;
    *) fail "off: profile.txt names other functions than would be throttled: $would" ;; esac
fi

# A malformed value: one warning, throttling off.
rm -rf exp-bad
LIBWRAP_THROTTLE=lots LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-bad "${preload[@]}" > bad.out 2> bad.err
[ "$(cat bad.err)" = 'libwrap: warning: LIBWRAP_THROTTLE="lots" is not valid (accepted: CALLS:NS, two positive numbers such as 100000:200); using off' ] ||
    fail "malformed value: $(cat bad.err)"
grep -qx 'LIBWRAP_THROTTLE=off' exp-bad/config.txt || fail "malformed value: config.txt"

# Where every call takes the C hooks (the clock_gettime timer, metrics read
# at every call, a listener): one warning with the reason, nothing
# throttled, the output as unwrapped.
for why in "LIBWRAP_TIMER=clock_gettime:the clock_gettime timer" "LIBWRAP_ENABLE_TRACING=true:a listener"; do
    rm -rf exp-why
    env "${why%%:*}" LIBWRAP_THROTTLE=1000:1000000000 LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-why \
        "${preload[@]}" > why.out 2> why.err || fail "${why%%:*}: exit status $?"
    cmp -s plain.out why.out || fail "${why%%:*}: stdout differs"
    [ "$(grep -c . why.err)" = 1 ] && grep -q "^libwrap: warning: LIBWRAP_THROTTLE: not applied with ${why#*:}" why.err ||
        fail "${why%%:*}: not the one warning: $(cat why.err)"
    grep -q '^throttled (LIBWRAP_THROTTLE)' exp-why/profile.txt && fail "${why%%:*}: a function was throttled"
    # config.txt says the setting in effect, and what was set.
    grep -qx 'LIBWRAP_THROTTLE=off' exp-why/config.txt &&
        grep -qx "# LIBWRAP_THROTTLE as set: 1000:1e+09 (not applied with ${why#*:}.*)" exp-why/config.txt ||
        fail "${why%%:*}: config.txt: $(grep THROTTLE exp-why/config.txt)"
done
echo "ok"
