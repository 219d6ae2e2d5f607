/*
 * crypto/gcm/block.h: 16-byte blocks held in registers, for the one-shot
 * paths of the mode engine (oneshot.c, stream.c) and for every counter
 * block a kernel loads (block_ctr32_add, also used by the portable fused
 * loop).
 *
 * Why. A kernel reads a counter block, an AAD block or a padded last block
 * with one 16-byte load. When that block was just written by narrower
 * stores (a 12-byte nonce copy and a 4-byte counter, or the 8-, 4- and
 * 1-byte pieces of 13 bytes of AAD), the load cannot be served from the
 * store buffer: it waits until those stores have reached the cache, which
 * costs about as much as encrypting the block. On a 16-byte message that
 * wait comes three or four times and was a fifth of the time of a seal.
 * So the one-shot paths build such blocks in registers, as two 64-bit
 * words, and write each with a single 16-byte store.
 *
 * How. Where GNU C has native 16-byte vectors (x86-64 with SSE2, AArch64,
 * 32-bit ARM with NEON) a block is a vector of two uint64_t and a store is
 * one vector store. Elsewhere it is a pair of words and a store is two
 * 8-byte stores: correct, only not forwarded. Element 0 is always the
 * first 8 bytes in memory, in the machine's byte order, so the code reads
 * the same on little- and big-endian machines.
 *
 * A partial block (n < 16 bytes) is loaded and stored in at most one 8-,
 * 4-, 2- and 1-byte piece, in that order; each piece then lies inside one
 * word, aligned to its size within it. Nothing is read or written outside
 * the n bytes. The lengths are public: the branches on n reveal only them.
 */
#ifndef LIBGCM_CRYPTO_GCM_BLOCK_H
#define LIBGCM_CRYPTO_GCM_BLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../internal.h"

#if (defined(__GNUC__) || defined(__clang__)) &&                          \
    (defined(__SSE2__) || defined(__ARM_NEON) || defined(__aarch64__))
typedef uint64_t gcm_block __attribute__((vector_size(16)));
static inline uint64_t block_lo(gcm_block b) { return b[0]; }
static inline uint64_t block_hi(gcm_block b) { return b[1]; }
static inline gcm_block block_make(uint64_t lo, uint64_t hi) {
  gcm_block b = {lo, hi};
  return b;
}
static inline gcm_block block_xor(gcm_block a, gcm_block b) { return a ^ b; }
static inline gcm_block block_and(gcm_block a, gcm_block b) { return a & b; }
#else
typedef struct {
  uint64_t w[2];
} gcm_block;
static inline uint64_t block_lo(gcm_block b) { return b.w[0]; }
static inline uint64_t block_hi(gcm_block b) { return b.w[1]; }
static inline gcm_block block_make(uint64_t lo, uint64_t hi) {
  gcm_block b = {{lo, hi}};
  return b;
}
static inline gcm_block block_xor(gcm_block a, gcm_block b) {
  return block_make(a.w[0] ^ b.w[0], a.w[1] ^ b.w[1]);
}
static inline gcm_block block_and(gcm_block a, gcm_block b) {
  return block_make(a.w[0] & b.w[0], a.w[1] & b.w[1]);
}
#endif

static inline gcm_block block_load(const uint8_t *p) {
  gcm_block b;
  memcpy(&b, p, 16);
  return b;
}

static inline void block_store(uint8_t *p, gcm_block b) { memcpy(p, &b, 16); }

/* The shift that puts a piece loaded at byte offset `off` of a word where
 * memory order says, and its inverse for storing. `size` is the piece's
 * length in bytes. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define GCM_PIECE_SHIFT(off, size) (8u * (8u - (off) - (size)))
#else
#define GCM_PIECE_SHIFT(off, size) (8u * (off))
#endif

/* The word whose memory image is the first n bytes (n <= 8) at p followed
 * by zeros. */
static inline uint64_t word_load_partial(const uint8_t *p, size_t n) {
  uint64_t w = 0;
  size_t off = 0;
  if (n & 8) {
    memcpy(&w, p, 8);
    return w;
  }
  if (n & 4) {
    uint32_t x;
    memcpy(&x, p, 4);
    w |= (uint64_t)x << GCM_PIECE_SHIFT(0u, 4u);
    off = 4;
  }
  if (n & 2) {
    uint16_t x;
    memcpy(&x, p + off, 2);
    w |= (uint64_t)x << GCM_PIECE_SHIFT(off, 2u);
    off += 2;
  }
  if (n & 1) w |= (uint64_t)p[off] << GCM_PIECE_SHIFT(off, 1u);
  return w;
}

/* Writes the first n bytes (n <= 8) of the memory image of w to p. */
static inline void word_store_partial(uint8_t *p, uint64_t w, size_t n) {
  size_t off = 0;
  if (n & 8) {
    memcpy(p, &w, 8);
    return;
  }
  if (n & 4) {
    uint32_t x = (uint32_t)(w >> GCM_PIECE_SHIFT(0u, 4u));
    memcpy(p, &x, 4);
    off = 4;
  }
  if (n & 2) {
    uint16_t x = (uint16_t)(w >> GCM_PIECE_SHIFT(off, 2u));
    memcpy(p + off, &x, 2);
    off += 2;
  }
  if (n & 1) p[off] = (uint8_t)(w >> GCM_PIECE_SHIFT(off, 1u));
}

/* The block holding the n <= 16 bytes at p, zero-padded. */
static inline gcm_block block_load_partial(const uint8_t *p, size_t n) {
  if (n >= 16) return block_load(p);
  if (n >= 8) {
    uint64_t lo;
    memcpy(&lo, p, 8);
    return block_make(lo, word_load_partial(p + 8, n - 8));
  }
  return block_make(word_load_partial(p, n), 0);
}

/* Writes the first n <= 16 bytes of b to p. */
static inline void block_store_partial(uint8_t *p, gcm_block b, size_t n) {
  if (n >= 16) {
    block_store(p, b);
  } else if (n >= 8) {
    uint64_t lo = block_lo(b);
    memcpy(p, &lo, 8);
    word_store_partial(p + 8, block_hi(b), n - 8);
  } else {
    word_store_partial(p, block_lo(b), n);
  }
}

/* The block whose first n <= 16 bytes are 0xff and the rest zero. */
static inline gcm_block block_prefix_mask(size_t n) {
  static const uint8_t ones[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                   0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                   0xff, 0xff, 0xff, 0xff};
  return block_load_partial(ones, n);
}

/* The memory image of the big-endian encoding of v, as a word. */
static inline uint64_t word_be64(uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (56 - 8 * i));
  uint64_t w;
  memcpy(&w, b, 8);
  return w;
}

/* The counter block nonce || [counter]_32 (a 96-bit nonce). */
static inline gcm_block block_counter(const uint8_t nonce[12],
                                      uint32_t counter) {
  uint64_t lo, hi;
  memcpy(&lo, nonce, 8);
  uint8_t b[8];
  memcpy(b, nonce + 8, 4);
  b[4] = (uint8_t)(counter >> 24);
  b[5] = (uint8_t)(counter >> 16);
  b[6] = (uint8_t)(counter >> 8);
  b[7] = (uint8_t)counter;
  memcpy(&hi, b, 8);
  return block_make(lo, hi);
}

/* Advances the counter block ctr by n: adds n to its big-endian 32-bit word
 * ctr[12..15] modulo 2^32 and keeps ctr[0..11], the "ctr + i" of the
 * counter-mode contract (crypto/aes/aes.h). The block is written back
 * whole, with one 16-byte store: the next kernel call loads it as one
 * 16-byte value, which a 4-byte store of the last word would stall (see
 * the top of this file). */
static inline void block_ctr32_add(uint8_t ctr[16], uint32_t n) {
  block_store(ctr, block_counter(ctr, load_be32(ctr + 12) + n));
}

/* GCM's length block [len(A)]_64 || [len(C)]_64, from byte counts. */
static inline gcm_block block_lengths(uint64_t aad_len, uint64_t data_len) {
  return block_make(word_be64(aad_len * 8), word_be64(data_len * 8));
}

/* Copies n < 256 bytes (a public length) from s to d in at most eight
 * fixed-size moves chosen by the bits of n, largest first. No loop and no
 * length the compiler has to guess: a loop of block copies, or a memcpy of
 * a small length it knows, became REP MOVSQ (or a call), whose start-up
 * cost 8-10% of a 16-64-byte seal (aesni_avx, AMD Zen 1). Where n is a
 * known multiple of 16 the moves under 16 bytes fold away. Copies of
 * 256 bytes or more go to memcpy, which is faster there. */
static inline void copy_pieces(uint8_t *d, const uint8_t *s, size_t n) {
  if (n & 128) memcpy(d, s, 128), d += 128, s += 128;
  if (n & 64) memcpy(d, s, 64), d += 64, s += 64;
  if (n & 32) memcpy(d, s, 32), d += 32, s += 32;
  if (n & 16) memcpy(d, s, 16), d += 16, s += 16;
  if (n & 8) memcpy(d, s, 8), d += 8, s += 8;
  if (n & 4) memcpy(d, s, 4), d += 4, s += 4;
  if (n & 2) memcpy(d, s, 2), d += 2, s += 2;
  if (n & 1) *d = *s;
}

#endif /* LIBGCM_CRYPTO_GCM_BLOCK_H */
