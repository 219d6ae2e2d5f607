# What the two MinGW-w64 toolchain files share (toolchain-x86_64-w64-mingw32
# and toolchain-i686-w64-mingw32 call it with their own values):
#   libgcm_mingw_toolchain(TRIPLET PROCESSOR NASM_FORMAT WINE_LOADER)
# The compilers are MinGW's "posix" thread-model variants, linked with
# -static so no MinGW DLL has to travel with the programs or libgcm.dll;
# the kernels are assembled by NASM in NASM_FORMAT (win64, win32); programs
# run under Wine's WINE_LOADER (cmake/wine.cmake).
macro(libgcm_mingw_toolchain triplet processor nasm_format wine_loader)
  set(CMAKE_SYSTEM_NAME Windows)
  set(CMAKE_SYSTEM_PROCESSOR ${processor})
  set(CMAKE_C_COMPILER ${triplet}-gcc-posix)
  set(CMAKE_CXX_COMPILER ${triplet}-g++-posix)
  set(CMAKE_RC_COMPILER ${triplet}-windres)
  set(CMAKE_ASM_NASM_COMPILER nasm)
  set(CMAKE_ASM_NASM_OBJECT_FORMAT ${nasm_format})
  set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
  set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")
  set(CMAKE_FIND_ROOT_PATH /usr/${triplet})
  set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
  set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
  set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
  set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
  include(${CMAKE_CURRENT_LIST_DIR}/wine.cmake)
  libgcm_wine_emulator(${wine_loader})
endmacro()
