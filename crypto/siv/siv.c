/*
 * crypto/siv/siv.c: AES-GCM-SIV (RFC 8452) on any (AES, GHASH) pair of
 * backend descriptors.
 *
 * For key-generating key K (16 or 32 bytes), 96-bit nonce N, AAD A and
 * plaintext P (RFC 8452, section 4):
 *   B_i   = AES(K, LE32(i) || N)                 i = 0 .. 3 (0 .. 5)
 *   K_auth = B_0[0..7] || B_1[0..7]              (16 bytes)
 *   K_enc  = B_2[0..7] || B_3[0..7] (|| B_4[0..7] || B_5[0..7] for AES-256)
 *   S     = POLYVAL(K_auth, A || 0-pad || P || 0-pad ||
 *                   LE64(8 len(A)) || LE64(8 len(P)))
 *   T     = AES(K_enc, (S xor (N || 0^32)) with bit 7 of byte 15 cleared)
 *   C     = P xor (AES(K_enc, CB_0), AES(K_enc, CB_1), ...), where
 *           CB_0 is T with bit 7 of byte 15 set and CB_i adds i to its
 *           first four bytes as a little-endian 32-bit number, mod 2^32.
 * Opening runs counter mode from the received tag, hashes the plaintext
 * it gets and recomputes T; the API layer compares and wipes.
 *
 * Here everything goes through the key's descriptors: the AES backend's
 * ctr32le hook (counter mode with the counter in the first word, as
 * here) for the derivation (over zeros from LE32(0) || N) and the key
 * stream, or, for a backend without one, encrypt_block on one counter
 * block at a time; encrypt_block for the tag; set_encrypt_key for K_enc;
 * and the GHASH backend for POLYVAL (crypto/siv/polyval.c, which uses its
 * polyval_update hook when it has one), on a key from its init_for hook
 * (only the powers of H this message's POLYVAL input reads). A key with a
 * fused kernel (crypto/fused/fused.h's AES-GCM-SIV functions) runs long
 * runs through it: counter mode and POLYVAL in its wider registers, from
 * SIV_WIDE_MIN_BLOCKS and SIV_WIDE_HASH_MIN_BLOCKS, and the whole blocks
 * of an open in one pass that decrypts and hashes; and a one-shot
 * message on such a key that is not short hashes its POLYVAL input
 * straight from the caller's buffers as four runs of whole blocks
 * (seal_fused, open_fused below), in one call of the kernel's
 * siv_polyval_runs where it has one; such a seal then makes its tag and
 * all of its key stream (the padded last block too) in one call of the
 * kernel's siv_tag_ctr32le where it has one, and such an open of at
 * least SIV_WIDE_MIN_BLOCKS whole blocks runs everything after the
 * POLYVAL of the AAD's whole blocks (its padded last block, the whole
 * blocks, the partial last block, the length block, the tag) in one call
 * of the kernel's siv_open_end where it has one. The backends' key
 * layouts are reached only through crypto/siv/siv_keys.h.
 *
 * The steps are those of a message in pieces (struct siv_message,
 * crypto/siv/siv_mode.h), which the one-shot calls at the end run over a
 * single buffer; a short message (SIV_SHORT_MAX) takes the short path
 * below, one hash call and one counter-mode call over a padded copy. A
 * fused kernel with fused.h's per-message hooks does more in one call:
 * siv_keys both keys of any message (derive_message_keys), or
 * siv_keys_hash both with the GHASH key's powers, and
 * siv_seal_short / siv_open_short the whole of a message, up to its
 * siv_seal_max / siv_open_max bytes (past SIV_SHORT_MAX too, up to
 * FUSED_SIV_KERNEL_MAX).
 * Without a fused kernel, opening decrypts and hashes in chunks of
 * POLYVAL_FEED_BLOCKS blocks, so each chunk of plaintext is hashed while
 * it is still in the cache. Sealing cannot interleave: the counter starts
 * from the tag, which needs the hash of all of the plaintext first.
 * Every block a kernel loads is written with one 16-byte store
 * (crypto/siv/siv_block.h).
 *
 * Constant time: the lengths decide every branch, loop and position; the
 * key, the derived keys, the data, S and the key stream only flow through
 * the backends, xor and copies. The tag comparison is the API layer's
 * (ct_memeq). Every secret left on the stack is wiped before returning:
 * the derived keys (raw and expanded), S and the key stream.
 */
#include "siv_mode.h"

#include "siv_block.h"

/* Key stream made per encrypt_block loop, then xored in one pass. */
#define SIV_KS_BLOCKS POLYVAL_FEED_BLOCKS

/* Input for key stream made on its own: counter mode over zeros. */
static const uint8_t siv_zeros[6 * 16];

void gcm_siv_mode_key_init(struct gcm_siv_key_st *k, const struct aes_impl *aes,
                           const struct ghash_impl *ghash,
                           const struct fused_impl *fused, const uint8_t *key,
                           size_t key_len) {
  k->aes = aes;
  k->ghash = ghash;
  k->fused = fused;
  k->key_len = (uint32_t)key_len;
  siv_expand_kgk(aes,
                 (struct aes_schedule *)(void *)((uint8_t *)(void *)k +
                                                 GCM_SIV_KEY_HEADER_BYTES),
                 key, key_len);
  k->magic = GCM_SIV_KEY_MAGIC;
}

/* Messages of at least this many blocks of POLYVAL input are hashed with
 * the fused kernel's functions, on a key from its siv_hash_init; shorter
 * ones with the GHASH backend's, whose key for a few blocks is quicker to
 * make and whose entry is shorter. */
#define SIV_WIDE_HASH_MIN_BLOCKS 17

/* The fused kernel's siv_hash_init when a message of polyval_blocks
 * blocks is hashed with the fused kernel's functions, else NULL: then
 * with the GHASH backend's. */
static ghash_init_for_fn *siv_wide_hash(const struct gcm_siv_key_st *k,
                                        uint64_t polyval_blocks) {
  if (k->fused == NULL || polyval_blocks < SIV_WIDE_HASH_MIN_BLOCKS) {
    return NULL;
  }
  return k->fused->siv_hash_init;
}

/* The matching POLYVAL function: the fused kernel's siv_polyval for such
 * a message, else NULL (the GHASH backend's polyval_update). A key made
 * by siv_hash_init is always hashed by siv_polyval (fused.h). */
static ghash_update_fn *siv_wide_polyval(const struct gcm_siv_key_st *k,
                                         uint64_t polyval_blocks) {
  if (k->fused == NULL || polyval_blocks < SIV_WIDE_HASH_MIN_BLOCKS) {
    return NULL;
  }
  return k->fused->siv_polyval;
}

/* The per-nonce keys (RFC 8452, section 4): K_enc expanded into mk->enc,
 * and the GHASH key that makes the GHASH backend compute POLYVAL under
 * K_auth, precomputed into mk->hash. Every block a kernel loads is
 * written whole (crypto/siv/siv_block.h). */
static void derive_message_keys(const struct gcm_siv_key_st *k,
                                const uint8_t nonce[12],
                                struct siv_message_keys *mk,
                                uint64_t polyval_blocks) {
  _Alignas(16) uint8_t in[16], h[16];
  /* B_0 .. B_{n-1}; then K_auth, and K_enc: their first 8 bytes. */
  _Alignas(16) uint8_t b[6 * 16], auth[16], enc[32];
  const size_t n = 2 + k->key_len / 8; /* 4 blocks, or 6 for AES-256 */
  const gcm_block first = siv_block_derivation(nonce);

  if (k->fused != NULL && k->fused->siv_keys_hash != NULL) {
    /* Both keys, the GHASH key's powers too, in one kernel call. */
    siv_derive_keys_hash(k->fused->siv_keys_hash, k->aes, k->ghash,
                         gcm_siv_key_kgk(k), nonce, mk, polyval_blocks);
    return;
  }
  if (k->fused != NULL && k->fused->siv_keys != NULL) {
    /* Both keys in one kernel call: K_enc straight into its schedule. */
    siv_derive_keys(k->fused->siv_keys, k->aes, gcm_siv_key_kgk(k), nonce,
                    auth, mk);
    gcmi_polyval_ghash_key(h, auth);
    siv_init_hash(k->ghash, siv_wide_hash(k, polyval_blocks), mk, h,
                  polyval_blocks);
    secure_wipe_block(auth);
    secure_wipe_block(h);
    return;
  }
  if (k->aes->ctr32le != NULL) {
    /* The blocks LE32(0) || N .. LE32(n-1) || N are counter mode's from
     * LE32(0) || N, over zeros. */
    block_store(in, first);
    k->aes->ctr32le(gcm_siv_key_kgk(k), b, siv_zeros, n, in);
  } else {
    for (size_t i = 0; i < n; i++) {
      block_store(in, siv_block_set_le32(first, (uint32_t)i));
      k->aes->encrypt_block(gcm_siv_key_kgk(k), b + 16 * i, in);
    }
  }
  for (size_t i = 0; i < n; i += 2) {
    gcm_block half = block_make(block_lo(block_load(b + 16 * i)),
                                block_lo(block_load(b + 16 * i + 16)));
    block_store(i == 0 ? auth : enc + 8 * (i - 2), half);
  }
  siv_expand_enc(k->aes, mk, enc, k->key_len);
  gcmi_polyval_ghash_key(h, auth);
  siv_init_hash(k->ghash, siv_wide_hash(k, polyval_blocks), mk, h,
                polyval_blocks);
  gcmi_secure_wipe(b, sizeof(b));
  gcmi_secure_wipe(enc, sizeof(enc));
  secure_wipe_block(auth);
  secure_wipe_block(h);
}

void gcm_siv_message_start(struct siv_message *m,
                           const struct gcm_siv_key_st *k,
                           const uint8_t nonce[12], uint64_t polyval_blocks) {
  m->k = k;
  memcpy(m->nonce, nonce, 12);
  m->hashing_data = 0;
  m->aad_len = 0;
  m->data_len = 0;
  m->next_block = 0;
  m->ks_left = 0;
  derive_message_keys(k, nonce, &m->keys, polyval_blocks);
  gcmi_polyval_start(&m->hash, k->ghash, siv_hash(&m->keys),
                     siv_wide_polyval(k, polyval_blocks));
}

void gcm_siv_message_aad(struct siv_message *m, const uint8_t *aad,
                         size_t len) {
  gcmi_polyval_absorb(&m->hash, aad, len);
  m->aad_len += len;
}

/* The AAD ends where the plaintext begins: its last block is padded. */
static void end_aad(struct siv_message *m) {
  if (m->hashing_data) return;
  gcmi_polyval_pad(&m->hash);
  m->hashing_data = 1;
}

void gcm_siv_message_hash_data(struct siv_message *m, const uint8_t *in,
                               size_t len) {
  end_aad(m);
  gcmi_polyval_absorb(&m->hash, in, len);
  m->data_len += len;
}

/* T from S: S xor the nonce, top bit cleared, encrypted under K_enc. */
void gcm_siv_message_tag(struct siv_message *m, uint8_t tag[16]) {
  _Alignas(16) uint8_t s[16];
  end_aad(m);
  gcmi_polyval_pad(&m->hash);
  gcmi_polyval_lengths(&m->hash, m->aad_len, m->data_len);
  gcmi_polyval_finish(&m->hash, s);
  block_store(s, siv_block_clear_top(
                     block_xor(block_load(s), siv_block_nonce(m->nonce))));
  m->k->aes->encrypt_block(siv_enc(&m->keys), tag, s);
  secure_wipe_block(s);
}

void gcm_siv_message_crypt_from(struct siv_message *m, const uint8_t tag[16]) {
  block_store(m->cb, siv_block_set_top(block_load(tag)));
  m->next_block = 0;
  m->ks_left = 0;
}

/* Runs of at least this many blocks go to the fused kernel's functions
 * (siv_ctr32le, siv_open) rather than the backends' hooks: below it their
 * longer entry (every round key broadcast, the powers of H loaded) costs
 * more than their wider registers save. */
#define SIV_WIDE_MIN_BLOCKS 16

/* Counter mode under K_enc: out = in ^ key stream for `blocks` whole
 * blocks, from the counter block `cb` with `first` added to its first word
 * (little-endian, mod 2^32). The fused kernel's siv_ctr32le for a long
 * run, the AES backend's ctr32le when it has one; else one counter block
 * at a time through encrypt_block, SIV_KS_BLOCKS blocks of key stream per
 * pass over the data. */
static void ctr_le(const struct gcm_siv_key_st *k,
                   const struct siv_message_keys *mk, const uint8_t cb[16],
                   uint32_t first, uint8_t *out, const uint8_t *in,
                   size_t blocks) {
  const struct aes_impl *aes = k->aes;
  _Alignas(16) uint8_t ctr[16];
  const gcm_block c0 = block_load(cb);
  uint32_t c = siv_block_le32(c0) + first;
  if (aes->ctr32le != NULL) {
    aes_ctr32_fn *fn = aes->ctr32le;
    if (k->fused != NULL && k->fused->siv_ctr32le != NULL &&
        blocks >= SIV_WIDE_MIN_BLOCKS) {
      fn = k->fused->siv_ctr32le;
    }
    block_store(ctr, siv_block_set_le32(c0, c));
    fn(siv_enc(mk), out, in, blocks, ctr);
    return;
  }
  _Alignas(16) uint8_t ks[SIV_KS_BLOCKS * 16];
  while (blocks > 0) {
    size_t n = blocks < SIV_KS_BLOCKS ? blocks : SIV_KS_BLOCKS;
    for (size_t i = 0; i < n; i++) {
      block_store(ctr, siv_block_set_le32(c0, c++));
      aes->encrypt_block(siv_enc(mk), ks + 16 * i, ctr);
    }
    xor_bytes(out, in, ks, 16 * n);
    out += 16 * n;
    in += 16 * n;
    blocks -= n;
  }
  gcmi_secure_wipe(ks, sizeof(ks));
}

/* out = in ^ key stream for `blocks` whole blocks from m->next_block,
 * which advances. */
static void crypt_blocks(struct siv_message *m, uint8_t *out,
                         const uint8_t *in, size_t blocks) {
  ctr_le(m->k, &m->keys, m->cb, m->next_block, out, in, blocks);
  m->next_block += (uint32_t)blocks;
}

void gcm_siv_message_crypt(struct siv_message *m, uint8_t *out,
                           const uint8_t *in, size_t len) {
  size_t done = 0;
  /* Key stream a previous call left over (its last block was partial). */
  if (m->ks_left > 0) {
    done = m->ks_left < len ? m->ks_left : len;
    xor_bytes(out, in, m->ks + 16 - m->ks_left, done);
    m->ks_left -= done;
  }
  const size_t whole = (len - done) / 16;
  if (whole > 0) {
    crypt_blocks(m, out + done, in + done, whole);
    done += 16 * whole;
  }
  if (done < len) {
    /* A partial last block: a whole block of key stream, the rest of
     * which the next call may use. */
    crypt_blocks(m, m->ks, siv_zeros, 1);
    xor_bytes(out + done, in + done, m->ks, len - done);
    m->ks_left = 16 - (len - done);
  }
}

void gcm_siv_message_wipe(struct siv_message *m) {
  siv_message_keys_wipe(&m->keys);
  gcmi_secure_wipe(m, offsetof(struct siv_message, keys));
}

/* ---- short messages -----------------------------------------------------------
 *
 * A message of at most SIV_SHORT_MAX bytes with at most SIV_SHORT_AAD of
 * AAD skips the steps above: its whole POLYVAL input (the AAD and the
 * data, each zero-padded, and the length block) is laid out in one
 * buffer and hashed in one call, and counter mode runs once, over the
 * padded data in that buffer (so the partial last block needs no call of
 * its own). The per-message work is then the key derivation, K_enc's
 * expansion, the GHASH key for exactly those blocks, one hash, the tag and
 * one counter-mode call. */
#define SIV_SHORT_MAX 256
#define SIV_SHORT_AAD 64

/* The POLYVAL input: AAD, data, length block. */
#define SIV_SHORT_HB_BYTES ((SIV_SHORT_AAD / 16 + SIV_SHORT_MAX / 16 + 1) * 16)

struct siv_short {
  struct siv_message_keys keys;
  _Alignas(16) uint8_t hb[SIV_SHORT_HB_BYTES];
};

/* With a fused kernel's siv_seal_short and siv_open_short (fused.h) a
 * message of up to its siv_seal_max / siv_open_max bytes (with at most
 * SIV_SHORT_AAD of AAD) is one call: the keys, POLYVAL, the tag and
 * counter mode. The kernel reads the whole blocks from the caller's
 * buffer and writes their output straight to out; only the AAD, a
 * partial last block and the length block are laid out here (and the
 * whole blocks of a message of up to SIV_KERNEL_COPY_MAX bytes). */

/* The kernel's limit: its own (0: the short path's), never past
 * FUSED_SIV_KERNEL_MAX, the longest its tests cover. */
static size_t kernel_max(unsigned own) {
  size_t max = own != 0 ? own : SIV_SHORT_MAX;
  return max < FUSED_SIV_KERNEL_MAX ? max : FUSED_SIV_KERNEL_MAX;
}

static int seal_kernel(const struct gcm_siv_key_st *k, size_t len,
                       size_t aad_len) {
  const struct fused_impl *f = k->fused;
  return f != NULL && f->siv_seal_short != NULL && aad_len <= SIV_SHORT_AAD &&
         len <= kernel_max(f->siv_seal_max);
}

static int open_kernel(const struct gcm_siv_key_st *k, size_t len,
                       size_t aad_len) {
  const struct fused_impl *f = k->fused;
  return f != NULL && f->siv_open_short != NULL && aad_len <= SIV_SHORT_AAD &&
         len <= kernel_max(f->siv_open_max);
}

/* Lays a message out in hb as the short path hashes it: the AAD and the
 * data (plaintext or ciphertext), each zero-padded to whole blocks, then
 * the length block. Returns where the data starts. */
static uint8_t *short_layout(uint8_t *hb, const uint8_t *aad, size_t aad_len,
                             const uint8_t *in, size_t len) {
  uint8_t *data = hb + 16 * ((aad_len + 15) / 16);
  siv_put_padded(hb, aad, aad_len);
  siv_put_padded(data, in, len);
  block_store(data + 16 * ((len + 15) / 16), siv_block_lengths(aad_len, len));
  return data;
}

/* Messages of up to this many bytes are laid out whole in hb (AAD, data,
 * length block) and hashed as one run, one reduction per group; longer
 * ones leave the whole blocks in the caller's buffers, which saves the
 * two copies and costs two more reductions (gcm-ab --siv seal, aesni_avx,
 * AMD Zen 1, against the kernel that always copied: 16-64 bytes 1.00-1.02
 * this way, 80 bytes 0.99 and 128 bytes 1.02 without the copies, 256
 * bytes 1.09-1.11, 1350 bytes 1.15-1.20, 2048 bytes 1.18-1.22). */
#define SIV_KERNEL_COPY_MAX 64

/* The kernels' hb: the AAD's blocks, the data when it is copied, the
 * padded last block and the length block. */
#define SIV_KERNEL_HB_BYTES \
  ((SIV_SHORT_AAD / 16 + SIV_KERNEL_COPY_MAX / 16 + 2) * 16)

/* Lays a message out for siv_seal_short or siv_open_short (fused.h) in
 * hb (SIV_KERNEL_HB_BYTES) and io: the AAD's blocks, the whole blocks
 * (copied into hb after the AAD for a message of up to
 * SIV_KERNEL_COPY_MAX bytes, else left at in with their output going
 * straight to out), the padded last block and the length block. Returns
 * 1 when the data was copied. */
static inline int kernel_layout(uint8_t *hb, struct siv_short_io *io,
                         const uint8_t *aad, size_t aad_len,
                         const uint8_t *in, size_t len, uint8_t *out) {
  const size_t a = (aad_len + 15) / 16, dw = len / 16, dr = len % 16;
  const int copy = len <= SIV_KERNEL_COPY_MAX;
  uint8_t *data = hb + 16 * a;

  siv_put_padded(hb, aad, aad_len);
  if (copy) {
    siv_copy_blocks(data, in, dw);
    io->in = io->out = data;
    io->end = data + 16 * dw;
  } else {
    io->in = in;
    io->out = out;
    io->end = data;
  }
  if (dr > 0) block_store(io->end, block_load_partial(in + 16 * dw, dr));
  block_store(io->end + (dr > 0 ? 16 : 0), siv_block_lengths(aad_len, len));
  return copy;
}

/* The output of a kernel call on kernel_layout's layout: the whole blocks
 * from hb when they were copied there, the last block's len % 16 bytes;
 * then the padded last block wiped (key stream in its padding; the open's
 * plaintext) and, with `secret_blocks` (the open: plaintext), the whole
 * blocks copied to hb too. */
static inline void kernel_output(const struct siv_short_io *io, int copy,
                                 int secret_blocks, size_t len, uint8_t *out) {
  const size_t dw = len / 16, dr = len % 16;
  if (copy) siv_copy_blocks(out, io->out, dw);
  if (dr > 0) memcpy(out + 16 * dw, io->end, dr);
  if (copy && secret_blocks) {
    for (size_t i = 0; i < dw; i++) secure_wipe_block(io->out + 16 * i);
  }
  if (dr > 0) secure_wipe_block(io->end);
}

static void seal_short_kernel(const struct gcm_siv_key_st *k,
                              const uint8_t nonce[12], const uint8_t *in,
                              size_t len, const uint8_t *aad, size_t aad_len,
                              uint8_t *out, uint8_t tag[16]) {
  _Alignas(16) uint8_t hb[SIV_KERNEL_HB_BYTES];
  _Alignas(16) struct siv_short_io io;
  const size_t a = (aad_len + 15) / 16;
  const int copy = kernel_layout(hb, &io, aad, aad_len, in, len, out);

  k->fused->siv_seal_short(gcm_siv_key_kgk(k), nonce, hb, a, len, &io);
  block_store(tag, block_load(io.tag));
  kernel_output(&io, copy, 0, len, out); /* the whole blocks: ciphertext */
}

static void open_short_kernel(const struct gcm_siv_key_st *k,
                              const uint8_t nonce[12], const uint8_t *in,
                              size_t len, const uint8_t *aad, size_t aad_len,
                              const uint8_t tag[16], uint8_t *out,
                              uint8_t expected[16]) {
  _Alignas(16) uint8_t hb[SIV_KERNEL_HB_BYTES];
  _Alignas(16) struct siv_short_io io;
  const size_t a = (aad_len + 15) / 16;
  const int copy = kernel_layout(hb, &io, aad, aad_len, in, len, out);

  /* The kernel reads the received tag there and writes the expected one. */
  block_store(io.tag, block_load(tag));
  k->fused->siv_open_short(gcm_siv_key_kgk(k), nonce, hb, a, len, &io);
  block_store(expected, block_load(io.tag));
  kernel_output(&io, copy, 1, len, out); /* the whole blocks: plaintext */
}

/* S = POLYVAL of the `blocks` blocks at hb; a backend without
 * polyval_update gets them byte-reversed in place (RFC 8452, appendix A),
 * which leaves hb scrambled: returns 1 then. */
static int short_polyval(const struct gcm_siv_key_st *k,
                         const struct siv_message_keys *mk, uint8_t *hb,
                         size_t blocks, uint8_t s[16]) {
  const struct ghash_impl *ghash = k->ghash;
  ghash_update_fn *wide = siv_wide_polyval(k, blocks);
  block_store(s, block_make(0, 0));
  if (wide != NULL) {
    wide(s, siv_hash(mk), hb, blocks);
    return 0;
  }
  if (ghash->polyval_update != NULL) {
    ghash->polyval_update(s, siv_hash(mk), hb, blocks);
    return 0;
  }
  for (size_t i = 0; i < blocks; i++) {
    block_store(hb + 16 * i, siv_block_reverse(block_load(hb + 16 * i)));
  }
  ghash->update(s, siv_hash(mk), hb, blocks);
  block_store(s, siv_block_reverse(block_load(s)));
  return 1;
}

/* T from S (wiped): S xor the nonce, top bit cleared, encrypted. */
static void short_tag(const struct gcm_siv_key_st *k,
                      const struct siv_message_keys *mk, uint8_t s[16],
                      const uint8_t nonce[12], uint8_t tag[16]) {
  block_store(s, siv_block_clear_top(
                     block_xor(block_load(s), siv_block_nonce(nonce))));
  k->aes->encrypt_block(siv_enc(mk), tag, s);
  secure_wipe_block(s);
}

static void seal_short(const struct gcm_siv_key_st *k, const uint8_t nonce[12],
                       const uint8_t *in, size_t len, const uint8_t *aad,
                       size_t aad_len, uint8_t *out, uint8_t tag[16]) {
  struct siv_short w;
  _Alignas(16) uint8_t s[16], cb[16];
  const size_t a = (aad_len + 15) / 16, c = (len + 15) / 16;

  derive_message_keys(k, nonce, &w.keys, a + c + 1);
  uint8_t *data = short_layout(w.hb, aad, aad_len, in, len);
  if (short_polyval(k, &w.keys, w.hb, a + c + 1, s)) {
    siv_put_padded(data, in, len); /* reversed for the hash: again */
  }
  short_tag(k, &w.keys, s, nonce, tag);
  block_store(cb, siv_block_set_top(block_load(tag)));
  /* Counter mode over the padded copy: one call, partial block included. */
  ctr_le(k, &w.keys, cb, 0, data, data, c);
  if (len > 0) memcpy(out, data, len);
  gcmi_secure_wipe(w.hb, 16 * (a + c + 1));
  siv_message_keys_wipe(&w.keys);
}

static void open_short(const struct gcm_siv_key_st *k, const uint8_t nonce[12],
                       const uint8_t *in, size_t len, const uint8_t *aad,
                       size_t aad_len, const uint8_t tag[16], uint8_t *out,
                       uint8_t expected[16]) {
  struct siv_short w;
  _Alignas(16) uint8_t s[16], cb[16];
  const size_t a = (aad_len + 15) / 16, c = (len + 15) / 16;
  uint8_t *data = w.hb + 16 * a;

  derive_message_keys(k, nonce, &w.keys, a + c + 1);
  block_store(cb, siv_block_set_top(block_load(tag)));
  siv_put_padded(data, in, len);
  ctr_le(k, &w.keys, cb, 0, data, data, c);
  if (len > 0) memcpy(out, data, len);
  if (len % 16 != 0) {
    /* The plaintext's last block, its padding zero again for the hash. */
    uint8_t *last = data + 16 * (c - 1);
    block_store(last, block_and(block_load(last),
                                block_prefix_mask(len % 16)));
  }
  siv_put_padded(w.hb, aad, aad_len);
  block_store(data + 16 * c, siv_block_lengths(aad_len, len));
  short_polyval(k, &w.keys, w.hb, a + c + 1, s);
  short_tag(k, &w.keys, s, nonce, expected);
  gcmi_secure_wipe(w.hb, 16 * (a + c + 1));
  siv_message_keys_wipe(&w.keys);
}

/* ---- long messages with a fused kernel ------------------------------------------
 *
 * With a fused kernel the POLYVAL input is hashed straight from the
 * caller's buffers as four runs of whole blocks (struct siv_polyval_runs,
 * fused.h): the AAD's whole blocks, its last block padded, the data's
 * whole blocks, and its last block padded followed by the length block,
 * the padded blocks copied into a small buffer. The kernel's
 * siv_polyval_runs takes them in one call; without it each run is a call
 * of siv_polyval (or of the GHASH backend's polyval_update, which every
 * pair with a fused kernel has). This skips struct polyval_feed's copies
 * and calls. */

/* Fewer blocks than this in all (an open's AAD, or its last block and
 * the length block) go to siv_polyval run by run: siv_polyval_runs'
 * longer entry (the sums of the runs, the powers' half sums) cost more
 * than the reductions it saves (vaes_avx512 and vaes_avx2, Zen 5: a
 * block or two about 10 ticks slower). */
#define SIV_RUNS_MIN_BLOCKS 16

/* S updated with the runs' blocks, on the key derive_message_keys made
 * for a message of polyval_blocks blocks. */
static void hash_runs_from(const struct gcm_siv_key_st *k,
                           const struct siv_message_keys *mk,
                           uint64_t polyval_blocks,
                           const struct siv_polyval_runs *r, uint8_t s[16]) {
  ghash_update_fn *fn = siv_wide_polyval(k, polyval_blocks);
  const uint64_t total = (uint64_t)r->blocks[0] + r->blocks[1] +
                         r->blocks[2] + r->blocks[3];
  if (fn != NULL && k->fused->siv_polyval_runs != NULL &&
      total >= SIV_RUNS_MIN_BLOCKS) {
    k->fused->siv_polyval_runs(s, siv_hash(mk), r);
    return;
  }
  if (fn == NULL) fn = k->ghash->polyval_update;
  for (size_t i = 0; i < 4; i++) {
    if (r->blocks[i] > 0) fn(s, siv_hash(mk), r->in[i], r->blocks[i]);
  }
}

/* The same from S = 0. */
static void hash_runs(const struct gcm_siv_key_st *k,
                      const struct siv_message_keys *mk,
                      uint64_t polyval_blocks,
                      const struct siv_polyval_runs *r, uint8_t s[16]) {
  block_store(s, block_make(0, 0));
  hash_runs_from(k, mk, polyval_blocks, r, s);
}

/* The runs of a message: `pad` holds the AAD's padded last block, then
 * the data's and the length block (48 bytes). */
static void message_runs(struct siv_polyval_runs *r, uint8_t pad[48],
                         const uint8_t *aad, size_t aad_len,
                         const uint8_t *data, size_t len) {
  const size_t aw = aad_len / 16, ar = aad_len % 16;
  const size_t dw = len / 16, dr = len % 16;
  uint8_t *tail = pad + 16;
  if (ar > 0) siv_put_padded(pad, aad + 16 * aw, ar);
  if (dr > 0) siv_put_padded(tail, data + 16 * dw, dr);
  block_store(tail + (dr > 0 ? 16 : 0), siv_block_lengths(aad_len, len));
  r->in[0] = aad;
  r->blocks[0] = aw;
  r->in[1] = pad;
  r->blocks[1] = ar > 0;
  r->in[2] = data;
  r->blocks[2] = dw;
  r->in[3] = tail;
  r->blocks[3] = (dr > 0) + 1;
}

static void seal_fused(const struct gcm_siv_key_st *k, const uint8_t nonce[12],
                       const uint8_t *in, size_t len, const uint8_t *aad,
                       size_t aad_len, uint8_t *out, uint8_t tag[16]) {
  struct siv_message_keys keys;
  struct siv_polyval_runs r;
  /* s: S, then N || 0^32 (siv_tag_ctr32le reads both). */
  _Alignas(16) uint8_t pad[48], s[32], cb[16];
  const uint64_t blocks = siv_polyval_blocks(aad_len, len);
  const size_t dw = len / 16, dr = len % 16;

  derive_message_keys(k, nonce, &keys, blocks);
  message_runs(&r, pad, aad, aad_len, in, len);
  block_store(s + 16, siv_block_nonce(nonce));
  hash_runs(k, &keys, blocks, &r, s);
  if (k->fused->siv_tag_ctr32le != NULL) {
    /* The tag from S and all of counter mode in one call, the last
     * block's padded copy (in pad + 16) with them. */
    k->fused->siv_tag_ctr32le(siv_enc(&keys), s, out, in, dw,
                              dr > 0 ? pad + 16 : NULL);
    block_store(tag, block_load(s));
    secure_wipe_block(s);
    if (dr > 0) memcpy(out + 16 * dw, pad + 16, dr);
    secure_wipe_inline(pad, sizeof(pad));
    siv_message_keys_wipe(&keys);
    return;
  }
  short_tag(k, &keys, s, nonce, tag);
  block_store(cb, siv_block_set_top(block_load(tag)));
  if (dr > 0) {
    /* The last block's padded copy (in pad + 16), encrypted in place
     * first: its one block's latency then runs beside the long call's
     * rounds instead of after them. */
    ctr_le(k, &keys, cb, (uint32_t)dw, pad + 16, pad + 16, 1);
    memcpy(out + 16 * dw, pad + 16, dr);
  }
  if (dw > 0) ctr_le(k, &keys, cb, 0, out, in, dw);
  secure_wipe_inline(pad, sizeof(pad));
  siv_message_keys_wipe(&keys);
}

/* Open with the fused kernel's siv_open_end (fused.h), on keys made for
 * the message: S over the AAD's whole blocks, then one call for the rest:
 * the AAD's padded last block hashed, the whole blocks decrypted and
 * hashed, the partial last block decrypted from its padded copy in
 * struct siv_open_end, masked and hashed, the length block, and the tag. */
static void open_end(const struct gcm_siv_key_st *k,
                     const struct siv_message_keys *mk,
                     const uint8_t nonce[12], const uint8_t *in, size_t len,
                     const uint8_t *aad, size_t aad_len,
                     const uint8_t tag[16], uint8_t *out,
                     uint8_t expected[16]) {
  _Alignas(16) struct siv_open_end e;
  _Alignas(16) uint8_t cb[16];
  const size_t dw = len / 16, dr = len % 16;
  const size_t aw = aad_len / 16, ar = aad_len % 16;
  const struct fused_keys fk = {k->aes, siv_enc(mk), k->ghash, siv_hash(mk),
                                NULL};

  block_store(e.s, block_make(0, 0));
  if (aw > 0) {
    const struct siv_polyval_runs r = {{aad, NULL, NULL, NULL},
                                       {aw, 0, 0, 0}};
    hash_runs_from(k, mk, siv_polyval_blocks(aad_len, len), &r, e.s);
  }
  e.aad_partial = ar > 0;
  if (ar > 0) siv_put_padded(e.aad, aad + 16 * aw, ar);
  block_store(e.nonce, siv_block_nonce(nonce));
  block_store(cb, siv_block_set_top(block_load(tag)));
  e.partial = dr > 0;
  if (dr > 0) {
    block_store(e.ctr, siv_block_set_le32(block_load(cb),
                                          siv_block_le32(block_load(cb)) +
                                              (uint32_t)dw));
    block_store(e.mask, block_prefix_mask(dr));
    siv_put_padded(e.last, in + 16 * dw, dr);
  }
  block_store(e.lengths, siv_block_lengths(aad_len, len));
  k->fused->siv_open_end(&fk, out, in, dw, cb, &e);
  if (dr > 0) memcpy(out + 16 * dw, e.last, dr);
  block_store(expected, block_load(e.s));
  gcmi_secure_wipe(&e, sizeof(e));
}

/* Open: S over the AAD's runs, the whole blocks decrypted and hashed by
 * siv_open from there (or counter mode, then a run), and the padded last
 * block with the length block as the last run. */
static void open_fused(const struct gcm_siv_key_st *k, const uint8_t nonce[12],
                       const uint8_t *in, size_t len, const uint8_t *aad,
                       size_t aad_len, const uint8_t tag[16], uint8_t *out,
                       uint8_t expected[16]) {
  struct siv_message_keys keys;
  struct siv_polyval_runs r;
  _Alignas(16) uint8_t pad[48], s[16], cb[16];
  const uint64_t blocks = siv_polyval_blocks(aad_len, len);
  const size_t dw = len / 16, dr = len % 16;
  uint8_t *tail = pad + 16;

  derive_message_keys(k, nonce, &keys, blocks);
  if (dw >= SIV_WIDE_MIN_BLOCKS && k->fused->siv_open_end != NULL) {
    open_end(k, &keys, nonce, in, len, aad, aad_len, tag, out, expected);
    siv_message_keys_wipe(&keys);
    return;
  }
  block_store(cb, siv_block_set_top(block_load(tag)));
  /* The runs, the last block's copy in `tail` still ciphertext. */
  message_runs(&r, pad, aad, aad_len, in, len);
  if (dr > 0) {
    /* The last block decrypted in its padded copy, its padding zero
     * again for the hash. */
    ctr_le(k, &keys, cb, (uint32_t)dw, tail, tail, 1);
    block_store(tail, block_and(block_load(tail), block_prefix_mask(dr)));
    memcpy(out + 16 * dw, tail, dr);
  }
  block_store(s, block_make(0, 0));
  if (dw >= SIV_WIDE_MIN_BLOCKS) {
    const struct fused_keys fk = {k->aes, siv_enc(&keys), k->ghash,
                                  siv_hash(&keys), NULL};
    struct siv_polyval_runs last = r;
    r.blocks[2] = r.blocks[3] = 0; /* the AAD's runs */
    hash_runs_from(k, &keys, blocks, &r, s);
    k->fused->siv_open(&fk, out, in, dw, cb, s);
    last.blocks[0] = last.blocks[1] = last.blocks[2] = 0;
    hash_runs_from(k, &keys, blocks, &last, s);
  } else {
    if (dw > 0) ctr_le(k, &keys, cb, 0, out, in, dw);
    r.in[2] = out;
    r.blocks[2] = dw;
    hash_runs_from(k, &keys, blocks, &r, s);
  }
  short_tag(k, &keys, s, nonce, expected);
  secure_wipe_inline(pad, sizeof(pad));
  siv_message_keys_wipe(&keys);
}

void gcm_siv_mode_seal(const struct gcm_siv_key_st *k, const uint8_t nonce[12],
                       const uint8_t *in, size_t len, const uint8_t *aad,
                       size_t aad_len, uint8_t *out, uint8_t tag[16]) {
  if (seal_kernel(k, len, aad_len)) {
    seal_short_kernel(k, nonce, in, len, aad, aad_len, out, tag);
    return;
  }
  if (len <= SIV_SHORT_MAX && aad_len <= SIV_SHORT_AAD) {
    seal_short(k, nonce, in, len, aad, aad_len, out, tag);
    return;
  }
  if (k->fused != NULL) {
    seal_fused(k, nonce, in, len, aad, aad_len, out, tag);
    return;
  }
  struct siv_message m;
  gcm_siv_message_start(&m, k, nonce, siv_polyval_blocks(aad_len, len));
  gcm_siv_message_aad(&m, aad, aad_len);
  gcm_siv_message_hash_data(&m, in, len);
  gcm_siv_message_tag(&m, tag);
  gcm_siv_message_crypt_from(&m, tag);
  gcm_siv_message_crypt(&m, out, in, len);
  gcm_siv_message_wipe(&m);
}

void gcm_siv_mode_open(const struct gcm_siv_key_st *k, const uint8_t nonce[12],
                       const uint8_t *in, size_t len, const uint8_t *aad,
                       size_t aad_len, const uint8_t tag[16], uint8_t *out,
                       uint8_t expected[16]) {
  if (open_kernel(k, len, aad_len)) {
    open_short_kernel(k, nonce, in, len, aad, aad_len, tag, out, expected);
    return;
  }
  if (len <= SIV_SHORT_MAX && aad_len <= SIV_SHORT_AAD) {
    open_short(k, nonce, in, len, aad, aad_len, tag, out, expected);
    return;
  }
  if (k->fused != NULL) {
    open_fused(k, nonce, in, len, aad, aad_len, tag, out, expected);
    return;
  }
  struct siv_message m;
  const size_t chunk = SIV_KS_BLOCKS * 16;
  size_t off = 0;
  gcm_siv_message_start(&m, k, nonce, siv_polyval_blocks(aad_len, len));
  gcm_siv_message_aad(&m, aad, aad_len);
  gcm_siv_message_crypt_from(&m, tag);
  if (k->fused != NULL && len / 16 >= SIV_WIDE_MIN_BLOCKS) {
    /* The whole blocks in one fused pass: decrypted, and the plaintext
     * hashed as it is written, continuing S from the padded AAD. */
    const size_t whole = len / 16;
    const struct fused_keys fk = {k->aes, siv_enc(&m.keys), k->ghash,
                                  siv_hash(&m.keys), NULL};
    end_aad(&m);
    k->fused->siv_open(&fk, out, in, whole, m.cb,
                       gcmi_polyval_running(&m.hash));
    m.next_block = (uint32_t)whole;
    m.data_len = 16 * (uint64_t)whole;
    off = 16 * whole;
  }
  /* Decrypt a chunk, then hash the plaintext just written (out == in
   * works: each chunk is read before it is overwritten). */
  for (; off < len; off += chunk) {
    size_t n = len - off < chunk ? len - off : chunk;
    gcm_siv_message_crypt(&m, out + off, in + off, n);
    gcm_siv_message_hash_data(&m, out + off, n);
  }
  gcm_siv_message_tag(&m, expected);
  gcm_siv_message_wipe(&m);
}
