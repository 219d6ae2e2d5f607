/*
 * provider/gcm_cipher.c: AES-128/192/256-GCM as OpenSSL 3 cipher
 * algorithms, implemented only with libgcm's public API <gcm/gcm.h>.
 *
 * A cipher context is what EVP_CIPHER_CTX drives (provider-cipher(7)):
 *
 *  - Key: expanded once with gcm_key_init_sized on the default backends
 *    (libgcm's dispatcher picks them; LIBGCM_AES, LIBGCM_GHASH,
 *    LIBGCM_FUSED and OPENSSL_ia32cap apply), in memory of the size
 *    gcm_key_size_for reports for them: 560 bytes on x86_64's hardware
 *    tiers, 496 on aarch64's.
 *    The expanded key lives in a reference-counted block of its own
 *    (shared_key.c) so that a duplicated context (dupctx) shares it,
 *    read-only, a stream copied mid-message keeps pointing at a live key,
 *    and the same key set again is not expanded again. Re-keying a shared
 *    key expands into a fresh block; the last reference wipes it.
 *  - Memory: a TLS server keeps two of these contexts per connection for
 *    the connection's lifetime (OpenSSL's record layer, one per direction;
 *    it frees the handshake's pair when it installs the application keys,
 *    and never duplicates them), so each context holds only what it uses:
 *    the IV (inline up to 16 bytes; a longer one gets a MAX_IV_LEN buffer
 *    of its own), the TLS state, one pointer to the key block and, only
 *    while a message is under way, one to its native stream (a gcm_stream
 *    of its own, allocated when the message starts and freed when it ends:
 *    an idle connection holds none; glibc serves a block of that size from
 *    its per-thread cache).
 *  - IV: any length from 1 byte (the `ivlen` parameter), given at init or
 *    later. It is buffered and the native stream starts lazily at the first
 *    AAD, data or final call, so a new IV on the same key costs one
 *    gcm_stream_init and no key expansion (TLS 1.3 does this per record).
 *  - Streaming: AAD is an update with NULL output; data updates of any size;
 *    final writes the 16-byte tag (read back with the `tag` parameter, any
 *    1..16-byte prefix) or checks the tag set beforehand (1..16 bytes).
 *    As with OpenSSL's own provider, a decrypting stream releases plaintext
 *    before final has checked the tag.
 *  - TLS 1.2 record layer: `tlsaad` (the 13-byte record header),
 *    `tlsivfixed` (the implicit 4-byte salt; on encrypt the 8-byte explicit
 *    part starts random), `tlsivgen` / `tlsivinv`. With `tlsaad` set, the
 *    next update/cipher call is one whole record, explicit nonce || payload
 *    || tag, sealed or opened in one gcm_seal / gcm_open: all or nothing,
 *    and a record that fails authentication leaves the whole buffer zeroed.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <gcm/gcm.h>

#include "../crypto/rand/os_random.h"
#include "provider.h"

/* IVs up to this many bytes (OpenSSL's own provider takes up to 128). */
#define MAX_IV_LEN 1024
/* IVs up to this many bytes are kept inside the context (TLS and most
 * callers use 12); longer ones in a MAX_IV_LEN buffer allocated when the
 * first one is set. */
#define INLINE_IV_LEN 16
/* TLS 1.2 GCM record layout (RFC 5288). */
#define TLS_AAD_LEN EVP_AEAD_TLS1_AAD_LEN           /* 13 */
#define TLS_FIXED_IV_LEN EVP_GCM_TLS_FIXED_IV_LEN   /* 4 */
#define TLS_EXPLICIT_IV_LEN EVP_GCM_TLS_EXPLICIT_IV_LEN /* 8 */
#define TLS_TAG_LEN EVP_GCM_TLS_TAG_LEN             /* 16 */

/* Cipher-context parameters that say which libgcm backends the key uses. */

enum iv_state {
  IV_NONE,      /* no IV yet */
  IV_BUFFERED,  /* IV set, native stream not started */
  IV_ACTIVE,    /* native stream running on this IV */
  IV_FINISHED,  /* message finished; a new IV is needed */
};

struct gcm_ctx {
  gcm_stream *stream;      /* the message's native stream while iv_state is
                            * IV_ACTIVE, else NULL */
  const struct libgcm_provctx *pc;
  struct libgcm_shared_key *key; /* NULL until a key is set (shared_key.c) */
  uint8_t *iv;             /* iv_inline, or a MAX_IV_LEN buffer (iv_reserve) */
  size_t keylen;           /* fixed by the algorithm */
  size_t ivlen;
  size_t taglen;           /* expected tag length (decrypt), 0 = not set */
  size_t tls_aad_len;      /* TLS 1.2: 0, or TLS_AAD_LEN while a record is pending */
  uint8_t tag[GCM_TAG_LEN];
  uint8_t tls_aad[TLS_AAD_LEN];
  uint8_t iv_inline[INLINE_IV_LEN];
  uint8_t enc;
  uint8_t iv_state;        /* enum iv_state */
  uint8_t tag_ready;       /* encrypt: final ran, `tag` holds the tag */
  uint8_t iv_gen;          /* TLS 1.2: tlsivfixed given, TLS nonce rules apply */
};

/* ---- helpers -------------------------------------------------------------- */


/* Makes room for an IV of n bytes: the inline buffer holds up to
 * INLINE_IV_LEN, a longer IV moves the context to a MAX_IV_LEN buffer of
 * its own, kept until the context is freed. The old contents are not
 * carried over: every caller writes the new IV (or drops the old one). */
static int iv_reserve(struct gcm_ctx *c, size_t n) {
  if (n <= INLINE_IV_LEN || c->iv != c->iv_inline) return 1;
  uint8_t *p = malloc(MAX_IV_LEN);
  if (p == NULL) {
    LIBGCM_ERR(c->pc, LIBGCM_R_OUT_OF_MEMORY, "a %zu-byte IV", n);
    return 0;
  }
  libgcm_wipe(c->iv_inline, sizeof(c->iv_inline));
  c->iv = p;
  return 1;
}

static void iv_release(struct gcm_ctx *c) {
  if (c->iv != c->iv_inline) {
    libgcm_wipe(c->iv, MAX_IV_LEN);
    free(c->iv);
  }
  c->iv = c->iv_inline;
}

/* Wipes and frees the native stream if a message is under way on it, and
 * moves to `next`. */
static void stream_drop(struct gcm_ctx *c, enum iv_state next) {
  if (c->iv_state == IV_ACTIVE) {
    gcm_stream_cleanup(c->stream);
    free(c->stream);
    c->stream = NULL;
  }
  c->iv_state = (uint8_t)next;
}

/* After a finish call: libgcm has ended the stream and wiped it (whether
 * the call succeeded or not), so its block is freed as it is. */
static void stream_finished(struct gcm_ctx *c) {
  free(c->stream);
  c->stream = NULL;
  c->iv_state = IV_FINISHED;
}

/* Starts the native stream on the buffered IV if it is not running yet. */
static int stream_ready(struct gcm_ctx *c) {
  if (c->key == NULL) {
    LIBGCM_ERR(c->pc, LIBGCM_R_NO_KEY, "set a key first");
    return 0;
  }
  switch (c->iv_state) {
    case IV_ACTIVE:
      return 1;
    case IV_BUFFERED:
      c->stream = malloc(sizeof(gcm_stream));
      if (c->stream == NULL) {
        LIBGCM_ERR(c->pc, LIBGCM_R_OUT_OF_MEMORY, "a stream");
        return 0;
      }
      if (!gcm_stream_init(c->stream, libgcm_shared_gcm_key(c->key),
                           c->enc ? GCM_ENCRYPT : GCM_DECRYPT, c->iv,
                           c->ivlen)) {
        LIBGCM_ERR(c->pc, LIBGCM_R_OPERATION_FAILED, "%s",
                   gcm_last_error_message());
        free(c->stream); /* zeroed by the failed init */
        c->stream = NULL;
        return 0;
      }
      c->iv_state = IV_ACTIVE;
      c->tag_ready = 0;
      return 1;
    case IV_FINISHED:
      LIBGCM_ERR(c->pc, LIBGCM_R_NO_IV,
                 "the message is finished; set a new IV");
      return 0;
    case IV_NONE:
    default:
      LIBGCM_ERR(c->pc, LIBGCM_R_NO_IV, "set an IV first");
      return 0;
  }
}

/* Ends the message after a failed native call and reports it. */
static int stream_failed(struct gcm_ctx *c) {
  LIBGCM_ERR(c->pc, LIBGCM_R_OPERATION_FAILED, "%s", gcm_last_error_message());
  stream_drop(c, IV_FINISHED);
  return 0;
}

static int set_key(struct gcm_ctx *c, const uint8_t *key, size_t keylen) {
  if (keylen != c->keylen) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_KEY_LENGTH, "expected %zu bytes, got %zu",
               c->keylen, keylen);
    return 0;
  }
  return libgcm_shared_key_set(c->pc, LIBGCM_KEY_GCM, &c->key, key, keylen);
}

/* Adds one to the 64-bit big-endian counter at p (the TLS invocation
 * field). */
static void inc64(uint8_t *p) {
  for (int i = 7; i >= 0; i--) {
    if (++p[i] != 0) break;
  }
}

/* ---- context life cycle ---------------------------------------------------- */

static void *ctx_new(void *provctx, size_t keylen) {
  struct gcm_ctx *c = malloc(sizeof(*c));
  if (c == NULL) return NULL;
  memset(c, 0, sizeof(*c));
  c->pc = provctx;
  c->iv = c->iv_inline;
  c->keylen = keylen;
  c->ivlen = GCM_NONCE_LEN;
  c->iv_state = IV_NONE;
  return c;
}

static void *aes128_newctx(void *provctx) { return ctx_new(provctx, 16); }
static void *aes192_newctx(void *provctx) { return ctx_new(provctx, 24); }
static void *aes256_newctx(void *provctx) { return ctx_new(provctx, 32); }

static void ctx_free(void *vctx) {
  struct gcm_ctx *c = vctx;
  if (c == NULL) return;
  stream_drop(c, IV_NONE);
  libgcm_shared_key_release(c->key);
  iv_release(c);
  libgcm_wipe(c, sizeof(*c));
  free(c);
}

static void *ctx_dup(void *vctx) {
  const struct gcm_ctx *src = vctx;
  struct gcm_ctx *c = ctx_new((void *)src->pc, src->keylen);
  if (c == NULL) return NULL;
  uint8_t *long_iv = NULL;
  gcm_stream *stream = NULL;
  if (src->iv != src->iv_inline) {
    long_iv = malloc(MAX_IV_LEN);
    if (long_iv == NULL) {
      LIBGCM_ERR(src->pc, LIBGCM_R_OUT_OF_MEMORY, "a %zu-byte IV", src->ivlen);
      ctx_free(c);
      return NULL;
    }
    memcpy(long_iv, src->iv, MAX_IV_LEN);
  }
  if (src->stream != NULL) {
    stream = malloc(sizeof(gcm_stream));
    if (stream == NULL) {
      LIBGCM_ERR(src->pc, LIBGCM_R_OUT_OF_MEMORY, "a stream");
      if (long_iv != NULL) free(long_iv);
      ctx_free(c);
      return NULL;
    }
    /* A gcm_stream copied with memcpy goes on from where it was (gcm.h). */
    memcpy(stream, src->stream, sizeof(gcm_stream));
  }
  /* The copied stream keeps pointing at the shared key, which the
   * reference below keeps alive and which nobody modifies: re-keying a
   * shared key expands into a new block (set_key). The copy holds its own
   * IV (inline, or the copy of the long one) and its own stream. */
  memcpy(c, src, sizeof(*c));
  c->iv = long_iv != NULL ? long_iv : c->iv_inline;
  c->stream = stream;
  libgcm_shared_key_ref(c->key);
  return c;
}

static int ctx_set_params(void *vctx, const OSSL_PARAM params[]);

static int ctx_init(struct gcm_ctx *c, int enc, const unsigned char *key,
                    size_t keylen, const unsigned char *iv, size_t ivlen,
                    const OSSL_PARAM params[]) {
  if (c->enc != enc || iv != NULL || key != NULL) {
    /* The running message (if any) is over; with the same IV and a new
     * key or direction it starts again from the IV. */
    if (c->iv_state == IV_ACTIVE) stream_drop(c, IV_BUFFERED);
    c->tag_ready = 0;
  }
  c->enc = (uint8_t)(enc != 0);
  if (iv != NULL) {
    if (ivlen == 0 || ivlen > MAX_IV_LEN) {
      LIBGCM_ERR(c->pc, LIBGCM_R_BAD_IV_LENGTH, "%zu bytes", ivlen);
      return 0;
    }
    if (!iv_reserve(c, ivlen)) return 0;
    c->ivlen = ivlen;
    memcpy(c->iv, iv, ivlen);
    c->iv_state = IV_BUFFERED;
  }
  if (key != NULL && !set_key(c, key, keylen)) return 0;
  return ctx_set_params(c, params);
}

LIBGCM_AEAD_INIT_FUNCTIONS(ctx_init)

/* ---- TLS 1.2 records -------------------------------------------------------- */

/* One TLS 1.2 record in `in` (inl bytes: explicit nonce, payload, tag), sealed
 * or opened into `out` with the header given by `tlsaad`. */
static int tls_record(struct gcm_ctx *c, uint8_t *out, size_t *outl,
                      size_t outsize, const uint8_t *in, size_t inl) {
  int ok = 0;
  c->tls_aad_len = 0; /* one header, one record */
  if (c->key == NULL) {
    LIBGCM_ERR(c->pc, LIBGCM_R_NO_KEY, "set a key first");
    return 0;
  }
  if (!c->iv_gen || c->ivlen != GCM_NONCE_LEN) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TLS_PARAM,
               "a TLS record needs tlsivfixed and a 12-byte IV");
    return 0;
  }
  if (out == NULL || in == NULL || inl < TLS_EXPLICIT_IV_LEN + TLS_TAG_LEN ||
      outsize < inl) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TLS_PARAM,
               "a TLS record of %zu bytes (output room %zu)", inl, outsize);
    return 0;
  }
  size_t plen = inl - TLS_EXPLICIT_IV_LEN - TLS_TAG_LEN;
  uint8_t nonce[GCM_NONCE_LEN];
  if (c->enc) {
    memcpy(nonce, c->iv, GCM_NONCE_LEN);
    inc64(c->iv + TLS_FIXED_IV_LEN);
    if (out != in) memmove(out, in, inl);
    memcpy(out, nonce + TLS_FIXED_IV_LEN, TLS_EXPLICIT_IV_LEN);
    uint8_t *payload = out + TLS_EXPLICIT_IV_LEN;
    ok = libgcm_count_seal(
        c->pc, gcm_seal(libgcm_shared_gcm_key(c->key), payload, payload + plen, TLS_TAG_LEN,
                        nonce, GCM_NONCE_LEN, payload, plen, c->tls_aad,
                        TLS_AAD_LEN));
    if (ok) {
      *outl = inl;
    } else {
      libgcm_wipe(out, inl);
    }
  } else {
    memcpy(nonce, c->iv, TLS_FIXED_IV_LEN);
    memcpy(nonce + TLS_FIXED_IV_LEN, in, TLS_EXPLICIT_IV_LEN);
    memcpy(c->iv + TLS_FIXED_IV_LEN, in, TLS_EXPLICIT_IV_LEN);
    uint8_t tag[TLS_TAG_LEN];
    memcpy(tag, in + TLS_EXPLICIT_IV_LEN + plen, TLS_TAG_LEN);
    if (out != in) memmove(out, in, inl);
    uint8_t *payload = out + TLS_EXPLICIT_IV_LEN;
    ok = libgcm_count_open(
        c->pc, gcm_open(libgcm_shared_gcm_key(c->key), payload, nonce, GCM_NONCE_LEN, payload,
                        plen, tag, TLS_TAG_LEN, c->tls_aad, TLS_AAD_LEN));
    if (ok) {
      *outl = plen;
    } else {
      libgcm_wipe(out, inl);
    }
    libgcm_wipe(tag, sizeof(tag));
  }
  libgcm_wipe(nonce, sizeof(nonce));
  stream_drop(c, IV_FINISHED);
  return ok;
}

/* ---- streaming ---------------------------------------------------------------- */

static int ctx_update(void *vctx, unsigned char *out, size_t *outl,
                      size_t outsize, const unsigned char *in, size_t inl) {
  struct gcm_ctx *c = vctx;
  if (c->tls_aad_len != 0) return tls_record(c, out, outl, outsize, in, inl);
  *outl = 0;
  if (!stream_ready(c)) return 0;
  if (inl == 0) return 1;
  if (out == NULL) {
    if (!gcm_stream_aad(c->stream, in, inl)) return stream_failed(c);
  } else {
    if (outsize < inl) {
      LIBGCM_ERR(c->pc, LIBGCM_R_OUTPUT_TOO_SMALL, "need %zu, have %zu", inl,
                 outsize);
      return 0;
    }
    if (!gcm_stream_update(c->stream, out, in, inl)) return stream_failed(c);
  }
  *outl = inl;
  return 1;
}

static int ctx_final(void *vctx, unsigned char *out, size_t *outl,
                     size_t outsize) {
  struct gcm_ctx *c = vctx;
  (void)out;
  (void)outsize;
  *outl = 0;
  if (!c->enc && c->taglen == 0) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TAG, "no tag set before final");
    return 0;
  }
  if (!stream_ready(c)) return 0;
  int ok;
  if (c->enc) {
    ok = libgcm_count_seal(
        c->pc, gcm_stream_finish_seal(c->stream, c->tag, GCM_TAG_LEN));
    if (ok) c->tag_ready = 1;
  } else {
    ok = libgcm_count_open(
        c->pc, gcm_stream_finish_open(c->stream, c->tag, c->taglen));
  }
  stream_finished(c);
  return ok;
}

/* EVP_Cipher: a TLS record when `tlsaad` is pending, else an update (in
 * non-NULL) or final (in NULL). */
static int ctx_cipher(void *vctx, unsigned char *out, size_t *outl,
                      size_t outsize, const unsigned char *in, size_t inl) {
  struct gcm_ctx *c = vctx;
  if (c->tls_aad_len != 0) {
    /* Through update a record reports its payload's length when opened
     * (libssl relies on it); through EVP_Cipher it reports the whole
     * record either way, as OpenSSL's own provider does. */
    if (!tls_record(c, out, outl, outsize, in, inl)) return 0;
    *outl = inl;
    return 1;
  }
  if (in == NULL) return ctx_final(c, out, outl, outsize);
  return ctx_update(c, out, outl, outsize, in, inl);
}

/* ---- parameters ------------------------------------------------------------------ */

static int aes128_get_params(OSSL_PARAM params[]) {
  return libgcm_aead_get_params(params, EVP_CIPH_GCM_MODE, 16, GCM_NONCE_LEN);
}
static int aes192_get_params(OSSL_PARAM params[]) {
  return libgcm_aead_get_params(params, EVP_CIPH_GCM_MODE, 24, GCM_NONCE_LEN);
}
static int aes256_get_params(OSSL_PARAM params[]) {
  return libgcm_aead_get_params(params, EVP_CIPH_GCM_MODE, 32, GCM_NONCE_LEN);
}

static const OSSL_PARAM ctx_gettable[] = {
    LIBGCM_CTX_GETTABLE_LENGTHS,
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, NULL, 0),
    LIBGCM_CTX_GETTABLE_BACKENDS,
    OSSL_PARAM_END,
};

static const OSSL_PARAM ctx_settable[] = {
    LIBGCM_CTX_SETTABLE_KEYLEN,
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, NULL, 0),
    OSSL_PARAM_END,
};

/* Puts `len` bytes at `p` into an octet-string or octet-pointer parameter. */
static int set_octets(OSSL_PARAM *p, const void *data, size_t len) {
  if (p->data_type == OSSL_PARAM_OCTET_PTR)
    return OSSL_PARAM_set_octet_ptr(p, data, len);
  return OSSL_PARAM_set_octet_string(p, data, len);
}

/* tlsivgen: hands out the explicit part of the current TLS nonce, starts a
 * message on the whole nonce and moves the invocation counter on. */
static int tls_iv_gen(struct gcm_ctx *c, OSSL_PARAM *p) {
  if (!c->iv_gen || c->key == NULL || c->ivlen < TLS_EXPLICIT_IV_LEN ||
      p->data == NULL) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TLS_PARAM,
               "tlsivgen needs a key and tlsivfixed");
    return 0;
  }
  size_t n = p->data_size;
  if (n == 0 || n > c->ivlen) n = c->ivlen;
  stream_drop(c, IV_BUFFERED);
  if (!stream_ready(c)) return 0;
  memcpy(p->data, c->iv + c->ivlen - n, n);
  p->return_size = n;
  inc64(c->iv + c->ivlen - TLS_EXPLICIT_IV_LEN);
  return 1;
}

/* The names of the key's backends, for libgcm_get_shared. */
static const char *backend_name(const void *vctx, enum libgcm_param which) {
  const struct gcm_ctx *c = vctx;
  if (c->key == NULL) return "none";
  const gcm_key *k = libgcm_shared_gcm_key(c->key);
  return which == LIBGCM_P_AES_BACKEND ? gcm_key_aes_backend(k)
                                       : gcm_key_ghash_backend(k);
}

/* One context parameter read (libgcm_ctx_get_each): AES-GCM's own here,
 * the ones both ciphers share in cipher_params.c. */
static int get_one(void *vctx, OSSL_PARAM *p, enum libgcm_param id) {
  struct gcm_ctx *c = vctx;
  switch (id) {
    case LIBGCM_P_IV:
      if (c->iv_state == IV_NONE || p->data_size < c->ivlen) {
        LIBGCM_ERR(c->pc, LIBGCM_R_BAD_IV_LENGTH, "no IV, or too small a buffer");
        return 0;
      }
      return set_octets(p, c->iv, c->ivlen);
    case LIBGCM_P_TAG:
      if (!c->enc || !c->tag_ready || p->data_size == 0 ||
          p->data_size > GCM_TAG_LEN || p->data_type != OSSL_PARAM_OCTET_STRING) {
        LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TAG,
                   "the tag is readable after an encrypting final, 1..16 bytes");
        return 0;
      }
      return OSSL_PARAM_set_octet_string(p, c->tag, p->data_size);
    case LIBGCM_P_TLS_AAD_PAD:
      return OSSL_PARAM_set_size_t(p, TLS_TAG_LEN);
    case LIBGCM_P_TLS_IV_GEN:
      return tls_iv_gen(c, p);
    default: {
      const struct libgcm_ctx_shared v = {
          .keylen = c->keylen,
          .ivlen = c->ivlen,
          .taglen = c->taglen != 0 ? c->taglen : GCM_TAG_LEN,
          .backend = backend_name,
          .ctx = c,
      };
      return libgcm_get_shared(p, id, &v);
    }
  }
}

/* tlsaad: the 13-byte TLS 1.2 header (sequence number, type, version,
 * length). The length it carries is the record's; the authenticated one is
 * the payload's, without explicit nonce (and tag, when opening). */
static int set_tls_aad(struct gcm_ctx *c, const OSSL_PARAM *p) {
  if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != TLS_AAD_LEN) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TLS_PARAM, "tlsaad must be 13 bytes");
    return 0;
  }
  uint8_t aad[TLS_AAD_LEN];
  memcpy(aad, p->data, TLS_AAD_LEN);
  size_t len = (size_t)aad[TLS_AAD_LEN - 2] << 8 | aad[TLS_AAD_LEN - 1];
  size_t overhead = TLS_EXPLICIT_IV_LEN + (c->enc ? 0 : TLS_TAG_LEN);
  if (len < overhead) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TLS_PARAM, "record of %zu bytes is too short",
               len);
    return 0;
  }
  len -= overhead;
  aad[TLS_AAD_LEN - 2] = (uint8_t)(len >> 8);
  aad[TLS_AAD_LEN - 1] = (uint8_t)len;
  memcpy(c->tls_aad, aad, TLS_AAD_LEN);
  c->tls_aad_len = TLS_AAD_LEN;
  return 1;
}

/* tlsivfixed: the whole IV, or its fixed leading part (at least 4 bytes,
 * leaving at least 8 for the invocation field, which starts random when
 * encrypting). */
static int set_tls_iv_fixed(struct gcm_ctx *c, const OSSL_PARAM *p) {
  size_t len = p->data_size;
  if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TLS_PARAM, "tlsivfixed: octet string");
    return 0;
  }
  if (len == c->ivlen) {
    memcpy(c->iv, p->data, len);
  } else {
    if (len < TLS_FIXED_IV_LEN || c->ivlen < len + TLS_EXPLICIT_IV_LEN) {
      LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TLS_PARAM,
                 "tlsivfixed of %zu bytes with a %zu-byte IV", len, c->ivlen);
      return 0;
    }
    memcpy(c->iv, p->data, len);
    /* The library's one OS random source (crypto/rand): getrandom, else
     * /dev/urandom, BCryptGenRandom on Windows. Its message names the
     * source that failed. */
    if (c->enc && !gcmi_os_random_bytes(c->iv + len, c->ivlen - len)) {
      LIBGCM_ERR(c->pc, LIBGCM_R_RANDOM_FAILED, "%s", gcm_last_error_message());
      return 0;
    }
  }
  stream_drop(c, IV_BUFFERED);
  c->iv_gen = 1;
  return 1;
}

/* tlsivinv: the explicit nonce of a received record (decrypt only). */
static int set_tls_iv_inv(struct gcm_ctx *c, const OSSL_PARAM *p) {
  if (!c->iv_gen || c->key == NULL || c->enc ||
      p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL ||
      p->data_size == 0 || p->data_size > c->ivlen) {
    LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TLS_PARAM,
               "tlsivinv needs a decrypting context with tlsivfixed");
    return 0;
  }
  memcpy(c->iv + c->ivlen - p->data_size, p->data, p->data_size);
  stream_drop(c, IV_BUFFERED);
  return 1;
}

/* One context parameter set (libgcm_ctx_set_each): AES-GCM's own here,
 * the ones both ciphers share in cipher_params.c. */
static int set_one(void *vctx, const OSSL_PARAM *p, enum libgcm_param id) {
  struct gcm_ctx *c = vctx;
  size_t n;
  switch (id) {
    case LIBGCM_P_IVLEN:
      if (!OSSL_PARAM_get_size_t(p, &n) || n == 0 || n > MAX_IV_LEN) {
        LIBGCM_ERR(c->pc, LIBGCM_R_BAD_IV_LENGTH, "ivlen must be 1..%d",
                   MAX_IV_LEN);
        return 0;
      }
      if (n != c->ivlen) {
        if (!iv_reserve(c, n)) return 0;
        c->ivlen = n;
        stream_drop(c, IV_NONE);
      }
      return 1;
    case LIBGCM_P_TAG:
      if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0 ||
          p->data_size > GCM_TAG_LEN || (p->data != NULL && c->enc)) {
        LIBGCM_ERR(c->pc, LIBGCM_R_BAD_TAG,
                   "a tag of 1..16 bytes, given only when decrypting");
        return 0;
      }
      if (p->data != NULL) memcpy(c->tag, p->data, p->data_size);
      c->taglen = p->data_size;
      return 1;
    case LIBGCM_P_TLS_AAD:
      return set_tls_aad(c, p);
    case LIBGCM_P_TLS_IV_FIXED:
      return set_tls_iv_fixed(c, p);
    case LIBGCM_P_TLS_IV_INV:
      return set_tls_iv_inv(c, p);
    default:
      return libgcm_set_shared(c->pc, p, id, c->keylen);
  }
}

LIBGCM_CTX_PARAM_FUNCTIONS(get_one, set_one, ctx_gettable, ctx_settable)

/* ---- dispatch tables ------------------------------------------------------------- */

LIBGCM_AEAD_DISPATCH(gcm, 128);
LIBGCM_AEAD_DISPATCH(gcm, 192);
LIBGCM_AEAD_DISPATCH(gcm, 256);
