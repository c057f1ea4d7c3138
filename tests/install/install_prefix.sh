#!/usr/bin/env bash
# Installs the build tree into a scratch prefix and checks that the prefix is
# a complete toolchain: commands, generator, runtime, header, templates,
# filters, CMake package config and pkg-config file, and that a program and
# a CMake project build against it and a wrapper made there measures calls.
set -euo pipefail
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
scratch=$LIBWRAP_SCRATCH
prefix=$scratch/prefix

cmake --install "$LIBWRAP_BINARY_DIR" --prefix "$prefix" >install.log
for f in bin/libwrap-init bin/libwrap bin/libwrap-info bin/libwrap-report \
         libexec/libwrap/libwrap-gen libexec/libwrap/anchors.sh lib/liblibwrap_runtime.so \
         lib/liblibwrap_audit.so lib/liblibwrap_exec.a include/libwrap/libwrap.h \
         lib/cmake/libwrap/libwrapConfig.cmake lib/cmake/libwrap/libwrapConfigVersion.cmake \
         lib/pkgconfig/libwrap.pc share/libwrap/templates share/libwrap/filters; do
  [ -e "$prefix/$f" ] || fail "missing in the installed prefix: $f"
done
# The installed templates are real files, not links into the source tree.
[ -L "$prefix/share/libwrap/templates" ] && fail "share/libwrap/templates is a symlink"

# A program using the runtime API through pkg-config.
cat > api.c <<'C'
#include <libwrap/libwrap.h>
#include <stdio.h>
static libwrap_region r = LIBWRAP_REGION_INIT("work", "work", "api.c", 1);
static int work(int x) { return x * 2; }
int main(void)
{
    int sum = 0;
    for (int i = 0; i < 10; i++) {
        int32_t id = libwrap_region_id(&r);
        int rec = id > 0 ? libwrap_enter(id, __builtin_frame_address(0)) : 0;
        sum += work(i);
        if (rec)
            libwrap_exit(id);
    }
    printf("%d\n", sum);
    return 0;
}
C
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046
${CC:-cc} -Wall -Werror api.c -o api $(pkg-config --cflags --libs libwrap)
out=$(LIBWRAP_EXPERIMENT_DIRECTORY=$scratch/exp ./api)
[ "$out" = 90 ] || fail "api printed '$out', expected 90"
python3 - "$scratch/exp/profile.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
v = {f["symbol"]: f["visits"] for f in p["functions"]}
assert v.get("work") == 10, v
PY

# A CMake project using find_package(libwrap).
mkdir -p cm && cat > cm/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.18)
project(consumer C)
find_package(libwrap 0.1 REQUIRED)
add_executable(api ../api.c)
target_link_libraries(api PRIVATE libwrap::runtime)
if(NOT EXISTS "${LIBWRAP_BIN_DIR}/libwrap-init")
  message(FATAL_ERROR "LIBWRAP_BIN_DIR is wrong: ${LIBWRAP_BIN_DIR}")
endif()
CM
cmake -S cm -B cm/build -DCMAKE_PREFIX_PATH="$prefix" >cm.log
cmake --build cm/build >>cm.log
LIBWRAP_EXPERIMENT_DIRECTORY=$scratch/exp2 cm/build/api >/dev/null
[ -f "$scratch/exp2/profile.json" ] || fail "the CMake consumer wrote no profile"

# The installed commands answer.
"$prefix/bin/libwrap-info" list >/dev/null || fail "libwrap-info list failed"
"$prefix/bin/libwrap-init" --help >/dev/null || fail "libwrap-init --help failed"

# The whole workflow with the installed toolchain alone: the ring example
# through libwrap-init, make, make install and make installcheck (the audit
# module, the generator's subcommands, the installed-wrapper lookup).
(
    export PATH=$prefix/bin:$PATH
    unset LIBWRAP_PATH LIBWRAP_EXPERIMENT_DIRECTORY
    bash "$LIBWRAP_SOURCE_DIR/examples/ring/init.sh" "$scratch/ring" > ring-init.log 2>&1 ||
        { cat ring-init.log; fail "examples/ring/init.sh with the installed libwrap-init"; }
    grep -q "^LIBWRAP_TOOLCHAIN = $prefix\$" "$scratch/ring/wrap/Makefile" || fail "the Makefile does not name the installed toolchain"
    make -C "$scratch/ring/wrap" all install installcheck > ring-make.log 2>&1 ||
        { cat ring-make.log; fail "make, make install, make installcheck with the installed toolchain"; }
    grep -q 'OK .*linktime: 7 wrapped functions' ring-make.log && grep -q 'OK .*runtime: 7 wrapped functions' ring-make.log ||
        { cat ring-make.log; fail "installcheck with the installed toolchain"; }
    LIBWRAP_PATH=$scratch/ring/prefix "$prefix/bin/libwrap-info" preload ring > /dev/null || fail "libwrap-info preload ring"
) || exit 1
echo "install_prefix: 1 passed, 0 failed"
