#!/bin/sh
# Lists the dynamic symbols libgcm's shared library defines and fails if any
# is not public API: the native gcm_* functions or the BoringSSL-compatible
# EVP_* functions. Internal names (aes_*, ghash_*, dispatch_*, cpu_*,
# error_*, ct_memeq, ...) must stay hidden.
set -eu
lib="$1"
syms=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDRBVW]$/ {print $3}' | sed 's/@.*//' | sort -u)
if [ -z "$syms" ]; then
  echo "no exported symbols found in $lib" >&2
  exit 1
fi
bad=$(printf '%s\n' "$syms" | grep -Ev '^(gcm_[a-z0-9_]+|EVP_[A-Za-z0-9_]+|_init|_fini|_edata|_end|__bss_start)$' || true)
count=$(printf '%s\n' "$syms" | grep -c -E '^(gcm_|EVP_)')
echo "$count public symbols exported"
if [ -n "$bad" ]; then
  echo "internal symbols leak from $lib:" >&2
  printf '  %s\n' $bad >&2
  exit 1
fi
for must in gcm_key_init gcm_seal gcm_open gcm_stream_update EVP_AEAD_CTX_seal EVP_aead_aes_128_gcm \
    EVP_aead_aes_128_gcm_randnonce EVP_aead_aes_256_gcm_randnonce EVP_has_aes_hardware; do
  printf '%s\n' "$syms" | grep -qx "$must" || { echo "missing export: $must" >&2; exit 1; }
done
