#!/bin/bash
# setup.sh - builds what the MPI scenarios share, as a user would: the
# library libmlib.so, its wrapper (libwrap-init, make, make install; it
# does not depend on an MPI), the program without MPI, and with Open MPI
# the MPI program in both modes (mpicc, and libwrap --libwrap=linktime:mlib
# mpicc). Marks completion with ./ready.
set -eu
TEST_LABEL=mpi_setup
. "$(dirname "$0")/lib.sh"
src=$mpi_here

mkdir lib
$CC -O2 -fPIC -shared -Wall -Werror -o lib/libmlib.so "$src/mlib.c"
libwrap-init --name mlib -x c --cppflags "-I$src" --ldflags "-L$PWD/lib -Wl,-rpath,$PWD/lib" --libs -lmlib \
    --prefix "$PWD/prefix" "$PWD/wrap" > init.log 2>&1 || { cat init.log; fail "libwrap-init failed"; }
printf '#include "mlib.h"\n' > wrap/libwrap.h
cat > wrap/main.c <<'C'
#include <stdio.h>
#include "mlib.h"
int main(void)
{
    printf("%ld\n", mlib_chain(mlib_step(1), 3));
    return 0;
}
C
make -C wrap all install > make.log 2>&1 || { cat make.log; fail "make install of the mlib wrapper failed"; }
export LIBWRAP_PATH=$PWD/prefix
nm -D --defined-only prefix/lib/libwrap_mlib_runtime.so | grep -qw MPI_Finalize \
    || fail "the runtime wrapper does not interpose MPI_Finalize"

link=(-L"$PWD/lib" -Wl,-rpath,"$PWD/lib" -lmlib -pthread)
$CC -O2 -Wall -I"$src" "$src/plain_app.c" -o plain "${link[@]}"
libwrap --libwrap=linktime:mlib $CC -O2 -Wall -I"$src" "$src/plain_app.c" -o plain.lt "${link[@]}"
if have_openmpi; then
    "$MPICC" -O2 -Wall -I"$src" "$src/mpi_app.c" -o app "${link[@]}"
    libwrap --libwrap=linktime:mlib "$MPICC" -O2 -Wall -I"$src" "$src/mpi_app.c" -o app.lt "${link[@]}"
fi
touch ready
echo "PASS setup"
