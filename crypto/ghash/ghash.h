/*
 * crypto/ghash/ghash.h: the contract every GHASH implementation meets.
 *
 * GHASH_H(X_1 .. X_n) is the polynomial evaluation
 *   Y_0 = 0,  Y_i = (Y_{i-1} xor X_i) * H   in GF(2^128) mod x^128+x^7+x^2+x+1
 * in GCM's reflected bit order (SP 800-38D section 6.3): the most significant
 * bit of byte 0 of a block is the coefficient of x^0.
 *
 * The running value Y ("Xi") is kept by the caller as 16 bytes in that same
 * byte order, so a block of Xi is exactly what SP 800-38D writes; each
 * implementation converts to its own internal form on entry and back on exit.
 *
 * An implementation precomputes what it needs from H once per key
 * (`init`) into `struct ghash_key`, opaque storage it lays out as it likes.
 */
#ifndef LIBGCM_CRYPTO_GHASH_GHASH_H
#define LIBGCM_CRYPTO_GHASH_GHASH_H

#include <stddef.h>
#include <stdint.h>

#include "../internal.h"

/* Room for the largest precomputation (tables of multiples or powers of H). */
#define GHASH_KEY_BYTES 1024

struct ghash_key {
  GCM_ALIGNED(64) uint8_t bytes[GHASH_KEY_BYTES];
};

struct ghash_impl {
  /* Short, stable name users type: "ct64", "ct32", "4bit", "clmul", ... */
  const char *name;
  /* 1 when no secret (H, data) ever selects a branch or a memory address. */
  int constant_time;
  /* Human-readable CPU requirement, e.g. "none", "PCLMULQDQ", "SSSE3". */
  const char *requires;
  /* Returns 1 when this CPU can run the implementation. */
  int (*usable)(void);
  /* Precomputes from H = E(K, 0^128), given as 16 bytes in GCM order. */
  void (*init)(struct ghash_key *key, const uint8_t H[16]);
  /* For each of the `blocks` 16-byte blocks X of `in`: Xi = (Xi ^ X) * H.
   * blocks may be 0. `in` need not be aligned. */
  void (*ghash)(uint8_t Xi[16], const struct ghash_key *key, const uint8_t *in,
                size_t blocks);
};

extern GCM_HIDDEN const struct ghash_impl ghash_ct64;
extern GCM_HIDDEN const struct ghash_impl ghash_ct32;
extern GCM_HIDDEN const struct ghash_impl ghash_4bit;
#if defined(LIBGCM_ASM_X86_64) || defined(LIBGCM_ASM_X86)
extern GCM_HIDDEN const struct ghash_impl ghash_clmul;
extern GCM_HIDDEN const struct ghash_impl ghash_ssse3;
extern GCM_HIDDEN const struct ghash_impl ghash_vpclmul_avx2;
#endif
#if defined(LIBGCM_ASM_X86)
extern GCM_HIDDEN const struct ghash_impl ghash_sse2;
#endif
#if defined(LIBGCM_ASM_AARCH64)
extern GCM_HIDDEN const struct ghash_impl ghash_pmull;
extern GCM_HIDDEN const struct ghash_impl ghash_neon;
#endif
#if defined(LIBGCM_ASM_ARM)
extern GCM_HIDDEN const struct ghash_impl ghash_pmull32;
extern GCM_HIDDEN const struct ghash_impl ghash_neon;
#endif

#endif /* LIBGCM_CRYPTO_GHASH_GHASH_H */
