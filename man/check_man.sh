#!/bin/sh
# man/check_man.sh HEADER MANDIR [MANDOC]: fails when a function HEADER
# declares with GCM_EXPORT is not named in the NAME section (.Nm) of any
# page in MANDIR, or when `mandoc -Tlint` reports a warning or an error on
# any page. Without mandoc the lint part cannot run: the test is skipped
# (exit 77) after the name check.
set -eu
header="$1"; mandir="$2"; mandoc="${3:-}"

# The names each page documents: the .Nm lines of its NAME section.
names=$(for page in "$mandir"/*.[1-9]; do
          awk '/^\.Sh / { in_name = ($0 == ".Sh NAME"); next }
               in_name && $1 == ".Nm" { print $2 }' "$page"
        done | sort -u)

functions=$(grep -hE '^(GCM|OPENSSL)_EXPORT' "$header" |
            sed -E 's/^[^(]*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/' | sort -u)
if [ -z "$functions" ]; then
  echo "no GCM_EXPORT functions found in $header" >&2
  exit 1
fi
missing=$(printf '%s\n' "$functions" | while read -r f; do
            printf '%s\n' "$names" | grep -qx "$f" || echo "$f"
          done)
if [ -n "$missing" ]; then
  echo "public functions without a man page (no .Nm in any NAME section of $mandir):" >&2
  printf '  %s\n' $missing >&2
  exit 1
fi
echo "$(printf '%s\n' "$functions" | wc -l | tr -d ' ') public functions, each named by a page"

if [ -z "$mandoc" ] || ! command -v "$mandoc" >/dev/null 2>&1; then
  echo "mandoc not installed: the pages were not linted (Debian: apt-get install mandoc)"
  exit 77
fi
status=0
for page in "$mandir"/*.[1-9]; do
  # -W warning: warnings, errors and unsupported input are reported and
  # make the exit status non-zero; style suggestions are not.
  if ! "$mandoc" -Tlint -W warning "$page"; then
    status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "mandoc -Tlint reported warnings or errors" >&2
  exit 1
fi
echo "$(ls "$mandir"/*.[1-9] | wc -l | tr -d ' ') pages pass mandoc -Tlint"
