#!/bin/bash
# plugins_live: the example listener `live` (examples/plugins/live.c) on a
# wrapped library, LD_PRELOAD and link-time: live.txt's final counts equal
# profile.json's visits for every function (threads, a fork child), the
# writer thread rewrites it while the program runs, the program's output and
# exit status are unchanged, and a process that measures nothing (a
# launcher) leaves no experiment directory.
TEST_LABEL=live
. "$(dirname "$0")/lib.sh"
build_plug

# same_counts DIR: DIR/live.txt lists the functions of DIR/profile.json
# with their visits, most-called first, and no temporary file is left.
same_counts() {
    [ -f "$1/live.txt" ] || fail "$1: no live.txt: $(ls "$1")"
    python3 - "$1" <<'PY' || fail "$1: live.txt does not match profile.json"
import json, sys
d = sys.argv[1]
lines = [l.split(" ", 1) for l in open(d + "/live.txt").read().splitlines()]
live = [(int(c), n) for c, n in lines]
prof = {f["name"]: f["visits"] for f in json.load(open(d + "/profile.json"))["functions"] if f["visits"]}
if dict((n, c) for c, n in live) != prof or len(live) != len(prof):
    print("live.txt", live, "profile.json", prof); sys.exit(1)
if live != sorted(live, key=lambda x: (-x[0], x[1])):
    print("not most-called first:", live); sys.exit(1)
PY
    ! ls -a "$1" | grep -q '^\.live' || fail "$1: a temporary file is left: $(ls -a "$1")"
}

run_app thr_plain plain -- threads 700
run_app io_plain plain -- io "$plugsrc/plug_lib.c" 100
run_app fork_plain plain -- fork 300
for mode in preload linktime; do
    run_app thr_$mode $mode LIBWRAP_LISTENERS=live -- threads 700
    same_output thr_plain thr_$mode
    no_messages thr_$mode
    $CHECK thr_$mode.exp "visits('plug_add') == 700 * (1 + 2 + 3 + 4)" "len(threads) == 4"
    same_counts thr_$mode.exp
    [ "$(cat thr_$mode.exp/live.txt)" = "7000 plug_add" ] || fail "$mode: live.txt: $(cat thr_$mode.exp/live.txt)"

    run_app io_$mode $mode LIBWRAP_LISTENERS=live LIBWRAP_LISTENER_LIVE=50 -- io "$plugsrc/plug_lib.c" 100
    same_output io_plain io_$mode
    no_messages io_$mode
    same_counts io_$mode.exp
    printf '1000 plug_add\n1 plug_read\n' | cmp -s - io_$mode.exp/live.txt || fail "$mode: live.txt: $(cat io_$mode.exp/live.txt)"

    # A fork child counts its own calls into its own directory.
    run_app fork_$mode $mode LIBWRAP_LISTENERS=live -- fork 300
    same_output fork_plain fork_$mode
    no_messages fork_$mode
    same_counts fork_$mode.exp
    [ "$(cat fork_$mode.exp/live.txt)" = "300 plug_add" ] || fail "$mode: parent's live.txt: $(cat fork_$mode.exp/live.txt)"
    set -- fork_$mode.exp/fork-*
    [ $# = 1 ] && [ -d "$1" ] || fail "$mode: expected one fork-PID directory: $*"
    same_counts "$1"
    [ "$(cat "$1/live.txt")" = "600 plug_add" ] || fail "$mode: child's live.txt: $(cat "$1/live.txt")"

    # While the program runs: it waits until the writer thread has put its
    # calls into live.txt (it gives up after 60 s and exits with 1).
    run_app watch_$mode $mode LIBWRAP_LISTENERS=live LIBWRAP_LISTENER_LIVE=10 -- watch "$PWD/watch_$mode.exp/live.txt" 25
    [ "$(cat watch_$mode.out)" = "live 25" ] && [ "$(cat watch_$mode.rc)" = 0 ] ||
        fail "$mode: live.txt was not written while the program ran: $(cat watch_$mode.out)"
    no_messages watch_$mode
    same_counts watch_$mode.exp
    echo "ok $mode"
done

# Exit status kept; a bad setting is one warning and the default interval.
run_app exit_plain plain -- exit 3
run_app exit preload LIBWRAP_LISTENERS=live LIBWRAP_LISTENER_LIVE=soon -- exit 3
same_output exit_plain exit
one_warning exit "live: LIBWRAP_LISTENER_LIVE='soon' is not a number of milliseconds \(1 to 86400000\); live.txt is rewritten every 1000 ms"
same_counts exit.exp

# A launcher measures nothing and leaves nothing, even with the listener
# and the wrapper exported to it; the program it starts writes its results.
mkdir launch && cd launch
LD_PRELOAD=$PWD/../libwrap_plug_runtime.so LIBWRAP_LISTENERS=live sh -c true >sh.out 2>sh.err ||
    fail "sh -c true failed: $(cat sh.err)"
[ ! -s sh.err ] || fail "sh -c true: unexpected messages: $(cat sh.err)"
[ -z "$(ls -A | grep -v '^sh\.')" ] || fail "a launcher left: $(ls -A)"
rc=0
LD_PRELOAD=$PWD/../libwrap_plug_runtime.so LIBWRAP_LISTENERS=live LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp \
    sh -c '../app_plain exit 4' >app.out 2>app.err || rc=$?
[ "$rc" = 4 ] && [ "$(cat app.out)" = "add 42" ] || fail "sh -c app: status $rc, output $(cat app.out)"
[ "$(ls -A | grep -v '^\(sh\|app\)\.')" = exp ] || fail "expected only the program's directory: $(ls -A)"
[ -z "$(ls exp | grep -v -x -e config.txt -e profile.json -e profile.txt -e live.txt)" ] || fail "exp holds $(ls exp)"
[ "$(cat exp/live.txt)" = "1 plug_add" ] || fail "the program's live.txt: $(cat exp/live.txt)"
cd ..
echo "PASS live"
