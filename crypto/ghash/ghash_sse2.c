/*
 * crypto/ghash/ghash_sse2.c: constant-time GHASH with SSE2 only ("sse2"),
 * 32-bit x86, for CPUs with SSE2 but neither PCLMULQDQ nor SSSE3.
 *
 * The blocks are hashed by asm/x86/ghash-sse2-x86.pl, whose opening comment
 * explains the method: carry-less products built from integer multiplies
 * "with holes" (PMULUDQ, two 32x32 -> 64 products per instruction, one
 * for each block of a pair), two levels of Karatsuba, and one reduction
 * per pair of blocks. This file holds the descriptor and the key set-up
 * (`init`), which runs once per key and is plain C.
 *
 * Key set-up. The kernel multiplies reflected values (a block read
 * big-endian as a 128-bit integer) and wants h_k = H^k * x^-1 for k = 1,
 * 2, so that the integer product needs no shift. Values are held as hi:lo
 * 64-bit words in that form: bit 127 - i of hi:lo is the coefficient of
 * x^i, so multiplying by x is a right shift and by x^-1 a left shift (the
 * bit falling off, x^-1, returns as x^127 + x^6 + x + 1). For each power
 * the nine Karatsuba operand words (low half: w0, w1, w0^w1; high half:
 * w2, w3, w2^w3; their XOR: w0^w2, w1^w3, w0^w1^w2^w3, with w0 the lowest
 * 32 bits) are split into the four bit classes (mask 0x11111111 << j) and
 * stored as the kernel's comment lays out: entry 4*o + j, dword 0 for H^2
 * and dword 2 for H.
 *
 * Constant time: every reduction is a mask made from the secret bit, never
 * a branch; H^2 is computed bit by bit with masks; table positions and
 * loop bounds are public constants. The kernel's own argument is in its
 * header.
 */
#include <string.h>

#include "../cpu/cpu.h"
#include "gf128_setup.h"
#include "ghash.h"

/* Nine operands, four masked 16-byte entries each (the kernel's layout). */
#define SSE2_KEY_BYTES 576

#if defined(LIBGCM_ASM_X86)
/* asm/x86/ghash-sse2-x86.pl, cdecl: reads the 576-byte key built by
 * sse2_init below (the Karatsuba operand words of H*x^-1 and H^2*x^-1,
 * split into bit classes); two blocks per reduction. */
#define SSE2_BLOCKS gcmi_ghash_x86_sse2_blocks
GCM_HIDDEN ghash_update_fn SSE2_BLOCKS;
#define SSE2_BUILT 1
#else
#define SSE2_BLOCKS NULL
#define SSE2_BUILT 0
#endif

_Static_assert(SSE2_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "the sse2 key fits in the largest GHASH key");

/* The nine Karatsuba operand words of h, in the kernel's order o. */
static void operands(uint32_t op[9], struct u128 h) {
  const uint32_t w0 = (uint32_t)h.lo, w1 = (uint32_t)(h.lo >> 32);
  const uint32_t w2 = (uint32_t)h.hi, w3 = (uint32_t)(h.hi >> 32);
  op[0] = w0, op[1] = w1, op[2] = w0 ^ w1;
  op[3] = w2, op[4] = w3, op[5] = w2 ^ w3;
  op[6] = w0 ^ w2, op[7] = w1 ^ w3, op[8] = w0 ^ w1 ^ w2 ^ w3;
}

static void sse2_init(struct ghash_key *key, const uint8_t H[16]) {
  struct u128 h = {load_be64(H), load_be64(H + 8)};
  uint32_t op1[9], op2[9];
  operands(op1, mul_x_inv(h));
  operands(op2, mul_x_inv(mul(h, h)));
  memset(key, 0, SSE2_KEY_BYTES);
  for (int o = 0; o < 9; o++) {
    for (int j = 0; j < 4; j++) {
      const uint32_t m = UINT32_C(0x11111111) << j;
      uint8_t *e = ghash_key_bytes(key) + 16 * (4 * o + j);
      store_le32(e, op2[o] & m);
      store_le32(e + 8, op1[o] & m);
    }
  }
  gcmi_secure_wipe(op1, sizeof(op1));
  gcmi_secure_wipe(op2, sizeof(op2));
}

static int sse2_usable(void) { return SSE2_BUILT && gcmi_cpu_x86_has_sse2(); }

const struct ghash_impl gcmi_ghash_sse2 = {
    .name = "sse2",
    .constant_time = 1,
    .requires = "SSE2",
    .hardware_multiply = 0,
    .key_bytes = SSE2_KEY_BYTES,
    .usable = sse2_usable,
    .init = sse2_init,
    .update = SSE2_BLOCKS,
};

