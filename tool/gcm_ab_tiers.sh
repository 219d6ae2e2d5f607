#!/usr/bin/env bash
# tool/gcm_ab_tiers.sh: two builds of libgcm timed side by side with gcm-ab
# on every x86_64 dispatch tier, one-shot and streamed, seal and open, as
# one table of ratios (old ticks / new ticks: above 1.00 the new build is
# faster). Not a test: a speed check to quote in a change's note.
#
#   tool/gcm_ab_tiers.sh GCM_AB OLD/libgcm.so NEW/libgcm.so
#
# Environment: KEY_BITS (128), ROUNDS (100), SIZES (one-shot message sizes),
# CHUNKS (update sizes of the streamed rows, each streaming a STREAM_LEN-byte
# message), STREAM_LEN (4000), TIERS ("name=mask ...", the OPENSSL_ia32cap
# masks of ../shared/bench/README.md). An empty SIZES or CHUNKS leaves its rows out.
#
# Each cell is one gcm-ab run: A and B alternate for ROUNDS rounds of a
# batch sized to about 64 KiB of data, and the cell is the ratio of the two
# medians. Rerun a surprising cell; a shared machine has noisy minutes.
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 GCM_AB OLD/libgcm.so NEW/libgcm.so" >&2
  exit 2
fi
ab=$1 old=$2 new=$3
bits=${KEY_BITS:-128}
rounds=${ROUNDS:-100}
sizes=${SIZES-16 64 256 1024 1350 4096 16384}
chunks=${CHUNKS-1 13 16 63 64 255 256 400 1000 4000}
stream_len=${STREAM_LEN:-4000}
tiers=${TIERS:-"default= vaes-avx2=:~0x40000000 aesni-gcm-avx=:~0x60000000000 aesni+clmul=~0x1000000000000000:~0x600C0010020 vpaes+ssse3=~0x200000200000000 nohw=0:0"}

# The ratio column of each of gcm-ab's result lines (size A B A/B).
ratios() { awk '$1 ~ /^[0-9]+$/ { print $4 }'; }

batch_for() { local n=$(( 65536 / $1 )); [ $n -lt 4 ] && n=4; echo $n; }

# Header: one column per tier and direction.
printf '%-14s' "AES-$bits"
for t in $tiers; do
  for op in seal open; do printf ' %16s' "${t%%=*}/$op"; done
done
echo

row() { # label, then the gcm-ab arguments after the two libraries
  local label=$1; shift
  printf '%-14s' "$label"
  for t in $tiers; do
    local mask=${t#*=}
    for op in seal open; do
      local flag=()
      [ $op = open ] && flag=(--open)
      local r
      if [ -n "$mask" ]; then
        r=$(OPENSSL_ia32cap=$mask "$ab" "$old" "$new" "${flag[@]}" \
              --key-bits "$bits" --rounds "$rounds" "$@" | ratios)
      else
        r=$(env -u OPENSSL_ia32cap "$ab" "$old" "$new" "${flag[@]}" \
              --key-bits "$bits" --rounds "$rounds" "$@" | ratios)
      fi
      printf ' %16s' "$r"
    done
  done
  echo
}

for s in $sizes; do
  row "$s B" --batch "$(batch_for "$s")" "$s"
done
for c in $chunks; do
  row "chunk $c" --batch "$(batch_for "$stream_len")" --chunk "$c" "$stream_len"
done
