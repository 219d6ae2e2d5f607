/*
 * crypto/ghash/gf128_setup.h: GF(2^128) arithmetic for the key set-up of
 * GHASH backends that precompute from H in C (ghash_ssse3.c, ghash_sse2.c).
 *
 * Elements are GCM's bit-reflected blocks as two big-endian 64-bit words
 * (hi holds bytes 0..7), so bit 127 - i of hi:lo is the coefficient of x^i
 * and P = x^128 + x^7 + x^2 + x + 1. Everything is masks made from secret
 * bits, never branches or secret-indexed loads: H is secret. Set-up only;
 * the per-block work is the kernels'.
 */
#ifndef LIBGCM_CRYPTO_GHASH_GF128_SETUP_H
#define LIBGCM_CRYPTO_GHASH_GF128_SETUP_H

#include <stdint.h>

struct u128 {
  uint64_t hi, lo;
};

/* a * x mod P. */
static inline struct u128 mul_x(struct u128 a) {
  uint64_t carry = 0 - (a.lo & 1);
  struct u128 r;
  r.lo = (a.lo >> 1) | (a.hi << 63);
  r.hi = (a.hi >> 1) ^ (carry & (UINT64_C(0xE1) << 56));
  return r;
}

/* a * x^-1 mod P. */
static inline struct u128 mul_x_inv(struct u128 a) {
  uint64_t carry = 0 - (a.hi >> 63);
  struct u128 r;
  r.hi = (a.hi << 1) | (a.lo >> 63);
  r.lo = a.lo << 1;
  r.hi ^= carry & UINT64_C(0xC200000000000000);
  r.lo ^= carry & 1;
  return r;
}

/* a * b mod P, one bit of a at a time (x^0 first), with masks. */
static inline struct u128 mul(struct u128 a, struct u128 b) {
  struct u128 z = {0, 0};
  for (int i = 0; i < 128; i++) {
    uint64_t word = i < 64 ? a.hi : a.lo;
    uint64_t m = 0 - ((word >> (63 - (i & 63))) & 1);
    z.hi ^= b.hi & m;
    z.lo ^= b.lo & m;
    b = mul_x(b);
  }
  return z;
}

#endif /* LIBGCM_CRYPTO_GHASH_GF128_SETUP_H */
