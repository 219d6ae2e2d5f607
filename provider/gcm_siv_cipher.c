/*
 * provider/gcm_siv_cipher.c: AES-128-GCM-SIV and AES-256-GCM-SIV (RFC 8452)
 * as OpenSSL 3 cipher algorithms, under the names, mode number and
 * parameters OpenSSL 3.2 gives them, implemented only with libgcm's public
 * API <gcm/gcm.h> (gcm_siv_seal, gcm_siv_open). Debian 12's OpenSSL 3.0
 * has no AES-GCM-SIV of its own; with this provider loaded,
 * EVP_CIPHER_fetch(ctx, "AES-128-GCM-SIV", NULL) finds it.
 *
 * How EVP drives it (as OpenSSL 3.2's own AES-GCM-SIV, where it is
 * defined; the differences are listed below):
 *  - init: the 16- or 32-byte key (expanded once with
 *    gcm_siv_key_init_sized on the default backends and kept until the
 *    next key), the 12-byte IV. Any init starts a new message: buffered
 *    AAD and the previous tag are dropped.
 *  - update with a NULL output: additional data, in any number of calls;
 *    it is buffered (AES-GCM-SIV hashes all of it before it encrypts a
 *    byte), up to RFC 8452's 2^36 bytes.
 *  - update with an output: the whole message, in one call. Encrypting
 *    seals it and keeps the tag; decrypting needs the 16-byte tag set
 *    first (the `tag` parameter), since the tag is the initial counter,
 *    and opens it: a wrong tag makes this update fail with the output
 *    zeroed (OpenSSL's AES-SIV fails here too), so no unauthenticated
 *    plaintext is ever released. A second data update fails unless the
 *    `speed` parameter is set (OpenSSL's `openssl speed` sets it to run
 *    many messages on one IV). An update of 0 bytes does nothing.
 *  - final: encrypting, seals an empty message if no data update came (so
 *    the tag of AAD alone can be had, as in OpenSSL 3.5); decrypting,
 *    returns the verdict of the data update, or opens an empty message.
 *  - parameters: `tag` (16 bytes exactly; read after an encrypting final,
 *    set before a decrypting update), `taglen` (16), `keylen` (settable
 *    only to its own value), `ivlen` (12), `speed`; the algorithm reports
 *    mode EVP_CIPH_GCM_SIV_MODE (0x10005), an AEAD with a custom IV and a
 *    block size of 1. And, as for AES-GCM, `libgcm-aes-backend` and
 *    `libgcm-ghash-backend`.
 * Memory: the expanded key lives in a reference-counted block of its own
 * (shared_key.c), of the size gcm_siv_key_size_for reports for the
 * default backends (304 bytes on the round-key AES backends such as
 * AES-NI and Armv8, where a whole gcm_siv_key is 2,304); a duplicated
 * context shares it, and the same key set again is not expanded again.
 * The context itself is 88 bytes (64-bit targets) and the buffered AAD.
 * Differences from OpenSSL 3.2: an AAD update of 0 bytes is a no-op here
 * (there it drops the AAD buffered so far), init always starts a new
 * message, a wrong tag fails the data update as well as final, and the
 * empty message works on every version.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <gcm/gcm.h>

#include "provider.h"

/* OpenSSL 3.2's mode number for AES-GCM-SIV (include/openssl/evp.h);
 * 3.0's headers do not have it. */
#ifndef EVP_CIPH_GCM_SIV_MODE
#define EVP_CIPH_GCM_SIV_MODE 0x10005
#endif


struct siv_ctx {
  /* The expanded key (shared_key.c), NULL until a key is set. */
  struct libgcm_shared_key *key;
  const struct libgcm_provctx *pc;
  uint8_t *aad; /* buffered AAD, aad_cap bytes from malloc, or NULL */
  size_t aad_len, aad_cap;
  size_t keylen;
  uint8_t nonce[GCM_SIV_NONCE_LEN];
  uint8_t tag[GCM_SIV_TAG_LEN]; /* encrypt: the tag made; decrypt: given */
  uint8_t enc;
  uint8_t have_iv;
  uint8_t have_tag;  /* decrypt: a tag was set */
  uint8_t tag_ready; /* encrypt: `tag` holds this message's tag */
  uint8_t data_done; /* the message's data update (or final) ran */
  uint8_t verdict;   /* decrypt: 1 when the data update's tag was right */
  uint8_t speed;     /* OSSL_CIPHER_PARAM_SPEED: data updates may repeat */
};

/* Drops the message in progress: the AAD buffered, the tag and the
 * verdict. The key and IV stay. */
static void message_reset(struct siv_ctx *c) {
  if (c->aad != NULL) libgcm_wipe(c->aad, c->aad_len);
  c->aad_len = 0;
  c->have_tag = 0;
  c->tag_ready = 0;
  c->data_done = 0;
  c->verdict = 0;
  libgcm_wipe(c->tag, sizeof(c->tag));
}

static void *ctx_new(void *provctx, size_t keylen) {
  struct siv_ctx *c = malloc(sizeof(*c));
  if (c == NULL) return NULL;
  memset(c, 0, sizeof(*c));
  c->pc = provctx;
  c->keylen = keylen;
  return c;
}

static void *aes128_newctx(void *provctx) { return ctx_new(provctx, 16); }
static void *aes256_newctx(void *provctx) { return ctx_new(provctx, 32); }

static void ctx_free(void *vctx) {
  struct siv_ctx *c = vctx;
  if (c == NULL) return;
  libgcm_shared_key_release(c->key);
  if (c->aad != NULL) {
    libgcm_wipe(c->aad, c->aad_cap);
    free(c->aad);
  }
  libgcm_wipe(c, sizeof(*c));
  free(c);
}

static void *ctx_dup(void *vctx) {
  const struct siv_ctx *src = vctx;
  struct siv_ctx *c = ctx_new((void *)src->pc, src->keylen);
  if (c == NULL) return NULL;
  uint8_t *aad = NULL;
  if (src->aad != NULL) {
    aad = malloc(src->aad_cap);
    if (aad == NULL) {
      LIBGCM_ERR(src->pc, LIBGCM_R_OUT_OF_MEMORY, "AAD of %zu bytes",
                 src->aad_len);
      ctx_free(c);
      return NULL;
    }
    memcpy(aad, src->aad, src->aad_len);
  }
  memcpy(c, src, sizeof(*c));
  c->aad = aad;
  c->key = libgcm_shared_key_ref(src->key);
  return c;
}

static int ctx_set_params(void *vctx, const OSSL_PARAM params[]);

static int ctx_init(struct siv_ctx *c, int enc, const unsigned char *key,
                    size_t keylen, const unsigned char *iv, size_t ivlen,
                    const OSSL_PARAM params[]) {
  c->enc = (uint8_t)(enc != 0);
  message_reset(c);
  if (key != NULL) {
    /* On failure the context has no key (c->key is NULL). */
    if (keylen != c->keylen) {
      LIBGCM_ERR(c->pc, LIBGCM_R_BAD_KEY_LENGTH, "expected %zu bytes, got %zu",
                 c->keylen, keylen);
      libgcm_shared_key_release(c->key);
      c->key = NULL;
      return 0;
    }
    if (!libgcm_shared_key_set(c->pc, LIBGCM_KEY_SIV, &c->key, key, keylen)) {
      return 0;
    }
  }
  if (iv != NULL) {
    if (ivlen != GCM_SIV_NONCE_LEN) {
      LIBGCM_ERR(c->pc, LIBGCM_R_BAD_IV_LENGTH,
                 "AES-GCM-SIV takes a 12-byte IV, got %zu bytes", ivlen);
      return 0;
    }
    memcpy(c->nonce, iv, GCM_SIV_NONCE_LEN);
    c->have_iv = 1;
  }
  return ctx_set_params(c, params);
}

LIBGCM_AEAD_INIT_FUNCTIONS(ctx_init)

/* Appends AAD to the buffer, growing it by doubling. */
static int add_aad(struct siv_ctx *c, const uint8_t *in, size_t inl) {
  if (c->data_done) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_STATE, "AAD must come before the data");
    return 0;
  }
  if ((uint64_t)inl > GCM_SIV_MAX_AAD_LEN - c->aad_len) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_PARAMETER,
               "AAD over AES-GCM-SIV's limit of 2^36 bytes");
    return 0;
  }
  if (inl > SIZE_MAX - c->aad_len) {
    LIBGCM_ERR(c->pc, LIBGCM_R_OUT_OF_MEMORY, "AAD over SIZE_MAX bytes");
    return 0;
  }
  if (c->aad_len + inl > c->aad_cap) {
    size_t need = c->aad_len + inl, cap = c->aad_cap ? c->aad_cap : 64;
    while (cap < need) cap = cap <= SIZE_MAX / 2 ? cap * 2 : need;
    uint8_t *p = malloc(cap);
    if (p == NULL) {
      LIBGCM_ERR(c->pc, LIBGCM_R_OUT_OF_MEMORY, "AAD of %zu bytes",
                 c->aad_len + inl);
      return 0;
    }
    if (c->aad != NULL) {
      memcpy(p, c->aad, c->aad_len);
      libgcm_wipe(c->aad, c->aad_cap);
      free(c->aad);
    }
    c->aad = p;
    c->aad_cap = cap;
  }
  memcpy(c->aad + c->aad_len, in, inl);
  c->aad_len += inl;
  return 1;
}

/* Seals or opens the whole message in (inl bytes) into out. */
static int run_message(struct siv_ctx *c, uint8_t *out, const uint8_t *in,
                       size_t inl) {
  if (c->key == NULL || !c->have_iv) {
    LIBGCM_ERR(c->pc, c->key != NULL ? LIBGCM_R_NO_IV : LIBGCM_R_NO_KEY,
               "set a key and a 12-byte IV first");
    return 0;
  }
  if (c->data_done && !c->speed) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_STATE,
               "AES-GCM-SIV takes the whole message in one update; set a new "
               "IV for the next one");
    return 0;
  }
  const gcm_siv_key *k = libgcm_shared_siv_key(c->key);
  c->data_done = 1;
  if (c->enc) {
    c->tag_ready = (uint8_t)libgcm_count_seal(
        c->pc, gcm_siv_seal(k, out, c->tag, GCM_SIV_TAG_LEN, c->nonce,
                            GCM_SIV_NONCE_LEN, in, inl, c->aad, c->aad_len));
    return c->tag_ready;
  }
  if (!c->have_tag) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TAG,
               "set the 16-byte tag before the data: AES-GCM-SIV decrypts "
               "from it");
    return 0;
  }
  c->verdict = (uint8_t)libgcm_count_open(
      c->pc, gcm_siv_open(k, out, c->nonce, GCM_SIV_NONCE_LEN, in, inl,
                          c->tag, GCM_SIV_TAG_LEN, c->aad, c->aad_len));
  return c->verdict;
}

static int ctx_update(void *vctx, unsigned char *out, size_t *outl,
                      size_t outsize, const unsigned char *in, size_t inl) {
  struct siv_ctx *c = vctx;
  *outl = 0;
  if (inl == 0) return 1;
  if (in == NULL) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_PARAMETER, "no input");
    return 0;
  }
  if (out == NULL) return add_aad(c, in, inl);
  if (outsize < inl) {
    LIBGCM_ERR(c->pc, LIBGCM_R_OUTPUT_TOO_SMALL, "need %zu, have %zu", inl,
               outsize);
    return 0;
  }
  if (!run_message(c, out, in, inl)) return 0;
  *outl = inl;
  return 1;
}

static int ctx_final(void *vctx, unsigned char *out, size_t *outl,
                     size_t outsize) {
  struct siv_ctx *c = vctx;
  (void)out;
  (void)outsize;
  *outl = 0;
  if (!c->data_done) {
    /* No data update: the message is empty. */
    static const uint8_t none[1];
    return run_message(c, NULL, none, 0);
  }
  return c->enc ? c->tag_ready : c->verdict;
}

static int ctx_cipher(void *vctx, unsigned char *out, size_t *outl,
                      size_t outsize, const unsigned char *in, size_t inl) {
  if (in == NULL) return ctx_final(vctx, out, outl, outsize);
  return ctx_update(vctx, out, outl, outsize, in, inl);
}

/* ---- parameters ------------------------------------------------------------ */

static int aes128_get_params(OSSL_PARAM params[]) {
  return libgcm_aead_get_params(params, EVP_CIPH_GCM_SIV_MODE, 16,
                                GCM_SIV_NONCE_LEN);
}
static int aes256_get_params(OSSL_PARAM params[]) {
  return libgcm_aead_get_params(params, EVP_CIPH_GCM_SIV_MODE, 32,
                                GCM_SIV_NONCE_LEN);
}

static const OSSL_PARAM ctx_gettable[] = {
    LIBGCM_CTX_GETTABLE_LENGTHS,
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    LIBGCM_CTX_GETTABLE_BACKENDS,
    OSSL_PARAM_END,
};

static const OSSL_PARAM ctx_settable[] = {
    LIBGCM_CTX_SETTABLE_KEYLEN,
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_SPEED, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_END,
};

/* The names of the key's backends, for libgcm_get_shared. */
static const char *backend_name(const void *vctx, enum libgcm_param which) {
  const struct siv_ctx *c = vctx;
  if (c->key == NULL) return "none";
  const gcm_siv_key *k = libgcm_shared_siv_key(c->key);
  return which == LIBGCM_P_AES_BACKEND ? gcm_siv_key_aes_backend(k)
                                       : gcm_siv_key_ghash_backend(k);
}

/* One context parameter read (libgcm_ctx_get_each): the tag here, the
 * parameters both ciphers share in cipher_params.c. */
static int get_one(void *vctx, OSSL_PARAM *p, enum libgcm_param id) {
  struct siv_ctx *c = vctx;
  if (id != LIBGCM_P_TAG) {
    const struct libgcm_ctx_shared v = {
        .keylen = c->keylen,
        .ivlen = GCM_SIV_NONCE_LEN,
        .taglen = GCM_SIV_TAG_LEN,
        .backend = backend_name,
        .ctx = c,
    };
    return libgcm_get_shared(p, id, &v);
  }
  if (!c->enc || !c->tag_ready || p->data_type != OSSL_PARAM_OCTET_STRING ||
      p->data_size != GCM_SIV_TAG_LEN) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TAG,
               "the 16-byte tag is readable after an encrypting final");
    return 0;
  }
  return OSSL_PARAM_set_octet_string(p, c->tag, GCM_SIV_TAG_LEN);
}

/* One context parameter set (libgcm_ctx_set_each): speed and the tag
 * here, keylen in cipher_params.c. */
static int set_one(void *vctx, const OSSL_PARAM *p, enum libgcm_param id) {
  struct siv_ctx *c = vctx;
  unsigned speed;
  switch (id) {
    case LIBGCM_P_SPEED:
      if (!OSSL_PARAM_get_uint(p, &speed)) {
        LIBGCM_ERR(c->pc, LIBGCM_R_BAD_PARAMETER, "speed: an unsigned int");
        return 0;
      }
      c->speed = speed != 0;
      return 1;
    case LIBGCM_P_TAG:
      if (p->data_type != OSSL_PARAM_OCTET_STRING ||
          p->data_size != GCM_SIV_TAG_LEN) {
        LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TAG, "AES-GCM-SIV tags are 16 bytes");
        return 0;
      }
      /* Encrypting makes its own tag; as OpenSSL does, a tag given then is
       * ignored. */
      if (!c->enc && p->data != NULL) {
        memcpy(c->tag, p->data, GCM_SIV_TAG_LEN);
        c->have_tag = 1;
      }
      return 1;
    default:
      return libgcm_set_shared(c->pc, p, id, c->keylen);
  }
}

LIBGCM_CTX_PARAM_FUNCTIONS(get_one, set_one, ctx_gettable, ctx_settable)

/* ---- dispatch tables ------------------------------------------------------- */

LIBGCM_AEAD_DISPATCH(gcmsiv, 128);
LIBGCM_AEAD_DISPATCH(gcmsiv, 256);
