/*
 * crypto/aes/aes.h: the contract every AES implementation meets.
 *
 * GCM needs only the forward cipher: one block for E(K, 0) = H and for the
 * tag mask E(K, J0), and counter mode for the data. Each implementation lives
 * in its own file, crypto/aes/aes_<name>.c, and exports one
 * `const struct aes_impl`. The file is built on every architecture: an
 * assembly backend declares its kernels there, points the hooks at them
 * where the build has them, and otherwise leaves the hooks NULL and
 * reports unusable. crypto/dispatch/dispatch.c says how to add one; its list is
 * the one place that orders them.
 *
 * Hooks take outputs first, as the public API does.
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

/* Where the assembly kernels read (and the key expansions write) `rounds`,
 * as a 32-bit word: right after the round-key bytes. This line is the one
 * home of the offset: asm/perlasm/layout.pm reads it from here ($ROUNDS),
 * so C and the kernels cannot disagree, and the assertions below check
 * that the structure puts the field there. */
#define AES_SCHEDULE_ROUNDS_OFFSET AES_SCHEDULE_BYTES

struct aes_schedule {
  GCM_ALIGNED(64) uint8_t bytes[AES_SCHEDULE_BYTES];
  unsigned rounds; /* 10, 12 or 14 */
};

#if !defined(__cplusplus)
_Static_assert(offsetof(struct aes_schedule, rounds) ==
                   AES_SCHEDULE_ROUNDS_OFFSET,
               "the kernels read rounds at AES_SCHEDULE_ROUNDS_OFFSET");
_Static_assert(sizeof(((struct aes_schedule *)0)->rounds) == 4,
               "the kernels read rounds as a 32-bit word");
#endif

/* The hooks' types. A kernel that a hook points at is declared with one:
 *   GCM_HIDDEN aes_ctr32_fn gcmi_aes_x86_64_aesni_ctr32;
 * so its prototype cannot drift from the contract below. */
typedef void aes_set_encrypt_key_fn(struct aes_schedule *s, const uint8_t *key,
                                    size_t key_len);
typedef void aes_encrypt_block_fn(const struct aes_schedule *s,
                                  uint8_t out[16], const uint8_t in[16]);
typedef void aes_ctr32_fn(const struct aes_schedule *s, uint8_t *out,
                          const uint8_t *in, size_t blocks,
                          const uint8_t ctr[16]);

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
  /* 1 when the rounds are CPU instructions (AES-NI, the ARMv8 AES
   * instructions), so a block of key stream costs a few cycles; 0 for
   * rounds in software (bitsliced, vector permutes), where one block costs
   * more than a backend call. A stream may make key stream it then gives
   * back unused only in the first case (the stream policy's use-up rule,
   * crypto/gcm/stream_plan.h). */
  int hardware_rounds;
  /* Returns 1 when this build has the implementation's code and this CPU
   * can run it. Asks the named queries of crypto/cpu/cpu.h only. */
  int (*usable)(void);
  /* The operations; NULL when this build lacks the kernels (never usable).
   * Expands a 16, 24 or 32 byte key (the caller has checked key_len). */
  aes_set_encrypt_key_fn *set_encrypt_key;
  /* out = AES(K, in). in and out may be equal. */
  aes_encrypt_block_fn *encrypt_block;
  /* Counter mode with a 32-bit counter: for i in [0, blocks),
   *   out[16i .. 16i+15] = in[16i .. 16i+15] ^ AES(K, ctr + i)
   * where ctr + i adds i to the big-endian 32-bit word ctr[12..15] modulo
   * 2^32 and leaves ctr[0..11] alone. in == out is allowed; any other overlap
   * is not. ctr itself is not updated. blocks may be 0. */
  aes_ctr32_fn *ctr32;
  /* Optional (NULL: AES-GCM-SIV encrypts its counter blocks one at a time
   * with encrypt_block): the same counter mode with AES-GCM-SIV's counter
   * (RFC 8452), where ctr + i adds i to the LITTLE-endian 32-bit word
   * ctr[0..3] modulo 2^32 and leaves ctr[4..15] alone. Everything else as
   * ctr32. (crypto/siv uses it for the key stream and, over zeros, for the
   * per-nonce key derivation.) */
  aes_ctr32_fn *ctr32le;
};

/* The implementations, one descriptor per file (crypto/aes/aes_<name>.c),
 * listed best first by crypto/dispatch/dispatch.c. */
extern GCM_HIDDEN const struct aes_impl gcmi_aes_ct;     /* portable, bitsliced */
extern GCM_HIDDEN const struct aes_impl gcmi_aes_ct_sse2; /* x86, x86_64: SSE2 */
extern GCM_HIDDEN const struct aes_impl gcmi_aes_aesni;  /* x86, x86_64 */
extern GCM_HIDDEN const struct aes_impl gcmi_aes_vpaes;  /* x86, x86_64 */
extern GCM_HIDDEN const struct aes_impl gcmi_aes_armv8;  /* aarch64 */
extern GCM_HIDDEN const struct aes_impl gcmi_aes_vpaes_neon; /* aarch64 */
extern GCM_HIDDEN const struct aes_impl gcmi_aes_armv8_32; /* 32-bit ARM */
extern GCM_HIDDEN const struct aes_impl gcmi_aes_bsaes_neon; /* 32-bit ARM */

#endif /* LIBGCM_CRYPTO_AES_AES_H */
