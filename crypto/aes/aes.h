/*
 * crypto/aes/aes.h: the contract every AES implementation meets.
 *
 * GCM needs only the forward cipher: one block for E(K, 0) = H and for the
 * tag mask E(K, J0), and counter mode for the data. Each implementation lives
 * in its own file (aes_ct.c, and the assembly tiers behind their own
 * descriptors) and exports one `const struct aes_impl`.
 *
 * Key schedules are stored in `struct aes_schedule`, a block of opaque
 * storage each implementation lays out as it likes; a static assertion in
 * each file checks that its layout fits.
 */
#ifndef LIBGCM_CRYPTO_AES_AES_H
#define LIBGCM_CRYPTO_AES_AES_H

#include <stddef.h>
#include <stdint.h>

#include "../internal.h"

/* Room for the largest schedule: the SSE2 bitsliced key holds 15 round keys,
 * each as eight 128-bit bit planes (15 * 8 * 16 = 1920 bytes). */
#define AES_SCHEDULE_BYTES 1920

struct aes_schedule {
  GCM_ALIGNED(64) uint8_t bytes[AES_SCHEDULE_BYTES];
  unsigned rounds; /* 10, 12 or 14 */
};

struct aes_impl {
  /* Short, stable name users type: "ct", "aesni", "vpaes". */
  const char *name;
  /* 1 when no secret (key, data) ever selects a branch or a memory address. */
  int constant_time;
  /* Human-readable CPU requirement, e.g. "none", "AES-NI", "SSSE3". */
  const char *requires;
  /* Blocks the counter-mode kernel naturally computes at once. The mode
   * engine asks for key stream in multiples of this when it must buffer. */
  unsigned ctr_batch_blocks;
  /* Returns 1 when this CPU can run the implementation. Reads the cached CPU
   * capabilities (crypto/cpu/cpu.h) only. */
  int (*usable)(void);
  /* Expands a 16, 24 or 32 byte key (the caller has checked key_len). */
  void (*set_encrypt_key)(struct aes_schedule *s, const uint8_t *key,
                          size_t key_len);
  /* out = AES(K, in). in and out may be equal. */
  void (*encrypt_block)(const struct aes_schedule *s, const uint8_t in[16],
                        uint8_t out[16]);
  /* Counter mode with a 32-bit counter: for i in [0, blocks),
   *   out[16i .. 16i+15] = in[16i .. 16i+15] ^ AES(K, ctr + i)
   * where ctr + i adds i to the big-endian 32-bit word ctr[12..15] modulo
   * 2^32 and leaves ctr[0..11] alone. in == out is allowed; any other overlap
   * is not. ctr itself is not updated. blocks may be 0. */
  void (*ctr32)(const struct aes_schedule *s, const uint8_t *in, uint8_t *out,
                size_t blocks, const uint8_t ctr[16]);
};

/* The implementations. Which ones exist depends on the target; the dispatcher
 * (crypto/gcm/backends.c) lists them best first. */
extern GCM_HIDDEN const struct aes_impl aes_ct;
/* ct_sse2 (crypto/aes/aes_ct_sse2.c) exists on every x86 build, assembly or
 * not: it is C with SSE2 intrinsics, chosen at run time on 32-bit x86. */
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || \
    defined(_M_IX86)
#define AES_CT_SSE2_BUILT 1
extern GCM_HIDDEN const struct aes_impl aes_ct_sse2;
#endif
#if defined(LIBGCM_ASM_X86_64) || defined(LIBGCM_ASM_X86)
extern GCM_HIDDEN const struct aes_impl aes_aesni;
extern GCM_HIDDEN const struct aes_impl aes_vpaes;
#endif
#if defined(LIBGCM_ASM_AARCH64)
extern GCM_HIDDEN const struct aes_impl aes_armv8;
extern GCM_HIDDEN const struct aes_impl aes_vpaes_neon;
#endif
#if defined(LIBGCM_ASM_ARM)
extern GCM_HIDDEN const struct aes_impl aes_armv8_32;
extern GCM_HIDDEN const struct aes_impl aes_bsaes_neon;
#endif

#endif /* LIBGCM_CRYPTO_AES_AES_H */
