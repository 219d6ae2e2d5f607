#!/bin/sh
# The Windows builds' libgcm.dll exports exactly the public API: the names
# the headers mark GCM_EXPORT (include/gcm/*.h) and OPENSSL_EXPORT
# (include/gcm/compat/openssl/*.h), no more and no fewer; and its import
# library libgcm.dll.a offers each of them (the call stub NAME and the
# pointer __imp_NAME) and nothing else but the import machinery's own
# _head_* (__head_* on win32) and *_iname.
#
#   check_dll_exports.sh OBJDUMP NM DLL IMPORT_LIB SOURCE_DIR [leading-underscore]
# OBJDUMP and NM are the MinGW toolchain's. The last argument says the
# object format puts an underscore before every C name (win32 COFF, where
# the import library holds _NAME and __imp__NAME; the DLL's export table
# has the plain names either way).
set -eu
objdump_tool="$1"
nm_tool="$2"
dll="$3"
implib="$4"
src="$5"
under="${6:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The declarations: the identifier before the first `(` after the marker
# (the macros' own definitions, __declspec and __attribute__, are not
# functions).
perl -0777 -ne 'while (/\b(?:GCM|OPENSSL)_EXPORT\b[^;(#]*?\b(\w+)\s*\(/g) { print "$1\n" }' \
  "$src"/include/gcm/*.h "$src"/include/gcm/compat/openssl/*.h |
  grep -v '^__' | sort -u >"$tmp/api"
# The export table, as objdump -p prints it.
"$objdump_tool" -p "$dll" |
  sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' |
  awk '/^[[:space:]]+\[/ {print $NF}' | sort -u >"$tmp/exports"
n=$(wc -l <"$tmp/exports" | tr -d ' ')
echo "check_dll_exports: $n names exported by $(basename "$dll")," \
     "$(wc -l <"$tmp/api" | tr -d ' ') declared public"
if [ "$n" -eq 0 ]; then
  echo "check_dll_exports: no export table in $dll" >&2
  exit 1
fi
if ! diff -u "$tmp/api" "$tmp/exports" >"$tmp/diff"; then
  echo "check_dll_exports: exports differ from the public API (- declared only, + exported only):" >&2
  grep '^[-+][^-+]' "$tmp/diff" >&2
  exit 1
fi

# The import library.
"$nm_tool" -g --defined-only "$implib" | awk 'NF >= 3 {print $3}' | sort -u >"$tmp/implib"
p=""
[ -n "$under" ] && p="_"
while read -r name; do
  for want in "$p$name" "__imp_$p$name"; do
    grep -qx "$want" "$tmp/implib" ||
      { echo "check_dll_exports: $want missing from $implib" >&2; exit 1; }
  done
done <"$tmp/api"
bad=$(grep -Ev "^(__imp_)?$p(gcm_[a-z0-9_]+|EVP_[A-Za-z0-9_]+)\$|^_+head_|_iname\$" "$tmp/implib" || true)
if [ -n "$bad" ]; then
  echo "check_dll_exports: unexpected names in $implib:" >&2
  printf '  %s\n' $bad >&2
  exit 1
fi
echo "check_dll_exports: $(basename "$implib") offers exactly those"
