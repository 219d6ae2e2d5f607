# test/packaging/c_only_build.cmake (cmake -P; ctest packaging.c_only):
# libgcm configures, builds and installs with a C compiler alone, as an
# embedded TLS stack's toolchain would, and the installed package is used
# from a C-only project.
#
# A nested build of the source tree with the C++ compiler pointed at a path
# that does not exist and everything C++ off (the GoogleTest suites, the
# provider's tests, the fuzzers): configuring must not look for C++
# (CMakeFiles/<version>/CMakeCXXCompiler.cmake must not exist), and the
# default targets (libgcm.a, libgcm.so, gcm-speed and the other C tools,
# the provider module where OpenSSL 3 is found) must build, warning-free
# when WERROR is ON. Then `cmake --install` into a scratch prefix, and
# test/packaging/consumer (a C project using find_package(libgcm)) is built
# against it, again without C++, and run.
#
# Variables: SRC (source tree), WORK (scratch directory, emptied), CC (the
# C compiler), GENERATOR, MAKE_PROGRAM, BUILD_TYPE, WERROR (ON/OFF).
cmake_minimum_required(VERSION 3.25)

set(_no_cxx /nonexistent/c++)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "c-only build: ${what} failed (${rc}):\n${out}\n${err}")
  endif()
  message("c-only build: ${what}: ok")
endfunction()

set(_gen -G "${GENERATOR}")
if(MAKE_PROGRAM)
  list(APPEND _gen "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()

run("configure with CMAKE_CXX_COMPILER=${_no_cxx}"
    ${CMAKE_COMMAND} -S "${SRC}" -B "${WORK}/build" ${_gen}
    "-DCMAKE_C_COMPILER=${CC}" "-DCMAKE_CXX_COMPILER=${_no_cxx}"
    "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}" "-DLIBGCM_WERROR=${WERROR}"
    -DLIBGCM_BUILD_TESTS=OFF -DLIBGCM_FUZZ=OFF)
file(GLOB _cxx "${WORK}/build/CMakeFiles/*/CMakeCXXCompiler.cmake")
if(_cxx)
  message(FATAL_ERROR "c-only build: C++ was enabled (${_cxx})")
endif()

run("build (library, tools, provider)"
    ${CMAKE_COMMAND} --build "${WORK}/build" -j 2)
foreach(f libgcm.a gcm-speed)
  if(NOT EXISTS "${WORK}/build/${f}" AND NOT EXISTS "${WORK}/build/tool/${f}")
    message(FATAL_ERROR "c-only build: ${f} was not built")
  endif()
endforeach()
file(GLOB _so "${WORK}/build/libgcm.so*" "${WORK}/build/libgcm*.dylib"
     "${WORK}/build/*gcm*.dll")
if(NOT _so)
  message(FATAL_ERROR "c-only build: the shared library was not built")
endif()

run("install" ${CMAKE_COMMAND} --install "${WORK}/build" --prefix "${WORK}/prefix")

run("find_package(libgcm) from a C project"
    ${CMAKE_COMMAND} -S "${SRC}/test/packaging/consumer" -B "${WORK}/consumer"
    ${_gen} "-DCMAKE_C_COMPILER=${CC}" "-DCMAKE_CXX_COMPILER=${_no_cxx}"
    "-DCMAKE_PREFIX_PATH=${WORK}/prefix"
    "-DCOMPAT_PROGRAM=${SRC}/test/compat_program.c")
run("build the consumer" ${CMAKE_COMMAND} --build "${WORK}/consumer")
file(GLOB _libdir LIST_DIRECTORIES true "${WORK}/prefix/lib*")
string(REPLACE ";" ":" _libdir "${_libdir}")
foreach(p native_consumer compat_consumer)
  run("run ${p}" ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${_libdir}"
      "${WORK}/consumer/${p}")
endforeach()
