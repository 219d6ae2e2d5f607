# Included by ctest (TEST_INCLUDE_FILES, see CMakeLists.txt here) each time
# it reads the test list, with CT_CHECK, CT_VALGRIND, CT_VALGRIND_ARGS,
# CT_CMAKE, CT_NEGATIVE_SCRIPT and CT_WORK_DIR set. Registers one test per
# backend pair that this machine can run, as reported by ct_check itself.

if(NOT EXISTS "${CT_CHECK}")
  # Not built (yet): a visible failure rather than silently no tests.
  add_test(ct.valgrind.NOT_BUILT "${CT_CHECK}" --list-ct-pairs)
  return()
endif()

# Reads `ct_check <option>` into a list of "aes ghash" pairs (or, with
# `words` 3, "aes ghash fused" triples).
function(_ct_pairs option words out)
  execute_process(COMMAND "${CT_CHECK}" ${option}
                  OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    set(${out} "ERROR" PARENT_SCOPE)
    return()
  endif()
  if(words EQUAL 3)
    string(REGEX MATCHALL "[A-Za-z0-9_]+ [A-Za-z0-9_]+ [A-Za-z0-9_]+" pairs "${text}")
  else()
    string(REGEX MATCHALL "[A-Za-z0-9_]+ [A-Za-z0-9_]+" pairs "${text}")
  endif()
  set(${out} "${pairs}" PARENT_SCOPE)
endfunction()

_ct_pairs(--list-ct-pairs 3 _ct_ct)
_ct_pairs(--list-vt-pairs 2 _ct_vt)

if(_ct_ct STREQUAL "ERROR" OR _ct_vt STREQUAL "ERROR")
  add_test(ct.valgrind.LIST_FAILED "${CT_CHECK}" --list-ct-pairs)
  return()
endif()
if(NOT _ct_ct)
  # There is always a portable constant-time pair; none means a broken list.
  add_test(ct.valgrind.NO_CONSTANT_TIME_PAIR "${CT_CHECK}" --list)
  set_tests_properties(ct.valgrind.NO_CONSTANT_TIME_PAIR PROPERTIES WILL_FAIL TRUE)
  return()
endif()

foreach(_pair IN LISTS _ct_ct)
  string(REPLACE " " ";" _p "${_pair}")
  list(GET _p 0 _aes)
  list(GET _p 1 _ghash)
  list(GET _p 2 _fused)
  # The two passes keep the plain pair's name; a fused kernel adds its own.
  if(_fused STREQUAL "none")
    set(_name "ct.valgrind.${_aes}_${_ghash}")
  else()
    set(_name "ct.valgrind.${_aes}_${_ghash}.fused_${_fused}")
  endif()
  add_test("${_name}" "${CT_VALGRIND}" ${CT_VALGRIND_ARGS}
           "${CT_CHECK}" --aes "${_aes}" --ghash "${_ghash}" --fused "${_fused}")
  set_tests_properties("${_name}" PROPERTIES
    LABELS "ct;valgrind" SKIP_RETURN_CODE 77 TIMEOUT 600
    WORKING_DIRECTORY "${CT_WORK_DIR}")
endforeach()

# Extra negative controls the build asks for (CT_EXTRA_VT_PAIRS, see
# CMakeLists.txt here), when the list does not have them already.
# (list(FIND), not IN_LIST: ctest reads this file without a policy scope.)
foreach(_pair IN LISTS CT_EXTRA_VT_PAIRS)
  list(FIND _ct_vt "${_pair}" _at)
  if(_at EQUAL -1)
    list(APPEND _ct_vt "${_pair}")
  endif()
endforeach()

foreach(_pair IN LISTS _ct_vt)
  string(REPLACE " " ";" _p "${_pair}")
  list(GET _p 0 _aes)
  list(GET _p 1 _ghash)
  set(_name "ct.valgrind.negative.${_aes}_${_ghash}")
  # The variable-time half is the one whose frames must show up in reports.
  execute_process(COMMAND "${CT_CHECK}" --list OUTPUT_VARIABLE _list)
  if(_list MATCHES "(^|\n)aes +${_aes} [^\n]*constant_time=0")
    set(_suspect "${_aes}")
  else()
    set(_suspect "${_ghash}")
  endif()
  string(REPLACE ";" "|" _args "${CT_VALGRIND_ARGS}")
  add_test("${_name}" "${CT_CMAKE}"
           "-DCT_CHECK=${CT_CHECK}" "-DCT_VALGRIND=${CT_VALGRIND}"
           "-DCT_VALGRIND_ARGS=${_args}" "-DCT_AES=${_aes}"
           "-DCT_GHASH=${_ghash}" "-DCT_SUSPECT=${_suspect}"
           "-DCT_LOG=${CT_WORK_DIR}/negative_${_aes}_${_ghash}.log"
           -P "${CT_NEGATIVE_SCRIPT}")
  set_tests_properties("${_name}" PROPERTIES
    LABELS "ct;valgrind" SKIP_REGULAR_EXPRESSION "ct_check: SKIP" TIMEOUT 600
    WORKING_DIRECTORY "${CT_WORK_DIR}")
endforeach()
