# asm/check_flavours.cmake: the asm.flavours test (and the asm_flavours
# target). Generates every kernel in every flavour its translator knows
# and assembles each with the assembler it is meant for:
#   x86_64 kernels (asm/x86_64/):
#     elf, elf-msabi  clang -target x86_64-linux-gnu -c
#     macosx          clang -target x86_64-apple-macos -c
#     nasm            nasm -f win64 (and, when llvm-readobj is there, checks
#                     that every function has unwind information)
#   32-bit x86 kernels (asm/x86/):
#     elf             clang -target i686-linux-gnu -c (and, with
#                     llvm-readobj, checks that no relocation in .text
#                     is absolute: the code is position independent)
#     win32           nasm -f win32
#   aarch64 kernels (asm/aarch64/):
#     linux64         clang -target aarch64-linux-gnu -c (and, with
#                     llvm-readobj, checks the GNU property note: BTI and PAC)
#     ios64, macos64  clang -target arm64-apple-macos -c
#   32-bit ARM kernels (asm/armv4/):
#     linux32, linux32-thumb2
#                     clang -target armv7a-linux-gnueabihf -c (and, with
#                     llvm-readobj, checks that no relocation in .text is
#                     absolute: the constants are reached with adr)
# so a flavour nobody builds day to day still cannot rot. A missing tool
# skips its flavours; if nothing could be checked the script says
# "SKIPPED: nothing could be checked", which the test treats as a skip.
#
# Variables: PERL, NASM, CLANG, READOBJ (may be empty or *-NOTFOUND),
# KERNELS (.pl files separated by `|`), OUT (scratch directory).
cmake_minimum_required(VERSION 3.25)

string(REPLACE "|" ";" KERNELS "${KERNELS}")
file(MAKE_DIRECTORY ${OUT})
set(checked 0)
set(failed "")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message("FAILED: ${cmd}\n${out}${err}")
    set(ok FALSE PARENT_SCOPE)
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

foreach(pl IN LISTS KERNELS)
  get_filename_component(name ${pl} NAME_WE)
  get_filename_component(archdir ${pl} DIRECTORY)
  get_filename_component(arch ${archdir} NAME)
  if(arch STREQUAL "x86")
    set(flavours elf win32)
  elseif(arch STREQUAL "aarch64")
    set(flavours linux64 ios64 macos64)
  elseif(arch STREQUAL "armv4")
    set(flavours linux32 linux32-thumb2)
  else()
    set(flavours elf elf-msabi macosx nasm)
  endif()
  foreach(fl IN LISTS flavours)
    if(fl STREQUAL "nasm" OR fl STREQUAL "win32")
      if(NOT NASM)
        message("skipped ${name} (${fl}): nasm not found")
        continue()
      endif()
      set(src ${OUT}/${name}-${fl}.asm)
      set(obj ${OUT}/${name}-${fl}.obj)
    else()
      if(NOT CLANG)
        message("skipped ${name} (${fl}): clang not found")
        continue()
      endif()
      set(src ${OUT}/${name}-${fl}.S)
      set(obj ${OUT}/${name}-${fl}.o)
    endif()
    set(ok TRUE)
    run(${PERL} ${pl} ${fl} ${src})
    if(ok)
      if(fl STREQUAL "win32")
        run(${NASM} -f win32 -Werror -o ${obj} ${src})
      elseif(arch STREQUAL "x86")
        run(${CLANG} -target i686-linux-gnu -c -o ${obj} ${src})
        if(ok AND READOBJ)
          # Position independent: PC-relative relocations only in code.
          run(${READOBJ} --relocations ${obj})
          string(REGEX MATCH "Section \\([0-9]+\\) \\.rel\\.text {[^}]*R_386_32 [^}]*}"
                 abs "${last_output}")
          if(abs)
            message("FAILED: ${name} (elf): absolute relocation in .text")
            set(ok FALSE)
          endif()
        endif()
      elseif(fl STREQUAL "nasm")
        run(${NASM} -f win64 -Werror -o ${obj} ${src})
        if(ok AND READOBJ)
          # One RuntimeFunction per `.function` in the kernel.
          file(STRINGS ${src} globals REGEX "^global ")
          list(LENGTH globals nfunc)
          run(${READOBJ} --unwind ${obj})
          string(REGEX MATCHALL "RuntimeFunction {" rf "${last_output}")
          list(LENGTH rf nrf)
          if(NOT nrf EQUAL nfunc)
            message("FAILED: ${name} (nasm): ${nfunc} functions, ${nrf} unwind entries")
            set(ok FALSE)
          endif()
        endif()
      elseif(fl STREQUAL "linux64")
        run(${CLANG} -target aarch64-linux-gnu -c -o ${obj} ${src})
        if(ok AND READOBJ)
          run(${READOBJ} --notes ${obj})
          if(NOT last_output MATCHES "BTI" OR NOT last_output MATCHES "PAC")
            message("FAILED: ${name} (linux64): no BTI/PAC GNU property note")
            set(ok FALSE)
          endif()
        endif()
      elseif(arch STREQUAL "armv4")
        run(${CLANG} -target armv7a-linux-gnueabihf -c -o ${obj} ${src})
        if(ok AND READOBJ)
          run(${READOBJ} --relocations ${obj})
          string(REGEX MATCH "Section \\([0-9]+\\) \\.rel\\.text {[^}]*R_ARM_ABS32 [^}]*}"
                 abs "${last_output}")
          if(abs)
            message("FAILED: ${name} (${fl}): absolute relocation in .text")
            set(ok FALSE)
          endif()
        endif()
      elseif(fl STREQUAL "ios64" OR fl STREQUAL "macos64")
        run(${CLANG} -target arm64-apple-macos -c -o ${obj} ${src})
      elseif(fl STREQUAL "macosx")
        run(${CLANG} -target x86_64-apple-macos -c -o ${obj} ${src})
      else()
        run(${CLANG} -target x86_64-linux-gnu -c -o ${obj} ${src})
      endif()
    endif()
    if(ok)
      message("ok      ${name} (${fl})")
      math(EXPR checked "${checked} + 1")
    else()
      list(APPEND failed "${name} (${fl})")
    endif()
  endforeach()
endforeach()

if(failed)
  string(REPLACE ";" ", " failed "${failed}")
  message(FATAL_ERROR "flavours that do not assemble: ${failed}")
endif()
if(checked EQUAL 0)
  message("SKIPPED: nothing could be checked")
endif()
