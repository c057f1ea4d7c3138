#!/usr/bin/env bash
# Creates the working directory of the tinyxml2 wrapper (Debian package libtinyxml2-dev), C++.
#   examples/tinyxml2/init.sh [DIR [PREFIX]]     then: cd DIR && make && make install && make installcheck
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:-tinyxml2-wrap}
libwrap-init --name tinyxml2 -x c++ --libs '-ltinyxml2' \
    ${2:+--prefix "$2"} "$dir"
cp "$src/libwrap.h" "$src/main.cc" "$dir/"
