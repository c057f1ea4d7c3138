#!/usr/bin/env bash
# signals.sh KIND
#
# Signal handlers that call the wrapped library while the program calls it
# too (sigapp.c): an assembly loop that checks every callee-saved register
# after each call, a C loop (errno kept), SA_NODEFER, a signal raised in a
# handler, a handler on a sigaltstack making nested wrapped calls, a handler
# that leaves by siglongjmp, and zlib (crc32 in the handler, adler32 in
# main). Timers fire every millisecond, so signals land inside the
# wrappers and the runtime. With wrappers of KIND (abi: the default
# ABI-level forwarding; typed) in both linkages, built as the generated
# Makefile builds them: stdout, stderr and the exit status must equal the
# unwrapped run's, and every function's visits must be the calls made,
# the handlers' included. ABI-level wrappers again with every function
# throttled after 4,096 calls (LIBWRAP_THROTTLE): the registers loop and
# zlib, whose adler32 calls adler32_z and keeps its frames; and with a
# listener that takes each call. Under gdb: a handler that jumps out of
# the fast exit between a visit and its time (window, x86-64), out of a
# throttled call between its visit and its count as not timed (untimed),
# or out of an entry at its timestamp (entry; these two on AArch64 too,
# through the emulator's debugger stub).
set -euo pipefail

kind=$1
src=$LIBWRAP_SOURCE_DIR/tests/signals
# LW_TEST_HOST (tests/aarch64/signals.sh): another machine's wrappers,
# its runtime in lib/HOST and its assembly loop in SIGLOOP.
rtlib=$LIBWRAP_STAGE/lib${LW_TEST_HOST:+/$LW_TEST_HOST}
TEST_LABEL="signals $kind"
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
here=$PWD
cc=${CC:-cc}

$cc -O2 -g -fPIC -shared -Wl,-soname,libsig.so -o libsig.so "$src/siglib.c"
$cc -O2 -g -I"$src" -c "$src/sigapp.c" -o sigapp.o
$cc -g -c "${SIGLOOP:-$src/sigloop.S}" -o sigloop.o

wrap_library sig '"siglib.h"' "-I$src" "-L$here" -lsig --forward $kind
wrap_library zlib '<zlib.h>' "" "" -lz --forward $kind
rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib" -Wl,-rpath,"$here")

$cc -o plain sigapp.o sigloop.o -L. -lsig -lz -Wl,-rpath,"$here"
$cc -o linked sigapp.o sigloop.o -Wl,@gen-sig/sig.wrap -Wl,@gen-zlib/zlib.wrap -L. \
    -lwrap_sig_linktime -lwrap_zlib_linktime -lsig -lz "${rt[@]}"
preload="$here/libwrap_sig_runtime.so $here/libwrap_zlib_runtime.so"

# run SCENARIO MODE COMMAND...
run() {
    local scenario=$1 mode=$2
    shift 2
    local name=$scenario-$mode dir=$here/exp-$scenario-$mode s=0 ps=0
    rm -rf "$dir"
    ./plain $scenario plain-$scenario.counts > plain-$name.out 2> plain-$name.err || ps=$?
    LIBWRAP_EXPERIMENT_DIRECTORY="$dir" "$@" $scenario $name.counts > $name.out 2> $name.err || s=$?
    [ "$s" = "$ps" ] || { cat $name.err >&2; fail "$name: exit status $s, unwrapped $ps"; }
    local err=$name.err
    if [ $scenario = jump ]; then
        # A handler that leaves the runtime by siglongjmp stops that
        # thread's measurement with one warning (docs/runtime.md).
        grep -v '^libwrap: warning: a signal handler that interrupted the runtime was left by longjmp' \
            $name.err > $name.err.kept || true
        err=$name.err.kept
    fi
    cmp -s plain-$name.out $name.out || { diff plain-$name.out $name.out >&2 || true; fail "$name: stdout differs"; }
    cmp -s plain-$name.err $err || { diff plain-$name.err $err >&2 || true; fail "$name: stderr differs"; }
    # The calls made, from the program's own counts.
    local c
    c=$(tr '\n' ' ' < $name.counts)
    local internal=0
    case $mode in preload*) internal=2 ;; esac
    $CHECK "$dir" "all(f['min_ns'] <= f['max_ns'] for f in prof['functions'])" ||
        fail "$name: the profile is not consistent"
    python3 "$src/check_counts.py" "$dir" $name.counts $scenario $internal ||
        fail "$name: visits differ from the calls made"
    echo "ok $name ($c)"
}

# SIGNAL_SCENARIOS: a subset (tests/aarch64/signals.sh).
for scenario in ${SIGNAL_SCENARIOS:-regs cloop nested zlib}; do
    run $scenario linktime ./linked
    run $scenario preload env LD_PRELOAD="$preload" ./plain
done
# Throttled (ABI-level wrappers, on x86-64 and AArch64): the leaf path
# (sig_add, sig_tick), and adler32, which keeps its frames.
if [ $kind = abi ]; then
    for scenario in regs zlib; do
        run $scenario preload-throttled env LIBWRAP_THROTTLE=16:1000000000 LD_PRELOAD="$preload" ./plain
        grep -q '^throttled (LIBWRAP_THROTTLE): ' exp-$scenario-preload-throttled/profile.txt ||
            fail "$scenario-preload-throttled: nothing was throttled"
    done
    $CHECK exp-zlib-preload-throttled "fn('adler32').get('throttled')" \
        "any(p.endswith('adler32/adler32_z') for p in paths)" ||
        fail "zlib-preload-throttled: adler32 is not throttled with its frames"
fi
# Recorded arguments (ABI-level: the trampoline's recording path, which
# calls a hook between the entry's checks and its timestamp; on AArch64
# too): the same output and visits, and every call that main makes
# recorded, a value for each visit. Handlers' calls that interrupted the
# runtime are measured without their values (docs/arguments.md).
declare -A args=([regs]='sig_*:*,sig_*:return' [zlib]='adler32*:len,crc32*:len')
for scenario in regs zlib; do
    run $scenario preload-args env LIBWRAP_ARGUMENTS="${args[$scenario]}" LD_PRELOAD="$preload" ./plain
    run $scenario linktime-args env LIBWRAP_ARGUMENTS="${args[$scenario]}" ./linked
done
for mode in preload-args linktime-args; do
    $CHECK exp-regs-$mode "[a['count'] for a in fn('sig_add')['arguments']] == [visits('sig_add')] * 3" \
        "visits('sig_add') > 0" ||
        fail "regs-$mode: sig_add's arguments were not recorded at each call"
    # adler32_z too under LD_PRELOAD, where adler32's call of it is measured.
    $CHECK exp-zlib-$mode "[a['count'] for a in fn('adler32')['arguments']] == [visits('adler32')]" \
        "all(a['count'] == f['visits'] for f in prof['functions'] if f['symbol'] == 'adler32_z' for a in f['arguments'])" \
        "fn('adler32')['arguments'][0]['min'] == fn('adler32')['arguments'][0]['max'] > 0" ||
        fail "zlib-$mode: adler32's len was not recorded at each call"
done
# A listener that takes each call and changes every register it may
# (tests/abi/clobber_listener.c): the handlers land in its delivery too.
if [ $kind = abi ] && [ -z "${LW_TEST_HOST:-}" ]; then
    $cc -O2 -fPIC -shared -fvisibility=hidden -I"$LIBWRAP_STAGE/include" -o libwrap_plugin_clobber.so \
        "$LIBWRAP_SOURCE_DIR/tests/abi/clobber_listener.c"
    for scenario in regs zlib; do
        rm -f clobber-$scenario.txt
        run $scenario preload-listener env LIBWRAP_LISTENERS=$here/libwrap_plugin_clobber.so \
            CLOBBER_OUT=$here/clobber-$scenario.txt LD_PRELOAD="$preload" ./plain
        calls=$(python3 -c 'import json, sys; print(sum(f["visits"] for f in json.load(open(sys.argv[1]))["functions"]))' \
            exp-$scenario-preload-listener/profile.json)
        # Every call but those of handlers that interrupted the runtime
        # (no events, docs/runtime.md), each once, nested, in time order.
        main=$(awk '$1 == "main_add" || $1 == "nest_main" || $1 == "adler" { n += $2 } END { print n }' \
            $scenario-preload-listener.counts)
        read -r _ enters _ exits _ errors < clobber-$scenario.txt
        [ "$enters" = "$exits" ] && [ "$errors" = 0 ] && [ "$enters" -le "$calls" ] && [ "$enters" -ge "$main" ] ||
            fail "$scenario-preload-listener: the listener saw $(cat clobber-$scenario.txt), the profile $calls calls ($main outside handlers)"
    done
fi
# Under a debugger, on x86-64 here and for AArch64 through the emulator's
# debugger stub, a call stopped at one instruction of the trampoline, SIGUSR1
# sent there, and the handler leaves by siglongjmp:
#   - untimed: a throttled call that is not timed, between its visit and its
#     count as not timed (lw_abi_untimed_count): the dispatcher makes the
#     count first (one more), the thread is measured on without a warning,
#     every call counted;
#   - entry: a call at its fast entry's timestamp (lw_abi_enter_time), 200
#     ms after a call at the same depth: its frame is not on the thread's
#     stack yet, so no call is counted with that call's start.
# debug_jump SCENARIO LABEL NODE_REG [VAR=VALUE...]: gdb's output and the
# program's in SCENARIO.gdb, the profile in exp-SCENARIO; with a NODE_REG,
# "counted: N" is what lw_node.unmeasured of the node in that register
# gained across the jump.
debug_jump() {
    local scenario=$1 label=$2 reg=$3 start prog port qemu_pid try
    shift 3
    local before=() after=()
    if [ -n "$reg" ]; then
        before=(-ex "set \$node = $reg" -ex "set \$before = *(long *)(\$node + $unmeasured)")
        after=(-ex "printf \"counted: %d\\n\", *(long *)(\$node + $unmeasured) - \$before")
    fi
    local env=(LD_PRELOAD="$preload" LIBWRAP_EXPERIMENT_DIRECTORY="$here/exp-$scenario" "$@")
    # A port of the emulator's stub that another process took: another try.
    for try in 1 2 3; do
        rm -rf exp-$scenario $scenario.out $scenario.gdb
        if [ -n "${LW_TEST_HOST:-}" ]; then
            port=$((20000 + RANDOM % 20000))
            local qemu=(timeout 300 qemu-aarch64-static -g $port -L /usr/$LW_TEST_HOST)
            for e in "${env[@]}"; do qemu+=(-E "$e"); done
            "${qemu[@]}" ./plain $scenario $scenario.counts > $scenario.out 2>&1 &
            qemu_pid=$!
            start=(-ex 'set sysroot /' -ex "target remote :$port" -ex 'break window_ready' -ex 'continue'
                -ex 'delete' -ex 'sharedlibrary')
            prog=(./plain)
        else
            start=(-ex 'set startup-with-shell off')
            for e in "${env[@]}"; do start+=(-ex "set environment $e"); done
            start+=(-ex 'break window_ready' -ex 'run' -ex 'delete')
            prog=(--args ./plain $scenario $scenario.counts)
        fi
        timeout 300 "$gdb" -nx -batch -ex 'set breakpoint pending on' "${start[@]}" \
            -ex "break $label" -ex 'continue' -ex 'delete' \
            -ex "printf \"stopped at $label: %d\\n\", \$pc == (long)&$label" \
            "${before[@]}" -ex 'break jumped' -ex 'signal SIGUSR1' -ex 'delete' "${after[@]}" -ex 'continue' \
            "${prog[@]}" > $scenario.gdb 2>&1 || true
        if [ -n "${LW_TEST_HOST:-}" ]; then
            # Ended with the program; still waiting for a debugger if gdb
            # could not reach it.
            kill $qemu_pid 2> /dev/null || true
            wait $qemu_pid 2> /dev/null || true
        fi
        cat $scenario.out >> $scenario.gdb 2>/dev/null || true
        [ -z "${LW_TEST_HOST:-}" ] || grep -q "^stopped at $label: " $scenario.gdb || continue
        break
    done
    grep -qx "stopped at $label: 1" $scenario.gdb ||
        fail "$scenario: no call was stopped at $label: $(tail -5 $scenario.gdb)"
    grep -qx "$scenario: 1 jumps" $scenario.gdb || fail "$scenario: the handler did not jump once: $(tail -5 $scenario.gdb)"
    ! grep -q 'left by longjmp' $scenario.gdb || fail "$scenario: the jump stopped the thread's measurement"
}
if [ $kind = abi ] && { [ -z "${LW_TEST_HOST:-}" ] && [ "$(uname -m)" = x86_64 ] ||
    [ "${LW_TEST_HOST:-}" = aarch64-linux-gnu ]; }; then
    gdb=$(command -v gdb-multiarch || command -v gdb) || fail "no gdb (scripts/install-deps.sh installs it)"
    unmeasured=$(awk '$2 == "LW_N_UNMEASURED" { print $3 }' "$LIBWRAP_SOURCE_DIR/runtime/core/abi/abi.h")
    if [ -n "${LW_TEST_HOST:-}" ]; then node='$x11'; else node='$rdx'; fi
    debug_jump untimed lw_abi_untimed_count "$node" LIBWRAP_THROTTLE=16:1000000000
    grep -qx 'counted: 1' untimed.gdb || fail "untimed: the interrupted call is not counted as not timed: $(grep counted untimed.gdb)"
    adds=$(awk '$1 == "main_add" {print $2}' untimed.counts)
    $CHECK exp-untimed "visits('sig_add') == $adds == 10000" "fn('sig_add').get('throttled')" ||
        fail "untimed: sig_add's visits are not the calls made, or it was not throttled"
    echo "ok untimed"
    debug_jump entry lw_abi_enter_time ''
    spins=$(awk '$1 == "spin" {print $2}' entry.counts)
    $CHECK exp-entry "visits('sig_spin') == $spins == 2" "fn('sig_spin')['max_ns'] < 100e6" ||
        fail "entry: the interrupted call was counted, or with another call's start"
    echo "ok entry"
fi
# The jump: the output is the program's; the handler's calls are counted
# exactly when no jump left the runtime, and never more than were made.
# SIGNAL_JUMP_RUNS (1): runs of each linkage (tests/aarch64/signals.sh: 5).
jump_runs=${SIGNAL_JUMP_RUNS:-1}
for mode in $(for ((r = 0; r < jump_runs; r++)); do echo linktime preload; done); do
    if [ $mode = linktime ]; then cmd=(./linked); else cmd=(env LD_PRELOAD="$preload" ./plain); fi
    s=0
    rm -rf exp-jump-$mode
    LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-jump-$mode "${cmd[@]}" jump jump-$mode.counts \
        > jump-$mode.out 2> jump-$mode.err || s=$?
    ./plain jump plain-jump.counts > plain-jump.out 2> plain-jump.err
    [ "$s" = 0 ] || fail "jump-$mode: exit status $s"
    cmp -s plain-jump.out jump-$mode.out || fail "jump-$mode: stdout differs"
    { grep -v '^libwrap: warning: a signal handler that interrupted the runtime was left by longjmp' \
        jump-$mode.err || true; } | cmp -s plain-jump.err - || fail "jump-$mode: stderr differs: $(cat jump-$mode.err)"
    ticks=$(awk '$1 == "tick" {print $2}' jump-$mode.counts)
    if grep -q 'left by longjmp' jump-$mode.err && [ ! -d exp-jump-$mode ]; then
        # Left during the thread's first, slow call (its registration):
        # nothing was measured, so no results (likelier under an emulator).
        :
    elif grep -q 'left by longjmp' jump-$mode.err; then
        $CHECK exp-jump-$mode "visits('sig_tick') <= $ticks" || fail "jump-$mode: more visits than calls"
    else
        $CHECK exp-jump-$mode "visits('sig_tick') == $ticks" || fail "jump-$mode: visits differ"
    fi
    echo "ok jump-$mode"
done
# The window: a debugger stops the x86-64 trampoline's fast exit at its one
# instruction between a call's visit and its time (lw_abi_exit_time), in
# the first of two calls of sig_spin of about the same time, and sends
# SIGUSR1 there; the handler leaves by siglongjmp. The dispatcher adds the
# time first, so the interrupted call counts with its visit and its time.
# The output stays the program's.
if [ $kind = abi ] && [ -z "${LW_TEST_HOST:-}" ] && [ "$(uname -m)" = x86_64 ]; then
    gdb=$(command -v gdb || command -v gdb-multiarch) || fail "window: no gdb (scripts/install-deps.sh installs it)"
    ./plain window plain-window.counts > plain-window.out 2> plain-window.err
    rm -rf exp-window
    "$gdb" -nx -batch -ex 'set breakpoint pending on' -ex 'set startup-with-shell off' \
        -ex "set environment LD_PRELOAD=$preload" -ex "set environment LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-window" \
        -ex 'break window_ready' -ex 'run' -ex 'delete' \
        -ex 'break lw_abi_exit_time' -ex 'continue' -ex 'delete' \
        -ex 'printf "stopped at the window: %d\n", $pc == (long)&lw_abi_exit_time' -ex 'signal SIGUSR1' \
        --args ./plain window window.counts > window.gdb 2>&1 || fail "window: gdb failed: $(tail -3 window.gdb)"
    grep -qx 'stopped at the window: 1' window.gdb || fail "window: the exit was not stopped at lw_abi_exit_time: $(tail -5 window.gdb)"
    grep -qx 'window: 1 jumps' window.gdb || fail "window: the handler did not jump once: $(tail -5 window.gdb)"
    grep -q 'exited normally' window.gdb || fail "window: the program did not end normally: $(tail -5 window.gdb)"
    spins=$(awk '$1 == "spin" {print $2}' window.counts)
    # Both calls with their times: their sum exceeds the longer one (a
    # visit without its time would leave the sum at the second call's,
    # and the minimum clamped to half of it).
    $CHECK exp-window "visits('sig_spin') == $spins == 2" "fn('sig_spin')['inclusive_ns'] > fn('sig_spin')['max_ns']" ||
        fail "window: the interrupted call's time is not counted with its visit"
    echo "ok window"
fi
