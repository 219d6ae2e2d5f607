/*
 * crypto/gcm/engine.h: what the one-shot paths (crypto/gcm/oneshot.c), the
 * stream engine (crypto/gcm/stream.c) and its policy
 * (crypto/gcm/stream_plan.c) share.
 */
#ifndef LIBGCM_CRYPTO_GCM_ENGINE_H
#define LIBGCM_CRYPTO_GCM_ENGINE_H

#include <stdint.h>

#include "../aes/aes.h"
#include "../internal.h"
#include "stream_plan.h"

/* The input of key stream made on its own: counter mode over zeros.
 * Reading it costs no stores before the kernel runs (a memset of the
 * output would, and the kernel's loads would wait on them). */
extern GCM_HIDDEN const uint8_t gcmi_ks_zeros[GCM_KS_MAX_BLOCKS * 16];

/* The AES backend's batch (blocks per ctr32 call at the price of fewer),
 * clamped to what a stream buffers. */
static inline unsigned gcm_batch_blocks(const struct aes_impl *aes) {
  unsigned b = aes->ctr_batch_blocks;
  if (b < 1) b = 1;
  if (b > GCM_KS_MAX_BLOCKS) b = GCM_KS_MAX_BLOCKS;
  return b;
}

#endif /* LIBGCM_CRYPTO_GCM_ENGINE_H */
