# The part every Linux cross toolchain file here shares (included by
# toolchain-aarch64-linux-gnu.cmake, toolchain-arm-linux-gnueabihf.cmake and
# toolchain-arm-linux-gnueabi.cmake):
#   libgcm_linux_cross(<triple> <processor> <qemu> [<flags>])
# uses Debian's <triple>-gcc/-g++ for C, C++ and assembly with <flags> (may
# be empty), looks for libraries, headers and packages only under
# /usr/<triple> (programs on the host), and runs target programs (ctest,
# try_run) through qemu-user's <qemu> with that sysroot (-L) when it is
# installed.
macro(libgcm_linux_cross triple processor qemu)
  set(CMAKE_SYSTEM_NAME Linux)
  set(CMAKE_SYSTEM_PROCESSOR ${processor})
  set(CMAKE_C_COMPILER ${triple}-gcc)
  set(CMAKE_CXX_COMPILER ${triple}-g++)
  set(CMAKE_ASM_COMPILER ${triple}-gcc)
  set(CMAKE_C_FLAGS_INIT "${ARGN}")
  set(CMAKE_CXX_FLAGS_INIT "${ARGN}")
  set(CMAKE_ASM_FLAGS_INIT "${ARGN}")
  set(CMAKE_FIND_ROOT_PATH /usr/${triple})
  set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
  set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
  set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
  set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
  string(TOUPPER "LIBGCM_${qemu}" _libgcm_qemu_var)
  string(REPLACE "-" "_" _libgcm_qemu_var "${_libgcm_qemu_var}")
  find_program(${_libgcm_qemu_var} ${qemu})
  if(${_libgcm_qemu_var})
    set(CMAKE_CROSSCOMPILING_EMULATOR ${${_libgcm_qemu_var}} -L /usr/${triple})
  endif()
endmacro()
