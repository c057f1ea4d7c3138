#!/usr/bin/env bash
# cxx.sh - C++ on AArch64 with the default (ABI-level) wrappers:
# tests/generator/cxx/geo.sh built by aarch64-linux-gnu-g++ against the
# target's runtime (methods, constructors and destructors, virtual methods,
# objects returned through x8, an exception thrown through a measured call
# to the driver's catch, a missing original), the same visits as on x86-64.
source "$LIBWRAP_SOURCE_DIR/tests/aarch64/lib.sh"
command -v aarch64-linux-gnu-g++ > /dev/null ||
    { echo "aarch64 lane skipped: no aarch64-linux-gnu-g++ (scripts/install-deps.sh installs g++-aarch64-linux-gnu)"; exit 77; }
# The expected visits are x86-64's (tests/generator/cxx) but for two
# differences of the platform, not of the wrappers: va_list mangles as
# St9__va_list, and g++ for AArch64 calls Square::area() of `new Square`
# directly (devirtualised), so ld --wrap sees that call too.
CXX=aarch64-linux-gnu-g++ GEO_TARGET=$host GEO_EXPECTED=$lane/geo-expected \
    exec bash "$LIBWRAP_SOURCE_DIR/tests/generator/cxx/geo.sh" "$LIBWRAP_STAGE/lib/$host/liblibwrap_runtime.so" - abi
