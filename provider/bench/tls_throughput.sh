#!/usr/bin/env bash
# provider/bench/tls_throughput.sh: a TLS transfer between Debian's
# openssl s_server and s_client on 127.0.0.1, with the libgcm provider in
# both programs against neither, alternated.
#
#   provider/bench/tls_throughput.sh BUILD_DIR [MIB [ROUNDS]]
#
# Each round runs provider/test/openssl_programs_test.sh's `tls` case (MIB
# MiB each way over one TLS 1.3 session per direction, TLS_AES_128_GCM_SHA256,
# checksums compared, libgcm's record counters checked) once with SIDES
# none and once with both, and the table gives the median download and
# upload times and MB/s. Process start-up and the handshake are inside the
# times, so the ratio understates the cipher's share. A measurement, not a
# test.
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR [MIB [ROUNDS]]}
mib=${2:-64}
rounds=${3:-5}
top=$(cd "$(dirname "$0")/../.." && pwd)
moddir=$(cd "$build/provider" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OPENSSL=${OPENSSL:-openssl} LIBGCM_TLS_TEST_MIB=$mib
"$top/provider/test/openssl_programs_test.sh" "$moddir" "$work/cert" cert >/dev/null
for r in $(seq "$rounds"); do
  for sides in none both; do
    mkdir -p "$work/$sides.$r"
    LIBGCM_CERT_DIR=$work/cert "$top/provider/test/openssl_programs_test.sh" "$moddir" "$work/$sides.$r" \
      tls tls1_3 TLS_AES_128_GCM_SHA256 "$sides" |
      sed -n 's/.*download \([0-9.]*\) s, upload \([0-9.]*\) s.*/\1 \2/p' >>"$work/$sides.times"
    rm -rf "$work/$sides.$r"
  done
done
echo "TLS 1.3 TLS_AES_128_GCM_SHA256, openssl s_server/s_client on 127.0.0.1, $mib MiB each way, median of $rounds alternated rounds"
python3 - "$work/none.times" "$work/both.times" "$mib" <<'PY'
import statistics, sys
mib = float(sys.argv[3])
rows = {}
for name, f in (("default provider", sys.argv[1]), ("libgcm provider", sys.argv[2])):
    t = [list(map(float, l.split())) for l in open(f) if l.strip()]
    rows[name] = [statistics.median(x[i] for x in t) for i in (0, 1)]
print("| programs use | download s | MB/s | upload s | MB/s |")
print("|---|---:|---:|---:|---:|")
for name, (d, u) in rows.items():
    print("| %s | %.2f | %.0f | %.2f | %.0f |" % (name, d, mib * 1.048576 / d, u, mib * 1.048576 / u))
PY
