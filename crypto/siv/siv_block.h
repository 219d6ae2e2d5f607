/*
 * crypto/siv/siv_block.h: AES-GCM-SIV's 16-byte blocks built in registers
 * (the nonce blocks, the counter blocks, the length block, the byte
 * reversal), on the GCM engine's struct of crypto/gcm/block.h.
 *
 * Why, as there: every such block is the input of a kernel that loads it
 * with one 16-byte load, and a block written by narrower stores (a 12-byte
 * nonce and a 4-byte counter, a byte OR into byte 15, two 8-byte halves)
 * cannot be forwarded to that load from the store buffer: the load waits
 * until the stores have reached the cache. An AES-GCM-SIV message makes
 * six or seven such blocks before its first byte of output, so on short
 * messages the waits were a large part of the time. Built here as two
 * 64-bit words and written with block_store, each is one 16-byte store.
 *
 * Words hold memory images (element 0 is bytes 0..7), so the helpers read
 * the same on little- and big-endian machines; the fixed-size memcpy
 * through byte arrays below compiles to shifts, or to nothing.
 *
 * Constant time: moves, shifts, byte swaps and masks only.
 */
#ifndef LIBGCM_CRYPTO_SIV_SIV_BLOCK_H
#define LIBGCM_CRYPTO_SIV_SIV_BLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../gcm/block.h"
#include "../internal.h"

/* The memory image of LE64(v), as a word. */
static inline uint64_t siv_word_le64(uint64_t v) {
  uint8_t b[8];
  store_le64(b, v);
  uint64_t w;
  memcpy(&w, b, 8);
  return w;
}

/* The word whose memory image is that of w reversed. */
static inline uint64_t siv_word_reverse(uint64_t w) {
  uint8_t b[8];
  memcpy(b, &w, 8);
  return word_be64(load_le64(b));
}

/* ByteReverse(b) (RFC 8452): byte i becomes byte 15 - i. */
static inline gcm_block siv_block_reverse(gcm_block b) {
  return block_make(siv_word_reverse(block_hi(b)),
                    siv_word_reverse(block_lo(b)));
}

/* The little-endian 32-bit number in bytes 0..3 of b. */
static inline uint32_t siv_block_le32(gcm_block b) {
  uint8_t img[8];
  uint64_t lo = block_lo(b);
  memcpy(img, &lo, 8);
  return load_le32(img);
}

/* b with bytes 0..3 replaced by LE32(c). */
static inline gcm_block siv_block_set_le32(gcm_block b, uint32_t c) {
  uint8_t img[8];
  uint64_t lo = block_lo(b);
  memcpy(img, &lo, 8);
  store_le32(img, c);
  memcpy(&lo, img, 8);
  return block_make(lo, block_hi(b));
}

/* LE32(0) || N: the first of the key derivation's blocks. */
static inline gcm_block siv_block_derivation(const uint8_t nonce[12]) {
  uint32_t n0;
  uint64_t hi;
  memcpy(&n0, nonce, 4);
  memcpy(&hi, nonce + 4, 8);
  return block_make((uint64_t)n0 << GCM_PIECE_SHIFT(4u, 4u), hi);
}

/* N || 0^32, what S is xored with. */
static inline gcm_block siv_block_nonce(const uint8_t nonce[12]) {
  uint64_t lo;
  memcpy(&lo, nonce, 8);
  return block_make(lo, word_load_partial(nonce + 8, 4));
}

/* The block with only bit 7 of byte 15 set. */
static inline gcm_block siv_block_top_bit(void) {
  return block_make(0, (uint64_t)0x80 << GCM_PIECE_SHIFT(7u, 1u));
}

/* b with bit 7 of byte 15 cleared (the tag's input) or set (the first
 * counter block). */
static inline gcm_block siv_block_clear_top(gcm_block b) {
  const gcm_block top = siv_block_top_bit();
  return block_xor(b, block_and(b, top));
}
static inline gcm_block siv_block_set_top(gcm_block b) {
  return block_xor(siv_block_clear_top(b), siv_block_top_bit());
}

/* The length block LE64(8 aad_len) || LE64(8 data_len). */
static inline gcm_block siv_block_lengths(uint64_t aad_len,
                                          uint64_t data_len) {
  return block_make(siv_word_le64(aad_len * 8), siv_word_le64(data_len * 8));
}

/* Copies `blocks` whole blocks from s to d: up to fifteen in at most four
 * fixed-size moves (crypto/gcm/block.h's copy_pieces, whose comment says
 * why not a loop), more with memcpy. */
static inline void siv_copy_blocks(uint8_t *d, const uint8_t *s,
                                   size_t blocks) {
  if (blocks > 15) {
    memcpy(d, s, 16 * blocks);
    return;
  }
  copy_pieces(d, s, 16 * blocks);
}

/* Copies the n bytes at src to dst zero-padded to whole blocks: the whole
 * blocks by siv_copy_blocks, the partial one with one 16-byte store. */
static inline void siv_put_padded(uint8_t *dst, const uint8_t *src,
                                  size_t n) {
  const size_t whole = n / 16 * 16;
  siv_copy_blocks(dst, src, n / 16);
  if (n > whole) {
    block_store(dst + whole, block_load_partial(src + whole, n - whole));
  }
}

#endif /* LIBGCM_CRYPTO_SIV_SIV_BLOCK_H */
