/*
 * crypto/gcm/stream_plan.h: how a stream serves an update, as data.
 *
 * The contract. A stream (crypto/gcm/stream.c) keeps a buffer of key
 * stream, ks, which is also its hash buffer: each byte of key stream used
 * is overwritten by the ciphertext it made, and what was collected there
 * is hashed in one GHASH call before the buffer is refilled. An update of
 * `len` bytes is served by some of these steps, in this order:
 *
 *   head       bytes from the buffered key stream;
 *   give back  the rest of the buffer (it ends on a block boundary) is
 *              given back: what it collected is hashed and the counter
 *              steps back over the unused blocks, which a direct run then
 *              makes again;
 *   direct     whole blocks straight from in to out, hashed from the
 *              caller's memory: the key's fused kernel (crypto/fused), or
 *              the two passes (CTR, then GHASH) in calls of at most
 *              GCM_BULK_BLOCKS; a stream's seal run of whole lag groups
 *              takes the kernel's lagged seal, which leaves the run's last
 *              group unhashed in ks for the next run to hash beside its
 *              first AES rounds;
 *   tail       the bytes after the direct run from fresh key stream:
 *              either a refill of the buffer (whole batches, after hashing
 *              what is waiting) or, behind an uncut run of a kernel with
 *              stream sizes, the key stream of the one partial block (put
 *              behind a lagged group that is pending, so that the two are
 *              hashed in one call).
 *
 * stream_plan_update() below decides which, from the stream's policy (struct
 * stream_policy, set once per message by gcm_stream_policy_init from the
 * key's descriptors), the buffer's state and `len`; it is a pure function
 * of those public numbers, so the steps a message takes depend on its
 * lengths only, never on the key or the data. Its rules, in order:
 *
 *  1. fits: an update that lies inside the buffered key stream is served
 *     from it (not the update that ends the AAD, which takes 3 or 4).
 *  2. steady: nothing buffered or waiting to be hashed, whole blocks, at
 *     least run_min of them and at most GCM_BULK_BLOCKS, and whole
 *     batches (any whole blocks with uncut runs): one direct run, which
 *     may hash a pending lagged group beside its first rounds. Rules 1
 *     and 2 are the common updates; stream.c takes them inline, through
 *     the same predicates, before calling the planner.
 *  3. sized (kernels with stream sizes, uncut runs): a chunk of at least
 *     run_min whole blocks that starts and ends on a block boundary, or
 *     brings tail_min whole blocks, finishes the block in progress from
 *     the buffer and gives the rest back (from a block boundary when
 *     run_min blocks follow, from inside a block when tail_min do), then
 *     runs its whole blocks uncut and gives a partial last block one block
 *     of key stream of its own. The next chunk finishes that block from
 *     the buffer, has nothing else to give back and goes straight back to
 *     the kernel, so a chunk that is not a multiple of 16 bytes costs a
 *     kernel call and two one-block calls rather than a trip through the
 *     buffer.
 *  4. general: everything else.
 *     - A long chunk (a stream's chunk of at least run_min whole blocks)
 *       while the buffer ends on a block boundary gives the buffer back,
 *       so that a caller who moves from short chunks to long ones does not
 *       straddle refills for good; but a chunk of at least use_up_min
 *       blocks does so only when it is whole batches (its run then ends
 *       it with nothing buffered, so this happens once per change of
 *       chunk size), and otherwise uses the buffer up first.
 *     - What is buffered is served; then whole batches of a run of at
 *       least run_min blocks go direct; the rest is served from a refill:
 *       a full buffer (the short chunks to come use it), or, for a chunk
 *       that used the buffer up (use_up_min), only the whole batches it
 *       needs, since the next chunk is likely long too.
 *     - A one-shot message (it comes in one update) starts with exactly
 *       the key stream it needs, and sends every whole block direct: to
 *       the fused kernel from fused_min blocks, else to the two passes
 *       from a batch; a tail of less than a batch refills only its blocks.
 *
 * Why the numbers are what they are is said once, beside each field of
 * struct stream_policy and in gcm_stream_policy_init (stream_plan.c); the
 * kernels' own stream sizes are measured per kernel (stream_run_min,
 * stream_tail_min in crypto/fused/fused.h).
 *
 * A plan consumes at least one byte of a non-empty update; when it does
 * not consume all of it (only a refill smaller than run_min blocks, which
 * no backend's batch makes), the engine plans the rest again.
 */
#ifndef LIBGCM_CRYPTO_GCM_STREAM_PLAN_H
#define LIBGCM_CRYPTO_GCM_STREAM_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../aes/aes.h"
#include "../fused/fused.h"
#include "../internal.h"

/* The most key stream a stream buffers, in blocks: a whole number of
 * batches of every kernel (8, 6, 4 or 2 blocks), as large as the public
 * gcm_stream (512 bytes) allows. */
#define GCM_KS_MAX_BLOCKS 24

/* batch_mask of a stream whose batch is not a power of two (a batch is
 * at most GCM_KS_MAX_BLOCKS, so no power of two has this mask). */
#define GCM_BATCH_NOT_POW2 0xffu

/* Whole blocks per call of the two-pass direct run: large enough to
 * amortise call overhead, small enough that the data is still in L1 when
 * GHASH reads what CTR just wrote. */
#define GCM_BULK_BLOCKS 256

/* The fewest whole blocks a direct run of a stream takes when the kernel
 * declares no stream sizes. Measured with gcm-cycles --chunks on ct,
 * vpaes, aesni (two-pass and fused): below this, direct calls lose to the
 * buffer, whose CTR and GHASH calls cover GCM_KS_MAX_BLOCKS blocks each,
 * on every pair. */
#ifndef GCM_STREAM_RUN_MIN
#define GCM_STREAM_RUN_MIN 16
#endif

/* The most blocks a count of the policy below holds: its counts are
 * bytes, so the policy takes 8 bytes and fits behind the key stream
 * buffer in struct gcm_stream_st (crypto/gcm/mode.h says why it sits
 * there). The fused descriptors' min_blocks, stream_run_min and
 * stream_tail_min stay at or below STREAM_POLICY_MAX_RUN_MIN, so that
 * run_min + a batch fits too (test/kernel_contract_test.cc checks every
 * descriptor). */
#define STREAM_POLICY_MAX_COUNT 255
#define STREAM_POLICY_MAX_RUN_MIN (STREAM_POLICY_MAX_COUNT - GCM_KS_MAX_BLOCKS)

/* What decides a stream's chunking, fixed for the message. */
struct stream_policy {
  /* The fewest whole blocks that go direct: a direct call of fewer pays
   * the kernels' per-call costs (loop set-up, a GHASH reduction, a partly
   * used batch) on few bytes, where the buffer pays them once per
   * GCM_KS_MAX_BLOCKS blocks. */
  uint8_t run_min;
  /* 0, or (uncut runs) the fewest whole blocks worth a kernel call with a
   * partial block behind them, which then gets its own key stream. */
  uint8_t tail_min;
  /* The fewest whole blocks from which a long chunk uses buffered key
   * stream up rather than give it back: key stream given back is made
   * twice, which AES in software cannot afford on every chunk. */
  uint8_t use_up_min;
  /* One-shot messages: the fewest whole blocks for the fused kernel
   * (its min_blocks; shorter runs take the two passes). */
  uint8_t fused_min;
  /* The AES backend's batch: buffer refills and cut runs are whole
   * batches, since a bitsliced core makes a batch for the price of one
   * block. */
  uint8_t batch;
  /* batch - 1 when the batch is a power of two, so a count of blocks is a
   * whole number of batches when (blocks & batch_mask) == 0, with no
   * division on the update path; GCM_BATCH_NOT_POW2 for other batches
   * (the 6 blocks of 32-bit AES-NI), which take the division. */
  uint8_t batch_mask;
  /* The kernel's lag group for this stream's seal runs, or 0 (open,
   * one-shot, no lagged seal): a stitched seal whose last group waits for
   * the next call is stitched from one call to the next. */
  uint8_t lag_blocks;
  /* 1: the whole message comes in one update, so there is no next chunk
   * to serve from the buffer or to lag into. */
  uint8_t one_shot : 1;
  /* 1: the key has a fused kernel; direct runs go to it, in one call. */
  uint8_t fused : 1;
  /* 1: the kernel declares stream sizes (it costs less per call than a
   * refill): runs that end a chunk's whole blocks go to it uncut, not
   * cut down to whole batches. */
  uint8_t uncut : 1;
};

/* The buffer's public state, as the planner reads it. */
struct stream_buffer {
  uint32_t ks_pos;   /* next unused byte of key stream */
  uint32_t ks_len;   /* end of the buffered key stream (a block boundary) */
  uint32_t hash_len; /* bytes collected in front of ks_pos, not hashed */
  uint8_t first;     /* 1: the update that ends the AAD */
};

/* What an update does, in the contract's order. The bytes it consumes are
 * head + 16 * direct + tail. */
struct stream_plan {
  size_t head;       /* bytes from the buffered key stream */
  size_t direct;     /* whole blocks straight from in to out */
  size_t run_cap;    /* in calls of at most this many blocks */
  size_t tail;       /* bytes from fresh key stream after the run */
  uint32_t refill;   /* blocks of key stream made for the tail */
  uint8_t give_back; /* after the head: give the buffer back */
  uint8_t flush;     /* before the run: hash what is waiting, a pending
                      * lagged group included */
  uint8_t fused;     /* the run goes to the fused kernel (else two passes) */
  uint8_t lagged;    /* ... to its lagged seal */
  uint8_t tail_block; /* the tail's key stream is one block of its own,
                       * behind a pending lagged group (else a refill,
                       * after hashing what is waiting) */
};

/* Sets a message's policy from the key's descriptors (fused may be NULL)
 * and the message: encrypt (1: seal), one_shot (1: one update). */
GCM_HIDDEN void gcm_stream_policy_init(struct stream_policy *p,
                                       const struct aes_impl *aes,
                                       const struct fused_impl *fused,
                                       int encrypt, int one_shot);

/* Whether `blocks` is a whole number of the policy's batches, and
 * `blocks` rounded down to one: a mask when the batch is a power of two,
 * the division otherwise. */
static inline int stream_whole_batches(const struct stream_policy *p,
                                       size_t blocks) {
  if (GCM_LIKELY(p->batch_mask != GCM_BATCH_NOT_POW2))
    return (blocks & p->batch_mask) == 0;
  return blocks % p->batch == 0;
}
static inline size_t stream_round_to_batches(const struct stream_policy *p,
                                             size_t blocks) {
  if (GCM_LIKELY(p->batch_mask != GCM_BATCH_NOT_POW2))
    return blocks & ~(size_t)p->batch_mask;
  return blocks - blocks % p->batch;
}

/* Whether a fused run of `blocks` takes the lagged seal. */
static inline int stream_run_lags(const struct stream_policy *p,
                                  size_t blocks) {
  return p->lag_blocks != 0 && (blocks & (p->lag_blocks - 1u)) == 0;
}

/* Rule 1 (fits). */
static inline int stream_plan_fits(uint32_t ks_pos, uint32_t ks_len,
                                   size_t len) {
  return len <= ks_len - ks_pos;
}

/* Rule 2 (steady). */
static inline int stream_plan_steady(const struct stream_policy *p,
                                     uint32_t ks_pos, uint32_t ks_len,
                                     uint32_t hash_len, size_t len) {
  return len / 16 >= p->run_min && !p->one_shot && ks_pos == ks_len &&
         hash_len == 0 && (len & 15) == 0 && len <= GCM_BULK_BLOCKS * 16 &&
         (p->uncut || stream_whole_batches(p, len / 16));
}

/* Rule 3's entry: uncut runs, a stream, run_min whole blocks and either
 * tail_min of them or a chunk that starts and ends on a block boundary. */
static inline int stream_plan_sized(const struct stream_policy *p,
                                    uint32_t ks_pos, size_t len) {
  return p->uncut && !p->one_shot && len / 16 >= p->run_min &&
         ((p->tail_min != 0 && len / 16 >= p->tail_min) ||
          ((ks_pos | len) & 15u) == 0);
}

/* A direct run of `blocks` into the plan. */
static inline void stream_plan_run(const struct stream_policy *p,
                                   struct stream_plan *pl, size_t blocks,
                                   size_t run_cap, int fused, int flush) {
  pl->direct = blocks;
  pl->run_cap = run_cap;
  pl->fused = (uint8_t)fused;
  pl->lagged = (uint8_t)(fused && stream_run_lags(p, blocks));
  pl->flush = (uint8_t)flush;
}

/* Rule 4 for a stream, after the head: whole batches of at least run_min
 * blocks direct, the rest from a refill. use_up: the chunk uses the
 * buffer up (its tail refills only the batches it needs). */
static inline void stream_plan_stream_rest(const struct stream_policy *p,
                                           struct stream_plan *pl,
                                           size_t len, int use_up) {
  size_t left = len / 16;
  if (left >= p->run_min) {
    if (p->fused) {
      left -= stream_round_to_batches(p, left);
      stream_plan_run(p, pl, len / 16 - left, len / 16 - left, 1, 1);
    } else {
      /* Calls of GCM_BULK_BLOCKS cut to batches while that many remain,
       * then the rest cut to batches. */
      const size_t cap = stream_round_to_batches(p, GCM_BULK_BLOCKS);
      if (left >= GCM_BULK_BLOCKS) left -= ((left - GCM_BULK_BLOCKS) / cap + 1) * cap;
      if (left >= p->run_min) left -= stream_round_to_batches(p, left);
      stream_plan_run(p, pl, len / 16 - left, cap, 0, 1);
    }
    len -= 16 * pl->direct;
    if (len == 0) return;
  }
  size_t fill = (GCM_KS_MAX_BLOCKS / p->batch) * p->batch;
  if (use_up) {
    const size_t need = stream_round_to_batches(p, (len + 15) / 16 + p->batch - 1u);
    if (need < fill) fill = need;
  }
  pl->refill = (uint32_t)fill;
  pl->tail = len < 16 * fill ? len : 16 * fill;
}

/* Rule 4 for a one-shot message, after the head: every whole block
 * direct, the tail from exactly the key stream it needs. */
static inline void stream_plan_one_shot_rest(const struct stream_policy *p,
                                             struct stream_plan *pl,
                                             size_t len) {
  const size_t blocks = len / 16;
  if (p->fused && blocks >= p->fused_min) {
    stream_plan_run(p, pl, blocks, blocks, 1, 1);
  } else if (blocks >= p->batch) {
    /* Calls of GCM_BULK_BLOCKS, and what is left when it is a batch. */
    const size_t rest = blocks % GCM_BULK_BLOCKS;
    stream_plan_run(p, pl, blocks - (rest < p->batch ? rest : 0),
                    GCM_BULK_BLOCKS, 0, 1);
  }
  len -= 16 * pl->direct;
  if (len == 0) return;
  size_t fill = p->batch;
  if ((len + 15) / 16 < fill) fill = (len + 15) / 16;
  pl->refill = (uint32_t)fill;
  pl->tail = len;
}

/* Rule 4 (general). pl may hold rule 3's head and give-back already.
 * Out of line, so that rule 3's plans stay short where they are inlined
 * (with it inlined, chunks of 255 and 1000 bytes ran 5-15% slower on
 * vaes_avx512 than before the planner). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void stream_plan_general(const struct stream_policy *p,
                                struct stream_buffer b,
                                struct stream_plan *pl, size_t len) {
  const int long_chunk = !p->one_shot && len / 16 >= p->run_min;
  const int use_up = long_chunk && len / 16 >= p->use_up_min;
  if (long_chunk && b.ks_pos < b.ks_len && (b.ks_pos & 15u) == 0 &&
      (!use_up || ((len & 15u) == 0 && stream_whole_batches(p, len / 16)))) {
    pl->give_back = 1;
    b.ks_pos = b.ks_len = 0;
  }
  const size_t avail = b.ks_len - b.ks_pos, take = avail < len ? avail : len;
  pl->head += take;
  len -= take;
  if (len == 0) return;
  if (p->one_shot) {
    stream_plan_one_shot_rest(p, pl, len);
  } else {
    stream_plan_stream_rest(p, pl, len, use_up);
  }
}

/* Rule 3's two steps, as predicates that the planner below and the
 * engine's straight-line copy of it (crypt_sized in stream.c) share.
 * First, with key stream buffered: the bytes that finish the block in
 * progress (0 on a block boundary), when the chunk brings enough whole
 * blocks after them to give the rest of the buffer back (run_min of them
 * from a block boundary, tail_min from inside a block); else -1, and the
 * buffer stays. */
static inline ptrdiff_t stream_sized_head(const struct stream_policy *p,
                                          uint32_t ks_pos, uint32_t ks_len,
                                          size_t len) {
  if (ks_pos >= ks_len) return -1;
  const size_t head = (16u - (ks_pos & 15u)) & 15u;
  const size_t need = head == 0 ? p->run_min : p->tail_min;
  if (need != 0 && len > head && (len - head) / 16 >= need)
    return (ptrdiff_t)head;
  return -1;
}
/* Then, with nothing buffered: whether the chunk's whole blocks go to the
 * kernel uncut, at least run_min of them and either nothing behind them
 * or, from tail_min blocks, a partial block with key stream of its own. */
static inline int stream_sized_runs(const struct stream_policy *p,
                                    uint32_t ks_pos, uint32_t ks_len,
                                    size_t len) {
  const size_t blocks = len / 16, rest = len & 15u;
  return ks_pos == ks_len && blocks >= p->run_min &&
         (rest == 0 || (p->tail_min != 0 && blocks >= p->tail_min));
}

/* Rule 3 (sized): fills *pl (zeroed) and returns 1 when the rule takes
 * the update; returns 0 otherwise, *pl then holding the head and
 * give-back that rule 4 goes on from (the buffer *b updated to match). */
static inline int stream_plan_sized_rule(const struct stream_policy *p,
                                         struct stream_buffer *b,
                                         size_t *len, struct stream_plan *pl) {
  if (!stream_plan_sized(p, b->ks_pos, *len)) return 0;
  const ptrdiff_t head = stream_sized_head(p, b->ks_pos, b->ks_len, *len);
  if (head >= 0) {
    pl->head = (size_t)head;
    pl->give_back = 1;
    *len -= (size_t)head;
    b->ks_pos = b->ks_len = 0;
  }
  if (stream_sized_runs(p, b->ks_pos, b->ks_len, *len)) {
    const size_t blocks = *len / 16, rest = *len & 15u;
    stream_plan_run(p, pl, blocks, blocks, 1, 1);
    if (rest != 0) {
      pl->tail = rest;
      pl->refill = 1;
      pl->tail_block = 1;
    }
    return 1;
  }
  return 0;
}

/* Rules 3 and 4: the plan of an update that neither rule 1 nor rule 2
 * takes (stream_plan_update below). */
static inline struct stream_plan stream_plan_past_fast(
    const struct stream_policy *p, struct stream_buffer b, size_t len) {
  struct stream_plan pl;
  memset(&pl, 0, sizeof(pl));
  if (!stream_plan_sized_rule(p, &b, &len, &pl))
    stream_plan_general(p, b, &pl, len);
  return pl;
}

/* The plan for an update of len bytes (the contract at the top). */
static inline struct stream_plan stream_plan_update(
    const struct stream_policy *p, struct stream_buffer b, size_t len) {
  if (!b.first && stream_plan_fits(b.ks_pos, b.ks_len, len)) {
    struct stream_plan pl;
    memset(&pl, 0, sizeof(pl));
    pl.head = len;
    return pl;
  }
  if (stream_plan_steady(p, b.ks_pos, b.ks_len, b.hash_len, len)) {
    struct stream_plan pl;
    memset(&pl, 0, sizeof(pl));
    stream_plan_run(p, &pl, len / 16, len / 16, p->fused, 0);
    return pl;
  }
  return stream_plan_past_fast(p, b, len);
}

#endif /* LIBGCM_CRYPTO_GCM_STREAM_PLAN_H */
