#!/bin/sh
# Fails if any source file of the library (crypto/) or of the provider
# module (provider/*.c, provider/*.h; not its tests or benchmarks) reads the
# environment other than through gcmi_getenv (crypto/env.c, the one file
# allowed to call the C library). A direct getenv would be read in setuid,
# setgid and file-capability programs too, which crypto/env.c exists to
# prevent.
#
#   check_getenv.sh SOURCE_DIR
set -eu
top="$1"
cd "$top"
files=$(find crypto provider -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null;
        find crypto -mindepth 2 -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null)
files=$(printf '%s\n' "$files" | grep -v '^crypto/env\.c$' | sort -u)
if [ -z "$files" ]; then
  echo "check_getenv: no sources found under $top" >&2
  exit 1
fi
# Any C-library or Windows way to read the environment, as a call or a
# name (environ). Words only: gcmi_getenv( does not match.
pattern='(^|[^A-Za-z0-9_])(getenv|secure_getenv|__secure_getenv|_wgetenv|getenv_s|_dupenv_s|_wdupenv_s|GetEnvironmentVariable[AW]?|GetEnvironmentStrings[AW]?)[[:space:]]*\(|(^|[^A-Za-z0-9_])(_?environ|__environ)([^A-Za-z0-9_]|$)'
# shellcheck disable=SC2086
bad=$(grep -nE "$pattern" $files || true)
n=$(printf '%s\n' "$files" | wc -l | tr -d ' ')
if [ -n "$bad" ]; then
  echo "check_getenv: environment read outside crypto/env.c (use gcmi_getenv from crypto/env.h):" >&2
  printf '%s\n' "$bad" >&2
  exit 1
fi
echo "check_getenv: $n files of crypto/ and provider/ read the environment only through gcmi_getenv"
