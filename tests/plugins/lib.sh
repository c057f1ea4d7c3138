# shellcheck shell=bash
# Shared set-up of the plugin tests (sourced): tests/lib.sh (a fresh scratch
# directory as the working directory, no LIBWRAP_* inherited, CHECK, fail),
# then helpers:
#   build_plug [TOOLCHAIN]
#                  libplug.so (plug_lib.c) wrapped by libwrap-gen as the
#                  generated Makefile does it: libwrap_plug_runtime.so (the
#                  LD_PRELOAD wrapper) and app_linktime (--wrap), next to
#                  app_plain (no wrapper); with the staged toolchain, or
#                  the one installed in TOOLCHAIN
#   run_app NAME MODE [VAR=VALUE...] -- ARGS...
#                  runs one build of plug_app (MODE: plain, preload,
#                  linktime) into NAME.out, NAME.err, NAME.rc, results in
#                  NAME.exp (VAR=VALUE come last: LD_PRELOAD=... replaces
#                  the wrapper)
#   visits DIR     "SYMBOL VISITS" lines of DIR/profile.json, sorted
set -eu
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
plugsrc=$LIBWRAP_SOURCE_DIR/tests/plugins
STAGE=$LIBWRAP_STAGE
PLUGIN_DIR=$STAGE/lib/libwrap
GEN=$STAGE/libexec/libwrap/libwrap-gen
CC=${CC:-cc}

build_plug() {
    local STAGE=${1:-$STAGE} GEN=${1:+$1/libexec/libwrap/libwrap-gen}
    GEN=${GEN:-$STAGE/libexec/libwrap/libwrap-gen}
    $CC -O2 -fPIC -shared -Wall -Wextra -Werror -Wl,-soname,libplug.so -o libplug.so "$plugsrc/plug_lib.c"
    printf '#include "plug_lib.h"\n' >libwrap.h
    $CC -E -I"$plugsrc" libwrap.h -o libwrap.i
    "$GEN" --quiet --name plug -x c --cppflags "-I$plugsrc" --libs "-L$PWD -lplug" -o gen libwrap.i
    [ "$(grep -c '^--wrap=' gen/plug.wrap)" = 3 ] || fail "expected 3 wrapped functions: $(cat gen/plug.wrap)"
    local wflags="-O2 -g -fPIC -I$plugsrc -I$STAGE/include"
    local rt="-L$STAGE/lib -llibwrap_runtime -Wl,-rpath,$STAGE/lib"
    local exec_objs="-Wl,--whole-archive $STAGE/lib/liblibwrap_exec.a -Wl,--no-whole-archive"
    # shellcheck disable=SC2086
    {
        $CC $wflags -DLIBWRAP_RUNTIME -c gen/plug.wrappers.c -o plug.runtime.o
        $CC $wflags -DLIBWRAP_LINKTIME -c gen/plug.wrappers.c -o plug.linktime.o
        $CC -shared -o libwrap_plug_runtime.so plug.runtime.o $exec_objs -Wl,-soname,libwrap_plug_runtime.so \
            -Wl,--no-undefined -L"$PWD" -Wl,-rpath,"$PWD" -Wl,--no-as-needed -lplug $rt -ldl
        $CC -O0 -pthread -I"$plugsrc" "$plugsrc/plug_app.c" -o app_plain -L"$PWD" -Wl,-rpath,"$PWD" -lplug
        $CC -O0 -pthread -I"$plugsrc" "$plugsrc/plug_app.c" plug.linktime.o -Wl,@gen/plug.wrap -o app_linktime \
            -L"$PWD" -Wl,-rpath,"$PWD" -lplug $rt
    }
}

run_app() {
    local name=$1 mode=$2 rc=0
    shift 2
    local vars=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    rm -rf "$name.exp"
    case $mode in
        plain) env ${vars[@]+"${vars[@]}"} ./app_plain "$@" >"$name.out" 2>"$name.err" || rc=$? ;;
        preload)
            env LIBWRAP_EXPERIMENT_DIRECTORY="$PWD/$name.exp" LD_PRELOAD="$PWD/libwrap_plug_runtime.so" \
                ${vars[@]+"${vars[@]}"} ./app_plain "$@" >"$name.out" 2>"$name.err" || rc=$? ;;
        linktime)
            env LIBWRAP_EXPERIMENT_DIRECTORY="$PWD/$name.exp" ${vars[@]+"${vars[@]}"} \
                ./app_linktime "$@" >"$name.out" 2>"$name.err" || rc=$? ;;
        *) fail "run_app: unknown mode $mode" ;;
    esac
    echo "$rc" >"$name.rc"
}

# same_output A B: stdout byte-identical, same exit status.
same_output() {
    cmp -s "$1.out" "$2.out" || fail "$2: stdout differs from $1: $(diff "$1.out" "$2.out" | head -5)"
    [ "$(cat "$1.rc")" = "$(cat "$2.rc")" ] || fail "$2: exit status $(cat "$2.rc"), $1 had $(cat "$1.rc")"
}

# no_messages NAME: nothing on stderr.
no_messages() {
    [ ! -s "$1.err" ] || fail "$1: unexpected messages: $(cat "$1.err")"
}

# one_warning NAME PATTERN: stderr is one libwrap warning matching PATTERN (ERE).
one_warning() {
    [ "$(wc -l <"$1.err")" = 1 ] || fail "$1: expected exactly one line on stderr, got: $(cat "$1.err")"
    grep -Eq "^libwrap: warning: .*$2" "$1.err" || fail "$1: the warning does not match /$2/: $(cat "$1.err")"
    echo "ok $1: $(cat "$1.err")"
}

visits() {
    python3 - "$1/profile.json" <<'PY'
import json, sys
for f in sorted(json.load(open(sys.argv[1]))["functions"], key=lambda f: f["symbol"]):
    print(f["symbol"], f["visits"])
PY
}

# metric DIR SYMBOL METRIC: the function's inclusive metric value in profile.json.
metric() {
    python3 - "$1/profile.json" "$2" "$3" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
f = [f for f in p["functions"] if f["symbol"] == sys.argv[2]]
print(f[0]["metrics"].get(sys.argv[3], "absent") if f else "no-function")
PY
}
