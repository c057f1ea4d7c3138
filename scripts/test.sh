#!/usr/bin/env bash
# Runs the whole libwrap test suite from a clean clone: installs what is
# missing (Debian 12, as root), configures, builds, and runs ctest.
#   scripts/test.sh [ctest args...]      e.g. scripts/test.sh -L generator
# BUILD_DIR (default ./build) selects the build directory.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$here/build}
jobs=${JOBS:-$(nproc)}

LIBWRAP_WITH_CHROMIUM=1 bash "$here/scripts/install-deps.sh"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" -j "$jobs"
# The AArch64 lane (tests/aarch64) runs its programs through qemu-aarch64:
# registered with binfmt_misc here where the kernel allows it; otherwise its
# tests skip, and this says why in one line.
bash "$here/tests/aarch64/emulator.sh" || true
ctest --test-dir "$build" -j "$jobs" --output-on-failure --timeout 900 "$@"
