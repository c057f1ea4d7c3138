#!/bin/bash
# run.sh [WORK_DIR] - the FFTW MPI job of tests/mpi/fftw_app.c (4 ranks x 2
# threads, Open MPI) measured through FFTW's default wrapper, traced and
# with LIBWRAP_ARGUMENTS=sizes, then analysed by fftw_job.py. Needs the
# toolchain on PATH (build/stage/bin or an installed one), libfftw3-dev,
# Open MPI and Debian's python3-pandas, python3-matplotlib, python3-otf2.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-fftw-python}
mkdir -p "$work" && cd "$work"
if [ ! -d fprefix ]; then
    libwrap-init --name fftw3 -x c --libs -lfftw3 --prefix "$PWD/fprefix" fw
    printf '#include <fftw3.h>\nint main(void)\n{\n    fftw_free(fftw_malloc(16));\n    return 0;\n}\n' > fw/main.c
    make -C fw all install
fi
export LIBWRAP_PATH=$PWD/fprefix
mpicc -O2 "$here/../../tests/mpi/fftw_app.c" -o fapp -lfftw3 -lm -pthread
opts=(--oversubscribe)
[ "$(id -u)" = 0 ] && opts+=(--allow-run-as-root)
mpirun "${opts[@]}" -np 4 -x LD_PRELOAD="$(libwrap-info preload fftw3)" -x LIBWRAP_ENABLE_TRACING=true \
    -x LIBWRAP_ARGUMENTS=sizes ./fapp 1000
job=$(ls -dt libwrap-ompi-* | head -1)
PYTHONPATH=$(libwrap-info python-path) /usr/bin/python3 "$here/fftw_job.py" "$job" .
