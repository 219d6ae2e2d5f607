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
 * (`init`) into `struct ghash_key`: opaque bytes it lays out as it likes
 * within the `key_bytes` it declares, 16-byte aligned (a key on that
 * backend reserves exactly that many; crypto/gcm/key.c lays keys out).
 *
 * Each implementation lives in its own file, crypto/ghash/ghash_<name>.c,
 * built on every architecture: an assembly backend declares its kernels
 * there, points the hooks at them where the build has them, and otherwise
 * leaves them NULL and reports unusable. crypto/dispatch/dispatch.c says how to
 * add one; its list is the one place that orders them.
 */
#ifndef LIBGCM_CRYPTO_GHASH_GHASH_H
#define LIBGCM_CRYPTO_GHASH_GHASH_H

#include <stddef.h>
#include <stdint.h>

#include "../internal.h"

/* The most any backend keeps (the SSSE3 rows and the aarch64 NEON
 * tables): what the fixed-size gcm_key and the tests reserve. */
#define GHASH_KEY_MAX_BYTES 1024

/* Opaque: a backend's key_bytes, 16-byte aligned. */
struct ghash_key;

static inline uint8_t *ghash_key_bytes(struct ghash_key *k) {
  return (uint8_t *)(void *)k;
}
static inline const uint8_t *ghash_key_cbytes(const struct ghash_key *k) {
  return (const uint8_t *)(const void *)k;
}

/* Room for any backend's key, for a key outside a gcm key (the tests). */
union ghash_key_room {
  GCM_ALIGNED(16) uint8_t bytes[GHASH_KEY_MAX_BYTES];
};
static inline struct ghash_key *ghash_key_in(union ghash_key_room *r) {
  return (struct ghash_key *)(void *)r->bytes;
}

/* The hooks' types. A kernel that a hook points at is declared with one:
 *   GCM_HIDDEN ghash_update_fn gcmi_ghash_x86_64_clmul_blocks;
 * so its prototype cannot drift from the contract below. */
typedef void ghash_init_fn(struct ghash_key *key, const uint8_t H[16]);
typedef void ghash_init_for_fn(struct ghash_key *key, const uint8_t H[16],
                               size_t max_blocks);
typedef void ghash_update_fn(uint8_t Xi[16], const struct ghash_key *key,
                             const uint8_t *in, size_t blocks);

struct ghash_impl {
  /* Short, stable name users type: "ct64", "ct32", "4bit", "clmul", ... */
  const char *name;
  /* 1 when no secret (H, data) ever selects a branch or a memory address. */
  int constant_time;
  /* Human-readable CPU requirement, e.g. "none", "PCLMULQDQ", "SSSE3". */
  const char *requires;
  /* 1 when a 64x64-bit carry-less product is one CPU instruction
   * (PCLMULQDQ, VPCLMULQDQ, the Armv8 PMULL/PMULL2 and VMULL.P64), so GHASH
   * runs at a few cycles a block; 0 when the product is built in software
   * (integer multiplies, vector permutes, or NEON's 8-bit polynomial
   * multiplies, eight of them per 64-bit product). The AES counterpart is
   * struct aes_impl's hardware_rounds; EVP_has_aes_hardware
   * (crypto/aead/compat.c) asks both. */
  int hardware_multiply;
  /* Bytes of a key that init writes and update reads, a multiple of 16. */
  unsigned key_bytes;
  /* Returns 1 when this build has the implementation's code and this CPU
   * can run it. Asks the named queries of crypto/cpu/cpu.h only. */
  int (*usable)(void);
  /* Precomputes from H = E(K, 0^128), given as 16 bytes in GCM order. */
  ghash_init_fn *init;
  /* For each of the `blocks` 16-byte blocks X of `in`: Xi = (Xi ^ X) * H.
   * blocks may be 0. `in` need not be aligned. NULL (like init, for an
   * assembly backend) when this build lacks the kernel. */
  ghash_update_fn *update;
  /* Optional (NULL: AES-GCM-SIV byte-reverses every block and calls
   * update): POLYVAL (RFC 8452, section 3) on a key that `init` set up
   * with the GHASH key of POLYVAL's key h, mulX_GHASH(ByteReverse(h))
   * (crypto/siv/polyval.c). For each block X of `in`, in RFC 8452's byte
   * order: S = (S ^ X) * h * x^-128 in POLYVAL's field, with S (the first
   * argument) in that byte order too. By the RFC's appendix A this is
   * update with every block and S byte-reversed, which is why a kernel
   * that byte-swaps its GHASH input gets it by leaving the swaps out. */
  ghash_update_fn *polyval_update;
  /* Optional (NULL: init): init for a key that will only see calls of at
   * most max_blocks (>= 1) blocks each, so a backend that aggregates with
   * powers of H computes only the powers such calls read. The calls are
   * polyval_update's when the backend has one (such a key need not serve
   * update: ssse3's does not), else update's. AES-GCM-SIV sets up a GHASH
   * key for every message and knows how many blocks that message hashes. */
  ghash_init_for_fn *init_for;
};

/* The implementations, one descriptor per file
 * (crypto/ghash/ghash_<name>.c), listed best first by
 * crypto/dispatch/dispatch.c. */
extern GCM_HIDDEN const struct ghash_impl gcmi_ghash_ct64;   /* portable */
extern GCM_HIDDEN const struct ghash_impl gcmi_ghash_ct32;   /* portable */
extern GCM_HIDDEN const struct ghash_impl gcmi_ghash_4bit;   /* variable time */
extern GCM_HIDDEN const struct ghash_impl gcmi_ghash_clmul;  /* x86, x86_64 */
extern GCM_HIDDEN const struct ghash_impl gcmi_ghash_ssse3;  /* x86, x86_64 */
extern GCM_HIDDEN const struct ghash_impl gcmi_ghash_vpclmul_avx2; /* x86_64 */
extern GCM_HIDDEN const struct ghash_impl gcmi_ghash_sse2;   /* 32-bit x86 */
extern GCM_HIDDEN const struct ghash_impl gcmi_ghash_pmull;  /* aarch64 */
extern GCM_HIDDEN const struct ghash_impl gcmi_ghash_neon_aarch64; /* aarch64 */
extern GCM_HIDDEN const struct ghash_impl gcmi_ghash_pmull32; /* 32-bit ARM */
extern GCM_HIDDEN const struct ghash_impl gcmi_ghash_neon_armv4; /* 32-bit ARM */

#endif /* LIBGCM_CRYPTO_GHASH_GHASH_H */
