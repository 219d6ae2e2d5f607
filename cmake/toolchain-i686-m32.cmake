# 32-bit x86 build with the host compiler (-m32; Debian: gcc-12-multilib
# g++-12-multilib), run under qemu-i386 because the kernel of the build
# machine may not run 32-bit binaries. Use with
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-i686-m32.cmake \
#         -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest ...
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER gcc)
set(CMAKE_CXX_COMPILER g++)
set(CMAKE_C_FLAGS_INIT "-m32")
set(CMAKE_CXX_FLAGS_INIT "-m32")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-m32")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-m32")
find_program(LIBGCM_QEMU_I386 qemu-i386)
if(LIBGCM_QEMU_I386)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${LIBGCM_QEMU_I386})
endif()
