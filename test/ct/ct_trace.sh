#!/usr/bin/env bash
# test/ct/ct_trace.sh: the trace check. A constant-time pair must execute
# the same instructions in the same order whatever the key and the data.
#
# Idea
# ----
# qemu-user can log every translated block it executes (`-d exec,nochain`:
# with chaining off, every block entry is logged, so the log is the program's
# whole control-flow path). ct_check (test/ct/ct_check.c; built statically
# as ct_trace_workload) runs a fixed
# workload for one backend pair: every key size, seal/open/wrong-tag open of
# many lengths, streaming in odd chunks; `--seed` changes every key, nonce,
# AAD and plaintext byte but no length. So for a constant-time pair the logs
# of two seeds are identical, block for block; a branch taken on a secret
# anywhere (backend, mode engine, tag check, or a branch the compiler
# introduced into C that looks branch-free) makes them differ, and the first
# difference names the function.
#
# This covers what valgrind cannot run (ARM, 32-bit x86 kernels under
# qemu-i386, CPU models without the host's features). It sees branches, not
# addresses: qemu-user here has no plugins to log data addresses. Secret
# addresses are excluded in assembly by the perlasm secret-register check
# and in C by valgrind on x86 and the source itself (docs/timing.md).
#
# Checks, in order, each of which fails the run:
#   1. reproducibility: the same seed twice gives the same log (otherwise
#      the comparison would prove nothing);
#   2. every constant-time pair (ct_check --list-ct-pairs, listed under the
#      same emulator and CPU model, so the pairs are the ones that CPU runs):
#      three seeds, identical logs;
#   3. the negative control: ct_check --leak plants a branch on a key bit;
#      the logs must differ, and at that function (leak_key_bit).
#
# Usage:
#   ct_trace.sh [--work DIR] [--pairs "AES/GHASH/FUSED ..."] \
#       -- EMULATOR [ARGS...] -- CT_CHECK
# e.g. ct_trace.sh -- qemu-aarch64 -L /usr/aarch64-linux-gnu -cpu max \
#        -- build/test/ct/ct_trace_workload
# The environment passes through (LIBGCM_ARMCAP, OPENSSL_ia32cap masks).
set -euo pipefail

work=${TMPDIR:-/tmp}/ct_trace.$$
pairs=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --work) work=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    *) echo "ct_trace.sh: unknown option $1" >&2; exit 64 ;;
  esac
done
[ "${1:-}" = "--" ] || { echo "usage: see the top of $0" >&2; exit 64; }
shift
emu=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do emu+=("$1"); shift; done
[ "${1:-}" = "--" ] && [ $# -eq 2 ] || { echo "usage: see the top of $0" >&2; exit 64; }
ct=$2
[ ${#emu[@]} -gt 0 ] || { echo "ct_trace.sh: no emulator given" >&2; exit 64; }
mkdir -p "$work"

# Decimal digits only, all the same length: parsing the seed (strtoull)
# then takes the same path for each, and only the generated data differ.
seeds=(1234567890123456 7777777777777777 9081726354637281)

# trace NAME ARGS...: runs ct_check under the emulator with block logging;
# leaves "guest-pc symbol" per executed block in $work/NAME.pcs.
trace() {
  local name=$1; shift
  local log=$work/$name.log
  if ! "${emu[@]}" -d exec,nochain -D "$log" "$ct" "$@" >"$work/$name.out" 2>&1; then
    echo "ct_trace.sh: ct_check $* failed under ${emu[*]}:" >&2
    cat "$work/$name.out" >&2
    return 1
  fi
  # "Trace 0: 0xHOST [FLAGS/GUESTPC/...] symbol" -> "GUESTPC symbol"
  awk '/^Trace / { split($0, a, "/"); s = $NF; if (s ~ /\]$/) s = "?";
                   print a[2], s }' "$log" >"$work/$name.pcs"
  rm -f "$log"
  [ -s "$work/$name.pcs" ] || { echo "ct_trace.sh: empty trace for $*" >&2; return 1; }
}

# differ A B: 0 when the two traces are identical; otherwise prints where
# they part and returns 1.
differ() {
  local a=$work/$1.pcs b=$work/$2.pcs line
  if cmp -s "$a" "$b"; then return 1; fi
  line=$(cmp "$a" "$b" 2>/dev/null | awk '{ print $NF }' || true)
  [ -n "$line" ] || line=$(( $(wc -l <"$a") < $(wc -l <"$b") ? $(wc -l <"$a") + 1 : $(wc -l <"$b") + 1 ))
  echo "   first difference at block $line of $(wc -l <"$a") / $(wc -l <"$b"):"
  echo "   $1: $(sed -n "$((line > 2 ? line - 2 : 1)),$((line + 1))p" "$a" | tr '\n' ' ')"
  echo "   $2: $(sed -n "$((line > 2 ? line - 2 : 1)),$((line + 1))p" "$b" | tr '\n' ' ')"
  return 0
}

if [ -z "$pairs" ]; then
  pairs=$("${emu[@]}" "$ct" --list-ct-pairs | awk 'NF == 3 { print $1 "/" $2 "/" $3 }')
fi
[ -n "$pairs" ] || { echo "ct_trace.sh: no constant-time pair listed" >&2; exit 1; }
echo "ct_trace.sh: ${emu[*]}: $(echo $pairs | wc -w) pairs"

status=0
first=1
for p in $pairs; do
  IFS=/ read -r aes ghash fused <<<"$p"
  args=(--aes "$aes" --ghash "$ghash" --fused "$fused")
  tag=${aes}_${ghash}_${fused}
  trace "$tag.0" "${args[@]}" --seed "${seeds[0]}"
  if [ $first = 1 ]; then
    trace "$tag.0again" "${args[@]}" --seed "${seeds[0]}"
    if differ "$tag.0" "$tag.0again"; then
      echo "FAIL reproducibility: the same seed gave two different traces; the check cannot work here" >&2
      exit 1
    fi
    rm -f "$work/$tag.0again.pcs"
    first=0
  fi
  ok=1
  for i in 1 2; do
    trace "$tag.$i" "${args[@]}" --seed "${seeds[$i]}"
    if differ "$tag.0" "$tag.$i"; then ok=0; fi
    rm -f "$work/$tag.$i.pcs"
  done
  if [ $ok = 1 ]; then
    echo "ok   $aes/$ghash fused=$fused: $(wc -l <"$work/$tag.0.pcs") blocks, identical for ${#seeds[@]} seeds"
  else
    echo "FAIL $aes/$ghash fused=$fused: the executed path depends on the key or data" >&2
    status=1
  fi
  rm -f "$work/$tag.0.pcs"
done

# The negative control on the first pair: the planted branch must be seen.
IFS=/ read -r aes ghash fused <<<"$(echo $pairs | awk '{ print $1 }')"
args=(--aes "$aes" --ghash "$ghash" --fused "$fused" --leak)
seen=0
for i in 0 1 2; do trace "leak.$i" "${args[@]}" --seed "${seeds[$i]}"; done
for i in 1 2; do
  if report=$(differ leak.0 "leak.$i"); then
    echo "$report"
    if grep -q leak_key_bit <<<"$report"; then seen=1; fi
  fi
done
rm -f "$work"/leak.*.pcs
if [ $seen = 1 ]; then
  echo "ok   negative control: the branch planted on a key bit (ct_check --leak) changes the trace at leak_key_bit"
else
  echo "FAIL negative control: the planted key-bit branch was not seen; the check is blind here" >&2
  status=1
fi
rm -rf "$work"
exit $status
