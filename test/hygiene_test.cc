// test/hygiene_test.cc: key material does not outlive its object.
//
// After gcm_key_cleanup, gcm_stream_cleanup and EVP_AEAD_CTX_cleanup every
// byte of the object is zero (the native key has its own test in
// api_test.cc, KeyCleanup.WipesEverything), and a finished or failed
// stream keeps no key stream, hash state or tag mask.
//
// The wipes happen inside the library (crypto/util.c: gcmi_secure_wipe, a memset
// followed by an empty asm statement that claims to read the memory), in
// another translation unit than these tests, so the compiler building this
// file cannot drop them; the library's own compiler cannot either, because
// of the asm barrier. These tests run in the Release build like every other
// suite. The case where a wipe is most at risk, a store right before the
// memory is freed (EVP_AEAD_CTX_free), is checked by test/no_alloc.c, which
// inspects the block when free() receives it.
//
// What these tests cannot see: copies of secrets that gcm_seal and
// gcm_open leave in their own stack frames. gcm_seal and gcm_open keep
// their whole per-message state (counter, key stream, running GHASH value,
// tag mask E(K, J0)) in one local struct and wipe it with gcmi_secure_wipe
// before returning, and gcm_open wipes its expected tag; registers and
// spill slots of the AES and GHASH backends are not wiped (as in other
// libraries: doing so portably needs compiler support).
#include <openssl/aead.h>

#include <gcm/gcm.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <random>

#include "../crypto/gcm/mode.h"
#include "../crypto/gcm/placement.h"
#include "test_util.h"

using gcmtest::AllZero;
using gcmtest::Bytes;
using gcmtest::RandomBytes;

namespace {

const uint8_t kNonce[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce,
                            0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};

const gcm_stream_st *Internal(const gcm_stream &s) {
  return gcm_stream_place(const_cast<gcm_stream *>(&s));
}

// A stream holding everything a stream can hold: AAD and data in partial
// blocks, buffered key stream.
void FillStream(gcm_stream *s, const gcm_key *k, gcm_direction dir) {
  uint8_t buf[37] = {1, 2, 3};
  ASSERT_EQ(1, gcm_stream_init(s, k, dir, kNonce, 12));
  ASSERT_EQ(1, gcm_stream_aad(s, buf, 5));
  ASSERT_EQ(1, gcm_stream_update(s, buf, buf, sizeof(buf)));
  ASSERT_FALSE(AllZero(Internal(*s)->ks, sizeof(Internal(*s)->ks)));
  ASSERT_FALSE(AllZero(Internal(*s)->tag_mask, 16));
}

// After the stream has ended, only the placement byte, the marker, the key
// pointer and the phase may be non-zero.
bool OnlyBookkeepingLeft(const gcm_stream &s) {
  gcm_stream copy = s;
  gcm_stream_st *st = gcm_stream_place(&copy);
  st->magic = 0;
  st->key = nullptr;
  st->phase = 0;
  copy.opaque[0] = 0;
  return AllZero(copy.opaque, sizeof(copy.opaque));
}

TEST(Hygiene, StreamCleanupWipesEverything) {
  const uint8_t raw[16] = {7};
  gcm_key key;
  ASSERT_EQ(1, gcm_key_init(&key, raw, 16));
  for (gcm_direction dir : {GCM_ENCRYPT, GCM_DECRYPT}) {
    gcm_stream s;
    memset(&s, 0xa5, sizeof(s));  // also the bytes the stream never uses
    FillStream(&s, &key, dir);
    gcm_stream_cleanup(&s);
    EXPECT_TRUE(AllZero(s.opaque, sizeof(s.opaque))) << dir;
  }
  gcm_key_cleanup(&key);
}

TEST(Hygiene, FinishedAndFailedStreamsKeepNoSecrets) {
  const uint8_t raw[16] = {7};
  gcm_key key;
  ASSERT_EQ(1, gcm_key_init(&key, raw, 16));
  uint8_t tag[16], buf[4] = {0};
  gcm_stream s;

  FillStream(&s, &key, GCM_ENCRYPT);  // finished
  ASSERT_EQ(1, gcm_stream_finish_seal(&s, tag, 16));
  EXPECT_TRUE(OnlyBookkeepingLeft(s));

  FillStream(&s, &key, GCM_DECRYPT);  // failed tag check
  memset(tag, 0, sizeof(tag));
  ASSERT_EQ(0, gcm_stream_finish_open(&s, tag, 16));
  EXPECT_TRUE(OnlyBookkeepingLeft(s));

  FillStream(&s, &key, GCM_ENCRYPT);  // failed call: AAD after data
  ASSERT_EQ(0, gcm_stream_aad(&s, buf, 1));
  EXPECT_TRUE(OnlyBookkeepingLeft(s));

  FillStream(&s, &key, GCM_ENCRYPT);  // failed call: overlap
  uint8_t over[20] = {0};
  ASSERT_EQ(0, gcm_stream_update(&s, over + 1, over, 16));
  EXPECT_TRUE(OnlyBookkeepingLeft(s));
  gcm_stream_cleanup(&s);
  gcm_key_cleanup(&key);
}

TEST(Hygiene, NativeKeyFailedInitLeavesZeros) {
  // gcm_key_init promises a zeroed key on every failure, also when the
  // failure is the backend name, found after the length checks.
  const uint8_t raw[16] = {7};
  gcm_key k;
  memset(&k, 0xa5, sizeof(k));
  EXPECT_EQ(0, gcm_key_init_with_backends(&k, raw, 16, "no-such-aes", nullptr));
  EXPECT_TRUE(AllZero(k.opaque, sizeof(k.opaque)));
  memset(&k, 0xa5, sizeof(k));
  EXPECT_EQ(0, gcm_key_init_with_backends(&k, raw, 16, nullptr, "no-such-ghash"));
  EXPECT_TRUE(AllZero(k.opaque, sizeof(k.opaque)));
  // Re-initialising a live key replaces all of it: no bytes of the old
  // schedule survive next to the new one (sizes differ with key length).
  gcm_key a, b;
  const uint8_t raw32[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  ASSERT_EQ(1, gcm_key_init(&a, raw32, 32));
  ASSERT_EQ(1, gcm_key_init(&a, raw, 16));
  memset(&b, 0, sizeof(b));
  ASSERT_EQ(1, gcm_key_init(&b, raw, 16));
  EXPECT_EQ(0, memcmp(&a, &b, sizeof(a)));
  gcm_key_cleanup(&a);
  gcm_key_cleanup(&b);
}

// Seals twice (so the TLS AEADs hold nonce state: for TLS 1.3 the mask,
// which is derived from the secret IV) and cleans up.
void SealTwiceAndCleanUp(EVP_AEAD_CTX *ctx, const EVP_AEAD *aead,
                         std::mt19937_64 &rng) {
  Bytes raw = RandomBytes(rng, EVP_AEAD_key_length(aead));
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx, aead, raw.data(), raw.size(), 0, nullptr));
  uint8_t nonce[12] = {1, 2, 3, 4, 0x11, 0x22, 0x33, 0x44,
                       0x55, 0x66, 0x77, 0x88};
  uint8_t out[32];
  size_t len;
  ASSERT_TRUE(EVP_AEAD_CTX_seal(ctx, out, &len, sizeof(out), nonce, 12, out, 0,
                                nullptr, 0));
  nonce[11] ^= 1;  // second record: TLS 1.3 sequence number 1
  ASSERT_TRUE(EVP_AEAD_CTX_seal(ctx, out, &len, sizeof(out), nonce, 12, out, 0,
                                nullptr, 0));
  EVP_AEAD_CTX_cleanup(ctx);
}

const EVP_AEAD *const kAeads[] = {
    EVP_aead_aes_128_gcm(),       EVP_aead_aes_192_gcm(),
    EVP_aead_aes_256_gcm(),       EVP_aead_aes_128_gcm_tls12(),
    EVP_aead_aes_256_gcm_tls12(), EVP_aead_aes_128_gcm_tls13(),
    EVP_aead_aes_256_gcm_tls13(), EVP_aead_aes_128_gcm_siv(),
    EVP_aead_aes_256_gcm_siv()};

// The bytes of a context libgcm uses: its fields (the AEAD pointer and the
// nonce state, 32 bytes) and a key on the default backends (an
// AES-GCM-SIV key, which takes fewer, is kept in the same room). A context from
// EVP_AEAD_CTX_new has no more (test/no_alloc.c checks its size); in one
// the caller declares, the rest of sizeof(EVP_AEAD_CTX) (1.0's size, kept
// for the ABI) is never written.
size_t UsedBytes() { return 32 + gcm_key_size_for(nullptr, nullptr, nullptr); }

// "" when the first `used` bytes are zero and every later one still holds
// `fill`.
std::string WipedExactly(const EVP_AEAD_CTX &ctx, size_t used, uint8_t fill) {
  const uint8_t *b = reinterpret_cast<const uint8_t *>(&ctx);
  for (size_t i = 0; i < sizeof(ctx); i++) {
    if (i < used && b[i] != 0) return "byte " + std::to_string(i) + " not wiped";
    if (i >= used && b[i] != fill)
      return "byte " + std::to_string(i) + " written, past the used " +
             std::to_string(used);
  }
  return "";
}

// A context zeroed before use (EVP_AEAD_CTX_zero, or a ScopedEVP_AEAD_CTX)
// is all zeros again after cleanup in every byte libgcm used, and libgcm
// wrote none after them.
TEST(Hygiene, CompatCleanupWipesEverything) {
  std::mt19937_64 rng(3);
  for (const EVP_AEAD *aead : kAeads) {
    SCOPED_TRACE(EVP_AEAD_key_length(aead));
    EVP_AEAD_CTX ctx;
    memset(&ctx, 0x5a, sizeof(ctx));
    EVP_AEAD_CTX_zero(&ctx);
    SealTwiceAndCleanUp(&ctx, aead, rng);
    EXPECT_EQ("", WipedExactly(ctx, UsedBytes(), 0x5a));
  }
}

// EVP_AEAD_CTX_init does not require a zeroed context. Starting from
// garbage, cleanup zeroes every byte libgcm used (the fields, the nonce
// state and the key) and none after them.
TEST(Hygiene, CompatCleanupWipesEveryFieldOfAGarbageContext) {
  std::mt19937_64 rng(4);
  for (const EVP_AEAD *aead : kAeads) {
    SCOPED_TRACE(EVP_AEAD_key_length(aead));
    EVP_AEAD_CTX ctx;
    memset(&ctx, 0xa5, sizeof(ctx));
    SealTwiceAndCleanUp(&ctx, aead, rng);
    EXPECT_EQ(nullptr, ctx.aead);
    EXPECT_EQ("", WipedExactly(ctx, UsedBytes(), 0xa5));
  }
}

// A context from EVP_AEAD_CTX_new (only UsedBytes() long) through every
// function that takes a context, re-initialised after cleanup, zeroed:
// nothing reads or writes past its memory (the ASan and valgrind runs
// would say so).
TEST(Hygiene, CompatNewContextStaysInItsMemory) {
  std::mt19937_64 rng(6);
  for (const EVP_AEAD *aead : kAeads) {
    SCOPED_TRACE(EVP_AEAD_key_length(aead));
    Bytes raw = RandomBytes(rng, EVP_AEAD_key_length(aead));
    EVP_AEAD_CTX *ctx = EVP_AEAD_CTX_new(aead, raw.data(), raw.size(), 0);
    ASSERT_NE(ctx, nullptr);
    EXPECT_EQ(EVP_AEAD_CTX_aead(ctx), aead);
    size_t tag_len = 0;
    EXPECT_EQ(1, EVP_AEAD_CTX_tag_len(ctx, &tag_len, 5, 0));
    EXPECT_EQ(tag_len, 16u);
    EVP_AEAD_CTX_cleanup(ctx);
    EVP_AEAD_CTX_zero(ctx);
    SealTwiceAndCleanUp(ctx, aead, rng);
    ASSERT_TRUE(EVP_AEAD_CTX_init(ctx, aead, raw.data(), raw.size(), 0, nullptr));
    EVP_AEAD_CTX_free(ctx);
  }
}

// One context from EVP_AEAD_CTX_new initialised with every AEAD in turn,
// AES-GCM and AES-GCM-SIV alike, through cleanups: each key fits the
// memory the first AEAD's context was given.
TEST(Hygiene, CompatNewContextTakesEveryAead) {
  std::mt19937_64 rng(7);
  for (const EVP_AEAD *first : kAeads) {
    Bytes raw = RandomBytes(rng, EVP_AEAD_key_length(first));
    EVP_AEAD_CTX *ctx = EVP_AEAD_CTX_new(first, raw.data(), raw.size(), 0);
    ASSERT_NE(ctx, nullptr);
    EVP_AEAD_CTX_cleanup(ctx);
    for (const EVP_AEAD *aead : kAeads) {
      SCOPED_TRACE(EVP_AEAD_key_length(aead));
      SealTwiceAndCleanUp(ctx, aead, rng);
    }
    EVP_AEAD_CTX_free(ctx);
  }
}

}  // namespace
