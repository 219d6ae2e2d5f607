# Negative control for the constant-time harness (cmake -P; registered by
# ct_tests.cmake). Runs ct_check under memcheck on a pair containing a
# variable-time backend, CT_SUSPECT, and passes only when
#   - valgrind exits with its error exit code (it found something),
#   - at least one "Conditional jump or move depends on uninitialised
#     value(s)" or "Use of uninitialised value of size N" report has a frame
#     in CT_SUSPECT's code (a function whose name contains its name), so the
#     reports come from the leak we planted and not from somewhere else,
#   - ct_check's own functional checks passed (its "...: OK" line).
# That proves the secrets are marked, the marks reach the backends, and a
# table lookup indexed by a secret is seen.
#
# Inputs: CT_CHECK, CT_VALGRIND, CT_VALGRIND_ARGS ("|"-separated), CT_AES,
# CT_GHASH, CT_SUSPECT, CT_LOG (memcheck's log file).

string(REPLACE "|" ";" _args "${CT_VALGRIND_ARGS}")
set(_code 1)
if(CT_VALGRIND_ARGS MATCHES "--error-exitcode=([0-9]+)")
  set(_code "${CMAKE_MATCH_1}")
endif()

file(REMOVE "${CT_LOG}")
execute_process(
  COMMAND "${CT_VALGRIND}" ${_args} "--log-file=${CT_LOG}"
          "${CT_CHECK}" --aes "${CT_AES}" --ghash "${CT_GHASH}"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}${_err}")
if(_out MATCHES "ct_check: SKIP")
  return() # SKIP_REGULAR_EXPRESSION turns this into a skip
endif()
if(NOT EXISTS "${CT_LOG}")
  message(FATAL_ERROR "negative control: valgrind wrote no log (exit ${_rc})")
endif()

# Walk the log report by report. A report starts with its kind line and
# ends at the next "==PID== " line with nothing after it.
file(STRINGS "${CT_LOG}" _lines)
set(_reports 0)  # secret-dependent branch/address reports (contexts)
set(_in_suspect 0)
set(_in 0)
set(_hit 0)
set(_first "")
set(_summary "")
string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" _re "${CT_SUSPECT}")
foreach(_l IN LISTS _lines)
  if(_l MATCHES "Conditional jump or move depends on uninitialised|Use of uninitialised value of size")
    math(EXPR _reports "${_reports} + 1")
    set(_in 1)
    set(_hit 0)
    set(_block "${_l}\n")
  elseif(_in AND _l MATCHES "^==[0-9]+== *$")
    set(_in 0)
    if(_hit)
      math(EXPR _in_suspect "${_in_suspect} + 1")
      if(_first STREQUAL "")
        set(_first "${_block}")
      endif()
    endif()
  elseif(_in)
    string(APPEND _block "${_l}\n")
    if(_l MATCHES "(at|by) 0x[0-9A-Fa-f]+: [^ ]*${_re}")
      set(_hit 1)
    endif()
  endif()
  if(_l MATCHES "ERROR SUMMARY: .*")
    set(_summary "${CMAKE_MATCH_0}")
  endif()
endforeach()

message("negative control ${CT_AES}+${CT_GHASH}: valgrind exit ${_rc}; "
        "${_summary}; ${_reports} secret-dependent branch/address report(s), "
        "${_in_suspect} with frames in '${CT_SUSPECT}'")
if(NOT _first STREQUAL "")
  message("first report in '${CT_SUSPECT}':\n${_first}")
endif()

set(_bad "")
if(NOT _rc STREQUAL "${_code}")
  string(APPEND _bad " valgrind exit code ${_rc}, expected ${_code};")
endif()
if(_in_suspect EQUAL 0)
  string(APPEND _bad " no secret-dependent report inside '${CT_SUSPECT}';")
endif()
if(NOT _out MATCHES ": OK")
  string(APPEND _bad " ct_check's functional checks did not pass;")
endif()
if(NOT _bad STREQUAL "")
  message(FATAL_ERROR "negative control FAILED: the harness did not see the "
                      "variable-time backend leak:${_bad} log: ${CT_LOG}")
endif()
message("negative control passed: memcheck sees '${CT_SUSPECT}' leak")
