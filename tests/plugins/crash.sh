#!/bin/bash
# plugins_crash: a plugin whose callback faults is named on the way down
# (which plugin, which callback, which signal), and the results measured
# until then are written, as for a crash in the program itself; the program
# still dies by the signal. A listener that faults in enter (at its 50th
# call), one of buffered events that faults when its first batch comes.
TEST_LABEL=crash
. "$(dirname "$0")/lib.sh"
build_plug
pcc() { # pcc OUTPUT FLAGS...: a test plugin from bad_plugins.c
    local out=$1
    shift
    $CC -O2 -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror -I"$STAGE/include" "$@" \
        -o "$out" "$plugsrc/bad_plugins.c"
}
pcc crash_enter.so -DBAD_CRASH_ENTER
pcc crash_events.so -DBAD_CRASH_EVENTS

for mode in preload linktime; do
    run_app base_$mode $mode -- io "$plugsrc/plug_lib.c" 100
    # crashed NAME PLUGIN CALLBACK RESULTS VAR=VALUE...
    crashed() {
        local name=${1}_$mode plugin=$2 cb=$3 results=$4
        shift 4
        run_app "$name" $mode "$@" -- io "$plugsrc/plug_lib.c" 100
        [ "$(cat "$name.rc")" = 139 ] || fail "$name: exit status $(cat "$name.rc"), expected 139 (SIGSEGV)"
        grep -Eq "^libwrap: error: event listener '$plugin' crashed with SIGSEGV in its $cb callback: it is left out$results$" \
            "$name.err" || fail "$name: the plugin is not named: $(cat "$name.err")"
        [ "$(grep -c '^libwrap' "$name.err")" = 1 ] || fail "$name: more than one line: $(cat "$name.err")"
        [ -f "$name.exp/profile.json" ] || fail "$name: no profile written: $(ls -R "$name.exp" 2>&1)"
        echo "ok $name: $(cat "$name.err")"
    }
    crashed enter "$PWD/crash_enter.so" enter ", and the results measured so far are written" LIBWRAP_LISTENERS=$PWD/crash_enter.so
    # plug_read once, then plug_add: the 50th entry is the 49th plug_add,
    # counted before the listener's enter is called.
    $CHECK enter_$mode.exp "visits('plug_read') == 1" "visits('plug_add') == 49"
    # Buffered events come at the thread's end (the run is too short to
    # fill the buffer), after the profile was written: plug_read and all
    # 1000 plug_add were measured.
    crashed events "$PWD/crash_events.so" events "; the results were written before" LIBWRAP_LISTENERS=$PWD/crash_events.so
    $CHECK events_$mode.exp "visits('plug_read') == 1" "visits('plug_add') == 1000"
    # Without a plugin, the same program exits normally: the crash is the
    # plugin's.
    [ "$(cat base_$mode.rc)" = 0 ] || fail "base_$mode: exit status $(cat base_$mode.rc)"
done
echo "PASS crash"
