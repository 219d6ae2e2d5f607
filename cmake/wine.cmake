# cmake/wine.cmake: runs the Windows cross builds' programs under Wine
# (included by the MinGW-w64 toolchain files).
#
# libgcm_wine_emulator(<loader>) finds Wine's loader (wine64 for x86_64,
# wine for i686; Debian installs them in /usr/lib/wine, and without the
# `wine` package's wrappers not on PATH) and makes it the cross-compiling
# emulator, so ctest, gtest_discover_tests and add_test with a target name
# run the .exe under Wine. The command sets, for every run:
#   WINEPREFIX  a Wine prefix inside the build tree (created on first use,
#               a few seconds), never the user's ~/.wine;
#   WINEDEBUG=-all         no Wine diagnostics on stderr;
#   WINEDLLOVERRIDES=mscoree,mshtml=   no prompts to install Mono or
#               Gecko when the prefix is created (a console program needs
#               neither);
#   DISPLAY=    nothing is drawn: console programs only.
# The command is also in LIBGCM_WINE (a list), for tests that put
# `cmake -E env VAR=...` in front of it.
# With -DLIBGCM_NO_WINE=ON there is no emulator: the programs are built
# and not run (test/CMakeLists.txt then registers no test of gcm_tests),
# for a host whose Wine cannot run them (32-bit Wine on a kernel that runs
# no 32-bit x86 programs).
macro(libgcm_wine_emulator loader)
  if(NOT LIBGCM_NO_WINE)
    find_program(LIBGCM_WINE_LOADER ${loader} PATHS /usr/lib/wine NO_CACHE)
  endif()
  if(LIBGCM_WINE_LOADER)
    set(LIBGCM_WINE ${CMAKE_COMMAND} -E env
        "WINEPREFIX=${CMAKE_BINARY_DIR}/wineprefix" WINEDEBUG=-all
        "WINEDLLOVERRIDES=mscoree,mshtml=" DISPLAY=
        ${LIBGCM_WINE_LOADER})
    set(CMAKE_CROSSCOMPILING_EMULATOR ${LIBGCM_WINE})
  endif()
endmacro()
