#!/usr/bin/env bash
# The whole test suite, as README.md's test command and CI run it.
#
#   1. Release build, native: every GoogleTest suite through ctest (in
#      four shards, LIBGCM_TEST_SHARDS: docs/testing.md), the
#      dispatch tiers (OPENSSL_ia32cap masks and qemu-x86_64 CPU models),
#      the valgrind constant-time checks, the ABI and assembler-flavour
#      checks, packaging and the speed tool's smoke tests.
#   2. 32-bit x86 build (gcc -m32; the C is built without SSE2 except
#      crypto/aes/aes_ct_sse2.c, and ct_sse2 and the asm/x86 kernels check
#      the CPU at run time): the whole test binary natively where this
#      machine's kernel runs 32-bit binaries (else under qemu-i386), then
#      the dispatch tiers under qemu-i386 CPU models that really lack
#      features: Westmere (AES-NI + PCLMULQDQ), n270 (SSSE3 only),
#      coreduo (SSE2/SSE3, no SSSE3: ct_sse2/sse2), pentium3 (no SSE2):
#      the Dispatch tests asserting the pick, plus the backend suites and a
#      vector sample; natively, the OPENSSL_ia32cap mask of the SSE2 tier
#      and valgrind's x86 memcheck over every pair its CPU runs; the trace
#      check (qemu-i386 -cpu Westmere) and the disassembly scan over the
#      32-bit build.
#   3. aarch64 cross build (gcc-aarch64-linux-gnu; the asm/aarch64 kernels)
#      under qemu-aarch64, through that build's ctest (label qemu-aarch64,
#      test/CMakeLists.txt): the whole test binary with -cpu cortex-a53
#      expecting armv8/pmull/armv8_pmull, under -cpu max the tier check
#      (armv8_pmull_eor3: max has FEAT_SHA3; and armv8_pmull with SHA3
#      hidden), ABI and fused suites unmasked, and the Dispatch, ABI and backend
#      suites with a vector sample with LIBGCM_ARMCAP hiding PMULL
#      (armv8/neon), AES+PMULL (the NEON tier, vpaes_neon/neon) and
#      AES+PMULL+ASIMD (ct/ct64), and the trace check (test/ct) under
#      -cpu max, and tool/arm-model's extraction of each aarch64 kernel's
#      loop checked under qemu (skipped without llvm-mca 17+); then the
#      disassembly scan over the aarch64 build and
#      libgcm built with -mbranch-protection=standard in a BTI-enforced
#      process (test/bti/bti_check.c) under -cpu max.
#   3b. 32-bit ARM cross builds (gcc-arm-linux-gnueabihf: ARMv7-A hard
#      float with the asm/armv4 kernels, as A32 and as Thumb-2;
#      gcc-arm-linux-gnueabi: ARMv5TE soft float, portable C only) under
#      qemu-arm: the whole A32 test binary with -cpu cortex-a15 (NEON, no
#      crypto extension) expecting bsaes_neon/neon (without the ct AES
#      pairs, which the neon=off and armel runs cover); under -cpu max the
#      Dispatch, ABI and backend suites with a vector sample, A32 and
#      Thumb-2, expecting armv8_32/pmull32, with LIBGCM_ARMCAP hiding
#      AES+PMULL (bsaes_neon/neon) and, for Thumb-2, hiding NEON (ct/ct32);
#      the same suites of the A32 build under -cpu cortex-a15,neon=off
#      (a core without NEON: ct/ct32); the armel build's Dispatch and
#      backend suites with a vector sample under -cpu arm926 expecting
#      ct/ct32; the trace check and the disassembly scan (test/ct) over
#      each build; tool/arm-model's extraction of each ARM kernel's loop
#      checked under qemu (A32 and Thumb-2; skipped without llvm-mca 17+).
#   3c. Windows cross builds (MinGW-w64, the kernels from the perlasm NASM
#      flavour, nasm -f win64 / -f win32) run under Wine through each
#      build's ctest: the whole test binary, the OPENSSL_ia32cap tiers, the
#      env.* and concurrency entries, the random source's BCryptGenRandom
#      failure path, the speed tool's smoke tests, symbol hygiene,
#      libgcm.dll's exports against the headers and the install tree with
#      a find_package consumer; the win64 build's ABI checker runs every
#      kernel in a Windows process (callee-saved xmm6-15, rdi, rsi).
#      For the i686 build the same, but for gcm-speed (not built there);
#      on a kernel that runs no 32-bit x86 binaries wine32 cannot start
#      (and under qemu-i386 it crashes inside Wine), so there the i686
#      build is built without Wine and only its host-side checks run, and
#      the stage says so; the same where wine32:i386 is not installed
#      (README installs it on its own: see there).
#      Each build keeps its Wine prefix in its own tree.
#   4. test/sanitizers.sh with clang: ASan+UBSan and TSan (gcc's ASan+UBSan
#      is the same script with CC=gcc, by hand: CI time).
#   5. fuzz/run_fuzzers.sh.
#   6. The Debian packages (debian/): built with dpkg-buildpackage, the
#      test suite inside; lintian; installed, used and removed
#      (test/packaging/debian_package.sh).
# Every libgcm build here uses -DLIBGCM_WERROR=ON: a warning fails the run.
#
# Build directories go under ${LIBGCM_TEST_BUILD:-build-test}. Exits non-zero
# on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
out=${LIBGCM_TEST_BUILD:-$top/build-test}
jobs=${LIBGCM_JOBS:-2}
mkdir -p "$out"

# Each stage's marker gives the time and the CPU time this script's
# finished child processes have used so far (from /proc: CI time).
stage() {
  local cpu
  cpu=$(awk -v hz="$(getconf CLK_TCK)" \
    '{ printf "%.0f s user, %.0f s system", $16 / hz, $17 / hz }' "/proc/$$/stat")
  printf '\n==== %s (%s; CPU so far: %s)\n' "$1" "$(date +%T)" "$cpu"
}

# One long single-process run (a whole test binary under qemu) beside the
# stage's other steps, so that both cores work: bg_start NAME CMD... starts
# it with its output in $out/NAME.log; bg_wait NAME prints that output and
# fails the stage if the run failed.
declare -A bg_pids=()
bg_start() {
  local name=$1
  shift
  echo "-- started beside the steps below: $name"
  "$@" >"$out/$name.log" 2>&1 &
  bg_pids[$name]=$!
}
bg_wait() {
  local name=$1 rc=0
  wait "${bg_pids[$name]}" || rc=$?
  echo "-- $name (run beside the steps above):"
  cat "$out/$name.log"
  if [ "$rc" -ne 0 ]; then
    echo "$name failed (exit $rc)" >&2
    exit "$rc"
  fi
}

# True where this machine's kernel itself runs 32-bit x86 binaries (IA32
# emulation). A static probe tells, since a dynamic one could also fail for
# want of 32-bit libraries. A binfmt_misc entry handing i386 ELF files to an
# emulator (qemu-user-binfmt, or one registered by hand) makes the probe run
# too, but valgrind's x86 tool and wine32 then run under qemu-i386 and crash
# ("host state invariant failure", stack smashing): such an entry counts as
# no.
ia32_native() {
  local entry
  for entry in /proc/sys/fs/binfmt_misc/*; do
    case ${entry##*/} in register | status) continue ;; esac
    [ -f "$entry" ] || continue
    if grep -qx enabled "$entry" &&
       grep -Eq '^magic 7f454c460101[0-9a-f]*0300$' "$entry"; then
      echo "binfmt_misc entry ${entry##*/} emulates i386 ELF files: not native" >&2
      return 1
    fi
  done
  echo 'int main(void){return 0;}' |
    gcc -m32 -static -x c - -o "$out/ia32-static-probe" 2>/dev/null &&
    "$out/ia32-static-probe" 2>/dev/null
}


stage "1/6 native build and ctest"
cmake -S "$top" -B "$out/native" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLIBGCM_WERROR=ON -DLIBGCM_TEST_SHARDS=4
cmake --build "$out/native" -j"$jobs"
ctest --test-dir "$out/native" --output-on-failure -j"$jobs"

stage "2/6 32-bit x86 build"
if command -v qemu-i386 >/dev/null && [ -d /usr/src/googletest ] &&
   echo 'int main(void){return 0;}' | gcc -m32 -x c - -o "$out/m32-probe" 2>/dev/null; then
  cmake -S "$top" -B "$out/m32" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-i686-m32.cmake" \
    -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest \
    -DLIBGCM_BUILD_TOOL=OFF \
    -DLIBGCM_WERROR=ON
  cmake --build "$out/m32" -j"$jobs" --target gcm_tests ct_trace_workload
  # Where this machine's kernel runs 32-bit binaries (ia32_native), the
  # whole test binary runs natively; otherwise under qemu-i386 with the
  # host-like default CPU model.
  # Under qemu-i386 (CI time: the whole binary took about 8 minutes
  # there), the vector files are sampled as in the other emulated runs and
  # the portable AES backends (ct, ct_sse2) stay out of the engine-path
  # and pair-agreement suites: those suites test the C engine, which every
  # other pair here and every pair of stage 1 runs, and the portable pairs
  # run the vector files in their own tiers below (coreduo, pentium3).
  if ia32_native; then
    run=() whole_env=() whole_filter='*'
    echo "-- 32-bit test binary, run natively"
  else
    run=(qemu-i386) whole_env=(LIBGCM_VECTORS_SAMPLE=1)
    whole_filter='-All/ModePaths.*/ct*:AllPairs/BackendPairTest.*/ct*'
    echo "this kernel does not run 32-bit x86 binaries: qemu-i386 only"
  fi
  bg_start m32-whole env "${whole_env[@]}" "${run[@]}" "$out/m32/test/gcm_tests" \
    --gtest_brief=1 --gtest_filter="$whole_filter"
  LIBGCM_EXPECT_PAIR=ct/ct32 OPENSSL_ia32cap=0:0 "${run[@]}" "$out/m32/test/gcm_tests" \
    --gtest_brief=1 --gtest_filter='Dispatch.*'
  # The SSE2-only tier natively: SSSE3, AES-NI, PCLMULQDQ and AVX masked.
  LIBGCM_EXPECT_PAIR=ct_sse2/sse2 OPENSSL_ia32cap='~0x200020200000000:~0x600C0010020' \
    "${run[@]}" "$out/m32/test/gcm_tests" --gtest_brief=1 \
    --gtest_filter='Dispatch.*:AllUsable/*:SpecCases/*:X86/*'
  # The tiers under qemu-i386 CPU models, and the pair each must get. Each
  # runs the suites over its pick's pair only (LIBGCM_TEST_PICK_ONLY,
  # test/test_util.h): the whole binary above runs every pair, and each
  # model's pick is the one built on what that CPU has.
  for model_expect in "Westmere=aesni/clmul" "n270=vpaes/ssse3" "coreduo=ct_sse2/sse2" \
                      "pentium3=ct/ct32"; do
    model=${model_expect%%=*} expect=${model_expect#*=}
    echo "-- 32-bit under qemu-i386 -cpu $model, expecting $expect"
    LIBGCM_EXPECT_PAIR=$expect LIBGCM_VECTORS_SAMPLE=1 LIBGCM_TEST_PICK_ONLY=1 \
      qemu-i386 -cpu "$model" "$out/m32/test/gcm_tests" --gtest_brief=1 \
      --gtest_filter='Dispatch.*:AllUsable/*:SpecCases/*:X86/*:AbiCheckerX86.*:Vectors/*wycheproof*:Vectors/*boringssl*:Vectors/*openssl_generated*'
  done
  # Constant time of the 32-bit build where valgrind cannot look (its x86
  # CPU lacks SSSE3, AES-NI and PCLMULQDQ): the executed path of every pair
  # Westmere runs, compared for different keys and data (test/ct/ct_trace.sh),
  # and the compiler's output for the constant-time C (ct_disasm_scan.py).
  echo "-- 32-bit trace check under qemu-i386 -cpu Westmere"
  test/ct/ct_trace.sh --work "$out/m32/ct-trace" -- qemu-i386 -cpu Westmere \
    -- "$out/m32/test/ct/ct_trace_workload"
  python3 test/ct/ct_disasm_scan.py objdump nm "$out/m32/libgcm.a"
  sh test/packaging/check_symbols.sh nm "$out/m32/libgcm.a"
  bg_wait m32-whole
  # Constant time under valgrind's x86 memcheck, where 32-bit binaries run
  # natively: every pair valgrind's CPU can run (SSE2 and SSSE3, no AES-NI
  # or PCLMULQDQ: the others report a skip) and the ct/4bit negative
  # control; ct_check is static here (test/ct/CMakeLists.txt). About 100 s
  # at -j2.
  if [ ${#run[@]} -eq 0 ] && command -v valgrind >/dev/null &&
     [ -f /usr/include/valgrind/memcheck.h ]; then
    cmake --build "$out/m32" -j"$jobs" --target ct_check ct_disasm_planted
    ctest --test-dir "$out/m32" -L ct -j"$jobs" --output-on-failure
  fi
  echo "-- 32-bit stage passed"
else
  echo "32-bit stage needs qemu-user, gcc-12-multilib/g++-12-multilib and libgtest-dev sources" >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
fi

stage "3/6 aarch64 cross build (qemu-aarch64)"
if command -v aarch64-linux-gnu-g++ >/dev/null && command -v qemu-aarch64 >/dev/null &&
   [ -d /usr/src/googletest ]; then
  cmake -S "$top" -B "$out/aarch64" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-aarch64-linux-gnu.cmake" \
    -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest \
    -DLIBGCM_BUILD_TOOL=OFF \
    -DLIBGCM_WERROR=ON
  cmake --build "$out/aarch64" -j"$jobs" --target gcm_tests ct_trace_workload
  a64=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
  # The tiers (each asserting its pick; the expectations follow from the
  # aarch64 kernels the build has) and the trace check, two at a time: the
  # cortex-a53 whole-binary run is the long one, in two shards, the others
  # run beside them. The vector sample (as in the qemu-x86_64 tiers): the
  # pick runs every NIST case, every other triple every 8th.
  echo "-- ctest -L qemu-aarch64 (qemu-aarch64 tiers and trace check)"
  ctest --test-dir "$out/aarch64" -L qemu-aarch64 --output-on-failure -j"$jobs"
  # Constant time in the compiler's output for the C (the trace check of
  # the executed path ran above).
  python3 test/ct/ct_disasm_scan.py aarch64-linux-gnu-objdump aarch64-linux-gnu-nm \
    "$out/aarch64/libgcm.a"
  sh test/packaging/check_symbols.sh aarch64-linux-gnu-nm "$out/aarch64/libgcm.a"
  # BTI: libgcm (the library only) and test/bti/bti_check.c built with
  # -mbranch-protection=standard, run under -cpu max, where qemu enforces
  # BTI for an executable marked with it: every kernel is reached through
  # a descriptor's function pointer. The negative control must die of
  # SIGILL, or enforcement was not on.
  bti=$out/aarch64-bti
  cmake -S "$top" -B "$bti" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-aarch64-linux-gnu.cmake" \
    -DCMAKE_C_FLAGS=-mbranch-protection=standard \
    -DCMAKE_CXX_FLAGS=-mbranch-protection=standard \
    -DLIBGCM_BUILD_TESTS=OFF -DLIBGCM_BUILD_TOOL=OFF -DLIBGCM_BUILD_PROVIDER=OFF \
    -DLIBGCM_VALGRIND_ANNOTATIONS=OFF -DLIBGCM_WERROR=ON
  cmake --build "$bti" -j"$jobs" --target gcm_static
  aarch64-linux-gnu-gcc -O2 -Wall -Wextra -Werror -mbranch-protection=standard \
    -nostartfiles -I"$top/include" "$top/test/bti/bti_start.S" \
    "$top/test/bti/bti_check.c" "$bti/libgcm.a" -lpthread -o "$bti/bti_check"
  notes=$(aarch64-linux-gnu-readelf -n "$bti/bti_check")
  grep -q 'AArch64 feature: BTI' <<<"$notes"
  echo "-- BTI-enforced run under qemu-aarch64 -cpu max"
  "${a64[@]}" -cpu max "$bti/bti_check"
  rc=0
  "${a64[@]}" -cpu max "$bti/bti_check" negative 2>/dev/null || rc=$?
  if [ "$rc" -ne 132 ]; then
    echo "BTI negative control: expected SIGILL (132), got $rc" >&2
    exit 1
  fi
  echo "-- aarch64 stage passed"
else
  echo "aarch64 stage needs gcc-aarch64-linux-gnu/g++-aarch64-linux-gnu, qemu-user and libgtest-dev sources" >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
fi

stage "3b/6 32-bit ARM cross builds (qemu-arm)"
if command -v arm-linux-gnueabihf-g++ >/dev/null && command -v arm-linux-gnueabi-g++ >/dev/null &&
   command -v qemu-arm >/dev/null && [ -d /usr/src/googletest ]; then
  arm_build() { # name toolchain [cmake options...]
    local name=$1 tc=$2
    shift 2
    cmake -S "$top" -B "$out/$name" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-$tc.cmake" \
      -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest \
      -DLIBGCM_VALGRIND_ANNOTATIONS=OFF -DLIBGCM_BUILD_TOOL=OFF \
      -DLIBGCM_WERROR=ON "$@"
    cmake --build "$out/$name" -j"$jobs" --target gcm_tests ct_trace_workload
  }
  arm_build armhf arm-linux-gnueabihf
  arm_build armhf-thumb arm-linux-gnueabihf -DLIBGCM_ARM_THUMB=ON
  arm_build armel arm-linux-gnueabi
  hf=(qemu-arm -L /usr/arm-linux-gnueabihf)
  # The pair each CPU (and LIBGCM_ARMCAP mask) must get.
  aes32=armv8_32 ghash32=pmull32 neon=bsaes_neon/neon
  # The ct AES pairs stay out of the whole-binary run (CI time): ct runs on
  # this build under -cpu cortex-a15,neon=off below, on the armel build and
  # in every other stage.
  echo "-- whole A32 test binary under qemu-arm -cpu cortex-a15, expecting $neon"
  bg_start armhf-whole env LIBGCM_EXPECT_PAIR=$neon LIBGCM_VECTORS_SAMPLE=1 \
    "${hf[@]}" -cpu cortex-a15 "$out/armhf/test/gcm_tests" --gtest_brief=1 \
    --gtest_filter='-*/ct:*/ct_*'
  subset='Dispatch.*:AllUsable/*:SpecCases/*:AbiArm*:Vectors/*wycheproof*:Vectors/*boringssl*:Vectors/*openssl_generated*'
  # A core without NEON, as qemu models it (the ABI checker's trampoline
  # is NEON code, so AbiArm* stays out); NEON hidden by the mask is the
  # Thumb-2 build's run below.
  echo "-- armhf under qemu-arm -cpu cortex-a15,neon=off, expecting ct/ct32"
  LIBGCM_EXPECT_PAIR=ct/ct32 LIBGCM_VECTORS_SAMPLE=1 \
    "${hf[@]}" -cpu cortex-a15,neon=off "$out/armhf/test/gcm_tests" --gtest_brief=1 \
    --gtest_filter="${subset/:AbiArm\*/}"
  for build in armhf armhf-thumb; do
    masks=("=$aes32/$ghash32" ":~0x3=$neon")
    [ "$build" = armhf-thumb ] && masks+=("~0x1000=ct/ct32")
    for mask_expect in "${masks[@]}"; do
      mask=${mask_expect%%=*} expect=${mask_expect#*=}
      # The bsaes_neon pairs run in the :~0x3 run (and the whole binary);
      # the unmasked run leaves them out (CI time).
      filter=$subset
      [ -z "$mask" ] && filter="$subset-*bsaes_neon*"
      echo "-- $build under qemu-arm -cpu max, LIBGCM_ARMCAP='$mask', expecting $expect"
      LIBGCM_ARMCAP=$mask LIBGCM_EXPECT_PAIR=$expect LIBGCM_VECTORS_SAMPLE=1 \
        "${hf[@]}" -cpu max "$out/$build/test/gcm_tests" --gtest_brief=1 --gtest_filter="$filter"
    done
  done
  # ARMv5TE: the portable backends on a core with nothing newer; the same
  # suites as above (the whole binary takes about four times as long).
  echo "-- armel (ARMv5TE) under qemu-arm -cpu arm926, expecting ct/ct32"
  LIBGCM_EXPECT_PAIR=ct/ct32 LIBGCM_VECTORS_SAMPLE=1 \
    qemu-arm -L /usr/arm-linux-gnueabi -cpu arm926 "$out/armel/test/gcm_tests" --gtest_brief=1 \
    --gtest_filter="$subset"
  # Constant time where valgrind cannot run: the executed path of every pair
  # each build runs, compared for different keys and data (test/ct), and
  # the compiler's output for the constant-time C.
  # (The Thumb-2 build's beside the A32 build's.)
  arm_hf_checks() { # build
    echo "-- $1 trace check under qemu-arm -cpu max"
    test/ct/ct_trace.sh --work "$out/$1/ct-trace" -- "${hf[@]}" -cpu max \
      -- "$out/$1/test/ct/ct_trace_workload"
    python3 test/ct/ct_disasm_scan.py arm-linux-gnueabihf-objdump arm-linux-gnueabihf-nm \
      "$out/$1/libgcm.a"
    sh test/packaging/check_symbols.sh arm-linux-gnueabihf-nm "$out/$1/libgcm.a"
  }
  bg_start armhf-thumb-checks arm_hf_checks armhf-thumb
  arm_hf_checks armhf
  bg_wait armhf-thumb-checks
  # The ARM model's extraction checked under qemu for the A32 and the
  # Thumb-2 kernels (tool/arm-model; skipped without llvm-mca 17+).
  for build in armhf armhf-thumb; do
    arch=arm
    [ "$build" = armhf-thumb ] && arch=thumb
    echo "-- tool/arm-model --arch $arch --check $build"
    rc=0
    python3 tool/arm-model --arch "$arch" --check "$out/$build" --message 4096 \
      --models cortex-a57 --skip-missing || rc=$?
    if [ "$rc" -eq 77 ]; then
      echo "   skipped: no llvm-mca 17 or later"
    elif [ "$rc" -ne 0 ]; then
      exit "$rc"
    fi
  done
  echo "-- armel trace check under qemu-arm -cpu arm926"
  test/ct/ct_trace.sh --work "$out/armel/ct-trace" -- qemu-arm -L /usr/arm-linux-gnueabi -cpu arm926 \
    -- "$out/armel/test/ct/ct_trace_workload"
  python3 test/ct/ct_disasm_scan.py arm-linux-gnueabi-objdump arm-linux-gnueabi-nm \
    "$out/armel/libgcm.a"
  sh test/packaging/check_symbols.sh arm-linux-gnueabi-nm "$out/armel/libgcm.a"
  bg_wait armhf-whole
  echo "-- 32-bit ARM stage passed"
else
  echo "32-bit ARM stage needs gcc/g++-arm-linux-gnueabihf, gcc/g++-arm-linux-gnueabi, qemu-user and libgtest-dev sources" >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
fi

stage "3c/6 Windows cross builds (MinGW-w64 + NASM, under Wine)"
# Wine's loaders live in /usr/lib/wine (Debian's wine64 and wine32:i386
# packages, without the `wine` package's wrappers on PATH).
if command -v x86_64-w64-mingw32-g++-posix >/dev/null &&
   command -v i686-w64-mingw32-g++-posix >/dev/null && command -v nasm >/dev/null &&
   { [ -x /usr/lib/wine/wine64 ] || command -v wine64 >/dev/null; } &&
   [ -d /usr/src/googletest ]; then
  win_build() { # name toolchain [cmake options...]   (WIN_TARGETS: what to build)
    local name=$1 tc=$2
    shift 2
    cmake -S "$top" -B "$out/$name" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_TOOLCHAIN_FILE="$top/cmake/toolchain-$tc.cmake" \
      -DLIBGCM_GTEST_SOURCE_DIR=/usr/src/googletest \
      -DLIBGCM_BUILD_PROVIDER=OFF -DLIBGCM_WERROR=ON "$@"
    # shellcheck disable=SC2086 # WIN_TARGETS is a list of target names
    cmake --build "$out/$name" -j"$jobs" ${WIN_TARGETS:+--target $WIN_TARGETS}
  }
  # The Wine prefix (created by the first program run) goes in each build
  # tree; -j2 keeps one wineserver per prefix busy with two programs.
  # That wineserver is started persistent (-p) for the ctest run and
  # stopped after it: left to itself it exits whenever no program is
  # running, and a program connecting just then failed a CI rehearsal
  # with "wine client error:0: recvmsg: Connection reset by peer" (and
  # some programs waited 40 s for a server). Wine's own services
  # (services.exe, winedevice.exe, ...) live as long as the server and
  # keep the standard output of the program that started them, so one
  # program run with /dev/null starts them first: started by a test, they
  # would hold its output pipe open and ctest would wait forever.
  wineserver=/usr/lib/wine/wineserver
  [ -x "$wineserver" ] || wineserver=$(command -v wineserver || echo wineserver)
  wine_ctest() { # build loader [ctest arguments...]
    local prefix="$out/$1/wineprefix" dir="$out/$1" loader=$2 rc=0
    shift 2
    [ -x "/usr/lib/wine/$loader" ] && loader=/usr/lib/wine/$loader
    if ! WINEPREFIX="$prefix" "$wineserver" -p </dev/null >/dev/null 2>&1; then
      echo "   (no persistent wineserver: each program starts its own)"
    elif ! WINEPREFIX="$prefix" WINEDEBUG=-all "$loader" cmd /c exit </dev/null >/dev/null 2>&1; then
      WINEPREFIX="$prefix" "$wineserver" -k </dev/null >/dev/null 2>&1 || true
      echo "   (Wine's services did not start ahead: each program starts its own server)"
    fi
    ctest --test-dir "$dir" --output-on-failure -j"$jobs" "$@" || rc=$?
    WINEPREFIX="$prefix" "$wineserver" -k </dev/null >/dev/null 2>&1 || true
    return "$rc"
  }
  win_build win64 x86_64-w64-mingw32
  echo "-- win64: ctest under wine64"
  # (asm.*: the translator's host-side checks, which stage 1 ran.)
  wine_ctest win64 wine64 -E '^asm\.'
  # 32-bit Windows programs run under wine32, itself a 32-bit x86 Linux
  # program. Where this kernel runs those natively (ia32_native), the
  # whole win32 ctest runs as for win64.
  win32_why=
  if ! { [ -x /usr/lib/wine/wine ] || command -v wine >/dev/null; }; then
    win32_why="wine32 (wine32:i386) is not installed"
  elif ! ia32_native; then
    win32_why="its kernel runs no 32-bit x86 binaries, so no wine32"
  fi
  if [ -z "$win32_why" ]; then
    win_build win32 i686-w64-mingw32 -DLIBGCM_BUILD_TOOL=OFF
    echo "-- win32: ctest under wine (32-bit)"
    wine_ctest win32 wine -E '^asm\.'
  else
    # Otherwise (wine32 missing: README installs it on its own, since a
    # mirror's i386 list out of step with amd64's makes it uninstallable;
    # or wine32 cannot start: qemu-i386 running it was tried and crashed
    # inside Wine) the win32 libraries are compiled and linked with no
    # emulator, and only its checks that run on this host run. The win32
    # NASM kernels are the asm/x86 ones stage 2 runs (natively or under
    # qemu-i386) in their ELF flavour, and the win64 build above runs the
    # Windows code.
    # Only what those checks read is built (CI time: the test programs,
    # which nothing here could run, took minutes to compile).
    WIN_TARGETS="gcm_static gcm_shared ct_disasm_planted" \
      win_build win32 i686-w64-mingw32 -DLIBGCM_BUILD_TOOL=OFF -DLIBGCM_NO_WINE=ON
    echo "-- win32: NOT RUN on this host: $win32_why; the build's host-side" \
         "checks only (symbols, exports, getenv, disassembly scan, man pages)"
    ctest --test-dir "$out/win32" --output-on-failure -j"$jobs" \
      -R '^(packaging\.(symbols\.static|getenv|dll_exports)|ct\.disasm_scan.*|man\.pages)$'
    win32_note=" (win32 built, its programs not run: see above)"
  fi
  echo "-- Windows stage passed${win32_note:-}"
else
  echo "Windows stage needs gcc/g++-mingw-w64-x86-64 and -i686 (posix threads), nasm," \
       "wine64 (and wine32:i386 to run the win32 programs) and libgtest-dev sources" >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
fi

stage "4/6 sanitizers (clang)"
# ASan+UBSan and ThreadSanitizer with clang, whose runtime the fuzzers of
# stage 5 use too. gcc's ASan+UBSan is the same script with CC=gcc
# CXX=g++ (test/sanitizers.sh asan); CI leaves it out for time (a whole
# instrumented build and suite, about 8 minutes on a 2-core machine),
# and every gcc build here still compiles with -Werror.
echo "-- sanitizers with clang (ASan+UBSan, TSan)"
CC=clang CXX=clang++ SAN_BUILD_DIR="$out/asan-clang" TSAN_BUILD_DIR="$out/tsan-clang" \
  JOBS="$jobs" "$top/test/sanitizers.sh" all -DLIBGCM_WERROR=ON -DLIBGCM_TEST_SHARDS=4

stage "5/6 fuzzers"
# 20 seconds per target here (CI time: the whole run is about 42 minutes
# on a 2-core Zen 1 host; the script's default is 60).
if [ -x "$top/fuzz/run_fuzzers.sh" ]; then
  LIBGCM_FUZZ_SECONDS=${LIBGCM_FUZZ_SECONDS:-20} "$top/fuzz/run_fuzzers.sh" "$out"
else
  echo "fuzz/run_fuzzers.sh not present"
fi

stage "6/6 Debian packages"
# debian/ built with dpkg-buildpackage (the test suite inside, through
# dh_auto_test), lintian without errors, the packages installed, a program
# built against them and the installed provider loaded by openssl, then
# the packages removed (test/packaging/debian_package.sh).
if command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null &&
   command -v lintian >/dev/null && [ "$(id -u)" = 0 ]; then
  LIBGCM_JOBS=$jobs test/packaging/debian_package.sh "$out/debian"
else
  echo "Debian stage needs root, dpkg-dev, debhelper and lintian" >&2
  if [ "${CI:-}" = "true" ]; then exit 1; fi
fi

stage "all stages passed"
