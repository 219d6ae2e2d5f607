# 32-bit ARM Linux, hard float (armhf): ARMv7-A with VFPv3-D16 and NEON.
# Debian: gcc-arm-linux-gnueabihf g++-arm-linux-gnueabihf; run under
# qemu-user. Use with
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm-linux-gnueabihf.cmake \
#         -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest ...
# LIBGCM_ARM_THUMB=ON compiles the C as Thumb-2 (-mthumb) and assembles the
# perlasm kernels in their T32 form; the default is A32 (-marm).
# ctest runs the test binary through qemu-arm with the cross sysroot (-L).
# The CPU model is qemu's default (all features, "max"); choose another
# with QEMU_CPU in the environment, e.g. QEMU_CPU=cortex-a15.
set(LIBGCM_ARM_THUMB OFF CACHE BOOL "Build 32-bit ARM code as Thumb-2 (T32) instead of A32")
if(LIBGCM_ARM_THUMB)
  set(_libgcm_arm_isa -mthumb)
else()
  set(_libgcm_arm_isa -marm)
endif()
# The portable C needs no NEON: -mfpu=vfpv3-d16 keeps the compiler from
# using it, so the same build runs on NEON-less ARMv7 cores; the kernels
# that need NEON or the crypto extension say so themselves (.fpu/.arch).
include(${CMAKE_CURRENT_LIST_DIR}/linux-cross.cmake)
libgcm_linux_cross(arm-linux-gnueabihf armv7-a qemu-arm
                   "-march=armv7-a -mfpu=vfpv3-d16 -mfloat-abi=hard ${_libgcm_arm_isa}")
