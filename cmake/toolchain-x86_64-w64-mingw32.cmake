# Windows x86_64 cross build with MinGW-w64 (Debian: gcc-mingw-w64-x86-64
# g++-mingw-w64-x86-64), the asm/x86_64 kernels assembled by NASM
# (-f win64) from the translator's nasm flavour, the same objects an MSVC
# build would link. ctest and test/run_all.sh run the programs under Wine
# (Debian: wine64). Use with
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-x86_64-w64-mingw32.cmake \
#         -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest ...
#
# The compilers are the "posix" thread-model variants: with GCC 12 only they
# give C++ std::thread and std::mutex (GoogleTest and the concurrency tests
# use them); the "win32" variants, Debian's default alternative, lack them.
# The posix model brings libwinpthread: like libgcc and libstdc++ it is
# linked statically (-static), so every .exe and libgcm.dll runs without
# MinGW's DLLs beside it.
include(${CMAKE_CURRENT_LIST_DIR}/mingw.cmake)
libgcm_mingw_toolchain(x86_64-w64-mingw32 AMD64 win64 wine64)
