#!/bin/bash
# rt_alloc.sh RUNTIME_LIB - the wrapped library is the allocator: wrappers of
# malloc, free, calloc, realloc and strdup, generated and built as the
# workflow does (libwrap-gen, runtime linkage), preloaded into programs that
# allocate. The runtime calls these functions itself (start-up, thread
# state, results, the trace writer, fork), so they reach it re-entrantly:
# every run must end (no deadlock, no recursion), leave the program's output
# unchanged and count the program's own calls. The counts are lower bounds:
# libc allocates for itself too (stdio buffers, strdup calls malloc).
set -eu
RUNTIME=$1
TEST_LABEL=alloc
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
src=$LIBWRAP_SOURCE_DIR/tests/runtime

printf '#include "rt_alloc.h"\n' >libwrap.h
$CC -E -I"$src" libwrap.h >libwrap.i
"$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen" --quiet --name alloc -x c --cppflags "-I$src" \
    --libs -lc -o gen libwrap.i
[ "$(grep -c '^--wrap=' gen/alloc.wrap)" = 5 ] || fail "expected 5 wrapped functions: $(cat gen/alloc.wrap)"
$CC -O2 -fPIC -shared -Wall -Wextra -Werror -DLIBWRAP_RUNTIME -I"$src" -I"$LIBWRAP_STAGE/include" \
    -o libwrap_alloc.so gen/alloc.wrappers.c "$RUNTIME" -Wl,-rpath,"$(dirname "$RUNTIME")" -ldl
# -O0 -fno-builtin: the compiler must not elide or fold the calls counted.
$CC -O0 -fno-builtin -pthread -o alloc_app "$src/rt_alloc_app.c"

# run NAME CMD...: CMD with the wrappers preloaded (into CMD only, not into
# timeout), bounded in time; its output in NAME.out / NAME.err.
run() {
    local name=$1 st=0
    shift
    LIBWRAP_EXPERIMENT_DIRECTORY="$PWD/$name.exp" timeout 60 \
        bash -c 'LD_PRELOAD=$0 exec "$@"' "$PWD/libwrap_alloc.so" "$@" \
        >"$name.out" 2>"$name.err" || st=$?
    [ "$st" != 124 ] || fail "$name: $* hangs (killed after 60 s)"
    [ "$st" = 0 ] || { cat "$name.err" >&2; fail "$name: $* exited with $st"; }
    [ ! -s "$name.err" ] || fail "$name: unexpected messages: $(cat "$name.err")"
}

n=200
./alloc_app $n thread fork >plain.out || fail "the unwrapped program failed"

# The runtime's start-up calls strdup and malloc first, from inside the
# runtime: those calls are not measured, and must not keep the program's own
# calls from being measured.
run app ./alloc_app $n thread fork
cmp -s plain.out app.out || fail "output changed: $(diff plain.out app.out)"
$CHECK app.exp "visits('malloc') >= 2 * $n" "visits('strdup') == 2 * $n" \
    "visits('calloc') >= 2 * $n" "visits('realloc') >= 2 * $n" "visits('free') >= 6 * $n" \
    "len(threads) == 2"
set -- app.exp/fork-*
[ $# = 1 ] && [ -d "$1" ] || fail "expected one fork-PID directory: $*"
$CHECK "$1" "visits('malloc') >= $n" "visits('strdup') == $n" "visits('free') >= 3 * $n"

# With the trace writer, which allocates under its own locks.
LIBWRAP_ENABLE_TRACING=true run trace ./alloc_app $n thread fork
cmp -s <(./alloc_app $n thread fork) trace.out || fail "output changed with tracing"
$CHECK trace.exp "visits('strdup') >= 2 * $n" "visits('malloc') >= 2 * $n"
[ -s trace.exp/traces.otf2 ] || fail "no trace written"
# The child traces its own calls, into its own directory.
grep -qx LIBWRAP_ENABLE_TRACING=true trace.exp/config.txt || fail "the parent's config.txt: not traced"
set -- trace.exp/fork-*
grep -qx LIBWRAP_ENABLE_TRACING=true "$1/config.txt" || fail "the child's config.txt says it is not traced"
[ -s "$1/traces.otf2" ] || fail "the child wrote no trace"
$CHECK "$1" "visits('strdup') == $n"

# Exactly the program's own calls: the runtime's (its signal interposers'
# dlsym, which allocates) are not counted, and a program that allocates
# nothing through the wrappers leaves nothing.
printf '#include <stdlib.h>\nint main(int c, char **v) { for (int i = 0; i < atoi(v[1]); i++) free(malloc(10)); return 0; }\n' > exact.c
$CC -O0 -fno-builtin -o exact exact.c
run exact0 ./exact 0
[ ! -e exact0.exp ] || fail "a program that allocated nothing left results"
run exact ./exact 10
$CHECK exact.exp "visits('malloc') == 10" "visits('free') == 10" || fail "not exactly the program's calls"

# Programs that were not written for the test.
run true /bin/true
printf '%s\n' pear apple fig banana >words.txt
sort words.txt >sort.plain
run sort sort words.txt
cmp -s sort.plain sort.out || fail "sort output changed"
$CHECK sort.exp "visits('malloc') >= 1"
echo "PASS alloc"
