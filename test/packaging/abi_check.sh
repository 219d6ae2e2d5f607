#!/bin/sh
# The ABI check: compares the built shared library with the baseline of
# libgcm's public ABI kept in abi/ (libabigail's abidw XML, made from a build
# with debug information). Only what the public headers declare counts
# (--headers-dir, --drop-private-types): the internal structures behind the
# opaque gcm_key and gcm_stream may change freely.
#
#   abi_check.sh ABIDIFF ABIDW LIBRARY BASELINE INCLUDE_DIR          check
#   abi_check.sh ABIDIFF ABIDW LIBRARY BASELINE INCLUDE_DIR --update rewrite
#
# abidiff's exit status is a bit field: 1 an error, 2 a usage error, 4 an
# ABI change, 8 an incompatible change. Only a removed symbol sets 8: a
# public struct that changes size (gcm_key, EVP_AEAD_CTX) is "an ABI change"
# to abidiff, reported as a changed function whose parameter's pointed-to
# type changed. So the check reads abidiff's summary lines: any removed or
# changed function or variable fails; added ones alone are reported and
# pass (add them to the baseline with the release that ships them,
# abi/README.md).
#
# The new library is read whole (no --headers-dir): the baseline already
# holds only the public types, and the internal ones are opaque bytes to
# every exported function, so nothing internal can show up as a change.
set -u
abidiff="$1" abidw="$2" lib="$3" baseline="$4" incdir="$5"
mode="${6:-check}"
if [ "$mode" = "--update" ]; then
  "$abidw" --no-corpus-path --no-comp-dir-path --no-show-locs \
    --headers-dir "$incdir/gcm" --drop-private-types "$lib" > "$baseline.new" &&
    mv "$baseline.new" "$baseline" || exit 1
  echo "abi_check: wrote $baseline from $lib"
  exit 0
fi
if [ ! -f "$baseline" ]; then
  echo "abi_check: no baseline $baseline" >&2
  exit 1
fi
report=$("$abidiff" --no-show-locs "$baseline" "$lib" 2>&1)
rc=$?
printf '%s\n' "$report"
if [ $((rc & 3)) -ne 0 ]; then
  echo "abi_check: abidiff failed (exit $rc)" >&2
  exit 1
fi
# "Functions changes summary: R Removed, C Changed (F filtered out), A Added functions"
# and the same for variables: R and C must be 0.
broken=$(printf '%s\n' "$report" |
         sed -n 's/^.*changes summary: \([0-9]*\) Removed, \([0-9]*\) Changed.*$/\1 \2/p' |
         awk '$1 != 0 || $2 != 0' )
if [ $((rc & 8)) -ne 0 ] || [ -n "$broken" ]; then
  echo "abi_check: INCOMPATIBLE change against $(basename "$baseline"): the ABI of libgcm.so.1 must only grow" >&2
  exit 1
fi
if [ $((rc & 4)) -ne 0 ]; then
  echo "abi_check: compatible ABI additions against $(basename "$baseline") (listed above); update the baseline with the release that ships them"
else
  echo "abi_check: the ABI matches $(basename "$baseline")"
fi
exit 0
