#!/bin/bash
# report_fork_children: a program that forks, and whose child forks again,
# measured for real (the plugin tests' library and wrappers, both modes):
# the report of its directory names the fork children, nested ones
# included, in one line on stderr with their calls and how to see one, and
# leaves the table on stdout (text, TSV, JSON) as it was; the children's
# own reports hold their calls.
TEST_LABEL=report_fork_children
. "$LIBWRAP_SOURCE_DIR/tests/plugins/lib.sh"
report=$STAGE/bin/libwrap-report
build_plug
N=100
for mode in preload linktime; do
    run_app fork_$mode $mode -- fork2 $N
    [ "$(cat fork_$mode.rc)" = 0 ] || fail "$mode: exit status $(cat fork_$mode.rc): $(cat fork_$mode.err)"
    exp=$PWD/fork_$mode.exp
    child=$(cd "$exp" && ls -d fork-*)
    grand=$(cd "$exp/$child" && ls -d fork-*)
    [ -f "$exp/$child/profile.json" ] && [ -f "$exp/$child/$grand/profile.json" ] ||
        fail "$mode: no child and grandchild profiles: $(find "$exp")"
    for fmt in text tsv json; do
        "$report" --format=$fmt "$exp" >$fmt.out 2>$fmt.err || fail "$mode: libwrap-report --format=$fmt: $(cat $fmt.err)"
        [ "$(wc -l <$fmt.err)" = 1 ] || fail "$mode, $fmt: expected one line on stderr: $(cat $fmt.err)"
        grep -qxF "libwrap-report: $exp: 2 child processes are not in this report: $exp/$child ($((2 * N)) calls), $exp/$child/$grand ($((3 * N)) calls); see one with libwrap-report $exp/$child" $fmt.err ||
            fail "$mode, $fmt: the fork children are not named: $(cat $fmt.err)"
    done
    python3 - json.out tsv.out "$N" <<'PY' || fail "$mode: the parent's table changed"
import json, sys
n = int(sys.argv[3])
rows = json.load(open(sys.argv[1]))["functions"]
assert {r["symbol"]: r["visits"] for r in rows} == {"plug_add": n}, rows
lines = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
assert dict(zip(lines[0], lines[1]))["visits"] == str(n), lines
PY
    "$report" --format=tsv "$exp/$child" >child.tsv 2>child.err
    grep -qF "$exp/$child/$grand ($((3 * N)) calls)" child.err || fail "$mode: the child's report does not name the grandchild: $(cat child.err)"
    awk -F'\t' 'NR == 2 && $0 ~ /plug_add/ {print $0}' child.tsv | grep -q . || fail "$mode: child table: $(cat child.tsv)"
    "$report" "$exp/$child/$grand" >grand.txt 2>grand.err
    [ ! -s grand.err ] || fail "$mode: a process without children: $(cat grand.err)"
    # A pre-fork server's master, which measures nothing: the directory
    # holds its children's results only; the report names them.
    rm -rf master.exp && cp -r "$exp" master.exp && rm -f master.exp/profile.json master.exp/profile.txt master.exp/config.txt
    "$report" master.exp >master.out 2>master.err && fail "$mode: a report without the process's profile succeeded"
    grep -qxF "libwrap-report: master.exp: the process measured no call (no profile.json), 2 child processes did: master.exp/$child ($((2 * N)) calls), master.exp/$child/$grand ($((3 * N)) calls); see one with libwrap-report master.exp/$child" master.err ||
        fail "$mode: the children of a process that measured nothing are not named: $(cat master.err)"
    # One that measured (it claimed the directory: config.txt) and ended
    # without writing (a daemon's parent that leaves by _exit).
    rm -rf exited.exp && cp -r "$exp" exited.exp && rm -f exited.exp/profile.json exited.exp/profile.txt
    "$report" exited.exp >exited.out 2>exited.err && fail "$mode: a report without the process's profile succeeded"
    grep -qF "libwrap-report: exited.exp: the process wrote no results (no profile.json: it ended by _exit or SIGKILL, or runs on), 2 child processes did: exited.exp/$child" exited.err ||
        fail "$mode: the children of a process that wrote nothing are not named: $(cat exited.err)"
    echo "ok $mode"
done
echo "PASS fork_children"
