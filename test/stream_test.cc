// test/stream_test.cc: every usable backend pair, through the two passes
// and through each fused kernel that fits it, against the default pair on
// random inputs, and streaming (random chunking) against one-shot.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "test_util.h"

using gcmtest::Bytes;
using gcmtest::RandomBytes;

namespace {

using gcmtest::Triple;

class BackendPairTest : public ::testing::TestWithParam<Triple> {
 protected:
  void InitKey(gcm_key *k, const Bytes &raw) {
    ASSERT_EQ(1, gcm_key_init_with_fused(k, raw.data(), raw.size(),
                                         GetParam().aes.c_str(), GetParam().ghash.c_str(),
                                         GetParam().fused.c_str()))
        << gcm_last_error_message();
    ASSERT_STREQ(GetParam().fused.c_str(), gcm_key_fused_backend(k));
  }
};

// One message sealed by the pair under test and by the default pair.
void SealBoth(const gcm_key *k, const gcm_key *ref, const Bytes &nonce, const Bytes &aad,
              const Bytes &pt, size_t tag_len, const std::string &what) {
  Bytes ct(pt.size()), ref_ct(pt.size());
  uint8_t tag[16], ref_tag[16];
  ASSERT_EQ(1, gcm_seal(k, ct.data(), tag, tag_len, nonce.data(), nonce.size(), pt.data(),
                        pt.size(), aad.data(), aad.size()));
  ASSERT_EQ(1, gcm_seal(ref, ref_ct.data(), ref_tag, tag_len, nonce.data(), nonce.size(),
                        pt.data(), pt.size(), aad.data(), aad.size()));
  ASSERT_EQ(ref_ct, ct) << what;
  ASSERT_EQ(0, memcmp(tag, ref_tag, tag_len)) << what;
  Bytes back(pt.size());
  ASSERT_EQ(1, gcm_open(k, back.data(), nonce.data(), nonce.size(), ct.data(), ct.size(), tag,
                        tag_len, aad.data(), aad.size()))
      << what;
  ASSERT_EQ(pt, back) << what;
}

TEST_P(BackendPairTest, AgreesWithDefaultOnAllLengthsUpTo1024) {
  std::mt19937_64 rng(1234);
  for (size_t key_len : {16, 24, 32}) {
    Bytes raw = RandomBytes(rng, key_len);
    gcm_key k, ref;
    InitKey(&k, raw);
    ASSERT_EQ(1, gcm_key_init(&ref, raw.data(), raw.size()));
    for (size_t len = 0; len <= 1024; len++) {
      Bytes nonce = RandomBytes(rng, (len % 7 == 0) ? 1 + rng() % 40 : 12);
      Bytes aad = RandomBytes(rng, rng() % 70);
      Bytes pt = RandomBytes(rng, len);
      SealBoth(&k, &ref, nonce, aad, pt, 1 + len % 16,
               "key_len=" + std::to_string(key_len) + " len=" + std::to_string(len));
      if (HasFatalFailure()) return;
    }
    gcm_key_cleanup(&k);
    gcm_key_cleanup(&ref);
  }
}

TEST_P(BackendPairTest, AgreesWithDefaultOnLargeMessages) {
  std::mt19937_64 rng(99);
  Bytes raw = RandomBytes(rng, 16);
  gcm_key k, ref;
  InitKey(&k, raw);
  ASSERT_EQ(1, gcm_key_init(&ref, raw.data(), raw.size()));
  for (size_t len : {65536 + 1, 100000, 262144 + 15}) {
    SealBoth(&k, &ref, RandomBytes(rng, 12), RandomBytes(rng, 1000), RandomBytes(rng, len), 16,
             "len=" + std::to_string(len));
  }
  gcm_key_cleanup(&k);
  gcm_key_cleanup(&ref);
}

// Streams `pt` through a stream in random chunks; returns ct and tag.
void StreamSeal(const gcm_key *k, const Bytes &nonce, const Bytes &aad, const Bytes &pt,
                std::mt19937_64 &rng, size_t max_chunk, Bytes *ct, uint8_t tag[16]) {
  gcm_stream s;
  ASSERT_EQ(1, gcm_stream_init(&s, k, GCM_ENCRYPT, nonce.data(), nonce.size()));
  size_t off = 0;
  while (off < aad.size()) {
    size_t n = std::min<size_t>(aad.size() - off, rng() % (max_chunk + 1));
    ASSERT_EQ(1, gcm_stream_aad(&s, aad.data() + off, n));
    off += n;
  }
  ct->assign(pt.size(), 0);
  off = 0;
  while (off < pt.size()) {
    size_t n = std::min<size_t>(pt.size() - off, rng() % (max_chunk + 1));
    ASSERT_EQ(1, gcm_stream_update(&s, ct->data() + off, pt.data() + off, n));
    off += n;
  }
  ASSERT_EQ(1, gcm_stream_finish_seal(&s, tag, 16));
  gcm_stream_cleanup(&s);
}

TEST_P(BackendPairTest, StreamingEqualsOneShotForAnyChunking) {
  std::mt19937_64 rng(7);
  Bytes raw = RandomBytes(rng, 32);
  gcm_key k;
  InitKey(&k, raw);
  for (int iter = 0; iter < 300; iter++) {
    size_t len = (iter < 150) ? rng() % 300 : rng() % 5000;
    size_t max_chunk = (iter % 3 == 0) ? 1 : (iter % 3 == 1) ? 17 : 700;
    Bytes nonce = RandomBytes(rng, iter % 5 == 0 ? 1 + rng() % 30 : 12);
    Bytes aad = RandomBytes(rng, rng() % 100);
    Bytes pt = RandomBytes(rng, len);

    Bytes expect_ct(len);
    uint8_t expect_tag[16];
    ASSERT_EQ(1, gcm_seal(&k, expect_ct.data(), expect_tag, 16, nonce.data(), nonce.size(),
                          pt.data(), len, aad.data(), aad.size()));
    Bytes ct;
    uint8_t tag[16];
    StreamSeal(&k, nonce, aad, pt, rng, max_chunk, &ct, tag);
    ASSERT_EQ(expect_ct, ct) << "iter " << iter;
    ASSERT_EQ(0, memcmp(tag, expect_tag, 16)) << "iter " << iter;

    // Decrypt in random chunks, in place.
    gcm_stream s;
    ASSERT_EQ(1, gcm_stream_init(&s, &k, GCM_DECRYPT, nonce.data(), nonce.size()));
    ASSERT_EQ(1, gcm_stream_aad(&s, aad.data(), aad.size()));
    size_t off = 0;
    while (off < len) {
      size_t n = std::min<size_t>(len - off, rng() % (max_chunk + 1));
      ASSERT_EQ(1, gcm_stream_update(&s, ct.data() + off, ct.data() + off, n));
      off += n;
    }
    ASSERT_EQ(pt, ct);
    ASSERT_EQ(1, gcm_stream_finish_open(&s, tag, 16));
    // And a wrong tag is refused by the stream too.
    ASSERT_EQ(1, gcm_stream_init(&s, &k, GCM_DECRYPT, nonce.data(), nonce.size()));
    ASSERT_EQ(1, gcm_stream_aad(&s, aad.data(), aad.size()));
    ASSERT_EQ(1, gcm_stream_update(&s, ct.data(), expect_ct.data(), len));
    tag[iter % 16] ^= 4;
    ASSERT_EQ(0, gcm_stream_finish_open(&s, tag, 16));
    ASSERT_EQ(GCM_ERR_AUTH, gcm_last_error());
  }
  gcm_key_cleanup(&k);
}

TEST_P(BackendPairTest, OneByteChunks) {
  std::mt19937_64 rng(11);
  Bytes raw = RandomBytes(rng, 16);
  gcm_key k;
  InitKey(&k, raw);
  Bytes nonce = RandomBytes(rng, 12), aad = RandomBytes(rng, 33), pt = RandomBytes(rng, 531);
  Bytes expect_ct(pt.size());
  uint8_t expect_tag[16];
  ASSERT_EQ(1, gcm_seal(&k, expect_ct.data(), expect_tag, 16, nonce.data(), 12, pt.data(),
                        pt.size(), aad.data(), aad.size()));
  Bytes ct;
  uint8_t tag[16];
  StreamSeal(&k, nonce, aad, pt, rng, 1, &ct, tag);  // chunks of 0 or 1 byte
  EXPECT_EQ(expect_ct, ct);
  EXPECT_EQ(0, memcmp(tag, expect_tag, 16));
  gcm_key_cleanup(&k);
}

INSTANTIATE_TEST_SUITE_P(AllPairs, BackendPairTest,
                         ::testing::ValuesIn(gcmtest::UsableBackendTriples()),
                         [](const ::testing::TestParamInfo<Triple> &info) {
                           return gcmtest::TripleName(info.param);
                         });

}  // namespace
