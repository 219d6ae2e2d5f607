/*
 * crypto/gcm/gcm.c: the Galois/Counter Mode (NIST SP 800-38D).
 *
 * For key K, nonce IV, additional data A and plaintext P:
 *   H   = E(K, 0^128)
 *   J0  = IV || 0^31 || 1                          if IV is 96 bits,
 *         GHASH_H(IV || 0-pad || 0^64 || [len(IV)]_64)  otherwise
 *   C   = P xor (E(K, inc32(J0)), E(K, inc32^2(J0)), ...)
 *   S   = GHASH_H(A || 0-pad || C || 0-pad || [len(A)]_64 || [len(C)]_64)
 *   T   = MSB_t(S xor E(K, J0))
 * where inc32 adds one to the last 32 bits of a block modulo 2^32.
 *
 * Key stream. The AES backends compute several counter blocks at once (a
 * bitsliced core does 8 for the price of 1). A message start therefore asks
 * for one batch beginning at J0: its first block is the tag mask E(K, J0),
 * the rest is the first key stream. Key stream that a short update does not
 * use stays in the stream and is handed out first by the next update.
 * Updates are served from that buffer, refilled GCM_KS_MAX_BLOCKS blocks
 * (whole batches) at a time, unless no key stream is buffered and a long
 * enough run of whole blocks is at hand: only such runs take the direct
 * path (the fused kernel, or CTR over the caller's memory with GHASH
 * straight after). For a stream "long enough" is run_min blocks, at least
 * a batch, the fused kernel's min_blocks and GCM_STREAM_RUN_MIN, and the
 * run is cut down to whole batches (the rest is served from the buffer):
 * a direct call of a few blocks pays the kernels' per-call costs (loop
 * set-up, a GHASH reduction, a partly used batch) on few bytes, where the
 * buffer pays them once per GCM_KS_MAX_BLOCKS blocks. So a whole-block
 * chunk costs what an odd-sized one does, and streaming speed does not
 * depend on where the caller cuts the data. When a streamed chunk brings
 * run_min whole blocks while the buffer ends on a block boundary, the
 * buffered blocks are given back (the counter steps back over them) so the
 * chunk, and the ones after it, take the bulk path instead of straddling
 * refills. Key stream given back is made twice, which AES in software
 * (the descriptor's hardware_rounds 0) cannot afford on every chunk: there,
 * and with AES instructions on chunks of at least run_min blocks plus a
 * batch, only a chunk of whole batches gives the buffer back; other such
 * chunks use it up first, and their tails refill just the batches they
 * need.
 *
 * Fused slot. A key may carry a fused kernel (crypto/fused/fused.h) that
 * does CTR and GHASH in one loop. Whole-block runs of at least its
 * min_blocks go to it instead of the two-pass bulk path, in one-shot and
 * streaming calls alike; everything else stays as described here, unless
 * the kernel declares stream sizes (stream_run_min, stream_tail_min):
 * such a kernel costs less per call than a refill, so a stream hands it
 * runs from stream_run_min blocks on, uncut when they are the chunk's last
 * whole blocks, and a partial block behind a run of at least
 * stream_tail_min blocks gets one block of key stream of its own
 * (tail_key_stream) instead of a full buffer (crypt_sized). The next chunk
 * finishes that block from the buffer, has nothing else to give back and
 * goes straight to the kernel, so a chunk that is not a multiple of 16
 * bytes costs a kernel call and two one-block calls (the straddling
 * block's key stream and its GHASH, which joins a lagged seal's pending
 * group when there is one) rather than a trip through the buffer. A
 * stream's seal runs may go to the kernel's lagged seal, which leaves the
 * run's last group of ciphertext unhashed in ks for the next run to hash
 * beside its first AES rounds (fused_run); whatever the stream does next
 * hashes that group first.
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
 * one block of AAD, from GCM_SHORT_FUSED_MIN bytes on) skip the stream
 * too: one kernel call on the AAD block gives its hash and the tag mask,
 * one takes every whole block straight from in to out, and one GHASH call
 * hashes the partial last block with the length block (one_shot_fused).
 *
 * Hashing. The key stream buffer is also the hash buffer: an update
 * writes each ciphertext byte over the key stream byte that made it (the
 * input when decrypting, read before out is written, so out == in works),
 * and the ciphertext collected there is hashed in one GHASH call just
 * before the buffer is refilled, so a streamed message costs one GHASH call
 * and one CTR call per GCM_KS_MAX_BLOCKS blocks whatever the chunk size,
 * and a short update is one pass over its bytes. The AAD's last partial
 * block, zero-padded, takes the place of the tag mask in front of the first
 * key stream and is hashed with the ciphertext; the length block joins the
 * last run when it fits behind it. Long runs (bulk and fused paths) are
 * hashed straight from the caller's memory.
 *
 * Nothing here branches on or indexes by secret data: lengths and positions
 * are public, the secrets (key, H, key stream, plaintext) only flow through
 * the backends and xor.
 */
#include "block.h"
#include "mode.h"

/* Whole blocks processed per backend call in the bulk path: large enough to
 * amortise call overhead, small enough that the data is still in L1 when
 * GHASH reads what CTR just wrote. */
#define GCM_BULK_BLOCKS 256

/* Streams: the shortest whole-block run (in blocks) that skips the key
 * stream buffer; shorter runs are served from the buffer, whose CTR and
 * GHASH calls cover GCM_KS_MAX_BLOCKS blocks each. Measured with
 * gcm-cycles --chunks on ct, vpaes, aesni (two-pass and fused): below
 * this, direct calls lose to the buffer on every pair. A fused kernel
 * that is cheaper per call declares its own (stream_run_min). */
#ifndef GCM_STREAM_RUN_MIN
#define GCM_STREAM_RUN_MIN 16
#endif

/* The short one-shot path: data blocks and AAD bytes it takes. */
#define GCM_SHORT_BLOCKS 16
#define GCM_SHORT_MAX (GCM_SHORT_BLOCKS * 16)
#define GCM_SHORT_AAD 96
/* With a fused kernel, one-shot messages of at least this many bytes (with
 * a 96-bit nonce and at most one block of AAD) take one_shot_fused rather
 * than one_shot_short or the stream. Below it one_shot_short's two calls
 * beat one_shot_fused's three (measured with the vaes_avx2 kernel: about
 * even at 128 bytes, one_shot_fused 15-35% faster from 200 bytes to 1350,
 * no different at 16 KiB). */
#ifndef GCM_SHORT_FUSED_MIN
#define GCM_SHORT_FUSED_MIN 160
#endif

/* Adds n to the big-endian 32-bit counter in ctr[12..15], modulo 2^32.
 * The block is written back whole: the kernels load it as one 16-byte
 * value at their start, and a load that a narrower store only partly
 * covers cannot take its data from the store, so a 4-byte store of the
 * last word would stall every kernel call of a stream (about 20 cycles
 * per 256-byte chunk with AES-NI, measured with gcm-cycles); block.h
 * builds the new block in registers. */
static void ctr32_add(uint8_t ctr[16], uint32_t n) {
  block_store(ctr, block_counter(ctr, load_be32(ctr + 12) + n));
}

void gcm_mode_key_init(struct gcm_key_st *k, const struct aes_impl *aes,
                       const struct ghash_impl *ghash,
                       const struct fused_impl *fused, const uint8_t *key,
                       size_t key_len) {
  _Alignas(16) uint8_t H[16] = {0};
  k->aes = aes;
  k->ghash = ghash;
  k->fused = fused;
  k->key_len = (uint32_t)key_len;
  aes->set_encrypt_key(&k->aes_schedule, key, key_len);
  aes->encrypt_block(&k->aes_schedule, H, H);
  ghash->init(&k->ghash_key, H);
  memset(&k->fused_key, 0, sizeof(k->fused_key));
  if (fused != NULL && fused->init != NULL) {
    fused->init(&k->fused_key, &k->aes_schedule, &k->ghash_key, H);
  }
  gcmi_secure_wipe(H, sizeof(H));
  k->magic = GCM_KEY_MAGIC;
}

_Static_assert((FUSED_LAG_MAX_BLOCKS + 2) * 16 <= GCM_KS_MAX_BLOCKS * 16,
               "a lagged seal's pending group, a partial block's key stream "
               "and the length block fit ks");

/* Hashes a lagged seal's pending group (fused_run), which comes before
 * any ciphertext collected after it, and with it, in the same GHASH call,
 * the whole blocks collected right behind it (while lagging, ciphertext is
 * collected only there: tail_key_stream). */
static void flush_lag(struct gcm_stream_st *s) {
  const struct gcm_key_st *k = s->key;
  k->ghash->update(s->Xi, &k->ghash_key, s->ks,
                   k->fused->lag_blocks + s->hash_len / 16u);
  s->lagging = 0;
  s->hash_len = 0;
}

/* Hashes what is waiting: a lagged seal's pending group, then the
 * ciphertext collected in front of ks_pos (whole blocks: the callers flush
 * only at block boundaries). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline)) /* out of line it measured 2-4% slower */
#endif
static inline void flush_hash(struct gcm_stream_st *s) {
  if (s->lagging) flush_lag(s);
  if (s->hash_len == 0) return;
  s->key->ghash->update(s->Xi, &s->key->ghash_key,
                       s->ks + s->ks_pos - s->hash_len, s->hash_len / 16u);
  s->hash_len = 0;
}

/* Hashes n bytes of AAD: a partial block waits in aad_buf, whole blocks
 * are hashed straight from the caller's memory. */
static void aad_bytes(struct gcm_stream_st *s, const uint8_t *p, size_t n) {
  /* An empty piece may come with p == NULL, which memcpy must not see. */
  if (n == 0) return;
  const struct gcm_key_st *k = s->key;
  if (s->aad_buf_len > 0) {
    size_t take = 16u - s->aad_buf_len;
    if (take > n) take = n;
    memcpy(s->aad_buf + s->aad_buf_len, p, take);
    s->aad_buf_len = (uint8_t)(s->aad_buf_len + take);
    p += take;
    n -= take;
    if (s->aad_buf_len < 16) return; /* n is 0 here */
    k->ghash->update(s->Xi, &k->ghash_key, s->aad_buf, 1);
    s->aad_buf_len = 0;
  }
  if (n >= 16) {
    k->ghash->update(s->Xi, &k->ghash_key, p, n / 16);
    p += n & ~(size_t)15;
    n &= 15;
  }
  if (n > 0) {
    memcpy(s->aad_buf, p, n);
    s->aad_buf_len = (uint8_t)n;
  }
}

/* Ends the AAD: its last partial block, zero-padded, goes where the tag
 * mask was (the block in front of the first key stream, used and free
 * now) to be hashed with the first ciphertext, or is hashed at once when
 * that block is not free. */
static void enter_data(struct gcm_stream_st *s) {
  if (s->aad_buf_len > 0) {
    memset(s->aad_buf + s->aad_buf_len, 0, 16u - s->aad_buf_len);
    if (s->hash_len == 0 && s->ks_pos >= 16 && (s->ks_pos & 15u) == 0) {
      memcpy(s->ks + s->ks_pos - 16, s->aad_buf, 16);
      s->hash_len = 16;
    } else {
      s->key->ghash->update(s->Xi, &s->key->ghash_key, s->aad_buf, 1);
    }
    s->aad_buf_len = 0;
  }
  s->phase = GCM_PHASE_DATA;
}

/* J0 for a nonce that is not 96 bits: GHASH over the zero-padded nonce and
 * a block holding its bit length. */
static void derive_j0(const struct gcm_key_st *k, const uint8_t *nonce,
                      size_t nonce_len, uint8_t j0[16]) {
  _Alignas(16) uint8_t block[16];
  memset(j0, 0, 16);
  size_t whole = nonce_len / 16, rest = nonce_len % 16;
  k->ghash->update(j0, &k->ghash_key, nonce, whole);
  if (rest > 0) {
    memset(block, 0, sizeof(block));
    memcpy(block, nonce + whole * 16, rest);
    k->ghash->update(j0, &k->ghash_key, block, 1);
  }
  memset(block, 0, 8);
  store_be64(block + 8, (uint64_t)nonce_len * 8);
  k->ghash->update(j0, &k->ghash_key, block, 1);
}

/* Fills s->ks with `blocks` blocks of key stream from s->ctr onwards. */
/* The input of a key stream refill: counter mode over zeros. Reading it
 * costs no stores before the kernel runs (a memset of the buffer would,
 * and the kernel's loads would wait on them). */
static const uint8_t ks_zeros[GCM_KS_MAX_BLOCKS * 16];

static void refill_key_stream(struct gcm_stream_st *s, unsigned blocks) {
  const struct gcm_key_st *k = s->key;
  k->aes->ctr32(&k->aes_schedule, s->ks, ks_zeros, blocks, s->ctr);
  ctr32_add(s->ctr, blocks);
  s->ks_pos = 0;
  s->ks_len = blocks * 16;
}

/* The key stream of one block: the partial block that ends a chunk after
 * an uncut fused run (crypt_sized). It goes behind a lagged seal's pending
 * group, which stays in ks, so that the ciphertext later collected in it
 * is hashed in the same GHASH call as that group (flush_hash). */
static void tail_key_stream(struct gcm_stream_st *s) {
  const struct gcm_key_st *k = s->key;
  const uint32_t at = s->lagging ? 16u * k->fused->lag_blocks : 0u;
  k->aes->ctr32(&k->aes_schedule, s->ks + at, ks_zeros, 1, s->ctr);
  ctr32_add(s->ctr, 1);
  s->ks_pos = at;
  s->ks_len = at + 16u;
}

static unsigned batch_blocks(const struct gcm_key_st *k) {
  unsigned b = k->aes->ctr_batch_blocks;
  if (b < 1) b = 1;
  if (b > GCM_KS_MAX_BLOCKS) b = GCM_KS_MAX_BLOCKS;
  return b;
}

/* A batch fits s->batch and no power-of-two batch's mask is the marker. */
_Static_assert(GCM_KS_MAX_BLOCKS < GCM_BATCH_NOT_POW2,
               "a batch must fit gcm_stream_st's batch and batch_mask");

/* Whether `blocks` is a whole number of the stream's AES batches, and
 * `blocks` rounded down to one: a mask when the batch is a power of two,
 * the division otherwise (batch_mask in mode.h). */
static inline int whole_batches(const struct gcm_stream_st *s, size_t blocks) {
  if (GCM_LIKELY(s->batch_mask != GCM_BATCH_NOT_POW2))
    return (blocks & s->batch_mask) == 0;
  return blocks % s->batch == 0;
}
static inline size_t round_to_batches(const struct gcm_stream_st *s,
                                      size_t blocks) {
  if (GCM_LIKELY(s->batch_mask != GCM_BATCH_NOT_POW2))
    return blocks & ~(size_t)s->batch_mask;
  return blocks - blocks % s->batch;
}

void gcm_mode_start(struct gcm_stream_st *s, const struct gcm_key_st *k,
                    int encrypt, const uint8_t *nonce, size_t nonce_len,
                    uint64_t expected_len) {
  s->key = k;
  s->encrypt = (uint8_t)(encrypt != 0);
  s->phase = GCM_PHASE_AAD;
  s->aad_buf_len = 0;
  s->hash_len = 0;
  s->lagging = 0;
  s->one_shot = (uint8_t)(expected_len != UINT64_MAX);
  s->aad_len = 0;
  s->data_len = 0;
  memset(s->Xi, 0, 16);

  if (nonce_len == 12) {
    memcpy(s->ctr, nonce, 12);
    store_be32(s->ctr + 12, 1);
  } else {
    derive_j0(k, nonce, nonce_len, s->ctr);
  }

  /* One batch from J0: the tag mask plus as much key stream as the message
   * can use, capped at the kernel's natural width. */
  unsigned blocks = batch_blocks(k);
  if (expected_len != UINT64_MAX) {
    uint64_t need = 1 + (expected_len + 15) / 16;
    if (need < blocks) blocks = (unsigned)need;
    /* With a fused kernel every whole block of a one-shot message goes to
     * it: make only the tag mask, not key stream the kernel would have
     * to wait behind (those blocks would take the slower two-pass
     * route). */
    if (k->fused != NULL && expected_len / 16 >= k->fused->min_blocks) {
      blocks = 1;
    }
  }
  refill_key_stream(s, blocks);
  memcpy(s->tag_mask, s->ks, 16);
  /* The direct-run threshold of a stream (see the top of the file). */
  unsigned run_min;
  s->uncut_runs = 0;
  s->tail_min = 0;
  if (k->fused != NULL && k->fused->stream_run_min != 0) {
    const unsigned floor = k->fused->min_blocks;
    run_min = k->fused->stream_run_min;
    if (run_min < floor) run_min = floor;
    s->uncut_runs = 1;
    unsigned tail_min = k->fused->stream_tail_min;
    if (tail_min != 0 && tail_min < run_min) tail_min = run_min;
    s->tail_min = (uint16_t)tail_min;
  } else {
    run_min = batch_blocks(k);
    if (k->fused != NULL && k->fused->min_blocks > run_min)
      run_min = k->fused->min_blocks;
    if (run_min < GCM_STREAM_RUN_MIN) run_min = GCM_STREAM_RUN_MIN;
  }
  s->run_min = (uint16_t)run_min;
  const unsigned batch = batch_blocks(k);
  /* With AES instructions a block of key stream costs less than the calls
   * that a chunk split around the buffer makes, so only chunks of at least
   * run_min + batch blocks use the buffer up, which after using up less
   * than a batch still go direct: 400-byte chunks then ran 1.25x faster on
   * the aesni/clmul pair, while 272 to 350-byte chunks measured 2-8%
   * slower than with a full refill that serves most of the next chunk. */
  s->use_up_min = (uint16_t)(k->aes->hardware_rounds ? run_min + batch
                                                     : run_min);
  s->batch = (uint8_t)batch;
  s->batch_mask = (batch & (batch - 1)) == 0 ? (uint8_t)(batch - 1)
                                             : (uint8_t)GCM_BATCH_NOT_POW2;
  s->ks_pos = 16;
  s->magic = GCM_STREAM_MAGIC;
}

void gcm_mode_aad(struct gcm_stream_st *s, const uint8_t *aad, size_t len) {
  s->aad_len += len;
  aad_bytes(s, aad, len);
}

/* Runs `blocks` whole blocks through the key's fused kernel. The caller
 * has flushed the collected ciphertext, so the kernel folds into an
 * up-to-date Xi, or into Xi and a lagged seal's pending group.
 *
 * A stream's seal takes the kernel's lagged seal when it has one and the
 * run is a whole number of its groups: the run's last group stays pending
 * in ks and the next run hashes it beside its own first group's rounds
 * (struct fused_lag), so a stream of short updates (16 blocks each) is
 * stitched from call to call. Anything else first hashes what is
 * pending: flush_hash for the buffer and the length block, here for a
 * run that the lagged seal does not take. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void fused_run(struct gcm_stream_st *s, uint8_t *out, const uint8_t *in,
                      size_t blocks) {
  const struct gcm_key_st *k = s->key;
  const struct fused_impl *f = k->fused;
  const struct fused_keys fk = gcm_key_fused_keys(k);
  if (s->encrypt) {
    if (f->seal_lagged != NULL && !s->one_shot &&
        (blocks & (f->lag_blocks - 1u)) == 0) {
      const struct fused_lag lag = {s->Xi, s->ks, s->lagging};
      f->seal_lagged(&fk, out, in, blocks, s->ctr, &lag);
      s->lagging = 1;
    } else {
      if (s->lagging) flush_lag(s);
      f->seal(&fk, out, in, blocks, s->ctr, s->Xi);
    }
  } else {
    f->open(&fk, out, in, blocks, s->ctr, s->Xi);
  }
  ctr32_add(s->ctr, (uint32_t)blocks);
}

/* The last n < 16 bytes of crypt_collect (or a whole update that short):
 * two steps of the widest size w in 8, 4, 2 with w <= n, over the first w
 * and the last w bytes, which overlap unless n == 2w; both load before
 * either stores (out may be in), and the shared bytes get the same values
 * twice. One branch on n and two steps, where single steps of 8, 4, 2
 * and 1 bytes would take four of each. */
#define COLLECT_STEP2(T)                             \
  do {                                               \
    T x0, x1, y0, y1;                                \
    memcpy(&x0, in, sizeof(T));                      \
    memcpy(&x1, in + n - sizeof(T), sizeof(T));      \
    memcpy(&y0, ks, sizeof(T));                      \
    memcpy(&y1, ks + n - sizeof(T), sizeof(T));      \
    y0 ^= x0;                                        \
    y1 ^= x1;                                        \
    memcpy(ks, encrypt ? &y0 : &x0, sizeof(T));      \
    memcpy(ks + n - sizeof(T), encrypt ? &y1 : &x1,  \
           sizeof(T));                               \
    memcpy(out, &y0, sizeof(T));                     \
    memcpy(out + n - sizeof(T), &y1, sizeof(T));     \
  } while (0)
static inline void collect_steps(uint8_t *out, const uint8_t *in, uint8_t *ks,
                                 size_t n, const int encrypt) {
  if (n >= 8) {
    COLLECT_STEP2(uint64_t);
  } else if (n >= 4) {
    COLLECT_STEP2(uint32_t);
  } else if (n >= 2) {
    COLLECT_STEP2(uint16_t);
  } else if (n == 1) {
    uint8_t x = in[0], y = (uint8_t)(x ^ ks[0]);
    ks[0] = encrypt ? y : x;
    out[0] = y;
  }
}
#undef COLLECT_STEP2

/* One whole block of crypt_collect, loaded (input and key stream) before
 * it is stored; a block is one value (crypto/gcm/block.h: a vector
 * register where the target has one), written as such rather than left to
 * the vectoriser, whose run-time alias checks and unrolled copies cost
 * more than a short update's work. */
static inline void collect_one(uint8_t *out, const uint8_t *in, uint8_t *ks,
                               const int encrypt) {
  const gcm_block x = block_load(in);
  const gcm_block y = block_xor(x, block_load(ks));
  block_store(ks, encrypt ? y : x);
  block_store(out, y);
}

/* The common short update in one pass: n bytes of `in` xor the key stream
 * at ks go to out, and the ciphertext (out when encrypting, in when
 * decrypting, read before out is written) goes back over the key stream
 * at ks, to be hashed from there. Each step loads its input and key
 * stream before it stores, so out == in works; `encrypt` is a constant at
 * every call, so each direction gets its own loop. */
static inline void crypt_collect(uint8_t *out, const uint8_t *in, uint8_t *ks,
                                 size_t n, const int encrypt) {
  size_t i = 0;
  if (n > 16) {
    /* The last 16 bytes of the update as one block, loaded before anything
     * is stored (out may be in): a partial last block then costs one step
     * in place of up to four, the bytes it shares with the last whole
     * block getting the same values twice. Block-aligned updates take the
     * same shape (the window is their last block), so they are never
     * slower than the update a byte shorter. */
    const gcm_block xl = block_load(in + n - 16);
    const gcm_block kl = block_load(ks + n - 16);
    for (; i + 16 < n; i += 16) collect_one(out + i, in + i, ks + i, encrypt);
    const gcm_block yl = block_xor(xl, kl);
    block_store(ks + n - 16, encrypt ? yl : xl);
    block_store(out + n - 16, yl);
    return;
  }
  for (; i + 16 <= n; i += 16) collect_one(out + i, in + i, ks + i, encrypt);
  if (n & 15u) collect_steps(out + i, in + i, ks + i, n & 15u, encrypt);
}

/* n bytes (at most what is buffered) on buffered key stream. */
static inline void crypt_buffered(struct gcm_stream_st *s, uint8_t *out,
                                  const uint8_t *in, size_t n) {
  uint8_t *ks = s->ks + s->ks_pos;
  if (s->encrypt) {
    crypt_collect(out, in, ks, n, 1);
  } else {
    crypt_collect(out, in, ks, n, 0);
  }
  s->ks_pos += (uint32_t)n;
  s->hash_len += (uint32_t)n;
}

/* Gives the buffered key stream from ks_pos (a block boundary) back, for
 * a run that goes direct from here: what was collected is hashed, the
 * counter steps back over the unused blocks (crypt_slow, crypt_sized). */
static inline void give_back(struct gcm_stream_st *s) {
  flush_hash(s);
  ctr32_add(s->ctr, 0u - (s->ks_len - s->ks_pos) / 16u);
  s->ks_pos = s->ks_len = 0;
}

static void crypt_slow(struct gcm_stream_st *s, uint8_t *out,
                       const uint8_t *in, size_t len);
static void crypt_sized(struct gcm_stream_st *s, uint8_t *out,
                        const uint8_t *in, size_t len);

/* Whether a stream's chunk of len bytes (data phase) may take crypt_sized:
 * the key's kernel has stream sizes, the chunk brings run_min whole blocks
 * and either tail_min of them or starts and ends on a block boundary,
 * which crypt_sized needs to take a run uncut. Other chunks go straight to
 * crypt_slow (a call through crypt_sized measured 2-4% slower on them). */
static inline int sized_may_take(const struct gcm_stream_st *s, size_t len) {
  return s->uncut_runs && !s->one_shot && len / 16 >= s->run_min &&
         ((s->tail_min != 0 && len / 16 >= s->tail_min) ||
          ((s->ks_pos | len) & 15u) == 0);
}
static void bulk_run(struct gcm_stream_st *s, uint8_t *out, const uint8_t *in,
                     size_t blocks);

/* A stream's direct run of `blocks` whole blocks (nothing buffered, the
 * collected ciphertext hashed): the fused kernel when the key has one,
 * else the two passes. */
static inline void direct_run(struct gcm_stream_st *s, uint8_t *out,
                              const uint8_t *in, size_t blocks) {
  if (s->key->fused != NULL) {
    fused_run(s, out, in, blocks);
  } else {
    bulk_run(s, out, in, blocks);
  }
}

/* The two-pass bulk path over `blocks` whole blocks (the collected
 * ciphertext has been hashed): CTR over the caller's memory, GHASH of the
 * ciphertext (before it is overwritten when opening). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline)) /* keeps gcm_mode_crypt's fast paths frameless */
#endif
static void bulk_run(struct gcm_stream_st *s, uint8_t *out, const uint8_t *in,
                     size_t blocks) {
  const struct gcm_key_st *k = s->key;
  if (!s->encrypt) k->ghash->update(s->Xi, &k->ghash_key, in, blocks);
  k->aes->ctr32(&k->aes_schedule, out, in, blocks, s->ctr);
  if (s->encrypt) k->ghash->update(s->Xi, &k->ghash_key, out, blocks);
  ctr32_add(s->ctr, (uint32_t)blocks);
}

void gcm_mode_crypt(struct gcm_stream_st *s, uint8_t *out, const uint8_t *in,
                    size_t len) {
  /* Fast path: the whole update lies inside the buffered key stream. It
   * is kept apart from the rest so it needs no stack frame. */
  if (GCM_LIKELY(s->phase == GCM_PHASE_DATA)) {
    if (GCM_LIKELY(len <= s->ks_len - s->ks_pos)) {
      crypt_buffered(s, out, in, len);
      s->data_len += len;
      return;
    }
    if (len / 16 >= s->run_min && !s->one_shot) {
      /* The other common streamed update, straight to the direct path:
       * whole batches (any whole blocks with stream sizes), at least
       * run_min blocks and at most one bulk call, with the buffer used up
       * and hashed (the steady state of long block-aligned chunks). */
      if (s->ks_pos == s->ks_len && s->hash_len == 0 && (len & 15) == 0 &&
          len <= GCM_BULK_BLOCKS * 16 &&
          (s->uncut_runs || whole_batches(s, len / 16))) {
        s->data_len += len;
        direct_run(s, out, in, len / 16); /* a tail call: no stack frame */
        return;
      }
      if (sized_may_take(s, len)) {
        crypt_sized(s, out, in, len);
        return;
      }
    }
  }
  crypt_slow(s, out, in, len);
}

/* Everything else: the end of the AAD, refills, bulk and fused runs. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void crypt_slow(struct gcm_stream_st *s, uint8_t *out,
                       const uint8_t *in, size_t len) {
  const struct gcm_key_st *k = s->key;
  const unsigned batch = batch_blocks(k);
  if (s->phase == GCM_PHASE_AAD) {
    enter_data(s);
    /* A stream's first chunk on a kernel with stream sizes: as any other. */
    if (sized_may_take(s, len)) {
      crypt_sized(s, out, in, len);
      return;
    }
  }
  s->data_len += len;

  /* A long chunk: a stream's chunk of at least run_min whole blocks, which
   * takes the direct path for most of its data (one-shot messages start
   * with exactly the key stream they use and have no chunks). */
  const int long_chunk = !s->one_shot && len / 16 >= s->run_min;
  /* A long chunk may use up what is buffered before its direct run, and
   * the tail after that run refill only the whole batches it needs
   * (below), so that no key stream is made twice. Giving a tail's unused
   * key stream back on every chunk instead ran 400-byte chunks (a run of 24
   * blocks and one refilled block) at 58% of one-shot speed on vpaes.
   * The threshold, use_up_min, is set once per stream (gcm_mode_start). */
  const int use_up = long_chunk && len / 16 >= s->use_up_min;

  /* A long chunk while the buffered key stream ends on a block boundary:
   * give the buffered blocks back (step the counter back over them) and
   * take the bulk or fused path from here. Otherwise a caller that moves
   * from short chunks to long ones, or whose first long chunk arrives with
   * the start-up batch still buffered, would stay on the buffered path for
   * good, every chunk straddling a refill. The blocks given back are
   * recomputed by the direct run. A chunk that may use up the buffer
   * (use_up) gives it back only when the chunk is whole batches: its
   * direct run then ends it with nothing buffered, so this happens once
   * per change of chunk size; other such chunks use the buffer up. */
  if (long_chunk && s->ks_pos < s->ks_len && (s->ks_pos & 15u) == 0 &&
      (!use_up || ((len & 15u) == 0 && whole_batches(s, len / 16)))) {
    give_back(s);
  }

  while (len > 0) {
    size_t n;
    if (s->ks_pos < s->ks_len) {
      /* Buffered key stream first. */
      n = s->ks_len - s->ks_pos;
      if (n > len) n = len;
      crypt_buffered(s, out, in, n);
      in += n;
      out += n;
      len -= n;
      continue;
    }
    /* The buffer is used up (ks_pos == ks_len, a block boundary): hash
     * what it collected before any other ciphertext. */
    flush_hash(s);
    if (!s->one_shot) {
      /* A stream: whole batches of a run of at least run_min blocks go
       * direct (the two passes at most GCM_BULK_BLOCKS per call), anything
       * shorter is served from a full buffer. */
      size_t blocks = len / 16;
      if (blocks >= s->run_min) {
        if (k->fused == NULL && blocks > GCM_BULK_BLOCKS)
          blocks = GCM_BULK_BLOCKS;
        blocks = round_to_batches(s, blocks);
        n = blocks * 16;
        direct_run(s, out, in, blocks);
        in += n;
        out += n;
        len -= n;
      } else {
        /* A full buffer serves the short chunks to come; the rest of a
         * chunk that uses up the buffer (use_up) gets only the whole
         * batches it needs, since the next chunk is likely long too and
         * will use up what is left before it goes direct. */
        unsigned fill = (GCM_KS_MAX_BLOCKS / batch) * batch;
        if (use_up) {
          const size_t need = round_to_batches(s, (len + 15) / 16 + batch - 1);
          if (need < fill) fill = (unsigned)need;
        }
        refill_key_stream(s, fill);
      }
      continue;
    }
    /* A one-shot message: every whole block direct, the tail from exactly
     * the key stream it needs. */
    if (k->fused != NULL && len / 16 >= k->fused->min_blocks) {
      /* The fused kernel takes every whole block in one call. */
      size_t blocks = len / 16;
      n = blocks * 16;
      fused_run(s, out, in, blocks);
    } else if (len / 16 >= batch) {
      /* Bulk: the data is block aligned here. */
      size_t blocks = len / 16;
      if (blocks > GCM_BULK_BLOCKS) blocks = GCM_BULK_BLOCKS;
      n = blocks * 16;
      bulk_run(s, out, in, blocks);
    } else {
      /* Less than a batch of whole blocks, or a tail: a one-shot message
       * has no next call, so it makes only what is left. */
      unsigned blocks = batch;
      if ((len + 15) / 16 < blocks) blocks = (unsigned)((len + 15) / 16);
      refill_key_stream(s, blocks);
      continue;
    }
    in += n;
    out += n;
    len -= n;
  }
}

/* crypt_slow's front for a kernel with stream sizes (uncut_runs; see the
 * top of the file). Takes to the kernel, uncut, the chunk's whole blocks
 * when they are at least run_min and nothing follows them, or at least
 * tail_min and a partial block follows: that block then gets its own key
 * stream alone (tail_key_stream). Before that, a chunk that starts inside
 * the buffer finishes the block in progress from it and gives the rest
 * back (on a block boundary when the blocks after it are at least run_min,
 * inside a block when at least tail_min), like crypt_slow's give-back.
 * Called for the chunks sized_may_take lets through; what it does not
 * take (runs cut to batches) goes on to crypt_slow. Kept apart from
 * crypt_slow so that its buffered loop stays as tight as it is without
 * this (this code inside it measured 2-4% slower on chunks that never
 * reach the kernel). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void crypt_sized(struct gcm_stream_st *s, uint8_t *out,
                        const uint8_t *in, size_t len) {
  if (s->ks_pos < s->ks_len) {
    const size_t head = (16u - (s->ks_pos & 15u)) & 15u;
    const size_t need = head == 0 ? s->run_min : s->tail_min;
    if (need != 0 && len > head && (len - head) / 16 >= need) {
      if (head > 0) crypt_buffered(s, out, in, head);
      s->data_len += head;
      in += head;
      out += head;
      len -= head;
      give_back(s);
    }
  }
  if (s->ks_pos == s->ks_len && len / 16 >= s->run_min) {
    const size_t blocks = len / 16, rest = len & 15u;
    if (rest == 0 || (s->tail_min != 0 && blocks >= s->tail_min)) {
      flush_hash(s);
      direct_run(s, out, in, blocks);
      s->data_len += len;
      if (rest != 0) {
        tail_key_stream(s);
        crypt_buffered(s, out + blocks * 16, in + blocks * 16, rest);
      }
      return;
    }
  }
  crypt_slow(s, out, in, len);
}

void gcm_mode_tag(struct gcm_stream_st *s, uint8_t tag[16]) {
  const struct gcm_key_st *k = s->key;
  _Alignas(16) uint8_t lengths[16];
  if (s->phase == GCM_PHASE_AAD) enter_data(s);
  store_be64(lengths, s->aad_len * 8);
  store_be64(lengths + 8, s->data_len * 8);
  if (s->lagging && s->hash_len == 0) {
    /* A lagged seal's pending group (nothing else is waiting) and the
     * length block behind it in ks: one GHASH call. */
    const unsigned group = k->fused->lag_blocks;
    memcpy(s->ks + 16u * group, lengths, 16);
    k->ghash->update(s->Xi, &k->ghash_key, s->ks, group + 1u);
    s->lagging = 0;
  } else {
    /* Zero-pad the last partial block of ciphertext in place (over key
     * stream nobody will use), then the length block behind it when it
     * fits: one GHASH call in all (with a lagged seal's pending group in
     * front when there is one: flush_hash). A partial block ends before
     * ks_len, so the padding stays inside the buffer. */
    uint32_t rem = s->ks_pos & 15u;
    if (s->hash_len > 0 && rem != 0) {
      memset(s->ks + s->ks_pos, 0, 16u - rem);
      s->ks_pos += 16u - rem;
      s->hash_len += 16u - rem;
    }
    if (s->hash_len > 0 && s->ks_pos + 16u <= sizeof(s->ks)) {
      memcpy(s->ks + s->ks_pos, lengths, 16);
      s->ks_pos += 16;
      s->hash_len += 16;
      flush_hash(s);
    } else {
      flush_hash(s);
      k->ghash->update(s->Xi, &k->ghash_key, lengths, 1);
    }
  }
  xor_bytes(tag, s->Xi, s->tag_mask, 16);
  s->phase = GCM_PHASE_DONE;
}

/* Short copies and paddings of public lengths for the short path's AAD
 * over one block, without a library call: under 32 bytes a few
 * fixed-size moves chosen by the bits of n;
 * longer copies go to memcpy, which is faster there. No loop, so the
 * compiler cannot turn one back into a call. */
static inline void copy_short(uint8_t *d, const uint8_t *s, size_t n) {
  if (n >= 32) {
    memcpy(d, s, n);
    return;
  }
  if (n & 16) memcpy(d, s, 16), d += 16, s += 16;
  if (n & 8) memcpy(d, s, 8), d += 8, s += 8;
  if (n & 4) memcpy(d, s, 4), d += 4, s += 4;
  if (n & 2) memcpy(d, s, 2), d += 2, s += 2;
  if (n & 1) *d = *s;
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
  const size_t whole = in_len / 16, rem = in_len % 16;
  const size_t c = whole + (rem != 0), a = (aad_len + 15) / 16;
  uint8_t *hc = hb + a * 16; /* the ciphertext in hb */
  const uint8_t *src = encrypt ? in : hc; /* read before out is written */
  const uint8_t *tail_ks;                 /* the partial block's key stream */
  size_t ks_blocks;

  short_public_input(hb, aad, aad_len, a, c, in_len);
  if (!encrypt) {
    for (size_t i = 0; i < whole; i++) {
      block_store(hc + 16 * i, block_load(in + 16 * i));
    }
    if (rem != 0) {
      block_store(hc + whole * 16, block_load_partial(in + whole * 16, rem));
    }
  }
  block_store(ctr, block_counter(nonce, 1));
  if (1 + c <= batch_blocks(k)) {
    ks_blocks = 1 + c;
    k->aes->ctr32(&k->aes_schedule, ks, ks_zeros, ks_blocks, ctr);
    for (size_t i = 0; i < whole; i++) {
      gcm_block y = block_xor(block_load(src + 16 * i),
                              block_load(ks + 16 + 16 * i));
      if (encrypt) block_store(hc + 16 * i, y);
      block_store(out + 16 * i, y);
    }
    tail_ks = ks + 16 + whole * 16;
  } else {
    ks_blocks = 2;
    k->aes->encrypt_block(&k->aes_schedule, ks, ctr);
    block_store(ctr, block_counter(nonce, 2));
    if (whole > 0) {
      k->aes->ctr32(&k->aes_schedule, encrypt ? hc : out, src, whole, ctr);
      if (encrypt) memcpy(out, hc, whole * 16);
    }
    if (rem != 0) {
      block_store(ctr, block_counter(nonce, (uint32_t)(2 + whole)));
      k->aes->ctr32(&k->aes_schedule, ks + 16, ks_zeros, 1, ctr);
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
  k->ghash->update(Xi, &k->ghash_key, hb, a + c + 1);

  xor_bytes(tag, Xi, ks, 16);
  wipe_blocks(ks, ks_blocks);
  secure_wipe_block(Xi);
}

/* The one-shot path for a key with a fused kernel (crypto/fused/fused.h):
 * a 96-bit nonce, at most one block of AAD and at least
 * GCM_SHORT_FUSED_MIN bytes of data, any length above that (it needs no
 * buffer that grows with the data). Every block the calls below load
 * (the counter blocks, the AAD block, the tail) is written whole before
 * the first of them (crypto/gcm/block.h says why):
 *   - GHASH of the zero-padded AAD block, and one block of ctr32 for the
 *     tag mask E(K, J0) (3-5% faster from 160 to 512 bytes than one
 *     fused call on the AAD block, which pays the kernel's set-up for one
 *     block);
 *   - the fused kernel on every whole block, straight from in to out,
 *     from J0 + 1;
 *   - GHASH of the zero-padded partial last block of ciphertext (its key
 *     stream is one more block of ctr32) and the length block.
 * The whole blocks get the kernel's wide AES instead of the two passes
 * over a stack copy of one_shot_short. */
static void one_shot_fused(const struct gcm_key_st *k, int encrypt,
                           const uint8_t nonce[12], const uint8_t *in,
                           size_t in_len, const uint8_t *aad, size_t aad_len,
                           uint8_t *out, uint8_t tag[16]) {
  /* ks: E(K, J0), then the partial last block's key stream. */
  _Alignas(16) uint8_t ks[32];
  /* ab: the zero-padded AAD block; hb: the zero-padded partial last block
   * of ciphertext and the length block. Public data only. */
  _Alignas(16) uint8_t ab[16];
  _Alignas(16) uint8_t hb[32];
  /* The counter blocks J0, J0 + 1 and that of the partial block. */
  _Alignas(16) uint8_t ctr[3][16];
  _Alignas(16) uint8_t Xi[16] = {0};
  const size_t whole = in_len / 16, rest = in_len % 16;
  const uint8_t *tin = in + whole * 16;
  const struct fused_keys fk = gcm_key_fused_keys(k);

  /* Every block a kernel loads is written whole (crypto/gcm/block.h). The
   * partial block's input is read now: opening hashes the ciphertext as
   * given, before out (maybe == in) is written. */
  block_store(ctr[0], block_counter(nonce, 1));
  block_store(ctr[1], block_counter(nonce, 2));
  /* The counter of the partial block, 2 + whole, wraps modulo 2^32 as
   * inc32 does. */
  block_store(ctr[2], block_counter(nonce, (uint32_t)(2 + whole)));
  block_store(ab, block_load_partial(aad, aad_len));
  const gcm_block tail_in = block_load_partial(tin, rest);
  const size_t h = rest > 0 ? 16 : 0;
  if (!encrypt) block_store(hb, tail_in);
  block_store(hb + h, block_lengths(aad_len, in_len));

  if (aad_len > 0) k->ghash->update(Xi, &k->ghash_key, ab, 1);
  k->aes->ctr32(&k->aes_schedule, ks, ks_zeros, 1, ctr[0]);
  if (rest > 0) k->aes->ctr32(&k->aes_schedule, ks + 16, ks_zeros, 1, ctr[2]);
  /* whole >= 1 here: GCM_SHORT_FUSED_MIN is at least a block. */
  if (encrypt) {
    k->fused->seal(&fk, out, in, whole, ctr[1], Xi);
  } else {
    k->fused->open(&fk, out, in, whole, ctr[1], Xi);
  }
  if (rest > 0) {
    gcm_block y = block_xor(tail_in, block_load(ks + 16));
    if (encrypt) block_store(hb, block_and(y, block_prefix_mask(rest)));
    block_store_partial(out + whole * 16, y, rest);
  }
  k->ghash->update(Xi, &k->ghash_key, hb, h / 16 + 1);
  xor_bytes(tag, Xi, ks, 16);
  wipe_blocks(ks, 2);
  secure_wipe_block(Xi);
}

void gcm_mode_one_shot(const struct gcm_key_st *k, int encrypt,
                       const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *in, size_t in_len, const uint8_t *aad,
                       size_t aad_len, uint8_t *out, uint8_t tag[16]) {
  if (nonce_len == 12 && aad_len <= 16 && k->fused != NULL &&
      in_len >= GCM_SHORT_FUSED_MIN && in_len / 16 >= k->fused->min_blocks) {
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
