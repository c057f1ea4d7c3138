#!/usr/bin/env bash
# emulator.sh - makes this machine run AArch64 Linux programs, for the
# AArch64 lane of the tests (tests/aarch64) and `make installcheck` of a
# cross-wrapping directory. On an AArch64 machine there is nothing to do.
# Elsewhere it checks that an AArch64 program runs; if not, it mounts
# binfmt_misc and registers qemu-aarch64 (qemu-user-static) with the F flag,
# so that the kernel opens the emulator now and it works in every mount
# namespace and chroot. Idempotent. Exit 0: AArch64 programs run here; 77:
# they cannot, with one line that says why.
#   tests/aarch64/emulator.sh [-q]      -q: print nothing when they run
set -uo pipefail
quiet=${1:-}
say() { [ "$quiet" = -q ] || echo "$@"; }
skip() { echo "aarch64 lane skipped: $*"; exit 77; }

[ "$(uname -m)" = aarch64 ] && { say "aarch64: native"; exit 0; }
command -v aarch64-linux-gnu-gcc > /dev/null ||
    skip "no aarch64-linux-gnu-gcc (scripts/install-deps.sh installs gcc-aarch64-linux-gnu)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <stdio.h>\nint main(void) { puts("aarch64 ok"); return 0; }\n' > "$tmp/probe.c"
aarch64-linux-gnu-gcc "$tmp/probe.c" -o "$tmp/probe" 2> "$tmp/cc.err" ||
    skip "aarch64-linux-gnu-gcc cannot build a program: $(head -n 1 "$tmp/cc.err")"
runs() { [ "$("$tmp/probe" 2>/dev/null)" = "aarch64 ok" ]; }
runs && { say "aarch64: runs through binfmt_misc ($(sed -n 's/^interpreter //p' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null))"; exit 0; }

emu=$(command -v qemu-aarch64-static || true)
[ -n "$emu" ] || skip "qemu-aarch64-static is not installed (scripts/install-deps.sh installs qemu-user-static)"
# The program's libraries: Debian's arm64 multiarch packages (libc6:arm64).
[ -e /lib/ld-linux-aarch64.so.1 ] ||
    skip "/lib/ld-linux-aarch64.so.1 is missing (scripts/install-deps.sh installs libc6:arm64)"
bm=/proc/sys/fs/binfmt_misc
if [ ! -e "$bm/register" ]; then
    mount -t binfmt_misc binfmt_misc "$bm" 2> "$tmp/mount.err" ||
        skip "binfmt_misc is not mounted and cannot be (mount -t binfmt_misc binfmt_misc $bm: $(head -n 1 "$tmp/mount.err")); AArch64 programs need root or a registered emulator"
fi
if [ -e "$bm/qemu-aarch64" ]; then
    # Registered but disabled, or registered without F (the interpreter
    # missing in this namespace): enable, or register again with F.
    if ! grep -q '^flags:.*F' "$bm/qemu-aarch64"; then
        echo -1 > "$bm/qemu-aarch64" 2>/dev/null
    else
        echo 1 > "$bm/qemu-aarch64" 2>/dev/null
    fi
fi
if [ ! -e "$bm/qemu-aarch64" ]; then
    magic='\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
    mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
    # Another test may register it at the same moment: then it runs.
    printf ':qemu-aarch64:M::%s:%s:%s:F\n' "$magic" "$mask" "$emu" > "$bm/register" 2> "$tmp/reg.err" || runs ||
        skip "cannot register qemu-aarch64 with binfmt_misc ($bm/register: $(head -n 1 "$tmp/reg.err")); run tests/aarch64/emulator.sh as root once"
fi
runs || skip "qemu-aarch64 is registered with binfmt_misc, but an AArch64 program still does not run ($("$tmp/probe" 2>&1 | head -n 1))"
say "aarch64: qemu-aarch64 registered with binfmt_misc ($emu)"
exit 0
