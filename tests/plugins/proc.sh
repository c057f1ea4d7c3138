#!/bin/bash
# plugins_proc: the example metric source `proc` (examples/plugins/proc.c)
# on a wrapped library, LD_PRELOAD and link-time: a function that reads N
# bytes with one read(2) is charged exactly rchar = N and syscr = 1 (the
# plugin's own reads of /proc are not), the visits are exact, the program's
# output and exit status are those of the unwrapped run; the ASYNC metric
# rss reaches profile.json's "samples"; bad settings are one warning each.
TEST_LABEL=proc
. "$(dirname "$0")/lib.sh"
build_plug
seq 1 20000 >data.bin # 108894 bytes, the same on every run
N=4096

run_app plain plain -- io data.bin $N
[ "$(cat plain.rc)" = 0 ] || fail "the unwrapped program failed: $(cat plain.err)"
for mode in preload linktime; do
    # The default set: rchar, wchar.
    run_app $mode $mode LIBWRAP_METRIC_PLUGINS=proc -- io data.bin $N
    same_output plain $mode
    no_messages $mode
    $CHECK $mode.exp "visits('plug_read') == 1" "visits('plug_add') == 1000" \
        "sorted(fn('plug_read')['metrics']) == ['rchar', 'wchar']" \
        "fn('plug_read')['metrics']['rchar'] == $N" "fn('plug_read')['metrics']['wchar'] == 0" \
        "fn('plug_add')['metrics'] == {'rchar': 0, 'wchar': 0}" \
        "[(m['name'], m['unit'], m['source'], m['mode']) for m in prof['metrics']] == [('rchar', 'bytes', 'proc', 'accumulated'), ('wchar', 'bytes', 'proc', 'accumulated')]"
    grep -qx 'LIBWRAP_METRIC_PROC=rchar,wchar' $mode.exp/config.txt || fail "$mode: config.txt: $(cat $mode.exp/config.txt)"

    # Every counter, with a thread of the program's own... and rss.
    run_app all_$mode $mode LIBWRAP_METRIC_PLUGINS=proc \
        "LIBWRAP_METRIC_PROC=rchar, wchar,syscr,syscw,read_bytes,write_bytes,rss" -- io data.bin $N
    same_output plain all_$mode
    no_messages all_$mode
    $CHECK all_$mode.exp "visits('plug_read') == 1" "visits('plug_add') == 1000" \
        "fn('plug_read')['metrics']['rchar'] == $N" "fn('plug_read')['metrics']['syscr'] == 1" \
        "fn('plug_read')['metrics']['wchar'] == 0" "fn('plug_read')['metrics']['syscw'] == 0" \
        "fn('plug_read')['metrics']['write_bytes'] == 0" \
        "all(fn('plug_add')['metrics'][k] == 0 for k in ('rchar', 'wchar', 'syscr', 'syscw'))" \
        "[m['name'] for m in prof['metrics']] == ['rchar', 'wchar', 'syscr', 'syscw', 'read_bytes', 'write_bytes']" \
        "[(s['metric'], s['unit'], s['source']) for s in prof['samples']] == [('rss', 'bytes', 'proc')]"
    echo "ok $mode: plug_read charged rchar $N, syscr 1"

    # rss, sampled every 5 ms by the plugin's thread while plug_work runs
    # (20 calls of a fixed loop, at least ~100 ms): at least one sample.
    run_app work_plain plain -- work 5000000
    run_app work_$mode $mode LIBWRAP_METRIC_PLUGINS=proc LIBWRAP_METRIC_PROC=rss@5 -- work 5000000
    same_output work_plain work_$mode
    no_messages work_$mode
    $CHECK work_$mode.exp "visits('plug_work') == 20" "prof['metrics'] == []" \
        "fn('plug_work')['metrics'] == {}" "len(prof['samples']) == 1" \
        "prof['samples'][0]['metric'] == 'rss' and prof['samples'][0]['count'] >= 1" \
        "prof['samples'][0]['min'] > 0 and prof['samples'][0]['max'] >= prof['samples'][0]['min']"
    grep -q 'rss \[bytes\]' work_$mode.exp/profile.txt || fail "$mode: profile.txt has no rss samples"
    echo "ok $mode: rss $(python3 -c "import json; s = json.load(open('work_$mode.exp/profile.json'))['samples'][0]; print(s['count'], 'samples, max', s['max'])")"
done

# Threads: each has its own handle; the program's threads read nothing.
run_app thr_plain plain -- threads 500
run_app thr preload LIBWRAP_METRIC_PLUGINS=proc LIBWRAP_METRIC_PROC=rchar,syscr,rss -- threads 500
same_output thr_plain thr
no_messages thr
$CHECK thr.exp "visits('plug_add') == 500 * (1 + 2 + 3 + 4)" "len(threads) == 4" \
    "fn('plug_add')['metrics'] == {'rchar': 0, 'syscr': 0}"

# fork(): the child reopens its counters and samples with a sampler of its
# own (the parent's thread is not in the child); both end cleanly.
run_app fork_plain plain -- fork 300
run_app fork preload LIBWRAP_METRIC_PLUGINS=proc LIBWRAP_METRIC_PROC=rchar,rss@2 -- fork 300
same_output fork_plain fork
no_messages fork
$CHECK fork.exp "visits('plug_add') == 300" "fn('plug_add')['metrics'] == {'rchar': 0}" \
    "prof['samples'][0]['metric'] == 'rss'"
set -- fork.exp/fork-*
[ $# = 1 ] && [ -d "$1" ] || fail "expected one fork-PID directory: $*"
$CHECK "$1" "visits('plug_add') == 600" "fn('plug_add')['metrics'] == {'rchar': 0}" \
    "prof['samples'][0]['metric'] == 'rss'" "prof['pid'] != $(python3 -c "import json; print(json.load(open('fork.exp/profile.json'))['pid'])")"

# Bad settings: one warning each, the rest measured, output unchanged.
run_app bad preload LIBWRAP_METRIC_PLUGINS=proc LIBWRAP_METRIC_PROC=rchar,bogus,rchar -- io data.bin $N
same_output plain bad
one_warning bad "proc: unknown metric 'bogus' \(accepted: rchar, wchar, syscr, syscw, read_bytes, write_bytes, rss, rss@MS\); continuing without it"
$CHECK bad.exp "fn('plug_read')['metrics'] == {'rchar': $N}"
grep -qx 'LIBWRAP_METRIC_PROC=rchar' bad.exp/config.txt && grep -qx '# LIBWRAP_METRIC_PROC as set: rchar,bogus,rchar' bad.exp/config.txt ||
    fail "config.txt does not say what was measured and what was set: $(cat bad.exp/config.txt)"
run_app badrss preload LIBWRAP_METRIC_PLUGINS=proc LIBWRAP_METRIC_PROC=rss@0 -- io data.bin $N
same_output plain badrss
one_warning badrss "proc: 'rss@0': the interval after '@' must be 1 to 3600000 milliseconds; sampling every 10 ms"

# Where /proc/thread-self/io cannot be read (here: no /proc at all, in a
# mount namespace of our own): one warning, and the run goes on without
# the plugin's metrics.
if unshare -rm true 2>/dev/null; then
    noproc() { # noproc NAME VAR=VALUE...: the preloaded program with an empty /proc
        local name=$1 rc=0
        shift
        env LIBWRAP_EXPERIMENT_DIRECTORY="$PWD/$name.exp" "$@" unshare -rm sh -c \
            'mount -t tmpfs none /proc && LD_PRELOAD=$0 exec ./app_plain io data.bin '$N \
            "$PWD/libwrap_plug_runtime.so" >"$name.out" 2>"$name.err" || rc=$?
        echo $rc >"$name.rc"
    }
    noproc noproc_base
    no_messages noproc_base
    noproc noproc LIBWRAP_METRIC_PLUGINS=proc LIBWRAP_METRIC_PROC=rchar,syscr
    same_output noproc_base noproc
    one_warning noproc "proc: cannot read /proc/thread-self/io \(No such file or directory\): per-thread I/O accounting is not available here .*; continuing without rchar, syscr"
    $CHECK noproc.exp "visits('plug_read') == 1" "prof['metrics'] == []"
    noproc noproc_rss LIBWRAP_METRIC_PLUGINS=proc LIBWRAP_METRIC_PROC=rss
    same_output noproc_base noproc_rss
    one_warning noproc_rss "proc: cannot read /proc/self/statm \(No such file or directory\); continuing without rss"
else
    echo "note: no user namespaces here (unshare -rm): the case of an unreadable /proc is not run"
fi
echo "PASS proc"
