#!/usr/bin/env bash
# Creates the working directory of the sqlite3 wrapper (Debian package libsqlite3-dev).
#   examples/sqlite3/init.sh [DIR [PREFIX]]     then: cd DIR && make && make install && make installcheck
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:-sqlite3-wrap}
libwrap-init --name sqlite3 -x c --libs '-lsqlite3' \
    ${2:+--prefix "$2"} "$dir"
cp "$src/libwrap.h" "$src/main.c" "$dir/"
