#!/bin/sh
# The Windows builds' install tree, as a Windows user gets it:
#   1. `cmake --install` lays out bin/ (libgcm.dll, gcm-speed.exe), lib/
#      (libgcm.dll.a, the DLL's import library, and libgcm.a, the static
#      library; the CMake package and the pkg-config files) and include/;
#   2. a separate CMake project (test/packaging/consumer) finds the package
#      with the same toolchain file and links libgcm::gcm (the DLL) and
#      libgcm::compat (the BoringSSL-compatible headers over the DLL); both
#      programs run under Wine with only the prefix's bin/ on Wine's PATH;
#   3. the installed gcm-speed.exe lists its backends (when it is built).
#
#   windows_install_test.sh BUILD_DIR SOURCE_DIR TOOLCHAIN_FILE WINE...
# WINE... is the command that runs a Windows program (cmake/wine.cmake's).
set -eu
build="$1"; src="$2"; toolchain="$3"
shift 3
work="$build/install-test"
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
# gcm-speed.exe where the build has it (-DLIBGCM_BUILD_TOOL=OFF has not).
speed=""
[ -f "$build/tool/gcm-speed.exe" ] && speed=bin/gcm-speed.exe
for f in bin/libgcm.dll $speed lib/libgcm.dll.a lib/libgcm.a \
         lib/cmake/libgcm/libgcmConfig.cmake lib/cmake/libgcm/libgcmTargets.cmake \
         lib/pkgconfig/libgcm.pc include/gcm/gcm.h include/gcm/compat/openssl/aead.h; do
  test -f "$prefix/$f" || { echo "windows_install_test: $f not installed" >&2; exit 1; }
done
echo "install layout: ok"

cmake -S "$src/test/packaging/consumer" -B "$work/consumer" \
  -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release \
  -Dlibgcm_DIR="$prefix/lib/cmake/libgcm" \
  -DCOMPAT_PROGRAM="$src/test/compat_program.c" >/dev/null
cmake --build "$work/consumer" >/dev/null
# The DLL is found through PATH, as on Windows (Wine reads WINEPATH).
export WINEPATH="Z:$prefix/bin"
"$@" "$work/consumer/native_consumer.exe"
"$@" "$work/consumer/compat_consumer.exe"
echo "find_package(libgcm) with libgcm.dll: ok"
if [ -n "$speed" ]; then
  "$@" "$prefix/$speed" --list | grep -q '^default '
  echo "installed gcm-speed.exe --list: ok"
fi
