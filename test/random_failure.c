/*
 * test/random_failure.c: the randnonce AEADs when the OS random source
 * misbehaves.
 *
 * This program defines getrandom() itself, which takes the place of the C
 * library's for the statically linked libgcm, and makes it behave in turn:
 *
 *   1. fail with EIO: every seal form fails with GCM_ERR_RANDOM, a message
 *      naming getrandom, length 0 and all outputs zeroed;
 *   2. be interrupted once (EINTR) and then return at most 5 bytes a call:
 *      the seal still succeeds, after enough calls to fill 12 bytes;
 *   3. be missing (ENOSYS, an old kernel): libgcm reads /dev/urandom
 *      instead, the seal succeeds and opens, and two seals differ.
 *
 * On Windows this program defines BCryptGenRandom itself, which takes the
 * place of bcrypt's import library stub for the statically linked libgcm
 * (MinGW's <bcrypt.h> does not declare it dllimport, so libgcm calls the
 * stub by name; were it to call through __imp_BCryptGenRandom instead, the
 * call counts below would fail the program, not let it pass). The
 * replacement
 *   1. fails (STATUS_UNSUCCESSFUL): the same checks as step 1, the message
 *      naming BCryptGenRandom;
 *   2. passes the call on to the real BCryptGenRandom (bcrypt.dll, found
 *      with GetProcAddress): the seal succeeds and opens, one call per
 *      seal, and two seals' nonces differ;
 * and then fails again.
 *
 * Each step also checks that the replacement was really called, so the
 * program cannot pass without exercising libgcm's random source. Built
 * where libgcm uses getrandom (LIBGCM_HAVE_GETRANDOM) or BCryptGenRandom
 * (Windows); elsewhere it reports a skip (exit code 77). Exits 0 when every
 * check passes.
 */
#define _GNU_SOURCE
#include <openssl/aead.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#if defined(LIBGCM_HAVE_GETRANDOM) || defined(_WIN32)
#define HAVE_REPLACEMENT 1
#endif

#if defined(_WIN32)
#include <windows.h>
#include <bcrypt.h>

#include "c_checks.h"

#define SOURCE "BCryptGenRandom"

enum behaviour { FAIL_EIO, PASS_ON };

static enum behaviour behaviour;
static int calls; /* calls to the replacement since the last reset */

typedef NTSTATUS(WINAPI *gen_random_fn)(BCRYPT_ALG_HANDLE, PUCHAR, ULONG, ULONG);

NTSTATUS WINAPI BCryptGenRandom(BCRYPT_ALG_HANDLE alg, PUCHAR buf, ULONG len,
                                ULONG flags) {
  static gen_random_fn real;
  calls++;
  if (behaviour == FAIL_EIO) return (NTSTATUS)0xC0000001L; /* STATUS_UNSUCCESSFUL */
  if (real == NULL) {
    /* bcrypt.dll's own export, not this program's definition. */
    HMODULE bcrypt = LoadLibraryA("bcrypt.dll");
    if (bcrypt == NULL) return (NTSTATUS)0xC0000135L; /* STATUS_DLL_NOT_FOUND */
    real = (gen_random_fn)(uintptr_t)GetProcAddress(bcrypt, "BCryptGenRandom");
    if (real == NULL) return (NTSTATUS)0xC0000139L; /* STATUS_ENTRYPOINT_NOT_FOUND */
  }
  return real(alg, buf, len, flags);
}

#elif defined(LIBGCM_HAVE_GETRANDOM)
#include <sys/syscall.h>
#include <unistd.h>

#include "c_checks.h"

#define SOURCE "getrandom"

enum behaviour { FAIL_EIO, INTERRUPTED_THEN_SHORT, MISSING };

static enum behaviour behaviour;
static int calls;       /* calls to getrandom since the last reset */
static int interrupted; /* INTERRUPTED_THEN_SHORT: EINTR already given */

ssize_t getrandom(void *buf, size_t len, unsigned int flags) {
  calls++;
  switch (behaviour) {
    case FAIL_EIO:
      errno = EIO;
      return -1;
    case MISSING:
      errno = ENOSYS;
      return -1;
    case INTERRUPTED_THEN_SHORT:
      if (!interrupted) {
        interrupted = 1;
        errno = EINTR;
        return -1;
      }
      /* Real random bytes, straight from the system call. */
      return (ssize_t)syscall(SYS_getrandom, buf, len < 5 ? len : 5, flags);
  }
  errno = EINVAL;
  return -1;
}

#endif /* the replacement */

#if defined(HAVE_REPLACEMENT)

static const uint8_t kKey[32] = {0x42, 0x13};
static const uint8_t kMsg[40] = {'r', 'a', 'n', 'd', 'o', 'm'};

static void source_fails(const EVP_AEAD_CTX *ctx) {
  uint8_t out[sizeof(kMsg) + EVP_AEAD_MAX_OVERHEAD];
  size_t out_len = 99;
  behaviour = FAIL_EIO;
  calls = 0;
  memset(out, 0xcc, sizeof(out));
  check(!EVP_AEAD_CTX_seal(ctx, out, &out_len, sizeof(out), NULL, 0, kMsg,
                           sizeof(kMsg), NULL, 0),
        "seal fails when " SOURCE " fails");
  check(calls > 0, "seal asked " SOURCE);
  check(gcm_last_error() == GCM_ERR_RANDOM, "the reason is GCM_ERR_RANDOM");
  check(strstr(gcm_last_error_message(), SOURCE) != NULL,
        "the message names " SOURCE);
  check(out_len == 0, "failed seal reports length 0");
  check(all_zero(out, sizeof(out)), "failed seal zeroes all of out");

  uint8_t ct[sizeof(kMsg)], tag[8 + EVP_AEAD_MAX_OVERHEAD];
  size_t tag_len = 99;
  memset(ct, 0xcc, sizeof(ct));
  memset(tag, 0xcc, sizeof(tag));
  check(!EVP_AEAD_CTX_seal_scatter(ctx, ct, tag, &tag_len, sizeof(tag), NULL,
                                   0, kMsg, 32, kMsg + 32, 8, NULL, 0),
        "seal_scatter fails when " SOURCE " fails");
  check(gcm_last_error() == GCM_ERR_RANDOM, "seal_scatter: GCM_ERR_RANDOM");
  check(tag_len == 0 && all_zero(ct, 32) && all_zero(tag, sizeof(tag)),
        "failed seal_scatter zeroes out and out_tag");

  CRYPTO_IOVEC piece = {ct, kMsg, sizeof(kMsg)};
  memset(ct, 0xcc, sizeof(ct));
  memset(tag, 0xcc, sizeof(tag));
  tag_len = 99;
  check(!EVP_AEAD_CTX_sealv(ctx, &piece, 1, tag, &tag_len, sizeof(tag), NULL,
                            0, NULL, 0),
        "sealv fails when " SOURCE " fails");
  check(gcm_last_error() == GCM_ERR_RANDOM, "sealv: GCM_ERR_RANDOM");
  check(tag_len == 0 && all_zero(ct, sizeof(ct)) && all_zero(tag, sizeof(tag)),
        "failed sealv zeroes every output");
}

/* Seals kMsg, checks it opens again, and returns the appended nonce. */
static int seal_and_open(const EVP_AEAD_CTX *ctx, uint8_t nonce[12]) {
  uint8_t out[sizeof(kMsg) + EVP_AEAD_MAX_OVERHEAD], back[sizeof(out)];
  size_t out_len = 0, back_len = 0;
  if (!EVP_AEAD_CTX_seal(ctx, out, &out_len, sizeof(out), NULL, 0, kMsg,
                         sizeof(kMsg), NULL, 0)) {
    fprintf(stderr, "seal: %s\n", gcm_last_error_message());
    return 0;
  }
  if (out_len != sizeof(kMsg) + 28) return 0;
  memcpy(nonce, out + out_len - 12, 12);
  return EVP_AEAD_CTX_open(ctx, back, &back_len, sizeof(back), NULL, 0, out,
                           out_len, NULL, 0) &&
         back_len == sizeof(kMsg) && memcmp(back, kMsg, sizeof(kMsg)) == 0;
}

#if defined(_WIN32)

static void source_passes_on(const EVP_AEAD_CTX *ctx) {
  uint8_t a[12], b[12];
  behaviour = PASS_ON;
  calls = 0;
  check(seal_and_open(ctx, a) && seal_and_open(ctx, b),
        "seal succeeds with the real BCryptGenRandom behind the replacement");
  check(calls == 2, "BCryptGenRandom was called once per seal");
  check(memcmp(a, b, sizeof(a)) != 0, "BCryptGenRandom nonces differ");
}

#else

static void source_interrupted_and_short(const EVP_AEAD_CTX *ctx) {
  uint8_t nonce[12];
  behaviour = INTERRUPTED_THEN_SHORT;
  interrupted = 0;
  calls = 0;
  check(seal_and_open(ctx, nonce), "seal survives EINTR and short reads");
  /* One EINTR, then 5 + 5 + 2 bytes. */
  check(calls == 4, "EINTR retried and short reads continued (4 calls)");
}

static void source_missing(const EVP_AEAD_CTX *ctx) {
  uint8_t a[12], b[12];
  behaviour = MISSING;
  calls = 0;
  check(seal_and_open(ctx, a) && seal_and_open(ctx, b),
        "seal falls back to /dev/urandom when getrandom is missing");
  check(calls == 2, "getrandom was tried once per seal");
  check(memcmp(a, b, sizeof(a)) != 0, "/dev/urandom nonces differ");
}

#endif /* _WIN32 */

int main(void) {
  EVP_AEAD_CTX ctx;
  EVP_AEAD_CTX_zero(&ctx);
  if (!EVP_AEAD_CTX_init(&ctx, EVP_aead_aes_256_gcm_randnonce(), kKey,
                         sizeof(kKey), EVP_AEAD_DEFAULT_TAG_LENGTH, NULL)) {
    fprintf(stderr, "FAIL: EVP_AEAD_CTX_init: %s\n", gcm_last_error_message());
    return 1;
  }
  source_fails(&ctx);
#if defined(_WIN32)
  source_passes_on(&ctx);
#else
  source_interrupted_and_short(&ctx);
  source_missing(&ctx);
#endif
  source_fails(&ctx); /* and failing again after having worked */
  EVP_AEAD_CTX_cleanup(&ctx);
  return checks_result("random_failure");
}

#else /* !HAVE_REPLACEMENT */

int main(void) {
  printf("random_failure: libgcm uses neither getrandom nor BCryptGenRandom "
         "here; skipped\n");
  return 77;
}

#endif
