/*
 * crypto/ghash/ghash_ct64.c: constant-time GHASH from 64x64->128-bit integer
 * multiplications ("ct64").
 *
 * Carry-less multiplication from integer multiplication
 * -----------------------------------------------------
 * A carry-less (GF(2)[x]) product is an integer product in which the column
 * sums are taken mod 2 instead of carried. If every operand bit that takes
 * part in one integer product sits four positions away from the next one,
 * each column of the integer product is the sum of at most 15 one-bit terms,
 * which fits in the four bits before the next used column; the carries run
 * into "holes" that are thrown away, and the lowest bit of each used column is
 * exactly the carry-less column sum (its parity).
 *
 * So a 64-bit word x is split into four interleaved classes
 *   x_a = x & (0x1111111111111111 << a),   a = 0..3,
 * and similarly y. The integer product x_a * y_b only has terms in columns
 * congruent to a+b (mod 4), so result class c collects the four products
 * with a+b = c (mod 4), XORed together and masked with 0x1111.. << c.
 *
 * One detail matters for full 128-bit products: a class of a 64-bit word has
 * 16 bits, and two full classes meet 16 times in their middle column, which
 * would carry into the next column of the same class. The precomputed operand
 * (a power of H) is therefore split into its low 60 bits, whose classes have
 * at most 15 bits each, and its top nibble (bits 60..63). The product of x by
 * that nibble is the XOR of x << (60+j) over its set bits j, taken with masks
 * (all-ones or zero, made in init) instead of branches. A 64x64 product thus
 * costs 16 integer multiplications plus a few shifts and ANDs.
 *
 * Field arithmetic
 * ----------------
 * A 16-byte block loaded big-endian as the 128-bit integer u = u1:u0 holds
 * the coefficient of x^i in bit 127-i: GCM's "reflected" order, which is kept
 * throughout (Gueron, RWC 2013) instead of reversing bits. For reflected
 * operands the 256-bit carry-less product is the reflection of the true
 * product shifted right by one, so it is shifted left by one bit, after which
 * its high 128 bits hold coefficients x^0..x^127 and its low 128 bits the
 * coefficients x^128..x^255. Reduction modulo P = x^128 + x^7 + x^2 + x + 1
 * folds the low half L into the high half with x^128 = 1 + x + x^2 + x^7;
 * multiplying by x^k is a right shift by k in this order. The bits that the
 * right shifts by 1, 2 and 7 push out of L are folded first (they land in the
 * top word of L), then one fold finishes the job:
 *   L.hi ^= (L.lo << 63) ^ (L.lo << 62) ^ (L.lo << 57)
 *   result = high ^ L ^ (L >> 1) ^ (L >> 2) ^ (L >> 7)
 *
 * Each 128x128 product uses Karatsuba (three 64x64 products). init
 * precomputes H, H^2, H^3, H^4, each with its 64-bit halves and their XOR
 * already split into classes. The bulk loop processes four blocks at a time,
 *   Y' = (Y ^ X1) H^4 ^ X2 H^3 ^ X3 H^2 ^ X4 H,
 * accumulating unreduced Karatsuba pieces and reducing once per group.
 *
 * Constant time
 * -------------
 * Only AND, XOR, OR, shifts by constant amounts and integer multiplications
 * are applied to H, to the powers of H, to Y and to the data; there are no
 * table lookups and no branches on them. Loop counts depend only on the
 * public number of blocks. This assumes the multiplier takes the same time
 * for all operands, which holds for 64-bit MUL on x86-64 and UMULH/MUL on
 * 64-bit ARM cores. Where unsigned __int128 is missing (32-bit targets) the
 * 64x64->128 product is assembled from four 32x32->64 products with
 * branch-free carry handling; ct32 is the faster choice there.
 */
#include <string.h>

#include "../cpu/cpu.h"
#include "ghash.h"

#if defined(_MSC_VER) && defined(_M_X64) && !defined(__clang__)
#include <intrin.h>
#endif

/* A 128-bit value as two 64-bit words; the compiler keeps it in registers. */
typedef struct {
  uint64_t lo, hi;
} u128_t;

/* The 64x64->128 integer (not carry-less) product of a and b. */
static inline u128_t mul64_wide(uint64_t a, uint64_t b) {
  u128_t r;
#if defined(__SIZEOF_INT128__)
  unsigned __int128 p = (unsigned __int128)a * b;
  r.lo = (uint64_t)p;
  r.hi = (uint64_t)(p >> 64);
#elif defined(_MSC_VER) && defined(_M_X64) && !defined(__clang__)
  r.lo = _umul128(a, b, &r.hi);
#else
  /* Schoolbook on 32-bit halves; every partial sum fits in 64 bits, so the
   * carries are plain shifts, never comparisons. */
  uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = p10 + (p00 >> 32);           /* < 2^64 */
  uint64_t mid2 = p01 + (uint32_t)mid;        /* < 2^64 */
  r.lo = (mid2 << 32) | (uint32_t)p00;
  r.hi = p11 + (mid >> 32) + (mid2 >> 32);
#endif
  return r;
}

#define M0 UINT64_C(0x1111111111111111)
#define M1 UINT64_C(0x2222222222222222)
#define M2 UINT64_C(0x4444444444444444)
#define M3 UINT64_C(0x8888888888888888)
#define LOW60 UINT64_C(0x0FFFFFFFFFFFFFFF)

/* A 64-bit operand of the H side, prepared for bmul64_acc: classes 0..3 of
 * its low 60 bits, and top[j] = all-ones if bit 60+j is set, else zero. */
typedef struct {
  uint64_t c[4];
  uint64_t top[4];
} split64_t;

static void split64(split64_t *s, uint64_t y) {
  s->c[0] = y & LOW60 & M0;
  s->c[1] = y & LOW60 & M1;
  s->c[2] = y & LOW60 & M2;
  s->c[3] = y & LOW60 & M3;
  for (int j = 0; j < 4; j++) s->top[j] = 0 - ((y >> (60 + j)) & 1);
}

/* Accumulates into *acc the 128-bit carry-less product of x and y. The
 * result classes are made one at a time and masked straight into *acc, so
 * only one class is live at once: this keeps register pressure low around
 * x86's MUL, whose result is pinned to RDX:RAX. */
static inline void bmul64_acc(u128_t *acc, uint64_t x, const split64_t *y) {
  uint64_t x0 = x & M0, x1 = x & M1, x2 = x & M2, x3 = x & M3;
  uint64_t l = acc->lo, h = acc->hi;
  u128_t p, q, r, s;

  p = mul64_wide(x0, y->c[0]);
  q = mul64_wide(x1, y->c[3]);
  r = mul64_wide(x2, y->c[2]);
  s = mul64_wide(x3, y->c[1]);
  l ^= (p.lo ^ q.lo ^ r.lo ^ s.lo) & M0;
  h ^= (p.hi ^ q.hi ^ r.hi ^ s.hi) & M0;

  p = mul64_wide(x0, y->c[1]);
  q = mul64_wide(x1, y->c[0]);
  r = mul64_wide(x2, y->c[3]);
  s = mul64_wide(x3, y->c[2]);
  l ^= (p.lo ^ q.lo ^ r.lo ^ s.lo) & M1;
  h ^= (p.hi ^ q.hi ^ r.hi ^ s.hi) & M1;

  p = mul64_wide(x0, y->c[2]);
  q = mul64_wide(x1, y->c[1]);
  r = mul64_wide(x2, y->c[0]);
  s = mul64_wide(x3, y->c[3]);
  l ^= (p.lo ^ q.lo ^ r.lo ^ s.lo) & M2;
  h ^= (p.hi ^ q.hi ^ r.hi ^ s.hi) & M2;

  p = mul64_wide(x0, y->c[3]);
  q = mul64_wide(x1, y->c[2]);
  r = mul64_wide(x2, y->c[1]);
  s = mul64_wide(x3, y->c[0]);
  l ^= (p.lo ^ q.lo ^ r.lo ^ s.lo) & M3;
  h ^= (p.hi ^ q.hi ^ r.hi ^ s.hi) & M3;

  /* Top nibble of y: x times at most four single bits, an exact product. */
  l ^= (y->top[0] & (x << 60)) ^ (y->top[1] & (x << 61)) ^
       (y->top[2] & (x << 62)) ^ (y->top[3] & (x << 63));
  h ^= (y->top[0] & (x >> 4)) ^ (y->top[1] & (x >> 3)) ^
       (y->top[2] & (x >> 2)) ^ (y->top[3] & (x >> 1));
  acc->lo = l;
  acc->hi = h;
}

/* A power of H ready for Karatsuba: its low word, high word, and their XOR. */
typedef struct {
  split64_t lo, hi, mid;
} hpow_t;

#define CT64_POWERS 4

/* Layout of struct ghash_key for ct64: pow[k] holds H^(k+1). */
struct ct64_key {
  hpow_t pow[CT64_POWERS];
};

/* The powers rounded up to a multiple of 16. */
#define CT64_KEY_BYTES ((sizeof(struct ct64_key) + 15) & ~(size_t)15)
_Static_assert(CT64_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "ct64 precomputation does not fit in the largest GHASH key");

static const struct ct64_key *ct64_key_const(const struct ghash_key *key) {
  return (const struct ct64_key *)(const void *)ghash_key_cbytes(key);
}

/* Y = (Y ^ X_1) H^n ^ X_2 H^(n-1) ^ ... ^ X_n H for 1 <= n <= CT64_POWERS
 * blocks at `in`; one reduction. y1:y0 is Y in reflected order. */
static inline void ct64_group(uint64_t *y1, uint64_t *y0,
                              const struct ct64_key *k, const uint8_t *in,
                              size_t n) {
  u128_t lo = {0, 0}, hi = {0, 0}, mid = {0, 0};
  for (size_t j = 0; j < n; j++) {
    const hpow_t *h = &k->pow[n - 1 - j];
    uint64_t x1 = load_be64(in + 16 * j);
    uint64_t x0 = load_be64(in + 16 * j + 8);
    if (j == 0) {
      x1 ^= *y1;
      x0 ^= *y0;
    }
    bmul64_acc(&lo, x0, &h->lo);
    bmul64_acc(&hi, x1, &h->hi);
    bmul64_acc(&mid, x0 ^ x1, &h->mid);
  }
  /* Karatsuba: the middle 128 bits are mid ^ lo ^ hi. */
  mid.lo ^= lo.lo ^ hi.lo;
  mid.hi ^= lo.hi ^ hi.hi;
  uint64_t w0 = lo.lo;
  uint64_t w1 = lo.hi ^ mid.lo;
  uint64_t w2 = hi.lo ^ mid.hi;
  uint64_t w3 = hi.hi;
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

static void hpow_set(hpow_t *p, uint64_t h1, uint64_t h0) {
  split64(&p->lo, h0);
  split64(&p->hi, h1);
  split64(&p->mid, h0 ^ h1);
}

static void ghash_ct64_init(struct ghash_key *key, const uint8_t H[16]) {
  struct ct64_key *k = (struct ct64_key *)(void *)ghash_key_bytes(key);
  memset(k, 0, sizeof(*k));
  uint64_t h1 = load_be64(H), h0 = load_be64(H + 8);
  hpow_set(&k->pow[0], h1, h0);
  /* H^(i+1) = H^i * H: multiply the block H^i by H with Y = 0. */
  uint64_t p1 = h1, p0 = h0;
  for (int i = 1; i < CT64_POWERS; i++) {
    uint8_t blk[16];
    uint64_t y1 = 0, y0 = 0;
    store_be64(blk, p1);
    store_be64(blk + 8, p0);
    ct64_group(&y1, &y0, k, blk, 1);
    p1 = y1;
    p0 = y0;
    hpow_set(&k->pow[i], p1, p0);
    gcmi_secure_wipe(blk, sizeof(blk));
  }
}

static void ghash_ct64_blocks(uint8_t Xi[16], const struct ghash_key *key,
                              const uint8_t *in, size_t blocks) {
  const struct ct64_key *k = ct64_key_const(key);
  uint64_t y1 = load_be64(Xi), y0 = load_be64(Xi + 8);
  while (blocks >= CT64_POWERS) {
    ct64_group(&y1, &y0, k, in, CT64_POWERS);
    in += 16 * CT64_POWERS;
    blocks -= CT64_POWERS;
  }
  if (blocks > 0) {
    ct64_group(&y1, &y0, k, in, blocks);
  }
  store_be64(Xi, y1);
  store_be64(Xi + 8, y0);
}

const struct ghash_impl gcmi_ghash_ct64 = {
    .name = "ct64",
    .constant_time = 1,
    .requires = "none",
    .hardware_multiply = 0,
    .key_bytes = CT64_KEY_BYTES,
    .usable = gcmi_cpu_always,
    .init = ghash_ct64_init,
    .update = ghash_ct64_blocks,
};
