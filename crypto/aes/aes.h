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
 * A key schedule is `struct aes_schedule`: opaque bytes that each
 * implementation lays out as it likes within the `key_bytes` it declares
 * (the guard-byte test, test/key_size_test.cc, checks that no hook touches
 * more). A key on that backend reserves exactly that many bytes, 16-byte
 * aligned (crypto/gcm/key.c lays keys out). Two places are shared: the
 * round-key backends (aesni, vpaes, armv8, ...) keep up to fifteen 16-byte
 * round keys from byte 0 and the round count right after them, where every
 * kernel reads it; the bitsliced backends keep the round count there too
 * and their bit planes from AES_SCHEDULE_PLANES_OFFSET on.
 */
#ifndef LIBGCM_CRYPTO_AES_AES_H
#define LIBGCM_CRYPTO_AES_AES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../internal.h"

/* Where the assembly kernels read (and the key expansions write) the round
 * count Nr, a 32-bit word: right after fifteen round keys (AES-256 has
 * Nr + 1 = 15). This line is the one home of the offset: asm/perlasm/
 * layout.pm reads it from here ($ROUNDS), and the C code reads it through
 * aes_rounds(), so C and the kernels cannot disagree. */
#define AES_SCHEDULE_ROUNDS_OFFSET 240

/* Where a bitsliced schedule's bit planes start: the next 16-byte boundary
 * after the round count (asm/perlasm/layout.pm reads it as $PLANES). */
#define AES_SCHEDULE_PLANES_OFFSET 256

/* What a round-key backend keeps: the round keys and the round count. */
#define AES_SCHEDULE_ROUND_KEYS_BYTES AES_SCHEDULE_PLANES_OFFSET

/* The most any backend keeps (the SSE2 and NEON bitsliced schedules:
 * fifteen round keys of eight 128-bit planes after the first 256 bytes):
 * what the fixed-size gcm_key and the tests reserve. */
#define AES_SCHEDULE_MAX_BYTES (AES_SCHEDULE_PLANES_OFFSET + 15 * 8 * 16)

/* Opaque: a backend's key_bytes, 16-byte aligned. */
struct aes_schedule;

/* The round count at its shared place. */
static inline unsigned aes_rounds(const struct aes_schedule *s) {
  uint32_t nr;
  memcpy(&nr, (const uint8_t *)(const void *)s + AES_SCHEDULE_ROUNDS_OFFSET,
         sizeof(nr));
  return nr;
}
static inline void aes_set_rounds(struct aes_schedule *s, unsigned nr) {
  uint32_t v = nr;
  memcpy((uint8_t *)(void *)s + AES_SCHEDULE_ROUNDS_OFFSET, &v, sizeof(v));
}

/* The bit planes of a bitsliced schedule. */
static inline uint8_t *aes_schedule_planes(struct aes_schedule *s) {
  return (uint8_t *)(void *)s + AES_SCHEDULE_PLANES_OFFSET;
}
static inline const uint8_t *aes_schedule_cplanes(
    const struct aes_schedule *s) {
  return (const uint8_t *)(const void *)s + AES_SCHEDULE_PLANES_OFFSET;
}

/* Room for any backend's schedule, for a schedule outside a key: the
 * tests', and bsaes_neon's conversion of ct's. */
union aes_schedule_room {
  GCM_ALIGNED(16) uint8_t bytes[AES_SCHEDULE_MAX_BYTES];
};
static inline struct aes_schedule *aes_schedule_in(union aes_schedule_room *r) {
  return (struct aes_schedule *)(void *)r->bytes;
}

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
  /* Bytes of a key that this backend's schedule takes, a multiple of 16:
   * what set_encrypt_key writes and the other hooks read, from the start
   * of struct aes_schedule. */
  unsigned key_bytes;
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
