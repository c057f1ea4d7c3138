#!/bin/bash
# tests/abi/hooks_calls.sh RUNTIME_BUILD_DIR - the ABI trampoline's C hooks
# (runtime/core/abi/abi.c, built with -mgeneral-regs-only) call nothing
# outside the runtime: a function of the C library, such as the memmove a
# compiler makes of a loop that shifts an array, may use the vector
# registers that hold the wrapped function's arguments and results. Every
# symbol an abi.c object leaves undefined is the runtime's own (lw_*), the
# GOT, or clock_gettime (the timer's, without vector registers).
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
mapfile -t objs < <(find "$1" -name abi.c.o | sort)
[ ${#objs[@]} -gt 0 ] || fail "no abi.c object under $1"
for o in "${objs[@]}"; do
    bad=$(nm -u "$o" | awk '{ print $2 }' | grep -v -E '^(lw_|_GLOBAL_OFFSET_TABLE_$|clock_gettime$)' || true)
    [ -z "$bad" ] || fail "${o#"$1"/} calls outside the runtime: $(echo $bad)"
done
echo "PASS: ${#objs[@]} objects of abi.c call nothing outside the runtime"
