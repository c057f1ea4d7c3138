#!/usr/bin/env bash
# Creates the working directory of the libm wrapper (Debian package libc6-dev).
#   examples/libm/init.sh [DIR [PREFIX]]     then: cd DIR && make && make install && make installcheck
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:-libm-wrap}
libwrap-init --name libm -x c --cppflags '-D_GNU_SOURCE' --libs '-lm' \
    ${2:+--prefix "$2"} "$dir"
cp "$src/libwrap.h" "$src/main.c" "$dir/"
