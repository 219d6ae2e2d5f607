#!/usr/bin/env bash
# fuzz/run_fuzzers.sh: a bounded fuzzing campaign over libgcm's libFuzzer
# targets, for CI and for people.
#
#   fuzz/run_fuzzers.sh [TARGET...]            (default: all five targets)
#   fuzz/run_fuzzers.sh BUILD_ROOT [TARGET...]
#
# With a BUILD_ROOT (a first argument that is an existing directory or
# contains a '/', as test/run_all.sh passes its output directory) the build
# goes into BUILD_ROOT/fuzz; otherwise into LIBGCM_FUZZ_BUILD_DIR.
#
# 1. Configures a clang build with LIBGCM_FUZZ=ON in its own directory. The
#    targets and their copy of the library are compiled with
#    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all (see
#    fuzz/CMakeLists.txt).
# 2. Builds the targets and the seed corpora (fuzz/make_corpus.py, from the
#    test vectors).
# 3. Replays every seed and fuzz/corpus/<target> input (ctest -R fuzz.replay).
# 4. Fuzzes each target for LIBGCM_FUZZ_SECONDS seconds with -max_total_time
#    (LIBGCM_FUZZ_JOBS targets at a time),
#    starting from the seeds, the regression corpus and what earlier runs in
#    the same build directory found (<build>/fuzz/live/<target>; new inputs
#    go there, never into the source tree).
# 5. Prints one line per target, e.g. "fuzz_open: 1234567 execs, 0 findings",
#    and exits non-zero if the build or a replay failed or any target found
#    anything (its input is in <build>/fuzz/artifacts/<target>/, and the
#    report in <build>/fuzz/logs/<target>.log).
#
# Needs only what README.md's test command installs on Debian 12: cmake,
# ninja-build, clang and libclang-rt-14-dev (libFuzzer and the sanitizer
# runtimes), python3 (seed corpora), llvm (llvm-symbolizer, for readable
# reports), libgtest-dev (the configure step includes the test tree) and
# libssl-dev (fuzz_differential compares with libcrypto.so.3 when present).
#
# Environment:
#   LIBGCM_FUZZ_SECONDS    seconds of fuzzing per target (default 60)
#   LIBGCM_FUZZ_BUILD_DIR  build directory when no BUILD_ROOT is given
#                          (default build-fuzzers, relative to the checkout)
#   LIBGCM_FUZZ_JOBS       parallel build jobs, and targets fuzzed at once
#                          (default: LIBGCM_JOBS, else 2)
#   LIBGCM_FUZZ_EXTRA_FLAGS
#                          extra compile flags after the sanitizer flags
#                          (default none; set anew at every configure, so a
#                          reused build directory never keeps old ones)
#   LIBGCM_FUZZ_CC, LIBGCM_FUZZ_CXX
#                          the compilers (default: CC and CXX if they are
#                          clang, else clang and clang++)
set -euo pipefail

all_targets=(fuzz_differential fuzz_open fuzz_stream fuzz_compat fuzz_siv)
is_target() { case " ${all_targets[*]} " in *" $1 "*) return 0 ;; esac; return 1; }
usage() {
  echo "usage: $0 [BUILD_ROOT] [TARGET...]   (targets: ${all_targets[*]})" >&2
  exit 2
}

# The build root is resolved against the caller's directory, before the cd.
build_root=""
if [ $# -gt 0 ]; then
  case "$1" in -h | --help) usage ;; esac
  if ! is_target "$1" && { [ -d "$1" ] || [[ "$1" == */* ]]; }; then
    mkdir -p "$1"
    build_root=$(cd "$1" && pwd)
    shift
  fi
fi
cd "$(dirname "$0")/.."

seconds=${LIBGCM_FUZZ_SECONDS:-60}
if [ -n "$build_root" ]; then
  build="$build_root/fuzz"
else
  build=${LIBGCM_FUZZ_BUILD_DIR:-build-fuzzers}
fi
jobs=${LIBGCM_FUZZ_JOBS:-${LIBGCM_JOBS:-2}}
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi

case "$seconds" in
  '' | *[!0-9]*) echo "run_fuzzers.sh: LIBGCM_FUZZ_SECONDS must be a whole number" >&2; exit 2 ;;
esac
for t in "${targets[@]}"; do
  if ! is_target "$t"; then
    echo "run_fuzzers.sh: unknown target '$t', and not a directory" >&2
    usage
  fi
done

# libFuzzer exists only in clang. CC/CXX are honoured when they name clang
# (a CI environment may set them to gcc for the other builds).
is_clang() { local v; v=$("$1" --version 2>/dev/null) || return 1; grep -q clang <<<"$v"; }
cc=${LIBGCM_FUZZ_CC:-${CC:-clang}}
cxx=${LIBGCM_FUZZ_CXX:-${CXX:-clang++}}
if [ -z "${LIBGCM_FUZZ_CC:-}" ] && ! is_clang "$cc"; then cc=clang; fi
if [ -z "${LIBGCM_FUZZ_CXX:-}" ] && ! is_clang "$cxx"; then cxx=clang++; fi
if ! is_clang "$cc" || ! is_clang "$cxx"; then
  echo "run_fuzzers.sh: needs clang ('$cc', '$cxx' are not clang; Debian: apt-get install clang libclang-rt-14-dev)" >&2
  exit 1
fi

generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi

echo "== configure ($build)"
CC=$cc CXX=$cxx cmake -S . -B "$build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DLIBGCM_FUZZ=ON \
  -DLIBGCM_FUZZ_SANITIZERS=address,undefined \
  -DLIBGCM_FUZZ_EXTRA_FLAGS="${LIBGCM_FUZZ_EXTRA_FLAGS:-}" \
  -DLIBGCM_BUILD_TESTS=ON \
  -DLIBGCM_BUILD_TOOL=OFF
for t in "${targets[@]}"; do
  if ! grep -qF "fuzz.replay.$t]" "$build/fuzz/CTestTestfile.cmake" 2>/dev/null; then
    echo "run_fuzzers.sh: the fuzz targets were not configured (is libFuzzer installed? Debian: libclang-rt-14-dev)" >&2
    exit 1
  fi
done

echo "== build"
cmake --build "$build" -j"$jobs" --target "${targets[@]}" fuzz_targets

echo "== replay seeds and regression corpus"
regex="^fuzz\\.replay\\.($(IFS='|'; echo "${targets[*]}"))\$"
ctest --test-dir "$build" -R "$regex" --output-on-failure

echo "== fuzz, ${seconds} s per target, $jobs at a time"
fuzz_dir="$build/fuzz"
mkdir -p "$fuzz_dir/logs"
# Fuzzes one target; writes its summary line to logs/<target>.result and
# exits non-zero when it found anything.
fuzz_one() {
  local t=$1
  local work="$fuzz_dir/live/$t" artifacts="$fuzz_dir/artifacts/$t"
  local log="$fuzz_dir/logs/$t.log" marker="$fuzz_dir/logs/$t.start"
  mkdir -p "$work" "$artifacts"
  touch "$marker"
  sleep 1  # so artifacts of this run are strictly newer than the marker
  local rc=0
  "$fuzz_dir/$t" -max_total_time="$seconds" -timeout=30 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" \
    "$work" "$fuzz_dir/seeds/$t" "fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  local execs findings
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  if [ -z "$execs" ]; then
    execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
  fi
  # Every input libFuzzer saved this run (crash-, leak-, timeout-, oom-...).
  findings=$(find "$artifacts" -type f -newer "$marker" | wc -l)
  if [ "$rc" -ne 0 ] && [ "$findings" -eq 0 ]; then findings=1; fi
  echo "$t: ${execs:-0} execs, $findings findings" >"$fuzz_dir/logs/$t.result"
  [ "$findings" -eq 0 ]
}
# The targets run side by side, $jobs at a time (each is one process).
pids=()
for t in "${targets[@]}"; do
  fuzz_one "$t" &
  pids+=("$!")
  if [ "${#pids[@]}" -ge "$jobs" ]; then
    wait "${pids[0]}" || true
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || true; done
failed=0
summary=()
for t in "${targets[@]}"; do
  log="$fuzz_dir/logs/$t.log"
  line=$(cat "$fuzz_dir/logs/$t.result" 2>/dev/null || echo "$t: did not finish, 1 findings")
  # The last status line ("#N DONE ..." or the last "#N pulse/NEW ...").
  grep -E '^#[0-9]+' "$log" 2>/dev/null | tail -n 1 | sed "s/^/  $t: /" || true
  summary+=("$line")
  echo "$line"
  case "$line" in
    *" 0 findings") ;;
    *)
      failed=1
      echo "  report: $log; inputs: $fuzz_dir/artifacts/$t/" >&2
      grep -E 'ERROR: |runtime error|==== libgcm fuzz check failed' "$log" | head -n 5 | sed 's/^/  /' >&2 || true
      ;;
  esac
done

echo "== summary"
printf '%s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
  echo "run_fuzzers.sh: FAILED (findings above)" >&2
  exit 1
fi
echo "run_fuzzers.sh: no findings"
