// test/stream_plan_test.cc: the stream planner (crypto/gcm/stream_plan.h)
// as the pure function it is, by tables.
//
//   StreamPolicy.*  the policy a message gets from fake descriptors: the
//                   direct-run minimum, the use-up threshold (run_min with
//                   AES in software, run_min plus a batch with AES
//                   instructions), batch masks, stream sizes, the lag.
//   StreamPlan.*    (policy, buffer state, length) -> plan for every rule
//                   of the contract: fits, steady, sized (give back from a
//                   block boundary or from inside a block, one-block
//                   tails), general (give back once per change of chunk
//                   size, use up and refill only what the tail needs,
//                   runs cut to batches and to GCM_BULK_BLOCKS), one-shot
//                   messages and the lagged group; and invariants over a
//                   sweep (every plan makes progress, stays inside the
//                   buffer and the update, cuts runs to batches).
// The engine executing plans is tested in test/engine_slot_test.cc (with
// counting kernels, the key stream accounting included) and
// test/engine_paths_test.cc (against one-shot results).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine_util.h"

extern "C" {
#include "../crypto/gcm/stream_plan.h"
}

namespace {

// ---- the policy from the descriptors ---------------------------------------

ENGINE_FAKES_BEGIN
// AES: software (hardware_rounds 0) or instructions, batches 8 and 6 (the
// 32-bit AES-NI batch, not a power of two), and clamped ones.
const struct aes_impl kSoft8 = {.name = "soft8", .ctr_batch_blocks = 8};
const struct aes_impl kHard8 = {.name = "hard8", .ctr_batch_blocks = 8, .hardware_rounds = 1};
const struct aes_impl kHard6 = {.name = "hard6", .ctr_batch_blocks = 6, .hardware_rounds = 1};
const struct aes_impl kSoft24 = {.name = "soft24", .ctr_batch_blocks = 24};
const struct aes_impl kSoft0 = {.name = "soft0", .ctr_batch_blocks = 0};
const struct aes_impl kSoft40 = {.name = "soft40", .ctr_batch_blocks = 40};

void NoSeal(const struct fused_keys *, uint8_t *, const uint8_t *, size_t, const uint8_t *,
            uint8_t *) {}
void NoLaggedSeal(const struct fused_keys *, uint8_t *, const uint8_t *, size_t,
                  const uint8_t *, const struct fused_lag *) {}

// Kernels: the portable loop's shape (min_blocks 16), a long minimum, and
// kernels with stream sizes and a lagged seal (the shapes of the x86_64
// kernels), with a tail minimum below the run minimum, a run minimum below
// min_blocks, and no tail minimum.
const struct fused_impl kMin16 = {.name = "min16", .min_blocks = 16, .seal = NoSeal};
const struct fused_impl kMin32 = {.name = "min32", .min_blocks = 32, .seal = NoSeal};
const struct fused_impl kSized16_20 = {.name = "sized16_20",
                                       .min_blocks = 1,
                                       .seal = NoSeal,
                                       .seal_lagged = NoLaggedSeal,
                                       .lag_blocks = 16,
                                       .stream_run_min = 16,
                                       .stream_tail_min = 20};
const struct fused_impl kSizedTailLow = {.name = "tail_low",
                                         .min_blocks = 1,
                                         .stream_run_min = 16,
                                         .stream_tail_min = 8};
const struct fused_impl kSizedBelowMin = {.name = "below_min",
                                          .min_blocks = 4,
                                          .stream_run_min = 2,
                                          .stream_tail_min = 3};
const struct fused_impl kSizedNoTail = {.name = "no_tail",
                                        .min_blocks = 1,
                                        .seal_lagged = NoLaggedSeal,
                                        .lag_blocks = 8,
                                        .stream_run_min = 8};
ENGINE_FAKES_END

struct PolicyCase {
  const char *what;
  const struct aes_impl *aes;
  const struct fused_impl *fused;
  int encrypt, one_shot;
  // expected
  unsigned run_min, tail_min, use_up_min, batch, batch_mask, lag_blocks, fused_min;
  int uncut, fused_flag;
};

TEST(StreamPolicy, FromTheDescriptors) {
  const unsigned kNP2 = GCM_BATCH_NOT_POW2;
  const PolicyCase cases[] = {
      // Without stream sizes: at least a batch, min_blocks and
      // GCM_STREAM_RUN_MIN (16); use-up from run_min in software, from
      // run_min plus a batch with AES instructions.
      {"software, two passes", &kSoft8, nullptr, 1, 0, 16, 0, 16, 8, 7, 0, 0, 0, 0},
      {"instructions, two passes", &kHard8, nullptr, 1, 0, 16, 0, 24, 8, 7, 0, 0, 0, 0},
      {"batch 6", &kHard6, nullptr, 1, 0, 16, 0, 22, 6, kNP2, 0, 0, 0, 0},
      {"batch 24", &kSoft24, nullptr, 1, 0, 24, 0, 24, 24, kNP2, 0, 0, 0, 0},
      {"batch 0 is 1", &kSoft0, nullptr, 1, 0, 16, 0, 16, 1, 0, 0, 0, 0, 0},
      {"batch 40 is the buffer", &kSoft40, nullptr, 1, 0, 24, 0, 24, 24, kNP2, 0, 0, 0, 0},
      {"portable loop", &kHard8, &kMin16, 1, 0, 16, 0, 24, 8, 7, 0, 16, 0, 1},
      {"kernel minimum 32", &kSoft8, &kMin32, 1, 0, 32, 0, 32, 8, 7, 0, 32, 0, 1},
      // Stream sizes: uncut runs from stream_run_min (at least min_blocks),
      // tail_min at least run_min; the lag only for a stream's seal.
      {"sized seal", &kHard8, &kSized16_20, 1, 0, 16, 20, 24, 8, 7, 16, 1, 1, 1},
      {"sized open", &kHard8, &kSized16_20, 0, 0, 16, 20, 24, 8, 7, 0, 1, 1, 1},
      {"sized one-shot", &kHard8, &kSized16_20, 1, 1, 16, 20, 24, 8, 7, 0, 1, 1, 1},
      {"tail below run", &kHard8, &kSizedTailLow, 1, 0, 16, 16, 24, 8, 7, 0, 1, 1, 1},
      {"run below min_blocks", &kSoft8, &kSizedBelowMin, 1, 0, 4, 4, 4, 8, 7, 0, 4, 1, 1},
      {"no tail minimum", &kHard8, &kSizedNoTail, 1, 0, 8, 0, 16, 8, 7, 8, 1, 1, 1},
  };
  for (const PolicyCase &c : cases) {
    struct stream_policy p;
    gcm_stream_policy_init(&p, c.aes, c.fused, c.encrypt, c.one_shot);
    EXPECT_EQ(c.run_min, p.run_min) << c.what;
    EXPECT_EQ(c.tail_min, p.tail_min) << c.what;
    EXPECT_EQ(c.use_up_min, p.use_up_min) << c.what;
    EXPECT_EQ(c.batch, p.batch) << c.what;
    EXPECT_EQ(c.batch_mask, p.batch_mask) << c.what;
    EXPECT_EQ(c.lag_blocks, p.lag_blocks) << c.what;
    EXPECT_EQ(c.fused_min, p.fused_min) << c.what;
    EXPECT_EQ(c.uncut, (int)p.uncut) << c.what;
    EXPECT_EQ(c.fused_flag, (int)p.fused) << c.what;
    EXPECT_EQ(c.one_shot, (int)p.one_shot) << c.what;
  }
}

// ---- plans -----------------------------------------------------------------

// Policies as gcm_stream_policy_init makes them (checked against it below).
struct stream_policy Policy(const struct aes_impl *aes, const struct fused_impl *fused,
                            int encrypt = 1, int one_shot = 0) {
  struct stream_policy p;
  gcm_stream_policy_init(&p, aes, fused, encrypt, one_shot);
  return p;
}

// A plan written as a row: the fields the contract names, in order; a
// table names only those that are not 0 ({.head = 112}: take 112 bytes
// from the buffer and do nothing else).
struct Row {
  size_t head = 0;
  int give_back = 0;
  size_t direct = 0, run_cap = 0;
  int flush = 0, fused = 0, lagged = 0;
  size_t tail = 0;
  unsigned refill = 0;
  int tail_block = 0;
};

std::string Show(const struct stream_plan &p) {
  return "head " + std::to_string(p.head) + (p.give_back ? " give_back" : "") + " direct " +
         std::to_string(p.direct) + "/" + std::to_string(p.run_cap) +
         (p.flush ? " flush" : "") + (p.fused ? " fused" : "") + (p.lagged ? " lagged" : "") +
         " tail " + std::to_string(p.tail) + " refill " + std::to_string(p.refill) +
         (p.tail_block ? " block" : "");
}

struct PlanCase {
  const char *rule;
  struct stream_policy policy;
  struct stream_buffer buffer;  // ks_pos, ks_len, hash_len, first
  size_t len;
  Row want;
};

void ExpectPlans(const std::vector<PlanCase> &cases) {
  for (const PlanCase &c : cases) {
    const struct stream_plan p = stream_plan_update(&c.policy, c.buffer, c.len);
    const Row &w = c.want;
    const std::string what = std::string(c.rule) + ": got " + Show(p);
    EXPECT_EQ(w.head, p.head) << what;
    EXPECT_EQ(w.give_back, (int)p.give_back) << what;
    EXPECT_EQ(w.direct, p.direct) << what;
    if (w.direct != 0) {
      EXPECT_EQ(w.run_cap, p.run_cap) << what;
      EXPECT_EQ(w.flush, (int)p.flush) << what;
      EXPECT_EQ(w.fused, (int)p.fused) << what;
      EXPECT_EQ(w.lagged, (int)p.lagged) << what;
    }
    EXPECT_EQ(w.tail, p.tail) << what;
    if (w.tail != 0) {
      EXPECT_EQ(w.refill, p.refill) << what;
      EXPECT_EQ(w.tail_block, (int)p.tail_block) << what;
    }
  }
}

TEST(StreamPlan, FitsAndSteady) {
  const struct stream_policy two_pass = Policy(&kHard8, nullptr);
  const struct stream_policy sized = Policy(&kHard8, &kSized16_20);
  const struct stream_policy sized_open = Policy(&kHard8, &kSized16_20, 0);
  ExpectPlans({
      // 1. fits: served from the buffer, whatever its length.
      {"fits", two_pass, {16, 128, 0, 0}, 112, {.head = 112}},
      {"fits, long", two_pass, {0, 384, 0, 0}, 300, {.head = 300}},
      {"fits, empty update", two_pass, {384, 384, 0, 0}, 0, {}},
      // ... but not the update that ends the AAD: a long chunk then gives
      // the start-up buffer back (rule 4) and runs whole batches direct.
      {"first update", two_pass, {16, 384, 16, 1}, 368,
       {.give_back = 1, .direct = 16, .run_cap = 256, .flush = 1, .tail = 112, .refill = 24}},
      // 2. steady: one direct run, nothing to hash first (a pending lagged
      // group rides into the lagged seal).
      {"steady", two_pass, {384, 384, 0, 0}, 256, {.direct = 16, .run_cap = 16}},
      {"steady, bulk limit", two_pass, {0, 0, 0, 0}, 4096, {.direct = 256, .run_cap = 256}},
      {"steady, lagged group", sized, {0, 0, 0, 0}, 512, {.direct = 32, .run_cap = 32, .fused = 1, .lagged = 1}},
      {"steady, not whole groups", sized, {0, 0, 0, 0}, 384, {.direct = 24, .run_cap = 24, .fused = 1}},
      {"steady, uncut", sized, {0, 0, 0, 0}, 272, {.direct = 17, .run_cap = 17, .fused = 1}},
      {"steady, open never lags", sized_open, {0, 0, 0, 0}, 512,
       {.direct = 32, .run_cap = 32, .fused = 1}},
      // Not steady: ciphertext waits to be hashed, so the run flushes it.
      {"waiting hash", two_pass, {128, 128, 16, 0}, 256, {.direct = 16, .run_cap = 256, .flush = 1}},
  });
}

TEST(StreamPlan, GeneralRule) {
  const struct stream_policy soft = Policy(&kSoft8, nullptr);
  const struct stream_policy hard = Policy(&kHard8, nullptr);
  const struct stream_policy hard6 = Policy(&kHard6, nullptr);
  const struct stream_policy fused = Policy(&kHard8, &kMin16);
  ExpectPlans({
      // A short chunk: the rest of the buffer, then a full refill (whole
      // batches: 24 blocks of batch 8, 24 of batch 6).
      {"short, full refill", hard, {120, 128, 104, 0}, 100, {.head = 8, .tail = 92, .refill = 24}},
      {"short, batch 6", hard6, {96, 96, 80, 0}, 200, {.tail = 200, .refill = 24}},
      // Runs are whole batches; a tail under run_min is refilled.
      {"cut to batches", hard, {0, 0, 0, 0}, 272, {.direct = 16, .run_cap = 256, .flush = 1, .tail = 16, .refill = 24}},
      {"cut, batch 6", hard6, {0, 0, 0, 0}, 16 * 17 + 3, {.direct = 12, .run_cap = 252, .flush = 1, .tail = 83, .refill = 24}},
      // Two passes: calls of at most GCM_BULK_BLOCKS, cut to batches
      // (252 blocks with batch 6); the fused kernel takes one call.
      {"bulk calls", hard, {0, 0, 0, 0}, 16 * 600, {.direct = 600, .run_cap = 256, .flush = 1}},
      {"bulk calls, batch 6", hard6, {0, 0, 0, 0}, 16 * 300, {.direct = 300, .run_cap = 252, .flush = 1}},
      {"bulk, a short rest", hard, {0, 0, 0, 0}, 16 * 270, {.direct = 256, .run_cap = 256, .flush = 1, .tail = 224, .refill = 16}},
      {"fused, one call", fused, {0, 0, 0, 0}, 16 * 600 + 5, {.direct = 600, .run_cap = 600, .flush = 1, .fused = 1, .tail = 5, .refill = 8}},
      // The give-back: a long chunk while the buffer ends on a block
      // boundary gives it back and runs direct ...
      {"give back", hard, {304, 384, 288, 0}, 272, {.give_back = 1, .direct = 16, .run_cap = 256, .flush = 1, .tail = 16, .refill = 24}},
      // ... not from inside a block (the buffer is served, then the run).
      {"inside a block", hard, {40, 384, 24, 0}, 400, {.head = 344, .tail = 56, .refill = 8}},
      // Use-up: with AES instructions from run_min plus a batch (24
      // blocks), with AES in software from run_min (16): the chunk uses the
      // buffer up and its tail refills only the batches it needs ...
      {"use up, instructions", hard, {48, 384, 32, 0}, 400, {.head = 336, .tail = 64, .refill = 8}},
      {"use up, software", soft, {304, 384, 288, 0}, 272, {.head = 80, .tail = 192, .refill = 16}},
      {"use up, software, run", soft, {304, 384, 288, 0}, 400,
       {.head = 80, .direct = 16, .run_cap = 256, .flush = 1, .tail = 64, .refill = 8}},
      // ... below that threshold the buffer is given back (23 blocks with
      // instructions) ...
      {"below use-up", hard, {48, 384, 32, 0}, 368 + 5, {.give_back = 1, .direct = 16, .run_cap = 256, .flush = 1, .tail = 117, .refill = 24}},
      // ... and a chunk of whole batches gives it back even above it, so
      // that happens once per change of chunk size: its run ends it with
      // nothing buffered, and the next such chunk is steady.
      {"use up, whole batches", hard, {48, 384, 32, 0}, 512, {.give_back = 1, .direct = 32, .run_cap = 256, .flush = 1}},
      {"use up, whole batches, software", soft, {304, 384, 288, 0}, 256,
       {.give_back = 1, .direct = 16, .run_cap = 256, .flush = 1}},
  });
}

TEST(StreamPlan, SizedRule) {
  const struct stream_policy sized = Policy(&kHard8, &kSized16_20);
  const struct stream_policy open = Policy(&kHard8, &kSized16_20, 0);
  const struct stream_policy no_tail = Policy(&kHard8, &kSizedNoTail);
  ExpectPlans({
      // A partial block behind at least tail_min (20) whole blocks: the run
      // goes uncut, the partial block gets one block of key stream.
      {"tail block", sized, {0, 0, 0, 0}, 16 * 20 + 7, {.direct = 20, .run_cap = 20, .flush = 1, .fused = 1, .tail = 7, .refill = 1, .tail_block = 1}},
      {"tail block, lagged group", sized, {0, 0, 0, 0}, 16 * 32 + 7,
       {.direct = 32, .run_cap = 32, .flush = 1, .fused = 1, .lagged = 1, .tail = 7, .refill = 1, .tail_block = 1}},
      {"tail block, open", open, {0, 0, 0, 0}, 16 * 32 + 7, {.direct = 32, .run_cap = 32, .flush = 1, .fused = 1, .tail = 7, .refill = 1, .tail_block = 1}},
      // The next chunk finishes the block from the buffer and gives the
      // rest back from inside a block, then runs uncut.
      {"finish the block", sized, {7, 16, 7, 0}, 9 + 16 * 20, {.head = 9, .give_back = 1, .direct = 20, .run_cap = 20, .flush = 1, .fused = 1}},
      {"finish, then a tail", sized, {7, 16, 7, 0}, 9 + 16 * 21 + 3,
       {.head = 9, .give_back = 1, .direct = 21, .run_cap = 21, .flush = 1, .fused = 1, .tail = 3, .refill = 1, .tail_block = 1}},
      // Block aligned: from run_min (16) blocks, uncut, given back from a
      // block boundary.
      {"aligned, uncut", sized, {48, 128, 32, 0}, 16 * 17, {.give_back = 1, .direct = 17, .run_cap = 17, .flush = 1, .fused = 1}},
      // Under tail_min with a partial block behind: rule 4, a run cut to
      // batches and the rest from a refill.
      {"below tail_min", sized, {0, 0, 0, 0}, 16 * 18 + 12, {.direct = 16, .run_cap = 16, .flush = 1, .fused = 1, .lagged = 1, .tail = 44, .refill = 24}},
      // A kernel without a tail minimum never gets a one-block tail.
      {"no tail minimum", no_tail, {0, 0, 0, 0}, 16 * 9 + 6, {.direct = 8, .run_cap = 8, .flush = 1, .fused = 1, .lagged = 1, .tail = 22, .refill = 24}},
  });
}

TEST(StreamPlan, OneShotMessages) {
  const struct stream_policy fused = Policy(&kHard8, &kSized16_20, 1, 1);
  const struct stream_policy min16 = Policy(&kHard8, &kMin16, 1, 1);
  const struct stream_policy plain = Policy(&kHard8, nullptr, 1, 1);
  ExpectPlans({
      // Every whole block to the fused kernel in one call, never lagged;
      // the tail gets exactly its key stream.
      {"fused", fused, {16, 16, 0, 1}, 1000, {.direct = 62, .run_cap = 62, .flush = 1, .fused = 1, .tail = 8, .refill = 1}},
      // Under the kernel's min_blocks: the two passes from a batch.
      {"under min_blocks", min16, {16, 128, 0, 1}, 16 * 7 + 16 * 9,
       {.head = 112, .direct = 9, .run_cap = 256, .flush = 1}},
      // Two passes: the start-up batch, then calls of GCM_BULK_BLOCKS
      // (uncut), then less than a batch from its own refill.
      {"two passes", plain, {16, 128, 0, 1}, 1000, {.head = 112, .direct = 55, .run_cap = 256, .flush = 1, .tail = 8, .refill = 1}},
      {"long", plain, {16, 128, 0, 1}, 112 + 16 * 260 + 3, {.head = 112, .direct = 256, .run_cap = 256, .flush = 1, .tail = 67, .refill = 5}},
      {"short", plain, {16, 64, 0, 1}, 40, {.head = 40}},
  });
}

// Invariants of every plan, over a sweep of policies, buffer states and
// lengths: it consumes at least one byte of a non-empty update and no more
// than the update; its head is buffered key stream; a give-back happens at
// a block boundary; a stream's cut runs are whole batches; a tail fits the
// key stream made for it; and only a refill smaller than run_min blocks
// leaves bytes for another plan.
TEST(StreamPlan, EveryPlanMakesProgressInsideTheBuffer) {
  const struct aes_impl *aes[] = {&kSoft8, &kHard8, &kHard6, &kSoft24, &kSoft0};
  const struct fused_impl *kernels[] = {nullptr, &kMin16, &kSized16_20, &kSizedNoTail,
                                        &kSizedTailLow};
  size_t plans = 0;
  for (const struct aes_impl *a : aes) {
    for (const struct fused_impl *f : kernels) {
      for (int one_shot = 0; one_shot <= 1; one_shot++) {
        const struct stream_policy p = Policy(a, f, 1, one_shot);
        for (uint32_t ks_len = 0; ks_len <= 16 * GCM_KS_MAX_BLOCKS; ks_len += 16 * 5) {
          for (uint32_t pos = 0; pos <= ks_len; pos += pos < 40 ? 1 : 37) {
            for (size_t len = 0; len < 5000; len += len < 600 ? 1 : 97) {
              for (uint8_t first = 0; first <= 1; first++) {
                const struct stream_buffer b = {pos, ks_len, 0, first};
                const struct stream_plan pl = stream_plan_update(&p, b, len);
                const size_t used = pl.head + 16 * pl.direct + pl.tail;
                // (Built only when an assertion fails: the sweep makes ~10^6 plans.)
#define what ("pos " + std::to_string(pos) + " len " + std::to_string(len) + ": " + Show(pl))
                plans++;
                ASSERT_LE(used, len) << what;
                if (len > 0) {
                  ASSERT_GT(used, 0u) << what;
                }
                ASSERT_LE(pl.head, (size_t)(ks_len - pos)) << what;
                if (pl.give_back) {
                  ASSERT_EQ(0u, (pos + pl.head) % 16) << what;
                }
                if (pl.direct != 0) {
                  ASSERT_GE(pl.run_cap, 1u) << what;
                  if (!p.one_shot && !(p.uncut && pl.run_cap == pl.direct)) {
                    ASSERT_TRUE(stream_whole_batches(&p, pl.direct)) << what;
                  }
                }
                if (pl.tail != 0) {
                  ASSERT_LE(pl.tail, 16u * pl.refill) << what;
                  if (pl.tail_block) {
                    ASSERT_LT(pl.tail, 16u) << what;
                  }
                }
                if (used < len) {
                  ASSERT_LT(pl.refill, (unsigned)p.run_min) << what;
                }
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(plans, 100000u);
#undef what
}

}  // namespace
