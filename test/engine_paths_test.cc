// test/engine_paths_test.cc: every path of the stream engine, for every
// (AES, GHASH, fused-or-none) triple: streaming equals one-shot for runs
// of whole-block chunks of every length 16..256, for chunk sequences that
// cross the key stream batch in every position, for long chunks of every
// length, around the key stream buffer's end, for the counter wrapping
// inside a run, and the short one-shot path against the streaming path
// around its limits.
#include <gtest/gtest.h>

#include <algorithm>
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

using enginetest::StreamSealChunks;
using gcmtest::Bytes;
using gcmtest::RandomBytes;
using gcmtest::Triple;

namespace {

class ModePaths : public ::testing::TestWithParam<Triple> {
 protected:
  void SetUp() override {
    std::mt19937_64 rng(77);
    Bytes raw = RandomBytes(rng, 16);
    ASSERT_EQ(1, gcm_key_init_with_fused(&key_, raw.data(), raw.size(), GetParam().aes.c_str(),
                                         GetParam().ghash.c_str(), GetParam().fused.c_str()))
        << gcm_last_error_message();
  }
  void TearDown() override { gcm_key_cleanup(&key_); }

  // Seals pt one-shot and streamed in `chunks`, expects the same result;
  // with `open`, also opens the one-shot result in place through the same
  // chunks and expects pt back and the tag accepted.
  void Check(const Bytes &nonce, const Bytes &aad, const Bytes &pt,
             const std::vector<size_t> &chunks, const std::string &what, bool open = false) {
    Bytes a(pt.size()), b;
    uint8_t ta[16], tb[16];
    ASSERT_EQ(1, gcm_seal(&key_, a.data(), ta, 16, nonce.data(), nonce.size(), pt.data(),
                          pt.size(), aad.data(), aad.size()));
    StreamSealChunks(&key_, nonce, aad, pt, chunks, &b, tb);
    ASSERT_EQ(a, b) << what;
    ASSERT_EQ(0, memcmp(ta, tb, 16)) << what;
    if (!open) return;
    gcm_stream s;
    ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_DECRYPT, nonce.data(), nonce.size()));
    ASSERT_EQ(1, gcm_stream_aad(&s, aad.data(), aad.size()));
    for (size_t off = 0, i = 0; off < a.size(); i++) {
      size_t n = std::min(a.size() - off, chunks[i % chunks.size()]);
      ASSERT_EQ(1, gcm_stream_update(&s, a.data() + off, a.data() + off, n));
      off += n;
    }
    ASSERT_EQ(1, gcm_stream_finish_open(&s, ta, 16)) << what << " (open)";
    ASSERT_EQ(pt, a) << what << " (open)";
  }

  gcm_key key_;
};

TEST_P(ModePaths, WholeBlockChunksOfEveryLength) {
  std::mt19937_64 rng(1);
  Bytes nonce = RandomBytes(rng, 12), aad = RandomBytes(rng, 13);
  Bytes pt = RandomBytes(rng, 3000);
  for (size_t len = 16; len <= 256; len += 16) {
    Check(nonce, aad, pt, {len}, "chunk " + std::to_string(len));
    if (HasFatalFailure()) return;
  }
}

TEST_P(ModePaths, ChunksCrossingTheBatchInEveryPosition) {
  // A first chunk of every length up to two widest batches (32 blocks) and
  // a byte, then whole-block chunks of a few lengths: the whole-block runs
  // start at every position of the buffered key stream.
  std::mt19937_64 rng(2);
  Bytes nonce = RandomBytes(rng, 12), aad = RandomBytes(rng, 20);
  Bytes pt = RandomBytes(rng, 1500);
  for (size_t first = 1; first <= 32 * 16 + 1; first++) {
    for (size_t then : {16, 48, 128, 272}) {
      Check(nonce, aad, pt, {first, then, then, then, then, 7, then},
            "first " + std::to_string(first) + " then " + std::to_string(then));
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(ModePaths, LongChunksOfEveryLength) {
  // Chunks from below the direct-run thresholds (8 blocks for a kernel
  // that declares stream sizes, 16 otherwise) to past two buffers, every
  // byte length up to 25 blocks, then every 7th. Without stream sizes the
  // run goes direct cut down to whole batches, the rest of it and any
  // partial block come from the buffer, and the next chunk starts inside
  // the buffered key stream; with them the run goes uncut and a partial
  // block behind a long enough run gets a key stream block of its own,
  // which the next chunk finishes before its own run. Every third length
  // is opened too. (Kept small: the qemu tier tests run it too.)
  std::mt19937_64 rng(4);
  Bytes nonce = RandomBytes(rng, 12), aad = RandomBytes(rng, 13);
  Bytes pt = RandomBytes(rng, 1700);
  for (size_t len = 120; len <= 800; len += len < 400 ? 1 : 7) {
    Check(nonce, aad, pt, {len}, "chunk " + std::to_string(len), len % 3 == 0);
    if (HasFatalFailure()) return;
  }
}

TEST_P(ModePaths, KeyStreamBufferEdges) {
  // The stream's key stream buffer (24 blocks) doubles as its hash buffer:
  // the AAD's last partial block is hashed from the tag mask's slot, and
  // the length block joins the last run only when it fits behind it. Data
  // ending at every position around the buffer's end (the first buffer
  // holds 23 blocks after the tag mask, later ones 24), AAD of several
  // lengths, and chunkings that land exactly on the end or straddle it.
  std::mt19937_64 rng(3);
  Bytes nonce = RandomBytes(rng, 12), pt = RandomBytes(rng, 2 * 384 + 64);
  for (size_t aad_len : {0, 1, 13, 16, 17, 40}) {
    Bytes aad = RandomBytes(rng, aad_len);
    for (size_t len = 0; len <= pt.size(); len += (len % 384 > 340 || len % 384 < 20) ? 1 : 29) {
      Bytes msg(pt.begin(), pt.begin() + len);
      for (const std::vector<size_t> &chunks :
           std::vector<std::vector<size_t>>{{7}, {16}, {368}, {368, 384}, {383, 1}, {5000}}) {
        Check(nonce, aad, msg, chunks,
              "aad " + std::to_string(aad_len) + " len " + std::to_string(len) + " chunk " +
                  std::to_string(chunks[0]));
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST_P(ModePaths, CounterWrapsInsideARun) {
  // The 32-bit counter starts just below 2^32 and wraps inside the bulk or
  // fused run; the result must equal the two-pass key on the same pair fed
  // byte by byte (buffered key stream only, no bulk path).
  gcm_key plain;
  std::mt19937_64 rng(77);
  Bytes raw = RandomBytes(rng, 16);
  ASSERT_EQ(1, gcm_key_init_with_fused(&plain, raw.data(), raw.size(), GetParam().aes.c_str(),
                                       GetParam().ghash.c_str(), "none"));
  Bytes pt = RandomBytes(rng, 4096 + 5);
  // A first chunk of 3 bytes leaves the rest unaligned to the key stream; one
  // of 16 leaves it aligned, so the buffered blocks are given back (the
  // counter steps back, across the wrap for 0xffffffff) before the run.
  for (size_t first : {3, 16})
  for (uint32_t start : {0xfffffff0u, 0xffffff00u, 0xffffffffu}) {
    Bytes a(pt.size()), b(pt.size());
    uint8_t ta[16], tb[16];
    const gcm_key *keys[2] = {&key_, &plain};
    Bytes *outs[2] = {&a, &b};
    uint8_t *tags[2] = {ta, tb};
    for (int i = 0; i < 2; i++) {
      struct gcm_stream_st s;
      uint8_t nonce[12] = {9};
      gcm_mode_start(&s, gcm_key_placed(keys[i]), 1, nonce,
                     12, UINT64_MAX);
      // Wind the counter forward: the key stream buffered so far is dropped
      // and the next block uses counter `start`.
      store_be32(s.ctr + 12, start);
      s.ks_pos = s.ks_len = 0;
      gcm_mode_aad(&s, pt.data(), 13);
      if (i == 0) {
        gcm_mode_crypt(&s, outs[i]->data(), pt.data(), first);
        gcm_mode_crypt(&s, outs[i]->data() + first, pt.data() + first, pt.size() - first);
      } else {
        // The reference: byte by byte, all on buffered key stream.
        for (size_t j = 0; j < pt.size(); j++) gcm_mode_crypt(&s, &(*outs[i])[j], &pt[j], 1);
      }
      gcm_mode_tag(&s, tags[i]);
    }
    EXPECT_EQ(a, b) << std::hex << start << " first " << first;
    EXPECT_EQ(0, memcmp(ta, tb, 16)) << std::hex << start << " first " << first;
  }
  gcm_key_cleanup(&plain);
}

TEST_P(ModePaths, ShortOneShotAroundItsLimits) {
  // One-shot messages on both sides of the short path's limits (256 bytes
  // of data, 96 of AAD, 96-bit nonces) against 1-byte streaming, sealing
  // and opening, in place too.
  std::mt19937_64 rng(3);
  for (size_t aad_len : {0, 1, 13, 16, 95, 96, 97, 200}) {
    for (size_t len = 0; len <= 300; len += (len < 20 || (len > 230 && len < 280)) ? 1 : 13) {
      Bytes nonce = RandomBytes(rng, len % 11 == 0 ? 8 : 12);
      Bytes aad = RandomBytes(rng, aad_len), pt = RandomBytes(rng, len);
      const std::string what = "len " + std::to_string(len) + " aad " + std::to_string(aad_len);
      Check(nonce, aad, pt, {1}, what);
      if (HasFatalFailure()) return;
      Bytes ct(len);
      uint8_t tag[16];
      ASSERT_EQ(1, gcm_seal(&key_, ct.data(), tag, 16, nonce.data(), nonce.size(), pt.data(),
                            len, aad.data(), aad.size()));
      Bytes buf = ct;
      ASSERT_EQ(1, gcm_open(&key_, buf.data(), nonce.data(), nonce.size(), buf.data(), len,
                            tag, 16, aad.data(), aad.size()))
          << what;
      ASSERT_EQ(pt, buf) << what;
      buf = pt;
      uint8_t tag2[16];
      ASSERT_EQ(1, gcm_seal(&key_, buf.data(), tag2, 16, nonce.data(), nonce.size(), buf.data(),
                            len, aad.data(), aad.size()));
      ASSERT_EQ(ct, buf) << what;
      ASSERT_EQ(0, memcmp(tag, tag2, 16)) << what;
      if (len > 0) {
        buf = ct;
        buf[len / 2] ^= 1;
        ASSERT_EQ(0, gcm_open(&key_, buf.data(), nonce.data(), nonce.size(), buf.data(), len,
                              tag, 16, aad.data(), aad.size()));
        ASSERT_TRUE(gcmtest::AllZero(buf.data(), len)) << what;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, ModePaths, ::testing::ValuesIn(gcmtest::UsableBackendTriples()),
                         [](const ::testing::TestParamInfo<Triple> &info) {
                           return gcmtest::TripleName(info.param);
                         });

}  // namespace
