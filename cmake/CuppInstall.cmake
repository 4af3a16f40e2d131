# Install rules and the package config that lets other projects write
#   find_package(cupp REQUIRED)
#   target_link_libraries(app PRIVATE cupp::cupp)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CUPP_CONFIG_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/cupp")

# Public headers and the internal ones, which land in include/cupp/detail.
install(DIRECTORY include/cupp DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY detail/cupp/detail DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/cupp")

install(TARGETS cupp cupp_cccl EXPORT cuppTargets)
install(EXPORT cuppTargets NAMESPACE cupp:: DESTINATION "${CUPP_CONFIG_DIR}")

if(TARGET CCCL::CCCL)
  set(CUPP_USES_CCCL_PACKAGE TRUE)
else()
  set(CUPP_USES_CCCL_PACKAGE FALSE)
endif()

configure_package_config_file(cmake/cuppConfig.cmake.in "${PROJECT_BINARY_DIR}/cuppConfig.cmake"
                              INSTALL_DESTINATION "${CUPP_CONFIG_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/cuppConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/cuppConfig.cmake"
              "${PROJECT_BINARY_DIR}/cuppConfigVersion.cmake" cmake/CuppToolchain.cmake
              cmake/CuppArchitectures.cmake cmake/CuppLinalg.cmake
              cmake/CuppNccl.cmake cmake/CuppRandom.cmake cmake/CuppKernels.cmake DESTINATION "${CUPP_CONFIG_DIR}")
