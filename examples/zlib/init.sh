#!/usr/bin/env bash
# Creates the working directory of the zlib wrapper (Debian package zlib1g-dev).
#   examples/zlib/init.sh [DIR [PREFIX]]     then: cd DIR && make && make install && make installcheck
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:-zlib-wrap}
libwrap-init --name zlib -x c --libs '-lz' \
    ${2:+--prefix "$2"} "$dir"
cp "$src/libwrap.h" "$src/main.c" "$dir/"
