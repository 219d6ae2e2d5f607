/*
 * crypto/fused/fused.h: the contract every fused AES-CTR + GHASH kernel
 * meets (the mode engine's "fused bulk slot").
 *
 * The two-pass bulk path runs counter mode over a run of whole blocks and
 * then GHASH reads the ciphertext back. A fused kernel does both in one
 * loop: while the AES rounds of one group of counter blocks are in flight,
 * the carry-less multiplies of the previous group's ciphertext run beside
 * them, so the data is read once and both execution units stay busy.
 *
 * A fused kernel belongs to one (AES, GHASH) pair: it reads that pair's key
 * schedule and may read its GHASH precomputation (within their key_bytes),
 * and it may keep more per-key data of its own (more powers of H, in its
 * own layout) in `struct fused_key`, `key_bytes` of it, filled by `init`
 * when the key is set up. An entry
 * whose `aes` and `ghash` are NULL works with any pair by calling through
 * the two descriptors (the portable C loop).
 *
 * The mode engine attaches the first usable constant-time entry that
 * matches the key's pair; a pair without one runs the two passes. It hands
 * the kernel runs of whole blocks only; partial blocks, buffered key
 * stream, AAD, the length block and the tag stay in the mode engine.
 */
#ifndef LIBGCM_CRYPTO_FUSED_FUSED_H
#define LIBGCM_CRYPTO_FUSED_FUSED_H

#include <stddef.h>
#include <stdint.h>

#include "../aes/aes.h"
#include "../ghash/ghash.h"
#include "../internal.h"

/* The most a fused kernel may keep of its own (e.g. 24 more powers of H):
 * what the fixed-size gcm_key reserves beside the largest AES and GHASH
 * keys. No kernel keeps anything today. */
#define FUSED_KEY_MAX_BYTES 384

/* Opaque: a kernel's key_bytes, 16-byte aligned. */
struct fused_key;

/* What a fused kernel may read of a key: both backends, their keys and its
 * own. The mode engine assembles it (five pointers, on its stack) for each
 * call from the key it is working with, rather than storing it in the key:
 * a gcm_key may be copied with memcpy, and a stored copy would point into
 * the original. The kernel only reads through it. */
struct fused_keys {
  const struct aes_impl *aes;
  const struct aes_schedule *aes_key;
  const struct ghash_impl *ghash;
  const struct ghash_key *ghash_key;
  const struct fused_key *fused_key;
};

/* Where a 64-bit kernel finds the key pointers it reads (aes_key,
 * ghash_key) in struct fused_keys; the assertions keep the kernels' idea
 * of the layout honest. */
#define FUSED_KEYS_AES_KEY_OFFSET 8
#define FUSED_KEYS_GHASH_KEY_OFFSET 24
#if !defined(__cplusplus)
_Static_assert(offsetof(struct fused_keys, aes_key) ==
                       FUSED_KEYS_AES_KEY_OFFSET ||
                   sizeof(void *) != 8,
               "64-bit fused kernels read k->aes_key here");
_Static_assert(offsetof(struct fused_keys, ghash_key) ==
                       FUSED_KEYS_GHASH_KEY_OFFSET ||
                   sizeof(void *) != 8,
               "64-bit fused kernels read k->ghash_key here");
#endif

/* The seal and open hooks' type. A kernel that a hook points at is
 * declared with it:
 *   GCM_HIDDEN fused_crypt_fn gcmi_aes_gcm_x86_64_vaes_avx2_seal;
 * so its prototype cannot drift from the contract below. */
typedef void fused_crypt_fn(const struct fused_keys *k, uint8_t *out,
                            const uint8_t *in, size_t blocks,
                            const uint8_t ctr[16], uint8_t Xi[16]);

/* A stream's seal with its hash one group behind (seal_lagged below).
 *
 * A stitched seal can hash a group of ciphertext only after the AES rounds
 * that make it, so within one call the first group's rounds run with no
 * multiplies beside them and the last group's multiplies with no rounds:
 * on a stream of short calls (16 blocks per 256-byte update) that is most
 * of each call. A lagged seal leaves its last group unhashed in a buffer of
 * the stream's, and the next call hashes it beside its first group's
 * rounds, so every call is stitched from start to end. The mode engine
 * hashes what is left when the stream does anything else (crypto/gcm). */
struct fused_lag {
  uint8_t *Xi;         /* the running hash, as for seal */
  uint8_t *pending;    /* lag_blocks blocks of ciphertext not yet in Xi */
  size_t has_pending;  /* 1: `pending` holds the previous call's last
                        * group; 0: nothing is pending */
};

/* The largest lag_blocks: the mode engine keeps the pending group and a
 * length block behind it in the stream's key stream buffer. */
#define FUSED_LAG_MAX_BLOCKS 16

/* Where a 64-bit kernel finds the fields of struct fused_lag. */
#define FUSED_LAG_XI_OFFSET 0
#define FUSED_LAG_PENDING_OFFSET 8
#define FUSED_LAG_HAS_PENDING_OFFSET 16
#if !defined(__cplusplus)
_Static_assert((offsetof(struct fused_lag, pending) ==
                    FUSED_LAG_PENDING_OFFSET &&
                offsetof(struct fused_lag, has_pending) ==
                    FUSED_LAG_HAS_PENDING_OFFSET) ||
                   sizeof(void *) != 8,
               "64-bit fused kernels read struct fused_lag here");
#endif

/* The seal_lagged hook's type, declared like fused_crypt_fn. */
typedef void fused_lagged_fn(const struct fused_keys *k, uint8_t *out,
                             const uint8_t *in, size_t blocks,
                             const uint8_t ctr[16],
                             const struct fused_lag *lag);

/* A one-shot GCM message's small pieces, done inside the kernel call
 * (seal_oneshot and open_oneshot below) instead of four calls around it:
 * before the blocks, the AAD block's hash; beside them, two blocks of AES
 * (the tag mask E(K, J0) and the partial last block's key stream), which
 * then cost the kernel a few instruction slots rather than two calls'
 * latency; after them, the partial last block and the length block's
 * hash, in the kernel's registers rather than through a GHASH call.
 * Inline data only (no pointers); the offsets are for the 64-bit kernels,
 * which read them (asm/perlasm/layout.pm's c_define reads these lines).
 * Xi comes first, so that a kernel's entry and exit find it where seal's
 * find theirs. */
#define FUSED_ONESHOT_AAD_OFFSET 16
#define FUSED_ONESHOT_CTR_OFFSET 32
#define FUSED_ONESHOT_KS_OFFSET 64
#define FUSED_ONESHOT_TAIL_OFFSET 96
#define FUSED_ONESHOT_HMASK_OFFSET 112
#define FUSED_ONESHOT_LENGTHS_OFFSET 128
#define FUSED_ONESHOT_END_OFFSET 144
struct fused_oneshot {
  uint8_t Xi[16];      /* the running hash, as for seal */
  uint8_t aad[16];     /* a block folded into Xi first: the zero-padded AAD
                        * (all zeros when there is none, which leaves a
                        * zero Xi zero) */
  uint8_t ctr[2][16];  /* two counter blocks, any values */
  uint8_t ks[2][16];   /* written: AES(K, ctr[0]), then (at least when
                        * end is 2) AES(K, ctr[1]) ^ tail, the partial
                        * block's output, sealed or opened, in its first
                        * bytes */
  uint8_t tail[16];    /* the partial last block, zero-padded: plaintext
                        * (seal) or ciphertext (open) */
  uint8_t hmask[16];   /* seal: ones over the partial block's bytes, zeros
                        * past them; open: zeros */
  uint8_t lengths[16]; /* the length block */
  size_t end;          /* blocks hashed after the blocks: 2, the partial
                        * block then the length block; or 1, the length
                        * block alone */
};
#if !defined(__cplusplus)
_Static_assert(offsetof(struct fused_oneshot, aad) ==
                       FUSED_ONESHOT_AAD_OFFSET &&
                   offsetof(struct fused_oneshot, ctr) ==
                       FUSED_ONESHOT_CTR_OFFSET &&
                   offsetof(struct fused_oneshot, ks) ==
                       FUSED_ONESHOT_KS_OFFSET &&
                   offsetof(struct fused_oneshot, tail) ==
                       FUSED_ONESHOT_TAIL_OFFSET &&
                   offsetof(struct fused_oneshot, hmask) ==
                       FUSED_ONESHOT_HMASK_OFFSET &&
                   offsetof(struct fused_oneshot, lengths) ==
                       FUSED_ONESHOT_LENGTHS_OFFSET &&
                   offsetof(struct fused_oneshot, end) ==
                       FUSED_ONESHOT_END_OFFSET,
               "the x86_64 fused kernels read struct fused_oneshot here");
#endif

/* The seal_oneshot and open_oneshot hooks' type, declared like
 * fused_crypt_fn. */
typedef void fused_oneshot_fn(const struct fused_keys *k, uint8_t *out,
                              const uint8_t *in, size_t blocks,
                              const uint8_t ctr[16], struct fused_oneshot *m);

/* The longest one-shot message, in bytes, that the mode engine's short
 * path takes (crypto/gcm/oneshot.c: two backend calls over a padded copy,
 * no kernel). A kernel slower than that path at every length it covers
 * sets oneshot_min to GCM_SHORT_MAX + 1. A whole number of blocks. */
#define GCM_SHORT_MAX 256

/* The AES-GCM-SIV per-message hooks' types (siv_keys, siv_seal_short,
 * siv_open_short below), declared like fused_crypt_fn. */
typedef void fused_siv_keys_fn(const struct aes_schedule *kgk,
                               const uint8_t nonce[12], uint8_t auth[16],
                               struct aes_schedule *enc);
/* What siv_seal_short and siv_open_short take beside the AAD's blocks:
 * the tag (the seal writes it; the open reads the received one and
 * writes the expected one over it), the whole blocks of the message and
 * where their counter-mode output goes, and the message's end (its padded
 * last block, if any, and the length block). The offsets are for the
 * 64-bit kernels, which read them (asm/perlasm/layout.pm's c_define
 * reads these lines). */
#define SIV_SHORT_IO_TAG_OFFSET 0
#define SIV_SHORT_IO_IN_OFFSET 16
#define SIV_SHORT_IO_OUT_OFFSET 24
#define SIV_SHORT_IO_END_OFFSET 32
struct siv_short_io {
  uint8_t tag[16];
  const uint8_t *in;
  uint8_t *out;
  uint8_t *end;
};
#if !defined(__cplusplus)
_Static_assert((offsetof(struct siv_short_io, in) == SIV_SHORT_IO_IN_OFFSET &&
                offsetof(struct siv_short_io, out) ==
                    SIV_SHORT_IO_OUT_OFFSET &&
                offsetof(struct siv_short_io, end) ==
                    SIV_SHORT_IO_END_OFFSET) ||
                   sizeof(void *) != 8,
               "64-bit fused kernels read struct siv_short_io here");
#endif
typedef void fused_siv_short_fn(const struct aes_schedule *kgk,
                                const uint8_t nonce[12], uint8_t *hb,
                                size_t aad_blocks, size_t len,
                                struct siv_short_io *io);
/* A POLYVAL input as up to four runs of whole blocks, hashed in order
 * (AES-GCM-SIV's whole message: the AAD's whole blocks, its padded last
 * block, the data's whole blocks, the padded last block and the length
 * block). A run of 0 blocks is skipped and its pointer not read. */
struct siv_polyval_runs {
  const uint8_t *in[4];
  size_t blocks[4];
};

/* Where a 64-bit kernel finds them. */
#define SIV_POLYVAL_RUNS_BLOCKS_OFFSET 32
#if !defined(__cplusplus)
_Static_assert(offsetof(struct siv_polyval_runs, blocks) ==
                       SIV_POLYVAL_RUNS_BLOCKS_OFFSET ||
                   sizeof(void *) != 8,
               "64-bit fused kernels read struct siv_polyval_runs here");
#endif

/* The siv_polyval_runs hook's type: S (RFC 8452 order) updated with the
 * runs' blocks in order, as siv_polyval on each would. */
typedef void siv_polyval_runs_fn(uint8_t S[16], const struct ghash_key *key,
                                 const struct siv_polyval_runs *runs);

/* The siv_keys_hash hook's type (below). */
typedef void fused_siv_keys_hash_fn(const struct aes_schedule *kgk,
                                    const uint8_t nonce[12],
                                    struct ghash_key *hash,
                                    struct aes_schedule *enc,
                                    size_t max_blocks);

/* The siv_tag_ctr32le hook's type (below). */
typedef void fused_siv_tag_ctr_fn(const struct aes_schedule *enc,
                                  uint8_t tag[32], uint8_t *out,
                                  const uint8_t *in, size_t blocks,
                                  uint8_t *last);

/* The end of an AES-GCM-SIV open for the siv_open_end hook (below): what
 * follows the message's whole blocks, 16-byte blocks at fixed offsets
 * (RFC 8452 order), then a flag. */
struct siv_open_end {
  uint8_t s[16];       /* in: S over the AAD; out: the tag the message calls for */
  uint8_t nonce[16];   /* N || 0^32 */
  uint8_t ctr[16];     /* the counter block of the partial last block */
  uint8_t mask[16];    /* 0xff over the partial block's bytes, zero after */
  uint8_t last[16];    /* its ciphertext, zero-padded; out: its plaintext,
                        * the padding zero */
  uint8_t lengths[16]; /* the length block */
  uint8_t aad[16];     /* the AAD's partial last block, zero-padded */
  uint64_t partial;    /* 1 when the message ends in a partial block, else
                        * 0 (ctr, mask and last are then not read) */
  uint64_t aad_partial; /* 1 when the AAD does (S then covers only its
                         * whole blocks), else 0 (aad is not read) */
};

/* Where a 64-bit kernel finds the flags (the blocks are at 16 * i). */
#define SIV_OPEN_END_PARTIAL_OFFSET 112
#define SIV_OPEN_END_AAD_PARTIAL_OFFSET 120
#if !defined(__cplusplus)
_Static_assert(offsetof(struct siv_open_end, aad) == 96 &&
                   offsetof(struct siv_open_end, partial) ==
                       SIV_OPEN_END_PARTIAL_OFFSET &&
                   offsetof(struct siv_open_end, aad_partial) ==
                       SIV_OPEN_END_AAD_PARTIAL_OFFSET,
               "fused kernels read struct siv_open_end here");
#endif

/* The siv_open_end hook's type (below). */
typedef void fused_siv_open_end_fn(const struct fused_keys *k, uint8_t *out,
                                   const uint8_t *in, size_t blocks,
                                   const uint8_t ctr[16],
                                   struct siv_open_end *end);

struct fused_impl {
  /* Short, stable name users type: "vaes_avx512", "aesni_avx", "c", ... */
  const char *name;
  /* 1 when no secret (key, H, data) ever selects a branch or an address. */
  int constant_time;
  /* Human-readable CPU requirement, e.g. "none", "VAES+VPCLMULQDQ+AVX512". */
  const char *requires;
  /* The AES and GHASH backends whose key layouts the kernel reads, or NULL
   * for both when it works with any pair through their descriptors. */
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  /* Shortest run, in blocks, worth handing to the kernel; shorter runs take
   * the mode engine's buffered path (crypto/gcm/stream_plan.h). The kernel
   * is correct for any run of at least one block. */
  unsigned min_blocks;
  /* Returns 1 when this build has the kernel and this CPU can run it. */
  int (*usable)(void);
  /* Bytes of a key that init writes and the kernel reads of its own, a
   * multiple of 16; 0 when it keeps nothing (then init is NULL). */
  unsigned key_bytes;
  /* Fills fk (key_bytes) from the key's AES schedule, GHASH key and
   * H = E(K, 0^128) (16 bytes, GCM order). NULL when the kernel keeps
   * nothing of its own. */
  void (*init)(struct fused_key *fk, const struct aes_schedule *aes_key,
               const struct ghash_key *ghash_key, const uint8_t H[16]);
  /* Encrypts: for i in [0, blocks),
   *   out[16i .. 16i+15] = in[16i .. 16i+15] ^ AES(K, ctr + i)
   * (ctr + i adds i to the big-endian word ctr[12..15] modulo 2^32; ctr is
   * not updated), then folds the ciphertext blocks out[...] into Xi as the
   * GHASH contract does (Xi = (Xi ^ C_i) * H for each block in order).
   * blocks >= 1. in == out is allowed; any other overlap is not. */
  fused_crypt_fn *seal;
  /* Decrypts: the same counter mode, but the blocks folded into Xi are the
   * ciphertext in[...], read before out[...] is written, so in == out
   * works. blocks >= 1. */
  fused_crypt_fn *open;
  /* 1 when the dispatcher never attaches the kernel on its own: it runs
   * only when named (gcm_key_init_with_fused, LIBGCM_FUSED). For entries
   * that are correct everywhere but not faster than the two passes, such
   * as the portable C loop. 0 (the default) lets the automatic choice take
   * it. */
  int named_only;
  /* Optional (NULL when the kernel has none): the lagged seal of struct
   * fused_lag, with groups of lag_blocks blocks (a power of two, at most
   * FUSED_LAG_MAX_BLOCKS).
   * blocks is a positive multiple of lag_blocks. Encrypts exactly as seal
   * does, then:
   *   - folds into *lag->Xi, in order, the lag_blocks blocks at
   *     lag->pending when lag->has_pending is 1, then every ciphertext
   *     block but the last lag_blocks;
   *   - writes those last lag_blocks ciphertext blocks to lag->pending,
   *     unhashed.
   * So a call with has_pending 0 followed by GHASH of the pending blocks
   * equals seal. lag->pending is 16 * lag_blocks bytes that overlap
   * neither in nor out; in == out is allowed. */
  fused_lagged_fn *seal_lagged;
  unsigned lag_blocks;
  /* Optional (NULL: wherever usable): whether the automatic choice takes
   * the kernel on this CPU. For a kernel that runs here but loses to the
   * next entry of the list on some CPUs (vaes_avx512 on the Intel cores
   * that lower their clock under 512-bit instructions), so that `usable`
   * keeps saying only whether the CPU can run it: such a kernel is still
   * chosen by name there, and tested. Asks the named queries of
   * crypto/cpu/cpu.h only. */
  int (*preferred)(void);
  /* Streams: the kernel's sizes in the stream planner's contract
   * (crypto/gcm/stream_plan.h, rule 3), measured with gcm-ab --chunk. Left
   * 0, a kernel call counts as costly as a key stream refill and runs are
   * cut down to whole AES batches. A kernel that is cheaper per call
   * declares:
   *   stream_run_min: the fewest whole blocks worth a call; the run that
   *     ends a chunk on a block boundary goes to the kernel uncut.
   *   stream_tail_min: 0, or the fewest whole blocks worth a call when a
   *     partial block follows them; that block then gets key stream of
   *     its own. */
  unsigned stream_run_min;
  unsigned stream_tail_min;
  /* Optional (0: the mode engine's default, GCM_SHORT_FUSED_MIN in
   * crypto/gcm/oneshot.c): the fewest bytes of a one-shot message (96-bit
   * nonce, at most one block of AAD) worth one kernel call rather than the
   * short one-shot path, for a kernel that loses to that path over a
   * longer range than the default assumes, measured with gcm-ab; at
   * least 16 when set. */
  unsigned oneshot_min;
  /* Optional (NULL: the same steps through the GHASH and AES backends
   * around seal or open, crypto/gcm/oneshot.c): a one-shot message's seal
   * or open with its small pieces inside (struct fused_oneshot):
   *   1. m->Xi = (m->Xi ^ m->aad) * H;
   *   2. exactly seal, or open, with m->Xi as Xi;
   *   3. with K = AES(K, m->ctr[1]): T = m->tail ^ (K & m->hmask) (the
   *      ciphertext's partial block, zero-padded, either way), then
   *      m->Xi folds T and m->lengths (m->end 2) or m->lengths alone
   *      (m->end 1) as GHASH does;
   *   4. m->ks[0] = AES(K, m->ctr[0]), m->ks[1] = K ^ m->tail (m->ks[1]
   *      may be left unwritten when m->end is 1: there is no partial
   *      block).
   * The AES of the two counter blocks runs beside the blocks. m overlaps
   * neither in nor out. Leaves no key stream or hash in registers or on
   * its stack (m is the caller's to wipe). */
  fused_oneshot_fn *seal_oneshot;
  fused_oneshot_fn *open_oneshot;
  /* Optional, for AES-GCM-SIV (crypto/siv; NULL when the kernel has
   * none). Each is a GCM hook in RFC 8452's byte order: the counter is
   * the LITTLE-endian 32-bit word ctr[0..3] (ctr + i adds i to it modulo
   * 2^32 and leaves ctr[4..15] alone), and hashing is POLYVAL (ghash.h's
   * polyval_update) on the pair's GHASH key of the POLYVAL key, with the
   * running value S in RFC 8452's byte order where seal and open have Xi.
   *   siv_open: decrypts as open does with that counter, then folds the
   *     plaintext blocks out[...] into S in order (the shape of seal:
   *     the blocks hashed are the output). blocks >= 1; in == out is
   *     allowed. AES-GCM-SIV hashes the plaintext, so its open is the
   *     fused pass; its seal cannot be (the counter starts from the tag,
   *     the hash of all of the plaintext).
   *   siv_ctr32le: the pair's AES backend's ctr32le (aes.h), on its
   *     schedule, in wider registers.
   *   siv_polyval: the pair's GHASH backend's polyval_update (ghash.h),
   *     on its key, in wider registers.
   *   siv_hash_init: the GHASH backend's init_for (ghash.h), but writing
   *     only what this kernel's siv_open and siv_polyval read of the key
   *     (the powers of H), faster than the backend makes all of it, and
   *     nothing past the backend's key_bytes (what the mode wipes). A key
   *     made by it is hashed only through those two (a kernel with
   *     siv_hash_init has siv_polyval).
   * Kernels with these keep nothing of their own (init is NULL):
   * AES-GCM-SIV makes both keys per message and calls siv_open with
   * fused_key NULL. The GHASH key it makes holds only the powers of H that
   * calls of up to the message's number of blocks read (init_for), which
   * is all a kernel may read. */
  fused_crypt_fn *siv_open;
  aes_ctr32_fn *siv_ctr32le;
  ghash_update_fn *siv_polyval;
  ghash_init_for_fn *siv_hash_init;
  /* Optional, for AES-GCM-SIV's per-message work (NULL when the kernel
   * has none; a kernel with one has all three). kgk is the
   * key-generating key's schedule on the pair's AES backend (16 or 32
   * bytes of key: Nr 10 or 14), nonce RFC 8452's 96-bit nonce.
   *   siv_keys: the message's keys (RFC 8452, section 4): writes K_auth,
   *     the POLYVAL key (16 bytes, RFC 8452 order, not yet turned into a
   *     GHASH key), to auth, and K_enc expanded by the AES backend's
   *     set_encrypt_key, the backend's key_bytes of it, to enc.
   *   siv_seal_short: a whole message in three pieces: hb holds
   *     aad_blocks blocks of zero-padded AAD, io->in the len / 16 whole
   *     blocks of plaintext, and io->end, when len % 16 is not 0, the
   *     plaintext's last block zero-padded, then the length block (hb and
   *     io->end 16-byte aligned). POLYVAL runs over them in that order.
   *     Writes the tag to io->tag, the whole blocks' ciphertext to
   *     io->out (which may be io->in itself, no other overlap), and
   *     encrypts the padded last block at io->end in place (padding
   *     included: the caller copies len % 16 bytes out and wipes the
   *     block).
   *   siv_open_short: the same pieces of ciphertext, io->tag the
   *     received tag: decrypts the whole blocks from io->in to io->out
   *     (the same rule) and the padded last block in place, zeroing its
   *     bytes past len % 16; hashes the AAD's blocks, the plaintext's
   *     whole blocks at io->out and io->end; and writes the tag they call
   *     for over io->tag (the caller compares).
   *   For both, the pieces may lie one after the other in hb (io->in =
   *     io->out = hb + 16 * aad_blocks, io->end = that + 16 * (len / 16));
   *     the kernel then hashes them as one run.
   * Each leaves no derived key, S or key stream in registers or on its
   * stack; hb and what the caller passed are the caller's to wipe. */
  fused_siv_keys_fn *siv_keys;
  fused_siv_short_fn *siv_seal_short;
  fused_siv_short_fn *siv_open_short;
  /* Optional (0: every message of crypto/siv/siv.c's short path, at
   * most 256 bytes with at most 64 of AAD): the longest message, in
   * bytes, that AES-GCM-SIV seals with siv_seal_short and opens with
   * siv_open_short (with at most 64 bytes of AAD either way), measured
   * with gcm-ab --siv. Less, for a kernel whose wider siv_ctr32le makes
   * the general short path faster from some length on; more (at most
   * FUSED_SIV_KERNEL_MAX), for one that beats the general path on longer
   * messages too. */
  unsigned siv_seal_max;
  unsigned siv_open_max;
  /* Optional (NULL: siv_polyval, or the GHASH backend's polyval_update,
   * once per run): siv_polyval over the runs of struct siv_polyval_runs
   * in one call, on the same keys as siv_polyval (a kernel with it has
   * siv_polyval). */
  siv_polyval_runs_fn *siv_polyval_runs;
  /* Optional (NULL: the AES backend's encrypt_block for the tag, then
   * counter mode through siv_ctr32le or the backend's ctr32le): an
   * AES-GCM-SIV seal's tag and counter mode in one call, on the pair's
   * AES schedule of K_enc. `tag` holds 32 bytes: S (RFC 8452 order),
   * then N || 0^32; the hook writes T = AES(K_enc, S ^ (N || 0^32) with
   * bit 7 of byte 15 cleared) over the first 16 (S straight from the
   * POLYVAL call, with no step of the caller's between the two), then
   * encrypts `blocks` whole blocks (blocks >= 0) as siv_ctr32le does
   * from counter block T with that bit set (out = in ^ key stream; in ==
   * out allowed), and, when `last` is not NULL, the 16 bytes at `last`
   * in place with the counter block after those (`blocks` added to its
   * first word): the message's padded last block. Leaves no K_enc round
   * key, T or key stream in registers or on its stack. */
  fused_siv_tag_ctr_fn *siv_tag_ctr32le;
  /* Optional (NULL: siv_keys, then the GHASH key through siv_hash_init or
   * the GHASH backend's init_for): both of a message's keys in one call,
   * K_auth never leaving the kernel. kgk and nonce as for siv_keys;
   * writes K_enc's schedule to enc as siv_keys does, and to `hash` the
   * GHASH key for POLYVAL under K_auth that the pair's GHASH backend's
   * init_for(max_blocks) makes (max_blocks >= 1), within its key_bytes:
   * a key every one of the kernel's and the backend's POLYVAL functions
   * takes for calls of up to max_blocks blocks. */
  fused_siv_keys_hash_fn *siv_keys_hash;
  /* Optional (NULL: siv_open, then the partial last block through the AES
   * backend's ctr32le, its POLYVAL and the length block's, and the tag
   * through encrypt_block): the whole of an AES-GCM-SIV open after the
   * POLYVAL of the AAD's whole blocks, in one call. First, when
   * end->aad_partial is 1, hashes end->aad into S (from end->s); then
   * decrypts and hashes `blocks` whole blocks (blocks >= 1) exactly as
   * siv_open does, continuing S;
   * then, when end->partial is 1, decrypts end->last in place with the
   * key stream of end->ctr, ANDs it with end->mask and hashes it; hashes
   * end->lengths; and writes T = AES(K_enc, (S ^ end->nonce) with bit 7
   * of byte 15 cleared) to end->s. The GHASH key must hold the powers
   * siv_open reads for `blocks` blocks and at least two. Leaves no key
   * stream, S, T or key in registers or on its stack. */
  fused_siv_open_end_fn *siv_open_end;
};

/* The most siv_seal_max and siv_open_max may say (the kernels take any
 * length; the hooks' tests go up to this one, test/siv_hooks_test.cc). */
#define FUSED_SIV_KERNEL_MAX 2048

/* The aesni descriptors' limits (aesni_avx, aesni_sse), measured with
 * gcm-ab --siv on AMD Zen 1 against the general paths (crypto/siv/siv.c's
 * seal_fused and open_fused, on the same descriptors), above 1 the
 * kernel faster. Seal, up to the most the tests cover: 1.18-1.23 at
 * 272-512 bytes, 1.10-1.11 at 1350 and 1.06-1.08 at 2048 (AES-128 and
 * AES-256, both descriptors); the general path's separate POLYVAL key and
 * calls cost more than the kernel's two passes in one call. Open, to 512
 * bytes: 1.11-1.16 from 272 to 512 bytes, then about even at 1024 (AES-256
 * 1.00) and behind from 1536 (0.94-0.97), where the general path's
 * one-pass siv_open wins. Measured on Zen 1 only: a core whose AESENC and
 * PCLMULQDQ use other ports may move both crossovers. */
#define FUSED_SIV_AESNI_SEAL_MAX FUSED_SIV_KERNEL_MAX
#define FUSED_SIV_AESNI_OPEN_MAX 512

/* The AES-GCM-SIV per-message kernels on an aesni schedule, with AES-NI
 * and PCLMULQDQ in the legacy SSE encoding
 * (asm/x86_64/aes-gcm-siv-aesni-x86_64.pl): every x86_64 descriptor whose
 * pair's AES backend is aesni points its siv_keys, siv_seal_short and
 * siv_open_short here. NULL where the build lacks them. */
#if defined(LIBGCM_ASM_X86_64)
GCM_HIDDEN fused_siv_keys_fn gcmi_aes_gcm_siv_x86_64_aesni_keys;
GCM_HIDDEN fused_siv_short_fn gcmi_aes_gcm_siv_x86_64_aesni_seal_short;
GCM_HIDDEN fused_siv_short_fn gcmi_aes_gcm_siv_x86_64_aesni_open_short;
#define FUSED_SIV_AESNI(op) gcmi_aes_gcm_siv_x86_64_aesni_##op
#else
#define FUSED_SIV_AESNI(op) NULL
#endif

/* The designated initializers that point a descriptor's per-message
 * AES-GCM-SIV hooks at those kernels, with the descriptor's limits
 * (siv_seal_max, siv_open_max; 0 is the short path's own). */
#define FUSED_SIV_AESNI_HOOKS(seal_max, open_max)      \
  .siv_keys = FUSED_SIV_AESNI(keys),                   \
  .siv_seal_short = FUSED_SIV_AESNI(seal_short),       \
  .siv_open_short = FUSED_SIV_AESNI(open_short),       \
  .siv_seal_max = (seal_max), .siv_open_max = (open_max)

/* The VAES kernels' limit for those hooks, both ways: from 16 blocks the
 * general short path, whose counter mode is then the VAES kernel's wider
 * siv_ctr32le, beats the xmm kernel (gcm-ab --siv, Zen 5: 256 bytes
 * 0.96-0.98, 208 bytes 1.13 for the xmm kernel against the general path
 * on the backends' hooks). */
#define FUSED_SIV_VAES_SHORT_MAX 240

/* The kernels, one descriptor per file (crypto/fused/fused_<name>.c).
 * Every descriptor exists on every build; one whose kernel this build does
 * not have reports unusable (`usable` answers 0 and `seal`/`open` are
 * NULL). The dispatcher (crypto/dispatch/dispatch.c) lists them best first. */
/* VAES + VPCLMULQDQ on zmm (AVX-512), pair (aesni, vpclmul_avx2); x86_64. */
extern GCM_HIDDEN const struct fused_impl gcmi_fused_vaes_avx512;
/* VAES + VPCLMULQDQ on ymm, pair (aesni, vpclmul_avx2); x86_64. */
extern GCM_HIDDEN const struct fused_impl gcmi_fused_vaes_avx2;
/* AES-NI + PCLMULQDQ stitched, VEX-encoded, pair (aesni, clmul); x86_64. */
extern GCM_HIDDEN const struct fused_impl gcmi_fused_aesni_avx;
/* The same in the legacy SSE encoding, for CPUs without AVX; pair (aesni,
 * clmul); x86_64. */
extern GCM_HIDDEN const struct fused_impl gcmi_fused_aesni_sse;
/* AESE/AESMC + PMULL/PMULL2 interleaved, pair (armv8, pmull); aarch64. */
extern GCM_HIDDEN const struct fused_impl gcmi_fused_armv8_pmull;
/* The same with EOR3 (FEAT_SHA3), pair (armv8, pmull); aarch64. */
extern GCM_HIDDEN const struct fused_impl gcmi_fused_armv8_pmull_eor3;
/* The portable C loop, any pair; by name only (named_only). */
extern GCM_HIDDEN const struct fused_impl gcmi_fused_c;

#endif /* LIBGCM_CRYPTO_FUSED_FUSED_H */
