#!/usr/bin/env bash
# The main job on a bundled example, from a clean clone (Debian 12, as root):
# installs what is missing, builds the toolchain, wraps the example library
# examples/ring, measures its example program in both modes (make
# installcheck), measures the unmodified program ring_app with LD_PRELOAD,
# and shows the profile and the path of the HTML report.
#   scripts/demo.sh            BUILD_DIR (default ./build) selects the build directory
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$here/build}
demo=$build/demo

bash "$here/scripts/install-deps.sh"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
export PATH=$build/stage/bin:$PATH

echo "== libwrap-init: a working directory for the ring library"
rm -rf "$demo"
"$here/examples/ring/init.sh" "$demo"
cd "$demo/wrap"

echo "== make: generate and build the wrappers; make check; make install"
make
make check
make install

echo "== make installcheck: main linked with the wrapper in both modes, measured"
make installcheck

echo "== LD_PRELOAD: the unmodified program ring_app (it also dlopen()s a plugin), traced"
export LIBWRAP_PATH=$demo/prefix
exp=$demo/experiment
rm -rf "$exp"
(cd "$demo" && LIBWRAP_EXPERIMENT_DIRECTORY=$exp LIBWRAP_ENABLE_TRACING=true \
    LD_PRELOAD=$(libwrap-info preload ring) ./ring_app)
echo
echo "Call tree:"
libwrap-report --tree "$exp"
echo
libwrap-report --top 10 --html "$exp"
