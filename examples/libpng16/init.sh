#!/usr/bin/env bash
# Creates the working directory of the libpng16 wrapper (Debian package libpng-dev).
#   examples/libpng16/init.sh [DIR [PREFIX]]     then: cd DIR && make && make install && make installcheck
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:-libpng16-wrap}
libwrap-init --name libpng16 -x c --cppflags '-I/usr/include/libpng16' --libs '-lpng16' \
    ${2:+--prefix "$2"} "$dir"
cp "$src/libwrap.h" "$src/main.c" "$dir/"
