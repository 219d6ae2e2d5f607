/*
 * crypto/siv/siv_mode.h: the AES-GCM-SIV mode (RFC 8452), below the API.
 *
 * The API layer (crypto/aead/aead_siv.c) checks arguments, lengths and
 * aliasing; this layer assumes they are valid and runs the mode on the
 * key's AES and GHASH descriptors (crypto/siv/siv.c): the per-nonce key
 * derivation, POLYVAL through the GHASH backend (crypto/siv/polyval.c),
 * the tag and counter mode with the little-endian 32-bit counter.
 *
 * This mode sits beside the GCM engine (crypto/gcm), not inside it: the
 * two share the backends and nothing else. Its only contact with the
 * backends' key layouts is crypto/siv/siv_keys.h.
 */
#ifndef LIBGCM_CRYPTO_SIV_SIV_MODE_H
#define LIBGCM_CRYPTO_SIV_SIV_MODE_H

#include <stddef.h>
#include <stdint.h>

#include "../aes/aes.h"
#include "../fused/fused.h"
#include "../ghash/ghash.h"
#include "../internal.h"
#include "polyval.h"
#include "siv_keys.h"

/* Marks an initialised gcm_siv_key. A cleaned (zeroed) key lacks it. */
#define GCM_SIV_KEY_MAGIC 0x67637369u /* "gcsi" */

/* The start of every AES-GCM-SIV key, inside the public gcm_siv_key (or
 * the bytes an EVP_AEAD_CTX keeps for its key): immutable after
 * gcm_siv_mode_key_init. As a gcm_key's (crypto/gcm/mode.h), the key
 * takes exactly what its backends keep:
 *
 *   [0, 32)                    this header
 *   [32, 32 + aes->key_bytes)  the key-generating key's AES schedule
 *
 * and nothing else: the per-message keys live on the stack of a seal or
 * open, and a fused kernel with AES-GCM-SIV functions keeps nothing of
 * its own (gcm_siv_fused_fits). */
struct gcm_siv_key_st {
  uint32_t magic;
  uint32_t key_len; /* 16 or 32 */
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  /* A fused kernel of the pair with AES-GCM-SIV functions (fused.h's
   * siv_open, and siv_ctr32le and siv_polyval if it has them), or NULL:
   * the two backends' ctr32le and polyval_update hooks only. */
  const struct fused_impl *fused;
};

/* Where the key-generating key's schedule starts. */
#define GCM_SIV_KEY_HEADER_BYTES 32

/* The largest AES-GCM-SIV key: what the fixed-size gcm_siv_key holds
 * (aead_siv.c asserts it, with the placement). */
#define GCM_SIV_KEY_MAX_BYTES (GCM_SIV_KEY_HEADER_BYTES + AES_SCHEDULE_MAX_BYTES)

#if !defined(__cplusplus)
_Static_assert(sizeof(struct gcm_siv_key_st) <= GCM_SIV_KEY_HEADER_BYTES,
               "the header fits before the AES schedule");
#endif

/* The bytes a key on `aes` takes, header included: what
 * gcm_siv_mode_key_init writes and every later call reads. */
static inline size_t gcm_siv_mode_key_bytes(const struct aes_impl *aes) {
  return GCM_SIV_KEY_HEADER_BYTES + aes->key_bytes;
}

/* The bytes key k takes, header included. */
static inline size_t gcm_siv_key_st_bytes(const struct gcm_siv_key_st *k) {
  return gcm_siv_mode_key_bytes(k->aes);
}

/* The key-generating key's schedule. */
static inline const struct aes_schedule *gcm_siv_key_kgk(
    const struct gcm_siv_key_st *k) {
  return (const struct aes_schedule *)(const void *)((const uint8_t *)k +
                                                     GCM_SIV_KEY_HEADER_BYTES);
}

/* 1 when a key on the pair (aes, ghash) can use fused kernel f: f has
 * AES-GCM-SIV's open, and the pair has the hooks the rest of the mode
 * goes through beside it (ctr32le, polyval_update), whose key layouts
 * f's functions read. */
static inline int gcm_siv_fused_fits(const struct fused_impl *f,
                                     const struct aes_impl *aes,
                                     const struct ghash_impl *ghash) {
  return f != NULL && f->siv_open != NULL && f->init == NULL &&
         (f->siv_hash_init == NULL || f->siv_polyval != NULL) &&
         aes->ctr32le != NULL && ghash->polyval_update != NULL;
}

/* Lays the key out at k, 16-byte aligned, in gcm_siv_mode_key_bytes(aes)
 * bytes that the caller has zeroed: expands the key-generating key (16 or
 * 32 bytes) with `aes` and records the pair and the fused kernel (NULL, or
 * one that gcm_siv_fused_fits). */
GCM_HIDDEN void gcm_siv_mode_key_init(struct gcm_siv_key_st *k,
                                      const struct aes_impl *aes,
                                      const struct ghash_impl *ghash,
                                      const struct fused_impl *fused,
                                      const uint8_t *key, size_t key_len);

/* Seals: writes len bytes of ciphertext to out (out == in allowed) and the
 * 16-byte tag. Arguments have been checked (lengths within RFC 8452's
 * limits). Leaves no derived key, hash or key stream on the stack. */
GCM_HIDDEN void gcm_siv_mode_seal(const struct gcm_siv_key_st *k,
                                  const uint8_t nonce[12], const uint8_t *in,
                                  size_t len, const uint8_t *aad,
                                  size_t aad_len, uint8_t *out,
                                  uint8_t tag[16]);

/* Opens: decrypts len bytes of `in` into out (out == in allowed) with the
 * counter taken from `tag`, and writes the tag the plaintext and AAD call
 * for to `expected`. The caller compares the two in constant time and
 * wipes out when they differ. */
GCM_HIDDEN void gcm_siv_mode_open(const struct gcm_siv_key_st *k,
                                  const uint8_t nonce[12], const uint8_t *in,
                                  size_t len, const uint8_t *aad,
                                  size_t aad_len, const uint8_t tag[16],
                                  uint8_t *out, uint8_t expected[16]);

/* ---- a message in pieces ---------------------------------------------------
 *
 * For callers whose message comes in several buffers (the BoringSSL
 * shim's vectored calls): the same computation as the two calls above,
 * one step at a time, on a struct the caller keeps on its stack. Sealing:
 * start, aad (any number of calls), hash_data over the plaintext (any
 * number of calls), tag, crypt_from(tag), crypt over the pieces, wipe.
 * Opening: start, aad, crypt_from(received tag), then crypt and hash_data
 * over each piece of plaintext as it is made, tag (the expected one),
 * wipe. Bytes given in several calls count as their concatenation. */
struct siv_message {
  const struct gcm_siv_key_st *k;
  uint8_t nonce[12];
  uint8_t hashing_data; /* 1 once hash_data has ended the AAD */
  uint64_t aad_len, data_len;
  uint32_t next_block;  /* counter of the next block of key stream */
  size_t ks_left;       /* unused bytes at the end of ks */
  GCM_ALIGNED(16) uint8_t cb[16]; /* the initial counter block */
  GCM_ALIGNED(16) uint8_t ks[16];
  struct polyval_feed hash;
  struct siv_message_keys keys;
};

/* The number of blocks POLYVAL reads for aad_len bytes of AAD and len of
 * data: both padded, and the length block. */
static inline uint64_t siv_polyval_blocks(uint64_t aad_len, uint64_t len) {
  return (aad_len + 15) / 16 + (len + 15) / 16 + 1;
}

/* Starts a message whose AAD and data take `polyval_blocks` blocks of
 * POLYVAL input (siv_polyval_blocks: calls of the GHASH backend never
 * take more). */
GCM_HIDDEN void gcm_siv_message_start(struct siv_message *m,
                                      const struct gcm_siv_key_st *k,
                                      const uint8_t nonce[12],
                                      uint64_t polyval_blocks);
GCM_HIDDEN void gcm_siv_message_aad(struct siv_message *m, const uint8_t *aad,
                                    size_t len);
GCM_HIDDEN void gcm_siv_message_hash_data(struct siv_message *m,
                                          const uint8_t *in, size_t len);
GCM_HIDDEN void gcm_siv_message_tag(struct siv_message *m, uint8_t tag[16]);
GCM_HIDDEN void gcm_siv_message_crypt_from(struct siv_message *m,
                                           const uint8_t tag[16]);
GCM_HIDDEN void gcm_siv_message_crypt(struct siv_message *m, uint8_t *out,
                                      const uint8_t *in, size_t len);
GCM_HIDDEN void gcm_siv_message_wipe(struct siv_message *m);

#endif /* LIBGCM_CRYPTO_SIV_SIV_MODE_H */
