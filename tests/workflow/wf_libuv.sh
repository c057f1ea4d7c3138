#!/usr/bin/env bash
# libuv (libuv1-dev): its fini array calls the exported uv_library_shutdown,
# which binds to the preloaded wrapper. A process that loads libuv but never
# calls it (a program linked with -luv, the child that a libuv program
# starts) must leave no directory; a program that calls libuv gets
# exactly its own calls (link-time: the program's; LD_PRELOAD: at least
# those), and its output, stderr and status are those of the unwrapped run.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
app=$here/libuv
[ -f /usr/include/uv.h ] || fail "libuv1-dev is not installed (scripts/install-deps.sh)"
export LIBWRAP_PATH=$scratch/prefix

step "libuv wrapper: libwrap-init, make, make install"
run_ok init.log libwrap-init --name uv -x c --libs -luv --prefix "$scratch/prefix" w
echo '#include <uv.h>' > w/libwrap.h
cp "$app/uv_spawner.c" w/main.c
run_ok make.log make -C w all install
preload=$(libwrap-info preload uv)

# same NAME CMD...: unwrapped and with WRAP set, in fresh directories
# NAME.plain and NAME; equal stdout, stderr and status.
same() {
    local name=$1; shift
    local rc=0 prc=0
    mkdir "$name.plain" "$name"
    (cd "$name.plain" && "$@" > ../"$name.plain.out" 2> ../"$name.plain.err") || prc=$?
    (cd "$name" && env "${WRAP[@]}" "$@" > ../"$name.out" 2> ../"$name.err") || rc=$?
    [ "$rc" = "$prc" ] || { cat "$name.err"; fail "$name: status $rc, unwrapped $prc"; }
    diff "$name.plain.out" "$name.out" || fail "$name: stdout differs"
    diff "$name.plain.err" "$name.err" || fail "$name: stderr differs"
}
nothing_left() {
    local left; left=$(cd "$1" && ls -A)
    [ -z "$left" ] || fail "$1: left behind: $left"
}

step "processes that load libuv without calling it leave nothing"
run_ok cc.log "$CC" -O2 "$app/uv_quiet.c" -o uv_quiet -Wl,--no-as-needed -luv
WRAP=(LD_PRELOAD="$preload")
same quiet "$PWD/uv_quiet"
nothing_left quiet
echo "ok: a program linked with -luv"

step "a libuv program that starts a child loading libuv"
run_ok cc.log "$CC" -O2 "$app/uv_spawner.c" -o uv_spawner -luv
run_ok lt.log libwrap --libwrap=linktime:uv "$CC" -O2 "$app/uv_spawner.c" -o uv_spawner.lt -luv
calls=('uv_close 1' 'uv_default_loop 1' 'uv_loop_close 1' 'uv_run 1' 'uv_spawn 1' 'uv_timer_init 1' 'uv_timer_start 1')
for mode in preload linktime; do
    if [ $mode = preload ]; then exe=$PWD/uv_spawner; WRAP=(LD_PRELOAD="$preload"); else exe=$PWD/uv_spawner.lt; WRAP=(); fi
    same spawner-$mode "$exe" "$PWD/uv_quiet"
    dirs=$(cd spawner-$mode && ls -A)
    [ "$(echo "$dirs" | wc -l)" = 1 ] || fail "spawner-$mode: directories: $dirs"
    visits "spawner-$mode/$dirs" | sort > got.txt
    printf '%s\n' "${calls[@]}" > want.txt
    if [ $mode = linktime ]; then
        diff want.txt got.txt || fail "spawner-$mode: visits"
    else
        # libuv's own calls of its exported functions are measured too.
        cat got.txt
        while read -r sym n; do
            grep -qx "$sym $n" got.txt || fail "spawner-$mode: $sym not $n"
        done < want.txt
    fi
    echo "ok: $mode: one directory ($dirs), the program's calls"
done
echo PASS
