#!/bin/bash
# setup.sh - the results that the python_* tests read, made by the real runtime
# once: the FFTW MPI job (tests/mpi/fftw_app.c: 4 ranks x 2 threads, E
# fftw_execute per thread) traced with LIBWRAP_ARGUMENTS=sizes, its
# otf2-print event count, a lone traced process with a recorded string
# argument and rusage metrics (wisdom-exp), and rt_app's fork scenario run
# from a directory named with the Latin-1 byte 0xe9 ("caf\xe9"). Marks
# completion with ./ready.
set -eu
TEST_LABEL=python_setup
pyhere=$(cd "$(dirname "$0")" && pwd)
. "$pyhere/lib.sh"
mpi=$LIBWRAP_SOURCE_DIR/tests/mpi
export PATH=$LIBWRAP_STAGE/bin:$PATH
unset LD_PRELOAD LIBWRAP_PATH

[ -n "${MPICC:-}" ] && [ -x "$MPICC" ] && [ -n "${MPIRUN:-}" ] && [ -x "$MPIRUN" ] ||
    skip "Open MPI's mpicc and mpirun not found (Debian: apt-get install libopenmpi-dev openmpi-bin)"
[ -f /usr/include/fftw3.h ] || skip "FFTW not installed (Debian: apt-get install libfftw3-dev)"
command -v "${OTF2_PRINT:-}" > /dev/null || skip "otf2-print not found (Debian: apt-get install otf2-tools)"

# FFTW's default wrapper, as tests/mpi does it.
libwrap-init --name fftw3 -x c --libs -lfftw3 --prefix "$PWD/fprefix" fw > init.log 2>&1 ||
    { cat init.log; fail "libwrap-init of FFTW failed"; }
printf '#include <fftw3.h>\nint main(void)\n{\n    fftw_free(fftw_malloc(16));\n    return 0;\n}\n' > fw/main.c
make -C fw all install > make.log 2>&1 || { cat make.log; fail "make install of the FFTW wrapper failed"; }
export LIBWRAP_PATH=$PWD/fprefix
"$MPICC" -O2 -Wall "$mpi/fftw_app.c" -o fapp -lfftw3 -lm -pthread || fail "mpicc fftw_app.c"

opts=(--oversubscribe)
[ "$(id -u)" = 0 ] && opts+=(--allow-run-as-root)
mkdir job && cd job
"$MPIRUN" "${opts[@]}" -np 4 -x LD_PRELOAD="$(libwrap-info preload fftw3)" -x LIBWRAP_ENABLE_TRACING=true \
    -x LIBWRAP_ARGUMENTS=sizes "$PWD/../fapp" 200 > ../job.out 2> ../job.err ||
    fail "the FFTW job failed: $(cat ../job.out ../job.err)"
cd ..
set -- job/libwrap-ompi-*
[ $# = 1 ] && [ -d "$1" ] || fail "expected one job directory, found: $*"
ln -s "$1" fftw-job
"$OTF2_PRINT" fftw-job/traces.otf2 > events.txt 2> print.err || fail "otf2-print: $(head -3 print.err)"
# Event lines: a record name in capitals, a location, a timestamp.
awk '$1 ~ /^[A-Z][A-Z0-9_]*$/ && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ { n++ } END { print n + 0 }' events.txt > events.count

# A lone process, traced, with a recorded string argument (a file name)
# and two rusage metrics: the trace's ParameterString and METRIC events.
printf '#include <fftw3.h>\nint main(void)\n{\n    fftw_import_wisdom_from_filename("cafe.wisdom");\n    return 0;\n}\n' > wis.c
"${CC:-cc}" -O2 wis.c -o wis -lfftw3 || fail "cc wis.c"
LIBWRAP_EXPERIMENT_DIRECTORY=wisdom-exp LIBWRAP_ENABLE_TRACING=true LIBWRAP_METRIC_RUSAGE=ru_minflt,ru_nvcsw \
    LIBWRAP_ARGUMENTS=fftw_import_wisdom_from_filename:filename LD_PRELOAD="$(libwrap-info preload fftw3)" \
    ./wis > wis.out 2>&1 || fail "the traced wisdom run failed: $(cat wis.out)"
[ -f wisdom-exp/traces.otf2 ] || fail "the wisdom run wrote no trace: $(cat wis.out)"

# rt_app's fork scenario from a directory that is not UTF-8.
dir=$'caf\xe9'
mkdir "$dir"
cp "$RT_APP" "$dir/rt_app"
LIBWRAP_EXPERIMENT_DIRECTORY=fork-exp "./$dir/rt_app" fork > fork.out 2> fork.err ||
    fail "rt_app fork: $(cat fork.err)"
[ -f fork-exp/profile.json ] || fail "rt_app fork wrote no profile"
touch ready
echo "PASS python_setup"
