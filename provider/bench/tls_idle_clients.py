#!/usr/bin/env python3
"""provider/bench/tls_idle_clients.py: holds many idle TLS 1.3 connections
open to one server and reports a server process's resident memory before
and after (used by nginx_rss.sh).

    tls_idle_clients.py PORT CONNS SERVER_PID [WARMUP]

One process, one socket per connection, handshakes done one after another
(blocking), nothing sent after the handshake. Steps:
  1. WARMUP connections (default 20) are opened, completed and closed, so
     that what the server allocates once (the first handshake's tables,
     cached cipher fetches) is in the "before" figure;
  2. the server's VmRSS (/proc/PID/status) and Rss/Pss (smaps_rollup) are
     read ("before");
  3. CONNS connections are opened and completed and held: each must have
     negotiated TLS 1.3 with TLS_AES_128_GCM_SHA256 (anything else stops
     the run);
  4. after a pause for the server to finish its side (it processes the
     client Finished and sends its session tickets after the client's
     handshake returns), the figures are read again ("after"), then every
     socket is closed.
Prints one line: `before_rss_kb after_rss_kb before_pss_kb after_pss_kb`.
Python's ssl module is only the client here: it uses whatever OpenSSL it
is linked to, with its own default configuration (nginx_rss.sh runs it
without OPENSSL_CONF).
"""
import socket
import ssl
import sys
import time


def memory_kb(pid):
    """VmRSS from status, and Rss and Pss from smaps_rollup, in kB."""
    rss = pss = rollup_rss = None
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith("Rss:"):
                    rollup_rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        rollup_rss = pss = rss
    return rss, pss if pss is not None else rollup_rss


def connect(ctx, port):
    raw = socket.create_connection(("127.0.0.1", port), timeout=30)
    s = ctx.wrap_socket(raw, server_hostname="localhost")
    name, version, _ = s.cipher()
    if version != "TLSv1.3" or name != "TLS_AES_128_GCM_SHA256":
        sys.exit("negotiated %s %s, not TLSv1.3 TLS_AES_128_GCM_SHA256"
                 % (version, name))
    return s


def main():
    port, conns, pid = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    warmup = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    for _ in range(warmup):
        connect(ctx, port).close()
    time.sleep(1)
    before = memory_kb(pid)
    held = [connect(ctx, port) for _ in range(conns)]
    time.sleep(2)
    after = memory_kb(pid)
    for s in held:
        s.close()
    print(before[0], after[0], before[1], after[1])


if __name__ == "__main__":
    main()
