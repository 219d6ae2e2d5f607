/*
 * crypto/aes/aes_ct.c: "ct", bitsliced constant-time AES in portable C on
 * 64-bit words, four blocks at a time. It runs on every CPU (on 32-bit
 * targets the compiler splits each 64-bit operation in two) and is the AES
 * of last resort. On x86 with SSE2 the eight-block "ct_sse2"
 * (crypto/aes/aes_ct_sse2.c) is the same algorithm on 128-bit registers.
 *
 * Algorithm
 * ---------
 * Bitsliced AES with fixsliced ShiftRows and the Boyar-Peralta S-box
 * circuit, written once over a `word` type in aes_bitsliced_rounds.h, whose
 * opening comment derives it. This file supplies the word: uint64_t, NBLK =
 * 4 blocks, so a plane is 64 bits, a state column a 16-bit lane and a row a
 * nibble inside it:
 *   bit (16c + 4r + b) of plane i = bit i of state byte (r, c) of block b.
 * Row rotations are masked shifts by 4 and 8 inside the lanes, column moves
 * are 64-bit rotations by multiples of 16. pack() splits each block into
 * its even and odd bytes (words 0..3 and 4..7), then transposes 8x8 bit
 * matrices, which puts byte k = 4c + r of block b at bit 4k + b.
 *
 * Why it is constant-time
 * -----------------------
 * Only AND/XOR/OR, shifts and rotations by constant amounts, and loads and
 * stores at addresses that depend on public lengths and the round count;
 * no table, no branch on key or data (see aes_bitsliced_rounds.h).
 */
#include <string.h>

#include "../cpu/cpu.h"
#include "../internal.h"
#include "aes.h"

#if defined(__GNUC__) || defined(__clang__)
#define AES_INLINE static inline __attribute__((always_inline))
#else
#define AES_INLINE static inline
#endif

typedef uint64_t word;
#define NBLK 4

AES_INLINE word w_xor(word a, word b) { return a ^ b; }
AES_INLINE word w_and(word a, word b) { return a & b; }
AES_INLINE word w_load(const void *p) {
  word x;
  memcpy(&x, p, sizeof(x));
  return x;
}
AES_INLINE void w_store(void *p, word x) { memcpy(p, &x, sizeof(x)); }
AES_INLINE word w_bytes(uint8_t b) { return 0x0101010101010101u * b; }

#define SWAPMOVE(a, b, m, n)                  \
  do {                                        \
    word t_ = (((a) >> (n)) ^ (b)) & (m);     \
    (b) ^= t_;                                \
    (a) ^= t_ << (n);                         \
  } while (0)

AES_INLINE word rot64(word x, unsigned n) {
  return (x >> n) | (x << ((64 - n) & 63));
}
/* Lanes are 16 bits (one column), rows are nibbles. */
AES_INLINE word rot_rows1(word x) {
  return ((x >> 4) & 0x0fff0fff0fff0fffu) | ((x << 12) & 0xf000f000f000f000u);
}
AES_INLINE word rot_rows2(word x) {
  return ((x >> 8) & 0x00ff00ff00ff00ffu) | ((x << 8) & 0xff00ff00ff00ff00u);
}
AES_INLINE word rot_cols(word x, unsigned n) {
  return (n & 3) ? rot64(x, 16 * (n & 3)) : x;
}
AES_INLINE word shift_rows2(word x) {
  return x ^ ((x ^ rot64(x, 32)) & 0xf0f0f0f0f0f0f0f0u);
}

#include "aes_bitsliced_rounds.h"

/* Byte order inside a 64-bit word: (0 1 2 3 4 5 6 7) <-> (0 2 4 6 1 3 5 7).
 * Two swaps of byte-index bits; unzip does them in one order, zip in the
 * other. */
AES_INLINE uint64_t unzip_bytes(uint64_t x) {
  uint64_t t = ((x >> 8) ^ x) & 0x0000ff000000ff00u;
  x ^= t ^ (t << 8);
  t = ((x >> 16) ^ x) & 0x00000000ffff0000u;
  return x ^ t ^ (t << 16);
}
AES_INLINE uint64_t zip_bytes(uint64_t x) {
  uint64_t t = ((x >> 16) ^ x) & 0x00000000ffff0000u;
  x ^= t ^ (t << 16);
  t = ((x >> 8) ^ x) & 0x0000ff000000ff00u;
  return x ^ t ^ (t << 8);
}

/* 4 blocks (64 bytes) -> planes. Words 0..3 hold the even bytes of blocks
 * 0..3, words 4..7 the odd bytes. After the transposition, bit 8j + 4h + b
 * of plane i is bit i of byte 2j + h of block b, that is bit 4k + b for
 * byte k. */
AES_INLINE void pack(word q[8], const uint8_t *in) {
  for (int b = 0; b < 4; b++) {
    uint64_t lo = unzip_bytes(load_le64(in + 16 * b));
    uint64_t hi = unzip_bytes(load_le64(in + 16 * b + 8));
    q[b] = (lo & 0xffffffffu) | (hi << 32);
    q[4 + b] = (lo >> 32) | (hi & 0xffffffff00000000u);
  }
  transpose8(q);
}

/* Planes -> 4 blocks. Destroys q. */
AES_INLINE void unpack(uint8_t *out, word q[8]) {
  transpose8(q);
  for (int b = 0; b < 4; b++) {
    uint64_t e = q[b], o = q[4 + b];
    store_le64(out + 16 * b, zip_bytes((e & 0xffffffffu) | (o << 32)));
    store_le64(out + 16 * b + 8,
               zip_bytes((e >> 32) | (o & 0xffffffff00000000u)));
  }
}

/* Counter blocks ctr[0..11] || be32(c + b), b = 0 .. 3, straight into
 * planes (no trip through memory). */
AES_INLINE void pack_counters(word q[8], const uint8_t ctr[16], uint32_t c) {
  const uint64_t lo = unzip_bytes(load_le64(ctr));
  const uint64_t n2 = load_le32(ctr + 8);
  for (int b = 0; b < 4; b++) {
    uint64_t hi = unzip_bytes(n2 | (uint64_t)bswap32(c + (uint32_t)b) << 32);
    q[b] = (lo & 0xffffffffu) | (hi << 32);
    q[4 + b] = (lo >> 32) | (hi & 0xffffffff00000000u);
  }
  transpose8(q);
}

/* out = in ^ the first n blocks of key stream planes q; destroys q. */
AES_INLINE void xor_key_stream(uint8_t *out, const uint8_t *in, word q[8],
                               size_t n, uint8_t ks[BATCH_BYTES]) {
  unpack(ks, q);
  xor_bytes(out, in, ks, 16 * n);
}

const struct aes_impl gcmi_aes_ct = {
    .name = "ct",
    .constant_time = 1,
    .requires = "none",
    .ctr_batch_blocks = NBLK,
    .key_bytes = BITSLICED_KEY_BYTES,
    .usable = gcmi_cpu_always,
    .set_encrypt_key = bitsliced_set_encrypt_key,
    .encrypt_block = bitsliced_encrypt_block,
    .ctr32 = bitsliced_ctr32,
    .ctr32le = bitsliced_ctr32le,
};
