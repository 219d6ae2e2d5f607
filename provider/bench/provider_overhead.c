/*
 * provider/bench/provider_overhead.c: what going through OpenSSL's EVP
 * layer and libgcm's provider costs per message, next to calling libgcm's
 * native API directly and next to OpenSSL's default provider.
 *
 *   provider_overhead MODULE_DIR [SECONDS_PER_LINE [libgcm|default]]
 *
 * For 16- and 1350-byte messages (13 bytes of AAD, a 12-byte nonce, a full
 * tag) it times, on one AES-128 key:
 *   native   gcm_seal
 *   stream   gcm_stream_init + aad + update + finish_seal (what the
 *            provider calls for an EVP message)
 *   libgcm   EVP_EncryptInit_ex2(new IV) + AAD + update + final + get tag,
 *            ciphers fetched with provider=libgcm
 *   default  the same EVP sequence on OpenSSL's default provider
 * and prints nanoseconds per message and the provider's overhead over the
 * native one-shot call (the best of three alternated rounds each). With a
 * third argument it only loops on that provider's EVP path, for profiling
 * (perf record). A measurement, not a test: built on request
 * (`cmake --build build --target provider_overhead`), never run by ctest.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

#include <gcm/gcm.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned char key[16], nonce[12], aad[13], buf[2048], tag[16];

static int evp_seal(EVP_CIPHER_CTX *ctx, size_t len) {
  int outl;
  nonce[11]++;
  return EVP_EncryptInit_ex2(ctx, NULL, NULL, nonce, NULL) &&
         EVP_EncryptUpdate(ctx, NULL, &outl, aad, sizeof(aad)) &&
         EVP_EncryptUpdate(ctx, buf, &outl, buf, (int)len) &&
         EVP_EncryptFinal_ex(ctx, buf + len, &outl) &&
         EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
}

static int native_stream_seal(const gcm_key *k, size_t len) {
  static gcm_stream s;
  nonce[11]++;
  return gcm_stream_init(&s, k, GCM_ENCRYPT, nonce, 12) &&
         gcm_stream_aad(&s, aad, sizeof(aad)) &&
         gcm_stream_update(&s, buf, buf, len) &&
         gcm_stream_finish_seal(&s, tag, 16);
}

/* Nanoseconds per message: EVP on `ctx` when non-NULL, else the native
 * API on `k`, streaming when `stream` is set. */
static double time_it(const gcm_key *k, int stream, EVP_CIPHER_CTX *ctx,
                      size_t len, double seconds) {
  long n = 0, batch = 1000;
  double t0 = now(), t;
  do {
    for (long i = 0; i < batch; i++) {
      int ok;
      if (ctx == NULL && stream) {
        ok = native_stream_seal(k, len);
      } else if (ctx == NULL) {
        nonce[11]++;
        ok = gcm_seal(k, buf, tag, 16, nonce, 12, buf, len, aad, sizeof(aad));
      } else {
        ok = evp_seal(ctx, len);
      }
      if (!ok) {
        fprintf(stderr, "seal failed\n");
        exit(1);
      }
    }
    n += batch;
    t = now() - t0;
  } while (t < seconds);
  return t * 1e9 / (double)n;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MODULE_DIR [SECONDS_PER_LINE]\n", argv[0]);
    return 2;
  }
  double seconds = argc > 2 ? atof(argv[2]) : 1.0;
  OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();
  OSSL_PROVIDER_set_default_search_path(libctx, argv[1]);
  if (OSSL_PROVIDER_load(libctx, "libgcm") == NULL ||
      OSSL_PROVIDER_load(libctx, "default") == NULL) {
    fprintf(stderr, "cannot load the providers from %s\n", argv[1]);
    return 1;
  }
  EVP_CIPHER *c_libgcm = EVP_CIPHER_fetch(libctx, "AES-128-GCM", "provider=libgcm");
  EVP_CIPHER *c_default = EVP_CIPHER_fetch(libctx, "AES-128-GCM", "provider=default");
  EVP_CIPHER_CTX *x_libgcm = EVP_CIPHER_CTX_new();
  EVP_CIPHER_CTX *x_default = EVP_CIPHER_CTX_new();
  gcm_key k;
  if (c_libgcm == NULL || c_default == NULL || !gcm_key_init(&k, key, 16) ||
      !EVP_EncryptInit_ex2(x_libgcm, c_libgcm, key, nonce, NULL) ||
      !EVP_EncryptInit_ex2(x_default, c_default, key, nonce, NULL)) {
    fprintf(stderr, "set-up failed\n");
    return 1;
  }
  printf("backends: %s/%s\n", gcm_key_aes_backend(&k), gcm_key_ghash_backend(&k));
  if (argc > 3) {
    EVP_CIPHER_CTX *x = strcmp(argv[3], "libgcm") == 0 ? x_libgcm : x_default;
    printf("%s, 16 bytes: %.1f ns\n", argv[3], time_it(NULL, 0, x, 16, seconds));
    return 0;
  }
  printf("%6s %10s %10s %10s %11s %14s\n", "bytes", "native ns", "stream ns",
         "libgcm ns", "default ns", "provider cost");
  const size_t lens[2] = {16, 1350};
  for (int i = 0; i < 2; i++) {
    size_t len = lens[i];
    double best_n = 1e30, best_s = 1e30, best_l = 1e30, best_d = 1e30;
    /* Alternate the three, keep each one's best of three rounds. */
    for (int round = 0; round < 3; round++) {
      double n = time_it(&k, 0, NULL, len, seconds / 4);
      double st = time_it(&k, 1, NULL, len, seconds / 4);
      double l = time_it(NULL, 0, x_libgcm, len, seconds / 4);
      double d = time_it(NULL, 0, x_default, len, seconds / 4);
      if (n < best_n) best_n = n;
      if (st < best_s) best_s = st;
      if (l < best_l) best_l = l;
      if (d < best_d) best_d = d;
    }
    printf("%6zu %10.1f %10.1f %10.1f %11.1f %+11.1f ns\n", len, best_n,
           best_s, best_l, best_d, best_l - best_n);
  }
  EVP_CIPHER_CTX_free(x_libgcm);
  EVP_CIPHER_CTX_free(x_default);
  EVP_CIPHER_free(c_libgcm);
  EVP_CIPHER_free(c_default);
  gcm_key_cleanup(&k);
  OSSL_LIB_CTX_free(libctx);
  return 0;
}
