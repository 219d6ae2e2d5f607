#!/bin/sh
# Lists the dynamic symbols libgcm's shared library defines and fails if any
# is not public API: the native gcm_* functions or the BoringSSL-compatible
# EVP_* functions. Internal names (aes_*, ghash_*, dispatch_*, cpu_*,
# error_*, ct_memeq, ...) must stay hidden. With the version script
# (cmake/libgcm.map, passed as the second argument) it also checks that
# every exported name carries the version of the node that lists it
# (LIBGCM_1.0, LIBGCM_1.1, ...) and that the exports are exactly the names
# the script lists; with the include directory as
# the third argument, also exactly the functions the public headers
# declare (GCM_EXPORT in gcm.h, OPENSSL_EXPORT in the compat aead.h), so a
# name dropped from the script, or declared and never exported, fails.
set -eu
lib="$1"
map="${2:-}"
incdir="${3:-}"
syms=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDRBVW]$/ {print $3}' | sed 's/@.*//' | sort -u)
if [ -z "$syms" ]; then
  echo "no exported symbols found in $lib" >&2
  exit 1
fi
# same_names WHAT LIST: fails, with a diff, unless LIST (one name a line,
# sorted) is exactly the library's gcm_*/EVP_* exports.
same_names() {
  exported=$(printf '%s\n' "$syms" | grep -E '^(gcm_|EVP_)' | sort -u)
  if [ "$2" != "$exported" ]; then
    echo "$1 and the exports differ (< $1, > library):" >&2
    printf '%s\n' "$2" > "${TMPDIR:-/tmp}/libgcm-names.$$"
    printf '%s\n' "$exported" | diff "${TMPDIR:-/tmp}/libgcm-names.$$" - >&2 || true
    rm -f "${TMPDIR:-/tmp}/libgcm-names.$$"
    exit 1
  fi
}
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
if [ -n "$map" ]; then
  # name@@NODE for every name of the script, from the node it sits in.
  wanted=$(awk '/^LIBGCM_[0-9.]+ *\{/ { node = $1 }
                /^ *[A-Za-z_][A-Za-z0-9_]*;$/ { sub(/^ */, ""); sub(/;$/, "");
                                                print $0 "@@" node }' "$map" | sort -u)
  versioned=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDRBVW]$/ {print $3}' |
              grep -E '^(gcm_|EVP_)' | sort -u)
  if [ "$wanted" != "$versioned" ]; then
    echo "exports and their versions differ from $(basename "$map") (< script, > library):" >&2
    printf '%s\n' "$wanted" > "${TMPDIR:-/tmp}/libgcm-versions.$$"
    printf '%s\n' "$versioned" | diff "${TMPDIR:-/tmp}/libgcm-versions.$$" - >&2 || true
    rm -f "${TMPDIR:-/tmp}/libgcm-versions.$$"
    exit 1
  fi
  listed=$(printf '%s\n' "$wanted" | sed 's/@@.*//' | sort -u)
  same_names "the version script" "$listed"
  echo "every export versioned by the node of $(basename "$map") that lists it"
fi
if [ -n "$incdir" ]; then
  declared=$(grep -hE '^(GCM|OPENSSL)_EXPORT' "$incdir/gcm/gcm.h" \
               "$incdir/gcm/compat/openssl/aead.h" |
             sed -E 's/^[^(]*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/' | sort -u)
  same_names "the public headers" "$declared"
  echo "the exports are exactly the $(printf '%s\n' "$declared" | wc -l | tr -d ' ') functions the public headers declare"
fi
