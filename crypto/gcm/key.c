/*
 * crypto/gcm/key.c: a key's layout and its set-up.
 *
 * A key takes exactly what its backends keep: a 32-byte header (magic, key
 * length, the three descriptors and where each region starts), then the
 * AES schedule, the GHASH key and the fused kernel's own data, each at the
 * size its descriptor states (key_bytes, a multiple of 16) and so each
 * 16-byte aligned when the key is (crypto/gcm/mode.h draws it). The layout
 * is a function of the three descriptors alone: gcm_mode_key_bytes says
 * how much memory a key on them needs before it exists (the native API's
 * size query), and gcm_mode_key_init lays it out the same way.
 *
 * Set-up: the AES backend expands the key, E(K, 0^128) = H, the GHASH
 * backend precomputes from H, the fused kernel (if it keeps anything) from
 * both, and H is wiped.
 */
#include "mode.h"

size_t gcm_mode_key_bytes(const struct aes_impl *aes,
                          const struct ghash_impl *ghash,
                          const struct fused_impl *fused) {
  return GCM_KEY_HEADER_BYTES + aes->key_bytes + ghash->key_bytes +
         (fused != NULL ? fused->key_bytes : 0);
}

void gcm_mode_key_init(struct gcm_key_st *k, const struct aes_impl *aes,
                       const struct ghash_impl *ghash,
                       const struct fused_impl *fused, const uint8_t *key,
                       size_t key_len) {
  _Alignas(16) uint8_t H[16] = {0};
  const unsigned ghash_at = (GCM_KEY_HEADER_BYTES + aes->key_bytes) / 16;
  const unsigned fused_at = ghash_at + ghash->key_bytes / 16;
  k->aes = aes;
  k->ghash = ghash;
  k->fused = fused;
  k->key_len = (uint8_t)key_len;
  k->ghash_at = (uint8_t)ghash_at;
  k->fused_at = (uint8_t)fused_at;
  k->units = (uint8_t)(gcm_mode_key_bytes(aes, ghash, fused) / 16);
  uint8_t *base = (uint8_t *)(void *)k;
  struct aes_schedule *schedule =
      (struct aes_schedule *)(void *)(base + GCM_KEY_HEADER_BYTES);
  struct ghash_key *ghash_key = (struct ghash_key *)(void *)(base + 16 * ghash_at);
  aes->set_encrypt_key(schedule, key, key_len);
  aes->encrypt_block(schedule, H, H);
  ghash->init(ghash_key, H);
  if (fused != NULL && fused->init != NULL) {
    fused->init((struct fused_key *)(void *)(base + 16 * fused_at), schedule,
                ghash_key, H);
  }
  gcmi_secure_wipe(H, sizeof(H));
  k->magic = GCM_KEY_MAGIC;
}
