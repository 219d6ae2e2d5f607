#!/bin/sh
# Fails if libgcm's static archive defines a global symbol outside libgcm's three name spaces:
#   gcm_*   the native API (include/gcm/gcm.h)
#   EVP_*   the BoringSSL-compatible API (include/gcm/compat/openssl/aead.h)
#   gcmi_*  everything internal that has to cross an object file: backend
#           descriptors, kernels, the CPU layer, the error helpers, ...
# A program that links libgcm.a may then define any name outside those
# prefixes (error_set, secure_wipe, cpu_caps, ...) without a clash. The
# compiler's own 32-bit x86 PIC helpers (__x86.get_pc_thunk.*, in the
# implementation's reserved name space, one shared copy per program) are
# the only other names allowed in the archive.
#
#   check_symbols.sh NM FILE [leading-underscore]
# NM is the toolchain's nm (cross builds pass their own). FILE is libgcm.a.
# A third argument says the object format puts an underscore before every
# C name (win32 COFF). The shared library's exports are checked, more
# strictly, by check_exports.sh (ELF) and check_dll_exports.sh (Windows).
set -eu
nm_tool="$1"
file="$2"
under="${3:-}"
syms=$("$nm_tool" -g --defined-only "$file" 2>/dev/null |
      awk 'NF >= 3 && $2 ~ /^[A-Z]$/ {print $3}')
allowed='^(gcm_[a-z0-9_]+|gcmi_[a-z0-9_]+|EVP_[A-Za-z0-9_]+|__x86\.get_pc_thunk\.[a-z]+)$'
if [ -n "$under" ]; then
  syms=$(printf '%s\n' "$syms" | sed 's/^_//')
fi
# MinGW's x86_64 compiler reaches data defined in another object through a
# pointer cell of its own, .refptr.NAME (a COMDAT that the linker merges):
# the cell is checked as the NAME it points to. (A leading `.` is outside C's
# names, so the cell itself cannot clash with a program's.)
syms=$(printf '%s\n' "$syms" | sed 's/^\.refptr\.//')
syms=$(printf '%s\n' "$syms" | sort -u)
if [ -z "$syms" ]; then
  echo "check_symbols: no global symbols found in $file" >&2
  exit 1
fi
bad=$(printf '%s\n' "$syms" | grep -Ev "$allowed" || true)
echo "check_symbols: $(printf '%s\n' "$syms" | wc -l | tr -d ' ') global symbols in $(basename "$file")"
if [ -n "$bad" ]; then
  echo "check_symbols: names outside gcm_*, gcmi_* and EVP_* in $file:" >&2
  printf '  %s\n' $bad >&2
  exit 1
fi
for must in gcm_key_init gcm_seal gcm_open EVP_AEAD_CTX_seal; do
  printf '%s\n' "$syms" | grep -qx "$must" ||
    { echo "check_symbols: $must missing from $file" >&2; exit 1; }
done
