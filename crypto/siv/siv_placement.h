/*
 * crypto/siv/siv_placement.h: where the internal AES-GCM-SIV key lives
 * inside the public gcm_siv_key, whatever address that is at.
 *
 * The same scheme as gcm_key's (crypto/gcm/placement.h, which explains
 * it): opaque[0] holds the offset (1 .. 16) of the internal struct, which
 * sits at the first 16-byte boundary after byte 0, or 0 when the key is
 * not initialised. A memcpy copy at another remainder modulo 16 keeps its
 * old offset; calls on it copy the struct to an aligned place on their
 * stack (crypto/aead/aead_siv.c).
 */
#ifndef LIBGCM_CRYPTO_SIV_SIV_PLACEMENT_H
#define LIBGCM_CRYPTO_SIV_SIV_PLACEMENT_H

#include <gcm/gcm.h>

#include "../gcm/placement.h"
#include "siv_mode.h"

static inline unsigned char *gcm_siv_key_bytes(gcm_siv_key *k) {
  return (unsigned char *)(void *)k;
}
static inline const unsigned char *gcm_siv_key_cbytes(const gcm_siv_key *k) {
  return (const unsigned char *)(const void *)k;
}

/* The aligned place of the internal key inside `k`, for initialising it. */
static inline struct gcm_siv_key_st *gcm_siv_key_place(gcm_siv_key *k) {
  return (struct gcm_siv_key_st *)gcm_place_at(gcm_siv_key_bytes(k),
                                               GCM_KEY_PLACE_ALIGN);
}

/* The internal key of `k` when it is initialised and at its aligned place,
 * else NULL (not initialised, cleaned up, or a copy at another offset:
 * gcm_siv_key_moved). */
static inline const struct gcm_siv_key_st *gcm_siv_key_placed(
    const gcm_siv_key *k) {
  const struct gcm_siv_key_st *ks =
      (const struct gcm_siv_key_st *)gcm_place_current(gcm_siv_key_cbytes(k),
                                                       GCM_KEY_PLACE_ALIGN);
  return ks != NULL && ks->magic == GCM_SIV_KEY_MAGIC ? ks : NULL;
}

/* The offset of the internal key of a memcpy copy whose placement byte is
 * not this address's (1 .. 16), or 0 when `k` is at its place or not
 * initialised at all (gcm_place_moved). Its magic is checked after
 * copying it to an aligned place. */
static inline size_t gcm_siv_key_moved(const gcm_siv_key *k) {
  return gcm_place_moved(gcm_siv_key_cbytes(k), GCM_KEY_PLACE_ALIGN);
}

#endif /* LIBGCM_CRYPTO_SIV_SIV_PLACEMENT_H */
