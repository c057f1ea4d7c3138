#!/usr/bin/env bash
# throttle.sh - tests/throttle on AArch64 with the default (ABI-level)
# wrappers: LIBWRAP_THROTTLE in both linkages, the leaf path (a visit
# counted, no frame), the path that keeps its frames (thr_tail, whose tail
# call of thr_leaf is wrapped under LD_PRELOAD) and its return point,
# exact visits on every call path, the marks in profile.json, profile.txt
# and libwrap-report, and the same call paths as through the C hooks.
source "$LIBWRAP_SOURCE_DIR/tests/aarch64/lib.sh"
CC=aarch64-linux-gnu-gcc LW_TEST_HOST=$host exec bash "$LIBWRAP_SOURCE_DIR/tests/throttle/throttle.sh"
