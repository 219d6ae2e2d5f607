/*
 * crypto/env.c: every environment read of libgcm and of its OpenSSL
 * provider goes through gcmi_getenv, which ignores the environment of a
 * privileged process.
 *
 * Why. The variables libgcm reads (OPENSSL_ia32cap, LIBGCM_ARMCAP,
 * LIBGCM_AES, LIBGCM_GHASH, LIBGCM_FUSED, LIBGCM_PROVIDER_STATS) change
 * which code runs on secret data and, for the provider, make the process
 * write a file. In a setuid or setgid program, or one started with file
 * capabilities, the environment belongs to a less privileged user: it must
 * not choose a variable-time backend for keys it cannot see, nor a file
 * the privileged process appends to. A system-wide openssl.cnf loads the
 * provider into every OpenSSL program, privileged ones included, so the
 * library cannot assume its caller sanitised the environment.
 *
 * What counts as privileged is the kernel's answer, AT_SECURE in the
 * auxiliary vector: Linux sets it when the effective and real user or
 * group differ at exec, when the file's capabilities raised the process's
 * permitted set, and when a security module (SELinux, AppArmor) asks for
 * it. That is the test glibc's own loader uses to ignore LD_PRELOAD. The
 * algorithm, first available wins (CMake finds out at configure time,
 * CMakeLists.txt, and defines the LIBGCM_HAVE_* macros):
 *
 *   1. secure_getenv (glibc 2.17+, musl, some BSDs): getenv that returns
 *      NULL when the C library saw AT_SECURE (or its own equivalent) at
 *      start-up. The C library's own definition, so it is used as is.
 *   2. getauxval(AT_SECURE) (Linux C libraries without secure_getenv,
 *      e.g. old Android bionic): the same bit, asked directly. If the
 *      kernel did not provide AT_SECURE at all (getauxval fails with
 *      ENOENT; kernels before 2.6 only), fall through to 4.
 *   3. issetugid() (macOS, the BSDs, illumos): 1 when the process was
 *      made setuid or setgid at exec, even if it has since dropped the
 *      ids again (which 4 would miss).
 *   4. otherwise: privileged when the real and effective user, or group,
 *      differ. Catches setuid/setgid programs that have not dropped their
 *      ids; it cannot see file capabilities, which is why it comes last.
 *
 * Windows has no setuid or file capabilities: a process's environment is
 * its creator's, and elevation (UAC) starts a new process with a fresh
 * environment. There the environment is read as it is, with getenv.
 *
 * Not cached: each caller reads its variables once per process already
 * (cpu.c, dispatch/backend_env.c behind their once-guards; the provider at
 * exit), and a privileged process stays privileged for its whole life,
 * so the answer cannot change between reads that matter.
 *
 * This is the only file of the library and the provider that may call
 * getenv; the ctest entry packaging.getenv (test/packaging/check_getenv.sh)
 * fails on any other call.
 */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1 /* secure_getenv in glibc's <stdlib.h> */
#endif

#include <stdlib.h>

#include "env.h"

#if !defined(_WIN32) && !defined(LIBGCM_HAVE_SECURE_GETENV)
#include <errno.h>
#include <unistd.h>
#if defined(LIBGCM_HAVE_GETAUXVAL)
#include <sys/auxv.h>
#endif

/* Steps 2 to 4 of the algorithm above. */
static int process_is_privileged(void) {
#if defined(LIBGCM_HAVE_GETAUXVAL) && defined(AT_SECURE)
  errno = 0;
  unsigned long secure = getauxval(AT_SECURE);
  if (secure != 0) return 1;
  if (errno != ENOENT) return 0; /* the kernel said: not secure */
#endif
#if defined(LIBGCM_HAVE_ISSETUGID)
  return issetugid() != 0;
#else
  return getuid() != geteuid() || getgid() != getegid();
#endif
}
#endif

const char *gcmi_getenv(const char *name) {
#if defined(_WIN32)
  return getenv(name);
#elif defined(LIBGCM_HAVE_SECURE_GETENV)
  return secure_getenv(name);
#else
  if (process_is_privileged()) return NULL;
  return getenv(name);
#endif
}
