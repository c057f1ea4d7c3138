# Shared set-up of the MPI job tests (sourced): tests/lib.sh (scratch
# directory, no inherited LIBWRAP_*, CHECK, fail, skip), the staged
# toolchain first on PATH, and skip (77) without MPI.
mpi_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
export PATH=$LIBWRAP_STAGE/bin:$PATH
unset LD_PRELOAD LIBWRAP_PATH

# have_openmpi: Open MPI's mpicc and mpirun are there.
have_openmpi() {
    [ -n "${MPICC:-}" ] && [ -n "${MPIRUN:-}" ] && [ -x "$MPICC" ] && [ -x "$MPIRUN" ] &&
        "$MPIRUN" --version 2>/dev/null | grep -Eq 'Open MPI|OpenRTE'
}

need_openmpi() {
    have_openmpi || skip "Open MPI's mpicc and mpirun not found (Debian: apt-get install libopenmpi-dev openmpi-bin)"
}

OTF2_PRINT=${OTF2_PRINT:-otf2-print}
command -v "$OTF2_PRINT" > /dev/null || skip "otf2-print not found (Debian: apt-get install otf2-tools)"

# As root (containers, CI) Open MPI refuses to start without it; more ranks
# than cores is what these tests do on small machines.
MPIRUN_OPTS=(--oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN_OPTS+=(--allow-run-as-root)
