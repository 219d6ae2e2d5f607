#!/usr/bin/env bash
# The Debian packages, as a distribution would build and a user install
# them: builds debian/ from a copy of the checkout's tracked files with
# `dpkg-buildpackage -us -uc -b` (the test suite runs inside, through
# dh_auto_test), checks the packages with lintian (any error fails),
# installs them, compiles and runs a small program against the installed
# headers and library through pkg-config, asks `openssl list -providers`
# to load the installed provider, and removes the packages again.
#
#   test/packaging/debian_package.sh WORKDIR
#
# Needs root (dpkg -i), dpkg-dev, debhelper, lintian and the package's
# Build-Depends (debian/control).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$1
rm -rf "$work"
mkdir -p "$work/libgcm"
# Only what git tracks, as a source package would hold.
(cd "$top" && git ls-files -z) | (cd "$top" && xargs -0 cp --parents -t "$work/libgcm")

cd "$work/libgcm"
echo "-- dpkg-buildpackage -us -uc -b"
DEB_BUILD_OPTIONS="parallel=${LIBGCM_JOBS:-2}" dpkg-buildpackage -us -uc -b > "$work/build.log" 2>&1 ||
  { tail -80 "$work/build.log"; echo "dpkg-buildpackage failed (log: $work/build.log)" >&2; exit 1; }
grep -E "tests passed|tests failed" "$work/build.log" || true
cd "$work"
ls -1 ./*.deb

echo "-- lintian"
lintian --fail-on error --tag-display-limit 0 ./*.changes

packages=(libgcm1 libgcm-dev libgcm-tools libgcm-provider)
cleanup() { dpkg -r "${packages[@]}" >/dev/null 2>&1 || true; }
trap cleanup EXIT
echo "-- dpkg -i"
dpkg -i libgcm1_*.deb libgcm-dev_*.deb libgcm-tools_*.deb libgcm-provider_*.deb

echo "-- a program against the installed package (pkg-config libgcm)"
cat > "$work/installed.c" <<'PROGRAM'
#include <gcm/gcm.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  static const unsigned char key[16] = {0}, nonce[12] = {0};
  unsigned char tag[16];
  static const unsigned char want[16] = {0x58, 0xe2, 0xfc, 0xce, 0xfa, 0x7e, 0x30, 0x61,
                                         0x36, 0x7f, 0x1d, 0x57, 0xa4, 0xe7, 0x45, 0x5a};
  gcm_key k;
  /* McGrew-Viega test case 1: the empty message under the zero key. */
  if (!gcm_key_init(&k, key, sizeof key) ||
      !gcm_seal(&k, NULL, tag, sizeof tag, nonce, sizeof nonce, NULL, 0, NULL, 0) ||
      memcmp(tag, want, sizeof tag) != 0) {
    fprintf(stderr, "installed libgcm: wrong tag\n");
    return 1;
  }
  if (strcmp(gcm_version(), GCM_VERSION_STRING) != 0) return 1;
  printf("installed libgcm %s: %s/%s, test case 1 ok\n", gcm_version(),
         gcm_key_aes_backend(&k), gcm_key_ghash_backend(&k));
  gcm_key_cleanup(&k);
  return 0;
}
PROGRAM
# shellcheck disable=SC2046
cc -Wall -Wextra -Werror -o "$work/installed" "$work/installed.c" $(pkg-config --cflags --libs libgcm)
"$work/installed"
# Output is captured before grep reads it: with pipefail, `ldd | grep -q`
# fails whenever grep exits at its match before ldd has written its last line.
libs=$(ldd "$work/installed")
grep -qE 'libgcm\.so\.1 => (/usr)?/lib/' <<<"$libs" ||
  { echo "the program did not link the installed libgcm.so.1:" >&2; printf '%s\n' "$libs" >&2; exit 1; }

echo "-- openssl list -providers with the installed provider"
out=$(openssl list -providers -provider libgcm -provider default)
printf '%s\n' "$out"
grep -q 'libgcm' <<<"$out" ||
  { echo "openssl did not load the installed libgcm provider" >&2; exit 1; }
gcm-speed --version
echo "-- Debian packages passed"
