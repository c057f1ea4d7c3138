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

step "libc's clock wrapped, beside a clock interposer (as libfaketime)"
# The vDSO defines clock_gettime and time too: it is no object before the
# wrapper. An interposer without symbol versions after the wrapper of
# clock_gettime@@GLIBC_2.17 is its original, as the loader binds the
# program to it. One before it with a frozen clock and sleeps that return
# at once: the runtime's own clock and waits are the real ones (its
# calibration never ended), and the warning names it.
run_ok init-clk.log libwrap-init --name clk -x c --libs -lc --prefix "$scratch/prefix" c
printf '#include <time.h>\n' > c/libwrap.h
printf '#include <stdio.h>\n#include <time.h>\nint main(void) { struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts); printf("%%ld\\n", (long)ts.tv_sec); return 0; }\n' > c/main.c
cat > c/clk.filter <<'F'
LIBWRAP_REGION_NAMES_BEGIN
  EXCLUDE *
  INCLUDE clock_gettime
LIBWRAP_REGION_NAMES_END
F
run_ok make-clk.log make -C c all install
# It calls libc, so it has a table of symbol versions (its own functions
# in it as global, unversioned), as every interposer linked with libc does.
cat > frozen.c <<'C'
#include <time.h>
#include <unistd.h>
int clock_gettime(clockid_t id, struct timespec *ts) { (void)id; ts->tv_sec = 1577836800 + 0 * getpid(); ts->tv_nsec = 0; return 0; }
int nanosleep(const struct timespec *req, struct timespec *rem) { (void)req; if (rem) rem->tv_sec = rem->tv_nsec = 0; return 0; }
time_t time(time_t *t) { if (t) *t = 1577836800; return 1577836800; }
C
run_ok frozen.log "$CC" -O2 -shared -fPIC frozen.c -o libfrozen.so
run_ok clkapp.log "$CC" -O2 c/main.c -o clkapp
C=$(libwrap-info preload clk)
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/clk-alone.exp LD_PRELOAD=$C timeout 60 ./clkapp > clk-alone.out 2> clk-alone.err || fail "clkapp failed"
[ ! -s clk-alone.err ] || fail "the wrapper of clock_gettime alone: $(cat clk-alone.err)"
[ "$(visits clk-alone.exp)" = 'clock_gettime@@GLIBC_2.17 1' ] || fail "clk-alone: $(visits clk-alone.exp)"
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/clk-after.exp LD_PRELOAD="$C $PWD/libfrozen.so" timeout 60 ./clkapp > clk-after.out 2> clk-after.err ||
    fail "clkapp with the interposer after the wrapper failed"
[ "$(cat clk-after.out)" = 1577836800 ] || fail "the interposer after the wrapper was passed over: $(cat clk-after.out)"
[ ! -s clk-after.err ] || fail "clk-after: $(cat clk-after.err)"
[ "$(visits clk-after.exp)" = 'clock_gettime@@GLIBC_2.17 1' ] || fail "clk-after: $(visits clk-after.exp)"
# The default directory's name has the run's real date, not the one the
# interposer gives the program (libfaketime interposes time() too).
mkdir -p clk-name && day0=$(date +%Y%m%d)
(cd clk-name && LD_PRELOAD="$C $PWD/../libfrozen.so" timeout 60 ../clkapp > ../clk-name.out 2> ../clk-name.err) ||
    fail "clkapp (the default directory) failed"
day1=$(date +%Y%m%d)
name=$(ls clk-name)
case $name in
    libwrap-${day0}_*|libwrap-${day1}_*) ;;
    *) fail "the default directory is named by the interposer's date: $name (today $day1)" ;;
esac
st=0
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/clk-before.exp LD_PRELOAD="$PWD/libfrozen.so $C" timeout 60 ./clkapp \
    > clk-before.out 2> clk-before.err || st=$?
[ $st = 0 ] || fail "clkapp with a frozen clock before the wrapper: status $st (124: it hung)"
[ "$(cat clk-before.out)" = 1577836800 ] || fail "clk-before: $(cat clk-before.out)"
grep -q '^libwrap: warning: libfrozen.so comes before the wrapper libwrap_clk_runtime.so in symbol lookup and defines [0-9]* of its [0-9]* functions (clock_gettime' clk-before.err ||
    fail "clk-before: no warning naming libfrozen.so: $(cat clk-before.err)"
echo "PASS"
