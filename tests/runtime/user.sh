#!/usr/bin/env bash
# user.sh - a process that changes user after it started (a server's worker
# dropping root's rights, as nginx's and postgres's do) writes its results
# where that user may: into a directory it cannot write it writes nothing
# and says why in one line (the user it runs as, the one it started as);
# into an experiment directory made beforehand with mode 1777
# (docs/runtime.md, "A process that changes user"), its calls are all
# there, and libwrap-report names the worker's results from the parent's
# directory, whose process measured nothing.
set -euo pipefail
TEST_LABEL=user
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
cc=${CC:-cc}
[ "$(id -u)" = 0 ] || { echo "not root: skipped"; exit 77; }
command -v setpriv > /dev/null || { echo "no setpriv: skipped"; exit 77; }
$cc -O2 -o app "$LIBWRAP_SOURCE_DIR/tests/runtime/user_app.c" -lz
wrap_library zlib '<zlib.h>' "" "" -lz
chmod 755 . app libwrap_zlib_runtime.so
setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$PWD/app" ||
    { echo "the scratch directory is not reachable by user 65534: skipped"; exit 77; }
./app 25 > plain.out

# A directory of root's: nothing written, one line that says why.
mkdir -m 755 closed
LD_PRELOAD=$PWD/libwrap_zlib_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/closed/exp ./app 25 > closed.out 2> closed.err ||
    fail "exit status $?"
cmp -s plain.out closed.out || fail "output changed: $(cat closed.out)"
[ "$(wc -l < closed.err)" = 1 ] && grep -q "^libwrap: warning: cannot create the experiment directory $PWD/closed/exp/fork-[0-9]*: Permission denied: the process runs as user 65534, it started as user 0 (it changed user: a server's worker); no results are written" closed.err ||
    fail "not the one line that says why: $(cat closed.err)"

# A process that claims its directory as root (tracing: at the first
# call), then drops root's rights itself (tcpdump): nothing written, and
# the profile's and the trace's lines say why; made beforehand with mode
# 1777, all is written.
./app 25 drop > drop.plain
LD_PRELOAD=$PWD/libwrap_zlib_runtime.so LIBWRAP_ENABLE_TRACING=true LIBWRAP_VERBOSE=lifecycle \
    LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/closed/drop ./app 25 drop > drop.out 2> drop.err || fail "exit status $?"
cmp -s drop.plain drop.out || fail "output changed: $(cat drop.out)"
why="the process runs as user 65534, its results' directory belongs to user 0 (it changed user after the directory was made); create LIBWRAP_EXPERIMENT_DIRECTORY beforehand with mode 1777"
grep -q "^libwrap: warning: cannot write $PWD/closed/drop/profile.json nor profile.txt beside it: Permission denied: $why" drop.err &&
    grep -q "cannot create the OTF2 archive in '$PWD/closed/drop': .*: $why" drop.err ||
    fail "the profile's and the trace's lines do not say why: $(cat drop.err)"
grep -q "results written" drop.err && fail "the lifecycle log says written: $(cat drop.err)"
grep -q "the profile could not be written to $PWD/closed/drop" drop.err || fail "the lifecycle log: $(cat drop.err)"
mkdir -m 1777 dropped
LD_PRELOAD=$PWD/libwrap_zlib_runtime.so LIBWRAP_ENABLE_TRACING=true LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/dropped \
    ./app 25 drop > dropped.out 2> dropped.err || fail "exit status $?"
cmp -s drop.plain dropped.out || fail "output changed: $(cat dropped.out)"
[ ! -s dropped.err ] || fail "messages: $(cat dropped.err)"
$CHECK dropped "visits('crc32') == 26" || fail "the calls before and after the drop"
[ -f dropped/traces.otf2 ] || fail "no trace in the directory made beforehand"

# A daemon whose workers are grandchildren, in a directory made beforehand
# with mode 1777: the master's fork-PID (made as root when it measured,
# or as the first worker's user when it did not) is 1777 too, so every
# worker, whichever its user, writes its own (Apache, php-fpm's pools).
for shape in daemon pools; do
    mkdir -m 1777 $shape
    ./app 25 $shape > $shape.plain
    LD_PRELOAD=$PWD/libwrap_zlib_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/$shape ./app 25 $shape \
        > $shape.out 2> $shape.err || fail "$shape: exit status $?"
    cmp -s $shape.plain $shape.out || fail "$shape: output changed: $(cat $shape.out)"
    [ ! -s $shape.err ] || fail "$shape: messages: $(cat $shape.err)"
    workers=$(find $shape -mindepth 3 -name profile.json | wc -l)
    want=1
    [ $shape = pools ] && want=2
    [ "$workers" = $want ] || fail "$shape: $workers workers' results, not $want: $(find $shape)"
    for w in $(find $shape -mindepth 3 -name profile.json); do
        $CHECK "$(dirname "$w")" "visits('crc32') == 25" || fail "$shape: a worker's calls"
    done
done

# An experiment directory made beforehand with mode 1777: the worker's 25
# calls, whether the parent measured nothing (its directory unclaimed) or
# a call before the fork (it claimed the directory as it is).
mkdir -m 1777 open
LD_PRELOAD=$PWD/libwrap_zlib_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/open ./app 25 > open.out 2> open.err ||
    fail "exit status $?"
cmp -s plain.out open.out || fail "output changed: $(cat open.out)"
[ ! -s open.err ] || fail "messages: $(cat open.err)"
set -- open/fork-*
[ -f "$1/profile.json" ] || fail "no worker results: $(find open)"
$CHECK "$1" "visits('crc32') == 25" || fail "the worker's calls"
"$LIBWRAP_STAGE/bin/libwrap-report" open > report.out 2> report.err && fail "a report of the parent's directory succeeded"
grep -q "^libwrap-report: open: the process measured no call (no profile.json), 1 child process did: $1 ([0-9]* calls); see one with libwrap-report $1" report.err ||
    fail "the worker's results are not named: $(cat report.err)"
# An exec with real and effective users apart (Squid's master starting its
# worker): the loader ignores LD_PRELOAD's paths in the new image, which
# is not measured; one line says so where it was silent.
./app 1 kid > kid.plain
LD_PRELOAD=$PWD/libwrap_zlib_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/kid ./app 1 kid > kid.out 2> kid.err ||
    fail "kid: exit status $?"
cmp -s kid.plain kid.out || fail "kid: output changed: $(cat kid.out)"
[ "$(wc -l < kid.err)" = 1 ] && grep -q "^libwrap: warning: ./app (pid [0-9]*) execs a program as user 65534 with effective user 0: the loader starts it in secure-execution mode, where it ignores LD_PRELOAD's paths, and it is not measured" kid.err ||
    fail "kid: not the one line: $(cat kid.err)"
[ ! -e kid.1 ] || fail "kid: the new image wrote results"

mkdir -m 1777 first
./app 25 first > first.plain
LD_PRELOAD=$PWD/libwrap_zlib_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/first ./app 25 first > first.out 2> first.err ||
    fail "exit status $?"
cmp -s first.plain first.out || fail "output changed: $(cat first.out)"
[ ! -s first.err ] || fail "messages: $(cat first.err)"
$CHECK first "visits('crc32') == 1" || fail "the parent's call"
set -- first/fork-*
[ -f "$1/profile.json" ] || fail "no worker results when the parent measured first: $(find first)"
$CHECK "$1" "visits('crc32') == 25" || fail "the worker's calls"
echo ok
