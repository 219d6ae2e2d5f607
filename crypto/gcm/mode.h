/*
 * crypto/gcm/mode.h: the GCM mode engine (SP 800-38D), below the API.
 *
 * The API layer (crypto/aead) checks arguments and lengths; this layer
 * assumes they are valid and does the mode: H and the backends per key, J0
 * from the nonce, the 32-bit counter, GHASH over AAD and ciphertext with
 * zero padding, the length block, and the tag. It calls the backends only
 * through their descriptors.
 */
#ifndef LIBGCM_CRYPTO_GCM_MODE_H
#define LIBGCM_CRYPTO_GCM_MODE_H

#include <stddef.h>
#include <stdint.h>

#include "../aes/aes.h"
#include "../fused/fused.h"
#include "../ghash/ghash.h"
#include "../internal.h"
#include "stream_plan.h"

/* Marks an initialised key or stream. A cleaned (zeroed) object lacks it. */
#define GCM_KEY_MAGIC 0x67636d6bu    /* "gcmk" */
#define GCM_STREAM_MAGIC 0x67636d73u /* "gcms" */

/* The start of every key, inside the public gcm_key (or the caller's
 * memory of gcm_key_size_for bytes): immutable after gcm_mode_key_init.
 * The backends' key material follows it, each region at exactly the size
 * its descriptor states (key_bytes) and 16-byte aligned, in this order
 * (crypto/gcm/key.c):
 *
 *   [0, 32)                    this header
 *   [32, ghash_at * 16)        the AES schedule (aes->key_bytes)
 *   [ghash_at * 16, ...)       the GHASH key (ghash->key_bytes)
 *   [fused_at * 16, ...)       the fused kernel's own (fused->key_bytes,
 *                              usually none)
 *   units * 16                 the end: the key's size in bytes
 *
 * Offsets are kept, not pointers, so a memcpy copy of a key works. */
struct gcm_key_st {
  uint32_t magic;
  uint8_t key_len;  /* 16, 24 or 32 */
  uint8_t ghash_at; /* where the GHASH key starts, in 16-byte units */
  uint8_t fused_at; /* where the fused kernel's own starts, likewise */
  uint8_t units;    /* the whole key's size, header included, likewise */
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  /* The fused AES-CTR + GHASH kernel for whole-block runs, or NULL for the
   * two-pass path (crypto/fused/fused.h). */
  const struct fused_impl *fused;
};

/* Where the AES schedule starts: the header, rounded up to 16 bytes. */
#define GCM_KEY_HEADER_BYTES 32

/* The largest key any combination of backends can make: what the
 * fixed-size gcm_key holds (aead.c asserts it, with the placement). */
#define GCM_KEY_MAX_BYTES                                        \
  (GCM_KEY_HEADER_BYTES + AES_SCHEDULE_MAX_BYTES + GHASH_KEY_MAX_BYTES + \
   FUSED_KEY_MAX_BYTES)

#if !defined(__cplusplus)
_Static_assert(sizeof(struct gcm_key_st) <= GCM_KEY_HEADER_BYTES,
               "the header fits before the AES schedule");
_Static_assert(GCM_KEY_MAX_BYTES / 16 <= 255,
               "every offset and the size fit their byte");
#endif

/* The regions of key k (crypto/gcm/key.c lays them out). */
static inline const struct aes_schedule *gcm_key_aes(
    const struct gcm_key_st *k) {
  return (const struct aes_schedule *)(const void *)((const uint8_t *)k +
                                                     GCM_KEY_HEADER_BYTES);
}
static inline const struct ghash_key *gcm_key_ghash(
    const struct gcm_key_st *k) {
  return (const struct ghash_key *)(const void *)((const uint8_t *)k +
                                                  16u * k->ghash_at);
}
static inline const struct fused_key *gcm_key_fused(
    const struct gcm_key_st *k) {
  return (const struct fused_key *)(const void *)((const uint8_t *)k +
                                                  16u * k->fused_at);
}

/* The bytes key k takes, header included. */
static inline size_t gcm_key_st_bytes(const struct gcm_key_st *k) {
  return 16u * k->units;
}

enum gcm_phase { GCM_PHASE_AAD = 0, GCM_PHASE_DATA, GCM_PHASE_DONE };

/* What lives inside the public gcm_stream (at most 512 bytes: gcm.h's
 * gcm_stream is 528 with its placement, crypto/gcm/placement.h). The
 * order is measured: the fields every update reads and writes, then the
 * 16-byte blocks, then the key stream buffer at byte 112, then what the
 * common updates never read. With the policy and moved_key in front of
 * Xi (ks at byte 128) 1-byte stream updates sealed 5-6% slower and
 * 16-byte ones 2-3% slower on an AMD Zen 5 host (gcm-ab --chunk, against
 * this order, every x86_64 tier). */
struct gcm_stream_st {
  uint32_t magic;
  uint8_t encrypt;       /* 1: seal, 0: open */
  uint8_t phase;         /* enum gcm_phase */
  uint8_t aad_buf_len;   /* AAD bytes waiting in aad_buf, 0..15 */
  /* 1 after a lagged fused seal, until its pending group is hashed. Then
   * nothing else is buffered (ks_pos == ks_len, hash_len == 0) but the key
   * stream of a chunk's partial last block, right behind the pending group
   * (tail_key_stream in stream.c), and the ciphertext collected in it. */
  uint8_t lagging;
  const struct gcm_key_st *key;
  uint64_t aad_len;      /* bytes of AAD so far */
  uint64_t data_len;     /* bytes of plaintext/ciphertext so far */
  uint32_t ks_pos;       /* next unused byte of ks */
  uint32_t ks_len;       /* valid bytes of ks (whole blocks) */
  /* Bytes awaiting GHASH at ks[ks_pos - hash_len .. ks_pos): ciphertext
   * written over the key stream it used (and maybe, first, the AAD's last
   * block); the run starts on a block boundary. */
  uint32_t hash_len;
  GCM_ALIGNED(16) uint8_t Xi[16];       /* running GHASH value */
  GCM_ALIGNED(16) uint8_t tag_mask[16]; /* E(K, J0) */
  GCM_ALIGNED(16) uint8_t ctr[16];      /* next counter block for key stream */
  GCM_ALIGNED(16) uint8_t aad_buf[16];  /* a partial block of AAD */
  /* Key stream from ks_pos on; ciphertext awaiting GHASH before it. While
   * `lagging`, ks[0 .. 16 * lag_blocks) instead holds a lagged seal's last
   * group of ciphertext, not yet hashed (crypto/fused/fused.h). */
  GCM_ALIGNED(16) uint8_t ks[GCM_KS_MAX_BLOCKS * 16];
  /* How updates are cut (set by gcm_mode_start; crypto/gcm/stream_plan.h). */
  struct stream_policy policy;
  /* NULL, or for a stream started on a memcpy copy of a key that sits at
   * another alignment than the one it was initialised at (see
   * crypto/gcm/placement.h): that public key. Such a stream keeps `key`
   * NULL between calls, and the API layer lends it an aligned copy of the
   * key for each call (crypto/aead/aead.c). The mode engine never reads it. */
  const struct gcm_key *moved_key;
};

/* What a fused kernel reads of key k (struct fused_keys in
 * crypto/fused/fused.h), assembled for a call: never stored, since a
 * gcm_key may be copied with memcpy. */
static inline struct fused_keys gcm_key_fused_keys(const struct gcm_key_st *k) {
  const struct fused_keys fk = {k->aes, gcm_key_aes(k), k->ghash,
                                gcm_key_ghash(k), gcm_key_fused(k)};
  return fk;
}

/* The bytes a key on (aes, ghash, fused) takes, header included (fused
 * NULL for the two passes): what gcm_mode_key_init writes. */
GCM_HIDDEN size_t gcm_mode_key_bytes(const struct aes_impl *aes,
                                     const struct ghash_impl *ghash,
                                     const struct fused_impl *fused);

/* Lays the key out at k, 16-byte aligned, in gcm_mode_key_bytes(aes,
 * ghash, fused) bytes that the caller has zeroed, expands the key with the
 * given backends and derives H; fused (NULL for the two passes) fills its
 * own per-key data from them. key_len is 16, 24 or 32. */
GCM_HIDDEN void gcm_mode_key_init(struct gcm_key_st *k,
                                  const struct aes_impl *aes,
                                  const struct ghash_impl *ghash,
                                  const struct fused_impl *fused,
                                  const uint8_t *key, size_t key_len);

/* A whole one-shot message: encrypts or decrypts in_len bytes of `in` into
 * `out` (out == in allowed) and writes the full 16-byte tag (or, opening,
 * the expected tag) to tag. Short messages with a 96-bit nonce take a path
 * that computes exactly the counter blocks they need plus E(K, J0) in one
 * ctr32 call and hashes AAD, ciphertext and the length block in one GHASH
 * call; others go through the streaming engine below. Arguments have been
 * checked. Leaves no key stream behind on the stack. */
GCM_HIDDEN void gcm_mode_one_shot(const struct gcm_key_st *k, int encrypt,
                                  const uint8_t *nonce, size_t nonce_len,
                                  const uint8_t *in, size_t in_len,
                                  const uint8_t *aad, size_t aad_len,
                                  uint8_t *out, uint8_t tag[16]);

/* Starts a message: J0, the tag mask and the first key stream. `expected_len`
 * is the total plaintext length when known (one-shot calls), so no more key
 * stream than needed is made for short messages; pass UINT64_MAX when
 * unknown (streaming). */
GCM_HIDDEN void gcm_mode_start(struct gcm_stream_st *s,
                               const struct gcm_key_st *k, int encrypt,
                               const uint8_t *nonce, size_t nonce_len,
                               uint64_t expected_len);

/* Absorbs AAD. Only while s->phase == GCM_PHASE_AAD. */
GCM_HIDDEN void gcm_mode_aad(struct gcm_stream_st *s, const uint8_t *aad,
                             size_t len);

/* Encrypts or decrypts len bytes (out == in allowed) and hashes the
 * ciphertext. Moves the stream into GCM_PHASE_DATA. */
GCM_HIDDEN void gcm_mode_crypt(struct gcm_stream_st *s, uint8_t *out,
                               const uint8_t *in, size_t len);

/* Finishes GHASH with the length block and writes the full 16-byte tag.
 * Moves the stream into GCM_PHASE_DONE. */
GCM_HIDDEN void gcm_mode_tag(struct gcm_stream_st *s, uint8_t tag[16]);

#endif /* LIBGCM_CRYPTO_GCM_MODE_H */
