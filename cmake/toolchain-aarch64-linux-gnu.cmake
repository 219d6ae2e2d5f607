# aarch64 Linux cross build (Debian: gcc-aarch64-linux-gnu
# g++-aarch64-linux-gnu), run under qemu-user. Use with
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake \
#         -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest ...
# ctest runs the test binary through qemu-aarch64 with the cross sysroot
# (-L). The CPU model is qemu's default (all features, "max"); choose
# another with QEMU_CPU in the environment, e.g. QEMU_CPU=cortex-a53.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
find_program(LIBGCM_QEMU_AARCH64 qemu-aarch64)
if(LIBGCM_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${LIBGCM_QEMU_AARCH64} -L /usr/aarch64-linux-gnu)
endif()
