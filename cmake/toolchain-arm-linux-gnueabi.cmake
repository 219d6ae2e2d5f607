# 32-bit ARM Linux, soft float (armel): ARMv5TE, no VFP, no NEON.
# Debian: gcc-arm-linux-gnueabi g++-arm-linux-gnueabi; run under qemu-user
# (e.g. QEMU_CPU=arm926, an ARMv5TEJ core). Use with
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm-linux-gnueabi.cmake \
#         -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest ...
# Only the portable C backends run here (ct AES, ct32 GHASH): the perlasm
# kernels need ARMv7 NEON or the ARMv8 crypto extension, so no assembly is
# built for ARMv5 (asm/CMakeLists.txt).
include(${CMAKE_CURRENT_LIST_DIR}/linux-cross.cmake)
libgcm_linux_cross(arm-linux-gnueabi armv5te qemu-arm
                   "-march=armv5te -marm -mfloat-abi=soft")
