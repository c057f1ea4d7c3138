#!/usr/bin/env bash
# Creates the working directory of the gmp wrapper (Debian package libgmp-dev).
#   examples/gmp/init.sh [DIR [PREFIX]]     then: cd DIR && make && make install && make installcheck
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:-gmp-wrap}
libwrap-init --name gmp -x c --libs '-lgmp' \
    ${2:+--prefix "$2"} "$dir"
cp "$src/libwrap.h" "$src/main.c" "$src/gmp.filter" "$dir/"
