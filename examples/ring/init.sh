#!/usr/bin/env bash
# Wraps the ring example library: builds it into BUILD (default ./build),
# then creates the working directory BUILD/wrap with libwrap-init.
#   examples/ring/init.sh [BUILD]      then: cd BUILD/wrap && make && make install ...
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(mkdir -p "${1:-build}" && cd "${1:-build}" && pwd)
make -s -C "$build" -f "$src/Makefile" O="$build"
libwrap-init --name ring -x c --display-name "ring buffer" \
    --cppflags "-I$src" --ldflags "-L$build -Wl,-rpath,$build" --libs -lring \
    --prefix "$build/prefix" "$build/wrap"
cp "$src/libwrap.h" "$src/main.c" "$build/wrap/"
