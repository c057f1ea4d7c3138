#!/usr/bin/env bash
# A program that execs, measured as a user measures it: LD_PRELOAD of the
# runtime wrapper only ($(libwrap-info preload NAME)), and the libwrap link
# prefix in link-time mode with --as-needed (the runtime is then only the
# wrapper's dependency). In both, the runtime comes after libc in symbol
# lookup, so only the exec interposers in the wrapper library can write what
# the first image measured (5 ring_push) before the exec; the new image, same
# PID, measures on into <dir>.1 (3 ring_push).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
src=$examples/ring

step "ring wrapper: init, make, make install"
run_ok init.log bash "$src/init.sh" "$scratch/b"
export LIBWRAP_PATH=$scratch/b/prefix
run_ok make.log make -C b/wrap all install
for so in libwrap_ring_runtime.so libwrap_ring_linktime.so; do
    nm -D --defined-only "b/prefix/lib/$so" | grep -qw execve || fail "$so does not define execve"
done

# beside NAME DIR: DIR holds the first image's (the parent's) 5
# ring_push, DIR.1 the new image's 3, and nothing else was written.
beside() {
    visits "$2" | sort > got.txt
    printf '%s\n' 'ring_free 1' 'ring_new 1' 'ring_push 5' > want.txt
    diff want.txt got.txt || fail "$1: the parent's visits ($2)"
    visits "$2.1" | sort > got.txt
    printf '%s\n' 'ring_free 1' 'ring_new 1' 'ring_push 3' > want.txt
    diff want.txt got.txt || fail "$1: the new image's visits ($2.1)"
    [ ! -e "$2.2" ] || fail "$1: $2.2 exists"
}

# check_exec DIR PROGRAM OUTPUT: DIR holds the first image, DIR.1 the second.
check_exec() {
    local dir=$1
    [ "$(cat "$3")" = "$4" ] || fail "$2: output '$(cat "$3")'"
    [ -f "$dir/profile.json" ] || fail "$2: no $dir/profile.json: what the first image measured was lost"
    [ -f "$dir.1/profile.json" ] || fail "$2: no $dir.1/profile.json: the exec'd image was not measured"
    beside "$2" "$dir"
    python3 - "$dir" <<'PY' || fail "$2: the two profiles are not of the same process"
import json, sys
a, b = (json.load(open(d + "/profile.json")) for d in (sys.argv[1], sys.argv[1] + ".1"))
sys.exit(a["pid"] != b["pid"])
PY
    echo "ok: $2"
}

step "LD_PRELOAD of the runtime wrapper only, execle with a cleaned environment"
run_ok cc.log "$CC" -O2 -I"$src" "$here/exec_app.c" -o exec_app -L"$scratch/b" -Wl,-rpath,"$scratch/b" -lring
LD_PRELOAD=$(libwrap-info preload ring) LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-preload LIBWRAP_VERBOSE=exec \
    ./exec_app execle > preload.out 2> preload.err || { cat preload.err; fail "exec_app (LD_PRELOAD) failed"; }
cat preload.err
grep -q 'exec functions interposed' preload.err || fail "LIBWRAP_VERBOSE=exec: interposers not in effect"
check_exec exp-preload "LD_PRELOAD" preload.out "after exec, EXEC_APP=given"

step "an execve that fails, then one that succeeds, with a cleaned environment"
LD_PRELOAD=$(libwrap-info preload ring) LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-retry LIBWRAP_VERBOSE=exec \
    ./exec_app retry > retry.out 2> retry.err || { cat retry.err; fail "exec_app retry failed"; }
grep -q 'exec of /nonexistent/exec_app failed: measurement stays stopped; a later exec is measured' retry.err ||
    { cat retry.err; fail "retry: the failed exec not said"; }
[ "$(grep -c 'exec: results written' retry.err)" = 1 ] || { cat retry.err; fail "retry: not prepared exactly once"; }
check_exec exp-retry "a failed exec, then one" retry.out "after exec, EXEC_APP=retried"

step "LD_PRELOAD of the wrapper and the runtime: two copies, results written once"
LD_PRELOAD="$(libwrap-info preload ring) $LIBWRAP_STAGE/lib/liblibwrap_runtime.so" \
    LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-both LIBWRAP_VERBOSE=exec ./exec_app execv > both.out 2> both.err \
    || { cat both.err; fail "exec_app (two copies) failed"; }
[ "$(grep -c 'exec: results written' both.err)" = 1 ] || { cat both.err; fail "two copies: not prepared exactly once"; }
check_exec exp-both "two copies" both.out "after exec, EXEC_APP=(unset)"


step "fork, then exec in the child from another directory: beside the parent's results"
# LIBWRAP_EXPERIMENT_DIRECTORY relative, as a user sets it; the child
# changes directory before its exec.
mkdir -p fe && (cd fe && LD_PRELOAD=$(libwrap-info preload ring) LIBWRAP_EXPERIMENT_DIRECTORY=exp-fork \
    ../exec_app forkexec > ../forkexec.out 2> ../forkexec.err) || { cat forkexec.err; fail "exec_app forkexec failed"; }
[ "$(cat forkexec.out)" = "after exec, EXEC_APP=(unset)" ] || fail "forkexec: output '$(cat forkexec.out)'"
[ ! -s forkexec.err ] || fail "forkexec: stderr: $(cat forkexec.err)"
[ ! -e fe/sub/exp-fork ] || fail "forkexec: the child's image wrote under its own working directory (fe/sub/exp-fork)"
beside forkexec fe/exp-fork
# Traced, the same: the child measured nothing before its exec, so it
# claims no fork-PID directory for a trace of its own.
(cd fe && LD_PRELOAD=$(libwrap-info preload ring) LIBWRAP_EXPERIMENT_DIRECTORY=exp-fork-traced \
    LIBWRAP_ENABLE_TRACING=true ../exec_app forkexec > ../forkexec.out 2> ../forkexec.err) ||
    { cat forkexec.err; fail "exec_app forkexec (traced) failed"; }
[ ! -s forkexec.err ] || fail "forkexec (traced): stderr: $(cat forkexec.err)"
beside "forkexec (traced)" fe/exp-fork-traced
[ -f fe/exp-fork-traced/traces.otf2 ] && [ -f fe/exp-fork-traced.1/traces.otf2 ] || fail "forkexec (traced): a trace is missing"
[ -z "$(ls -d fe/exp-fork-traced/fork-* 2>/dev/null)" ] || fail "forkexec (traced): the child left $(ls -d fe/exp-fork-traced/fork-*)"
echo "ok: fork and exec: <dir>.1 beside the parent's"

step "vfork, then exec with a cleaned environment: measured, beside the parent's results"
(cd fe && LD_PRELOAD=$(libwrap-info preload ring) LIBWRAP_EXPERIMENT_DIRECTORY=exp-vfork \
    ../exec_app vforkexec > ../vforkexec.out 2> ../vforkexec.err) || { cat vforkexec.err; fail "exec_app vforkexec failed"; }
[ "$(cat vforkexec.out)" = "after exec, EXEC_APP=vforked" ] || fail "vforkexec: output '$(cat vforkexec.out)'"
[ ! -s vforkexec.err ] || fail "vforkexec: stderr: $(cat vforkexec.err)"
beside vforkexec fe/exp-vfork
echo "ok: vfork and exec: <dir>.1 beside the parent's"

step "system() and popen(): the programs the shell runs write beside the caller's results"
for how in system popen; do
    (cd fe && LD_PRELOAD=$(libwrap-info preload ring) LIBWRAP_EXPERIMENT_DIRECTORY=exp-$how \
        ../exec_app $how > ../$how.out 2> ../$how.err) || { cat $how.err; fail "exec_app $how failed"; }
    [ "$(cat $how.out)" = "after exec, EXEC_APP=(unset)" ] || fail "$how: output '$(cat $how.out)'"
    [ ! -s $how.err ] || fail "$how: stderr: $(cat $how.err)"
    beside $how fe/exp-$how
    echo "ok: $how: <dir>.1 beside the caller's"
done

step "link-time wrapper (libwrap --libwrap=linktime:ring, --as-needed)"
run_ok link.log libwrap --libwrap=linktime:ring "$CC" -O2 -I"$src" "$here/exec_app.c" -o exec_app.linktime \
    -Wl,--as-needed -L"$scratch/b" -Wl,-rpath,"$scratch/b" -lring
readelf -d exec_app.linktime | grep -q 'NEEDED.*liblibwrap_runtime' \
    && echo "note: the runtime is a direct dependency here; the case still runs"
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-linktime ./exec_app.linktime execv > linktime.out 2> linktime.err \
    || { cat linktime.err; fail "exec_app.linktime failed"; }
check_exec exp-linktime "link-time" linktime.out "after exec, EXEC_APP=(unset)"
echo PASS
