/*
 * provider/provider.h: what the parts of libgcm's OpenSSL 3 provider share.
 *
 * The provider is five files: libgcm_provider.c (the module's entry
 * point, provider-level parameters, the operation counters and error
 * reporting), gcm_cipher.c (the AES-GCM cipher contexts: EVP parameters
 * in, native <gcm/gcm.h> calls out), gcm_siv_cipher.c (the same for
 * AES-GCM-SIV), cipher_params.c (the parameter code the two ciphers
 * share) and shared_key.c (the expanded key both keep). Nothing here is exported from the module; only
 * OSSL_provider_init is.
 */
#ifndef LIBGCM_PROVIDER_H
#define LIBGCM_PROVIDER_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include <gcm/gcm.h>

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

/* The accounting of a native seal or open that has just returned `ok`
 * (each returns ok): a seal that succeeded counts LIBGCM_COUNT_SEAL; an
 * open that succeeded LIBGCM_COUNT_OPEN, one that failed on its tag
 * (GCM_ERR_AUTH) LIBGCM_COUNT_OPEN_FAIL; any other failure is raised as
 * LIBGCM_R_OPERATION_FAILED with libgcm's message. */
int libgcm_count_seal(const struct libgcm_provctx *pc, int ok);
int libgcm_count_open(const struct libgcm_provctx *pc, int ok);

/* The cipher algorithms: AES-GCM (gcm_cipher.c) and AES-GCM-SIV
 * (gcm_siv_cipher.c). */
extern const OSSL_DISPATCH libgcm_aes128gcm_functions[];
extern const OSSL_DISPATCH libgcm_aes192gcm_functions[];
extern const OSSL_DISPATCH libgcm_aes256gcm_functions[];
extern const OSSL_DISPATCH libgcm_aes128gcmsiv_functions[];
extern const OSSL_DISPATCH libgcm_aes256gcmsiv_functions[];

/* ---- the expanded key both ciphers keep (shared_key.c) -------------------- */

/* Which key a block holds: AES-GCM's gcm_key or AES-GCM-SIV's
 * gcm_siv_key. */
enum libgcm_key_kind { LIBGCM_KEY_GCM, LIBGCM_KEY_SIV };

/* A context's expanded key, shared with its duplicates (reference
 * counted) and kept while the same key is set again. */
struct libgcm_shared_key;

/* Makes *slot (NULL before the first key) hold `key` expanded on the
 * default backends: kept as it is when it already holds that key,
 * expanded over it when no duplicate shares it, else into a new block
 * (the old reference dropped). Returns 1, or 0 with the error raised and
 * *slot NULL. */
int libgcm_shared_key_set(const struct libgcm_provctx *pc,
                          enum libgcm_key_kind kind,
                          struct libgcm_shared_key **slot, const uint8_t *key,
                          size_t keylen);
/* Another reference (for a duplicated context); NULL stays NULL. */
struct libgcm_shared_key *libgcm_shared_key_ref(struct libgcm_shared_key *sk);
/* Drops a reference; the last one wipes and frees the block. NULL: no-op. */
void libgcm_shared_key_release(struct libgcm_shared_key *sk);
/* The key in a block of that kind. */
const gcm_key *libgcm_shared_gcm_key(const struct libgcm_shared_key *sk);
const gcm_siv_key *libgcm_shared_siv_key(const struct libgcm_shared_key *sk);

/* ---- parameters both ciphers share (cipher_params.c) ---------------------- */

/* What both ciphers' algorithms report (OSSL_FUNC_cipher_get_params and
 * its gettable list): an AEAD with a custom IV, a stream cipher's block
 * size of 1, the given mode, key and IV lengths. */
int libgcm_aead_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen,
                           size_t ivlen);
const OSSL_PARAM *libgcm_aead_gettable_params(void *provctx);

/* The context parameters both ciphers add: the names of the key's AES and
 * GHASH backends (read only). */
#define PARAM_AES_BACKEND "libgcm-aes-backend"
#define PARAM_GHASH_BACKEND "libgcm-ghash-backend"

/* Every context parameter name either cipher knows. Each cipher answers
 * the ones of its own mode and hands the rest to libgcm_get_shared /
 * libgcm_set_shared. */
enum libgcm_param {
  LIBGCM_P_UNKNOWN,
  LIBGCM_P_KEYLEN,
  LIBGCM_P_IVLEN,
  LIBGCM_P_IV, /* iv and updated-iv */
  LIBGCM_P_TAGLEN,
  LIBGCM_P_TAG,
  LIBGCM_P_TLS_AAD,
  LIBGCM_P_TLS_AAD_PAD,
  LIBGCM_P_TLS_IV_FIXED,
  LIBGCM_P_TLS_IV_GEN,
  LIBGCM_P_TLS_IV_INV,
  LIBGCM_P_SPEED,
  LIBGCM_P_AES_BACKEND,
  LIBGCM_P_GHASH_BACKEND,
};

/* The id of a parameter name (exact match), LIBGCM_P_UNKNOWN for a name
 * neither cipher knows. */
enum libgcm_param libgcm_param_id(const char *key);

/* A cipher's answer for one parameter of its context `ctx`, with the
 * name's id: 1, or 0 when it failed (reported). */
typedef int libgcm_get_one_fn(void *ctx, OSSL_PARAM *p, enum libgcm_param id);
typedef int libgcm_set_one_fn(void *ctx, const OSSL_PARAM *p,
                              enum libgcm_param id);

/* OSSL_FUNC_cipher_get_ctx_params / set_ctx_params: hands each parameter
 * of the list (NULL: none) to the cipher's get_one / set_one, in the
 * list's order, and stops at the first that fails. */
int libgcm_ctx_get_each(void *ctx, OSSL_PARAM params[],
                        libgcm_get_one_fn *get_one);
int libgcm_ctx_set_each(void *ctx, const OSSL_PARAM params[],
                        libgcm_set_one_fn *set_one);

/* What a context answers for the read-only parameters both ciphers have. */
struct libgcm_ctx_shared {
  size_t keylen; /* the algorithm's key length */
  size_t ivlen;  /* the IV length in use */
  size_t taglen; /* the tag length in use */
  /* The name of ctx's AES (LIBGCM_P_AES_BACKEND) or GHASH backend, "none"
   * before a key is set; called only when the parameter is asked for. */
  const char *(*backend)(const void *ctx, enum libgcm_param which);
  const void *ctx;
};

/* Answers p when it is keylen, ivlen, taglen or a backend name (the
 * result of the OSSL_PARAM_set call); any other name is left alone and 1
 * returned, as OpenSSL does for names a context does not have. */
int libgcm_get_shared(OSSL_PARAM *p, enum libgcm_param id,
                      const struct libgcm_ctx_shared *v);

/* Takes p when it is keylen, which may only be set to the algorithm's own
 * `keylen` (else LIBGCM_R_BAD_KEY_LENGTH and 0); any other name is
 * ignored and 1 returned, as providers do. */
int libgcm_set_shared(const struct libgcm_provctx *pc, const OSSL_PARAM *p,
                      enum libgcm_param id, size_t keylen);

/* The rows of the context parameter lists for what libgcm_get_shared and
 * libgcm_set_shared answer: each cipher's gettable list starts with
 * LIBGCM_CTX_GETTABLE_LENGTHS and ends with LIBGCM_CTX_GETTABLE_BACKENDS,
 * its own rows between; its settable list starts with
 * LIBGCM_CTX_SETTABLE_KEYLEN. */
#define LIBGCM_CTX_GETTABLE_LENGTHS                    \
  OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),   \
  OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),    \
  OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL)
#define LIBGCM_CTX_GETTABLE_BACKENDS                   \
  OSSL_PARAM_utf8_ptr(PARAM_AES_BACKEND, NULL, 0),     \
  OSSL_PARAM_utf8_ptr(PARAM_GHASH_BACKEND, NULL, 0)
#define LIBGCM_CTX_SETTABLE_KEYLEN \
  OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL)

/* The context-parameter functions of a cipher file's dispatch table
 * (ctx_get_params, ctx_set_params, ctx_gettable_params,
 * ctx_settable_params): its get_one and set_one (libgcm_get_one_fn,
 * libgcm_set_one_fn) over the whole list, and its lists `gettable` and
 * `settable`, the same for every context and key size. */
#define LIBGCM_CTX_PARAM_FUNCTIONS(get_one, set_one, gettable, settable)   \
  static int ctx_get_params(void *vctx, OSSL_PARAM params[]) {            \
    return libgcm_ctx_get_each(vctx, params, get_one);                    \
  }                                                                       \
  static int ctx_set_params(void *vctx, const OSSL_PARAM params[]) {      \
    return libgcm_ctx_set_each(vctx, params, set_one);                    \
  }                                                                       \
  static const OSSL_PARAM *ctx_gettable_params(void *vctx, void *provctx) { \
    (void)vctx;                                                           \
    (void)provctx;                                                        \
    return gettable;                                                      \
  }                                                                       \
  static const OSSL_PARAM *ctx_settable_params(void *vctx, void *provctx) { \
    (void)vctx;                                                           \
    (void)provctx;                                                        \
    return settable;                                                      \
  }

/* Zeroes n bytes at p through a volatile pointer (the stores stay). */
static inline void libgcm_wipe(void *p, size_t n) {
  volatile uint8_t *v = p;
  while (n--) *v++ = 0;
}

/* The ctx_einit and ctx_dinit of a cipher file: its `init`, a static
 * function taking (ctx, enc, key, keylen, iv, ivlen, params), for
 * encrypting (enc 1) and for decrypting (enc 0). */
#define LIBGCM_AEAD_INIT_FUNCTIONS(init)                                     \
  static int ctx_einit(void *vctx, const unsigned char *key, size_t keylen, \
                       const unsigned char *iv, size_t ivlen,               \
                       const OSSL_PARAM params[]) {                         \
    return init(vctx, 1, key, keylen, iv, ivlen, params);                   \
  }                                                                         \
  static int ctx_dinit(void *vctx, const unsigned char *key, size_t keylen, \
                       const unsigned char *iv, size_t ivlen,               \
                       const OSSL_PARAM params[]) {                         \
    return init(vctx, 0, key, keylen, iv, ivlen, params);                   \
  }

/* The dispatch table libgcm_aes<bits><mode>_functions (declared above) of
 * a cipher file that defines ctx_free, ctx_dup, ctx_einit, ctx_dinit,
 * ctx_update, ctx_final, ctx_cipher, ctx_get_params, ctx_set_params,
 * ctx_gettable_params and ctx_settable_params (gcm_cipher.c,
 * gcm_siv_cipher.c; ctx_einit and ctx_dinit by LIBGCM_AEAD_INIT_FUNCTIONS,
 * the last four by LIBGCM_CTX_PARAM_FUNCTIONS), and for the key size
 * aes<bits>_newctx and aes<bits>_get_params. */
#define LIBGCM_AEAD_DISPATCH(mode, bits)                                     \
  const OSSL_DISPATCH libgcm_aes##bits##mode##_functions[] = {               \
      {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))aes##bits##_newctx},         \
      {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))ctx_free},                  \
      {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))ctx_dup},                    \
      {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))ctx_einit},            \
      {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))ctx_dinit},            \
      {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))ctx_update},                 \
      {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))ctx_final},                   \
      {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))ctx_cipher},                 \
      {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))aes##bits##_get_params}, \
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
