# Finds every dependency once, with a clear message naming the Debian package.
find_package(PkgConfig REQUIRED)

find_package(Threads REQUIRED)
pkg_check_modules(PAPI IMPORTED_TARGET papi)
if(LIBWRAP_RUNTIME_ONLY)
  # Another target's runtime: OTF2 (the trace writer) when the target's
  # package is there; no generator.
  pkg_check_modules(OTF2 IMPORTED_TARGET otf2)
  find_library(LIBWRAP_DL_LIBRARY dl)
  return()
endif()
pkg_check_modules(JSONC REQUIRED IMPORTED_TARGET json-c)
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
pkg_check_modules(OTF2 REQUIRED IMPORTED_TARGET otf2)

# libclang: any LLVM 14..19. LIBWRAP_LLVM_CONFIG may name a specific llvm-config.
set(LIBWRAP_LLVM_CONFIG "" CACHE FILEPATH "llvm-config to locate libclang")
set(_llvm_configs ${LIBWRAP_LLVM_CONFIG} llvm-config)
foreach(v 19 18 17 16 15 14)
  list(APPEND _llvm_configs llvm-config-${v})
endforeach()
foreach(cfg IN LISTS _llvm_configs)
  if(cfg)
    find_program(_lc NAMES ${cfg} PATHS /usr/lib/llvm-19/bin /usr/lib/llvm-18/bin /usr/lib/llvm-17/bin
                 /usr/lib/llvm-16/bin /usr/lib/llvm-15/bin /usr/lib/llvm-14/bin NO_CACHE)
    if(_lc)
      execute_process(COMMAND ${_lc} --libdir OUTPUT_VARIABLE _libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
      execute_process(COMMAND ${_lc} --includedir OUTPUT_VARIABLE _incdir OUTPUT_STRIP_TRAILING_WHITESPACE)
      execute_process(COMMAND ${_lc} --version OUTPUT_VARIABLE _ver OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(EXISTS ${_incdir}/clang-c/Index.h)
        find_library(LIBCLANG_LIBRARY NAMES clang libclang PATHS ${_libdir} NO_DEFAULT_PATH)
        if(LIBCLANG_LIBRARY)
          set(LIBCLANG_INCLUDE_DIR ${_incdir})
          set(LIBCLANG_VERSION ${_ver})
          break()
        endif()
      endif()
      unset(_lc)
    endif()
  endif()
endforeach()
if(NOT LIBCLANG_LIBRARY)
  message(FATAL_ERROR "libclang not found: install libclang-dev and llvm-dev (LLVM 14 to 19), "
                      "or set LIBWRAP_LLVM_CONFIG=/path/to/llvm-config")
endif()
if(LIBCLANG_VERSION VERSION_LESS 14 OR LIBCLANG_VERSION VERSION_GREATER_EQUAL 20)
  message(WARNING "libclang ${LIBCLANG_VERSION} is outside the supported range 14..19")
endif()
add_library(libwrap::libclang UNKNOWN IMPORTED)
set_target_properties(libwrap::libclang PROPERTIES
  IMPORTED_LOCATION ${LIBCLANG_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${LIBCLANG_INCLUDE_DIR})

find_library(LIBWRAP_DL_LIBRARY dl)
