#!/usr/bin/env bash
# h5cc.sh - Debian's h5cc links libhdf5.a into the program: a wrapper of
# HDF5's shared library cannot reach those calls. `libwrap` says so after
# a link through h5cc, and a preloaded HDF5 wrapper at the program's start,
# each in one line naming the way out (-shlib); the program's output is
# its own. With `h5cc -shlib` nothing is said, and the calls are measured.
set -euo pipefail
TEST_LABEL=h5cc
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
command -v h5cc > /dev/null || { echo "no h5cc (Debian: libhdf5-dev): skipped"; exit 77; }
src=$LIBWRAP_SOURCE_DIR/tests/static
cc=${CC:-cc}
inc=$(h5cc -show | tr ' ' '\n' | sed -n 's/^-I//p' | head -1)
libdir=$(h5cc -show | tr ' ' '\n' | sed -n 's/^-L//p' | head -1)

# The wrapper of HDF5's shared library, and an installed-wrapper prefix for `libwrap`.
wrap_library hdf5 '<hdf5.h>' "-I$inc" "-L$libdir" -lhdf5
p=$PWD/prefix
mkdir -p "$p/share/libwrap" "$p/lib"
cp libwrap_hdf5_linktime.so libwrap_hdf5_runtime.so "$p/lib/"
cp gen-hdf5/hdf5.wrap "$p/share/libwrap/hdf5.wrap"
printf 'name=hdf5\ndisplay_name=HDF5\nlanguage=c\nldflags=-L%s\nlibs=-lhdf5\ntarget_shared=\ntarget_static=\nvariants=linktime.so runtime.so\ntoolchain=%s\n' \
    "$libdir" "$LIBWRAP_STAGE" > "$p/share/libwrap/hdf5.libwrap"

h5cc -o app "$src/h5cc_app.c"
./app > plain.out 2> plain.err
readelf -d app | grep -q 'NEEDED.*libhdf5' && { echo "h5cc linked HDF5 dynamically here: skipped"; exit 77; }

# A preloaded HDF5 wrapper: one warning, the program's output.
LD_PRELOAD=$p/lib/libwrap_hdf5_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp ./app > pre.out 2> pre.err
cmp -s plain.out pre.out || fail "preloaded: stdout differs"
[ "$(wc -l < pre.err)" = 1 ] &&
    grep -q '^libwrap: warning: the program \./app (pid [0-9]*) contains [0-9]* functions of libhdf5[^ ]*\.so[^ ]* linked statically (H5.*): its calls to them inside the program are not measured; link it with the shared library instead (HDF5.s h5cc: -shlib; a program that bundles its own copy of the library must be built against the shared one)$' pre.err ||
    fail "preloaded: not one warning: $(cat pre.err)"

# Through `libwrap` at link time: one warning after the link.
LIBWRAP_PATH=$p "$LIBWRAP_STAGE/bin/libwrap" --libwrap=linktime:hdf5 h5cc -o app_lt "$src/h5cc_app.c" 2> lt.err ||
    fail "libwrap h5cc: $(cat lt.err)"
grep -q '^libwrap: warning: app_lt contains [0-9]* function(s) of hdf5 linked statically (H5.*).*h5cc: -shlib)$' lt.err ||
    fail "libwrap h5cc: no warning: $(cat lt.err)"
# One line: the wrapper's words reach h5cc's compile-only step as -Wl,
# options, where a plain path would be 'linker input file unused'.
[ "$(wc -l < lt.err)" = 1 ] || fail "libwrap h5cc: more than one line: $(cat lt.err)"
./app_lt > lt.out 2>&1 || fail "the program linked through libwrap h5cc does not run"

# h5cc -shlib: the shared library, nothing said, every call measured.
h5cc -shlib -o app_so "$src/h5cc_app.c"
rm -rf exp-so
LD_PRELOAD=$p/lib/libwrap_hdf5_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-so ./app_so > so.out 2> so.err
cmp -s plain.out so.out || fail "-shlib: stdout differs"
[ ! -s so.err ] || fail "-shlib: a warning: $(cat so.err)"
$CHECK exp-so "visits('H5Fcreate') == 1" "visits('H5Dwrite') == 1" "visits('H5Fclose') == 1" ||
    fail "-shlib: the calls are not measured"
echo ok
