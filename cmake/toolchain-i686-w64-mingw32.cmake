# Windows 32-bit x86 cross build with MinGW-w64 (Debian: gcc-mingw-w64-i686
# g++-mingw-w64-i686), the asm/x86 kernels assembled by NASM (-f win32)
# from the translator's win32 flavour, the objects an MSVC build would link
# too. ctest and test/run_all.sh run the programs under 32-bit Wine
# (Debian: dpkg --add-architecture i386, then wine32:i386). Use with
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-i686-w64-mingw32.cmake \
#         -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest ...
#
# As for x86_64 (toolchain-x86_64-w64-mingw32.cmake): the posix thread
# model for C++ std::thread, and the MinGW runtime linked statically.
# The C is compiled for the i686 baseline (no SSE2 but in
# crypto/aes/aes_ct_sse2.c, see CMakeLists.txt); the kernels check the CPU
# at run time.
include(${CMAKE_CURRENT_LIST_DIR}/mingw.cmake)
libgcm_mingw_toolchain(i686-w64-mingw32 i686 win32 wine)
