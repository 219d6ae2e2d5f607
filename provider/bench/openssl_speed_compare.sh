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
# default provider and libgcm (`-provider libgcm -provider
# default -propquery provider=libgcm`, module from BUILD_DIR/provider)
# alternately ROUNDS times (default 5) and prints, per size, the median of
# each in MB/s (10^6 bytes) and the ratio libgcm / default. The provider's
# statistics line (LIBGCM_PROVIDER_STATS) is checked once per mode so the
# libgcm column is known to be libgcm's. A measurement, not a test.
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR [ROUNDS [SECONDS]]}
rounds=${2:-5}
secs=${3:-1}
moddir=$(cd "$build/provider" && pwd)
[ -f "$moddir/libgcm.so" ] || { echo "no $moddir/libgcm.so: build the provider first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The way a user turns libgcm on for every program: a config file that
# activates both providers and prefers libgcm. (openssl speed's -propquery
# does not reach the implicit fetch its -evp loop uses, so it would time
# the default provider twice.)
cat >"$tmp/libgcm.cnf" <<EOF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[provider_sect]
libgcm = libgcm_sect
default = default_sect
[libgcm_sect]
module = $moddir/libgcm.so
activate = 1
[default_sect]
activate = 1
[evp_properties]
default_properties = ?provider=libgcm
EOF

# speed OUT MODE BITS [provider args...]: one `openssl speed` run, its
# "AES-N-GCM  x k  y k ..." line as numbers in k bytes/s.
speed() {
  local out=$1 mode=$2 bits=$3; shift 3
  local m=()
  [ "$mode" = aead ] && m=(-aead)
  openssl speed -seconds "$secs" "${m[@]}" -evp "aes-$bits-gcm" "$@" 2>/dev/null |
    awk -v b="$bits" -v sizes="$out.sizes" '
      $1 == "type" { s = ""; for (i = 2; i <= NF; i += 2) s = s $i " "; print s >sizes }
      toupper($1) == "AES-" b "-GCM" { for (i = 2; i <= NF; i++) { v = $i; sub(/k$/, "", v); printf "%s ", v } print "" }' >>"$out"
}

for mode in stream aead; do
  for bits in 128 256; do
    # Which backends the libgcm runs use, and that libgcm really sealed.
    m=()
    [ "$mode" = aead ] && m=(-aead)
    stats=$(OPENSSL_CONF=$tmp/libgcm.cnf LIBGCM_PROVIDER_STATS=stderr openssl speed -seconds 1 \
              -bytes 16 "${m[@]}" -evp "aes-$bits-gcm" 2>&1 >/dev/null | grep 'libgcm provider:' || true)
    case $stats in
      *" seal=0 "*|"") echo "the libgcm provider did not seal anything: '$stats'" >&2; exit 1 ;;
    esac
    : >"$tmp/default" ; : >"$tmp/libgcm"
    for r in $(seq "$rounds"); do
      speed "$tmp/default" "$mode" "$bits"
      OPENSSL_CONF=$tmp/libgcm.cnf speed "$tmp/libgcm" "$mode" "$bits"
    done
    echo
    echo "AES-$bits-GCM, openssl speed $([ "$mode" = aead ] && echo "-aead ")-evp, median of $rounds alternated runs of ${secs}s, MB/s"
    echo "libgcm: ${stats#libgcm provider: }"
    echo "| size | default | libgcm | ratio |"
    echo "|---:|---:|---:|---:|"
    python3 - "$tmp/default" "$tmp/libgcm" <<'EOF'
import statistics, sys
sizes = [int(x) for x in open(sys.argv[1] + ".sizes").read().split()]
rows = [[list(map(float, l.split())) for l in open(f) if l.strip()] for f in sys.argv[1:3]]
for i, s in enumerate(sizes):
    d = statistics.median(r[i] for r in rows[0]) / 1000
    g = statistics.median(r[i] for r in rows[1]) / 1000
    print("| %d | %.0f | %.0f | %.2f |" % (s, d, g, g / d))
EOF
  done
done
