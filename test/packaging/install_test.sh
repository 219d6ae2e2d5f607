#!/bin/sh
# Installs the build tree into a scratch prefix and builds programs against
# the installed package the ways users will:
#   1. pkg-config libgcm-compat: a program written only against BoringSSL's
#      <openssl/aead.h> (test/compat_program.c), linked with the shared
#      library, then run;
#   2. pkg-config libgcm: the native API, statically linked;
#   3. find_package(libgcm CONFIG) from a separate CMake project using
#      libgcm::gcm and libgcm::compat.
set -eu
build="$1"; src="$2"; cc="$3"
work="$build/install-test"
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(ls -d "$prefix"/lib* | head -n 1)
export PKG_CONFIG_PATH="$libdir/pkgconfig"
test -f "$prefix/bin/gcm-speed"
test -f "$prefix/include/gcm/gcm.h"
test -f "$prefix/include/gcm/compat/openssl/aead.h"

# 1. BoringSSL-style program through libgcm-compat.pc.
# shellcheck disable=SC2046
$cc -o "$work/compat_program" "$src/test/compat_program.c" \
  $(pkg-config --cflags --libs libgcm-compat)
LD_LIBRARY_PATH="$libdir" "$work/compat_program"
echo "pkg-config libgcm-compat: ok"

# 2. Native API, static library.
cat > "$work/native.c" <<'C'
#include <gcm/gcm.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  static const uint8_t k[16] = {0}, n[12] = {0};
  uint8_t tag[16];
  gcm_key key;
  if (!gcm_key_init(&key, k, sizeof(k))) return 1;
  if (!gcm_seal(&key, NULL, tag, 16, n, 12, NULL, 0, NULL, 0)) return 1;
  /* McGrew-Viega test case 1: the tag of the empty message, zero key. */
  static const uint8_t want[16] = {0x58, 0xe2, 0xfc, 0xce, 0xfa, 0x7e, 0x30, 0x61,
                                   0x36, 0x7f, 0x1d, 0x57, 0xa4, 0xe7, 0x45, 0x5a};
  gcm_key_cleanup(&key);
  if (memcmp(tag, want, 16) != 0) return 1;
  printf("native ok (%s)\n", gcm_version());
  return 0;
}
C
# shellcheck disable=SC2046
$cc -o "$work/native" "$work/native.c" -I"$prefix/include" "$libdir/libgcm.a" -lpthread
"$work/native"

# 3. CMake package.
cmake -S "$src/test/packaging/consumer" -B "$work/consumer" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCOMPAT_PROGRAM="$src/test/compat_program.c" >/dev/null
cmake --build "$work/consumer" >/dev/null
LD_LIBRARY_PATH="$libdir" "$work/consumer/native_consumer"
LD_LIBRARY_PATH="$libdir" "$work/consumer/compat_consumer"
echo "find_package(libgcm): ok"
