# asm/ct_report.cmake: the asm.ct_report test (and the asm_ct_report
# target). Runs every kernel's secret-register check and collects what the
# kernels declare, in one file for a reviewer: each function's public
# registers and every `# public:` exception with its reason (see
# asm/perlasm/ctcheck_x86.pm). Fails if any kernel fails the check.
#
# Variables: PERL, KERNELS (.pl files separated by `|`), OUT (the report).
cmake_minimum_required(VERSION 3.25)

string(REPLACE "|" ";" KERNELS "${KERNELS}")
set(report "")
set(failed FALSE)
foreach(pl IN LISTS KERNELS)
  execute_process(COMMAND ${PERL} ${pl} ct-report RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message("FAILED: ${pl}\n${err}")
    set(failed TRUE)
  endif()
  string(APPEND report "${out}")
endforeach()
file(WRITE ${OUT} "${report}")
message("Secret-register declarations of every kernel (also in ${OUT}):\n${report}")
if(failed)
  message(FATAL_ERROR "a kernel fails the secret-register check")
endif()
