# Install rules of the package AmpMLIR: headers (source and generated),
# the exported targets AmpMLIR::AmpCompiler / AmpMLIR::AmpRuntime, and
# lib/cmake/AmpMLIR/AmpMLIRConfig.cmake (+ version file). The libraries and
# tools add their own install(TARGETS) next to their definitions.
include(CMakePackageConfigHelpers)

set(AMP_INSTALL_CMAKE_DIR lib/cmake/AmpMLIR)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/amp
  DESTINATION include
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/amp
  DESTINATION include
  FILES_MATCHING PATTERN "*.h.inc"
  PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT AmpMLIRTargets
  NAMESPACE AmpMLIR::
  DESTINATION ${AMP_INSTALL_CMAKE_DIR})

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/AmpMLIRConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/AmpMLIRConfig.cmake
  INSTALL_DESTINATION ${AMP_INSTALL_CMAKE_DIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/AmpMLIRConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/AmpMLIRConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/AmpMLIRConfigVersion.cmake
  DESTINATION ${AMP_INSTALL_CMAKE_DIR})
