#!/usr/bin/env bash
# provider/bench/nginx_rss.sh: memory per idle TLS 1.3 connection in
# Debian's nginx, with OpenSSL's AES-GCM from the default provider against
# libgcm's provider (issue 33's measurement).
#
#   provider/bench/nginx_rss.sh BUILD_DIR [CONNS [ROUNDS]]
#
# Needs: Debian's nginx (package nginx-light or nginx: `apt-get install -y
# nginx-light`; another binary with NGINX=/path/nginx), openssl (the
# command, for the certificate), python3 (its ssl module is the client).
# BUILD_DIR is a libgcm build with the provider (BUILD_DIR/provider/libgcm.so).
#
# Each run starts its own nginx from a temporary directory (nothing under
# /etc/nginx is read or written; the port is a free one on 127.0.0.1): one
# worker, a self-signed RSA certificate made with openssl, TLS 1.3 only,
# `ssl_conf_command Ciphersuites TLS_AES_128_GCM_SHA256`, no session cache,
# timeouts long enough that nobody closes an idle connection. The client,
# tls_idle_clients.py, completes 20 warm-up handshakes, reads the worker's
# VmRSS, completes CONNS (default 1500) handshakes and holds the sockets
# idle, reads VmRSS again; growth / CONNS is the figure. Pss (smaps_rollup)
# is given beside it.
#
# The two configurations differ only in the OpenSSL configuration file
# nginx gets through OPENSSL_CONF: "default" (default-only.cnf) activates
# the default provider alone; "libgcm" (libgcm.cnf) also loads
# BUILD_DIR/provider/libgcm.so and prefers it
# (default_properties = ?provider=libgcm, as docs/provider.md says). A
# libgcm run counts only if the worker's LIBGCM_PROVIDER_STATS line shows
# at least CONNS seals (each handshake seals the server's flight in
# AES-128-GCM) and a default run only if libgcm.so is not mapped in the
# worker. Runs alternate, ROUNDS (default 3) of each; the table gives
# medians. A measurement, not a test (not registered in ctest).
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR [CONNS [ROUNDS]]}
conns=${2:-1500}
rounds=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
module=$(cd "$build/provider" && pwd)/libgcm.so
[ -f "$module" ] || { echo "no provider module at $module" >&2; exit 1; }
nginx=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
[ -x "$nginx" ] || { echo "nginx not found: apt-get install -y nginx-light (or set NGINX)" >&2; exit 1; }
# The client holds CONNS sockets, the worker as many plus its own.
ulimit -n $((conns * 2 + 256)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"

work=$(mktemp -d)
master=
cleanup() {
  if [ -n "$master" ]; then kill -TERM "$master" 2>/dev/null || true; wait "$master" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The certificate and the two configuration files are the provider tests'
# own (provider/test/openssl_programs_test.sh's cert and configs modes).
"$here/../test/openssl_programs_test.sh" "$(dirname "$module")" "$work" cert >/dev/null
"$here/../test/openssl_programs_test.sh" "$(dirname "$module")" "$work" configs >/dev/null

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# A worker running as root's default `user nobody` could not write the
# statistics file into the private temporary directory: as root, the
# worker keeps the invoking user (as any non-root nginx does anyway).
user_line=
[ "$(id -u)" = 0 ] && user_line="user $(id -un) $(id -gn);"

# One run: appends "before_rss_kb after_rss_kb before_pss_kb after_pss_kb"
# to $work/MODE.kb (not in a subshell, so that the EXIT trap stops nginx if
# a check fails).
run_once() {
  local mode=$1 dir=$work/run port worker line seals conf=default-only.cnf
  [ "$mode" = libgcm ] && conf=libgcm.cnf
  rm -rf "$dir"
  mkdir -p "$dir/logs"
  port=$(free_port)
  cat >"$dir/nginx.conf" <<EOF
$user_line
worker_processes 1;
worker_rlimit_nofile $((conns * 2 + 256));
daemon off;
master_process on;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
env OPENSSL_CONF;
env LIBGCM_PROVIDER_STATS;
events { worker_connections $((conns + 256)); }
http {
  access_log off;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  client_header_timeout 600s;
  keepalive_timeout 600s;
  server {
    listen 127.0.0.1:$port ssl;
    ssl_certificate $work/cert.pem;
    ssl_certificate_key $work/key.pem;
    ssl_protocols TLSv1.3;
    ssl_conf_command Ciphersuites TLS_AES_128_GCM_SHA256;
    ssl_session_timeout 1m;
    location / { return 200 "ok\n"; }
  }
}
EOF
  OPENSSL_CONF=$work/$conf LIBGCM_PROVIDER_STATS=$dir/stats \
    "$nginx" -p "$dir" -c "$dir/nginx.conf" 2>>"$dir/logs/error.log" &
  master=$!
  worker=
  for _ in $(seq 100); do
    worker=$(cat "/proc/$master/task/$master/children" 2>/dev/null | awk '{print $1}') || true
    if [ -n "$worker" ] && python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null; then
      break
    fi
    worker=
    sleep 0.1
  done
  [ -n "$worker" ] || { cat "$dir/logs/error.log" >&2; echo "nginx did not start" >&2; exit 1; }
  if [ "$mode" = default ] && grep -q libgcm "/proc/$worker/maps"; then
    echo "default run: libgcm.so is mapped in the worker" >&2
    exit 1
  fi
  line=$(env -u OPENSSL_CONF python3 "$here/tls_idle_clients.py" "$port" "$conns" "$worker")
  kill -QUIT "$master"
  wait "$master" || true
  master=
  if [ "$mode" = libgcm ]; then
    seals=$(sed -n "s/^libgcm provider: pid=$worker .* seal=\([0-9]*\) .*/\1/p" "$dir/stats" 2>/dev/null)
    if [ -z "$seals" ] || [ "$seals" -lt "$conns" ]; then
      echo "libgcm run: the worker's libgcm counters show ${seals:-no} seals for $conns connections" >&2
      cat "$dir/stats" >&2 2>/dev/null || true
      exit 1
    fi
    echo "libgcm run: worker $worker sealed $seals records in libgcm ($(sed -n "s/^libgcm provider: pid=$worker backends=\([^ ]*\).*/\1/p" "$dir/stats"))" >&2
  fi
  echo "round $r $mode: $line (kB: rss before, after; pss before, after)" >&2
  echo "$line" >>"$work/$mode.kb"
}

for r in $(seq "$rounds"); do
  for mode in default libgcm; do
    run_once "$mode"
  done
done

echo "nginx $("$nginx" -v 2>&1 | sed 's/.*nginx\///'), one worker, $conns idle TLS 1.3 connections (TLS_AES_128_GCM_SHA256), growth of the worker's memory per connection, median of $rounds alternated runs"
python3 - "$work/default.kb" "$work/libgcm.kb" "$conns" <<'PY'
import statistics, sys
conns = int(sys.argv[3])
rows = []
for name, f in (("the default provider", sys.argv[1]), ("libgcm's provider", sys.argv[2])):
    runs = [list(map(int, l.split())) for l in open(f) if l.strip()]
    rss = [(a - b) * 1024 / conns for b, a, _, _ in runs]
    pss = [(a - b) * 1024 / conns for _, _, b, a in runs]
    rows.append((name, statistics.median(rss), rss, statistics.median(pss)))
print("| OpenSSL's AES-GCM from | RSS growth per connection (bytes) | runs | Pss growth per connection |")
print("|---|---:|---|---:|")
for name, med, runs, pss in rows:
    print("| %s | %.0f | %s | %.0f |" % (name, med, " ".join("%.0f" % x for x in runs), pss))
d = rows[1][1] - rows[0][1]
print("libgcm minus default: %+.0f bytes per connection (%+.0f%%)" % (d, 100 * d / rows[0][1]))
PY
