#!/usr/bin/env bash
# test/sanitizers.sh: the test suite under the compiler's sanitizers.
#
#   1. AddressSanitizer + UndefinedBehaviorSanitizer, every report fatal
#      (-fno-sanitize-recover=all): a separate build, assembly kernels
#      included, running the whole ctest suite except the tests labelled
#      `valgrind` (valgrind and ASan cannot share a process), the install
#      test (it links the installed library into programs built without
#      the sanitizer runtime) and the qemu.* tier tests (qemu-user cannot
#      reserve ASan's shadow memory cheaply: gigabytes per process, and
#      the tiers are covered natively by the ia32cap.* tests), the
#      ia32cap.* tier runs themselves (each reruns the whole binary to
#      check which pair a mask picks; the parameterised suites already run
#      every usable backend under the sanitizer, and the picks are checked
#      natively), and the
#      tests labelled `openssl-program` (provider/test: the openssl
#      program, s_server/s_client and curl are not instrumented, and an
#      ASan-instrumented libgcm.so cannot be loaded into them), and the
#      asm.* checks (perl and the assemblers on the perlasm output: no
#      instrumented code runs in them). The
#      provider's own EVP tests (provider.evp.*) do run: their test
#      program is instrumented and loads the instrumented module. The
#      large NIST files run sampled (LIBGCM_VECTORS_SAMPLE=1,
#      test/vectors_test.cc): every case on the pick, and on every other
#      backend triple every 8th case, which still covers every length,
#      AAD length and tag length of the grid, what a memory error would
#      depend on; the generated, Wycheproof and BoringSSL files run in
#      full on every triple.
#   2. ThreadSanitizer: a separate build running the tests labelled
#      `concurrency` (test/first_use.c, test/concurrency_test.cc), where
#      TSan proves that dispatch initialisation and shared keys and
#      contexts are free of data races.
#
# Usage: test/sanitizers.sh [asan|tsan|all]      (default: all)
# Environment:
#   CC, CXX          compilers (default: cc / c++; gcc and clang both work;
#                    test/run_all.sh runs clang's; with clang the shared
#                    library leaves the sanitizer runtime's symbols to the
#                    executable, see CMakeLists.txt)
#   SAN_BUILD_DIR    ASan+UBSan build directory (default: build-san)
#   TSAN_BUILD_DIR   TSan build directory (default: build-tsan)
#   JOBS             parallel build and test jobs (default: 2)
#   CMAKE_GENERATOR  as for cmake (default: Ninja when available)
# Extra arguments after the stage are passed to cmake at configure time,
# e.g. -DLIBGCM_NO_ASM=ON.
set -euo pipefail

cd "$(dirname "$0")/.."
stage="${1:-all}"
[ $# -gt 0 ] && shift
case "$stage" in
  asan|tsan|all) ;;
  *) echo "usage: $0 [asan|tsan|all] [cmake args...]" >&2; exit 2 ;;
esac

jobs="${JOBS:-2}"
san_dir="${SAN_BUILD_DIR:-build-san}"
tsan_dir="${TSAN_BUILD_DIR:-build-tsan}"
if [ -z "${CMAKE_GENERATOR:-}" ] && command -v ninja >/dev/null 2>&1; then
  export CMAKE_GENERATOR=Ninja
fi

# Optimised enough to run the suite quickly, with frames and line numbers
# for readable reports.
base_flags="-O1 -g -fno-omit-frame-pointer"

configure() {
  local dir="$1" flags="$2"
  shift 2
  cmake -S . -B "$dir" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="$base_flags" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$base_flags" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" \
    "$@" >/dev/null
}

run_asan() {
  local t0=$SECONDS
  echo "== ASan+UBSan build in $san_dir"
  configure "$san_dir" "-fsanitize=address,undefined -fno-sanitize-recover=all" "$@"
  cmake --build "$san_dir" -j"$jobs"
  # halt_on_error / abort: the first report fails the test that caused it.
  # detect_leaks: libgcm never allocates, so any leak is the tests' own.
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  LIBGCM_VECTORS_SAMPLE=1 \
    ctest --test-dir "$san_dir" --output-on-failure -j"$jobs" \
      -LE '^(valgrind|openssl-program)$' \
      -E '^(packaging\.install|qemu\..*|ia32cap\..*|asm\..*)$'
  echo "== ASan+UBSan: passed in $((SECONDS - t0)) s"
}

run_tsan() {
  local t0=$SECONDS
  echo "== TSan build in $tsan_dir"
  configure "$tsan_dir" "-fsanitize=thread" "$@"
  cmake --build "$tsan_dir" -j"$jobs" --target gcm_tests first_use
  # second_deadlock_stack: full reports should a lock ever be involved.
  TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" \
    ctest --test-dir "$tsan_dir" --output-on-failure -j"$jobs" -L concurrency
  echo "== TSan: passed in $((SECONDS - t0)) s"
}

case "$stage" in
  asan) run_asan "$@" ;;
  tsan) run_tsan "$@" ;;
  all) run_asan "$@"; run_tsan "$@" ;;
esac
