# 32-bit ARM Linux, soft float (armel): ARMv5TE, no VFP, no NEON.
# Debian: gcc-arm-linux-gnueabi g++-arm-linux-gnueabi; run under qemu-user
# (e.g. QEMU_CPU=arm926, an ARMv5TEJ core). Use with
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm-linux-gnueabi.cmake \
#         -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest ...
# Only the portable C backends run here (ct AES, ct32 GHASH): the perlasm
# kernels need ARMv7 NEON or the ARMv8 crypto extension, so no assembly is
# built for ARMv5 (asm/CMakeLists.txt).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR armv5te)
set(CMAKE_C_COMPILER arm-linux-gnueabi-gcc)
set(CMAKE_CXX_COMPILER arm-linux-gnueabi-g++)
set(CMAKE_ASM_COMPILER arm-linux-gnueabi-gcc)
set(_libgcm_arm_flags "-march=armv5te -marm -mfloat-abi=soft")
set(CMAKE_C_FLAGS_INIT "${_libgcm_arm_flags}")
set(CMAKE_CXX_FLAGS_INIT "${_libgcm_arm_flags}")
set(CMAKE_ASM_FLAGS_INIT "${_libgcm_arm_flags}")
set(CMAKE_FIND_ROOT_PATH /usr/arm-linux-gnueabi)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
find_program(LIBGCM_QEMU_ARM qemu-arm)
if(LIBGCM_QEMU_ARM)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${LIBGCM_QEMU_ARM} -L /usr/arm-linux-gnueabi)
endif()
