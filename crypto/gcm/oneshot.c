/*
 * crypto/gcm/oneshot.c: the Galois/Counter Mode (NIST SP 800-38D) for a
 * key and for whole messages.
 *
 * For key K (its set-up is crypto/gcm/key.c), nonce IV, additional data A
 * and plaintext P:
 *   H   = E(K, 0^128)
 *   J0  = IV || 0^31 || 1                          if IV is 96 bits,
 *         GHASH_H(IV || 0-pad || 0^64 || [len(IV)]_64)  otherwise
 *   C   = P xor (E(K, inc32(J0)), E(K, inc32^2(J0)), ...)
 *   S   = GHASH_H(A || 0-pad || C || 0-pad || [len(A)]_64 || [len(C)]_64)
 *   T   = MSB_t(S xor E(K, J0))
 * where inc32 adds one to the last 32 bits of a block modulo 2^32.
 *
 * Short one-shot messages (96-bit nonce, at most GCM_SHORT_MAX bytes of
 * data and GCM_SHORT_AAD of AAD) skip the stream altogether: E(K, J0) and
 * the key stream come from one ctr32 call when they fit in a batch (else
 * E(K, J0) is a block of its own and the whole blocks take one ctr32 call
 * between the caller's buffer and the hash buffer), and AAD, ciphertext
 * and the length block are hashed in one GHASH call, so a kernel that
 * aggregates blocks reduces once per message (one_shot_short).
 *
 * One-shot messages on a key with a fused kernel (96-bit nonce, at most
 * one block of AAD, from GCM_SHORT_FUSED_MIN bytes on, or the kernel's
 * own oneshot_min) skip the stream
 * too: one kernel call hashes the AAD block, takes every whole block
 * straight from in to out, makes the tag mask and the partial block's
 * output beside them and hashes the partial block and the length block
 * after them (one_shot_fused).
 *
 * Other messages go through the stream engine (crypto/gcm/stream.c) as
 * one update, which its planner serves with exactly the key stream the
 * message needs (crypto/gcm/stream_plan.h).
 *
 * Nothing here branches on or indexes by secret data: lengths and positions
 * are public, the secrets (key, H, key stream, plaintext) only flow through
 * the backends and xor.
 */
#include "block.h"
#include "engine.h"
#include "mode.h"

/* The short one-shot path: data blocks (GCM_SHORT_MAX bytes, fused.h,
 * where a kernel's oneshot_min can refer to it) and AAD bytes it takes. */
#define GCM_SHORT_BLOCKS (GCM_SHORT_MAX / 16)
#define GCM_SHORT_AAD 96
/* With a fused kernel, one-shot messages of at least this many bytes (with
 * a 96-bit nonce and at most one block of AAD) take one_shot_fused rather
 * than one_shot_short or the stream. Below it one_shot_short's two calls
 * beat one_shot_fused's three (measured with the vaes_avx2 kernel: about
 * even at 128 bytes, one_shot_fused 15-35% faster from 200 bytes to 1350,
 * no different at 16 KiB). A kernel may ask for a higher threshold
 * (fused.h's oneshot_min). */
#ifndef GCM_SHORT_FUSED_MIN
#define GCM_SHORT_FUSED_MIN 160
#endif


/* Short copies and paddings of public lengths for the short path's AAD
 * over one block, without a library call: under 32 bytes a few
 * fixed-size moves (crypto/gcm/block.h's copy_pieces); longer copies go
 * to memcpy, which is faster there. */
static inline void copy_short(uint8_t *d, const uint8_t *s, size_t n) {
  if (n >= 32) {
    memcpy(d, s, n);
    return;
  }
  copy_pieces(d, s, n);
}
/* Zeroes the n < 16 bytes that pad a block. */
static inline void zero_pad(uint8_t *d, size_t n) {
  static const uint8_t zeros[16];
  copy_short(d, zeros, n & 15u);
}
/* Wipes `blocks` 16-byte blocks at p, inlined (crypto/internal.h). */
static inline void wipe_blocks(uint8_t *p, size_t blocks) {
  for (size_t i = 0; i < blocks; i++) secure_wipe_block(p + 16 * i);
}

/* Copies the public GHASH input of a short message into hb: the AAD,
 * zero-padded, from hb, and the length block after `c` blocks of
 * ciphertext (which the caller writes) from hb + a * 16. A single AAD
 * block is built in registers and written whole (crypto/gcm/block.h);
 * longer AAD is copied before any kernel runs, so its narrow stores have
 * reached the cache when GHASH reads them. */
static inline void short_public_input(uint8_t *hb, const uint8_t *aad,
                                      size_t aad_len, size_t a, size_t c,
                                      size_t in_len) {
  if (aad_len <= 16) {
    if (aad_len > 0) block_store(hb, block_load_partial(aad, aad_len));
  } else {
    copy_short(hb, aad, aad_len);
    zero_pad(hb + aad_len, a * 16 - aad_len);
  }
  block_store(hb + (a + c) * 16, block_lengths(aad_len, in_len));
}

/* The short path of gcm_mode_one_shot: nonce_len == 12,
 * in_len <= GCM_SHORT_MAX, aad_len <= GCM_SHORT_AAD.
 *
 * hb holds the whole GHASH input: AAD, ciphertext (each zero-padded) and
 * the length block, hashed in one call. Its public parts (the AAD, the
 * length block and, opening, the ciphertext) are written first, before
 * any kernel runs. Then:
 *   - When the tag mask and the data fit in one batch of the AES backend
 *     (a bitsliced core computes a batch for the price of a block), one
 *     ctr32 call from J0 over constant zeros makes E(K, J0) and the key
 *     stream, and the data is xored with it block by block in registers.
 *   - Otherwise the tag mask E(K, J0) is one block of its own, the whole
 *     blocks go through one ctr32 call straight between the caller's
 *     buffer and hb (sealing: plaintext to the ciphertext's place in hb,
 *     then one copy out; opening: from the copy in hb to out), and a last
 *     partial block takes one more block of key stream.
 * The partial last block is xored in registers; sealing writes it to hb
 * masked to its length (the zero padding) with one store. Every block a
 * kernel or GHASH loads soon after it is written is written whole
 * (crypto/gcm/block.h explains why). Opening reads only the copy in hb,
 * so out may equal in. The key stream left on the stack is wiped. */
static void one_shot_short(const struct gcm_key_st *k, int encrypt,
                           const uint8_t nonce[12], const uint8_t *in,
                           size_t in_len, const uint8_t *aad, size_t aad_len,
                           uint8_t *out, uint8_t tag[16]) {
  _Alignas(16) uint8_t hb[(GCM_SHORT_AAD / 16 + GCM_SHORT_BLOCKS + 1) * 16];
  /* ks: E(K, J0), then the key stream (the whole of it, or only the
   * partial block's, at ks + 16). */
  _Alignas(16) uint8_t ks[GCM_KS_MAX_BLOCKS * 16];
  _Alignas(16) uint8_t ctr[16];
  _Alignas(16) uint8_t Xi[16] = {0};
  /* Where the GHASH key is, worked out before the calls below: read from
   * the key's header after them, it would sit between the AES call's
   * return and GHASH's first loads (3% of a 64-byte seal). */
  const struct ghash_key *const gk = gcm_key_ghash(k);
  const size_t whole = in_len / 16, rem = in_len % 16;
  const size_t c = whole + (rem != 0), a = (aad_len + 15) / 16;
  uint8_t *hc = hb + a * 16; /* the ciphertext in hb */
  const uint8_t *src = encrypt ? in : hc; /* read before out is written */
  const uint8_t *tail_ks;                 /* the partial block's key stream */
  size_t ks_blocks;

  /* The nonce is read first: read after the stores to hb below, its loads
   * could wait on them wherever an address of hb matched the nonce's in
   * its low 12 bits, which is where the caller's and this frame's memory
   * happen to lie (a 16-byte open took 95 ns instead of 72 in one build of
   * the peer harness on AMD Zen 1, its time at this load). */
  block_store(ctr, block_counter(nonce, 1));
  short_public_input(hb, aad, aad_len, a, c, in_len);
  if (!encrypt) {
    for (size_t i = 0; i < whole; i++) {
      block_store(hc + 16 * i, block_load(in + 16 * i));
    }
    if (rem != 0) {
      block_store(hc + whole * 16, block_load_partial(in + whole * 16, rem));
    }
  }
  if (1 + c <= gcm_batch_blocks(k->aes)) {
    ks_blocks = 1 + c;
    k->aes->ctr32(gcm_key_aes(k), ks, gcmi_ks_zeros, ks_blocks, ctr);
    for (size_t i = 0; i < whole; i++) {
      gcm_block y = block_xor(block_load(src + 16 * i),
                              block_load(ks + 16 + 16 * i));
      if (encrypt) block_store(hc + 16 * i, y);
      block_store(out + 16 * i, y);
    }
    tail_ks = ks + 16 + whole * 16;
  } else {
    ks_blocks = 2;
    k->aes->encrypt_block(gcm_key_aes(k), ks, ctr);
    block_store(ctr, block_counter(nonce, 2));
    if (whole > 0) {
      k->aes->ctr32(gcm_key_aes(k), encrypt ? hc : out, src, whole, ctr);
      if (encrypt) memcpy(out, hc, whole * 16);
    }
    if (rem != 0) {
      block_store(ctr, block_counter(nonce, (uint32_t)(2 + whole)));
      k->aes->ctr32(gcm_key_aes(k), ks + 16, gcmi_ks_zeros, 1, ctr);
    }
    tail_ks = ks + 16;
  }
  if (rem != 0) {
    const uint8_t *tin = src + whole * 16;
    gcm_block x = encrypt ? block_load_partial(tin, rem) : block_load(tin);
    gcm_block y = block_xor(x, block_load(tail_ks));
    if (encrypt) {
      block_store(hc + whole * 16, block_and(y, block_prefix_mask(rem)));
    }
    block_store_partial(out + whole * 16, y, rem);
  }
  k->ghash->update(Xi, gk, hb, a + c + 1);

  xor_bytes(tag, Xi, ks, 16);
  wipe_blocks(ks, ks_blocks);
  secure_wipe_block(Xi);
}

/* A kernel call with a one-shot message's small pieces (fused.h's struct
 * fused_oneshot): the kernel's seal_oneshot or open_oneshot when it has
 * them, else the same steps through the backends around seal or open: the
 * AAD block into m->Xi (skipped when there is no AAD: m->Xi and m->aad
 * are zero), the blocks, the mask blocks (the second only with a partial
 * block, as the hooks' contract allows), the partial block and the length
 * block. */
static void fused_oneshot_call(const struct gcm_key_st *k,
                               const struct fused_keys *fk, int encrypt,
                               size_t aad_len, uint8_t *out,
                               const uint8_t *in, size_t blocks,
                               const uint8_t ctr[16],
                               struct fused_oneshot *m) {
  const struct fused_impl *f = k->fused;
  fused_oneshot_fn *one = encrypt ? f->seal_oneshot : f->open_oneshot;
  if (one != NULL) {
    one(fk, out, in, blocks, ctr, m);
    return;
  }
  if (aad_len > 0) k->ghash->update(m->Xi, fk->ghash_key, m->aad, 1);
  k->aes->ctr32(gcm_key_aes(k), m->ks[0], gcmi_ks_zeros, 1, m->ctr[0]);
  /* end: T (when there is a partial block), then the length block, hashed
   * as one run. */
  _Alignas(16) uint8_t end[32];
  if (m->end == 2) {
    k->aes->ctr32(gcm_key_aes(k), m->ks[1], gcmi_ks_zeros, 1, m->ctr[1]);
  }
  (encrypt ? f->seal : f->open)(fk, out, in, blocks, ctr, m->Xi);
  if (m->end == 2) {
    const gcm_block ks = block_load(m->ks[1]), tail = block_load(m->tail);
    block_store(end, block_xor(tail, block_and(ks, block_load(m->hmask))));
    block_store(m->ks[1], block_xor(ks, tail));
  }
  block_store(end + 16, block_load(m->lengths));
  k->ghash->update(m->Xi, fk->ghash_key, end + 32 - 16 * m->end, m->end);
}

/* The one-shot path for a key with a fused kernel (crypto/fused/fused.h):
 * a 96-bit nonce, at most one block of AAD and at least
 * GCM_SHORT_FUSED_MIN bytes of data, any length above that (it needs no
 * buffer that grows with the data). One kernel call (fused_oneshot_call)
 * does the message but for the bytes of its partial last block: it folds
 * the zero-padded AAD block into the hash, seals or opens every whole
 * block straight from in to out, from J0 + 1, makes the tag mask E(K, J0)
 * and the partial block's output beside them, and hashes the partial
 * block and the length block after them. With the kernel's hooks that is
 * one call where there were four (5-6% faster at 1350 bytes on aesni_avx,
 * Zen 1; docs/performance.md). Every block the kernel loads (the struct,
 * the counter block) is written whole before the call
 * (crypto/gcm/block.h says why). */
static void one_shot_fused(const struct gcm_key_st *k, int encrypt,
                           const uint8_t nonce[12], const uint8_t *in,
                           size_t in_len, const uint8_t *aad, size_t aad_len,
                           uint8_t *out, uint8_t tag[16]) {
  /* m: the hash, the AAD block, the counter blocks J0 and that of the
   * partial block and their key stream, the partial block, the length
   * block. */
  _Alignas(16) struct fused_oneshot m;
  _Alignas(16) uint8_t ctr[16]; /* J0 + 1, where the blocks start */
  const size_t whole = in_len / 16, rest = in_len % 16;
  const struct fused_keys fk = gcm_key_fused_keys(k);

  block_store(m.Xi, block_make(0, 0));
  block_store(m.aad, block_load_partial(aad, aad_len));
  block_store(m.ctr[0], block_counter(nonce, 1));
  /* The counter of the partial block, 2 + whole, wraps modulo 2^32 as
   * inc32 does. */
  block_store(m.ctr[1], block_counter(nonce, (uint32_t)(2 + whole)));
  block_store(ctr, block_counter(nonce, 2));
  /* The partial block's input is read now: opening hashes the ciphertext
   * as given, before out (maybe == in) is written. */
  block_store(m.tail, block_load_partial(in + whole * 16, rest));
  block_store(m.hmask,
              encrypt ? block_prefix_mask(rest) : block_make(0, 0));
  block_store(m.lengths, block_lengths(aad_len, in_len));
  m.end = rest > 0 ? 2 : 1;

  /* whole >= 1 here: GCM_SHORT_FUSED_MIN is at least a block. */
  fused_oneshot_call(k, &fk, encrypt, aad_len, out, in, whole, ctr, &m);
  if (rest > 0) block_store_partial(out + whole * 16, block_load(m.ks[1]), rest);
  xor_bytes(tag, m.Xi, m.ks[0], 16);
  wipe_blocks(m.ks[0], 2);
  wipe_blocks(m.tail, 1);
  secure_wipe_block(m.Xi);
}

void gcm_mode_one_shot(const struct gcm_key_st *k, int encrypt,
                       const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *in, size_t in_len, const uint8_t *aad,
                       size_t aad_len, uint8_t *out, uint8_t tag[16]) {
  if (nonce_len == 12 && aad_len <= 16 && k->fused != NULL &&
      in_len >= (k->fused->oneshot_min != 0 ? k->fused->oneshot_min
                                            : GCM_SHORT_FUSED_MIN) &&
      in_len / 16 >= k->fused->min_blocks) {
    one_shot_fused(k, encrypt, nonce, in, in_len, aad, aad_len, out, tag);
    return;
  }
  if (nonce_len == 12 && in_len <= GCM_SHORT_MAX && aad_len <= GCM_SHORT_AAD) {
    one_shot_short(k, encrypt, nonce, in, in_len, aad, aad_len, out, tag);
    return;
  }
  /* The general case: the streaming engine on a stack stream that is
   * wiped before returning (it held key stream and the tag mask). */
  struct gcm_stream_st s;
  gcm_mode_start(&s, k, encrypt, nonce, nonce_len, in_len);
  gcm_mode_aad(&s, aad, aad_len);
  gcm_mode_crypt(&s, out, in, in_len);
  gcm_mode_tag(&s, tag);
  gcmi_secure_wipe(&s, sizeof(s));
}
