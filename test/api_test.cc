// test/api_test.cc: the native API's contract for bad input: each misuse
// fails with its documented error and leaves the outputs zeroed.
#include <gtest/gtest.h>

#include <cstring>

#include "test_util.h"

using gcmtest::AllZero;
using gcmtest::Bytes;
using gcmtest::WithBitFlipped;

namespace {

const uint8_t kKey[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
const uint8_t kNonce[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce,
                            0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};

class ApiTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(1, gcm_key_init(&key_, kKey, 16)); }
  void TearDown() override { gcm_key_cleanup(&key_); }

  // Seals `pt` with the fixed nonce and no AAD into ct/tag.
  void Seal(const Bytes &pt, Bytes *ct, uint8_t tag[16]) {
    ct->resize(pt.size());
    ASSERT_EQ(1, gcm_seal(&key_, ct->data(), tag, 16, kNonce, 12, pt.data(),
                          pt.size(), nullptr, 0));
  }

  gcm_key key_;
};

TEST(KeyInit, RejectsBadKeyLengths) {
  gcm_key k;
  uint8_t raw[33] = {0};
  for (size_t len : {0, 1, 15, 17, 23, 25, 31, 33}) {
    memset(&k, 0xaa, sizeof(k));
    EXPECT_EQ(0, gcm_key_init(&k, raw, len)) << len;
    EXPECT_EQ(GCM_ERR_KEY_LENGTH, gcm_last_error()) << len;
    EXPECT_TRUE(AllZero(k.opaque, sizeof(k.opaque))) << "key not wiped on failure";
  }
  for (size_t len : {16, 24, 32}) {
    EXPECT_EQ(1, gcm_key_init(&k, raw, len));
    EXPECT_EQ(len, gcm_key_length(&k));
    gcm_key_cleanup(&k);
  }
}

TEST(KeyInit, RejectsNull) {
  gcm_key k;
  EXPECT_EQ(0, gcm_key_init(nullptr, kKey, 16));
  EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error());
  EXPECT_EQ(0, gcm_key_init(&k, nullptr, 16));
  EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error());
}

TEST(KeyInit, UnknownBackendNamesAreErrorsNotFallbacks) {
  gcm_key k;
  EXPECT_EQ(0, gcm_key_init_with_backends(&k, kKey, 16, "no-such-aes", nullptr));
  EXPECT_EQ(GCM_ERR_BACKEND_UNKNOWN, gcm_last_error());
  EXPECT_NE(nullptr, strstr(gcm_last_error_message(), "no-such-aes"));
  EXPECT_EQ(0, gcm_key_init_with_backends(&k, kKey, 16, nullptr, "no-such-ghash"));
  EXPECT_EQ(GCM_ERR_BACKEND_UNKNOWN, gcm_last_error());
  EXPECT_NE(nullptr, strstr(gcm_last_error_message(), "no-such-ghash"));
  EXPECT_EQ(nullptr, gcm_key_aes_backend(&k));
}

TEST(KeyInit, UnusableBackendIsAnError) {
  // Any backend listed as unusable on this CPU must be refused by name.
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    ASSERT_EQ(1, gcm_backend_get(i, &info));
    if (info.usable) continue;
    gcm_key k;
    const bool aes = info.kind == GCM_BACKEND_AES;
    const bool ghash = info.kind == GCM_BACKEND_GHASH;
    const bool fused = info.kind == GCM_BACKEND_FUSED;
    EXPECT_EQ(0, gcm_key_init_with_fused(&k, kKey, 16, aes ? info.name : nullptr,
                                         ghash ? info.name : nullptr,
                                         fused ? info.name : nullptr));
    EXPECT_EQ(GCM_ERR_BACKEND_UNUSABLE, gcm_last_error()) << info.name;
  }
}

TEST(KeyInit, DefaultIsConstantTimeAndReported) {
  gcm_key k;
  ASSERT_EQ(1, gcm_key_init(&k, kKey, 16));
  const char *aes = nullptr, *ghash = nullptr;
  ASSERT_EQ(1, gcm_default_backends(&aes, &ghash));
  EXPECT_STREQ(aes, gcm_key_aes_backend(&k));
  EXPECT_STREQ(ghash, gcm_key_ghash_backend(&k));
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    ASSERT_EQ(1, gcm_backend_get(i, &info));
    if (strcmp(info.name, aes) == 0 || strcmp(info.name, ghash) == 0) {
      EXPECT_TRUE(info.constant_time) << info.name;
      EXPECT_TRUE(info.usable) << info.name;
    }
  }
  gcm_backend_info info;
  EXPECT_EQ(0, gcm_backend_get(gcm_backend_count(), &info));
  gcm_key_cleanup(&k);
}

TEST(KeyInit, VariableTimeBackendsAreListedAndNeverDefault) {
  bool saw_4bit = false;
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    ASSERT_EQ(1, gcm_backend_get(i, &info));
    if (strcmp(info.name, "4bit") == 0) {
      saw_4bit = true;
      EXPECT_EQ(0, info.constant_time);
      EXPECT_EQ(GCM_BACKEND_GHASH, info.kind);
    }
  }
  EXPECT_TRUE(saw_4bit);
  const char *ghash = nullptr;
  ASSERT_EQ(1, gcm_default_backends(nullptr, &ghash));
  EXPECT_STRNE("4bit", ghash);
  gcm_key k;
  ASSERT_EQ(1, gcm_key_init_with_backends(&k, kKey, 16, nullptr, "4bit"));
  EXPECT_STREQ("4bit", gcm_key_ghash_backend(&k));
  gcm_key_cleanup(&k);
}

TEST(KeyCleanup, WipesEverything) {
  gcm_key k;
  const uint8_t raw32[32] = {7};
  ASSERT_EQ(1, gcm_key_init(&k, raw32, 32));
  gcm_key_cleanup(&k);
  EXPECT_TRUE(AllZero(k.opaque, sizeof(k.opaque)));
  gcm_key_cleanup(&k);  // twice is fine
  gcm_key_cleanup(nullptr);
  uint8_t out[4], tag[16];
  EXPECT_EQ(0, gcm_seal(&k, out, tag, 16, kNonce, 12, out, 0, nullptr, 0));
  EXPECT_EQ(GCM_ERR_NOT_INITIALIZED, gcm_last_error());
}

TEST_F(ApiTest, SealRejectsBadArgumentsAndZeroesOutputs) {
  Bytes pt(40, 0x55), out(40);
  uint8_t tag[16];
  auto expect_fail = [&](gcm_error err, int line) {
    EXPECT_EQ(err, gcm_last_error()) << "line " << line;
    EXPECT_TRUE(AllZero(out.data(), out.size())) << "line " << line;
    EXPECT_TRUE(AllZero(tag, sizeof(tag))) << "line " << line;
    memset(out.data(), 0xee, out.size());
    memset(tag, 0xee, sizeof(tag));
  };
  memset(out.data(), 0xee, out.size());
  memset(tag, 0xee, sizeof(tag));

  EXPECT_EQ(0, gcm_seal(&key_, out.data(), tag, 16, kNonce, 0, pt.data(), 40, nullptr, 0));
  expect_fail(GCM_ERR_NONCE_LENGTH, __LINE__);
  EXPECT_EQ(0, gcm_seal(&key_, out.data(), tag, 16, nullptr, 12, pt.data(), 40, nullptr, 0));
  expect_fail(GCM_ERR_NULL_POINTER, __LINE__);
  EXPECT_EQ(0, gcm_seal(&key_, out.data(), tag, 17, kNonce, 12, pt.data(), 40, nullptr, 0));
  EXPECT_EQ(GCM_ERR_TAG_LENGTH, gcm_last_error());
  EXPECT_TRUE(AllZero(out.data(), out.size()));
  memset(out.data(), 0xee, out.size());
  EXPECT_EQ(0, gcm_seal(&key_, out.data(), tag, 0, kNonce, 12, pt.data(), 40, nullptr, 0));
  EXPECT_EQ(GCM_ERR_TAG_LENGTH, gcm_last_error());
  EXPECT_TRUE(AllZero(out.data(), out.size()));
  memset(out.data(), 0xee, out.size());
  EXPECT_EQ(0, gcm_seal(&key_, out.data(), tag, 16, kNonce, 12, nullptr, 40, nullptr, 0));
  expect_fail(GCM_ERR_NULL_POINTER, __LINE__);
  EXPECT_EQ(0, gcm_seal(&key_, out.data(), tag, 16, kNonce, 12, pt.data(), 40, nullptr, 5));
  expect_fail(GCM_ERR_NULL_POINTER, __LINE__);
  EXPECT_EQ(0, gcm_seal(&key_, out.data(), nullptr, 16, kNonce, 12, pt.data(), 40, nullptr, 0));
  EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error());
  EXPECT_TRUE(AllZero(out.data(), out.size()));
  memset(out.data(), 0xee, out.size());
  EXPECT_EQ(0, gcm_seal(nullptr, out.data(), tag, 16, kNonce, 12, pt.data(), 40, nullptr, 0));
  expect_fail(GCM_ERR_NULL_POINTER, __LINE__);

  // Tag inside the ciphertext output.
  Bytes big(64, 0xee);
  EXPECT_EQ(0, gcm_seal(&key_, big.data(), big.data() + 30, 16, kNonce, 12, pt.data(), 40,
                        nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());
  EXPECT_TRUE(AllZero(big.data(), 46));
}

TEST_F(ApiTest, PartialOverlapRefusedInPlaceAccepted) {
  Bytes buf(100);
  for (size_t i = 0; i < buf.size(); i++) buf[i] = static_cast<uint8_t>(i);
  uint8_t tag[16];
  // out starts one byte into in: refused, and out is zeroed.
  EXPECT_EQ(0, gcm_seal(&key_, buf.data() + 1, tag, 16, kNonce, 12, buf.data(), 64, nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());
  EXPECT_TRUE(AllZero(buf.data() + 1, 64));
  // out overlapping the AAD.
  Bytes pt(32, 7), out(64);
  EXPECT_EQ(0, gcm_seal(&key_, out.data(), tag, 16, kNonce, 12, pt.data(), 32, out.data() + 16, 8));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());
  // out overlapping the nonce.
  Bytes nonce_and_out(64, 1);
  EXPECT_EQ(0, gcm_seal(&key_, nonce_and_out.data() + 4, tag, 16, nonce_and_out.data(), 12,
                        pt.data(), 32, nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());

  // In place equals out of place.
  Bytes expect_ct(32);
  uint8_t expect_tag[16];
  ASSERT_EQ(1, gcm_seal(&key_, expect_ct.data(), expect_tag, 16, kNonce, 12, pt.data(), 32,
                        nullptr, 0));
  Bytes inplace = pt;
  ASSERT_EQ(1, gcm_seal(&key_, inplace.data(), tag, 16, kNonce, 12, inplace.data(), 32,
                        nullptr, 0));
  EXPECT_EQ(expect_ct, inplace);
  EXPECT_EQ(0, memcmp(tag, expect_tag, 16));
  ASSERT_EQ(1, gcm_open(&key_, inplace.data(), kNonce, 12, inplace.data(), 32, tag, 16,
                        nullptr, 0));
  EXPECT_EQ(pt, inplace);
}

TEST_F(ApiTest, OpenRejectsEveryFlippedBitAndZeroesOutput) {
  Bytes pt(37);
  for (size_t i = 0; i < pt.size(); i++) pt[i] = static_cast<uint8_t>(3 * i);
  const uint8_t aad[9] = {9, 8, 7, 6, 5, 4, 3, 2, 1};
  Bytes ct(pt.size());
  uint8_t tag[16];
  ASSERT_EQ(1, gcm_seal(&key_, ct.data(), tag, 16, kNonce, 12, pt.data(), pt.size(), aad, 9));
  Bytes out(pt.size());
  ASSERT_EQ(1, gcm_open(&key_, out.data(), kNonce, 12, ct.data(), ct.size(), tag, 16, aad, 9));
  EXPECT_EQ(pt, out);

  auto try_open = [&](const uint8_t *nonce, const Bytes &c, const uint8_t *t, const uint8_t *a) {
    Bytes o(c.size(), 0xee);
    int ok = gcm_open(&key_, o.data(), nonce, 12, c.data(), c.size(), t, 16, a, 9);
    EXPECT_EQ(0, ok);
    EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
    EXPECT_TRUE(AllZero(o.data(), o.size()));
  };
  for (size_t bit = 0; bit < ct.size() * 8; bit++)
    try_open(kNonce, WithBitFlipped(ct, bit), tag, aad);
  for (size_t bit = 0; bit < 128; bit++)
    try_open(kNonce, ct, WithBitFlipped(tag, 16, bit).data(), aad);
  for (size_t bit = 0; bit < 72; bit++)
    try_open(kNonce, ct, tag, WithBitFlipped(aad, 9, bit).data());
  for (size_t bit = 0; bit < 96; bit++)
    try_open(WithBitFlipped(kNonce, 12, bit).data(), ct, tag, aad);
  // Truncated tags: a prefix verifies, one flipped bit does not.
  for (size_t tl = 1; tl <= 16; tl++) {
    Bytes o(ct.size());
    EXPECT_EQ(1, gcm_open(&key_, o.data(), kNonce, 12, ct.data(), ct.size(), tag, tl, aad, 9));
    uint8_t t[16];
    memcpy(t, tag, 16);
    t[tl - 1] ^= 0x80;
    EXPECT_EQ(0, gcm_open(&key_, o.data(), kNonce, 12, ct.data(), ct.size(), t, tl, aad, 9));
    EXPECT_TRUE(AllZero(o.data(), o.size()));
  }
  // A failed in-place open leaves zeros, not plaintext.
  Bytes c = ct;
  uint8_t bad[16];
  memcpy(bad, tag, 16);
  bad[0] ^= 1;
  EXPECT_EQ(0, gcm_open(&key_, c.data(), kNonce, 12, c.data(), c.size(), bad, 16, aad, 9));
  EXPECT_TRUE(AllZero(c.data(), c.size()));
}

TEST_F(ApiTest, OpenRejectsBadArguments) {
  Bytes ct(20, 1), out(20, 0xee);
  uint8_t tag[16] = {0};
  EXPECT_EQ(0, gcm_open(&key_, out.data(), kNonce, 12, ct.data(), 20, tag, 0, nullptr, 0));
  EXPECT_EQ(GCM_ERR_TAG_LENGTH, gcm_last_error());
  EXPECT_TRUE(AllZero(out.data(), 20));
  memset(out.data(), 0xee, 20);
  EXPECT_EQ(0, gcm_open(&key_, out.data(), kNonce, 12, ct.data(), 20, tag, 17, nullptr, 0));
  EXPECT_EQ(GCM_ERR_TAG_LENGTH, gcm_last_error());
  EXPECT_EQ(0, gcm_open(&key_, out.data(), kNonce, 0, ct.data(), 20, tag, 16, nullptr, 0));
  EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());
  EXPECT_EQ(0, gcm_open(&key_, out.data(), kNonce, 12, ct.data(), 20, nullptr, 16, nullptr, 0));
  EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error());
  // Output overlapping the tag.
  Bytes buf(64, 3);
  EXPECT_EQ(0, gcm_open(&key_, buf.data(), kNonce, 12, ct.data(), 20, buf.data() + 10, 16,
                        nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());
  EXPECT_TRUE(AllZero(buf.data(), 20));
}

TEST_F(ApiTest, LengthLimitsAreEnforcedWithoutTouchingMemory) {
  // Lengths over the GCM limits are refused before any byte is read or
  // written, so fake pointers with huge lengths are safe to pass here.
  uint8_t tag[16] = {0};
  uint8_t small[16] = {0};
  const size_t over = static_cast<size_t>(GCM_MAX_DATA_LEN) + 1;
  if (sizeof(size_t) >= 8) {
    // in/out are distinct, never-dereferenced addresses.
    uint8_t *fake_in = reinterpret_cast<uint8_t *>(static_cast<uintptr_t>(uint64_t{1} << 40));
    uint8_t *fake_out = reinterpret_cast<uint8_t *>(static_cast<uintptr_t>(uint64_t{1} << 41));
    EXPECT_EQ(0, gcm_seal(&key_, fake_out, tag, 16, kNonce, 12, fake_in, over, nullptr, 0));
    EXPECT_EQ(GCM_ERR_TOO_LONG, gcm_last_error());
    EXPECT_EQ(0, gcm_open(&key_, fake_out, kNonce, 12, fake_in, over, tag, 16, nullptr, 0));
    EXPECT_EQ(GCM_ERR_TOO_LONG, gcm_last_error());
    const size_t aad_over = static_cast<size_t>(GCM_MAX_AAD_LEN) + 1;
    EXPECT_EQ(0, gcm_seal(&key_, small, tag, 16, kNonce, 12, small, 0, fake_in, aad_over));
    EXPECT_EQ(GCM_ERR_TOO_LONG, gcm_last_error());
  }
  // Streaming: one update longer than the limit is refused (never read),
  // and the stream stays failed afterwards.
  // (A 32-bit size_t cannot express a length over the limit in one call.)
  if (sizeof(size_t) < 8) return;
  gcm_stream s;
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  EXPECT_EQ(0, gcm_stream_update(&s, small, small, SIZE_MAX));
  EXPECT_EQ(GCM_ERR_TOO_LONG, gcm_last_error());
  EXPECT_EQ(0, gcm_stream_update(&s, small, small, 1));
  EXPECT_EQ(GCM_ERR_STATE, gcm_last_error()) << "a failed stream must stay failed";
}

TEST_F(ApiTest, StreamStateMachine) {
  gcm_stream s;
  uint8_t buf[32] = {0}, tag[16];
  // Uninitialised (zeroed) stream.
  memset(&s, 0, sizeof(s));
  EXPECT_EQ(0, gcm_stream_aad(&s, buf, 1));
  EXPECT_EQ(GCM_ERR_NOT_INITIALIZED, gcm_last_error());
  // Bad direction, empty nonce.
  EXPECT_EQ(0, gcm_stream_init(&s, &key_, static_cast<gcm_direction>(7), kNonce, 12));
  EXPECT_EQ(GCM_ERR_INVALID_ARGUMENT, gcm_last_error());
  EXPECT_EQ(0, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 0));
  EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());
  // AAD after data.
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  ASSERT_EQ(1, gcm_stream_update(&s, buf, buf, 5));
  EXPECT_EQ(0, gcm_stream_aad(&s, buf, 1));
  EXPECT_EQ(GCM_ERR_STATE, gcm_last_error());
  // Finish twice; data after finish.
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  ASSERT_EQ(1, gcm_stream_finish_seal(&s, tag, 16));
  EXPECT_EQ(0, gcm_stream_finish_seal(&s, tag, 16));
  EXPECT_EQ(GCM_ERR_STATE, gcm_last_error());
  EXPECT_EQ(0, gcm_stream_update(&s, buf, buf, 1));
  EXPECT_EQ(GCM_ERR_STATE, gcm_last_error());
  // Wrong finish for the direction.
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  EXPECT_EQ(0, gcm_stream_finish_open(&s, tag, 16));
  EXPECT_EQ(GCM_ERR_STATE, gcm_last_error());
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_DECRYPT, kNonce, 12));
  EXPECT_EQ(0, gcm_stream_finish_seal(&s, tag, 16));
  EXPECT_EQ(GCM_ERR_STATE, gcm_last_error());
  // Partial overlap in update.
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  EXPECT_EQ(0, gcm_stream_update(&s, buf + 1, buf, 16));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());
  EXPECT_TRUE(AllZero(buf + 1, 16));
  // Key cleaned during the message.
  gcm_key k2;
  ASSERT_EQ(1, gcm_key_init(&k2, kKey, 16));
  ASSERT_EQ(1, gcm_stream_init(&s, &k2, GCM_ENCRYPT, kNonce, 12));
  gcm_key_cleanup(&k2);
  EXPECT_EQ(0, gcm_stream_update(&s, buf, buf, 4));
  EXPECT_EQ(GCM_ERR_NOT_INITIALIZED, gcm_last_error());
  gcm_stream_cleanup(&s);
  EXPECT_TRUE(AllZero(s.opaque, sizeof(s.opaque)));
}

TEST(Errors, EveryCodeHasAString) {
  for (int e = GCM_OK; e <= GCM_ERR_RANDOM; e++) {  // GCM_ERR_RANDOM is the last code
    const char *msg = gcm_error_string(static_cast<gcm_error>(e));
    ASSERT_NE(nullptr, msg);
    EXPECT_STRNE("unknown error", msg) << e;
  }
  EXPECT_NE(nullptr, gcm_version());
}

}  // namespace
