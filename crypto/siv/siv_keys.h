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

/* The keys of one message: the message-encryption key as the AES backend
 * expands it, and the message-authentication key as the GHASH backend
 * precomputes it (for the GHASH key POLYVAL's key maps to). */
struct siv_message_keys {
  struct aes_schedule enc;
  struct ghash_key hash;
};

/* Expands the key-generating key into `s` (the one per-key schedule). */
static inline void siv_expand_kgk(const struct aes_impl *aes,
                                  struct aes_schedule *s, const uint8_t *key,
                                  size_t key_len) {
  aes->set_encrypt_key(s, key, key_len);
}

/* Expands the message-encryption key (16 or 32 bytes). */
static inline void siv_expand_enc(const struct aes_impl *aes,
                                  struct siv_message_keys *mk,
                                  const uint8_t *key, size_t key_len) {
  aes->set_encrypt_key(&mk->enc, key, key_len);
}

/* Precomputes the GHASH backend's key for GHASH key `h` (16 bytes, GCM
 * order), which crypto/siv/polyval.c derives from the POLYVAL key. */
static inline void siv_init_hash(const struct ghash_impl *ghash,
                                 struct siv_message_keys *mk,
                                 const uint8_t h[16]) {
  ghash->init(&mk->hash, h);
}

static inline void siv_message_keys_wipe(struct siv_message_keys *mk) {
  gcmi_secure_wipe(mk, sizeof(*mk));
}

#endif /* LIBGCM_CRYPTO_SIV_SIV_KEYS_H */
