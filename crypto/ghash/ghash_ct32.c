/*
 * crypto/ghash/ghash_ct32.c: constant-time GHASH from 32x32->64-bit integer
 * multiplications ("ct32"), for machines with 32-bit registers.
 *
 * Carry-less multiplication from integer multiplication
 * -----------------------------------------------------
 * As in ghash_ct64.c, each 32-bit operand is split into four interleaved bit
 * classes, x_a = x & (0x11111111 << a). A class of a 32-bit word has eight
 * bits, so every column of the integer product x_a * y_b is a sum of at most
 * eight one-bit terms: the sum fits in the four bits up to the next column of
 * the same class, the carries fall into the three "holes" in between, and
 * the lowest bit of each column is the carry-less (mod 2) column sum. Result
 * class c is the XOR of the four products with a+b = c (mod 4), masked with
 * 0x1111111111111111 << c. A 32x32->64 carry-less product costs sixteen
 * 32x32->64 integer multiplications, one MUL instruction each on 32-bit x86
 * and one UMULL on 32-bit ARM.
 *
 * Field arithmetic
 * ----------------
 * Blocks stay in GCM's reflected bit order (Gueron, RWC 2013): loaded
 * big-endian, the coefficient of x^i is bit 127-i of the 128-bit word. The
 * 128x128 product is two levels of Karatsuba (nine 32x32 products). Karatsuba
 * is linear in the data operand, so the nine partial products of several
 * blocks can be accumulated first and combined once. The 256-bit product of
 * reflected operands is shifted left by one, then its low half (coefficients
 * x^128..x^255) is folded into the high half with x^128 = 1 + x + x^2 + x^7,
 * where multiplying by x^k is a right shift by k in this order; see
 * ghash_ct64.c for the two-step fold.
 *
 * init precomputes H, H^2, H^3 and H^4, each as its nine Karatsuba operands
 * already split into classes, and the bulk loop hashes four blocks per
 * reduction: Y' = (Y ^ X1) H^4 ^ X2 H^3 ^ X3 H^2 ^ X4 H.
 *
 * Constant time
 * -------------
 * H, its powers, Y and the data only meet AND, XOR, OR, shifts by constant
 * amounts and integer multiplications: no table lookups, no branches. Loop
 * counts depend only on the public block count. This relies on 32x32->64
 * multiplication being constant-time, true of x86 MUL and of ARM UMULL on
 * ARMv7-A and later cores (not of some small microcontroller multipliers).
 * The 64-bit shifts and XORs used in the reduction compile to pairs of
 * 32-bit operations with constant shift counts.
 */
#include <string.h>

#include "../cpu/cpu.h"
#include "ghash.h"

#define M32_0 UINT32_C(0x11111111)
#define M32_1 UINT32_C(0x22222222)
#define M32_2 UINT32_C(0x44444444)
#define M32_3 UINT32_C(0x88888888)
#define M64_0 UINT64_C(0x1111111111111111)
#define M64_1 UINT64_C(0x2222222222222222)
#define M64_2 UINT64_C(0x4444444444444444)
#define M64_3 UINT64_C(0x8888888888888888)

/* A 32-bit H-side operand split into its four classes. */
typedef struct {
  uint32_t c[4];
} split32_t;

static void split32(split32_t *s, uint32_t y) {
  s->c[0] = y & M32_0;
  s->c[1] = y & M32_1;
  s->c[2] = y & M32_2;
  s->c[3] = y & M32_3;
}

/* Returns the 64-bit carry-less product of x and y. */
static inline uint64_t bmul32(uint32_t x, const split32_t *y) {
  uint32_t x0 = x & M32_0, x1 = x & M32_1, x2 = x & M32_2, x3 = x & M32_3;
  uint32_t y0 = y->c[0], y1 = y->c[1], y2 = y->c[2], y3 = y->c[3];
  uint64_t z0 = ((uint64_t)x0 * y0) ^ ((uint64_t)x1 * y3) ^
                ((uint64_t)x2 * y2) ^ ((uint64_t)x3 * y1);
  uint64_t z1 = ((uint64_t)x0 * y1) ^ ((uint64_t)x1 * y0) ^
                ((uint64_t)x2 * y3) ^ ((uint64_t)x3 * y2);
  uint64_t z2 = ((uint64_t)x0 * y2) ^ ((uint64_t)x1 * y1) ^
                ((uint64_t)x2 * y0) ^ ((uint64_t)x3 * y3);
  uint64_t z3 = ((uint64_t)x0 * y3) ^ ((uint64_t)x1 * y2) ^
                ((uint64_t)x2 * y1) ^ ((uint64_t)x3 * y0);
  return (z0 & M64_0) | (z1 & M64_1) | (z2 & M64_2) | (z3 & M64_3);
}

/* The nine Karatsuba operands of a 128-bit value w3:w2:w1:w0 (32-bit words,
 * w0 least significant). With A = w1:w0, B = w3:w2, C = A ^ B, and for each
 * 64-bit operand u1:u0 the triple (u0, u1, u0 ^ u1), the order is
 *   A0 A1 A01  B0 B1 B01  C0 C1 C01. */
static inline void karatsuba9(uint32_t o[9], uint32_t w3, uint32_t w2,
                              uint32_t w1, uint32_t w0) {
  uint32_t c0 = w0 ^ w2, c1 = w1 ^ w3;
  o[0] = w0;
  o[1] = w1;
  o[2] = w0 ^ w1;
  o[3] = w2;
  o[4] = w3;
  o[5] = w2 ^ w3;
  o[6] = c0;
  o[7] = c1;
  o[8] = c0 ^ c1;
}

#define CT32_POWERS 4

/* Layout of struct ghash_key for ct32: pow[k] holds the nine split
 * Karatsuba operands of H^(k+1). */
struct ct32_key {
  split32_t pow[CT32_POWERS][9];
};

/* The powers rounded up to a multiple of 16. */
#define CT32_KEY_BYTES ((sizeof(struct ct32_key) + 15) & ~(size_t)15)
_Static_assert(CT32_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "ct32 precomputation does not fit in the largest GHASH key");

/* Combines a 64x64 Karatsuba triple (lo, hi, mid products) into 128 bits. */
static inline void combine64(uint64_t *r1, uint64_t *r0, uint64_t lo,
                             uint64_t hi, uint64_t mid) {
  mid ^= lo ^ hi;
  *r0 = lo ^ (mid << 32);
  *r1 = hi ^ (mid >> 32);
}

/* Y = (Y ^ X_1) H^n ^ ... ^ X_n H for 1 <= n <= CT32_POWERS blocks at `in`,
 * with one reduction. y1:y0 is Y in reflected order. */
static inline void ct32_group(uint64_t *y1, uint64_t *y0,
                              const struct ct32_key *k, const uint8_t *in,
                              size_t n) {
  uint64_t acc[9] = {0};
  for (size_t j = 0; j < n; j++) {
    const split32_t *h = k->pow[n - 1 - j];
    uint64_t x1 = load_be64(in + 16 * j);
    uint64_t x0 = load_be64(in + 16 * j + 8);
    if (j == 0) {
      x1 ^= *y1;
      x0 ^= *y0;
    }
    uint32_t o[9];
    karatsuba9(o, (uint32_t)(x1 >> 32), (uint32_t)x1, (uint32_t)(x0 >> 32),
               (uint32_t)x0);
    for (int t = 0; t < 9; t++) acc[t] ^= bmul32(o[t], &h[t]);
  }
  /* Inner level: three 128-bit products A*HA, B*HB, C*HC. */
  uint64_t a1, a0, b1, b0, c1, c0;
  combine64(&a1, &a0, acc[0], acc[1], acc[2]);
  combine64(&b1, &b0, acc[3], acc[4], acc[5]);
  combine64(&c1, &c0, acc[6], acc[7], acc[8]);
  /* Outer level. */
  c0 ^= a0 ^ b0;
  c1 ^= a1 ^ b1;
  uint64_t w0 = a0;
  uint64_t w1 = a1 ^ c0;
  uint64_t w2 = b0 ^ c1;
  uint64_t w3 = b1;
  /* Reflected operands: shift the 256-bit product left by one. */
  w3 = (w3 << 1) | (w2 >> 63);
  w2 = (w2 << 1) | (w1 >> 63);
  w1 = (w1 << 1) | (w0 >> 63);
  w0 <<= 1;
  /* Fold w1:w0 (coefficients of x^128..x^255) into w3:w2. */
  w1 ^= (w0 << 63) ^ (w0 << 62) ^ (w0 << 57);
  *y1 = w3 ^ w1 ^ (w1 >> 1) ^ (w1 >> 2) ^ (w1 >> 7);
  *y0 = w2 ^ w0 ^ (w0 >> 1) ^ (w1 << 63) ^ (w0 >> 2) ^ (w1 << 62) ^
        (w0 >> 7) ^ (w1 << 57);
}

static void hpow_set(split32_t p[9], uint64_t h1, uint64_t h0) {
  uint32_t o[9];
  karatsuba9(o, (uint32_t)(h1 >> 32), (uint32_t)h1, (uint32_t)(h0 >> 32),
             (uint32_t)h0);
  for (int t = 0; t < 9; t++) split32(&p[t], o[t]);
}

static void ghash_ct32_init(struct ghash_key *key, const uint8_t H[16]) {
  struct ct32_key *k = (struct ct32_key *)(void *)ghash_key_bytes(key);
  memset(k, 0, sizeof(*k));
  uint64_t h1 = load_be64(H), h0 = load_be64(H + 8);
  hpow_set(k->pow[0], h1, h0);
  /* H^(i+1) = H^i * H: multiply the block H^i by H with Y = 0. */
  uint64_t p1 = h1, p0 = h0;
  for (int i = 1; i < CT32_POWERS; i++) {
    uint8_t blk[16];
    uint64_t y1 = 0, y0 = 0;
    store_be64(blk, p1);
    store_be64(blk + 8, p0);
    ct32_group(&y1, &y0, k, blk, 1);
    p1 = y1;
    p0 = y0;
    hpow_set(k->pow[i], p1, p0);
    gcmi_secure_wipe(blk, sizeof(blk));
  }
}

static void ghash_ct32_blocks(uint8_t Xi[16], const struct ghash_key *key,
                              const uint8_t *in, size_t blocks) {
  const struct ct32_key *k = (const struct ct32_key *)(const void *)ghash_key_cbytes(key);
  uint64_t y1 = load_be64(Xi), y0 = load_be64(Xi + 8);
  while (blocks >= CT32_POWERS) {
    ct32_group(&y1, &y0, k, in, CT32_POWERS);
    in += 16 * CT32_POWERS;
    blocks -= CT32_POWERS;
  }
  if (blocks > 0) {
    ct32_group(&y1, &y0, k, in, blocks);
  }
  store_be64(Xi, y1);
  store_be64(Xi + 8, y0);
}

const struct ghash_impl gcmi_ghash_ct32 = {
    .name = "ct32",
    .constant_time = 1,
    .requires = "none",
    .hardware_multiply = 0,
    .key_bytes = CT32_KEY_BYTES,
    .usable = gcmi_cpu_always,
    .init = ghash_ct32_init,
    .update = ghash_ct32_blocks,
};
