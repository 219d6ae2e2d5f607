#!/usr/bin/env bash
# provider/bench/openssl_speed_compare.sh: `openssl speed` with the libgcm
# provider preferred against OpenSSL's default provider, alternated.
#
#   provider/bench/openssl_speed_compare.sh BUILD_DIR [ROUNDS [SECONDS]]
#
# For AES-128-GCM and AES-256-GCM, in both of `openssl speed`'s modes:
#   stream  `-evp aes-N-gcm`: one context, EVP_EncryptUpdate over the buffer
#           again and again (a long stream in pieces of SIZE bytes);
#   aead    `-aead -evp aes-N-gcm`: per record a new IV, 13 bytes of AAD,
#           the update, final and the tag (what a TLS stack does);
# (OpenSSL 3.0's -aead mode uses its own sizes, 2, 31, 136, 1024, 8192
# and 16384 bytes; the sizes are read from its output), it runs the
# default provider and libgcm alternately ROUNDS times (default 5) and
# prints, per size, the median of each in MB/s (10^6 bytes) and the ratio
# libgcm / default.
#
# libgcm is selected on the command line, with the module from
# BUILD_DIR/provider:
#   openssl speed -provider-path DIR -provider libgcm -provider default \
#     -propquery provider=libgcm [-aead] -evp aes-N-gcm
# The provider options must come before -evp: openssl speed fetches the
# cipher when it reads -evp, so a -provider or -propquery after it is not
# applied to that fetch and the run times OpenSSL's own GCM. Every libgcm
# run writes the provider's statistics line (LIBGCM_PROVIDER_STATS) and the
# script stops if one of them sealed nothing, so the libgcm column is known
# to be libgcm's. A measurement, not a test.
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR [ROUNDS [SECONDS]]}
rounds=${2:-5}
secs=${3:-1}
moddir=$(cd "$build/provider" && pwd)
[ -f "$moddir/libgcm.so" ] || { echo "no $moddir/libgcm.so: build the provider first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

libgcm_args=(-provider-path "$moddir" -provider libgcm -provider default
             -propquery provider=libgcm)

# speed OUT MODE BITS [provider args...]: one `openssl speed` run, its
# "AES-N-GCM  x k  y k ..." line as numbers in k bytes/s. The provider
# arguments go before -evp (see above).
speed() {
  local out=$1 mode=$2 bits=$3; shift 3
  local m=()
  [ "$mode" = aead ] && m=(-aead)
  openssl speed -seconds "$secs" "$@" "${m[@]}" -evp "aes-$bits-gcm" 2>/dev/null |
    awk -v b="$bits" -v sizes="$out.sizes" '
      $1 == "type" { s = ""; for (i = 2; i <= NF; i += 2) s = s $i " "; print s >sizes }
      toupper($1) == "AES-" b "-GCM" { for (i = 2; i <= NF; i++) { v = $i; sub(/k$/, "", v); printf "%s ", v } print "" }' >>"$out"
}

for mode in stream aead; do
  for bits in 128 256; do
    : >"$tmp/default" ; : >"$tmp/libgcm" ; : >"$tmp/stats"
    for r in $(seq "$rounds"); do
      speed "$tmp/default" "$mode" "$bits"
      LIBGCM_PROVIDER_STATS=$tmp/stats speed "$tmp/libgcm" "$mode" "$bits" "${libgcm_args[@]}"
    done
    # One statistics line per libgcm run, each with a non-zero seal count.
    if [ "$(grep -c 'libgcm provider:' "$tmp/stats")" -ne "$rounds" ] ||
       grep -q ' seal=0 ' "$tmp/stats"; then
      echo "a libgcm run did not seal with libgcm:" >&2
      cat "$tmp/stats" >&2
      exit 1
    fi
    stats=$(tail -n 1 "$tmp/stats")
    echo
    echo "AES-$bits-GCM, openssl speed $([ "$mode" = aead ] && echo "-aead ")-evp, median of $rounds alternated runs of ${secs}s, MB/s"
    echo "libgcm, last run: ${stats#libgcm provider: pid=* }"
    echo "| size | default | libgcm | ratio |"
    echo "|---:|---:|---:|---:|"
    python3 - "$tmp/default" "$tmp/libgcm" <<'PY'
import statistics, sys
sizes = [int(x) for x in open(sys.argv[1] + ".sizes").read().split()]
rows = [[list(map(float, l.split())) for l in open(f) if l.strip()] for f in sys.argv[1:3]]
for i, s in enumerate(sizes):
    d = statistics.median(r[i] for r in rows[0]) / 1000
    g = statistics.median(r[i] for r in rows[1]) / 1000
    print("| %d | %.0f | %.0f | %.2f |" % (s, d, g, g / d))
PY
  done
done
