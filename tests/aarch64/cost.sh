#!/usr/bin/env bash
# cost.sh - instructions per wrapped call on AArch64 (docs/abi.md): the
# loop of bench/overhead with the default wrapper, one call counted
# instruction by instruction under the emulator's gdb stub
# (bench/overhead/aarch64_count.sh); at most 120 with the call, the PLT
# entry and the wrapper. Deterministic: the count, not a time.
source "$LIBWRAP_SOURCE_DIR/tests/aarch64/lib.sh"
command -v gdb-multiarch > /dev/null ||
    { echo "aarch64 lane skipped: no gdb-multiarch to count instructions (scripts/install-deps.sh installs it)"; exit 77; }
[ "$(uname -m)" != aarch64 ] || { echo "aarch64_cost skipped: counts under qemu-aarch64, on other machines"; exit 77; }
out=$(LIMIT=120 bash "$LIBWRAP_SOURCE_DIR/bench/overhead/aarch64_count.sh" "$LIBWRAP_BINARY_DIR" 2>&1) ||
    { echo "$out" >&2; fail "the wrapped call costs more than 120 instructions, or the count failed"; }
echo "$out" | grep '^aarch64 instructions'
