#!/bin/sh
# Installs the build tree into a scratch prefix and builds programs against
# the installed package the ways users will:
#   1. pkg-config libgcm-compat: a program written only against BoringSSL's
#      <openssl/aead.h> (test/compat_program.c), linked with the shared
#      library, then run;
#   2. pkg-config libgcm: the native API, statically linked;
#   3. find_package(libgcm CONFIG) from a separate CMake project using
#      libgcm::gcm and libgcm::compat.
# It also checks that an install writes nothing outside its prefix: staged
# with DESTDIR under another prefix, every file lands in DESTDIR/prefix (the
# provider module included, unless LIBGCM_PROVIDER_INSTALL_DIR was set to an
# absolute directory outside it), and that OpenSSL loads the installed
# provider module through OPENSSL_MODULES.
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
# The manual, with a page per name (gcm_open is in gcm_seal(3)).
for page in man1/gcm-speed.1 man3/libgcm.3 man3/gcm_seal.3 man3/gcm_open.3 man7/libgcm-provider.7; do
  test -f "$prefix/share/man/$page"
done

# Nothing outside the prefix: a staged install (DESTDIR) with the
# configured prefix puts every file under DESTDIR/prefix.
stage="$work/stage"
configured=$(sed -n 's/^CMAKE_INSTALL_PREFIX:[A-Z]*=//p' "$build/CMakeCache.txt")
DESTDIR="$stage" cmake --install "$build" >/dev/null
outside=$(find "$stage" ! -type d | grep -v "^$stage$configured/" || true)
if [ -n "$outside" ]; then
  provider_dir=$(sed -n 's/^LIBGCM_PROVIDER_INSTALL_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")
  case $provider_dir in
    /*) # A packager's explicit absolute directory: only the module may be there.
        outside=$(printf '%s\n' "$outside" | grep -v "^$stage$provider_dir/libgcm.so$" || true) ;;
  esac
fi
if [ -n "$outside" ]; then
  echo "install writes outside its prefix:" >&2
  printf '%s\n' "$outside" >&2
  exit 1
fi
echo "staged install under its prefix only: ok"

# The provider module, when built, is in the prefix and OpenSSL loads it
# from there through OPENSSL_MODULES.
if [ -f "$build/provider/libgcm.so" ]; then
  module=$(find "$prefix" -name libgcm.so -path '*/ossl-modules/*' | head -n 1)
  if [ -z "$module" ]; then
    provider_dir=$(sed -n 's/^LIBGCM_PROVIDER_INSTALL_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")
    echo "provider module not installed under $prefix (LIBGCM_PROVIDER_INSTALL_DIR=$provider_dir)" >&2
    case $provider_dir in /*) ;; *) exit 1 ;; esac
  elif command -v openssl >/dev/null 2>&1; then
    OPENSSL_MODULES=$(dirname "$module") openssl list -providers -provider libgcm |
      grep -q 'libgcm AES-GCM provider'
    echo "OPENSSL_MODULES=$(basename "$(dirname "$module")") openssl list -providers -provider libgcm: ok"
  fi
fi

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
