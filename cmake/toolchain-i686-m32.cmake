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
set(CMAKE_ASM_FLAGS_INIT "-m32")  # the perlasm kernels (asm/x86)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-m32")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-m32")
find_program(LIBGCM_QEMU_I386 qemu-i386)
if(LIBGCM_QEMU_I386)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${LIBGCM_QEMU_I386})
endif()

# Linux's user-space headers (<asm/errno.h>, reached from <errno.h>). On a
# Debian amd64 host they come from linux-libc-dev:amd64 and live only in the
# multiarch directory /usr/include/x86_64-linux-gnu/asm, which a -m32
# compiler does not search. They serve i386 as well: the x86 headers choose
# between the 32- and 64-bit definitions with __i386__. Debian's gcc-multilib
# adds a /usr/include/asm link for this, but it conflicts with the ARM cross
# compilers, and gcc-12-multilib does not add the link. So when the 32-bit
# compiler cannot see <asm/errno.h>, the build gets a private include
# directory of its own whose asm/ points at the multiarch one; nothing
# outside the build tree is touched.
if(NOT EXISTS /usr/include/asm/errno.h)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-multiarch
                  OUTPUT_VARIABLE _libgcm_multiarch
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(_libgcm_uapi_asm "/usr/include/${_libgcm_multiarch}/asm")
  if(_libgcm_multiarch AND EXISTS "${_libgcm_uapi_asm}/errno.h")
    set(_libgcm_m32_inc "${CMAKE_BINARY_DIR}/m32-kernel-headers")
    if(NOT EXISTS "${_libgcm_m32_inc}/asm/errno.h")
      file(MAKE_DIRECTORY "${_libgcm_m32_inc}")
      file(CREATE_LINK "${_libgcm_uapi_asm}" "${_libgcm_m32_inc}/asm" SYMBOLIC)
    endif()
    # -idirafter: searched after every system directory, so it only
    # supplies what the 32-bit headers lack.
    string(APPEND CMAKE_C_FLAGS_INIT " -idirafter ${_libgcm_m32_inc}")
    string(APPEND CMAKE_CXX_FLAGS_INIT " -idirafter ${_libgcm_m32_inc}")
  endif()
endif()
