#!/usr/bin/env bash
# go.sh - a Go program calling zlib through cgo from 4 goroutines (go/main.go),
# under LD_PRELOAD and wrapped at link time (through CGO_LDFLAGS). Go ends a
# process with the exit_group system call itself: the runtime says so in
# one line, and the results are written where the program calls
# libwrap_finalize (then returns, or calls os.Exit) or is killed by a
# signal (Go's handler restores the default with SA_SIGINFO set and raises
# it again); the output and the status are the unwrapped program's.
set -euo pipefail
TEST_LABEL=go
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
command -v go > /dev/null || fail "no go (scripts/install-deps.sh installs golang-go)"
export GOCACHE=$PWD/gocache GOPATH=$PWD/gopath GOFLAGS=-mod=mod GO111MODULE=on GOTOOLCHAIN=local
mkdir -p src
cp "$LIBWRAP_SOURCE_DIR/tests/runtime/go/main.go" src/
printf 'module lwgo\n\ngo 1.18\n' > src/go.mod
(cd src && go build -o ../plain .) || fail "go build"
wrap_library zlib '<zlib.h>' "" "" -lz
pre=$PWD/libwrap_zlib_runtime.so
why="is a Go program, which ends without libc's exit: its results are written only where it calls libwrap_finalize() before it ends, or dies by a signal"

./plain > plain.out
./plain exit > /dev/null && fail "the unwrapped program's os.Exit(3) returned 0" || [ $? = 3 ] || fail "status"

# Returning from main without libwrap_finalize: nothing written, one line.
LD_PRELOAD=$pre LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/none ./plain > none.out 2> none.err || fail "status $?"
cmp -s plain.out none.out || fail "stdout differs: $(cat none.out)"
[ "$(wc -l < none.err)" = 1 ] && grep -q "^libwrap: warning: ./plain $why" none.err ||
    fail "not the one line: $(cat none.err)"
[ ! -e none ] || fail "results written without libwrap_finalize: $(ls none)"

# With libwrap_finalize, returning or by os.Exit(3); killed by SIGTERM.
for how in finalize exit term; do
    st=0
    LD_PRELOAD=$pre LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$how ./plain $how > $how.out 2> $how.err || st=$?
    want=0
    [ $how = exit ] && want=3
    [ $how = term ] && want=143
    [ $st = $want ] || fail "$how: status $st, not $want"
    cmp -s plain.out $how.out || fail "$how: stdout differs: $(cat $how.out)"
    [ "$(wc -l < $how.err)" = 1 ] || fail "$how: messages: $(cat $how.err)"
    $CHECK exp-$how "visits('crc32') == 1000" || fail "$how: the calls of the goroutines"
done

# At link time: the wrapper's link options through CGO_LDFLAGS.
export CGO_LDFLAGS="-Wl,@$PWD/gen-zlib/zlib.wrap $PWD/libwrap_zlib_linktime.so -L$LIBWRAP_STAGE/lib -llibwrap_runtime -Wl,-rpath,$LIBWRAP_STAGE/lib -Wl,-rpath,$PWD"
export CGO_LDFLAGS_ALLOW='.*'
(cd src && go build -o ../linked .) || fail "go build with the link-time wrapper"
unset CGO_LDFLAGS CGO_LDFLAGS_ALLOW
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-lt ./linked finalize > lt.out 2> lt.err || fail "link time: status $?"
cmp -s plain.out lt.out || fail "link time: stdout differs: $(cat lt.out)"
grep -q "^libwrap: warning: ./linked $why" lt.err || fail "link time: not the one line: $(cat lt.err)"
$CHECK exp-lt "visits('crc32') == 1000" || fail "link time: the calls"
echo ok
