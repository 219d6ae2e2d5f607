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
 * Here everything goes through the key's descriptors: encrypt_block for
 * the derivation, the tag and every block of key stream (the counter
 * steps in the first word, which the backends' ctr32 hooks, made for
 * GCM's big-endian last word, do not do), set_encrypt_key for K_enc, and
 * the GHASH backend for POLYVAL (crypto/siv/polyval.c). The backends'
 * key layouts are reached only through crypto/siv/siv_keys.h.
 *
 * The steps are those of a message in pieces (struct siv_message,
 * crypto/siv/siv_mode.h), which the one-shot calls at the end run over a
 * single buffer. Opening decrypts and hashes in chunks of
 * POLYVAL_FEED_BLOCKS blocks, so each chunk of plaintext is hashed while
 * it is still in the cache. Sealing cannot interleave: the counter starts
 * from the tag, which needs the hash of all of the plaintext first.
 *
 * Constant time: the lengths decide every branch, loop and position; the
 * key, the derived keys, the data, S and the key stream only flow through
 * the backends, xor and copies. The tag comparison is the API layer's
 * (ct_memeq). Every secret left on the stack is wiped before returning:
 * the derived keys (raw and expanded), S and the key stream.
 */
#include "siv_mode.h"

/* Key stream made per encrypt_block loop, then xored in one pass. */
#define SIV_KS_BLOCKS POLYVAL_FEED_BLOCKS

void gcm_siv_mode_key_init(struct gcm_siv_key_st *k, const struct aes_impl *aes,
                           const struct ghash_impl *ghash, const uint8_t *key,
                           size_t key_len) {
  k->aes = aes;
  k->ghash = ghash;
  k->key_len = (uint32_t)key_len;
  siv_expand_kgk(aes, &k->kgk, key, key_len);
  k->magic = GCM_SIV_KEY_MAGIC;
}

/* The per-nonce keys (RFC 8452, section 4): K_enc expanded into mk->enc,
 * and the GHASH key that makes the GHASH backend compute POLYVAL under
 * K_auth, precomputed into mk->hash. */
static void derive_message_keys(const struct gcm_siv_key_st *k,
                                const uint8_t nonce[12],
                                struct siv_message_keys *mk) {
  _Alignas(16) uint8_t in[16], b[16];
  /* K_auth, then K_enc: the first 8 bytes of each derived block. */
  _Alignas(16) uint8_t raw[16 + 32];
  const size_t n = 2 + k->key_len / 8; /* 4 blocks, or 6 for AES-256 */

  memcpy(in + 4, nonce, 12);
  for (size_t i = 0; i < n; i++) {
    store_le32(in, (uint32_t)i);
    k->aes->encrypt_block(&k->kgk, b, in);
    memcpy(raw + 8 * i, b, 8);
  }
  siv_expand_enc(k->aes, mk, raw + 16, k->key_len);
  gcmi_polyval_ghash_key(b, raw);
  siv_init_hash(k->ghash, mk, b);
  gcmi_secure_wipe(raw, sizeof(raw));
  secure_wipe_block(b);
}

void gcm_siv_message_start(struct siv_message *m,
                           const struct gcm_siv_key_st *k,
                           const uint8_t nonce[12]) {
  m->k = k;
  memcpy(m->nonce, nonce, 12);
  m->hashing_data = 0;
  m->aad_len = 0;
  m->data_len = 0;
  m->next_block = 0;
  m->ks_left = 0;
  derive_message_keys(k, nonce, &m->keys);
  gcmi_polyval_start(&m->hash, k->ghash, &m->keys.hash);
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
  xor_bytes(s, s, m->nonce, 12);
  s[15] &= 0x7f;
  m->k->aes->encrypt_block(&m->keys.enc, tag, s);
  secure_wipe_block(s);
}

void gcm_siv_message_crypt_from(struct siv_message *m, const uint8_t tag[16]) {
  memcpy(m->cb, tag, 16);
  m->cb[15] |= 0x80;
  m->next_block = 0;
  m->ks_left = 0;
}

/* `blocks` blocks of key stream into ks, from the counter block's first
 * word plus m->next_block (a little-endian 32-bit counter, mod 2^32). */
static void key_stream(struct siv_message *m, uint8_t *ks, size_t blocks) {
  _Alignas(16) uint8_t ctr[16];
  const uint32_t c0 = load_le32(m->cb);
  memcpy(ctr, m->cb, 16);
  for (size_t i = 0; i < blocks; i++) {
    store_le32(ctr, c0 + m->next_block++);
    m->k->aes->encrypt_block(&m->keys.enc, ks + 16 * i, ctr);
  }
}

void gcm_siv_message_crypt(struct siv_message *m, uint8_t *out,
                           const uint8_t *in, size_t len) {
  _Alignas(16) uint8_t ks[SIV_KS_BLOCKS * 16];
  size_t done = 0;
  /* Key stream a previous call left over (its last block was partial). */
  if (m->ks_left > 0) {
    done = m->ks_left < len ? m->ks_left : len;
    xor_bytes(out, in, m->ks + 16 - m->ks_left, done);
    m->ks_left -= done;
  }
  while (done < len) {
    size_t n = (len - done + 15) / 16;
    if (n > SIV_KS_BLOCKS) n = SIV_KS_BLOCKS;
    key_stream(m, ks, n);
    size_t bytes = len - done < n * 16 ? len - done : n * 16;
    xor_bytes(out + done, in + done, ks, bytes);
    done += bytes;
    if (bytes % 16 != 0) {
      /* Keep the rest of the last block's key stream for the next call. */
      m->ks_left = 16 - bytes % 16;
      memcpy(m->ks, ks + (n - 1) * 16, 16);
    }
  }
  gcmi_secure_wipe(ks, sizeof(ks));
}

void gcm_siv_message_wipe(struct siv_message *m) {
  gcmi_secure_wipe(m, sizeof(*m));
}

void gcm_siv_mode_seal(const struct gcm_siv_key_st *k, const uint8_t nonce[12],
                       const uint8_t *in, size_t len, const uint8_t *aad,
                       size_t aad_len, uint8_t *out, uint8_t tag[16]) {
  struct siv_message m;
  gcm_siv_message_start(&m, k, nonce);
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
  struct siv_message m;
  const size_t chunk = SIV_KS_BLOCKS * 16;
  gcm_siv_message_start(&m, k, nonce);
  gcm_siv_message_aad(&m, aad, aad_len);
  gcm_siv_message_crypt_from(&m, tag);
  /* Decrypt a chunk, then hash the plaintext just written (out == in
   * works: each chunk is read before it is overwritten). */
  for (size_t off = 0; off < len; off += chunk) {
    size_t n = len - off < chunk ? len - off : chunk;
    gcm_siv_message_crypt(&m, out + off, in + off, n);
    gcm_siv_message_hash_data(&m, out + off, n);
  }
  gcm_siv_message_tag(&m, expected);
  gcm_siv_message_wipe(&m);
}
