#!/usr/bin/env bash
# examples/arguments/run.sh zlib|sqlite3|fftw3 [DIR]
#
# Argument recording with a real library, as a user does it: wraps the
# library (libwrap-init, make, make install into DIR/prefix), builds the
# example program of this folder with the link-time wrapper, runs it with
# its LIBWRAP_ARGUMENTS (experiment DIR/linktime), runs the unwrapped
# program under LD_PRELOAD the same way (DIR/preload), and shows
# libwrap-report --arguments. Needs the toolchain's bin on PATH and the
# library's -dev package (zlib1g-dev, libsqlite3-dev, libfftw3-dev).
set -euo pipefail
lib=${1:?usage: run.sh zlib|sqlite3|fftw3 [DIR]}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${2:-args-$lib}
case $lib in
zlib) libs=(-lz) header=zlib.h prog=zlib_sizes args='compress*:sourceLen,gzwrite:return' ;;
sqlite3) libs=(-lsqlite3) header=sqlite3.h prog=sqlite_sql args='sqlite3_prepare*:zSql' ;;
fftw3) libs=(-lfftw3 -lm) header=fftw3.h prog=fftw_plans args='fftw_plan_dft*:n*' ;;
*) echo "run.sh: unknown example '$lib' (zlib, sqlite3, fftw3)" >&2; exit 2 ;;
esac
CC=${CC:-cc}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
rm -rf "$dir/wrap" "$dir/prefix" "$dir/linktime" "$dir/preload"

# The wrapper, with the program of this example as the working directory's
# main (make links it against the library first).
libwrap-init --name "$lib" -x c --libs "${libs[*]}" --prefix "$dir/prefix" "$dir/wrap" > "$dir/init.log"
printf '#include <%s>\n' "$header" > "$dir/wrap/libwrap.h"
cp "$src/$prog.c" "$dir/wrap/main.c"
make -C "$dir/wrap" all install > "$dir/make.log" 2>&1 || { cat "$dir/make.log" >&2; exit 1; }
export LIBWRAP_PATH=$dir/prefix

cd "$dir"
"$CC" -O2 -c "$src/$prog.c" -o "$prog.o"
"$CC" -o "$prog" "$prog.o" "${libs[@]}"
libwrap --libwrap=linktime:"$lib" "$CC" -o "$prog.linktime" "$prog.o" "${libs[@]}"

echo "LIBWRAP_ARGUMENTS='$args'"
LIBWRAP_ARGUMENTS=$args LIBWRAP_EXPERIMENT_DIRECTORY=$dir/linktime "./$prog.linktime" > linktime.out
LIBWRAP_ARGUMENTS=$args LIBWRAP_EXPERIMENT_DIRECTORY=$dir/preload LD_PRELOAD=$(libwrap-info preload "$lib") \
    "./$prog" > preload.out
"./$prog" > plain.out
cmp -s plain.out linktime.out && cmp -s plain.out preload.out || { echo "run.sh: the output changed" >&2; exit 1; }
libwrap-report --arguments "$dir/linktime"
