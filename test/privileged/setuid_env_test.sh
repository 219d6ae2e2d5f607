#!/bin/sh
# A privileged process ignores libgcm's environment (crypto/env.c): run
# env_helper (env_helper.c) as a setuid program with every variable set
# and check that it chose exactly what it chooses with none set, and that
# the provider wrote no statistics file.
#
#   setuid_env_test.sh HELPER WORKDIR [PROVIDER_MODULE]
# HELPER is env_helper (library only) or env_helper_provider, which also
# loads PROVIDER_MODULE (libgcm.so) through OpenSSL. WORKDIR is made afresh
# and must be on a file system that honours setuid (the build tree).
#
# Runs, each with a clean environment (env -i):
#   baseline   unprivileged, no variable: the defaults.
#   control A  unprivileged, every variable: LIBGCM_GHASH=4bit must change
#              the outcome (ct/4bit in a LIBGCM_ALLOW_VARIABLE_TIME_ENV
#              build, the refusal otherwise), or the test could not fail.
#   control B  unprivileged, every variable but LIBGCM_GHASH: LIBGCM_AES=ct
#              and the CPU mask take effect and, with the provider, the
#              statistics file is written; a symlink as the statistics path
#              is not followed.
#   setuid     the helper copied, chown nobody, chmod u+s, every variable:
#              AT_SECURE must be set, the report must equal the baseline's,
#              and no statistics file may appear (its directory is world-
#              writable, so the old code could have written it).
# Exit 77 (ctest SKIP_RETURN_CODE) only when the test cannot run: not root,
# WORKDIR mounted nosuid, or no_new_privs set on this process (the kernel
# then ignores the setuid bit). Any other problem fails.
set -eu
helper="$1"
work="$2"
module="${3:-}"

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || skip "not root: cannot chown the helper to nobody and set its setuid bit"
if grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status 2>/dev/null; then
  skip "no_new_privs is set on this process: the kernel ignores setuid bits"
fi
nobody=$(id -u nobody 2>/dev/null) || fail "no user called nobody"

rm -rf "$work"
mkdir -p "$work"
rc=0
"$helper" nosuid "$work" || rc=$?
case $rc in
  0) ;;
  3) skip "$work is on a file system mounted nosuid" ;;
  *) fail "cannot tell whether $work is mounted nosuid" ;;
esac

# Everything the setuid process (effective uid nobody) needs: the helper,
# the module, a world-writable directory for the statistics files.
chmod 0755 "$work"
mkdir "$work/out"
chmod 1777 "$work/out"
cp "$helper" "$work/helper"
chmod 0755 "$work/helper"
modarg=""
if [ -n "$module" ]; then
  mkdir "$work/mod"
  cp "$module" "$work/mod/libgcm.so"
  chmod 0755 "$work/mod" "$work/mod/libgcm.so"
  modarg="$work/mod"
fi

# report OUTFILE PROGRAM [VAR=VALUE...]: the helper's report, clean
# environment plus the variables given.
report() {
  out="$1"; prog="$2"; shift 2
  # shellcheck disable=SC2086
  env -i PATH=/usr/bin:/bin "$@" "$prog" report $modarg >"$out" 2>&1 ||
    { cat "$out" >&2; fail "$prog report exited with an error"; }
}
line() { grep "^$1=" "$2" || true; }
# The report without the privileged= line, which is meant to differ.
choices() { grep -v '^privileged=' "$1"; }

mask="OPENSSL_ia32cap=0:0 LIBGCM_ARMCAP=0"

report "$work/baseline" "$work/helper"
echo "-- baseline (unprivileged, no variables)"; cat "$work/baseline"
base_backends=$(line backends "$work/baseline")
case "$base_backends" in
  backends=error*) fail "the defaults do not work: $base_backends" ;;
esac

# shellcheck disable=SC2086
report "$work/control-a" "$work/helper" LIBGCM_GHASH=4bit LIBGCM_AES=ct $mask \
  LIBGCM_PROVIDER_STATS="$work/out/control-a.stats"
echo "-- control A (unprivileged, LIBGCM_GHASH=4bit LIBGCM_AES=ct $mask)"; cat "$work/control-a"
a_backends=$(line backends "$work/control-a")
case "$a_backends" in
  backends=ct/4bit) ;;
  "backends=error: "*LIBGCM_GHASH*4bit*LIBGCM_ALLOW_VARIABLE_TIME_ENV*) ;;
  *) fail "LIBGCM_GHASH=4bit had no visible effect unprivileged: $a_backends" ;;
esac

# shellcheck disable=SC2086
report "$work/control-b" "$work/helper" LIBGCM_AES=ct $mask \
  LIBGCM_PROVIDER_STATS="$work/out/control-b.stats"
echo "-- control B (unprivileged, LIBGCM_AES=ct $mask)"; cat "$work/control-b"
case "$(line backends "$work/control-b")" in
  backends=ct/*) ;;
  *) fail "LIBGCM_AES=ct had no effect unprivileged" ;;
esac
if [ "$(line usable "$work/control-b")" = "$(line usable "$work/baseline")" ]; then
  echo "note: the CPU mask hides nothing on this machine (no optional CPU features)"
fi
if [ -n "$module" ]; then
  case "$(line provider "$work/control-b")" in
    "provider=loaded backends=ct/"*" seal=ok") ;;
    *) fail "the provider did not load or not follow LIBGCM_AES unprivileged" ;;
  esac
  grep -q '^libgcm provider: ' "$work/out/control-b.stats" 2>/dev/null ||
    fail "LIBGCM_PROVIDER_STATS wrote no statistics unprivileged"
  perm=$(stat -c %a "$work/out/control-b.stats")
  [ "$perm" = 600 ] || fail "statistics file created with mode $perm, not 600"
  echo "statistics file (mode $perm): $(cat "$work/out/control-b.stats")"
  # A symlink as the last component is not followed (O_NOFOLLOW).
  ln -s "$work/out/target" "$work/out/link.stats"
  report "$work/control-link" "$work/helper" LIBGCM_PROVIDER_STATS="$work/out/link.stats"
  [ ! -e "$work/out/target" ] || fail "the statistics were written through a symlink"
  echo "statistics path that is a symlink: not followed"
fi

# The setuid run. The setuid copy is removed however the script ends: no
# setuid file is left in the build tree.
trap 'rm -f "$work/suid-helper"' EXIT
cp "$work/helper" "$work/suid-helper"
chown "$nobody" "$work/suid-helper"
chmod 4755 "$work/suid-helper"
# shellcheck disable=SC2086
report "$work/setuid" "$work/suid-helper" LIBGCM_GHASH=4bit LIBGCM_AES=ct $mask \
  LIBGCM_FUSED=c LIBGCM_PROVIDER_STATS="$work/out/setuid.stats"
echo "-- setuid nobody (LIBGCM_GHASH=4bit LIBGCM_AES=ct LIBGCM_FUSED=c $mask LIBGCM_PROVIDER_STATS)"
cat "$work/setuid"
[ "$(line privileged "$work/setuid")" != "privileged=0" ] ||
  fail "the setuid helper did not run privileged (AT_SECURE is 0)"
choices "$work/baseline" >"$work/baseline.choices"
choices "$work/setuid" >"$work/setuid.choices"
if ! cmp -s "$work/baseline.choices" "$work/setuid.choices"; then
  diff "$work/baseline.choices" "$work/setuid.choices" >&2 || true
  fail "the setuid process followed its environment (see the diff above)"
fi
[ ! -e "$work/out/setuid.stats" ] ||
  fail "the setuid process wrote LIBGCM_PROVIDER_STATS: $(cat "$work/out/setuid.stats")"
echo "PASS: the setuid process chose the defaults and wrote no statistics file"
