/*
 * crypto/siv/polyval.c: POLYVAL (RFC 8452) computed by any GHASH backend,
 * through the relation of the RFC's appendix A (crypto/siv/polyval.h).
 *
 * Why it holds. GHASH reads a block with the most significant bit of its
 * first byte as the coefficient of x^0 ("reflected"); POLYVAL reads it
 * with the least significant bit of its first byte as x^0. Reversing the
 * bytes of a block and reading it the GHASH way gives the POLYVAL
 * polynomial with every exponent mirrored, e -> 127 - e, and the two
 * fields' moduli (x^128+x^7+x^2+x+1 and x^128+x^127+x^126+x^121+1) are
 * mirror images of each other. Under the mirror, a GHASH product a*b
 * becomes the POLYVAL product a*b*x^-127, while POLYVAL's step multiplies
 * by H*x^-128: the missing x^-1 is absorbed into the key, which is why
 * the GHASH key is H (mirrored) times x, mulX_GHASH. The running value the
 * backend keeps is then the mirror, that is the byte reversal, of S.
 *
 * Constant time: the key transform is shifts and a mask made from the
 * key's lowest bit (no branch); the byte reversal is loads, byte swaps and
 * stores at positions fixed by the public lengths; the field arithmetic is
 * the GHASH backend's, constant-time for every backend the dispatcher
 * picks by itself.
 */
#include "polyval.h"

#include "siv_block.h"

/* out = ByteReverse(in), for one 16-byte block (out may equal in), with
 * one 16-byte store (crypto/siv/siv_block.h). */
static inline void block_reverse(uint8_t out[16], const uint8_t in[16]) {
  block_store(out, siv_block_reverse(block_load(in)));
}

void gcmi_polyval_ghash_key(uint8_t out[16], const uint8_t h[16]) {
  /* V = ByteReverse(h) as GCM's 128-bit big-endian number, then mulX_GHASH:
   * one step right in GCM's reflected order, folding the bit shifted out
   * (x^128) back in as x^7+x^2+x+1, the byte 0xe1 at the top. */
  uint64_t hi = load_le64(h + 8), lo = load_le64(h);
  uint64_t carry = 0 - (lo & 1);
  lo = (lo >> 1) | (hi << 63);
  hi = (hi >> 1) ^ (UINT64_C(0xe100000000000000) & carry);
  block_store(out, block_make(word_be64(hi), word_be64(lo)));
}

void gcmi_polyval_start(struct polyval_feed *f, const struct ghash_impl *ghash,
                        const struct ghash_key *key, ghash_update_fn *wide) {
  f->direct = 1;
  if (wide != NULL) {
    f->fn = wide;
  } else if (ghash->polyval_update != NULL) {
    f->fn = ghash->polyval_update;
  } else {
    f->fn = ghash->update;
    f->direct = 0;
  }
  f->key = key;
  f->blocks = 0;
  f->part_len = 0;
  memset(f->Xi, 0, sizeof(f->Xi));
}

static void feed_flush(struct polyval_feed *f) {
  if (f->blocks == 0) return;
  f->fn(f->Xi, f->key, f->buf, f->blocks);
  f->blocks = 0;
}

/* Appends one block to the buffer (byte-reversed unless direct), flushing
 * it first when full. */
static void feed_block(struct polyval_feed *f, const uint8_t in[16]) {
  if (f->blocks == POLYVAL_FEED_BLOCKS) feed_flush(f);
  uint8_t *slot = f->buf + 16 * f->blocks++;
  if (f->direct) {
    memcpy(slot, in, 16);
  } else {
    block_reverse(slot, in);
  }
}

/* Runs of at least this many whole blocks go to polyval_update straight
 * from the caller's buffer; shorter ones are gathered in buf with their
 * neighbours (the AAD's, the length block), so a short message costs one
 * call. */
#define POLYVAL_DIRECT_MIN 8

void gcmi_polyval_absorb(struct polyval_feed *f, const uint8_t *in,
                         size_t len) {
  /* Nothing to take (and `in` may then be NULL, which memcpy must not
   * be given even for zero bytes). */
  if (len == 0) return;
  if (f->part_len > 0) {
    /* Complete the block an earlier call began. */
    size_t take = 16 - f->part_len < len ? 16 - f->part_len : len;
    memcpy(f->part + f->part_len, in, take);
    f->part_len += take;
    in += take;
    len -= take;
    if (f->part_len < 16) return;
    feed_block(f, f->part);
    f->part_len = 0;
  }
  if (f->direct && len / 16 >= POLYVAL_DIRECT_MIN) {
    size_t n = len / 16;
    feed_flush(f);
    f->fn(f->Xi, f->key, in, n);
    in += 16 * n;
    len -= 16 * n;
  }
  for (; len >= 16; in += 16, len -= 16) feed_block(f, in);
  if (len > 0) {
    memcpy(f->part, in, len);
    f->part_len = len;
  }
}

void gcmi_polyval_pad(struct polyval_feed *f) {
  if (f->part_len == 0) return;
  memset(f->part + f->part_len, 0, 16 - f->part_len);
  feed_block(f, f->part);
  f->part_len = 0;
}

void gcmi_polyval_lengths(struct polyval_feed *f, uint64_t aad_len,
                          uint64_t data_len) {
  uint8_t lengths[16];
  store_le64(lengths, aad_len * 8);
  store_le64(lengths + 8, data_len * 8);
  feed_block(f, lengths);
}

uint8_t *gcmi_polyval_running(struct polyval_feed *f) {
  feed_flush(f);
  return f->Xi;
}

void gcmi_polyval_finish(struct polyval_feed *f, uint8_t s[16]) {
  feed_flush(f);
  if (f->direct) {
    memcpy(s, f->Xi, 16);
  } else {
    block_reverse(s, f->Xi);
  }
  gcmi_secure_wipe(f, sizeof(*f));
}
