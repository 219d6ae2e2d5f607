/*
 * crypto/ghash/ghash_4bit.c: Shoup's 4-bit table GHASH ("4bit").
 *
 * NOT CONSTANT-TIME. This implementation indexes tables with nibbles of
 * Y ^ X, which depend on the secret hash key H (and on the data), so the
 * cache lines it touches leak H and the authenticated data through cache
 * timing to anyone sharing the machine. It is kept only as the legacy
 * reference point for speed comparisons. The dispatcher never chooses it
 * automatically; it runs only when asked for by name ("4bit").
 *
 * Algorithm (Shoup, CRYPTO 1996)
 * ------------------------------
 * Blocks are kept in GCM's reflected order: loaded big-endian as the 128-bit
 * word hi:lo, the coefficient of x^i is bit 127-i, so multiplying by x is a
 * right shift by one, and the bit shifted out (x^128) comes back as
 * x^7 + x^2 + x + 1, i.e. 0xE1 in the top byte.
 *
 * Write X as 32 nibbles N_0 .. N_31 in GCM order (N_0 is the high nibble of
 * byte 0; within a nibble the bit of value 8 is
 * the lowest power of x). Then
 *   X * H = sum_m N_m(x) H x^(4m)
 * is evaluated by Horner's rule from N_31 down to N_0:
 *   Z <- Z * x^4 ^ T[N_m],    T[n] = n(x) * H   (16 entries, built in init
 *                                                from H, Hx, Hx^2, Hx^3).
 * Z * x^4 shifts Z right by four; the four bits that fall off the bottom
 * (coefficients x^124..x^127, times x^4) are reduced with the fixed 16-entry
 * table R: R[r] is the reduction of those four bits, 0xE1 << 120 shifted right
 * by 3-j for each set bit j of r. The table of multiples lives in struct
 * ghash_key (256 bytes).
 */
#include <string.h>

#include "../cpu/cpu.h"
#include "ghash.h"

/* Layout of struct ghash_key for 4bit: T[n] = n(x) * H as hi:lo words. */
struct table4_key {
  uint64_t hi[16];
  uint64_t lo[16];
};

/* The table rounded up to a multiple of 16 (256 bytes). */
#define TABLE4_KEY_BYTES ((sizeof(struct table4_key) + 15) & ~(size_t)15)
_Static_assert(TABLE4_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "4bit table does not fit in the largest GHASH key");

/* R[r]: reduction of the four bits r shifted out by Z * x^4, for the high
 * word. Bit j of r stands for x^(131-j) = x^128 * x^(3-j). */
#define R4_BIT(r, j) ((((r) >> (j)) & 1) ? (UINT64_C(0xE1) << 56) >> (3 - (j)) : 0)
#define R4(r) (R4_BIT(r, 0) ^ R4_BIT(r, 1) ^ R4_BIT(r, 2) ^ R4_BIT(r, 3))
static const uint64_t kReduce4[16] = {
    R4(0),  R4(1),  R4(2),  R4(3),  R4(4),  R4(5),  R4(6),  R4(7),
    R4(8),  R4(9),  R4(10), R4(11), R4(12), R4(13), R4(14), R4(15),
};

static void ghash_4bit_init(struct ghash_key *key, const uint8_t H[16]) {
  struct table4_key *t = (struct table4_key *)(void *)ghash_key_bytes(key);
  memset(t, 0, sizeof(*t));
  uint64_t hi = load_be64(H), lo = load_be64(H + 8);
  /* Nibble value 8 is x^0, 4 is x^1, 2 is x^2, 1 is x^3. */
  for (int n = 8; n > 0; n >>= 1) {
    t->hi[n] = hi;
    t->lo[n] = lo;
    uint64_t carry = 0 - (lo & 1);
    lo = (lo >> 1) | (hi << 63);
    hi = (hi >> 1) ^ (carry & (UINT64_C(0xE1) << 56));
  }
  for (int n = 2; n < 16; n <<= 1) {
    for (int m = 1; m < n; m++) {
      t->hi[n + m] = t->hi[n] ^ t->hi[m];
      t->lo[n + m] = t->lo[n] ^ t->lo[m];
    }
  }
}

/* Z = Z * x^4 ^ T[n]: one step of Horner's rule. */
#define STEP4(zh, zl, t, n)                                  \
  do {                                                       \
    unsigned r_ = (unsigned)(zl) & 0xf;                      \
    (zl) = ((zl) >> 4) | ((zh) << 60);                       \
    (zh) = ((zh) >> 4) ^ kReduce4[r_] ^ (t)->hi[(n)];        \
    (zl) ^= (t)->lo[(n)];                                    \
  } while (0)

static void ghash_4bit_blocks(uint8_t Xi[16], const struct ghash_key *key,
                              const uint8_t *in, size_t blocks) {
  const struct table4_key *t =
      (const struct table4_key *)(const void *)ghash_key_cbytes(key);
  uint64_t zh = load_be64(Xi), zl = load_be64(Xi + 8);
  for (; blocks > 0; blocks--, in += 16) {
    /* Loaded big-endian, the last nibble in GCM order (the low nibble of
     * byte 15) is the lowest nibble of xl, and so on upwards. */
    uint64_t xh = zh ^ load_be64(in), xl = zl ^ load_be64(in + 8);
    zh = t->hi[xl & 0xf];
    zl = t->lo[xl & 0xf];
    for (int i = 1; i < 16; i++) {
      xl >>= 4;
      STEP4(zh, zl, t, xl & 0xf);
    }
    for (int i = 0; i < 16; i++) {
      STEP4(zh, zl, t, xh & 0xf);
      xh >>= 4;
    }
  }
  store_be64(Xi, zh);
  store_be64(Xi + 8, zl);
}

const struct ghash_impl gcmi_ghash_4bit = {
    .name = "4bit",
    .constant_time = 0,
    .requires = "none",
    .hardware_multiply = 0,
    .key_bytes = TABLE4_KEY_BYTES,
    .usable = gcmi_cpu_always,
    .init = ghash_4bit_init,
    .update = ghash_4bit_blocks,
};
