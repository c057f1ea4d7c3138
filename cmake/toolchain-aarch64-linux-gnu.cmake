# Cross-compiling for AArch64 Linux with Debian's cross compilers
# (gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu) and arm64 multiarch packages
# (dpkg --add-architecture arm64; zlib1g-dev:arm64 ...):
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake
# The top-level build uses it for LIBWRAP_TARGETS=aarch64-linux-gnu.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(LIBWRAP_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Libraries and headers of the target: the cross compiler's own sysroot and
# the arm64 multiarch folders; programs of the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# pkg-config finds the arm64 packages' .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
# Programs of the target run here through the registered emulator
# (binfmt_misc), or qemu-aarch64-static named explicitly.
find_program(LIBWRAP_CROSS_EMULATOR qemu-aarch64-static qemu-aarch64)
if(LIBWRAP_CROSS_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${LIBWRAP_CROSS_EMULATOR})
endif()
