#!/bin/bash
# rt_scenario.sh SCENARIO APP [NOP_APP] - runs one runtime scenario of
# rt_app.c and checks its results. RT_SMALL=1 (sanitizer runs) makes the
# thread scenario smaller.
set -eu
scenario=$1
APP=$2
NOP=${3:-}
TEST_LABEL=$scenario
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"

# run EXPECTED_STATUS ARGS...: runs the app, output in out.txt / err.txt.
run() {
    local want=$1
    shift
    local st=0
    "$APP" "$@" >out.txt 2>err.txt || st=$?
    if [ "$st" != "$want" ]; then
        cat err.txt >&2
        fail "$APP $* exited with $st, expected $want"
    fi
}

export LIBWRAP_EXPERIMENT_DIRECTORY=$LIBWRAP_SCRATCH/exp

case $scenario in
threads)
    n=16 calls=100000
    [ -n "${RT_SMALL:-}" ] && n=4 calls=5000
    run 0 threads $n $calls
    $CHECK exp "visits('lib_add') == $n * $calls" "len(threads) == $n" \
        "sorted(t['id'] for t in threads) == list(range(1, $n + 1))" \
        "all(len(t['callpath']) == 1 and t['callpath'][0]['visits'] == $calls for t in threads)" \
        "fn('lib_add')['min_ns'] <= fn('lib_add')['max_ns']"
    # profile.txt lists the threads in the order of their ids, as profile.json.
    [ "$(sed -n 's/^thread \([0-9]*\) call paths$/\1/p' exp/profile.txt | tr '\n' ' ')" = "$(seq -s ' ' 1 $n) " ] ||
        fail "profile.txt: threads out of order: $(grep '^thread' exp/profile.txt | head -3)"
    ;;
tsd)
    # Calls from a TSD destructor of a key made after the runtime's: each
    # thread's 1 + 1 + 1 (lib_add, and lib_call's callback's), on the
    # thread's own top level, also after a pthread_exit inside lib_call.
    run 0 tsd
    [ "$(cat out.txt)" = tsd ] || fail "tsd: output changed: $(cat out.txt)"
    $CHECK exp "visits('lib_add') == 1 + 3 + 3 + 3" "visits('lib_call') == 1 + 3" \
        "path('lib_call/lib_add') == 3" "path('lib_call') == 4" "path('lib_add') == 7" "len(threads) == 4"
    ;;
nest)
    run 0 nest
    $CHECK exp "visits('lib_call') == 3" "visits('lib_add') == 2" "visits('lib_recurse') == 8" \
        "path('lib_call') == 2" "path('lib_call/lib_add') == 1" "path('lib_call/lib_call') == 1" \
        "path('lib_call/lib_call/lib_add') == 1" \
        "path('lib_call/lib_recurse/lib_recurse/lib_recurse') == 1" \
        "path('lib_recurse/lib_recurse/lib_recurse/lib_recurse/lib_recurse') == 1" \
        "'lib_recurse/lib_recurse/lib_recurse/lib_recurse/lib_recurse/lib_recurse' not in paths" \
        "len(threads) == 1 and threads[0]['id'] == 0" \
        "fn('lib_recurse')['inclusive_ns'] <= fn('lib_call')['inclusive_ns'] + fn('lib_recurse')['exclusive_ns'] * 8"
    grep -q '^nest ' out.txt || fail "program output lost"
    grep -q 'lib_recurse' exp/profile.txt || fail "profile.txt lacks lib_recurse"
    # A call path 300 calls deep (two JSON levels a call): profile.json
    # stays valid, with every level.
    rm -rf exp
    run 0 deep 300
    deep=$(printf 'lib_recurse/%.0s' $(seq 300))
    $CHECK exp "visits('lib_recurse') == 300" "path('${deep%/}') == 1" || fail "a call path 300 deep"
    grep -qx 'deep 300' out.txt || fail "deep: program output lost"
    ;;
percall)
    # Each of 20 lib_call calls makes 5000 lib_add calls: with compensation,
    # every lib_call call's time is its own, so even the slowest is well
    # below the mean as measured (which holds its callees' measurement
    # cost, some 100 us); without it, the slowest call is at least that
    # mean. Up to ten tries, each some 3 ms of calls: a loaded machine may
    # preempt one of them for longer, which makes that call the slowest.
    for try in 1 2 3 4 5 6 7 8 9 10; do
        rm -rf exp
        run 0 percall
        grep -q '^percall ' out.txt || fail "program output lost"
        if $CHECK exp "visits('lib_add') == 100000" "visits('lib_call') == 20" \
            "fn('lib_call')['max_ns'] < fn('lib_call')['inclusive_raw_ns'] / 20" \
            "fn('lib_call')['min_ns'] <= fn('lib_call')['inclusive_ns'] / 20 <= fn('lib_call')['max_ns']" >check.out 2>&1; then
            break
        fi
        [ $try = 10 ] && { cat check.out; fail "lib_call's slowest call holds its callees' measurement cost"; }
    done
    ;;
fsize)
    # The program's file-size limit at 0, SIGXFSZ at its default, stderr a
    # file: libwrap's writes fail (no results, its warnings lost), and the
    # program ends as it would, not by SIGXFSZ.
    st=0
    (trap - XFSZ; "$APP" fsize > m.out 2> m.err) || st=$?
    [ $st = 0 ] || fail "fsize: exit status $st (153: killed by SIGXFSZ)"
    # A limit that config.txt fits and profile.json does not (as a full
    # disk or a quota): no profile.json rather than one cut short at the
    # limit, nothing stray beside config.txt, and one warning.
    rm -rf exp
    st=0
    (trap - XFSZ; ulimit -f 16; "$APP" deep 300 > m.out 2> m.err) || st=$?
    [ $st = 0 ] || fail "fsize, profile: exit status $st"
    [ "$(wc -l < m.err)" = 1 ] && grep -qx "libwrap: warning: cannot write $PWD/exp/profile.json nor profile.txt beside it: File too large" m.err ||
        fail "fsize, profile: not the one warning: $(cat m.err)"
    [ "$(ls -A exp)" = config.txt ] || fail "fsize, profile: the directory holds $(ls -A exp | tr '\n' ' ')"
    ;;
quickexit)
    run 6 quickexit
    $CHECK exp "visits('lib_add') == 3"
    ;;
exit)
    # The atexit handler's call runs before the runtime's end: measured,
    # under the still open lib_exit.
    run 7 exit
    [ "$(cat out.txt)" = exiting ] || fail "output changed: $(cat out.txt)"
    $CHECK exp "visits('lib_add') == 4" "visits('lib_exit') == 1" "path('lib_exit') == 1" \
        "path('lib_exit/lib_add') == 1"
    ;;
fork)
    run 0 fork
    $CHECK exp "visits('lib_add') == 3" "visits('lib_fork') == 1" "visits('lib_call') == 0"
    set -- exp/fork-*
    [ $# = 1 ] && [ -d "$1" ] || fail "expected one exp/fork-PID directory, found: $*"
    grep -q "^child ${1##*/fork-}\$" out.txt || fail "child directory not named for the child's pid"
    $CHECK "$1" "visits('lib_add') == 6" "visits('lib_call') == 1" "visits('lib_fork') == 0" \
        "path('lib_add') == 5" "path('lib_call/lib_add') == 1" "prof['pid'] != 0"
    [ ! -e exp.1 ] || fail "the child wrote outside the parent's directory"
    ;;
smallstack)
    # A thread with the smallest stack (PTHREAD_STACK_MIN, 16 KiB with
    # glibc's TLS inside it) makes the process's first measured calls, then
    # exits the process, or forks; profiled and traced (the directory is
    # then made at the first call). The directory is made and the results
    # written on a stack of the runtime's own: the program ends as without
    # libwrap (it died by SIGSEGV).
    for tracing in false true; do
        rm -rf exp
        LIBWRAP_ENABLE_TRACING=$tracing run 3 smallstack exit
        grep -qx 'small thread: exit' out.txt || fail "exit ($tracing): output: $(cat out.txt)"
        $CHECK exp "visits('lib_add') == 2" >/dev/null
        rm -rf exp
        LIBWRAP_ENABLE_TRACING=$tracing run 0 smallstack fork
        grep -qx 'small thread: forked' out.txt || fail "fork ($tracing): output: $(cat out.txt)"
        $CHECK exp "visits('lib_add') == 3" >/dev/null
        set -- exp/fork-*
        $CHECK "$1" "visits('lib_add') == 1" >/dev/null
        [ $tracing = false ] || [ -s exp/traces.otf2 ] || fail "fork (traced): no trace"
    done
    ;;
clone)
    # clone() without CLONE_VM is a fork: the parent's calls counted once in
    # exp, the child's (exit() or a return from its function) in
    # exp/fork-PID, nested under the open lib_clone with 0 visits. With
    # CLONE_VM | CLONE_VFORK the child (_exit, or an exec of a run that
    # measures nothing) is left alone. Output and status as unmeasured.
    for how in exit:0 return:3 vfork:5 vfork-exec:0; do
        st=${how#*:} how=${how%:*}
        rm -rf exp exp.*
        run 0 clone "$how"
        grep -qx "parent, child status $st" out.txt || fail "$how: output: $(cat out.txt)"
        # ASan's note on a noreturn call made on the child's own stack, as
        # without libwrap, is not ours.
        grep -v -e '__asan_handle_no_return' -e '^False positive error reports may follow' \
            -e 'google/sanitizers/issues/189' err.txt >own.err || true
        [ ! -s own.err ] || fail "$how: unexpected messages: $(cat own.err)"
        $CHECK exp "visits('lib_add') == 3" "visits('lib_clone') == 1" "'lib_call' not in paths" >/dev/null
        [ ! -e exp.1 ] || fail "$how: a second directory: $(ls -d exp.*)"
        set -- exp/fork-*
        case $how in
        exit | return)
            [ $# = 1 ] && [ -d "$1" ] || fail "$how: expected one exp/fork-PID directory, found: $*"
            grep -qx "child ${1##*/fork-}" out.txt || fail "$how: child directory not named for the child's pid"
            $CHECK "$1" "visits('lib_add') == 6" "visits('lib_call') == 1" "visits('lib_clone') == 0" \
                "path('lib_clone/lib_add') == 5" "path('lib_clone/lib_call/lib_add') == 1" \
                "prof['pid'] == ${1##*/fork-}" >/dev/null
            ;;
        *)
            [ ! -e "$1" ] || fail "$how: the child left $*"
            ;;
        esac
        [ -n "$NOP" ] || continue
        mv out.txt m.out
        nst=0
        "$NOP" clone "$how" >n.out 2>n.err || nst=$?
        [ "$nst" = 0 ] || fail "$how: exit status 0 measured, $nst unmeasured"
        sed 's/^child [0-9]*$/child PID/' m.out >m.cmp
        sed 's/^child [0-9]*$/child PID/' n.out >n.cmp
        cmp -s m.cmp n.cmp || fail "$how: output differs: $(diff m.cmp n.cmp)"
        [ ! -s n.err ] || fail "$how: unmeasured run wrote to stderr: $(cat n.err)"
    done
    # Two copies of the interposer (a wrapper library's, preloaded, in front
    # of the runtime's): each of the two clone() calls (the one refused for
    # want of a stack, the real one) is prepared once, each part written once.
    [ -n "${RT_INTERPOSERS:-}" ] || { echo "PASS $scenario"; exit 0; }
    for how in exit return; do
        rm -rf exp exp.*
        LD_PRELOAD=$RT_INTERPOSERS LIBWRAP_VERBOSE=lifecycle run 0 clone "$how"
        [ "$(grep -c 'measured as a fork child' err.txt)" = 2 ] || fail "two copies, $how: not prepared once per call: $(cat err.txt)"
        $CHECK exp "visits('lib_add') == 3" >/dev/null
        set -- exp/fork-*
        [ $# = 1 ] && [ -d "$1" ] || fail "two copies, $how: expected one exp/fork-PID directory, found: $*"
        $CHECK "$1" "visits('lib_add') == 6" "visits('lib_call') == 1" >/dev/null
        [ ! -e exp.1 ] || fail "two copies, $how: a second directory: $(ls -d exp.*)"
    done
    ;;
forkfinish)
    # Children forked before the finalisation write their own profile (one
    # call each); those forked after it write nothing. No deadlock, no
    # sanitizer report.
    n=20
    [ -n "${RT_SMALL:-}" ] && n=4
    run 0 forkfinish 1 $n
    [ "$(cat out.txt)" = "forks $n failed 0" ] || fail "output: $(cat out.txt)"
    [ ! -s err.txt ] || fail "unexpected messages: $(cat err.txt)"
    $CHECK exp "visits('lib_add') == 1" "visits('lib_fork') >= 1"
    for d in exp/fork-*; do
        [ -d "$d" ] || continue
        $CHECK "$d" "visits('lib_add') == 1" "visits('lib_fork') == 0" >/dev/null
    done
    ;;
crash)
    # A fault, a raised SIGSEGV, a SIGTERM, a write to a broken pipe
    # (`prog | head`), SIGHUP, SIGALRM, a breakpoint instruction (SIGTRAP):
    # results written, the program still dies by its signal (the shell
    # reports 128 + signal number).
    for how in 0:139 1:139 2:143 3:141 4:129 5:142 6:133; do
        rm -rf exp
        run "${how#*:}" crash "${how%:*}"
        $CHECK exp "visits('lib_add') == 4" "visits('lib_crash') == 1"
        [ "$(cat out.txt)" = crashing ] || fail "output changed: $(cat out.txt)"
    done
    # A program that handles SIGTERM, then restores the default action and
    # raises it again (sigaction, signal(), SA_RESETHAND, sigaction with
    # SA_SIGINFO set, as every Go program does): the runtime's handler
    # stands in for the default, out of the program's sight, and writes the
    # results before the process dies by the signal.
    [ -n "${RT_INTERPOSERS:-}" ] || fail "RT_INTERPOSERS not set"
    for how in 0 1 2 3; do
        rm -rf exp
        LD_PRELOAD=$RT_INTERPOSERS run 143 reraise $how
        printf 'SIGTERM at the start: the default\ncleaning up\n' | cmp -s - out.txt ||
            fail "reraise $how: output changed: $(cat out.txt)"
        [ ! -s err.txt ] || fail "reraise $how: unexpected messages: $(cat err.txt)"
        $CHECK exp "visits('lib_add') == 4" "visits('lib_crash') == 1"
    done
    ;;
sigsafe)
    # A SIGTERM from another process that interrupts glibc's malloc: the
    # runtime writes the results only at a safe point, so the program still
    # dies by the signal (not by glibc's abort on a half-updated heap, which
    # writing from there caused in about half of these kills), with its
    # results. Each kill lands at another point of the loop.
    # kill_in SCENARIO OUTPUT [DELAY]: SCENARIO killed by SIGTERM once it
    # has printed OUTPUT, DELAY s later (0 to 0.29 s when not given); no
    # messages unless LIBWRAP_VERBOSE asks for them.
    kill_in() {
        rm -rf exp out.txt
        local st=0 pid
        "$APP" "$1" >out.txt 2>err.txt &
        pid=$!
        while [ ! -s out.txt ] && kill -0 $pid 2>/dev/null; do sleep 0.05; done
        sleep "${3:-0.$((RANDOM % 3))$((RANDOM % 10))}"
        kill -TERM $pid
        wait $pid || st=$?
        [ "$st" = 143 ] || fail "$1: exited with $st, expected 143 (SIGTERM): $(cat err.txt)"
        [ "$(cat out.txt)" = "$2" ] || fail "$1: output changed: $(cat out.txt)"
        [ -n "${LIBWRAP_VERBOSE:-}" ] || [ ! -s err.txt ] || fail "$1: unexpected messages: $(cat err.txt)"
    }
    for i in 1 2 3 4 5 6; do
        kill_in allocloop allocating
        $CHECK exp "visits('lib_add') == 4"
    done
    # A loop of wrapped calls: the signal mostly lands inside the runtime
    # (whose state is not whole there): the results are still written,
    # once the call has left it.
    for i in 1 2 3; do
        kill_in callloop calling
        $CHECK exp "visits('lib_add') > 0"
    done
    # A program that stays inside libc (spinning on a spin lock it holds
    # itself): the signal never lands at a safe point, and after its 2,000
    # tries (a millisecond apart) the runtime takes it where it lands,
    # writes the results there and dies by it.
    LIBWRAP_VERBOSE=lifecycle kill_in libcspin spinning 0.2
    grep -q 'signal 15: writing results' err.txt || fail "libcspin: no results written: $(cat err.txt)"
    grep -q 'signal 15: no safe point in 2000 tries: handled where it came' err.txt ||
        fail "libcspin: the tries were not spent: $(cat err.txt)"
    $CHECK exp "visits('lib_add') == 4"
    # The signal comes inside libc (as it returns from unblocking it), and
    # the program blocks it again and exits: unmeasured, it dies by the
    # signal; measured, it must too, with its results, at its exit.
    rm -rf exp
    LIBWRAP_VERBOSE=lifecycle run 143 sendwait
    [ "$(cat out.txt)" = blocking ] || fail "sendwait: output changed: $(cat out.txt)"
    grep -q 'signal 15: not at a safe point' err.txt || fail "sendwait: the signal was not deferred: $(cat err.txt)"
    grep -q 'signal 15, deferred: raised again' err.txt || fail "sendwait: not raised at the exit: $(cat err.txt)"
    $CHECK exp "visits('lib_add') == 4"
    ;;
longjmp)
    run 0 longjmp
    $CHECK exp "visits('lib_jump') == 15" "visits('lib_call') == 6" "visits('lib_add') == 9" \
        "path('lib_jump') == 10" "path('lib_call/lib_jump') == 5" "path('lib_add') == 3" \
        "path('lib_call/lib_add') == 6" "max(len(p.split('/')) for p in paths) == 2"
    ;;
errno)
    run 0 errno
    [ "$(cat out.txt)" = "errno ok ok ok" ] || fail "errno changed: $(cat out.txt)"
    $CHECK exp "visits('lib_fail') == 2" "visits('lib_add') == 1"
    ;;
output)
    # Same objects with the no-op runtime: identical output and status.
    for s in nest errno exit longjmp; do
        st=0 nst=0
        "$APP" $s >m.out 2>m.err || st=$?
        "$NOP" $s >n.out 2>n.err || nst=$?
        [ "$st" = "$nst" ] || fail "$s: exit status $st measured, $nst unmeasured"
        cmp -s m.out n.out || fail "$s: output differs: $(diff m.out n.out)"
        [ ! -s m.err ] || fail "$s: runtime wrote to stderr: $(cat m.err)"
    done
    [ -d exp.3 ] && [ ! -e exp.4 ] || fail "each of the 4 measured runs must claim its own directory"
    # The program's own file on fd 2 (stderr closed at the start, or by the
    # program): libwrap's messages (here a malformed setting's) go nowhere,
    # never into the file; with stderr as it started, they are said.
    for how in closed close; do
        rm -rf exp data.out
        st=0
        if [ $how = closed ]; then
            LIBWRAP_THROTTLE=lots "$APP" stderrfile data.out 2>&- >m.out || st=$?
        else
            LIBWRAP_THROTTLE=lots "$APP" stderrfile data.out close >m.out 2>m.err || st=$?
            [ ! -s m.err ] || fail "stderrfile $how: stderr: $(cat m.err)"
        fi
        [ $st = 0 ] || fail "stderrfile $how: exit status $st"
        [ "$(cat data.out)" = data ] || fail "stderrfile $how: libwrap wrote into the program's file: $(head -c 200 data.out)"
        $CHECK exp "visits('lib_add') == 2"
    done
    LIBWRAP_THROTTLE=lots "$APP" nest >m.out 2>m.err || fail "nest with a malformed setting failed"
    grep -q 'LIBWRAP_THROTTLE="lots" is not valid' m.err || fail "the malformed setting was not said: $(cat m.err)"
    ;;
gone)
    # The directory the process started in, removed before it started or
    # by the program: the default name cannot be made there, and is not
    # made again; one warning each.
    mkdir -p gone1 && (cd gone1 && rmdir ../gone1 && env -u LIBWRAP_EXPERIMENT_DIRECTORY "$APP" nest) >m.out 2>m.err ||
        fail "gone before the start: exit status $?"
    [ "$(wc -l < m.err)" = 1 ] && grep -qx "libwrap: warning: cannot name the experiment directory: the directory the process started in is unknown (getcwd: No such file or directory); no results are written (set LIBWRAP_EXPERIMENT_DIRECTORY to an absolute path)" m.err ||
        fail "gone before the start: not the one warning: $(cat m.err)"
    mkdir -p gone2 && (cd gone2 && env -u LIBWRAP_EXPERIMENT_DIRECTORY "$APP" rmcwd) >m.out 2>m.err ||
        fail "removed by the program: exit status $?"
    [ "$(cat m.out)" = removed ] || fail "removed by the program: output $(cat m.out)"
    [ ! -e gone2 ] || fail "the removed start directory was made again: $(find gone2)"
    [ "$(wc -l < m.err)" = 1 ] && grep -q "^libwrap: warning: cannot create the experiment directory $PWD/gone2/libwrap-[0-9_]*: the directory the process started in is gone (removed, or the process changed its root directory); no results are written" m.err ||
        fail "removed by the program: not the one warning: $(cat m.err)"
    # A long name (3,000 bytes, under a plain file): the whole line, with
    # the reason and the advice after the name.
    : > afile
    long=$PWD/afile/$(printf 'x%.0s' $(seq 3000))
    LIBWRAP_EXPERIMENT_DIRECTORY=$long "$APP" nest >m.out 2>m.err || fail "a long name: exit status $?"
    [ "$(wc -l < m.err)" = 1 ] && grep -q "^libwrap: warning: cannot create the experiment directory $long: Not a directory; no results are written (set LIBWRAP_EXPERIMENT_DIRECTORY to a writable place)$" m.err ||
        fail "a long name: not the whole line: $(tail -c 200 m.err)"
    # A root directory changed (chroot, in a user namespace where that is
    # allowed): the results under the new root, and one line says so.
    mkdir -p jail
    if unshare -r true 2> /dev/null; then
        LIBWRAP_EXPERIMENT_DIRECTORY=/exp unshare -r "$APP" chroot "$PWD/jail" >m.out 2>m.err || fail "chroot: exit status $?"
        [ "$(cat m.out)" = jailed ] || fail "chroot: output $(cat m.out)"
        [ "$(wc -l < m.err)" = 1 ] && grep -q "^libwrap: warning: .*rt_app (pid [0-9]*) changed its root directory (chroot): its results are in /exp under that root, not under the one it started with$" m.err ||
            fail "chroot: not the one warning: $(cat m.err)"
        $CHECK jail/exp "visits('lib_add') == 2"
        # Claimed before (the trace claims it at the first call): the line
        # says what is written from then on goes under the new root.
        LIBWRAP_ENABLE_TRACING=true LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-claimed unshare -r "$APP" chroot "$PWD/jail" \
            >m.out 2>m.err || fail "chroot after the claim: exit status $?"
        [ "$(cat m.out)" = jailed ] || fail "chroot after the claim: output $(cat m.out)"
        grep -q "^libwrap: warning: .*rt_app (pid [0-9]*) changed its root directory (chroot) after its results' directory $PWD/exp-claimed was made: what is written from now on goes to $PWD/exp-claimed under the new root, where it may not be$" m.err ||
            fail "chroot after the claim: $(cat m.err)"
    else
        echo "no user namespace here: the chroot case is not tried"
    fi
    ;;
nomem)
    # No memory for a thread's state (RLIMIT_AS): its calls are not
    # measured, and one warning (not one a call) says why.
    "$APP" nomem >m.out 2>m.err || fail "nomem: exit status $?"
    [ "$(cat m.out)" = "sum 5050" ] || fail "nomem: output $(cat m.out)"
    [ "$(wc -l < m.err)" = 1 ] && grep -qx "libwrap: warning: cannot allocate the state of a thread (Cannot allocate memory): the calls of such threads are not measured" m.err ||
        fail "nomem: not the one warning: $(head -3 m.err; wc -l < m.err)"
    # No memory for the profile as it is written (a call path 20,000 deep:
    # profile.json some 76 MB) under a limit on the address space: one
    # warning, and no profile.json cut short (it was written cut short,
    # silently, and readers called it unfinished).
    rm -rf exp
    (ulimit -v 100000 && "$APP" deep 20000) >m.out 2>m.err || fail "nomem, profile: exit status $?"
    [ "$(cat m.out)" = "deep 20000" ] || fail "nomem, profile: output $(cat m.out)"
    [ "$(wc -l < m.err)" = 1 ] && grep -qx "libwrap: warning: cannot write $PWD/exp/profile.json: Cannot allocate memory" m.err ||
        fail "nomem, profile: not the one warning: $(head -3 m.err)"
    [ ! -e exp/profile.json ] || fail "nomem, profile: a profile.json was written: $(wc -c < exp/profile.json) bytes"
    # The table, which needs less memory, is written still.
    grep -q "^libwrap profile of " exp/profile.txt || fail "nomem, profile: no profile.txt beside the warning"
    ;;
seccomp)
    # A filter (prctl, syscall(SYS_seccomp)) or strict mode that lets the
    # program make only its own system calls: measurement ends there, the
    # results written, one warning; the program's output and status as
    # without libwrap.
    for how in filter syscall strict; do
        rm -rf exp
        st=0 nst=0
        "$APP" seccomp $how >m.out 2>m.err || st=$?
        "$NOP" seccomp $how >n.out 2>n.err || nst=$?
        [ "$nst" = 0 ] && [ "$(cat n.out)" = "sandboxed 16" ] || fail "$how: the unmeasured program: status $nst, $(cat n.out n.err)"
        [ "$st" = 0 ] || fail "$how: exit status $st measured (killed by the filter?), stderr: $(cat m.err)"
        cmp -s m.out n.out || fail "$how: output differs: $(cat m.out)"
        [ "$(wc -l < m.err)" = 1 ] && grep -q "^libwrap: warning: .*rt_app (pid [0-9]*) sandboxes itself (seccomp): measurement ends here; the results up to it are in $PWD/exp, its calls after it are not measured$" m.err ||
            fail "$how: not the one warning: $(cat m.err)"
        $CHECK exp "visits('lib_add') == 2"
    done
    # Where the results cannot be written, that line, then one that does
    # not say "before any measured call".
    LIBWRAP_EXPERIMENT_DIRECTORY=/proc/none/exp "$APP" seccomp filter >m.out 2>m.err || fail "seccomp, unwritable: status $?"
    [ "$(wc -l < m.err)" = 2 ] && grep -q "^libwrap: warning: cannot create the experiment directory /proc/none/exp" m.err &&
        grep -q "^libwrap: warning: .*rt_app (pid [0-9]*) sandboxes itself (seccomp): measurement ends here; its calls after it are not measured$" m.err ||
        fail "seccomp, unwritable: $(cat m.err)"
    ;;
filter)
    printf 'LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE lib_add\nLIBWRAP_REGION_NAMES_END\n' >ok.filter
    LIBWRAP_FILTERING_FILE=$PWD/ok.filter run 0 nest
    $CHECK exp "visits('lib_add') == 0" "visits('lib_call') == 3" "path('lib_call') == 2"
    [ ! -s err.txt ] || fail "unexpected messages: $(cat err.txt)"
    rm -rf exp
    printf 'LIBWRAP_REGION_NAMES_BEGIN\n  EXCLUDE lib_add\n  BOGUS x\n' >bad.filter
    LIBWRAP_FILTERING_FILE=$PWD/bad.filter run 0 nest
    [ "$(grep -c 'warning' err.txt)" = 1 ] || fail "expected one warning: $(cat err.txt)"
    grep -q 'bad.filter:[0-9]' err.txt || fail "the warning must name file:line: $(cat err.txt)"
    $CHECK exp "visits('lib_add') == 2"
    ;;
config)
    LIBWRAP_TIMER=sundial LIBWRAP_ENABLE_PROFILING=maybe LIBWRAP_TOTAL_MEMORY=lots LIBWRAP_JOB_GROUP_SIZE=-5 run 0 nest
    for v in "LIBWRAP_TIMER.*tsc, clock_gettime" "LIBWRAP_ENABLE_PROFILING.*true, false" \
        "LIBWRAP_TOTAL_MEMORY.*16M" 'LIBWRAP_JOB_GROUP_SIZE="-5" is not valid.*using 1000'; do
        grep -q "$v" err.txt || fail "no warning matching '$v': $(cat err.txt)"
    done
    [ "$(wc -l <err.txt)" = 4 ] || fail "one warning per invalid variable: $(cat err.txt)"
    $CHECK exp "visits('lib_add') == 2"
    for v in ENABLE_PROFILING ENABLE_TRACING EXPERIMENT_DIRECTORY FILTERING_FILE TIMER \
        COMPENSATE METRIC_PAPI METRIC_RUSAGE METRIC_PERF TOTAL_MEMORY VERBOSE; do
        grep -q "^LIBWRAP_$v=" exp/config.txt || fail "config.txt lacks LIBWRAP_$v"
    done
    grep -qx "LIBWRAP_TOTAL_MEMORY=16777216" exp/config.txt || fail "TOTAL_MEMORY default"
    rm -rf exp
    # LIBWRAP_ARGUMENTS=sizes where no function called has a size
    # parameter (rt_app's have no parameter tables): one warning at the end.
    LIBWRAP_ARGUMENTS=sizes run 0 nest
    [ "$(wc -l <err.txt)" = 1 ] && grep -q '^libwrap: warning: LIBWRAP_ARGUMENTS: no function .*rt_app (pid [0-9]*) called has a parameter declared size_t or ssize_t (rule "sizes"): it recorded nothing' err.txt ||
        fail "sizes recording nothing: not one warning: $(cat err.txt)"
    rm -rf exp
    # A process that calls nothing wrapped says nothing: the start-up's
    # warnings wait for a first call.
    LIBWRAP_TIMER=sundial LIBWRAP_THROTTLE=lots run 0 none
    [ ! -s err.txt ] || fail "a process that measured nothing warned: $(cat err.txt)"
    [ ! -e exp ] || fail "a process that measured nothing left a directory"
    LIBWRAP_TIMER=sundial LIBWRAP_VERBOSE=lifecycle run 0 none
    grep -q 'LIBWRAP_TIMER="sundial" is not valid' err.txt ||
        fail "LIBWRAP_VERBOSE: the start-up's warnings not written at once: $(cat err.txt)"
    rm -rf exp
    LIBWRAP_TIMER=clock_gettime LIBWRAP_TOTAL_MEMORY=1G run 0 nest
    $CHECK exp "prof['timer'] == 'clock_gettime'" "visits('lib_recurse') == 8"
    grep -qx "LIBWRAP_TIMER=clock_gettime" exp/config.txt || fail "config.txt timer"
    grep -qx "LIBWRAP_TOTAL_MEMORY=1073741824" exp/config.txt || fail "config.txt memory"
    rm -rf exp
    LIBWRAP_ENABLE_PROFILING=false run 0 nest
    [ ! -e exp ] || fail "profiling off must write no profile"
    LIBWRAP_VERBOSE=timer,lifecycle run 0 nest
    grep -q '\[timer\]' err.txt && grep -q '\[lifecycle\]' err.txt || fail "verbose domains: $(cat err.txt)"
    ! grep -q '\[region\]' err.txt || fail "a domain not asked for was logged"
    rm -rf exp
    # A directory that holds the user's own profile.json and profile.txt
    # (no config.txt of libwrap's): not claimed, nothing of it overwritten;
    # the next name is.
    rm -rf exp exp.1
    mkdir exp && echo mine > exp/profile.json && echo mine too > exp/profile.txt
    run 0 nest
    [ "$(cat exp/profile.json exp/profile.txt)" = "$(printf 'mine\nmine too')" ] || fail "the user's files were overwritten"
    [ ! -e exp/config.txt ] || fail "a directory with the user's files was claimed"
    $CHECK exp.1 "visits('lib_add') == 2"
    rm -rf exp exp.1
    unset LIBWRAP_EXPERIMENT_DIRECTORY
    run 0 nest
    set -- libwrap-[0-9]*
    [ $# = 1 ] || fail "default directory: $*"
    [[ $1 =~ ^libwrap-[0-9]{8}_[0-9]{6}_[0-9]+$ ]] || fail "default directory name $1"
    $CHECK "$1" "visits('lib_add') == 2" "prof['pid'] == int('$1'.rsplit('_', 1)[1])"
    ;;
exec)
    run 0 exec
    [ "$(cat out.txt)" = "after exec env kept" ] || fail "exec output: $(cat out.txt)"
    $CHECK exp "visits('lib_add') == 2"
    $CHECK exp.1 "visits('lib_add') == 3" "prof['pid'] == $(python3 -c "import json;print(json.load(open('exp/profile.json'))['pid'])")"
    ;;
running)
    run 0 running
    $CHECK exp "visits('lib_call') == 2" "visits('lib_add') == 2" "path('lib_call/lib_add') == 1" \
        "len(threads) == 3"
    ;;
trace)
    # Through the core: balanced events after longjmp, one location per
    # thread, and a fork or clone child that writes a trace of its own, of
    # its own calls: balanced, without the exit of the call open at the fork.
    printer=${OTF2_PRINT:-otf2-print}
    export LIBWRAP_ENABLE_TRACING=true
    run 0 longjmp
    $CHECK exp "visits('lib_jump') == 15" "visits('lib_add') == 9"
    "$printer" exp/traces.otf2 >events.txt
    [ "$(grep -c '^ENTER' events.txt)" = 30 ] || fail "expected 30 ENTER events"
    [ "$(grep -c '^LEAVE' events.txt)" = 30 ] || fail "expected 30 LEAVE events"
    rm -rf exp
    run 0 threads 3 1000
    "$printer" exp/traces.otf2 >events.txt
    [ "$(grep -c '^ENTER' events.txt)" = 3000 ] || fail "expected 3000 ENTER events"
    [ "$(awk '/^ENTER/ { print $2 }' events.txt | sort -u | wc -l)" = 3 ] || fail "expected 3 locations"
    rm -rf exp
    # child_trace DIR WHAT: the child's trace holds its 7 calls (6 lib_add,
    # lib_call), each entered and left, and nothing of the parent's.
    child_trace() {
        grep -qx LIBWRAP_ENABLE_TRACING=true "$1/config.txt" || fail "$2: the child's config.txt: not traced"
        "$printer" "$1/traces.otf2" >child.txt 2>child.err || fail "$2: the child's trace: $(head -3 child.err)"
        [ "$(grep -c '^ENTER' child.txt)" = 7 ] && [ "$(grep -c '^LEAVE' child.txt)" = 7 ] ||
            fail "$2: the child's trace: expected 7 ENTER and 7 LEAVE events: $(grep -cE '^(ENTER|LEAVE)' child.txt)"
        [ "$(grep -c '^ENTER.*"lib_add"' child.txt)" = 6 ] || fail "$2: the child's trace: expected 6 lib_add"
        ! grep -qE '"lib_(fork|clone)"' child.txt || fail "$2: the child's trace has the call open at the fork"
        $CHECK "$1" "visits('lib_add') == 6"
    }
    run 0 fork
    "$printer" exp/traces.otf2 >events.txt
    [ "$(grep -c '^ENTER' events.txt)" = 4 ] || fail "parent: expected 4 ENTER events"
    [ "$(grep -c '^LEAVE' events.txt)" = 4 ] || fail "parent: expected 4 LEAVE events"
    set -- exp/fork-*
    child_trace "$1" fork
    # The same for a clone() child whose function returns.
    rm -rf exp
    run 0 clone return
    "$printer" exp/traces.otf2 >events.txt
    [ "$(grep -c '^ENTER' events.txt)" = 4 ] || fail "clone parent: expected 4 ENTER events"
    set -- exp/fork-*
    child_trace "$1" clone
    # A daemon closes every descriptor above 2 while tracing and opens its
    # log, which must hold its own line only: the trace's temporary file
    # is neither written nor closed under the log's number; one warning.
    rm -rf exp
    "$APP" closefrom app.log >m.out 2>m.err || fail "closefrom: exit status $?"
    [ "$(cat app.log)" = "fd 3 sum 7" ] || fail "closefrom: the program's file holds: $(head -c 100 app.log | od -c | head -3)"
    [ "$(wc -l < m.err)" = 1 ] && grep -q "^libwrap: warning: otf2: .* events could not be written to '.*' (the program closed the trace's temporary file, descriptor [0-9]*); the trace is incomplete$" m.err ||
        fail "closefrom: not the one warning: $(cat m.err)"
    $CHECK exp "visits('lib_add') == 2"
    # A umask that takes the owner's rights: every file and directory of
    # the results, the trace's too, is the owner's to read and write; the
    # umask itself is left as it is (the program's own files keep it).
    rm -rf exp
    (umask 0777 && "$APP" nest) >m.out 2>m.err || fail "umask 0777: exit status $?"
    [ ! -s m.err ] || fail "umask 0777: $(cat m.err)"
    bad=$(find exp \( -type d ! -perm -700 \) -o \( -type f ! -perm -600 \))
    [ -z "$bad" ] || fail "umask 0777: without the owner's rights: $bad"
    "$printer" exp/traces.otf2 > /dev/null || fail "umask 0777: the trace does not read"
    ;;
metrics)
    LIBWRAP_METRIC_RUSAGE=ru_minflt,ru_nvcsw run 0 nest
    $CHECK exp "[m['name'] for m in prof['metrics']] == ['ru_minflt', 'ru_nvcsw']" \
        "all(set(f['metrics']) == {'ru_minflt', 'ru_nvcsw'} for f in prof['functions'])" \
        "set(threads[0]['callpath'][0]['metrics']) == {'ru_minflt', 'ru_nvcsw'}" \
        "visits('lib_recurse') == 8" "path('lib_call/lib_call/lib_add') == 1"
    grep -qx "LIBWRAP_METRIC_RUSAGE=ru_minflt,ru_nvcsw" exp/config.txt || fail "config.txt metric"
    grep -q "^ *visits .*ru_minflt *ru_nvcsw  function$" exp/profile.txt || fail "profile.txt has no metric columns"
    # A metric that is refused is not in config.txt's effective list; the
    # setting as given is a comment.
    rm -rf exp
    LIBWRAP_METRIC_RUSAGE="ru_minflt, ru_nosuch" run 0 nest
    grep -q "ru_nosuch" err.txt || fail "no warning for the refused metric"
    grep -qx "LIBWRAP_METRIC_RUSAGE=ru_minflt" exp/config.txt || fail "config.txt lists a refused metric: $(grep METRIC exp/config.txt)"
    grep -qx "# LIBWRAP_METRIC_RUSAGE as set: ru_minflt, ru_nosuch" exp/config.txt || fail "config.txt: the setting as given"
    grep -qx "LIBWRAP_METRIC_PAPI=none" exp/config.txt || fail "config.txt: no PAPI metric"
    # SYNC metrics: the measurement's cost is not compensated, and config.txt says why.
    grep -qx "# LIBWRAP_COMPENSATE as set: true (not applied: SYNC metrics are measured)" exp/config.txt ||
        fail "config.txt: compensation with metrics: $(grep COMPENSATE exp/config.txt)"
    $CHECK exp "not prof['compensation']['enabled']"
    ;;
compensate)
    # The measurement's own cost is taken out of the times (LIBWRAP_COMPENSATE,
    # on by default): never more than measured, never below 0, exclusive
    # within inclusive and callees within their caller (check_profile.py);
    # the calibration is in config.txt, with the least cost a call had
    # (`fastest`, which the shortest calls lose: below the mean cost).
    # Switched off, the measured times are the ones written. (How close the
    # times come to the truth is bench/overhead's to show, not a timed
    # test's.)
    run 0 threads 1 100000
    $CHECK exp "prof['compensation']['enabled']" \
        "prof['compensation']['typed']['total_ns'] > 0" \
        "prof['compensation']['typed']['inside_ns'] <= prof['compensation']['typed']['total_ns']" \
        "0 <= prof['compensation']['typed']['fastest_ns'] < prof['compensation']['typed']['inside_ns']" \
        "all(f['exclusive_ns'] <= f['exclusive_raw_ns'] and f['inclusive_ns'] <= f['inclusive_raw_ns'] for f in prof['functions'])" \
        "all(min(f['exclusive_ns'], f['inclusive_ns'], f['min_ns']) >= 0 for f in prof['functions'])" \
        "fn('lib_add')['exclusive_ns'] < fn('lib_add')['exclusive_raw_ns']" \
        "visits('lib_add') == 100000"
    grep -qx "LIBWRAP_COMPENSATE=true" exp/config.txt || fail "config.txt: LIBWRAP_COMPENSATE"
    grep -q "^# LIBWRAP_COMPENSATE calibration: timer=tsc mode=profile plain_ns=" exp/config.txt ||
        grep -q "^# LIBWRAP_COMPENSATE calibration: timer=clock_gettime" exp/config.txt ||
        fail "config.txt: no calibration: $(cat exp/config.txt)"
    grep -q "^times without the measurement's own cost" exp/profile.txt || fail "profile.txt: no note"
    rm -rf exp
    run 0 nest
    $CHECK exp "prof['compensation']['enabled']" "visits('lib_recurse') == 8"
    rm -rf exp
    LIBWRAP_COMPENSATE=false run 0 threads 1 100000
    $CHECK exp "not prof['compensation']['enabled']" "'exclusive_raw_ns' not in fn('lib_add')" \
        "fn('lib_add')['exclusive_ns'] == fn('lib_add')['inclusive_ns']"
    grep -qx "LIBWRAP_COMPENSATE=false" exp/config.txt || fail "config.txt: LIBWRAP_COMPENSATE=false"
    ! grep -q "calibration" exp/config.txt || fail "config.txt: a calibration while switched off"
    ;;
nothing)
    LIBWRAP_VERBOSE=timer run 0 none
    [ ! -e exp ] || fail "a run without measured calls must leave no directory"
    # Nothing to write: no tick rate, and no wait for one (timer.c).
    ! grep -q 'calibrated' err.txt || fail "a run without results calibrated its timer: $(cat err.txt)"
    ;;
timer)
    # A run of a few ms: its 3 ms call (after one that takes the
    # measurement's one-time costs) as long in the profile as the program's
    # own clock says, with the tick rate measured over that span alone.
    # A preemption between the program's clock and the wrapper (a loaded
    # machine) is the program's time and not the call's: three tries.
    for timer in tsc clock_gettime; do
        for try in 1 2 3; do
            rm -rf exp
            LIBWRAP_TIMER=$timer LIBWRAP_VERBOSE=timer run 0 timer
            ns=$(sed -n 's/^timer [0-9]* //p' out.txt)
            [ -n "$ns" ] || fail "$timer: program output lost: $(cat out.txt)"
            if $CHECK exp "visits('lib_call') == 2" \
                "$ns * 0.99 - 20000 <= fn('lib_call')['max_ns'] <= $ns * 1.01 + 1000"; then
                break
            fi
            [ $try -lt 3 ] || fail "$timer: the call's time is not the program's $ns ns, three times"
        done
        [ $timer = clock_gettime ] || grep -q '\[timer\] calibrated: .* over ' err.txt ||
            fail "$timer: no calibration: $(cat err.txt)"
    done
    ;;
*)
    fail "unknown scenario"
    ;;
esac
echo "PASS $scenario"
