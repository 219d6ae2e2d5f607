/*
 * crypto/siv/siv_keys.h: where AES-GCM-SIV touches the backends' key
 * layouts, all of it.
 *
 * The mode keeps three keys in the backends' own formats: the
 * key-generating key (per gcm_siv_key, in struct gcm_siv_key_st) and, per
 * message, the message-encryption key (an AES schedule) and the
 * message-authentication key (the GHASH backend's precomputation for
 * POLYVAL, crypto/siv/polyval.c). Every place that lays out, expands,
 * initialises or wipes one of them is a function here, so a change in how
 * struct aes_schedule or struct ghash_key are stored or sized is a change
 * to this header alone. Everything else passes the pointers these return
 * to the descriptors' hooks.
 *
 * The per-message keys live on the stack of one seal or open and are
 * wiped before it returns (siv_message_keys_wipe): they are secret, and a
 * message key left behind would let anyone holding a stack dump open that
 * message or forge others under its nonce.
 */
#ifndef LIBGCM_CRYPTO_SIV_SIV_KEYS_H
#define LIBGCM_CRYPTO_SIV_SIV_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "../aes/aes.h"
#include "../fused/fused.h"
#include "../ghash/ghash.h"
#include "../internal.h"

/* The keys of one message, on the stack: the message-encryption key as
 * the AES backend expands it, and the message-authentication key as the
 * GHASH backend precomputes it (for the GHASH key POLYVAL's key maps to),
 * each in room for the largest any backend keeps (the backends write only
 * their key_bytes of it). */
struct siv_message_keys {
  union aes_schedule_room enc;
  union ghash_key_room hash;
  /* The bytes of each room the set-up wrote (the backend's key_bytes,
   * which bound a fused kernel's siv_hash_init too): what
   * siv_message_keys_wipe clears. */
  unsigned enc_bytes, hash_bytes;
};

static inline const struct aes_schedule *siv_enc(
    const struct siv_message_keys *mk) {
  return (const struct aes_schedule *)(const void *)mk->enc.bytes;
}
static inline const struct ghash_key *siv_hash(
    const struct siv_message_keys *mk) {
  return (const struct ghash_key *)(const void *)mk->hash.bytes;
}

/* Expands the key-generating key into `kgk`, the aes->key_bytes of a
 * gcm_siv_key after its header (crypto/siv/siv_mode.h lays it out). */
static inline void siv_expand_kgk(const struct aes_impl *aes,
                                  struct aes_schedule *kgk, const uint8_t *key,
                                  size_t key_len) {
  aes->set_encrypt_key(kgk, key, key_len);
}

/* Expands the message-encryption key (16 or 32 bytes). */
static inline void siv_expand_enc(const struct aes_impl *aes,
                                  struct siv_message_keys *mk,
                                  const uint8_t *key, size_t key_len) {
  aes->set_encrypt_key(aes_schedule_in(&mk->enc), key, key_len);
  mk->enc_bytes = aes->key_bytes;
}

/* Derives the message's keys with a fused kernel's siv_keys (fused.h):
 * K_enc expanded into mk->enc as `aes` (the kernel's pair's AES backend)
 * lays it out, K_auth (16 bytes) into auth. */
static inline void siv_derive_keys(fused_siv_keys_fn *fn,
                                   const struct aes_impl *aes,
                                   const struct aes_schedule *kgk,
                                   const uint8_t nonce[12], uint8_t auth[16],
                                   struct siv_message_keys *mk) {
  fn(kgk, nonce, auth, aes_schedule_in(&mk->enc));
  mk->enc_bytes = aes->key_bytes;
}

/* Both message keys with a fused kernel's siv_keys_hash (fused.h): K_enc
 * expanded into mk->enc as `aes` lays it out, and the GHASH key of the
 * POLYVAL key into mk->hash as `ghash`'s init_for(max_blocks) makes it. */
static inline void siv_derive_keys_hash(fused_siv_keys_hash_fn *fn,
                                        const struct aes_impl *aes,
                                        const struct ghash_impl *ghash,
                                        const struct aes_schedule *kgk,
                                        const uint8_t nonce[12],
                                        struct siv_message_keys *mk,
                                        uint64_t max_blocks) {
  const size_t max = max_blocks < SIZE_MAX ? (size_t)max_blocks : SIZE_MAX;
  fn(kgk, nonce, ghash_key_in(&mk->hash), aes_schedule_in(&mk->enc), max);
  mk->enc_bytes = aes->key_bytes;
  mk->hash_bytes = ghash->key_bytes;
}

/* Precomputes the GHASH backend's key for GHASH key `h` (16 bytes, GCM
 * order), which crypto/siv/polyval.c derives from the POLYVAL key, for
 * calls of at most max_blocks blocks (the message's whole POLYVAL input:
 * a backend with init_for then computes only the powers those read);
 * with `wide` (a fused kernel's siv_hash_init) when it is not NULL. */
static inline void siv_init_hash(const struct ghash_impl *ghash,
                                 ghash_init_for_fn *wide,
                                 struct siv_message_keys *mk,
                                 const uint8_t h[16], uint64_t max_blocks) {
  const size_t max = max_blocks < SIZE_MAX ? (size_t)max_blocks : SIZE_MAX;
  if (wide != NULL) {
    /* Within the GHASH backend's key_bytes too (fused.h). */
    wide(ghash_key_in(&mk->hash), h, max);
    mk->hash_bytes = ghash->key_bytes;
  } else if (ghash->init_for != NULL) {
    ghash->init_for(ghash_key_in(&mk->hash), h, max);
    mk->hash_bytes = ghash->key_bytes;
  } else {
    ghash->init(ghash_key_in(&mk->hash), h);
    mk->hash_bytes = ghash->key_bytes;
  }
}

/* Wipes a message's keys: the bytes their set-up wrote (a short message
 * on AES-NI and CLMUL spent a tenth of its time clearing all 3 KiB of
 * both rooms). */
static inline void siv_message_keys_wipe(struct siv_message_keys *mk) {
  secure_wipe_inline(mk->enc.bytes, mk->enc_bytes);
  secure_wipe_inline(mk->hash.bytes, mk->hash_bytes);
}

#endif /* LIBGCM_CRYPTO_SIV_SIV_KEYS_H */
