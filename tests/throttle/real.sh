#!/usr/bin/env bash
# real.sh - the trampoline's paths on real libraries: Debian's Python
# inserting zlib-compressed blobs into sqlite3 and reading them back, with
# the zlib and sqlite3 wrappers preloaded together (about 400,000 wrapped
# calls, nested, with tail calls between sqlite3's exported functions).
# Measured on the fast path, through the C hooks (the clock_gettime timer
# takes them for every call), and with every function called 4,096 times
# throttled (the functions that call wrapped functions, deflate and
# sqlite3_step, keep their frames): the output is the program's each time,
# the call paths and their visits are the same in all three, and both
# kinds of throttled function are there. Then Debian's sqlite3 shell, timed
# and throttled, the same way.
set -euo pipefail
TEST_LABEL="throttle_real"
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
here=$PWD
py=/usr/bin/python3
[ -x $py ] && $py -c 'import sqlite3, zlib' 2>/dev/null || skip "Debian's python3 with sqlite3 and zlib is not installed"
[ -e /usr/include/sqlite3.h ] || skip "libsqlite3-dev is not installed"

wrap_library zlib '<zlib.h>' "" "" -lz
wrap_library sqlite3 '<sqlite3.h>' "" "" -lsqlite3
# The Python program of bench/real.
cp "$LIBWRAP_SOURCE_DIR/bench/real/blobs.py" blobs.py
$py blobs.py 6000 > plain.out 2> plain.err
preload="$here/libwrap_zlib_runtime.so $here/libwrap_sqlite3_runtime.so"
for mode in fast hooks throttled; do
    case $mode in
        fast) extra=() ;;
        hooks) extra=(LIBWRAP_TIMER=clock_gettime) ;;
        throttled) extra=(LIBWRAP_THROTTLE=16:1000000000) ;;
    esac
    rm -rf exp-$mode
    env LD_PRELOAD="$preload" LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-$mode "${extra[@]}" \
        $py blobs.py 6000 > $mode.out 2> $mode.err || fail "$mode: exit status $?"
    cmp -s plain.out $mode.out || fail "$mode: stdout differs: $(cat $mode.out)"
    cmp -s plain.err $mode.err || fail "$mode: stderr differs: $(cat $mode.err)"
done
$CHECK exp-fast "paths == paths_of('exp-hooks')" "paths == paths_of('exp-throttled')" \
    "sum(paths.values()) > 50000" "any(p.endswith('sqlite3_free/sqlite3_mutex_leave') for p in paths)" ||
    fail "the call paths differ between the fast path, the C hooks and throttling"
# Both kinds throttled: a function that calls no wrapped function, and one
# that does (it kept its frames: its callees' paths above are under it).
$CHECK exp-throttled "fn('sqlite3_mutex_enter').get('throttled')" "fn('deflate').get('throttled')" "fn('sqlite3_step').get('throttled')" \
    "any(p.startswith('deflate/') or '/deflate/' in p for p in paths)" ||
    fail "the expected functions were not throttled: $(grep -A1 '^throttled' exp-throttled/profile.txt)"

# Debian's sqlite3 shell on bench/real's script, 100,000 rows (some 15
# million wrapped calls), timed on every call and throttled as bench/real
# throttles it. sqlite3_free calls the lock's functions on most of its
# call paths and nothing on some; where its mean is least, the throttle's
# check may find it on one of the latter. It keeps its frames, and every
# call path its visits.
if command -v sqlite3 > /dev/null; then
    bash "$LIBWRAP_SOURCE_DIR/bench/real/sql.sh" 100000 > rows.sql
    sqlite3 -batch -init /dev/null :memory: < rows.sql > shell-plain.out 2> shell-plain.err
    for mode in timed throttled; do
        extra=()
        [ $mode = timed ] || extra=(LIBWRAP_THROTTLE=100000:200)
        rm -rf exp-shell-$mode
        env LD_PRELOAD=$here/libwrap_sqlite3_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-shell-$mode "${extra[@]}" \
            sqlite3 -batch -init /dev/null :memory: < rows.sql > shell-$mode.out 2> shell-$mode.err ||
            fail "shell, $mode: exit status $?"
        cmp -s shell-plain.out shell-$mode.out || fail "shell, $mode: stdout differs"
        cmp -s shell-plain.err shell-$mode.err || fail "shell, $mode: stderr differs: $(cat shell-$mode.err)"
    done
    $CHECK exp-shell-timed "paths == paths_of('exp-shell-throttled')" "sum(paths.values()) > 10000000" ||
        fail "the sqlite3 shell: the call paths differ between timing every call and throttling"
    $CHECK exp-shell-throttled "fn('sqlite3_free').get('throttled')" "fn('sqlite3_mutex_enter').get('throttled')" \
        "any(p.endswith('sqlite3_free/sqlite3_mutex_leave') for p in paths)" ||
        fail "the sqlite3 shell: sqlite3_free and the lock were not throttled: $(grep -A1 '^throttled' exp-shell-throttled/profile.txt)"
else
    echo "the sqlite3 shell is not installed: its case not run"
fi
echo "ok"
