/*
 * crypto/aes/aes_bsaes_neon.c: bitsliced AES on NEON for 32-bit ARM
 * ("bsaes_neon"), for NEON cores without the AES instructions
 * (Cortex-A7/A8/A9/A15 class).
 *
 * Counter mode is asm/armv4/aes-bsaes-neon-armv4.pl, whose opening comment
 * explains it: the bitsliced rounds of crypto/aes/aes_bitsliced_rounds.h
 * (fixsliced ShiftRows; an S-box circuit in Boyar and Peralta's GF(2^4)
 * tower, rearranged to fit the sixteen q registers) on eight blocks held
 * as eight 128-bit NEON bit planes.
 *
 * Key set-up, here in C, once per key: the portable "ct" key schedule
 * (crypto/aes/aes_ct.c) expands the key and stores every round key already
 * permuted (SR^-j), with the S-box constant folded in and bitsliced for
 * four blocks: in its 64-bit plane i, nibble k is 0x0 or 0xf, bit i of
 * round-key byte k. The kernel's planes are the same for eight blocks:
 * byte k of its 128-bit plane i is 0x00 or 0xff. So the conversion widens
 * every nibble to a byte, with masks, not branches.
 *
 * encrypt_block (H and the tag mask) is the counter-mode kernel over one
 * zero block with the input block as the counter: AES(K, in + 0) ^ 0. The
 * kernel reads the counter block before it writes anything, so in == out
 * works.
 *
 * Constant time: the conversion is shifts, ANDs and negations of key bits;
 * the ct key schedule and the kernel have no table and no branch on a
 * secret (see their comments; the secret-register check proves it for the
 * kernel).
 */
#include <stddef.h>
#include <string.h>

#include "../cpu/cpu.h"
#include "aes.h"

#if defined(LIBGCM_ASM_ARM)
/* asm/armv4/aes-bsaes-neon-armv4.pl: counter mode only, eight blocks per
 * pass; it reads ctr completely before it writes out. The schedule and
 * encrypt_block are C, below. */
#define BSAES_NEON_CTR32 gcmi_aes_armv4_bsaes_neon_ctr32
GCM_HIDDEN aes_ctr32_fn BSAES_NEON_CTR32;
#define BSAES_NEON_BUILT 1
#else
#define BSAES_NEON_BUILT 0
#endif

/* The round count at its shared place, then from byte 256 on the planes
 * of 15 round keys, eight 16-byte planes each (aes.h). */
#define BSAES_NEON_KEY_BYTES (AES_SCHEDULE_PLANES_OFFSET + 15 * 8 * 16)
_Static_assert(BSAES_NEON_KEY_BYTES <= AES_SCHEDULE_MAX_BYTES,
               "bsaes_neon round keys must fit in the largest schedule");

static int bsaes_neon_usable(void) {
  return BSAES_NEON_BUILT && gcmi_cpu_arm_has_neon();
}

static void bsaes_neon_set_encrypt_key(struct aes_schedule *s,
                                       const uint8_t *key, size_t key_len) {
  union aes_schedule_room ct;
  gcmi_aes_ct.set_encrypt_key(aes_schedule_in(&ct), key, key_len);
  /* ct: round key j, plane i is the 64-bit word at planes[64 j + 8 i]. */
  const uint8_t *from = aes_schedule_cplanes(aes_schedule_in(&ct));
  const unsigned nr = aes_rounds(aes_schedule_in(&ct));
  for (unsigned j = 0; j <= nr; j++) {
    for (unsigned i = 0; i < 8; i++) {
      uint64_t w;
      memcpy(&w, from + 64 * j + 8 * i, sizeof(w));
      uint8_t *plane = aes_schedule_planes(s) + 128 * j + 16 * i;
      for (unsigned k = 0; k < 16; k++) {
        plane[k] = (uint8_t)(0u - (unsigned)((w >> (4 * k)) & 1));
      }
    }
  }
  aes_set_rounds(s, nr);
  gcmi_secure_wipe(&ct, sizeof(ct));
}

#if BSAES_NEON_BUILT
/* One block: counter mode over a zero block, with the input as the
 * counter block (the kernel reads it before writing, so in == out works). */
static void bsaes_neon_encrypt_block(const struct aes_schedule *s,
                                     uint8_t out[16], const uint8_t in[16]) {
  static const uint8_t zero[16] = {0};
  BSAES_NEON_CTR32(s, out, zero, 1, in);
}
#define BSAES_NEON_KERNEL(fn) fn
#else
#define BSAES_NEON_KERNEL(fn) NULL
#endif

const struct aes_impl gcmi_aes_bsaes_neon = {
    .name = "bsaes_neon",
    .constant_time = 1,
    .requires = "NEON (HWCAP_NEON)",
    .ctr_batch_blocks = 8,
    .key_bytes = BSAES_NEON_KEY_BYTES,
    .usable = bsaes_neon_usable,
    .set_encrypt_key = bsaes_neon_set_encrypt_key, /* C, on every build */
    .encrypt_block = BSAES_NEON_KERNEL(bsaes_neon_encrypt_block),
    .ctr32 = BSAES_NEON_KERNEL(BSAES_NEON_CTR32),
};
