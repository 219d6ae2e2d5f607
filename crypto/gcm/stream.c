/*
 * crypto/gcm/stream.c: the stream engine, one message in updates of any
 * size (gcm_mode_start, gcm_mode_aad, gcm_mode_crypt, gcm_mode_tag).
 *
 * Key stream. The AES backends compute several counter blocks at once (a
 * bitsliced core does 8 for the price of 1). A message start therefore asks
 * for one batch beginning at J0: its first block is the tag mask E(K, J0),
 * the rest is the first key stream. Key stream that a short update does not
 * use stays in the stream and is handed out first by the next update.
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
 * last run when it fits behind it. Direct runs (the fused kernel, or CTR
 * then GHASH) are hashed straight from the caller's memory.
 *
 * Updates. Which of those an update uses (key stream from the buffer, a
 * give-back, a direct run, a refill for its tail) is decided by the
 * planner, a pure function of the stream's policy, the buffer's state and
 * the update's length, whose contract is at the top of
 * crypto/gcm/stream_plan.h; gcm_mode_crypt takes its two common rules
 * inline and crypt_planned executes the plan of any other update.
 *
 * Nothing here branches on or indexes by secret data: lengths and positions
 * are public, the secrets (key, H, key stream, plaintext) only flow through
 * the backends and xor.
 */
#include "block.h"
#include "engine.h"
#include "mode.h"
#include "stream_plan.h"

const uint8_t gcmi_ks_zeros[GCM_KS_MAX_BLOCKS * 16];

_Static_assert((FUSED_LAG_MAX_BLOCKS + 2) * 16 <= GCM_KS_MAX_BLOCKS * 16,
               "a lagged seal's pending group, a partial block's key stream "
               "and the length block fit ks");

/* Hashes a lagged seal's pending group (fused_run), which comes before
 * any ciphertext collected after it, and with it, in the same GHASH call,
 * the whole blocks collected right behind it (while lagging, ciphertext is
 * collected only there: tail_key_stream). */
static void flush_lag(struct gcm_stream_st *s) {
  const struct gcm_key_st *k = s->key;
  k->ghash->update(s->Xi, gcm_key_ghash(k), s->ks,
                   s->policy.lag_blocks + s->hash_len / 16u);
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
  s->key->ghash->update(s->Xi, gcm_key_ghash(s->key),
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
    k->ghash->update(s->Xi, gcm_key_ghash(k), s->aad_buf, 1);
    s->aad_buf_len = 0;
  }
  if (n >= 16) {
    k->ghash->update(s->Xi, gcm_key_ghash(k), p, n / 16);
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
      s->key->ghash->update(s->Xi, gcm_key_ghash(s->key), s->aad_buf, 1);
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
  k->ghash->update(j0, gcm_key_ghash(k), nonce, whole);
  if (rest > 0) {
    memset(block, 0, sizeof(block));
    memcpy(block, nonce + whole * 16, rest);
    k->ghash->update(j0, gcm_key_ghash(k), block, 1);
  }
  memset(block, 0, 8);
  store_be64(block + 8, (uint64_t)nonce_len * 8);
  k->ghash->update(j0, gcm_key_ghash(k), block, 1);
}


/* Fills s->ks with `blocks` blocks of key stream from s->ctr onwards. */
static void refill_key_stream(struct gcm_stream_st *s, unsigned blocks) {
  const struct gcm_key_st *k = s->key;
  k->aes->ctr32(gcm_key_aes(k), s->ks, gcmi_ks_zeros, blocks, s->ctr);
  block_ctr32_add(s->ctr, blocks);
  s->ks_pos = 0;
  s->ks_len = blocks * 16;
}

/* The key stream of one block: the partial block that ends a chunk after
 * an uncut fused run (rule 3 of crypto/gcm/stream_plan.h). It goes
 * behind a lagged seal's pending
 * group, which stays in ks, so that the ciphertext later collected in it
 * is hashed in the same GHASH call as that group (flush_hash). */
static void tail_key_stream(struct gcm_stream_st *s) {
  const struct gcm_key_st *k = s->key;
  const uint32_t at = s->lagging ? 16u * s->policy.lag_blocks : 0u;
  k->aes->ctr32(gcm_key_aes(k), s->ks + at, gcmi_ks_zeros, 1, s->ctr);
  block_ctr32_add(s->ctr, 1);
  s->ks_pos = at;
  s->ks_len = at + 16u;
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
  unsigned blocks = gcm_batch_blocks(k->aes);
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
  gcm_stream_policy_init(&s->policy, k->aes, k->fused, encrypt,
                         expected_len != UINT64_MAX);
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
 * With `lagged` (stream_run_lags: a stream's seal run of whole groups of
 * a kernel with a lagged seal) the run's last group stays pending in ks
 * and the next run hashes it beside its own first group's rounds (struct
 * fused_lag), so a stream of short updates (16 blocks each) is stitched
 * from call to call. Anything else first hashes what is pending:
 * flush_hash for the buffer and the length block, here for a seal run
 * that does not lag. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void fused_run(struct gcm_stream_st *s, uint8_t *out, const uint8_t *in,
                      size_t blocks, int lagged) {
  const struct gcm_key_st *k = s->key;
  const struct fused_impl *f = k->fused;
  const struct fused_keys fk = gcm_key_fused_keys(k);
  if (s->encrypt) {
    if (lagged) {
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
  block_ctr32_add(s->ctr, (uint32_t)blocks);
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

/* n bytes (at most what is buffered) on buffered key stream. Inlined at
 * each of its uses: called out of line from crypt_planned it made chunks
 * of 255 and 1000 bytes 8-20% slower on vaes_avx512 (gcm-ab --chunk). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
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
 * counter steps back over the unused blocks (the plan's give_back). */
static inline void give_back(struct gcm_stream_st *s) {
  flush_hash(s);
  block_ctr32_add(s->ctr, 0u - (s->ks_len - s->ks_pos) / 16u);
  s->ks_pos = s->ks_len = 0;
}

/* The two-pass direct run over `blocks` whole blocks (the collected
 * ciphertext has been hashed): CTR over the caller's memory, GHASH of the
 * ciphertext (before it is overwritten when opening). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline)) /* keeps gcm_mode_crypt's fast paths frameless */
#endif
static void bulk_run(struct gcm_stream_st *s, uint8_t *out, const uint8_t *in,
                     size_t blocks) {
  const struct gcm_key_st *k = s->key;
  const struct ghash_key *gk = gcm_key_ghash(k); /* before the calls */
  if (!s->encrypt) k->ghash->update(s->Xi, gk, in, blocks);
  k->aes->ctr32(gcm_key_aes(k), out, in, blocks, s->ctr);
  if (s->encrypt) k->ghash->update(s->Xi, gk, out, blocks);
  block_ctr32_add(s->ctr, (uint32_t)blocks);
}

/* Rule 3 (crypto/gcm/stream_plan.h) in straight line, for a later update
 * that rule 3 may take (stream_plan_sized): every chunk of a kernel with
 * stream sizes takes one. It asks the planner's own two predicates
 * (stream_sized_head, stream_sized_runs) and acts on each answer at once,
 * as rules 1 and 2 are taken inline in gcm_mode_crypt: executed from a
 * struct stream_plan, even in its own function, 255-byte chunks on
 * vaes_avx512 ran at 0.91-0.93 of the engine before the planner (gcm-ab
 * --chunk 255), and 0.98-1.00 like this. Hands what rule 3 does not take
 * to crypt_planned. */
static void crypt_planned(struct gcm_stream_st *s, uint8_t *out,
                          const uint8_t *in, size_t len);
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void crypt_sized(struct gcm_stream_st *s, uint8_t *out,
                        const uint8_t *in, size_t len) {
  const struct stream_policy *p = &s->policy;
  const ptrdiff_t head = stream_sized_head(p, s->ks_pos, s->ks_len, len);
  if (head >= 0) {
    if (head > 0) crypt_buffered(s, out, in, (size_t)head);
    s->data_len += (size_t)head;
    in += head;
    out += head;
    len -= (size_t)head;
    give_back(s);
  }
  if (stream_sized_runs(p, s->ks_pos, s->ks_len, len)) {
    const size_t blocks = len / 16, rest = len & 15u;
    flush_hash(s);
    fused_run(s, out, in, blocks, stream_run_lags(p, blocks));
    s->data_len += len;
    if (rest != 0) {
      tail_key_stream(s);
      crypt_buffered(s, out + 16 * blocks, in + 16 * blocks, rest);
    }
    return;
  }
  crypt_planned(s, out, in, len);
}

/* Executes the plan of an update that neither of gcm_mode_crypt's inline
 * rules takes (crypto/gcm/stream_plan.h), first ending the AAD if this is
 * the message's first update, and plans again for what a plan leaves. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void crypt_planned(struct gcm_stream_st *s, uint8_t *out,
                          const uint8_t *in, size_t len) {
  uint8_t first = 0;
  if (s->phase == GCM_PHASE_AAD) {
    enter_data(s);
    first = 1;
  }
  s->data_len += len;
  while (len > 0) {
    const struct stream_buffer b = {s->ks_pos, s->ks_len, s->hash_len, first};
    /* Rules 1 and 2 were asked inline (gcm_mode_crypt) of a later
     * update, and a plan that leaves bytes leaves the buffer empty with
     * ciphertext waiting, which neither takes. */
    const struct stream_plan p = first ? stream_plan_update(&s->policy, b, len)
                                       : stream_plan_past_fast(&s->policy, b, len);
    first = 0;
    if (p.head != 0) {
      crypt_buffered(s, out, in, p.head);
      in += p.head;
      out += p.head;
    }
    if (p.give_back) give_back(s);
    if (p.direct != 0) {
      if (p.flush) flush_hash(s);
      for (size_t left = p.direct; left > 0;) {
        const size_t n = left < p.run_cap ? left : p.run_cap;
        if (p.fused) {
          fused_run(s, out, in, n, p.lagged);
        } else {
          bulk_run(s, out, in, n);
        }
        in += 16 * n;
        out += 16 * n;
        left -= n;
      }
    }
    if (p.tail != 0) {
      if (p.tail_block) {
        tail_key_stream(s);
      } else {
        flush_hash(s);
        refill_key_stream(s, p.refill);
      }
      crypt_buffered(s, out, in, p.tail);
      in += p.tail;
      out += p.tail;
    }
    len -= p.head + 16 * p.direct + p.tail;
  }
}

GCM_HOT_ENTRY void gcm_mode_crypt(struct gcm_stream_st *s, uint8_t *out,
                                  const uint8_t *in, size_t len) {
  /* The planner's rules 1 and 2 inline, kept apart from the rest so they
   * need no stack frame: the whole update lies inside the buffered key
   * stream, or it is the steady state of long block-aligned chunks. */
  if (GCM_LIKELY(s->phase == GCM_PHASE_DATA)) {
    if (GCM_LIKELY(stream_plan_fits(s->ks_pos, s->ks_len, len))) {
      crypt_buffered(s, out, in, len);
      s->data_len += len;
      return;
    }
    if (stream_plan_steady(&s->policy, s->ks_pos, s->ks_len, s->hash_len,
                           len)) {
      const size_t blocks = len / 16;
      s->data_len += len;
      if (s->policy.fused) {
        /* a tail call: no stack frame */
        fused_run(s, out, in, blocks, stream_run_lags(&s->policy, blocks));
      } else {
        bulk_run(s, out, in, blocks);
      }
      return;
    }
    if (stream_plan_sized(&s->policy, s->ks_pos, len)) {
      crypt_sized(s, out, in, len);
      return;
    }
  }
  crypt_planned(s, out, in, len);
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
    const unsigned group = s->policy.lag_blocks;
    memcpy(s->ks + 16u * group, lengths, 16);
    k->ghash->update(s->Xi, gcm_key_ghash(k), s->ks, group + 1u);
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
      k->ghash->update(s->Xi, gcm_key_ghash(k), lengths, 1);
    }
  }
  xor_bytes(tag, s->Xi, s->tag_mask, 16);
  s->phase = GCM_PHASE_DONE;
}
