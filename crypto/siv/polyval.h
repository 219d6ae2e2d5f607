/*
 * crypto/siv/polyval.h: POLYVAL (RFC 8452, section 3) on a GHASH backend.
 *
 * POLYVAL_H(X_1 .. X_n) is S_n, where S_0 = 0 and
 *   S_j = (S_{j-1} xor X_j) * H * x^-128
 * in GF(2^128) modulo x^128 + x^127 + x^126 + x^121 + 1, every block read
 * as a little-endian polynomial (bit i of byte j is the coefficient of
 * x^(8j+i)). Appendix A of the RFC relates it to GHASH:
 *   POLYVAL(H, X_1 .. X_n) =
 *     ByteReverse(GHASH(mulX_GHASH(ByteReverse(H)),
 *                       ByteReverse(X_1), .., ByteReverse(X_n)))
 * So any GHASH backend computes POLYVAL: initialised with the key
 * mulX_GHASH(ByteReverse(H)) (polyval_ghash_key) and fed byte-reversed
 * blocks, its running value Xi is the byte reversal of S. A backend whose
 * kernel works on byte-swapped blocks anyway (the carry-less multiply
 * kernels swap every block into a register) offers polyval_update
 * (ghash.h), the same kernel without the swaps, on the same key: then the
 * blocks go to it as they are, straight from the caller's buffer.
 *
 * struct polyval_feed does the feeding: it byte-reverses blocks into a
 * buffer on the caller's stack and hands the backend a whole buffer at a
 * time, so a backend that aggregates several blocks per reduction sees
 * runs of them, across the AAD, the plaintext and the length block alike.
 * Bytes fed in several calls are hashed as their concatenation; a segment
 * (the AAD, the plaintext) ends with gcmi_polyval_pad, which zero-pads a
 * partial last block as RFC 8452 pads them. Lengths decide everything the
 * feed does; the data only flow through copies and the byte reversal,
 * which is loads, byte swaps and stores.
 */
#ifndef LIBGCM_CRYPTO_SIV_POLYVAL_H
#define LIBGCM_CRYPTO_SIV_POLYVAL_H

#include <stddef.h>
#include <stdint.h>

#include "../ghash/ghash.h"
#include "../internal.h"

/* Blocks the feed collects before a GHASH call. */
#define POLYVAL_FEED_BLOCKS 32

struct polyval_feed {
  ghash_update_fn *fn;         /* polyval_update (direct), or update */
  const struct ghash_key *key; /* initialised with polyval_ghash_key's H */
  int direct;                  /* 1: fn takes the blocks as they are;
                                * 0: fn is GHASH, on byte-reversed blocks */
  size_t blocks;               /* blocks waiting in buf */
  size_t part_len;             /* bytes of an unfinished block in part */
  /* The running value: S (direct), or GHASH's ByteReverse(S). */
  GCM_ALIGNED(16) uint8_t Xi[16];
  GCM_ALIGNED(16) uint8_t part[16];
  GCM_ALIGNED(16) uint8_t buf[POLYVAL_FEED_BLOCKS * 16];
};

/* The GHASH key (16 bytes, GCM order) that makes a GHASH backend compute
 * POLYVAL with key `h` (16 bytes, RFC 8452 order): mulX_GHASH of its byte
 * reversal. */
GCM_HIDDEN void gcmi_polyval_ghash_key(uint8_t out[16], const uint8_t h[16]);

/* Starts a POLYVAL computation (S = 0) on a GHASH backend and its key:
 * with `wide` when it is not NULL (a fused kernel's siv_polyval, the
 * backend's polyval_update in wider registers), else with the backend's
 * polyval_update, else with its update on byte-reversed blocks. */
GCM_HIDDEN void gcmi_polyval_start(struct polyval_feed *f,
                                   const struct ghash_impl *ghash,
                                   const struct ghash_key *key,
                                   ghash_update_fn *wide);

/* Absorbs len bytes, continuing the bytes absorbed since the last pad. */
GCM_HIDDEN void gcmi_polyval_absorb(struct polyval_feed *f, const uint8_t *in,
                                    size_t len);

/* Ends a segment: a partial block absorbed so far is zero-padded and
 * hashed. Nothing happens on a block boundary. */
GCM_HIDDEN void gcmi_polyval_pad(struct polyval_feed *f);

/* Absorbs RFC 8452's length block: the AAD and plaintext lengths in bits,
 * each a little-endian 64-bit number (after the last segment's pad). */
GCM_HIDDEN void gcmi_polyval_lengths(struct polyval_feed *f, uint64_t aad_len,
                                     uint64_t data_len);

/* Hashes the blocks waiting in the feed and returns its running value,
 * S in RFC 8452's order, for a kernel that continues the hash in place
 * (fused.h's siv_open). Only for a direct feed (polyval_update) on a
 * block boundary (after gcmi_polyval_pad); absorbing may resume after. */
GCM_HIDDEN uint8_t *gcmi_polyval_running(struct polyval_feed *f);

/* Writes S, the POLYVAL value (RFC 8452 order), and wipes the feed. */
GCM_HIDDEN void gcmi_polyval_finish(struct polyval_feed *f, uint8_t s[16]);

#endif /* LIBGCM_CRYPTO_SIV_POLYVAL_H */
