#!/usr/bin/env bash
# Installs, on Debian 12 as root, every package libwrap needs to build, test and
# run its examples. Installs only what is missing; safe to run again.
#   scripts/install-deps.sh            build + test dependencies
#   scripts/install-deps.sh --report   also Chromium (for the HTML report screenshot test)
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

pkgs=(
  # toolchain
  gcc g++ clang make cmake pkg-config binutils file python3 valgrind time uftrace bc
  # LLVM's linker (Rust's, static links with --gc-sections: tests/static)
  lld
  # Go with cgo: a program that ends without libc's exit (tests/runtime/go.sh)
  golang-go
  # generator
  libclang-dev llvm-dev libjson-c-dev libelf-dev libffi-dev
  # runtime
  libopen-trace-format2-dev otf2-tools libpapi-dev papi-tools
  # corpus libraries and the real programs that use them
  zlib1g-dev pigz libgmp-dev coreutils libsqlite3-dev sqlite3 libpng-dev pngcrush
  libc6-dev mawk libtinyxml2-dev qtbase5-dev
  # variadic functions without a va_list twin (tests/abi/varlibs)
  libcurl4-openssl-dev libncurses-dev libxml2-dev
  # the MPI job of the FFTW case (tests/mpi)
  libfftw3-dev
  # jobs of many processes (tests/mpi): Open MPI, and MPICH beside it
  libopenmpi-dev openmpi-bin mpich libmpich-dev
  # a target whose destructor calls its own exported function, loaded by
  # programs that never call it (tests/workflow/wf_reach.sh)
  libuv1-dev
  # an MPI program in Fortran (tests/mpi, scenario fortran)
  gfortran
  # a compiler wrapper that links the target's archive (h5cc, tests/static/h5cc.sh)
  libhdf5-dev
  # a static archive that lacks functions of its shared library (tests/static/zstd.sh)
  libzstd-dev
  # the Python package (python/, tests/python): Debian's own python3 with these
  python3-pandas python3-numpy python3-matplotlib python3-otf2 python3-setuptools python3-pip
  # greenlets switching inside wrapped calls (tests/runtime/greenlet.sh)
  python3-greenlet
  # the AArch64 target (LIBWRAP_TARGETS, tests/aarch64): cross compilers, the
  # user-mode emulator that runs its programs here, and the arm64 libraries
  # of its tests (multiarch, below)
  gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static
  # counting the instructions of a wrapped call under the emulator
  # (bench/overhead/aarch64_count.sh), and stopping the trampoline at one
  # instruction to send it a signal (tests/signals/signals.sh, the window)
  gdb-multiarch
)
# arm64 packages of Debian's multiarch: installed beside the host's, found by
# the cross compilers and by the emulator (/lib/ld-linux-aarch64.so.1).
arm64_pkgs=(libc6:arm64 libstdc++6:arm64 zlib1g-dev:arm64 libgmp-dev:arm64 libopen-trace-format2-dev:arm64)
if [ "$(dpkg --print-architecture)" != arm64 ]; then
  pkgs+=("${arm64_pkgs[@]}")
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "install-deps: the arm64 architecture is not enabled: run this script as root (dpkg --add-architecture arm64)" >&2
      exit 1
    fi
    echo "install-deps: dpkg --add-architecture arm64"
    dpkg --add-architecture arm64
  fi
fi
if [ "${1:-}" = "--report" ] || [ "${LIBWRAP_WITH_CHROMIUM:-}" = 1 ]; then
  pkgs+=(chromium)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run this script as root (or install them with apt-get)" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
