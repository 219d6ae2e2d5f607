/*
 * provider/provider.h: what the parts of libgcm's OpenSSL 3 provider share.
 *
 * The provider is three files: libgcm_provider.c (the module's entry
 * point, provider-level parameters, the operation counters and error
 * reporting), gcm_cipher.c (the AES-GCM cipher contexts: EVP parameters
 * in, native <gcm/gcm.h> calls out) and gcm_siv_cipher.c (the same for
 * AES-GCM-SIV). Nothing here is exported from the module; only
 * OSSL_provider_init is.
 */
#ifndef LIBGCM_PROVIDER_H
#define LIBGCM_PROVIDER_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

/* The provider's name, as OpenSSL configuration and property queries see it
 * (`provider=libgcm`). */
#define LIBGCM_PROVIDER_NAME "libgcm"

/* The provider context handed to every algorithm: the core's handle, for
 * error reporting. */
struct libgcm_provctx {
  const OSSL_CORE_HANDLE *handle;
};

/* Reason codes this provider raises (its reason strings are listed in
 * libgcm_provider.c). */
enum libgcm_provider_reason {
  LIBGCM_R_KEY_SETUP_FAILED = 1, /* gcm_key_init refused: names the reason */
  LIBGCM_R_BAD_KEY_LENGTH,
  LIBGCM_R_BAD_IV_LENGTH,
  LIBGCM_R_NO_KEY,
  LIBGCM_R_NO_IV,
  LIBGCM_R_BAD_TAG,             /* tag length or set/get in the wrong direction */
  LIBGCM_R_BAD_STATE,           /* call out of order (e.g. AAD after data) */
  LIBGCM_R_OUTPUT_TOO_SMALL,
  LIBGCM_R_BAD_TLS_PARAM,       /* tlsaad / tlsivfixed / tlsivgen / tlsivinv */
  LIBGCM_R_OPERATION_FAILED,    /* a native call failed: names the reason */
  LIBGCM_R_OUT_OF_MEMORY,
  LIBGCM_R_BAD_PARAMETER,
  LIBGCM_R_RANDOM_FAILED,
};

/* Raises an OpenSSL error with this provider as its library, `reason`, and
 * a printf-style detail message (may be NULL). */
void libgcm_prov_error(const struct libgcm_provctx *pc, int reason,
                       const char *file, int line, const char *func,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
#define LIBGCM_ERR(pc, reason, ...) \
  libgcm_prov_error((pc), (reason), __FILE__, __LINE__, __func__, __VA_ARGS__)

/* Operation counters for the whole module (all provider instances), so
 * tests and users can prove that libgcm did the work. */
enum libgcm_counter {
  LIBGCM_COUNT_SEAL = 0,   /* messages sealed (streaming final or TLS record) */
  LIBGCM_COUNT_OPEN,       /* messages whose tag was checked and was right */
  LIBGCM_COUNT_OPEN_FAIL,  /* messages whose tag was wrong */
  LIBGCM_COUNT_N
};
void libgcm_count(enum libgcm_counter which);
uint64_t libgcm_counter_value(enum libgcm_counter which);

/* The cipher algorithms: AES-GCM (gcm_cipher.c) and AES-GCM-SIV
 * (gcm_siv_cipher.c). */
extern const OSSL_DISPATCH libgcm_aes128gcm_functions[];
extern const OSSL_DISPATCH libgcm_aes192gcm_functions[];
extern const OSSL_DISPATCH libgcm_aes256gcm_functions[];
extern const OSSL_DISPATCH libgcm_aes128gcmsiv_functions[];
extern const OSSL_DISPATCH libgcm_aes256gcmsiv_functions[];

/* What both ciphers' algorithms report (OSSL_FUNC_cipher_get_params and
 * its gettable list, gcm_cipher.c): an AEAD with a custom IV, a stream
 * cipher's block size of 1, the given mode, key and IV lengths. */
int libgcm_aead_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen,
                           size_t ivlen);
const OSSL_PARAM *libgcm_aead_gettable_params(void *provctx);

/* The context parameters both ciphers add: the names of the key's AES and
 * GHASH backends (read only). */
#define PARAM_AES_BACKEND "libgcm-aes-backend"
#define PARAM_GHASH_BACKEND "libgcm-ghash-backend"

/* Zeroes n bytes at p through a volatile pointer (the stores stay). */
static inline void libgcm_wipe(void *p, size_t n) {
  volatile uint8_t *v = p;
  while (n--) *v++ = 0;
}

/* The dispatch table `name` of a cipher file that defines ctx_free,
 * ctx_dup, ctx_einit, ctx_dinit, ctx_update, ctx_final, ctx_cipher,
 * ctx_get_params, ctx_set_params, ctx_gettable_params and
 * ctx_settable_params (gcm_cipher.c, gcm_siv_cipher.c), with the key
 * size's newctx and get_params. */
#define LIBGCM_AEAD_DISPATCH(name, newctx, get_params)                       \
  const OSSL_DISPATCH name[] = {                                             \
      {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))newctx},                     \
      {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))ctx_free},                  \
      {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))ctx_dup},                    \
      {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))ctx_einit},            \
      {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))ctx_dinit},            \
      {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))ctx_update},                 \
      {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))ctx_final},                   \
      {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))ctx_cipher},                 \
      {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))get_params},             \
      {OSSL_FUNC_CIPHER_GETTABLE_PARAMS,                                     \
       (void (*)(void))libgcm_aead_gettable_params},                         \
      {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))ctx_get_params},     \
      {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))ctx_set_params},     \
      {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS,                                 \
       (void (*)(void))ctx_gettable_params},                                 \
      {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS,                                 \
       (void (*)(void))ctx_settable_params},                                 \
      {0, NULL},                                                             \
  }

#endif /* LIBGCM_PROVIDER_H */
