// test/engine_slot_test.cc: the stream engine's use of the fused slot and
// of the AES batch, with fake descriptors that count what they are handed:
//   FusedSlot.*   the engine hands whole-block runs to the key's kernel,
//                 only runs of at least its sizes, lagged seals in whole
//                 groups with the pending group hashed first, uncut runs
//                 and one-block tails for kernels with stream sizes; a
//                 kernel that computes garbage is caught by the results.
//   ModeBatches.* streams cut runs to batches of any size, and the key
//                 stream accounting: a stream of one chunk size makes no
//                 key stream twice where the policy says it must not.
// The rules themselves are tested as a pure function in
// test/stream_plan_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" {
#include "../crypto/dispatch/dispatch.h"
#include "../crypto/gcm/mode.h"
#include "../crypto/gcm/placement.h"
}
#include "test_util.h"
#include "engine_util.h"

using enginetest::KeySt;
using enginetest::SealsAgree;
using enginetest::StreamSealChunks;
using gcmtest::Bytes;
using gcmtest::RandomBytes;

namespace {


// A kernel that forwards to gcmi_fused_c and counts what it was handed; with
// `poison` it flips a bit of the output, which the results must show.
struct Counting : enginetest::OnPortableLoop<Counting> {
  static size_t calls, blocks;
  static bool poison;
  // Runs `kernel` (the portable loop's seal or open) on n blocks, counted.
  static void Run(fused_crypt_fn *kernel, const struct fused_keys *k, uint8_t *out,
                  const uint8_t *in, size_t n, const uint8_t ctr[16], uint8_t Xi[16]) {
    calls++;
    blocks += n;
    kernel(k, out, in, n, ctr, Xi);
    if (poison) out[0] ^= 1;
  }
};
size_t Counting::calls, Counting::blocks;
bool Counting::poison;

ENGINE_FAKES_BEGIN
const struct fused_impl kCounting = {ENGINE_FAKE_KERNEL("counting", 16, Counting)};
ENGINE_FAKES_END

// A key on the default pair whose slot holds the counting kernel, and the
// same key on the two passes.
void CountingKeys(gcm_key *fused, gcm_key *plain) {
  uint8_t raw[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  ASSERT_EQ(1, gcm_key_init_with_fused(fused, raw, 16, nullptr, nullptr, "c"));
  ASSERT_EQ(1, gcm_key_init_with_fused(plain, raw, 16, nullptr, nullptr, "none"));
  KeySt(fused)->fused = &kCounting;
  Counting::calls = Counting::blocks = 0;
  Counting::poison = false;
}

TEST(FusedSlot, OneShotAndLongChunksUseTheKernel) {
  gcm_key fk, pk;
  CountingKeys(&fk, &pk);
  std::mt19937_64 rng(5);
  Bytes nonce = RandomBytes(rng, 12), aad = RandomBytes(rng, 13), pt = RandomBytes(rng, 4096);
  Bytes a, b;
  uint8_t ta[16], tb[16];
  EXPECT_TRUE(SealsAgree(&fk, &pk, nonce, aad, pt, &a, ta));
  // One run: every whole block in one call (the AAD block goes to GHASH,
  // the tag mask to one block of ctr32).
  EXPECT_EQ(1u, Counting::calls);
  EXPECT_EQ(4096u / 16, Counting::blocks);

  Counting::calls = 0;
  Bytes back(pt.size());
  ASSERT_EQ(1, gcm_open(&fk, back.data(), nonce.data(), 12, a.data(), a.size(), ta, 16,
                        aad.data(), aad.size()));
  EXPECT_EQ(pt, back);
  EXPECT_EQ(1u, Counting::calls);

  // More than a block of AAD: the stream, one run after the first batch.
  Counting::calls = Counting::blocks = 0;
  Bytes aad20 = RandomBytes(rng, 20);
  EXPECT_TRUE(SealsAgree(&fk, &pk, nonce, aad20, pt));
  EXPECT_EQ(1u, Counting::calls);
  EXPECT_GE(Counting::blocks, 4096u / 16 - 16);

  // Streaming: 512-byte chunks reach the kernel, 16-byte ones never do.
  Counting::calls = 0;
  StreamSealChunks(&fk, nonce, aad, pt, {512}, &b, tb);
  EXPECT_EQ(a, b);
  EXPECT_EQ(0, memcmp(ta, tb, 16));
  EXPECT_GE(Counting::calls, 7u);
  Counting::calls = 0;
  StreamSealChunks(&fk, nonce, aad, pt, {16}, &b, tb);
  EXPECT_EQ(a, b);
  EXPECT_EQ(0u, Counting::calls);
  // Short one-shot messages (below GCM_SHORT_FUSED_MIN, 160 bytes, for a
  // kernel without a oneshot_min of its own) never reach it either; from
  // there on they take the one run.
  ASSERT_EQ(1, gcm_seal(&fk, a.data(), ta, 16, nonce.data(), 12, pt.data(), 128,
                        aad.data(), aad.size()));
  EXPECT_EQ(0u, Counting::calls);
  ASSERT_EQ(1, gcm_seal(&fk, a.data(), ta, 16, nonce.data(), 12, pt.data(), 256,
                        aad.data(), aad.size()));
  EXPECT_EQ(1u, Counting::calls);
  gcm_key_cleanup(&fk);
  gcm_key_cleanup(&pk);
}

// Counting kernels: a ctr32 wrapper around the real AES backend (Ctr32,
// installed by ModeBatches below) and the portable fused loop (Seal, Open),
// each counting its calls, those that are not a whole number of `batch`
// blocks, and the blocks of key stream made; the fused loop's own ctr32
// calls are not counted.
struct BatchAes : enginetest::OnPortableLoop<BatchAes> {
  static const struct aes_impl *real;
  static unsigned batch;
  static size_t calls, off_batch, made;
  static bool in_fused;  // ctr32 calls of the fused loop's own pieces
  static void Ctr32(const struct aes_schedule *k, uint8_t *out, const uint8_t *in,
                    size_t blocks, const uint8_t ctr[16]) {
    if (!in_fused) Count(blocks);
    real->ctr32(k, out, in, blocks, ctr);
  }
  static void Count(size_t blocks) {
    calls++;
    made += blocks;
    if (blocks % batch != 0) off_batch++;
  }
  // The portable fused loop (Seal, Open), its runs counted like ctr32
  // calls.
  static void Run(fused_crypt_fn *kernel, const struct fused_keys *k, uint8_t *out,
                  const uint8_t *in, size_t n, const uint8_t ctr[16], uint8_t Xi[16]) {
    Count(n);
    in_fused = true;
    kernel(k, out, in, n, ctr, Xi);
    in_fused = false;
  }
};
const struct aes_impl *BatchAes::real;
unsigned BatchAes::batch;
size_t BatchAes::calls, BatchAes::off_batch, BatchAes::made;
bool BatchAes::in_fused;

// A kernel the pair can use from one block on (min_blocks 1, as the x86_64
// kernels declare): a stream still hands it only runs of at least run_min
// blocks (GCM_STREAM_RUN_MIN, 16), cut down to whole AES batches, and serves
// shorter whole-block chunks from the buffer; a one-shot message gives it
// every whole block past the first batch.
ENGINE_FAKES_BEGIN
const struct fused_impl kFromOneBlock = {ENGINE_FAKE_KERNEL("from_one_block", 1, BatchAes)};
ENGINE_FAKES_END

TEST(FusedSlot, StreamsSkipTheKernelForShortRunsAndCutRunsToBatches) {
  uint8_t raw[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};
  gcm_key fk, pk;
  ASSERT_EQ(1, gcm_key_init_with_fused(&fk, raw, 16, nullptr, nullptr, "c"));
  ASSERT_EQ(1, gcm_key_init_with_fused(&pk, raw, 16, nullptr, nullptr, "none"));
  KeySt(&fk)->fused = &kFromOneBlock;
  unsigned batch = KeySt(&fk)->aes->ctr_batch_blocks;
  BatchAes::batch = batch < 1 ? 1 : batch;
  std::mt19937_64 rng(8);
  Bytes nonce = RandomBytes(rng, 12), aad = RandomBytes(rng, 13), pt = RandomBytes(rng, 5000);
  Bytes want(pt.size()), got;
  uint8_t twant[16], tgot[16];
  ASSERT_EQ(1, gcm_seal(&pk, want.data(), twant, 16, nonce.data(), 12, pt.data(), pt.size(),
                        aad.data(), aad.size()));
  for (size_t len = 16; len < 256; len += 16) {
    BatchAes::calls = 0;
    StreamSealChunks(&fk, nonce, aad, pt, {len}, &got, tgot);
    EXPECT_EQ(want, got) << len;
    EXPECT_EQ(0, memcmp(twant, tgot, 16)) << len;
    EXPECT_EQ(0u, BatchAes::calls) << "chunk " << len;
  }
  // Longer chunks reach the kernel, in whole batches. With AES in software
  // a chunk that is not whole batches first uses up the key stream left in
  // the buffer, so it reaches the kernel only when the rest is still 16
  // blocks, as it is from 16 blocks plus a batch on.
  const bool hardware = KeySt(&fk)->aes->hardware_rounds != 0;
  for (size_t len : {256, 257, 263, 272, 300, 383, 400, 511, 1000}) {
    BatchAes::calls = BatchAes::off_batch = 0;
    StreamSealChunks(&fk, nonce, aad, pt, {len}, &got, tgot);
    EXPECT_EQ(want, got) << len;
    EXPECT_EQ(0, memcmp(twant, tgot, 16)) << len;
    if (hardware || len % (16 * BatchAes::batch) == 0 || len / 16 >= 16 + BatchAes::batch) {
      EXPECT_GE(BatchAes::calls, 1u) << "chunk " << len;
    }
    EXPECT_EQ(0u, BatchAes::off_batch) << "chunk " << len;
  }
  // Opening, through the same paths, restores the plaintext.
  for (size_t len : {16, 64, 256, 300}) {
    gcm_stream s;
    ASSERT_EQ(1, gcm_stream_init(&s, &fk, GCM_DECRYPT, nonce.data(), 12));
    ASSERT_EQ(1, gcm_stream_aad(&s, aad.data(), aad.size()));
    Bytes back(want);
    for (size_t off = 0; off < back.size(); off += len) {
      size_t n = std::min(len, back.size() - off);
      ASSERT_EQ(1, gcm_stream_update(&s, back.data() + off, back.data() + off, n));
    }
    ASSERT_EQ(1, gcm_stream_finish_open(&s, twant, 16)) << len;
    EXPECT_EQ(pt, back) << len;
  }
  // One-shot (96-bit nonce, AAD of at most a block): one kernel call
  // takes every whole block (one_shot_fused in crypto/gcm/oneshot.c).
  BatchAes::calls = 0;
  ASSERT_EQ(1, gcm_seal(&fk, got.data(), tgot, 16, nonce.data(), 12, pt.data(), pt.size(),
                        aad.data(), aad.size()));
  EXPECT_EQ(want, got);
  EXPECT_EQ(1u, BatchAes::calls);
  gcm_key_cleanup(&fk);
  gcm_key_cleanup(&pk);
}

// An AES backend whose batch is not a power of two (32-bit AES-NI's is 6):
// the stream rounds runs to whole batches by division there, by a mask
// otherwise (batch_mask in crypto/gcm/mode.h). The key's AES descriptor is
// swapped for a copy that claims the batch under test and counts the
// ctr32 calls that are not a whole number of batches: a stream makes none
// (its start, its refills and its direct runs are whole batches), and its
// output equals the one-shot output of an untouched key for chunkings
// that cross every batch position, sealing and opening. With a fused
// kernel (the portable loop, min_blocks 16) its runs are counted instead
// of the loop's own ctr32 calls. A stream of one chunk size also makes no
// key stream twice, with AES in software (the descriptor's hardware_rounds
// 0) or with chunks of at least run_min + batch blocks: besides the
// message's blocks and the tag mask it makes at most the start-up batch,
// given back once, and one refill left unused at the end.

ENGINE_FAKES_BEGIN
const struct fused_impl kBatchFused = {ENGINE_FAKE_KERNEL("batch_fused", 16, BatchAes)};
ENGINE_FAKES_END

TEST(ModeBatches, StreamsCutRunsToBatchesOfAnySize) {
  uint8_t raw[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
  std::mt19937_64 rng(12);
  Bytes nonce = RandomBytes(rng, 12), aad = RandomBytes(rng, 13), pt = RandomBytes(rng, 6000);
  for (const char *fused : {"none", "c"}) {
    // AES in software (hardware_rounds 0) and AES instructions.
    for (int hardware : {0, 1}) {
      for (unsigned batch : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 12u, 24u}) {
        gcm_key bk, pk;
        ASSERT_EQ(1, gcm_key_init_with_fused(&bk, raw, 16, nullptr, nullptr, fused));
        ASSERT_EQ(1, gcm_key_init_with_fused(&pk, raw, 16, nullptr, nullptr, "none"));
        struct aes_impl fake = *KeySt(&bk)->aes;
        fake.ctr_batch_blocks = batch;
        fake.hardware_rounds = hardware;
        fake.ctr32 = BatchAes::Ctr32;
        BatchAes::real = KeySt(&bk)->aes;
        BatchAes::batch = batch;
        KeySt(&bk)->aes = &fake;
        if (KeySt(&bk)->fused != nullptr) KeySt(&bk)->fused = &kBatchFused;
        const std::string what = std::string(fused) + (hardware ? " hardware" : " software") +
                                 " batch " + std::to_string(batch);
        Bytes want(pt.size()), got;
        uint8_t twant[16], tgot[16];
        ASSERT_EQ(1, gcm_seal(&pk, want.data(), twant, 16, nonce.data(), 12, pt.data(),
                              pt.size(), aad.data(), aad.size()));
        std::vector<std::vector<size_t>> chunkings = {{16},  {64},  {256},  {272},  {400},
                                                      {1000}, {63}, {65}, {255}, {257},
                                                      {1023}, {2000}, {6000}};
        for (size_t b = 1; b <= 2 * batch + 1; b++) chunkings.push_back({16 * b});
        for (size_t lead = 1; lead <= 24; lead++) chunkings.push_back({16 * lead, 16 * 40});
        for (size_t lead = 1; lead < 16; lead++) chunkings.push_back({lead, 16 * 33});
        for (const auto &c : chunkings) {
          BatchAes::calls = BatchAes::off_batch = BatchAes::made = 0;
          StreamSealChunks(&bk, nonce, aad, pt, c, &got, tgot);
          std::string at = what + " chunks " + std::to_string(c[0]);
          ASSERT_EQ(want, got) << at;
          ASSERT_EQ(0, memcmp(twant, tgot, 16)) << at;
          EXPECT_GE(BatchAes::calls, 1u) << at;
          EXPECT_EQ(0u, BatchAes::off_batch) << at;
          const size_t run_min = std::max(batch, 16u);
          if (c.size() == 1 && (!hardware || c[0] / 16 >= run_min + batch)) {
            const size_t blocks = (pt.size() + 15) / 16;
            EXPECT_LE(BatchAes::made, blocks + batch + GCM_KS_MAX_BLOCKS) << at;
          }
          // Opening in place through the same chunks restores the plaintext.
          gcm_stream s;
          ASSERT_EQ(1, gcm_stream_init(&s, &bk, GCM_DECRYPT, nonce.data(), 12));
          ASSERT_EQ(1, gcm_stream_aad(&s, aad.data(), aad.size()));
          Bytes back(want);
          size_t off = 0;
          for (size_t i = 0; off < back.size(); i++) {
            size_t n = std::min(back.size() - off, c[i % c.size()]);
            ASSERT_EQ(1, gcm_stream_update(&s, back.data() + off, back.data() + off, n));
            off += n;
          }
          ASSERT_EQ(1, gcm_stream_finish_open(&s, twant, 16)) << at;
          ASSERT_EQ(pt, back) << at;
          EXPECT_EQ(0u, BatchAes::off_batch) << at;
        }
        gcm_key_cleanup(&bk);
        gcm_key_cleanup(&pk);
      }
    }
  }
}

TEST(FusedSlot, AWrongKernelIsCaught) {
  gcm_key fk, pk;
  CountingKeys(&fk, &pk);
  Counting::poison = true;
  std::mt19937_64 rng(6);
  Bytes nonce = RandomBytes(rng, 12), pt = RandomBytes(rng, 2000);
  EXPECT_FALSE(SealsAgree(&fk, &pk, nonce, {}, pt));
  Counting::poison = false;
  gcm_key_cleanup(&fk);
  gcm_key_cleanup(&pk);
}

// A kernel with a lagged seal (fused.h: seal_lagged), groups of 16 blocks,
// built from the pair's ctr32 and GHASH and counting its calls: the mode
// engine must give a stream's seal runs of whole groups to it, hash the
// pending group before anything else (buffered chunks, a run that is not
// whole groups, the length block), and never use it for open or one-shot
// messages.
struct Lagged {
  static size_t plain_seals, lagged, lagged_with_pending, opens;
  static void Seal(const struct fused_keys *k, uint8_t *out, const uint8_t *in,
                   size_t n, const uint8_t ctr[16], uint8_t Xi[16]) {
    plain_seals++;
    k->aes->ctr32(k->aes_key, out, in, n, ctr);
    k->ghash->update(Xi, k->ghash_key, out, n);
  }
  static void SealLagged(const struct fused_keys *k, uint8_t *out,
                         const uint8_t *in, size_t n, const uint8_t ctr[16],
                         const struct fused_lag *lag) {
    ASSERT_EQ(0u, n % 16) << "a lagged run of " << n << " blocks";
    lagged++;
    if (lag->has_pending) {
      lagged_with_pending++;
      k->ghash->update(lag->Xi, k->ghash_key, lag->pending, 16);
    }
    k->aes->ctr32(k->aes_key, out, in, n, ctr);
    k->ghash->update(lag->Xi, k->ghash_key, out, n - 16);
    memcpy(lag->pending, out + 16 * (n - 16), 16 * 16);
  }
  static void Open(const struct fused_keys *k, uint8_t *out, const uint8_t *in,
                   size_t n, const uint8_t ctr[16], uint8_t Xi[16]) {
    opens++;
    k->ghash->update(Xi, k->ghash_key, in, n);
    k->aes->ctr32(k->aes_key, out, in, n, ctr);
  }
  static void Reset() { plain_seals = lagged = lagged_with_pending = opens = 0; }
};
size_t Lagged::plain_seals, Lagged::lagged, Lagged::lagged_with_pending,
    Lagged::opens;

ENGINE_FAKES_BEGIN
const struct fused_impl kLagged = {ENGINE_FAKE_KERNEL("lagged", 1, Lagged),
                                   .seal_lagged = Lagged::SealLagged,
                                   .lag_blocks = 16};
ENGINE_FAKES_END

// fk: a key on the default pair whose slot holds `kernel` and whose AES
// descriptor is a copy of the key's own claiming batches of 8 blocks, so
// that runs are whole batches (and 16-block runs whole groups) whatever
// the build's batch is (6 blocks for 32-bit AES-NI); its ctr32 takes any
// count. pk: the same key on the two passes. Returns that AES descriptor
// (one for the process: each test that calls this sets it up again).
struct aes_impl *KernelKeys(const std::array<uint8_t, 16> &raw,
                            const struct fused_impl *kernel, gcm_key *fk, gcm_key *pk) {
  static struct aes_impl aes8;
  EXPECT_EQ(1, gcm_key_init_with_fused(fk, raw.data(), 16, nullptr, nullptr, "c"));
  EXPECT_EQ(1, gcm_key_init_with_fused(pk, raw.data(), 16, nullptr, nullptr, "none"));
  KeySt(fk)->fused = kernel;
  aes8 = *KeySt(fk)->aes;
  aes8.ctr_batch_blocks = 8;
  KeySt(fk)->aes = &aes8;
  return &aes8;
}

TEST(FusedSlot, StreamSealsLagTheirLastGroupAndHashItFirst) {
  gcm_key fk, pk;
  KernelKeys({2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4, 5, 9, 0, 4, 5}, &kLagged, &fk, &pk);
  if (HasFailure()) return;
  std::mt19937_64 rng(21);
  Bytes nonce = RandomBytes(rng, 12), aad = RandomBytes(rng, 13);
  struct Case {
    std::vector<size_t> chunks;
    size_t len;
    size_t lagged, with_pending, plain;  // expected kernel calls
  };
  const Case cases[] = {
      // Back to back, ending on a lagged run: the pending group and the
      // length block are hashed by the tag.
      {{256}, 4096, 16, 15, 0},
      // A partial last chunk after the runs: hashed after the pending group.
      {{256}, 4096 + 5, 16, 15, 0},
      // A buffered chunk after a run hashes the pending group first; the
      // next 256 bytes fit in the key stream it buffered and are served
      // from there.
      {{256, 13, 3}, 2 * 272, 1, 0, 0},
      // A run that does not fit the buffered key stream, which ends on a
      // block boundary: the key stream is given back and the run lags.
      {{256, 16, 256, 16}, 4 * 272, 2, 0, 0},
      // 512-byte runs (two groups each), and 24-block runs, which are not
      // whole groups: those hash the pending group and take the plain seal.
      {{512, 384}, 512 + 384 + 512 + 384, 2, 0, 2},
      {{256, 256, 384, 256}, 1152 * 2, 6, 3, 2},
  };
  for (const Case &c : cases) {
    Bytes pt = RandomBytes(rng, c.len), want(pt.size()), got;
    uint8_t twant[16], tgot[16];
    ASSERT_EQ(1, gcm_seal(&pk, want.data(), twant, 16, nonce.data(), 12,
                          pt.data(), pt.size(), aad.data(), aad.size()));
    Lagged::Reset();
    StreamSealChunks(&fk, nonce, aad, pt, c.chunks, &got, tgot);
    const std::string what = "len " + std::to_string(c.len) + ", first chunk " +
                             std::to_string(c.chunks[0]);
    EXPECT_EQ(want, got) << what;
    EXPECT_EQ(0, memcmp(twant, tgot, 16)) << what;
    EXPECT_EQ(c.lagged, Lagged::lagged) << what;
    EXPECT_EQ(c.with_pending, Lagged::lagged_with_pending) << what;
    EXPECT_EQ(c.plain, Lagged::plain_seals) << what;

    // Opening the same stream never lags (open hashes what it reads).
    Lagged::Reset();
    gcm_stream s;
    ASSERT_EQ(1, gcm_stream_init(&s, &fk, GCM_DECRYPT, nonce.data(), 12));
    ASSERT_EQ(1, gcm_stream_aad(&s, aad.data(), aad.size()));
    Bytes back(pt.size());
    for (size_t off = 0, i = 0; off < pt.size(); i++) {
      size_t n = std::min(pt.size() - off, c.chunks[i % c.chunks.size()]);
      ASSERT_EQ(1, gcm_stream_update(&s, back.data() + off, want.data() + off, n));
      off += n;
    }
    EXPECT_EQ(1, gcm_stream_finish_open(&s, twant, 16)) << what;
    EXPECT_EQ(pt, back) << what;
    EXPECT_EQ(0u, Lagged::lagged) << what;
  }
  // A one-shot seal takes the plain seal: nothing comes after it to lag
  // into.
  Lagged::Reset();
  EXPECT_TRUE(SealsAgree(&fk, &pk, nonce, aad, RandomBytes(rng, 4096)));
  EXPECT_EQ(0u, Lagged::lagged);
  EXPECT_EQ(1u, Lagged::plain_seals);
  gcm_key_cleanup(&fk);
  gcm_key_cleanup(&pk);
}

// A kernel that declares stream sizes (fused.h: stream_run_min 8,
// stream_tail_min 12) and a lagged seal in groups of 16, built from the
// pair's ctr32 and GHASH, recording the runs it is handed; the key's ctr32
// counts the one-block calls the mode engine makes outside the kernel (the
// key stream of a chunk's partial last block). A stream hands it a chunk's
// whole blocks uncut when nothing follows them or when they are at least
// 12 and a partial block follows (that block then gets one block of key
// stream, behind a lagged seal's pending group when there is one); shorter
// runs with a partial block behind are cut to batches and the rest comes
// from a full buffer, as for kernels without stream sizes.
struct Sized {
  static const struct aes_impl *real;
  static std::vector<size_t> runs;
  static size_t lagged, one_block_refills;
  static bool in_kernel;
  static void Ctr32(const struct aes_schedule *k, uint8_t *out, const uint8_t *in,
                    size_t blocks, const uint8_t ctr[16]) {
    if (!in_kernel && blocks == 1) one_block_refills++;
    real->ctr32(k, out, in, blocks, ctr);
  }
  static void Seal(const struct fused_keys *k, uint8_t *out, const uint8_t *in, size_t n,
                   const uint8_t ctr[16], uint8_t Xi[16]) {
    runs.push_back(n);
    in_kernel = true;
    k->aes->ctr32(k->aes_key, out, in, n, ctr);
    in_kernel = false;
    k->ghash->update(Xi, k->ghash_key, out, n);
  }
  static void SealLagged(const struct fused_keys *k, uint8_t *out, const uint8_t *in, size_t n,
                         const uint8_t ctr[16], const struct fused_lag *lag) {
    ASSERT_EQ(0u, n % 16) << "a lagged run of " << n << " blocks";
    runs.push_back(n);
    lagged++;
    if (lag->has_pending) k->ghash->update(lag->Xi, k->ghash_key, lag->pending, 16);
    in_kernel = true;
    k->aes->ctr32(k->aes_key, out, in, n, ctr);
    in_kernel = false;
    k->ghash->update(lag->Xi, k->ghash_key, out, n - 16);
    memcpy(lag->pending, out + 16 * (n - 16), 16 * 16);
  }
  static void Open(const struct fused_keys *k, uint8_t *out, const uint8_t *in, size_t n,
                   const uint8_t ctr[16], uint8_t Xi[16]) {
    runs.push_back(n);
    k->ghash->update(Xi, k->ghash_key, in, n);
    in_kernel = true;
    k->aes->ctr32(k->aes_key, out, in, n, ctr);
    in_kernel = false;
  }
  static void Reset() {
    runs.clear();
    lagged = one_block_refills = 0;
  }
};
const struct aes_impl *Sized::real;
std::vector<size_t> Sized::runs;
size_t Sized::lagged, Sized::one_block_refills;
bool Sized::in_kernel;

ENGINE_FAKES_BEGIN
const struct fused_impl kSized = {ENGINE_FAKE_KERNEL("sized", 1, Sized),
                                  .seal_lagged = Sized::SealLagged,
                                  .lag_blocks = 16,
                                  .stream_run_min = 8,
                                  .stream_tail_min = 12};
ENGINE_FAKES_END

TEST(FusedSlot, KernelsWithStreamSizesTakeUncutRunsAndPartialTails) {
  gcm_key fk, pk;
  struct aes_impl *aes8 =
      KernelKeys({1, 4, 1, 4, 2, 1, 3, 5, 6, 2, 3, 7, 3, 0, 9, 5}, &kSized, &fk, &pk);
  if (HasFailure()) return;
  // The one-block ctr32 calls counted.
  Sized::real = KeySt(&pk)->aes;
  aes8->ctr32 = Sized::Ctr32;
  std::mt19937_64 rng(31);
  Bytes nonce = RandomBytes(rng, 12), aad = RandomBytes(rng, 13);
  struct Case {
    std::vector<size_t> chunks;  // repeated
    size_t len;
    std::vector<size_t> runs;  // the sizes of the kernel runs
    size_t min_runs;
    bool tail_blocks;  // a block of key stream for each partial block
    bool lagged;       // every seal run lagged
  };
  const Case cases[] = {
      // Whole blocks, not a multiple of a batch: every run uncut.
      {{272}, 272 * 12, {17}, 12, true, false},
      // 18 blocks and 12 bytes: every whole block after the block the
      // previous chunk left partial goes to the kernel, then a block of key
      // stream for the new partial block.
      {{300}, 300 * 12, {18}, 12, true, false},
      // 16 blocks and a byte, then 15 bytes and 16 blocks: whole groups,
      // lagged, the partial block's key stream behind the pending group,
      // and the two hashed together before the next run.
      {{257, 271}, 528 * 6, {16}, 12, true, true},
      // 9 blocks and 6 bytes: below tail_min, so cut to a batch, with the
      // rest from a full buffer, as for kernels without stream sizes.
      {{150}, 150 * 12, {8}, 2, false, false},
  };
  for (const Case &c : cases) {
    Bytes pt = RandomBytes(rng, c.len), want(pt.size()), got;
    uint8_t twant[16], tgot[16];
    ASSERT_EQ(1, gcm_seal(&pk, want.data(), twant, 16, nonce.data(), 12, pt.data(), pt.size(),
                          aad.data(), aad.size()));
    // With tail_blocks, one block of key stream for each chunk that ends
    // inside a block (but the last).
    size_t tails = 0;
    for (size_t off = 0, i = 0; c.tail_blocks && off < pt.size(); i++) {
      off += std::min(pt.size() - off, c.chunks[i % c.chunks.size()]);
      if (off < pt.size() && off % 16 != 0) tails++;
    }
    for (int open = 0; open <= 1; open++) {
      const std::string what =
          "chunk " + std::to_string(c.chunks[0]) + (open ? " open" : " seal");
      Sized::Reset();
      if (!open) {
        StreamSealChunks(&fk, nonce, aad, pt, c.chunks, &got, tgot);
        EXPECT_EQ(want, got) << what;
        EXPECT_EQ(0, memcmp(twant, tgot, 16)) << what;
      } else {
        gcm_stream s;
        ASSERT_EQ(1, gcm_stream_init(&s, &fk, GCM_DECRYPT, nonce.data(), 12));
        ASSERT_EQ(1, gcm_stream_aad(&s, aad.data(), aad.size()));
        got = want;
        for (size_t off = 0, i = 0; off < got.size(); i++) {
          size_t n = std::min(c.chunks[i % c.chunks.size()], got.size() - off);
          ASSERT_EQ(1, gcm_stream_update(&s, got.data() + off, got.data() + off, n));
          off += n;
        }
        EXPECT_EQ(1, gcm_stream_finish_open(&s, twant, 16)) << what;
        EXPECT_EQ(pt, got) << what;
      }
      EXPECT_GE(Sized::runs.size(), c.min_runs) << what;
      for (size_t i = 0; i < Sized::runs.size(); i++) {
        bool expected = false;
        for (size_t r : c.runs) expected |= Sized::runs[i] == r;
        EXPECT_TRUE(expected) << what << ": run " << i << " of " << Sized::runs[i] << " blocks";
      }
      EXPECT_EQ(tails, Sized::one_block_refills) << what;
      EXPECT_EQ(!open && c.lagged ? Sized::runs.size() : 0u, Sized::lagged) << what;
    }
  }
  // Chunk sizes that move in and out of those paths: still the one-shot
  // result, sealing and opening.
  Bytes pt = RandomBytes(rng, 6000), want(pt.size()), got;
  uint8_t twant[16], tgot[16];
  ASSERT_EQ(1, gcm_seal(&pk, want.data(), twant, 16, nonce.data(), 12, pt.data(), pt.size(),
                        aad.data(), aad.size()));
  for (const std::vector<size_t> &chunks : std::vector<std::vector<size_t>>{
           {300, 13, 257, 5, 600}, {257, 16, 1}, {200, 1000, 3}, {400, 31}}) {
    StreamSealChunks(&fk, nonce, aad, pt, chunks, &got, tgot);
    EXPECT_EQ(want, got) << chunks[0];
    EXPECT_EQ(0, memcmp(twant, tgot, 16)) << chunks[0];
  }
  gcm_key_cleanup(&fk);
  gcm_key_cleanup(&pk);
}


}  // namespace
