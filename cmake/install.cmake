# Installation: headers, both libraries, the CMake package and pkg-config
# files.
#
#   find_package(libgcm CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE libgcm::gcm)      # native API
#   target_link_libraries(app PRIVATE libgcm::compat)   # <openssl/aead.h>
#
# libgcm::gcm is the shared library, libgcm::gcm_static the static one;
# libgcm::compat adds the include directory of the BoringSSL-compatible
# headers on top of libgcm::gcm.
include(CMakePackageConfigHelpers)

set_target_properties(gcm_shared PROPERTIES EXPORT_NAME gcm)
set_target_properties(gcm_static PROPERTIES EXPORT_NAME gcm_static)
set_target_properties(gcm_compat_installed PROPERTIES EXPORT_NAME compat)

install(TARGETS gcm_shared gcm_static gcm_compat_installed
  EXPORT libgcmTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY include/gcm DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(EXPORT libgcmTargets
  NAMESPACE libgcm::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/libgcm)

configure_package_config_file(cmake/libgcmConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/libgcmConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/libgcm)
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/libgcmConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/libgcmConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/libgcmConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/libgcm)

# pkg-config: the prefix is found relative to the .pc file itself
# (${pcfiledir}), so an installed tree still works after it is moved, and
# `cmake --install --prefix` works without reconfiguring.
file(RELATIVE_PATH LIBGCM_PC_TO_PREFIX
  "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
# A static link also needs the threads library, and on Windows bcrypt (the
# randnonce AEADs' random source, crypto/rand/os_random.c).
set(LIBGCM_PC_LIBS_PRIVATE "-lpthread")
if(WIN32)
  string(APPEND LIBGCM_PC_LIBS_PRIVATE " -lbcrypt")
endif()
foreach(pc libgcm libgcm-compat)
  configure_file(cmake/${pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
