/*
 * provider/cipher_params.c: the parameter code AES-GCM (gcm_cipher.c) and
 * AES-GCM-SIV (gcm_siv_cipher.c) share.
 *
 *  - The algorithm parameters (OSSL_FUNC_cipher_get_params and its
 *    gettable list): both ciphers are AEADs with a custom IV and a stream
 *    cipher's block size of 1; only the mode, key and IV lengths differ.
 *  - The context parameters: a list is walked once, each name matched by
 *    its length first (libgcm_param_id), instead of one OSSL_PARAM_locate
 *    (a string compare per entry) per known name: EVP asks for one or two
 *    at a time, several times per message (the IV length at every init,
 *    the tag after every final). Each cipher file answers its own names
 *    (AES-GCM: iv, tag, the TLS 1.2 ones; AES-GCM-SIV: tag, speed) and
 *    hands the rest here, where keylen, ivlen, taglen and the two backend
 *    names are answered, keylen is checked when set, and every other name
 *    is left alone, as OpenSSL's providers do.
 */
#include <stddef.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "provider.h"

/* ---- algorithm parameters -------------------------------------------------- */

int libgcm_aead_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen,
                           size_t ivlen) {
  const struct {
    const char *key;
    size_t value;
  } sizes[] = {
      {OSSL_CIPHER_PARAM_KEYLEN, keylen},
      {OSSL_CIPHER_PARAM_IVLEN, ivlen},
      {OSSL_CIPHER_PARAM_BLOCK_SIZE, 1},
  };
  static const struct {
    const char *key;
    int value;
  } flags[] = {
      {OSSL_CIPHER_PARAM_AEAD, 1},
      {OSSL_CIPHER_PARAM_CUSTOM_IV, 1},
      {OSSL_CIPHER_PARAM_CTS, 0},
      {OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, 0},
      {OSSL_CIPHER_PARAM_HAS_RAND_KEY, 0},
  };
  OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE);
  if (p != NULL && !OSSL_PARAM_set_uint(p, mode)) return 0;
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
    p = OSSL_PARAM_locate(params, sizes[i].key);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, sizes[i].value)) return 0;
  }
  for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
    p = OSSL_PARAM_locate(params, flags[i].key);
    if (p != NULL && !OSSL_PARAM_set_int(p, flags[i].value)) return 0;
  }
  return 1;
}

static const OSSL_PARAM alg_gettable[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
    OSSL_PARAM_END,
};

const OSSL_PARAM *libgcm_aead_gettable_params(void *provctx) {
  (void)provctx;
  return alg_gettable;
}

/* ---- context parameters ---------------------------------------------------- */

#define NAME_IS(key, len, name) \
  ((len) == sizeof(name) - 1 && memcmp((key), (name), sizeof(name) - 1) == 0)

enum libgcm_param libgcm_param_id(const char *key) {
  size_t n = strlen(key);
  if (NAME_IS(key, n, OSSL_CIPHER_PARAM_KEYLEN)) return LIBGCM_P_KEYLEN;
  if (NAME_IS(key, n, OSSL_CIPHER_PARAM_IVLEN)) return LIBGCM_P_IVLEN;
  if (NAME_IS(key, n, OSSL_CIPHER_PARAM_AEAD_TAG)) return LIBGCM_P_TAG;
  if (NAME_IS(key, n, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) return LIBGCM_P_TAGLEN;
  if (NAME_IS(key, n, OSSL_CIPHER_PARAM_IV) ||
      NAME_IS(key, n, OSSL_CIPHER_PARAM_UPDATED_IV))
    return LIBGCM_P_IV;
  if (NAME_IS(key, n, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD)) return LIBGCM_P_TLS_AAD;
  if (NAME_IS(key, n, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD))
    return LIBGCM_P_TLS_AAD_PAD;
  if (NAME_IS(key, n, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED))
    return LIBGCM_P_TLS_IV_FIXED;
  if (NAME_IS(key, n, OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN))
    return LIBGCM_P_TLS_IV_GEN;
  if (NAME_IS(key, n, OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV))
    return LIBGCM_P_TLS_IV_INV;
  if (NAME_IS(key, n, OSSL_CIPHER_PARAM_SPEED)) return LIBGCM_P_SPEED;
  if (NAME_IS(key, n, PARAM_AES_BACKEND)) return LIBGCM_P_AES_BACKEND;
  if (NAME_IS(key, n, PARAM_GHASH_BACKEND)) return LIBGCM_P_GHASH_BACKEND;
  return LIBGCM_P_UNKNOWN;
}

int libgcm_ctx_get_each(void *ctx, OSSL_PARAM params[],
                        libgcm_get_one_fn *get_one) {
  if (params == NULL) return 1;
  for (OSSL_PARAM *p = params; p->key != NULL; p++) {
    if (!get_one(ctx, p, libgcm_param_id(p->key))) return 0;
  }
  return 1;
}

int libgcm_ctx_set_each(void *ctx, const OSSL_PARAM params[],
                        libgcm_set_one_fn *set_one) {
  if (params == NULL) return 1;
  for (const OSSL_PARAM *p = params; p->key != NULL; p++) {
    if (!set_one(ctx, p, libgcm_param_id(p->key))) return 0;
  }
  return 1;
}

int libgcm_get_shared(OSSL_PARAM *p, enum libgcm_param id,
                      const struct libgcm_ctx_shared *v) {
  switch (id) {
    case LIBGCM_P_KEYLEN:
      return OSSL_PARAM_set_size_t(p, v->keylen);
    case LIBGCM_P_IVLEN:
      return OSSL_PARAM_set_size_t(p, v->ivlen);
    case LIBGCM_P_TAGLEN:
      return OSSL_PARAM_set_size_t(p, v->taglen);
    case LIBGCM_P_AES_BACKEND:
    case LIBGCM_P_GHASH_BACKEND:
      return OSSL_PARAM_set_utf8_ptr(p, v->backend(v->ctx, id));
    default:
      return 1; /* not gettable here: left alone, as OpenSSL does */
  }
}

int libgcm_set_shared(const struct libgcm_provctx *pc, const OSSL_PARAM *p,
                      enum libgcm_param id, size_t keylen) {
  size_t n;
  if (id != LIBGCM_P_KEYLEN) return 1; /* unknown or not settable: ignored,
                                        * as providers do */
  if (!OSSL_PARAM_get_size_t(p, &n) || n != keylen) {
    LIBGCM_ERR(pc, LIBGCM_R_BAD_KEY_LENGTH, "this cipher's key is %zu bytes",
               keylen);
    return 0;
  }
  return 1;
}
