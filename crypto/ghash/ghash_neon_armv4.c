/*
 * crypto/ghash/ghash_neon_armv4.c: GHASH on plain NEON ("neon"), for 32-bit ARM
 * cores with NEON but without the Armv8 crypto extension (Cortex-A7, A8,
 * A9, A15, ...).
 *
 * The blocks are hashed by asm/armv4/ghash-neon-armv4.pl, whose opening
 * comment explains the method: 64x64-bit carry-less products assembled from
 * eight VMULL.P8 each (Camara, Gouvea, Lopez and Dahab 2013) against byte
 * rotations of the key's words precomputed here, Karatsuba (three such
 * products a block), and, because everything after the byte multiplies is
 * linear, one combination of the partial sums per Karatsuba part and one
 * shift-based Montgomery reduction per batch of four blocks. This file
 * holds the descriptor and the key set-up (`init`, and `init_for`, which
 * for calls of fewer than four blocks makes K_1 alone), plain C run once
 * per key.
 *
 * Key set-up. It computes H^k for k = 1..4 bit by bit, multiplies each by
 * x^-1 (the pmull32 kernel's representation: the reflected product of a
 * block and K_k = H^k x^-1 needs no shift before the Montgomery
 * reduction), and stores, for each power, the eight byte rotations of the
 * three 64-bit words the kernel multiplies by: b0 ^ b1 (the Karatsuba
 * mid operand), b0 and b1 (see the kernel's key layout). Values are hi:lo
 * 64-bit words loaded big-endian from GCM's byte order, so bit 127 - i of
 * hi:lo is the coefficient of x^i; that hi:lo is the kernel's reflected
 * register (lo, b0, is its low word).
 *
 * Constant time: every reduction in the set-up is a mask made from the
 * secret bit, never a branch; loop bounds and indices are constants. The
 * kernel's argument is in its header: secrets only pass through VMULL.P8,
 * VEOR, VAND, VEXT, VREV64 and shifts, no tables, and its branches and
 * addresses depend only on the number of blocks.
 */
#include <string.h>

#include "../cpu/cpu.h"
#include "gf128_setup.h"
#include "ghash.h"

/* Per power K_k (k = 1..4) and part (the Karatsuba mid operand, the low
 * and the high 64-bit word), the word's eight byte rotations: 4 x 3 x 64
 * bytes, laid out as the kernel reads them (see its key layout). */
#define NEON_ARMV4_KEY_BYTES 768

#if defined(LIBGCM_ASM_ARM)
/* asm/armv4/ghash-neon-armv4.pl: reads the key built by neon_init below;
 * reduces once per four blocks. */
#define NEON_ARMV4_BLOCKS gcmi_ghash_armv4_neon_blocks
GCM_HIDDEN ghash_update_fn NEON_ARMV4_BLOCKS;
#define NEON_ARMV4_BUILT 1
#else
#define NEON_ARMV4_BLOCKS NULL
#define NEON_ARMV4_BUILT 0
#endif

/* Rotates the bytes of w down by r (byte m takes byte m + r mod 8): what
 * VEXT.8 d, w, w, #r does to a d register. */
static uint64_t rot_down(uint64_t w, unsigned r) {
  return r == 0 ? w : (w >> (8 * r)) | (w << (64 - 8 * r));
}

/* The key for K_1 .. K_powers (1 or 4). */
static void neon_init_powers(struct ghash_key *key, const uint8_t H[16],
                             int powers) {
  const struct u128 h = {load_be64(H), load_be64(H + 8)};
  struct u128 p = h;
  uint8_t *base = ghash_key_bytes(key);
  memset(base, 0, NEON_ARMV4_KEY_BYTES);
  for (int k = 1; k <= powers; k++) {
    if (k > 1) p = mul(p, h);
    const struct u128 kk = mul_x_inv(p);
    /* The kernel's reflected register: lo is its low word. */
    const uint64_t part[3] = {kk.lo ^ kk.hi, kk.lo, kk.hi};
    for (int t = 0; t < 3; t++) {
      uint8_t *out = base + 256 * t + 64 * (4 - k);
      for (unsigned r = 0; r < 8; r++) store_le64(out + 8 * r, rot_down(part[t], r));
    }
  }
}

static void neon_init(struct ghash_key *key, const uint8_t H[16]) {
  neon_init_powers(key, H, 4);
}

/* A call of fewer than four blocks hashes them one at a time with K_1
 * alone (the kernel's tail), so a key for such calls needs no other
 * power: AES-GCM-SIV's short messages skip three of the bit-serial
 * multiplies above, most of the set-up's time. The other powers' bytes
 * stay zero. */
static void neon_init_for(struct ghash_key *key, const uint8_t H[16],
                          size_t max_blocks) {
  neon_init_powers(key, H, max_blocks < 4 ? 1 : 4);
}

_Static_assert(NEON_ARMV4_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "the neon key fits in the largest GHASH key");

static int neon_usable(void) { return NEON_ARMV4_BUILT && gcmi_cpu_arm_has_neon(); }

/* The 32-bit ARM descriptor of "neon" (dispatch.c lists the build's own). */
const struct ghash_impl gcmi_ghash_neon_armv4 = {
    .name = "neon",
    .constant_time = 1,
    .requires = "NEON (HWCAP_NEON)",
    .hardware_multiply = 0,
    .key_bytes = NEON_ARMV4_KEY_BYTES,
    .usable = neon_usable,
    .init = neon_init,
    .update = NEON_ARMV4_BLOCKS,
    .init_for = neon_init_for,
};

