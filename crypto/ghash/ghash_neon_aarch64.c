/*
 * crypto/ghash/ghash_neon_aarch64.c: constant-time GHASH with plain NEON (ASIMD)
 * ("neon"), aarch64, for cores without the PMULL 64x64 instruction (the
 * Raspberry Pi 4's Cortex-A72, many Cortex-A53 boards).
 *
 * The blocks are hashed by asm/aarch64/ghash-neon-aarch64.pl, whose opening
 * comment explains the method: 64x64 carry-less products assembled from
 * PMULL on 8-bit lanes (each 64-bit word's bytes rotated so that eight
 * PMULLs produce all 64 byte products, Camara, Gouvea, Lopez and Dahab
 * 2013), Karatsuba, and, because everything after the byte multiplies is
 * linear, one combination of the partial sums and one shift-based
 * Montgomery reduction per batch of up to eight blocks. This file holds
 * the descriptor and the key set-up (`init`), plain C run once per key.
 *
 * Key set-up. It computes H^k for k = 1..8 bit by bit, multiplies each by
 * x^-1 (the pmull kernel's representation: the reflected product of a
 * block and K_k = H^k x^-1 needs no shift before the Montgomery
 * reduction), and stores per power the eight operand registers the kernel
 * multiplies by: the two 64-bit halves b0, b1 rotated by 0..4 bytes, and
 * m = b0 ^ b1 rotated by 0..4 bytes in the pairs the kernel's mid products
 * use (see the kernel's key layout). Values are hi:lo 64-bit words loaded
 * big-endian from GCM's byte order, so bit 127 - i of hi:lo is the
 * coefficient of x^i; that hi:lo is the kernel's reflected register (lo is
 * its low word).
 *
 * Constant time: every reduction in the set-up is a mask made from the
 * secret bit, never a branch; loop bounds and indices are constants. The
 * kernel's argument is in its header.
 */
#include <string.h>

#include "../cpu/cpu.h"
#include "gf128_setup.h"
#include "ghash.h"

/* Eight 128-byte entries, one per power H^8 .. H^1 (the kernel's layout). */
#define NEON_KEY_BYTES 1024

#if defined(LIBGCM_ASM_AARCH64)
/* asm/aarch64/ghash-neon-aarch64.pl: reads the 1024-byte key built by
 * neon_init below; aggregates up to eight blocks per reduction. */
#define NEON_AARCH64_BLOCKS gcmi_ghash_aarch64_neon_blocks
GCM_HIDDEN ghash_update_fn NEON_AARCH64_BLOCKS;
#define NEON_AARCH64_BUILT 1
#else
#define NEON_AARCH64_BLOCKS NULL
#define NEON_AARCH64_BUILT 0
#endif

/* Rotates the bytes of w up by r (byte k takes byte k - r mod 8). */
static uint64_t rot_bytes(uint64_t w, unsigned r) {
  return r == 0 ? w : (w << (8 * r)) | (w >> (64 - 8 * r));
}

/* One 16-byte operand register: low word first, little-endian. */
static void put_reg(uint8_t out[16], uint64_t lo, uint64_t hi) {
  store_le64(out, lo);
  store_le64(out + 8, hi);
}

static void neon_init(struct ghash_key *key, const uint8_t H[16]) {
  const struct u128 h = {load_be64(H), load_be64(H + 8)};
  struct u128 p = h;
  memset(key, 0, NEON_KEY_BYTES);
  for (int k = 1; k <= 8; k++) {
    if (k > 1) p = mul(p, h);
    const struct u128 kk = mul_x_inv(p);
    const uint64_t b0 = kk.lo, b1 = kk.hi, m = b0 ^ b1;
    uint8_t *out = ghash_key_bytes(key) + 128 * (8 - k);
    for (unsigned r = 0; r <= 4; r++) {
      put_reg(out + 16 * r, rot_bytes(b0, r), rot_bytes(b1, r));
    }
    put_reg(out + 80, m, rot_bytes(m, 1));                /* KX */
    put_reg(out + 96, rot_bytes(m, 2), rot_bytes(m, 3));  /* KY */
    put_reg(out + 112, rot_bytes(m, 4), m);               /* KZ */
  }
}

_Static_assert(NEON_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "the neon key fits in the largest GHASH key");

static int neon_usable(void) {
  return NEON_AARCH64_BUILT && gcmi_cpu_aarch64_has_neon();
}

/* The aarch64 descriptor of "neon" (dispatch.c lists the build's own). */
const struct ghash_impl gcmi_ghash_neon_aarch64 = {
    .name = "neon",
    .constant_time = 1,
    .requires = "NEON (ASIMD)",
    .hardware_multiply = 0,
    .key_bytes = NEON_KEY_BYTES,
    .usable = neon_usable,
    .init = neon_init,
    .update = NEON_AARCH64_BLOCKS,
};

