#!/usr/bin/env bash
# provider/test/openssl_programs_test.sh: unmodified OpenSSL programs (the
# openssl command's s_server and s_client, and curl) using libgcm's
# AES-GCM through the provider, loaded by an OPENSSL_CONF file exactly as a
# user would load it. Everything runs on 127.0.0.1 and under `timeout`.
#
#   openssl_programs_test.sh MODULE_DIR WORK_DIR MODE [ARGS...]
#
# Modes:
#   cert                         writes a self-signed RSA certificate for
#                                127.0.0.1 into WORK_DIR (the fixture the
#                                other modes use; run first by ctest)
#   configs                      writes the two OpenSSL configuration
#                                files the other modes use into WORK_DIR:
#                                libgcm.cnf (libgcm loaded from MODULE_DIR
#                                and preferred) and default-only.cnf (the
#                                default provider alone), for benchmarks
#                                that run programs the same way
#   tls VERSION CIPHER SIDES     moves a few MiB each way over one TLS
#                                session per direction and compares SHA-256
#                                sums. VERSION is tls1_2 or tls1_3, CIPHER an
#                                OpenSSL cipher (TLS 1.2) or ciphersuite
#                                (TLS 1.3) name, SIDES is both, server,
#                                client or none: which programs load libgcm. Each
#                                program with libgcm must report (through
#                                LIBGCM_PROVIDER_STATS) that libgcm sealed
#                                and opened the records; the others must not
#                                have loaded it at all. With
#                                LIBGCM_EXPECT_PAIR=aes/ghash set, the
#                                backends libgcm ran on must be those.
#   curl                         curl fetches a few MiB over HTTPS from
#                                `openssl s_server -WWW`, libgcm on both sides
#   cli                          `openssl list -cipher-algorithms -provider
#                                libgcm` shows the three ciphers; a wrong
#                                module path or an unknown backend in
#                                LIBGCM_AES gives an error naming the problem,
#                                and never a libgcm that is not there
#
# Exit status 0 on success, 1 on any failure.
set -euo pipefail

module_dir=$1
work=$2
mode=$3
shift 3

OPENSSL=${OPENSSL:-openssl}
MIB=${LIBGCM_TLS_TEST_MIB:-4}
mkdir -p "$work"
cd "$work"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

pids=()
cleanup() {
  local p
  for p in "${pids[@]:-}"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
  exec 3>&- || true
}
trap cleanup EXIT

# Configuration files: one that loads libgcm and prefers it for every
# algorithm it has, and one that loads only OpenSSL's default provider.
write_configs() {
  cat >libgcm.cnf <<EOF
openssl_conf = openssl_init

[openssl_init]
providers = provider_sect
alg_section = evp_properties

[provider_sect]
libgcm = libgcm_sect
default = default_sect

[libgcm_sect]
module = $module_dir/libgcm.so
activate = 1

[default_sect]
activate = 1

[evp_properties]
default_properties = ?provider=libgcm
EOF
  cat >default-only.cnf <<EOF
openssl_conf = openssl_init

[openssl_init]
providers = provider_sect

[provider_sect]
default = default_sect

[default_sect]
activate = 1
EOF
  sed "s#^module = .*#module = $work/no-such-dir/libgcm.so#" libgcm.cnf >wrong-path.cnf
}

# Listening on 127.0.0.1:$1 (from /proc/net/tcp, state 0A = LISTEN)?
listening() {
  local hex
  hex=$(printf '0100007F:%04X' "$1")
  awk -v a="$hex" '$2 == a && $4 == "0A" { found = 1 } END { exit !found }' /proc/net/tcp
}

# Starts `openssl s_server` with the given config and arguments on a free
# random port; sets $port and $server_pid. Retries with another port when the
# one picked is taken.
start_server() {
  local conf=$1 stats=$2 out=$3
  shift 3
  local attempt
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=$((20000 + RANDOM % 40000))
    listening "$port" && continue
    OPENSSL_CONF=$conf LIBGCM_PROVIDER_STATS=$stats \
      timeout 120 "$OPENSSL" s_server -accept "127.0.0.1:$port" \
      -cert "$cert_dir/cert.pem" -key "$cert_dir/key.pem" -naccept 1 -quiet \
      "$@" <hold >"$out" 2>"$out.err" &
    server_pid=$!
    pids+=("$server_pid")
    local i
    for i in $(seq 1 100); do
      if listening "$port"; then return 0; fi
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    echo "port $port did not work (attempt $attempt):" >&2
    cat "$out.err" >&2 || true
  done
  fail "could not start s_server"
}

wait_server() {
  local rc=0
  wait "$server_pid" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$1.err" >&2; fail "s_server exited with $rc"; }
}

# Checks one program's counters: $1 stats file, $2 "yes" when libgcm was
# loaded there, $3 / $4 the minimum seal / open counts.
check_stats() {
  local file=$1 loaded=$2 min_seal=$3 min_open=$4
  if [ "$loaded" = no ]; then
    [ ! -s "$file" ] || fail "$file: libgcm ran in a program that should not load it: $(cat "$file")"
    return 0
  fi
  [ -s "$file" ] || fail "$file: no libgcm counters (the provider was not loaded)"
  local line seal open
  line=$(tail -n 1 "$file")
  seal=$(sed -n 's/.* seal=\([0-9]*\).*/\1/p' <<<"$line")
  open=$(sed -n 's/.* open=\([0-9]*\).*/\1/p' <<<"$line")
  [ -n "$seal" ] && [ -n "$open" ] || fail "$file: unreadable: $line"
  [ "$seal" -ge "$min_seal" ] || fail "$file: libgcm sealed $seal records, expected >= $min_seal"
  [ "$open" -ge "$min_open" ] || fail "$file: libgcm opened $open records, expected >= $min_open"
  if [ -n "${LIBGCM_EXPECT_PAIR:-}" ]; then
    grep -q " backends=$LIBGCM_EXPECT_PAIR " <<<"$line" ||
      fail "$file: expected libgcm's backends $LIBGCM_EXPECT_PAIR: $line"
  fi
  echo "  $file: $line"
}

sha() { sha256sum "$1" | cut -d' ' -f1; }

# The body of an HTTP response (after the first blank line).
http_body() {
  python3 -c '
import sys
data = open(sys.argv[1], "rb").read()
i = data.find(b"\r\n\r\n")
if i < 0:
    sys.exit("no HTTP header in " + sys.argv[1])
open(sys.argv[2], "wb").write(data[i + 4:])' "$1" "$2"
}

cert_dir=$work/..
[ -n "${LIBGCM_CERT_DIR:-}" ] && cert_dir=$LIBGCM_CERT_DIR

case "$mode" in
  cert)
    cert_dir=$work
    timeout 60 "$OPENSSL" req -x509 -newkey rsa:2048 -nodes -days 2 \
      -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
      -keyout key.pem -out cert.pem 2>req.log || { cat req.log >&2; fail "openssl req"; }
    echo "certificate in $work"
    ;;

  configs)
    write_configs
    echo "libgcm.cnf and default-only.cnf in $work"
    ;;

  tls)
    version=$1 cipher=$2 sides=$3
    write_configs
    rm -f hold && mkfifo hold && exec 3<>hold
    case "$version" in
      tls1_2) cipher_opt=(-cipher "$cipher") ;;
      tls1_3) cipher_opt=(-ciphersuites "$cipher") ;;
      *) fail "unknown TLS version $version" ;;
    esac
    case "$sides" in
      both) sconf=libgcm.cnf cconf=libgcm.cnf sl=yes cl=yes ;;
      server) sconf=libgcm.cnf cconf=default-only.cnf sl=yes cl=no ;;
      client) sconf=default-only.cnf cconf=libgcm.cnf sl=no cl=yes ;;
      # Neither program loads libgcm: the baseline for
      # provider/bench/tls_throughput.sh.
      none) sconf=default-only.cnf cconf=default-only.cnf sl=no cl=no ;;
      *) fail "SIDES must be both, server, client or none" ;;
    esac
    records=$((MIB * 1024 / 16))
    head -c $((MIB * 1024 * 1024)) /dev/urandom >down.bin
    head -c $((MIB * 1024 * 1024)) /dev/urandom >up.bin
    rm -f ./*.stats

    # Server to client: s_server -WWW sends down.bin.
    start_server "$sconf" "$work/down.server.stats" down.server.out -WWW "-$version" "${cipher_opt[@]}"
    t0=$(date +%s.%N)
    printf 'GET /down.bin HTTP/1.0\r\n\r\n' |
      OPENSSL_CONF=$cconf LIBGCM_PROVIDER_STATS=$work/down.client.stats \
      timeout 120 "$OPENSSL" s_client -connect "127.0.0.1:$port" -quiet -nocommands -ign_eof \
      -CAfile "$cert_dir/cert.pem" "-$version" "${cipher_opt[@]}" \
      >down.response 2>down.client.err || { cat down.client.err >&2; fail "s_client (download)"; }
    wait_server down.server.out
    t1=$(date +%s.%N)
    http_body down.response down.received
    [ "$(sha down.bin)" = "$(sha down.received)" ] ||
      fail "download: SHA-256 differs ($(stat -c %s down.received) of $(stat -c %s down.bin) bytes)"

    # Client to server: s_client sends up.bin, s_server writes it out.
    start_server "$sconf" "$work/up.server.stats" up.received "-$version" "${cipher_opt[@]}"
    t2=$(date +%s.%N)
    OPENSSL_CONF=$cconf LIBGCM_PROVIDER_STATS=$work/up.client.stats \
      timeout 120 "$OPENSSL" s_client -connect "127.0.0.1:$port" -quiet -nocommands -no_ign_eof \
      -CAfile "$cert_dir/cert.pem" "-$version" "${cipher_opt[@]}" \
      <up.bin >up.client.out 2>up.client.err || { cat up.client.err >&2; fail "s_client (upload)"; }
    wait_server up.received
    t3=$(date +%s.%N)
    [ "$(sha up.bin)" = "$(sha up.received)" ] ||
      fail "upload: SHA-256 differs ($(stat -c %s up.received) of $(stat -c %s up.bin) bytes)"

    echo "$version $cipher, libgcm on: $sides; ${MIB} MiB each way, checksums equal"
    awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v m="$MIB" \
      'BEGIN { printf "  download %.2f s, upload %.2f s (with handshake and process start-up)\n", b - a, d - c }'
    # The bulk direction is at least one record per 16 KiB; the other way
    # carries at least the Finished message or the request.
    check_stats down.server.stats "$sl" "$records" 1
    check_stats down.client.stats "$cl" 1 "$records"
    check_stats up.server.stats "$sl" 1 "$records"
    check_stats up.client.stats "$cl" "$records" 1
    ;;

  curl)
    command -v curl >/dev/null || fail "curl is not installed (see README's test command)"
    write_configs
    rm -f hold && mkfifo hold && exec 3<>hold
    head -c $((MIB * 1024 * 1024)) /dev/urandom >down.bin
    rm -f ./*.stats
    start_server libgcm.cnf "$work/server.stats" server.out -WWW
    OPENSSL_CONF=$work/libgcm.cnf LIBGCM_PROVIDER_STATS=$work/curl.stats \
      timeout 120 curl --silent --show-error --fail --max-time 100 \
      --cacert "$cert_dir/cert.pem" -o down.received "https://127.0.0.1:$port/down.bin" ||
      fail "curl failed"
    wait_server server.out
    [ "$(sha down.bin)" = "$(sha down.received)" ] || fail "curl: SHA-256 differs"
    echo "curl fetched ${MIB} MiB over HTTPS, checksum equal"
    check_stats server.stats yes $((MIB * 1024 / 16)) 1
    check_stats curl.stats yes 1 $((MIB * 1024 / 16))
    ;;

  cli)
    write_configs
    out=$(timeout 30 "$OPENSSL" list -cipher-algorithms -provider-path "$module_dir" -provider libgcm 2>&1) ||
      fail "openssl list with -provider libgcm: $out"
    for name in aes-128-gcm aes-192-gcm aes-256-gcm; do
      grep -q "$name, id-.*@ libgcm" <<<"$out" || fail "openssl list does not show $name @ libgcm"
    done
    out=$(OPENSSL_CONF=$work/libgcm.cnf timeout 30 "$OPENSSL" list -providers 2>&1)
    grep -q "libgcm AES-GCM provider" <<<"$out" || fail "the config file does not activate libgcm: $out"
    echo "openssl list: the three ciphers @ libgcm; the config file activates it"

    # Wrong module path, asked for explicitly: an error, exit status non-zero.
    if out=$(timeout 30 "$OPENSSL" list -cipher-algorithms -provider-path "$work/no-such-dir" -provider libgcm 2>&1); then
      fail "openssl list succeeded with a wrong module path"
    fi
    grep -q "unable to load provider libgcm" <<<"$out" || fail "no clear error for a wrong path: $out"
    echo "wrong -provider-path: $(grep -m1 'unable to load' <<<"$out")"
    # Wrong module path in the config file: OpenSSL 3.0 leaves the provider
    # out (its config loader does not stop programs), so nothing may claim
    # to be libgcm and it must not be listed as active.
    out=$(OPENSSL_CONF=$work/wrong-path.cnf timeout 30 "$OPENSSL" list -providers 2>&1) || true
    ! grep -q libgcm <<<"$out" || fail "a wrong module path still shows libgcm: $out"
    out=$(OPENSSL_CONF=$work/wrong-path.cnf timeout 30 "$OPENSSL" list -cipher-algorithms 2>&1) || true
    ! grep -q "@ libgcm" <<<"$out" || fail "a wrong module path still lists libgcm ciphers"
    echo "wrong module path in the config file: libgcm absent from 'openssl list -providers'"

    # Unknown backend in LIBGCM_AES: the provider refuses to load and says why.
    if out=$(LIBGCM_AES=no-such-aes timeout 30 "$OPENSSL" list -cipher-algorithms -provider-path "$module_dir" -provider libgcm 2>&1); then
      fail "openssl list succeeded with LIBGCM_AES=no-such-aes"
    fi
    grep -q "unknown AES backend 'no-such-aes'" <<<"$out" || fail "the error does not name the backend: $out"
    echo "LIBGCM_AES=no-such-aes: $(grep -m1 -o "libgcm provider not loaded.*" <<<"$out")"
    out=$(LIBGCM_AES=no-such-aes OPENSSL_CONF=$work/libgcm.cnf timeout 30 "$OPENSSL" list -providers 2>&1) || true
    ! grep -q libgcm <<<"$out" || fail "LIBGCM_AES=no-such-aes: libgcm still listed: $out"
    # ... and a TLS client configured for libgcm does not claim libgcm ran.
    rm -f bad.stats
    LIBGCM_AES=no-such-aes OPENSSL_CONF=$work/libgcm.cnf LIBGCM_PROVIDER_STATS=$work/bad.stats \
      timeout 30 "$OPENSSL" list -cipher-algorithms >/dev/null 2>&1 || true
    check_stats bad.stats no 0 0
    echo "LIBGCM_AES=no-such-aes in a configured program: libgcm not loaded, no counters"
    ;;

  *)
    fail "unknown mode $mode"
    ;;
esac
