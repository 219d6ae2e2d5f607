/*
 * provider/libgcm_provider.c: the entry point of libgcm's OpenSSL 3
 * provider module (libgcm.so).
 *
 * OpenSSL loads the module and calls OSSL_provider_init, the only symbol it
 * exports. That checks that libgcm's dispatcher can pick its backends here
 * (LIBGCM_AES / LIBGCM_GHASH / OPENSSL_ia32cap are honoured exactly as in
 * any libgcm program; a bad name makes the provider fail to load with the
 * reason, instead of some other implementation silently standing in), then
 * offers five ciphers, AES-128/192/256-GCM under OpenSSL's own names and
 * aliases and AES-128/256-GCM-SIV under OpenSSL 3.2's names, with the
 * property `provider=libgcm`.
 *
 * Provider-level parameters (OSSL_PROVIDER_get_params) include counters of
 * the seal and open operations the module has run, and the backends a new
 * key would get; with LIBGCM_PROVIDER_STATS set in the environment the
 * counters are also printed when the module is unloaded or the process
 * exits ("stderr" or "1" for standard error, anything else is a file name
 * to append to). Tests use
 * both to prove that libgcm, not OpenSSL's default provider, did the work.
 *
 * The statistics file stays in the shipped module, because the tests that
 * run unmodified OpenSSL programs (openssl_programs_test.sh: s_server,
 * s_client, curl, enc) have no other way to see inside them, and because a
 * user checking an installed openssl.cnf needs the same proof. It is made
 * safe instead of removed: like every variable it is read through
 * gcmi_getenv (crypto/env.c), so a setuid, setgid or file-capability
 * program ignores it; and the file is opened without following a symlink
 * and never created world-readable (print_stats).
 */
/* open's O_NOFOLLOW and O_CLOEXEC, fdopen: POSIX.1-2008, which strict C11
 * mode does not declare by itself. */
#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#undef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include <gcm/gcm.h>

#include "../crypto/env.h"
#include "provider.h"

#if defined(__GNUC__)
#define LIBGCM_PROVIDER_EXPORT __attribute__((visibility("default")))
#else
#define LIBGCM_PROVIDER_EXPORT
#endif

/* ---- the core's error functions ----------------------------------------- */

static OSSL_FUNC_core_new_error_fn *core_new_error;
static OSSL_FUNC_core_set_error_debug_fn *core_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *core_vset_error;

void libgcm_prov_error(const struct libgcm_provctx *pc, int reason,
                       const char *file, int line, const char *func,
                       const char *fmt, ...) {
  if (pc == NULL || core_new_error == NULL || core_set_error_debug == NULL ||
      core_vset_error == NULL) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  core_new_error(pc->handle);
  core_set_error_debug(pc->handle, file, line, func);
  core_vset_error(pc->handle, (uint32_t)reason, fmt, ap);
  va_end(ap);
}

static const OSSL_ITEM reason_strings[] = {
    {LIBGCM_R_KEY_SETUP_FAILED, "libgcm key setup failed"},
    {LIBGCM_R_BAD_KEY_LENGTH, "wrong key length for this cipher"},
    {LIBGCM_R_BAD_IV_LENGTH, "bad IV length"},
    {LIBGCM_R_NO_KEY, "no key set"},
    {LIBGCM_R_NO_IV, "no IV set (or the IV was already used)"},
    {LIBGCM_R_BAD_TAG, "bad tag or tag length"},
    {LIBGCM_R_BAD_STATE, "call out of order"},
    {LIBGCM_R_OUTPUT_TOO_SMALL, "output buffer too small"},
    {LIBGCM_R_BAD_TLS_PARAM, "bad TLS record-layer parameter"},
    {LIBGCM_R_OPERATION_FAILED, "libgcm operation failed"},
    {LIBGCM_R_OUT_OF_MEMORY, "out of memory"},
    {LIBGCM_R_BAD_PARAMETER, "bad parameter"},
    {LIBGCM_R_RANDOM_FAILED, "cannot get random bytes for the TLS nonce"},
    {0, NULL},
};

/* ---- counters ------------------------------------------------------------ */

static _Atomic uint64_t counters[LIBGCM_COUNT_N];

void libgcm_count(enum libgcm_counter which) {
  atomic_fetch_add_explicit(&counters[which], 1, memory_order_relaxed);
}

uint64_t libgcm_counter_value(enum libgcm_counter which) {
  return atomic_load_explicit(&counters[which], memory_order_relaxed);
}

int libgcm_count_seal(const struct libgcm_provctx *pc, int ok) {
  if (ok) {
    libgcm_count(LIBGCM_COUNT_SEAL);
  } else {
    LIBGCM_ERR(pc, LIBGCM_R_OPERATION_FAILED, "%s", gcm_last_error_message());
  }
  return ok;
}

int libgcm_count_open(const struct libgcm_provctx *pc, int ok) {
  if (ok) {
    libgcm_count(LIBGCM_COUNT_OPEN);
  } else if (gcm_last_error() == GCM_ERR_AUTH) {
    libgcm_count(LIBGCM_COUNT_OPEN_FAIL);
  } else {
    LIBGCM_ERR(pc, LIBGCM_R_OPERATION_FAILED, "%s", gcm_last_error_message());
  }
  return ok;
}

/* Opens the statistics file for appending, or returns NULL.
 *   O_NOFOLLOW  a symlink as the last component fails (ELOOP) instead of
 *               being followed, so a link planted at a predictable path
 *               (/tmp/stats -> ~/.bashrc) cannot redirect the write. It
 *               covers the last component only: the directories above are
 *               the user's choice, as with any path they pass.
 *   O_CREAT with 0600  a file that does not exist is created readable by
 *               its owner alone (the umask can only narrow that).
 *   O_CLOEXEC   the descriptor does not leak into a program the process
 *               runs (the destructor may run while other threads fork).
 *   O_NONBLOCK  a FIFO without a reader fails (ENXIO) instead of blocking
 *               the process's exit; it changes nothing for a plain file.
 * Anything but a regular file (a device, a FIFO with a reader, a socket)
 * is refused after the open: the counters are one line for a log. */
static FILE *open_stats_file(const char *path) {
  int fd = open(path,
                O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK,
                0600);
  if (fd < 0) return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return NULL;
  }
  FILE *f = fdopen(fd, "a");
  if (f == NULL) close(fd);
  return f;
}

/* Prints the counters where LIBGCM_PROVIDER_STATS says, if it is set and
 * the provider was initialised in this process. Runs when the module is
 * unloaded or the process exits: not every program tears its providers
 * down (the openssl command does not for -provider), and one line per
 * process is what a reader wants anyway. In a privileged process
 * gcmi_getenv returns NULL and nothing is written. */
static _Atomic int provider_was_initialised;

#if defined(__GNUC__)
__attribute__((destructor))
#endif
static void print_stats(void) {
  if (!atomic_load(&provider_was_initialised)) return;
  const char *where = gcmi_getenv("LIBGCM_PROVIDER_STATS");
  if (where == NULL || where[0] == '\0') return;
  FILE *f = stderr;
  int close_it = 0;
  if (strcmp(where, "stderr") != 0 && strcmp(where, "1") != 0) {
    f = open_stats_file(where);
    if (f == NULL) return;
    close_it = 1;
  }
  const char *aes = "unavailable", *ghash = "unavailable";
  (void)gcm_default_backends(&aes, &ghash);
  fprintf(f,
          "libgcm provider: pid=%ld backends=%s/%s seal=%llu open=%llu "
          "open-fail=%llu\n",
          (long)getpid(), aes, ghash,
          (unsigned long long)libgcm_counter_value(LIBGCM_COUNT_SEAL),
          (unsigned long long)libgcm_counter_value(LIBGCM_COUNT_OPEN),
          (unsigned long long)libgcm_counter_value(LIBGCM_COUNT_OPEN_FAIL));
  if (close_it) {
    fclose(f);
  } else {
    fflush(f);
  }
}

/* ---- provider functions -------------------------------------------------- */

#define LIBGCM_PARAM_SEAL_COUNT "libgcm-seal-count"
#define LIBGCM_PARAM_OPEN_COUNT "libgcm-open-count"
#define LIBGCM_PARAM_OPEN_FAIL_COUNT "libgcm-open-fail-count"
#define LIBGCM_PARAM_AES_BACKEND "libgcm-aes-backend"
#define LIBGCM_PARAM_GHASH_BACKEND "libgcm-ghash-backend"

static const OSSL_PARAM provider_gettable[] = {
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
    OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
    OSSL_PARAM_uint64(LIBGCM_PARAM_SEAL_COUNT, NULL),
    OSSL_PARAM_uint64(LIBGCM_PARAM_OPEN_COUNT, NULL),
    OSSL_PARAM_uint64(LIBGCM_PARAM_OPEN_FAIL_COUNT, NULL),
    OSSL_PARAM_utf8_ptr(LIBGCM_PARAM_AES_BACKEND, NULL, 0),
    OSSL_PARAM_utf8_ptr(LIBGCM_PARAM_GHASH_BACKEND, NULL, 0),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *provider_gettable_params(void *provctx) {
  (void)provctx;
  return provider_gettable;
}

static int provider_get_params(void *provctx, OSSL_PARAM params[]) {
  (void)provctx;
  OSSL_PARAM *p;
  p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME);
  if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, "libgcm AES-GCM provider"))
    return 0;
  p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION);
  if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, gcm_version())) return 0;
  p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO);
  if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, gcm_version())) return 0;
  p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
  if (p != NULL && !OSSL_PARAM_set_int(p, 1)) return 0;
  p = OSSL_PARAM_locate(params, LIBGCM_PARAM_SEAL_COUNT);
  if (p != NULL &&
      !OSSL_PARAM_set_uint64(p, libgcm_counter_value(LIBGCM_COUNT_SEAL)))
    return 0;
  p = OSSL_PARAM_locate(params, LIBGCM_PARAM_OPEN_COUNT);
  if (p != NULL &&
      !OSSL_PARAM_set_uint64(p, libgcm_counter_value(LIBGCM_COUNT_OPEN)))
    return 0;
  p = OSSL_PARAM_locate(params, LIBGCM_PARAM_OPEN_FAIL_COUNT);
  if (p != NULL &&
      !OSSL_PARAM_set_uint64(p, libgcm_counter_value(LIBGCM_COUNT_OPEN_FAIL)))
    return 0;
  const char *aes = NULL, *ghash = NULL;
  if (!gcm_default_backends(&aes, &ghash)) aes = ghash = "unavailable";
  p = OSSL_PARAM_locate(params, LIBGCM_PARAM_AES_BACKEND);
  if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, aes)) return 0;
  p = OSSL_PARAM_locate(params, LIBGCM_PARAM_GHASH_BACKEND);
  if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, ghash)) return 0;
  return 1;
}

/* OpenSSL's names for the three ciphers: the canonical name, the alias
 * from the ASN.1 module and the object identifier. */
static const OSSL_ALGORITHM ciphers[] = {
    {"AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6",
     "provider=" LIBGCM_PROVIDER_NAME, libgcm_aes128gcm_functions,
     "AES-128-GCM by libgcm (constant-time, per-key backend dispatch)"},
    {"AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26",
     "provider=" LIBGCM_PROVIDER_NAME, libgcm_aes192gcm_functions,
     "AES-192-GCM by libgcm (constant-time, per-key backend dispatch)"},
    {"AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46",
     "provider=" LIBGCM_PROVIDER_NAME, libgcm_aes256gcm_functions,
     "AES-256-GCM by libgcm (constant-time, per-key backend dispatch)"},
    /* OpenSSL 3.2's names for RFC 8452 (there is no OID). */
    {"AES-128-GCM-SIV", "provider=" LIBGCM_PROVIDER_NAME,
     libgcm_aes128gcmsiv_functions,
     "AES-128-GCM-SIV (RFC 8452) by libgcm (constant-time)"},
    {"AES-256-GCM-SIV", "provider=" LIBGCM_PROVIDER_NAME,
     libgcm_aes256gcmsiv_functions,
     "AES-256-GCM-SIV (RFC 8452) by libgcm (constant-time)"},
    {NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM *provider_query(void *provctx, int operation_id,
                                            int *no_cache) {
  (void)provctx;
  *no_cache = 0;
  if (operation_id == OSSL_OP_CIPHER) return ciphers;
  return NULL;
}

static const OSSL_ITEM *provider_reason_strings(void *provctx) {
  (void)provctx;
  return reason_strings;
}

static void provider_teardown(void *provctx) { free(provctx); }

static const OSSL_DISPATCH provider_functions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))provider_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS,
     (void (*)(void))provider_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))provider_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))provider_query},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS,
     (void (*)(void))provider_reason_strings},
    {0, NULL},
};

LIBGCM_PROVIDER_EXPORT int OSSL_provider_init(const OSSL_CORE_HANDLE *handle,
                                              const OSSL_DISPATCH *in,
                                              const OSSL_DISPATCH **out,
                                              void **provctx);

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx) {
  for (; in->function_id != 0; in++) {
    switch (in->function_id) {
      case OSSL_FUNC_CORE_NEW_ERROR:
        core_new_error = OSSL_FUNC_core_new_error(in);
        break;
      case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
        core_set_error_debug = OSSL_FUNC_core_set_error_debug(in);
        break;
      case OSSL_FUNC_CORE_VSET_ERROR:
        core_vset_error = OSSL_FUNC_core_vset_error(in);
        break;
      default:
        break;
    }
  }
  struct libgcm_provctx *pc = calloc(1, sizeof(*pc));
  if (pc == NULL) return 0;
  pc->handle = handle;
  /* A backend named in the environment that libgcm does not have, or that
   * this CPU cannot run, stops the provider here with the reason rather
   * than at the first key. */
  const char *aes = NULL, *ghash = NULL;
  if (!gcm_default_backends(&aes, &ghash)) {
    LIBGCM_ERR(pc, LIBGCM_R_KEY_SETUP_FAILED,
               "libgcm provider not loaded: %s", gcm_last_error_message());
    free(pc);
    return 0;
  }
  *out = provider_functions;
  *provctx = pc;
  atomic_store(&provider_was_initialised, 1);
  return 1;
}
