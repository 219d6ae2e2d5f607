# aarch64 Linux cross build (Debian: gcc-aarch64-linux-gnu
# g++-aarch64-linux-gnu), run under qemu-user. Use with
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake \
#         -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest ...
# ctest runs the test binary through qemu-aarch64 with the cross sysroot
# (-L). The CPU model is qemu's default (all features, "max"); choose
# another with QEMU_CPU in the environment, e.g. QEMU_CPU=cortex-a53.
include(${CMAKE_CURRENT_LIST_DIR}/linux-cross.cmake)
libgcm_linux_cross(aarch64-linux-gnu aarch64 qemu-aarch64)
