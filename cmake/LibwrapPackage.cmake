# CMake package config (find_package(libwrap)) and pkg-config file (libwrap.pc).
include(CMakePackageConfigHelpers)
set(LIBWRAP_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/libwrap)

install(EXPORT libwrapTargets NAMESPACE libwrap:: DESTINATION ${LIBWRAP_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/libwrapConfig.cmake.in
  ${PROJECT_BINARY_DIR}/libwrapConfig.cmake
  INSTALL_DESTINATION ${LIBWRAP_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_INCLUDEDIR LIBWRAP_DATADIR LIBWRAP_LIBEXECDIR
            LIBWRAP_PLUGIN_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/libwrapConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/libwrapConfig.cmake ${PROJECT_BINARY_DIR}/libwrapConfigVersion.cmake
  DESTINATION ${LIBWRAP_CMAKEDIR})

# pkg-config finds the prefix from the .pc file's own location, so that the
# installed tree can be moved (cmake --install --prefix DIR).
file(RELATIVE_PATH LIBWRAP_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" LIBWRAP_PC_TO_PREFIX "${LIBWRAP_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/libwrap.pc.in ${PROJECT_BINARY_DIR}/libwrap.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/libwrap.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
