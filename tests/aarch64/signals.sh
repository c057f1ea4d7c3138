#!/usr/bin/env bash
# signals.sh - tests/signals on AArch64 with the default (ABI-level)
# wrappers: signal handlers that call the wrapped library while the
# program calls it (timers every millisecond land in the trampoline's fast
# paths and the runtime), an assembly loop that checks x19-x28 and d8-d15
# after each call (sigloop.S), a C loop, zlib; identical output and exact
# visits in both linkages, throttled (the registers loop and zlib,
# LIBWRAP_THROTTLE) and with arguments recorded (the trampoline's
# recording path, handlers landing in its hook); a handler that leaves by
# siglongjmp, five runs
# of each linkage (under the emulator a thread's first call, which reads
# /proc/self/maps, takes milliseconds: the timers land in it, and its
# signals are held back until it is over, docs/runtime.md "Signal
# handlers"; the handlers land in the runtime's other steps often enough
# that the jumps leave one of them in some runs, where the visits may fall
# short but never exceed the calls). Not the nested scenario: under the
# emulator a timer lands in a new thread's first (slow) call often enough
# that its handler's calls are lost with a warning, which makes stderr
# differ by timing.
source "$LIBWRAP_SOURCE_DIR/tests/aarch64/lib.sh"
CC=aarch64-linux-gnu-gcc LW_TEST_HOST=$host SIGLOOP=$lane/sigloop.S SIGNAL_SCENARIOS="regs cloop zlib" SIGNAL_JUMP_RUNS=5 \
    exec bash "$LIBWRAP_SOURCE_DIR/tests/signals/signals.sh" abi
