# Smoke test for gcm-speed, run by ctest as
#   cmake -DSPEED=<gcm-speed> -DARGS="<args>" [-DRUN=<emulator>] [-DEXPECT_RC=n]
#         [-DEXPECT=<regex>] [-DJSON_RESULTS=n] -P speed_smoke_test.cmake
# Checks the exit code (default 0), that stdout+stderr match EXPECT, and,
# with JSON_RESULTS, that stdout parses as JSON holding that many results,
# each with the fields the documentation promises.
cmake_minimum_required(VERSION 3.25)

if(NOT DEFINED SPEED)
  message(FATAL_ERROR "SPEED (the gcm-speed executable) is not set")
endif()
if(NOT DEFINED EXPECT_RC)
  set(EXPECT_RC 0)
endif()
separate_arguments(args UNIX_COMMAND "${ARGS}")
# RUN: what runs the program (Wine for the Windows builds), `|`-separated.
string(REPLACE "|" ";" run "${RUN}")

execute_process(
  COMMAND ${run} "${SPEED}" ${args}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  TIMEOUT 300)
# A Windows program's text-mode stdio ends lines with \r\n.
string(REPLACE "\r" "" out "${out}")
string(REPLACE "\r" "" err "${err}")

message("$ gcm-speed ${ARGS}\n--- stdout ---\n${out}--- stderr ---\n${err}--- exit ${rc}")

if(NOT "${rc}" STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_RC}")
endif()
if(DEFINED EXPECT AND NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "output does not match: ${EXPECT}")
endif()

if(DEFINED JSON_RESULTS)
  string(JSON n ERROR_VARIABLE jerr LENGTH "${out}" results)
  if(jerr)
    message(FATAL_ERROR "stdout is not the promised JSON: ${jerr}")
  endif()
  if(NOT n EQUAL JSON_RESULTS)
    message(FATAL_ERROR "${n} results, expected ${JSON_RESULTS}")
  endif()
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    foreach(field algorithm size direction aes ghash ops microseconds mb_per_s)
      string(JSON v ERROR_VARIABLE jerr GET "${out}" results ${i} ${field})
      if(jerr)
        message(FATAL_ERROR "result ${i} has no '${field}': ${jerr}")
      endif()
    endforeach()
    string(JSON ops GET "${out}" results ${i} ops)
    if(NOT ops GREATER 0)
      message(FATAL_ERROR "result ${i}: ops is ${ops}")
    endif()
  endforeach()
endif()
