#!/usr/bin/env bash
# Creates the working directory of the Qt 5 Gui & Widgets wrapper (Debian
# package qtbase5-dev), C++, with the library-wrapping paper's init line.
#   examples/qt5/init.sh [DIR [PREFIX]]
#   then: cd DIR && make && make check && make install && make installcheck
# Without a display, run with QT_QPA_PLATFORM=offscreen.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:-qt5-wrap}
libwrap-init --name qtgui_and_qtwidgets --display-name "Qt Gui & Widgets" -x c++ \
    --cppflags "-fPIC -I/usr/include/x86_64-linux-gnu/qt5/" --ldflags "-fPIC" \
    --libs "-lQt5Widgets -lQt5Gui -lQt5Core" \
    ${2:+--prefix "$2"} "$dir"
cp "$src/libwrap.h" "$src/main.cc" "$dir/"
