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
#include "../ghash/ghash.h"
#include "../internal.h"

/* Room for one AES schedule, whatever the backend: the key-generating
 * key's (in struct gcm_siv_key_st) and K_enc's. */
struct siv_aes_room {
  struct aes_schedule s;
};

static inline const struct aes_schedule *siv_schedule(
    const struct siv_aes_room *r) {
  return &r->s;
}

/* The keys of one message: the message-encryption key as the AES backend
 * expands it, and the message-authentication key as the GHASH backend
 * precomputes it (for the GHASH key POLYVAL's key maps to). */
struct siv_message_keys {
  struct siv_aes_room enc;
  struct ghash_key hash;
};

static inline const struct aes_schedule *siv_enc(
    const struct siv_message_keys *mk) {
  return siv_schedule(&mk->enc);
}
static inline const struct ghash_key *siv_hash(
    const struct siv_message_keys *mk) {
  return &mk->hash;
}

/* Expands the key-generating key into `r` (the one per-key schedule). */
static inline void siv_expand_kgk(const struct aes_impl *aes,
                                  struct siv_aes_room *r, const uint8_t *key,
                                  size_t key_len) {
  aes->set_encrypt_key(&r->s, key, key_len);
}

/* Expands the message-encryption key (16 or 32 bytes). */
static inline void siv_expand_enc(const struct aes_impl *aes,
                                  struct siv_message_keys *mk,
                                  const uint8_t *key, size_t key_len) {
  aes->set_encrypt_key(&mk->enc.s, key, key_len);
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
    wide(&mk->hash, h, max);
  } else if (ghash->init_for != NULL) {
    ghash->init_for(&mk->hash, h, max);
  } else {
    ghash->init(&mk->hash, h);
  }
}

/* Wipes a message's keys: all of their room (the backends do not say how
 * much of it they wrote). */
static inline void siv_message_keys_wipe(struct siv_message_keys *mk) {
  gcmi_secure_wipe(mk, sizeof(*mk));
}

#endif /* LIBGCM_CRYPTO_SIV_SIV_KEYS_H */
