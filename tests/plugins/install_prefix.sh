#!/bin/bash
# plugins_install_prefix: the example plugins from an installed prefix
# (cmake --install of the build tree into a scratch prefix): installed next
# to the built-in ones in PREFIX/lib/libwrap and selected by name there, on
# a library wrapped with the installed generator and runtime; their sources
# and README installed under share/doc; and built out of tree from those
# sources against the installed header, with the CMake package
# (find_package(libwrap): libwrap::plugin) and with pkg-config (the
# Makefile), then selected by name from PREFIX/lib/libwrap and through
# LIBWRAP_PLUGIN_PATH.
TEST_LABEL=install
. "$(dirname "$0")/lib.sh"
prefix=$PWD/prefix
cmake --install "$LIBWRAP_BINARY_DIR" --prefix "$prefix" >install.log || { cat install.log; fail "cmake --install"; }
docs=$prefix/share/doc/libwrap/examples/plugins
for f in lib/libwrap/libwrap_plugin_proc.so lib/libwrap/libwrap_plugin_live.so lib/libwrap/libwrap_plugin_otf2.so \
         lib/libwrap/libwrap_plugin_rusage.so include/libwrap/plugin.h lib/pkgconfig/libwrap.pc \
         lib/cmake/libwrap/libwrapConfig.cmake; do
    [ -e "$prefix/$f" ] || fail "missing in the installed prefix: $f"
done
for f in README.md CMakeLists.txt Makefile proc.c live.c; do
    [ -f "$docs/$f" ] && [ ! -L "$docs/$f" ] || fail "missing in the installed prefix: share/doc/libwrap/examples/plugins/$f"
done
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(realpath -m "$(pkg-config --variable=plugindir libwrap)")" = "$prefix/lib/libwrap" ] ||
    fail "pkg-config --variable=plugindir libwrap: $(pkg-config --variable=plugindir libwrap)"

build_plug "$prefix"
readelf -d libwrap_plug_runtime.so | grep -q "RUNPATH.*$prefix/lib" || fail "the wrapper does not use the installed runtime"
N=1000
seq 1 2000 >data.bin # 8893 bytes
run_app plain plain -- io data.bin $N
# check_run NAME: the proc and live plugins measured NAME.
check_run() {
    same_output plain "$1"
    $CHECK "$1.exp" "visits('plug_read') == 1" "visits('plug_add') == 1000" \
        "fn('plug_read')['metrics']['rchar'] == $N"
    printf '1000 plug_add\n1 plug_read\n' | cmp -s - "$1.exp/live.txt" || fail "$1: live.txt: $(cat "$1.exp/live.txt")"
}
# loaded_from NAME PLUGIN PATH: the verbose log says where PLUGIN came from.
loaded_from() {
    grep -q "loaded plugin '$2' from $3\$" "$1.err" || fail "$1: $2 was not loaded from $3: $(cat "$1.err")"
}

for mode in preload linktime; do
    run_app inst_$mode $mode LIBWRAP_METRIC_PLUGINS=proc LIBWRAP_LISTENERS=live LIBWRAP_VERBOSE=plugin \
        -- io data.bin $N
    check_run inst_$mode
    loaded_from inst_$mode proc "$prefix/lib/libwrap/libwrap_plugin_proc.so"
    loaded_from inst_$mode live "$prefix/lib/libwrap/libwrap_plugin_live.so"
done
echo "ok: the installed plugins, by name"

# Out of tree, with the CMake package: the installed example directory as a
# project of its own.
cmake -S "$docs" -B cm -DCMAKE_PREFIX_PATH="$prefix" >cm.log 2>&1 || { cat cm.log; fail "cmake of $docs"; }
cmake --build cm >>cm.log 2>&1 || { cat cm.log; fail "build of $docs with CMake"; }
DESTDIR=$PWD/dest cmake --install cm >>cm.log 2>&1 || { cat cm.log; fail "cmake --install of the plugins"; }
for p in proc live; do
    [ -f "dest$prefix/lib/libwrap/libwrap_plugin_$p.so" ] || fail "cmake --install put no libwrap_plugin_$p.so into PREFIX/lib/libwrap"
    [ "$(nm -D --defined-only "cm/libwrap_plugin_$p.so" | awk '{print $3}')" = libwrap_plugin_entry ] ||
        fail "cm/libwrap_plugin_$p.so exports more than libwrap_plugin_entry: $(nm -D --defined-only "cm/libwrap_plugin_$p.so")"
done
# With pkg-config: the installed Makefile, with PKG_CONFIG_PATH on make's
# command line as the README shows it, not in the environment (GNU make
# before 4.4 does not pass it to $(shell ...)).
mkdir mk
pc=$prefix/lib/pkgconfig
env -u PKG_CONFIG_PATH make -C mk -f "$docs/Makefile" PKG_CONFIG_PATH="$pc" >mk.log 2>&1 ||
    { cat mk.log; fail "make -f $docs/Makefile PKG_CONFIG_PATH=$pc"; }
grep -qF -- "$(pkg-config --cflags libwrap)" mk.log || fail "the Makefile did not take the header from pkg-config: $(cat mk.log)"
env -u PKG_CONFIG_PATH make -C mk -f "$docs/Makefile" install PKG_CONFIG_PATH="$pc" DESTDIR=$PWD/mkdest >>mk.log 2>&1 ||
    { cat mk.log; fail "make install PKG_CONFIG_PATH=$pc"; }
[ -f "mkdest$prefix/lib/libwrap/libwrap_plugin_live.so" ] || fail "make install put nothing into the plugin directory: $(find mkdest)"
# Where pkg-config finds no libwrap: one clear error naming the way out,
# nothing compiled and nothing installed (not into DESTDIR/ either).
mkdir mk0 nopc
for goal in all install; do
    if env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$PWD/nopc" make -C mk0 -f "$docs/Makefile" $goal DESTDIR="$PWD/mk0dest" \
        >mk0_$goal.log 2>&1; then
        cat mk0_$goal.log
        fail "make $goal succeeded without libwrap.pc"
    fi
    grep -q "pkg-config finds no libwrap.pc (PKG_CONFIG_PATH: not set): run make PKG_CONFIG_PATH=PREFIX/lib/pkgconfig" mk0_$goal.log ||
        fail "make $goal without libwrap.pc: no clear error: $(cat mk0_$goal.log)"
    ! grep -q -- '-shared' mk0_$goal.log || fail "make $goal without libwrap.pc compiled: $(cat mk0_$goal.log)"
done
[ ! -e mk0dest ] && [ -z "$(ls mk0)" ] || fail "make without libwrap.pc left files: $(find mk0dest mk0 2>/dev/null)"
env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$PWD/nopc" make -C mk0 -f "$docs/Makefile" clean >mk0_clean.log 2>&1 ||
    fail "make clean needs pkg-config: $(cat mk0_clean.log)"

# Selected by name from PREFIX/lib/libwrap (under names of their own), and
# through LIBWRAP_PLUGIN_PATH, which comes before it.
cp mk/libwrap_plugin_proc.so "$prefix/lib/libwrap/libwrap_plugin_myproc.so"
cp mk/libwrap_plugin_live.so "$prefix/lib/libwrap/libwrap_plugin_mylive.so"
for mode in preload linktime; do
    run_app mk_$mode $mode LIBWRAP_METRIC_PLUGINS=myproc LIBWRAP_METRIC_MYPROC=rchar LIBWRAP_LISTENERS=mylive \
        LIBWRAP_VERBOSE=plugin -- io data.bin $N
    check_run mk_$mode
    loaded_from mk_$mode myproc "$prefix/lib/libwrap/libwrap_plugin_myproc.so"
    loaded_from mk_$mode mylive "$prefix/lib/libwrap/libwrap_plugin_mylive.so"
    run_app cm_$mode $mode LIBWRAP_PLUGIN_PATH="$PWD/cm" LIBWRAP_METRIC_PLUGINS=proc LIBWRAP_LISTENERS=live \
        LIBWRAP_VERBOSE=plugin -- io data.bin $N
    check_run cm_$mode
    loaded_from cm_$mode proc "$PWD/cm/libwrap_plugin_proc.so"
    loaded_from cm_$mode live "$PWD/cm/libwrap_plugin_live.so"
done
echo "ok: built out of tree (CMake package, pkg-config), selected by name"
echo "PASS install_prefix"
