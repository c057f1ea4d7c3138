#!/usr/bin/env bash
# libc itself as the wrapped library, as Darshan measures I/O: its
# functions that return twice (vfork, setjmp, getcontext) are left out by
# the generator, so a vfork child's calls and a longjmp leave the program
# as it was (the parent of a wrapped vfork returned to its child's code);
# the runtime's own calls of libc (reading the program's image at start)
# are not measured, so a program that calls nothing leaves nothing.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
src=$here/libc

step "libc's I/O wrapper: init, make, make install"
export LIBWRAP_PATH=$scratch/prefix
run_ok init.log libwrap-init --name posixio -x c --libs -lc --prefix "$scratch/prefix" w
printf '#include <fcntl.h>\n#include <unistd.h>\n#include <setjmp.h>\n#include <ucontext.h>\n' > w/libwrap.h
cp "$src/io_app.c" w/main.c
cat > w/posixio.filter <<'F'
LIBWRAP_REGION_NAMES_BEGIN
  EXCLUDE *
  INCLUDE open close dup2 execve vfork _setjmp __sigsetjmp getcontext
LIBWRAP_REGION_NAMES_END
F
run_ok make.log make -C w all install
cat w/posixio.gen.log
grep -q ', 5 that return twice' w/posixio.gen.log || fail "the generator did not say it left out 5 functions that return twice"
for f in vfork setjmp _setjmp __sigsetjmp getcontext; do
    grep -q "^$f .*skip=returns-twice" w/posixio.functions.txt || fail "$f: not left out as returns-twice"
done
wrap=$(grep '^--wrap=' w/posixio.wrap | sort | tr '\n' ' ')
[ "$wrap" = "--wrap=close --wrap=dup2 --wrap=execve --wrap=open " ] || fail "wrapped: $wrap"
P=$(libwrap-info preload posixio)

# measured NAME CMD...: CMD under the preload prints and exits as plain
# (a second return through a wrapper looped or crashed: bounded).
measured() {
    local name=$1 st=0 pst=0
    shift
    timeout 60 "$@" > "$name.plain.out" 2> "$name.plain.err" || pst=$?
    LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/$name.exp timeout 60 env LD_PRELOAD=$P "$@" > "$name.out" 2> "$name.err" || st=$?
    [ "$st" != 124 ] || fail "$name: $* hangs (killed after 60 s)"
    [ "$st" = "$pst" ] || { cat "$name.err"; fail "$name: exit status $st, plain $pst"; }
    cmp -s "$name.plain.out" "$name.out" || fail "$name: stdout changed: $(diff "$name.plain.out" "$name.out")"
    cmp -s "$name.plain.err" "$name.err" || fail "$name: stderr changed: $(diff "$name.plain.err" "$name.err")"
    echo "ok: $name: output and status as plain ($st)"
}

step "a program that calls nothing wrapped leaves nothing (the runtime's own open and close)"
measured true /bin/true
[ ! -e true.exp ] || { visits true.exp; fail "/bin/true left results: the runtime's own calls were measured"; }

step "vfork, sigsetjmp and longjmp under LD_PRELOAD: the program as plain, its calls counted"
run_ok cc.log "$CC" -O0 -fno-builtin w/main.c -o io_app
measured app ./io_app 6
grep -qx '6 opens, 15 closes, 3 jumps' app.out || fail "unexpected output: $(cat app.out)"
visits app.exp | sort > got.txt
printf '%s\n' 'close 15' 'dup2 2' 'execve 2' 'open 6' > want.txt
diff want.txt got.txt || fail "visits (LD_PRELOAD)"

step "the same linked with the libwrap prefix"
run_ok lcc.log libwrap --libwrap=linktime:posixio "$CC" -O0 -fno-builtin w/main.c -o io_app.lt
measured lt ./io_app.lt 6
visits lt.exp | sort > got.txt
diff want.txt got.txt || fail "visits (link time)"

step "dash runs a command by vfork and execve"
measured sh sh -c '/bin/true; echo after; exit 3'
grep -qx after sh.out || fail "sh: $(cat sh.out)"
echo "PASS"
