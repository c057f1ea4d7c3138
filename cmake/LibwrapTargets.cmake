# The runtime of other targets (LIBWRAP_TARGETS): for each target triple T
# with a toolchain file cmake/toolchain-T.cmake, a sub-build of this source
# tree with LIBWRAP_RUNTIME_ONLY (the runtime, its interposer archive, the
# built-in plugins, the audit module) is staged and installed under
# LIBDIR/T (docs/workflow.md, "Cross-wrapping"). The generator and the
# commands are the build machine's: `libwrap-init --host T` uses them with
# that target's runtime.
#
# LIBWRAP_TARGETS=auto (the default) takes every target whose cross C
# compiler is found and which is not the build machine itself; "" none.
set(LIBWRAP_TARGETS "auto" CACHE STRING "Other targets whose runtime is built (auto, or a ;-list of triples)")

set(_known aarch64-linux-gnu)
set(_targets)
if(LIBWRAP_TARGETS STREQUAL "auto")
  foreach(t IN LISTS _known)
    find_program(_cc_${t} NAMES ${t}-gcc NO_CACHE)
    string(REGEX MATCH "^[^-]+" _arch ${t})
    if(_cc_${t} AND NOT CMAKE_SYSTEM_PROCESSOR STREQUAL _arch)
      list(APPEND _targets ${t})
    endif()
  endforeach()
else()
  set(_targets ${LIBWRAP_TARGETS})
endif()

include(ExternalProject)
set(LIBWRAP_BUILT_TARGETS)
foreach(t IN LISTS _targets)
  set(_tc ${PROJECT_SOURCE_DIR}/cmake/toolchain-${t}.cmake)
  if(NOT EXISTS ${_tc})
    message(FATAL_ERROR "LIBWRAP_TARGETS: no toolchain file for '${t}' (expected ${_tc}; known: ${_known})")
  endif()
  find_program(_cc_${t}_req NAMES ${t}-gcc NO_CACHE)
  if(NOT _cc_${t}_req)
    message(FATAL_ERROR "LIBWRAP_TARGETS: ${t}-gcc not found: install gcc-${t} (scripts/install-deps.sh does)")
  endif()
  set(_bin ${PROJECT_BINARY_DIR}/targets/${t})
  ExternalProject_Add(libwrap_target_${t}
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${_bin}
    CMAKE_ARGS
      -DCMAKE_TOOLCHAIN_FILE=${_tc}
      -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
      -DCMAKE_INSTALL_PREFIX=${CMAKE_INSTALL_PREFIX}
      -DCMAKE_INSTALL_LIBDIR=${CMAKE_INSTALL_LIBDIR}/${t}
      -DLIBWRAP_RUNTIME_ONLY=ON
      -DLIBWRAP_BUILD_TESTS=OFF
      -DLIBWRAP_TARGETS=
      -DLIBWRAP_STAGE_DIR=${LIBWRAP_STAGE}
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    USES_TERMINAL_BUILD OFF)
  install(CODE "execute_process(COMMAND \"${CMAKE_COMMAND}\" --install \"${_bin}\" --prefix \"\${CMAKE_INSTALL_PREFIX}\" RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR \"installing the runtime of ${t} failed\")
endif()")
  list(APPEND LIBWRAP_BUILT_TARGETS ${t})
endforeach()
