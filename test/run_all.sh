#!/usr/bin/env bash
# The whole test suite, as README.md's test command and CI run it.
#
#   1. Release build, native: every GoogleTest suite through ctest, the
#      dispatch tiers (OPENSSL_ia32cap masks and qemu-x86_64 CPU models),
#      the valgrind constant-time checks, the ABI and assembler-flavour
#      checks, packaging and the speed tool's smoke tests.
#   2. 32-bit x86 build (gcc -m32, no SSE2, so the 64-bit-word bitslice and
#      ct32 GHASH run), whole test binary under qemu-i386.
#   3. test/sanitizers.sh and fuzz/run_fuzzers.sh where present.
#
# Build directories go under ${LIBGCM_TEST_BUILD:-build-test}. Exits non-zero
# on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
out=${LIBGCM_TEST_BUILD:-$top/build-test}
jobs=${LIBGCM_JOBS:-2}
mkdir -p "$out"

stage() { printf '\n==== %s (%s)\n' "$1" "$(date +%T)"; }

stage "1/4 native build and ctest"
cmake -S "$top" -B "$out/native" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$out/native" -j"$jobs"
ctest --test-dir "$out/native" --output-on-failure -j"$jobs"

stage "2/4 32-bit x86 build under qemu-i386"
if command -v qemu-i386 >/dev/null && [ -d /usr/src/googletest ] &&
   echo 'int main(void){return 0;}' | gcc -m32 -x c - -o "$out/m32-probe" 2>/dev/null; then
  cmake -S "$top" -B "$out/m32" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-i686-m32.cmake" \
    -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest \
    -DLIBGCM_VALGRIND_ANNOTATIONS=OFF -DLIBGCM_BUILD_TOOL=OFF
  cmake --build "$out/m32" -j"$jobs" --target gcm_tests
  # The test binary as a whole, once plainly and once asserting the
  # portable 32-bit tier (bitsliced AES + ct32 GHASH).
  qemu-i386 "$out/m32/test/gcm_tests" --gtest_brief=1
  LIBGCM_EXPECT_PAIR=ct/ct32 qemu-i386 "$out/m32/test/gcm_tests" \
    --gtest_brief=1 --gtest_filter='Dispatch.*'
else
  echo "32-bit stage needs qemu-user, gcc-12-multilib/g++-12-multilib and libgtest-dev sources" >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
fi

stage "3/4 sanitizers"
if [ -x "$top/test/sanitizers.sh" ]; then
  SAN_BUILD_DIR="$out/asan" TSAN_BUILD_DIR="$out/tsan" JOBS="$jobs" \
    "$top/test/sanitizers.sh" all
else
  echo "test/sanitizers.sh not present"
fi

stage "4/4 fuzzers"
if [ -x "$top/fuzz/run_fuzzers.sh" ]; then
  "$top/fuzz/run_fuzzers.sh" "$out"
else
  echo "fuzz/run_fuzzers.sh not present"
fi

stage "all stages passed"
