// test/siv_test.cc: AES-GCM-SIV (RFC 8452) through gcm_siv_*.
//
//   SpecCases/SivKnownAnswer  RFC 8452's published examples (section 8 and
//                             appendix C, counter wrap included) on every
//                             usable pair, alone and with each fused kernel
//                             that has AES-GCM-SIV functions, so they run
//                             without the external files
//                             (test/vectors_test.cc runs those);
//   AllPairs/SivPairs         every such choice against the portable pair
//                             (ct, ct64, no fused kernel) on random
//                             messages of every length up to 272 bytes and
//                             longer ones around the fused kernels' batches
//                             and the counter's wrap, AAD alike, seal and
//                             open, in place and out of place, and every
//                             shape of the short path (each data length up
//                             to 256 bytes with each AAD length up to 64);
//   SivNonceReuse             what the mode promises when a nonce repeats:
//                             equal messages give equal outputs, and any
//                             difference in AAD or plaintext gives a
//                             different tag and unrelated key streams;
//   SivMisuse, SivAlignment   the argument rules of gcm.h: lengths, NULL,
//                             overlap, uninitialised and cleaned keys, a
//                             wrong tag leaving zeros, keys at every
//                             offset and copied with memcpy.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "test_util.h"

using gcmtest::Bytes;
using gcmtest::FromHex;
using gcmtest::RandomBytes;

namespace {

using Pair = gcmtest::Triple;

std::vector<Pair> Pairs() { return gcmtest::UsableSivTriples(); }

std::string PairTestName(const ::testing::TestParamInfo<Pair> &info) {
  return gcmtest::TripleName(info.param);
}

// A key on the choice (nullptr: the defaults), checked.
void InitKey(gcm_siv_key *k, const Bytes &raw, const char *aes,
             const char *ghash, const char *fused = nullptr) {
  ASSERT_EQ(1, gcm_siv_key_init_with_fused(k, raw.data(), raw.size(), aes,
                                           ghash, fused))
      << gcm_last_error_message();
  if (aes != nullptr) {
    ASSERT_STREQ(aes, gcm_siv_key_aes_backend(k));
  }
  if (ghash != nullptr) {
    ASSERT_STREQ(ghash, gcm_siv_key_ghash_backend(k));
  }
  if (fused != nullptr) {
    ASSERT_STREQ(fused, gcm_siv_key_fused_backend(k));
  }
}

struct Sealed {
  Bytes ct;
  uint8_t tag[16];
};

Sealed Seal(const gcm_siv_key *k, const Bytes &nonce, const Bytes &aad,
            const Bytes &pt) {
  Sealed s;
  s.ct.assign(pt.size(), 0);
  EXPECT_EQ(1, gcm_siv_seal(k, s.ct.data(), s.tag, 16, nonce.data(),
                            nonce.size(), pt.data(), pt.size(), aad.data(),
                            aad.size()))
      << gcm_last_error_message();
  return s;
}

// ---- RFC 8452's examples -----------------------------------------------------

struct Kat {
  const char *key, *nonce, *aad, *pt, *ct, *tag;
};

// RFC 8452, section 8 (the example in the text) and appendix C: AES-128
// and AES-256 with and without AAD and plaintext, partial blocks on both
// sides, and the two counter-wrap cases of C.3 (their tags make the
// little-endian counter start at 0xffffffff, so it wraps after the first
// block).
const Kat kKats[] = {
    {"ee8e1ed9ff2540ae8f2ba9f50bc2f27c", "752abad3e0afb5f434dc4310",
     "6578616d706c65", "48656c6c6f20776f726c64", "5d349ead175ef6b1def6fd",
     "4fbcdeb7e4793f4a1d7e4faa70100af1"},
    {"01000000000000000000000000000000", "030000000000000000000000", "", "",
     "", "dc20e2d83f25705bb49e439eca56de25"},
    {"01000000000000000000000000000000", "030000000000000000000000",
     "010000000000000000000000000000000200",
     "0300000000000000000000000000000004000000",
     "6bb0fecf5ded9b77f902c7d5da236a4391dd0297",
     "24afc9805e976f451e6d87f6fe106514"},
    {"01000000000000000000000000000000", "030000000000000000000000", "",
     "0100000000000000000000000000000002000000000000000000000000000000",
     "84e07e62ba83a6585417245d7ec413a9fe427d6315c09b57ce45f2e3936a9445",
     "1a8e45dcd4578c667cd86847bf6155ff"},
    {"0100000000000000000000000000000000000000000000000000000000000000",
     "030000000000000000000000", "0100000000000000000000000000000002000000",
     "030000000000000000000000000000000400",
     "462401724b5ce6588d5a54aae5375513a075",
     "cfcdf5042112aa29685c912fc2056543"},
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", "",
     "000000000000000000000000000000004db923dc793ee6497c76dcc03a98e108",
     "f3f80f2cf0cb2dd9c5984fcda908456cc537703b5ba70324a6793a7bf218d3ea",
     "ffffffff000000000000000000000000"},
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", "",
     "eb3640277c7ffd1303c7a542d02d3e4c0000000000000000",
     "18ce4f0b8cb4d0cac65fea8f79257b20888e53e72299e56d",
     "ffffffff000000000000000000000000"},
};

class SivKnownAnswer : public ::testing::TestWithParam<Pair> {};

TEST_P(SivKnownAnswer, Rfc8452Examples) {
  const Pair &p = GetParam();
  for (const Kat &kat : kKats) {
    const Bytes key = FromHex(kat.key), nonce = FromHex(kat.nonce),
                aad = FromHex(kat.aad), pt = FromHex(kat.pt),
                ct = FromHex(kat.ct), tag = FromHex(kat.tag);
    gcm_siv_key k;
    InitKey(&k, key, p.aes.c_str(), p.ghash.c_str(), p.fused.c_str());
    Sealed s = Seal(&k, nonce, aad, pt);
    EXPECT_EQ(ct, s.ct) << kat.ct;
    EXPECT_EQ(tag, Bytes(s.tag, s.tag + 16)) << kat.tag;
    Bytes back(ct.size(), 0xa5);
    EXPECT_EQ(1, gcm_siv_open(&k, back.data(), nonce.data(), 12, ct.data(),
                              ct.size(), tag.data(), 16, aad.data(),
                              aad.size()))
        << kat.tag;
    EXPECT_EQ(pt, back);
    gcm_siv_key_cleanup(&k);
  }
}

INSTANTIATE_TEST_SUITE_P(SpecCases, SivKnownAnswer, ::testing::ValuesIn(Pairs()),
                         PairTestName);

// ---- every choice against the portable pair -----------------------------------

class SivPairs : public ::testing::TestWithParam<Pair> {
 protected:
  // k on the pair under test and ref on the portable pair, both from raw.
  void InitPairAndPortable(gcm_siv_key *k, gcm_siv_key *ref,
                           const Bytes &raw) {
    InitKey(k, raw, GetParam().aes.c_str(), GetParam().ghash.c_str(),
            GetParam().fused.c_str());
    InitKey(ref, raw, "ct", "ct64", "none");
  }
};

// Seals with the choice and with the portable key; both must agree, and the
// pair opens the result, out of place and in place.
void Agree(const gcm_siv_key *k, const gcm_siv_key *ref, const Bytes &nonce,
           const Bytes &aad, const Bytes &pt, const std::string &what) {
  Sealed mine = Seal(k, nonce, aad, pt), theirs = Seal(ref, nonce, aad, pt);
  ASSERT_EQ(theirs.ct, mine.ct) << what;
  ASSERT_EQ(0, std::memcmp(theirs.tag, mine.tag, 16)) << what;
  Bytes back(pt.size());
  ASSERT_EQ(1, gcm_siv_open(k, back.data(), nonce.data(), 12, mine.ct.data(),
                            mine.ct.size(), mine.tag, 16, aad.data(),
                            aad.size()))
      << what;
  ASSERT_EQ(pt, back) << what;
  Bytes buf = pt;  // in place, both ways
  uint8_t tag[16];
  ASSERT_EQ(1, gcm_siv_seal(k, buf.data(), tag, 16, nonce.data(), 12,
                            buf.data(), buf.size(), aad.data(), aad.size()));
  ASSERT_EQ(mine.ct, buf) << what;
  ASSERT_EQ(1, gcm_siv_open(k, buf.data(), nonce.data(), 12, buf.data(),
                            buf.size(), tag, 16, aad.data(), aad.size()));
  ASSERT_EQ(pt, buf) << what;
}

TEST_P(SivPairs, AgreeWithThePortablePair) {
  std::mt19937_64 rng(8452);
  for (size_t key_len : {16, 32}) {
    const Bytes raw = RandomBytes(rng, key_len);
    gcm_siv_key k, ref;
    InitPairAndPortable(&k, &ref, raw);
    if (HasFatalFailure()) return;
    std::vector<size_t> lengths;
    for (size_t n = 0; n <= 272; n++) lengths.push_back(n);
    // Past the short path, around the fused kernels' batches of 8 and 16
    // blocks and their tails, and long.
    for (size_t n : {16 * 17, 16 * 24 + 1, 16 * 31 + 5, 16 * 32, 16 * 33 + 15,
                     511, 512, 513, 1024 + 15, 4096 + 16 * 7 + 3})
      lengths.push_back(n);
    for (size_t len : lengths) {
      const Bytes nonce = RandomBytes(rng, 12);
      const Bytes aad = RandomBytes(rng, len % 3 == 0 ? len : rng() % 70);
      const Bytes pt = RandomBytes(rng, len);
      Agree(&k, &ref, nonce, aad, pt,
            "key_len=" + std::to_string(key_len) +
                " len=" + std::to_string(len) +
                " aad=" + std::to_string(aad.size()));
      if (HasFatalFailure()) return;
    }
    gcm_siv_key_cleanup(&k);
    gcm_siv_key_cleanup(&ref);
  }
}

// Every shape of the short path (crypto/siv/siv.c: up to 256 bytes of
// data with up to 64 of AAD), both key sizes: each length of data with
// each length of AAD gives its own count of POLYVAL blocks, which is what
// a GHASH backend's init_for and polyval_update see (ssse3 hashes up to
// six of them one at a time on a key of H rows alone), and its own tail
// for counter mode. Sealed against the portable pair, then opened.
// Emulated runs (LIBGCM_VECTORS_SAMPLE=1, as in vectors_test.cc) take
// every third AAD length and every fifth data length: every count of
// POLYVAL blocks still comes up.
TEST_P(SivPairs, ShortPathEveryShape) {
  std::mt19937_64 rng(8453);
  const char *sample = std::getenv("LIBGCM_VECTORS_SAMPLE");
  const bool sampled = sample != nullptr && std::strcmp(sample, "1") == 0;
  const size_t aad_step = sampled ? 3 : 1, len_step = sampled ? 5 : 1;
  for (size_t key_len : {16, 32}) {
    const Bytes raw = RandomBytes(rng, key_len);
    gcm_siv_key k, ref;
    InitPairAndPortable(&k, &ref, raw);
    if (HasFatalFailure()) return;
    const Bytes nonce = RandomBytes(rng, 12);
    const Bytes aad_all = RandomBytes(rng, 64), pt_all = RandomBytes(rng, 256);
    for (size_t aad_len = 0; aad_len <= 64; aad_len += aad_step) {
      for (size_t len = 0; len <= 256; len += len_step) {
        const Bytes aad(aad_all.begin(), aad_all.begin() + aad_len);
        const Bytes pt(pt_all.begin(), pt_all.begin() + len);
        Sealed mine = Seal(&k, nonce, aad, pt), theirs = Seal(&ref, nonce, aad, pt);
        const std::string what = "key_len=" + std::to_string(key_len) +
                                 " len=" + std::to_string(len) +
                                 " aad=" + std::to_string(aad_len);
        ASSERT_EQ(theirs.ct, mine.ct) << what;
        ASSERT_EQ(0, std::memcmp(theirs.tag, mine.tag, 16)) << what;
        Bytes back(len);
        ASSERT_EQ(1, gcm_siv_open(&k, back.data(), nonce.data(), 12,
                                  mine.ct.data(), len, mine.tag, 16,
                                  aad.data(), aad_len))
            << what;
        ASSERT_EQ(pt, back) << what;
      }
    }
    gcm_siv_key_cleanup(&k);
    gcm_siv_key_cleanup(&ref);
  }
}

INSTANTIATE_TEST_SUITE_P(AllPairs, SivPairs, ::testing::ValuesIn(Pairs()),
                         PairTestName);

// ---- a repeated nonce ---------------------------------------------------------

class SivNonceReuse : public ::testing::Test {
 protected:
  void SetUp() override {
    std::mt19937_64 rng(77);
    raw_ = RandomBytes(rng, 16);
    nonce_ = RandomBytes(rng, 12);
    ASSERT_EQ(1, gcm_siv_key_init(&k_, raw_.data(), raw_.size()));
  }
  void TearDown() override { gcm_siv_key_cleanup(&k_); }

  // How many bytes of c1 ^ c2 equal p1 ^ p2 (a reused key stream would
  // make all of them equal).
  static size_t KeyStreamMatches(const Bytes &p1, const Sealed &s1,
                                 const Bytes &p2, const Sealed &s2) {
    size_t same = 0;
    for (size_t i = 0; i < p1.size(); i++)
      same += (p1[i] ^ p2[i]) == (s1.ct[i] ^ s2.ct[i]);
    return same;
  }

  Bytes raw_, nonce_;
  gcm_siv_key k_;
};

TEST_F(SivNonceReuse, EqualMessagesGiveEqualOutputs) {
  const Bytes aad = {1, 2, 3}, pt(100, 0x5c);
  Sealed a = Seal(&k_, nonce_, aad, pt), b = Seal(&k_, nonce_, aad, pt);
  EXPECT_EQ(a.ct, b.ct);
  EXPECT_EQ(0, std::memcmp(a.tag, b.tag, 16));
}

TEST_F(SivNonceReuse, OneBitOfPlaintextChangesTagAndKeyStream) {
  std::mt19937_64 rng(5);
  const Bytes aad = RandomBytes(rng, 20);
  for (size_t len : {1, 16, 17, 64, 1000}) {
    const Bytes p1 = RandomBytes(rng, len);
    for (size_t bit : {size_t{0}, len * 8 - 1}) {
      const Bytes p2 = gcmtest::WithBitFlipped(p1, bit);
      Sealed s1 = Seal(&k_, nonce_, aad, p1), s2 = Seal(&k_, nonce_, aad, p2);
      EXPECT_NE(0, std::memcmp(s1.tag, s2.tag, 16)) << len << " " << bit;
      // Unrelated key streams: about 1 byte in 256 matches by chance.
      EXPECT_LE(KeyStreamMatches(p1, s1, p2, s2), 2 + len / 32)
          << len << " " << bit;
    }
  }
}

TEST_F(SivNonceReuse, DifferentAadChangesTagAndKeyStream) {
  std::mt19937_64 rng(6);
  const Bytes pt = RandomBytes(rng, 300), aad = RandomBytes(rng, 13);
  Sealed s1 = Seal(&k_, nonce_, aad, pt);
  Sealed s2 = Seal(&k_, nonce_, gcmtest::WithBitFlipped(aad, 100), pt);
  Sealed s3 = Seal(&k_, nonce_, Bytes(), pt);
  EXPECT_NE(0, std::memcmp(s1.tag, s2.tag, 16));
  EXPECT_NE(0, std::memcmp(s1.tag, s3.tag, 16));
  EXPECT_LE(KeyStreamMatches(pt, s1, pt, s2), 2 + pt.size() / 32);
  EXPECT_LE(KeyStreamMatches(pt, s1, pt, s3), 2 + pt.size() / 32);
}

TEST_F(SivNonceReuse, TheNonceStillMatters) {
  const Bytes pt(64, 0), aad;
  Bytes other = nonce_;
  other[11] ^= 1;
  Sealed s1 = Seal(&k_, nonce_, aad, pt), s2 = Seal(&k_, other, aad, pt);
  EXPECT_NE(0, std::memcmp(s1.tag, s2.tag, 16));
  EXPECT_NE(s1.ct, s2.ct);
}

// ---- argument rules -------------------------------------------------------------

class SivMisuse : public ::testing::Test {
 protected:
  void SetUp() override {
    const Bytes raw(32, 0x42);
    ASSERT_EQ(1, gcm_siv_key_init(&k_, raw.data(), raw.size()));
    std::memset(nonce_, 7, sizeof(nonce_));
  }
  void TearDown() override { gcm_siv_key_cleanup(&k_); }

  gcm_siv_key k_;
  uint8_t nonce_[12];
};

TEST_F(SivMisuse, KeyLengthsOtherThan16And32) {
  const Bytes raw(64, 1);
  gcm_siv_key k;
  for (size_t n : {0, 1, 15, 17, 24, 31, 33, 64}) {
    std::memset(&k, 0x5a, sizeof(k));
    EXPECT_EQ(0, gcm_siv_key_init(&k, raw.data(), n)) << n;
    EXPECT_EQ(GCM_ERR_KEY_LENGTH, gcm_last_error()) << n;
    EXPECT_TRUE(gcmtest::AllZero(reinterpret_cast<uint8_t *>(&k), sizeof(k)));
    EXPECT_EQ(nullptr, gcm_siv_key_aes_backend(&k));
  }
  EXPECT_EQ(0, gcm_siv_key_init(nullptr, raw.data(), 16));
  EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error());
  EXPECT_EQ(0, gcm_siv_key_init(&k, nullptr, 16));
  EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error());
  EXPECT_EQ(0, gcm_siv_key_init_with_backends(&k, raw.data(), 16,
                                              "no-such-aes", nullptr));
  EXPECT_EQ(GCM_ERR_BACKEND_UNKNOWN, gcm_last_error());
  EXPECT_NE(nullptr, std::strstr(gcm_last_error_message(), "no-such-aes"));
}

TEST_F(SivMisuse, NonceAndTagLengthsAreFixed) {
  uint8_t nonce[13] = {0}, pt[20] = {1}, out[20], tag[17];
  for (size_t n : {0, 1, 11, 13}) {
    std::memset(out, 0x5a, sizeof(out));
    std::memset(tag, 0x5a, sizeof(tag));
    EXPECT_EQ(0, gcm_siv_seal(&k_, out, tag, 16, nonce, n, pt, 20, nullptr, 0));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error()) << n;
    EXPECT_TRUE(gcmtest::AllZero(out, 20) && gcmtest::AllZero(tag, 16));
    std::memset(out, 0x5a, sizeof(out));
    EXPECT_EQ(0, gcm_siv_open(&k_, out, nonce, n, pt, 20, tag, 16, nullptr, 0));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error()) << n;
    EXPECT_TRUE(gcmtest::AllZero(out, 20));
  }
  for (size_t t : {0, 1, 12, 15, 17}) {
    std::memset(out, 0x5a, sizeof(out));
    std::memset(tag, 0x5a, sizeof(tag));
    EXPECT_EQ(0, gcm_siv_seal(&k_, out, tag, t, nonce_, 12, pt, 20, nullptr, 0));
    EXPECT_EQ(GCM_ERR_TAG_LENGTH, gcm_last_error()) << t;
    EXPECT_TRUE(gcmtest::AllZero(out, 20));
    // The tag buffer is zeroed for as many bytes as it was said to hold;
    // for more than a tag can be, nothing is written at all.
    const size_t zeroed = t <= 16 ? t : 0;
    EXPECT_TRUE(gcmtest::AllZero(tag, zeroed)) << t;
    for (size_t i = zeroed; i < sizeof(tag); i++) EXPECT_EQ(0x5a, tag[i]) << t;
    std::memset(out, 0x5a, sizeof(out));
    EXPECT_EQ(0, gcm_siv_open(&k_, out, nonce_, 12, pt, 20, tag, t, nullptr, 0));
    EXPECT_EQ(GCM_ERR_TAG_LENGTH, gcm_last_error()) << t;
    EXPECT_TRUE(gcmtest::AllZero(out, 20));
  }
}

TEST_F(SivMisuse, NullPointers) {
  uint8_t pt[16] = {0}, out[16], tag[16];
  // Each case leaves out one pointer (for the AAD: a length without one),
  // through seal and through open; `tag` is the tag written or read.
  const struct {
    const char *missing;
    const gcm_siv_key *k;
    uint8_t *out, *tag;
    const uint8_t *nonce, *in;
    size_t aad_len;
  } cases[] = {
      {"key", nullptr, out, tag, nonce_, pt, 0},
      {"tag", &k_, out, nullptr, nonce_, pt, 0},
      {"nonce", &k_, out, tag, nullptr, pt, 0},
      {"out", &k_, nullptr, tag, nonce_, pt, 0},
      {"in", &k_, out, tag, nonce_, nullptr, 0},
      {"aad", &k_, out, tag, nonce_, pt, 3},
  };
  for (const auto &c : cases) {
    EXPECT_EQ(0, gcm_siv_seal(c.k, c.out, c.tag, 16, c.nonce, 12, c.in, 16,
                              nullptr, c.aad_len))
        << "seal without " << c.missing;
    EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error())
        << "seal without " << c.missing;
    EXPECT_EQ(0, gcm_siv_open(c.k, c.out, c.nonce, 12, c.in, 16, c.tag, 16,
                              nullptr, c.aad_len))
        << "open without " << c.missing;
    EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error())
        << "open without " << c.missing;
  }
  // Empty buffers may be NULL, on both sides.
  EXPECT_EQ(1, gcm_siv_seal(&k_, nullptr, tag, 16, nonce_, 12, nullptr, 0, nullptr, 0));
  EXPECT_EQ(1, gcm_siv_open(&k_, nullptr, nonce_, 12, nullptr, 0, tag, 16, nullptr, 0));
}

TEST_F(SivMisuse, LengthsOverTheLimits) {
  if (sizeof(size_t) < 8) GTEST_SKIP() << "the limits exceed size_t";
  // The lengths are refused before anything is read, so small buffers
  // stand for huge ones; nothing is written for a length no buffer can
  // have.
  uint8_t buf[32] = {0}, tag[16];
  const size_t over = static_cast<size_t>(GCM_SIV_MAX_DATA_LEN) + 1;
  EXPECT_EQ(0, gcm_siv_seal(&k_, buf, tag, 16, nonce_, 12, buf + 16, over, nullptr, 0));
  EXPECT_EQ(GCM_ERR_TOO_LONG, gcm_last_error());
  EXPECT_EQ(0, gcm_siv_open(&k_, buf, nonce_, 12, buf + 16, over, tag, 16, nullptr, 0));
  EXPECT_EQ(GCM_ERR_TOO_LONG, gcm_last_error());
  const size_t aad_over = static_cast<size_t>(GCM_SIV_MAX_AAD_LEN) + 1;
  EXPECT_EQ(0, gcm_siv_seal(&k_, buf, tag, 16, nonce_, 12, buf + 16, 16, buf, aad_over));
  EXPECT_EQ(GCM_ERR_TOO_LONG, gcm_last_error());
  EXPECT_TRUE(gcmtest::AllZero(buf, 16) && gcmtest::AllZero(tag, 16));
  EXPECT_EQ(0, gcm_siv_open(&k_, buf, nonce_, 12, buf + 16, 16, tag, 16, buf + 8, aad_over));
  EXPECT_EQ(GCM_ERR_TOO_LONG, gcm_last_error());
}

TEST_F(SivMisuse, OverlapsAreRefused) {
  uint8_t b[128];
  for (size_t i = 0; i < sizeof(b); i++) b[i] = static_cast<uint8_t>(i);
  uint8_t tag[16];
  // out partly over in (one byte either way), over the AAD, over the
  // nonce, the tag over in or out: all refused, for seal and open.
  struct Case {
    size_t out, in, aad, aad_len, tag_at;  // offsets into b; tag_at 999: own
  } cases[] = {
      {1, 0, 999, 0, 999},   {0, 1, 999, 0, 999},    {40, 0, 50, 8, 999},
      {0, 40, 10, 8, 999},   {0, 40, 999, 0, 32},    {0, 40, 999, 0, 60},
  };
  for (const Case &c : cases) {
    const uint8_t *aad = c.aad == 999 ? nullptr : b + c.aad;
    uint8_t *t = c.tag_at == 999 ? tag : b + c.tag_at;
    EXPECT_EQ(0, gcm_siv_seal(&k_, b + c.out, t, 16, nonce_, 12, b + c.in, 32,
                              aad, c.aad_len))
        << c.out << " " << c.in;
    EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error()) << c.out << " " << c.in;
  }
  // The nonce inside the output.
  EXPECT_EQ(0, gcm_siv_seal(&k_, b, tag, 16, b + 8, 12, b + 64, 32, nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());
  EXPECT_EQ(0, gcm_siv_open(&k_, b, b + 8, 12, b + 64, 32, tag, 16, nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());
  // Open: out over the tag it reads.
  EXPECT_EQ(0, gcm_siv_open(&k_, b, nonce_, 12, b + 64, 32, b + 20, 16, nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());
  // out == in is allowed.
  EXPECT_EQ(1, gcm_siv_seal(&k_, b, tag, 16, nonce_, 12, b, 32, b + 64, 9));
}

TEST_F(SivMisuse, EveryAlteredInputIsRefusedAndLeavesZeros) {
  std::mt19937_64 rng(3);
  const Bytes pt = RandomBytes(rng, 77), aad = RandomBytes(rng, 19);
  const Bytes nonce(nonce_, nonce_ + 12);
  Sealed s = Seal(&k_, nonce, aad, pt);
  const Bytes tag(s.tag, s.tag + 16);
  auto refused = [&](const Bytes &n, const Bytes &a, const Bytes &c,
                     const Bytes &t, const std::string &what) {
    Bytes out(c.size(), 0x5a);
    EXPECT_EQ(0, gcm_siv_open(&k_, out.data(), n.data(), 12, c.data(), c.size(),
                              t.data(), 16, a.data(), a.size()))
        << what;
    EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error()) << what;
    EXPECT_TRUE(gcmtest::AllZero(out)) << what;
    Bytes buf = c;  // in place
    EXPECT_EQ(0, gcm_siv_open(&k_, buf.data(), n.data(), 12, buf.data(),
                              buf.size(), t.data(), 16, a.data(), a.size()))
        << what;
    EXPECT_TRUE(gcmtest::AllZero(buf)) << what;
  };
  for (size_t bit = 0; bit < 128; bit += 9)
    refused(nonce, aad, s.ct, gcmtest::WithBitFlipped(tag, bit), "tag");
  for (size_t bit = 0; bit < 8 * pt.size(); bit += 61)
    refused(nonce, aad, gcmtest::WithBitFlipped(s.ct, bit), tag, "ct");
  refused(nonce, gcmtest::WithBitFlipped(aad, 5), s.ct, tag, "aad");
  refused(gcmtest::WithBitFlipped(nonce, 90), aad, s.ct, tag, "nonce");
  refused(nonce, aad, Bytes(s.ct.begin(), s.ct.end() - 1), tag, "truncated");
}

TEST(SivNotInitialized, ZeroedGarbageAndCleanedKeys) {
  gcm_siv_key k;
  uint8_t nonce[12] = {0}, buf[16] = {0}, tag[16];
  std::memset(&k, 0, sizeof(k));
  EXPECT_EQ(0, gcm_siv_seal(&k, buf, tag, 16, nonce, 12, buf, 16, nullptr, 0));
  EXPECT_EQ(GCM_ERR_NOT_INITIALIZED, gcm_last_error());
  std::memset(&k, 0xff, sizeof(k));
  EXPECT_EQ(0, gcm_siv_open(&k, buf, nonce, 12, buf, 16, tag, 16, nullptr, 0));
  EXPECT_EQ(GCM_ERR_NOT_INITIALIZED, gcm_last_error());
  EXPECT_EQ(nullptr, gcm_siv_key_ghash_backend(&k));
  // A gcm_key is not a gcm_siv_key: the placement byte may agree, the magic
  // does not.
  gcm_key gk;
  ASSERT_EQ(1, gcm_key_init(&gk, buf, 16));
  std::memcpy(&k, &gk, sizeof(k));
  EXPECT_EQ(0, gcm_siv_seal(&k, buf, tag, 16, nonce, 12, buf, 16, nullptr, 0));
  EXPECT_EQ(GCM_ERR_NOT_INITIALIZED, gcm_last_error());
  gcm_key_cleanup(&gk);
  ASSERT_EQ(1, gcm_siv_key_init(&k, buf, 16));
  gcm_siv_key_cleanup(&k);
  EXPECT_EQ(0, gcm_siv_seal(&k, buf, tag, 16, nonce, 12, buf, 16, nullptr, 0));
  EXPECT_EQ(GCM_ERR_NOT_INITIALIZED, gcm_last_error());
  gcm_siv_key_cleanup(nullptr);
}

// ---- the fused kernel --------------------------------------------------------

// The default is the kernel a gcm_key on the pair gets when that kernel has
// AES-GCM-SIV functions, else another kernel for the pair that has them,
// or none; "none" is none; a named kernel must have them, exist and fit
// the pair, and a refused name leaves the key zeroed.
TEST(SivFusedChoice, DefaultNoneAndNamed) {
  const uint8_t raw[16] = {1, 2, 3};
  gcm_siv_key k;
  gcm_key gk;
  ASSERT_EQ(1, gcm_key_init(&gk, raw, 16));
  const std::string gcm_fused = gcm_key_fused_backend(&gk);
  gcm_key_cleanup(&gk);
  bool has_siv = false;
  for (const auto &t : gcmtest::UsableSivTriples())
    has_siv = has_siv || t.fused == gcm_fused;
  ASSERT_EQ(1, gcm_siv_key_init(&k, raw, 16));
  const std::string siv_fused = gcm_siv_key_fused_backend(&k);
  if (has_siv) {
    EXPECT_EQ(gcm_fused, siv_fused);
  } else if (siv_fused != "none") {
    bool fits = false;
    for (const auto &t : gcmtest::UsableSivTriples())
      fits = fits || (t.aes == gcm_siv_key_aes_backend(&k) &&
                      t.ghash == gcm_siv_key_ghash_backend(&k) &&
                      t.fused == siv_fused);
    EXPECT_TRUE(fits) << siv_fused;
  }
  ASSERT_EQ(1, gcm_siv_key_init_with_fused(&k, raw, 16, nullptr, nullptr,
                                           "none"));
  EXPECT_STREQ("none", gcm_siv_key_fused_backend(&k));

  // "c", the portable fused loop, runs everywhere and has none.
  EXPECT_EQ(0, gcm_siv_key_init_with_fused(&k, raw, 16, nullptr, nullptr,
                                           "c"));
  EXPECT_EQ(GCM_ERR_BACKEND_UNUSABLE, gcm_last_error());
  EXPECT_NE(nullptr, std::strstr(gcm_last_error_message(), "AES-GCM-SIV"));
  EXPECT_EQ(nullptr, gcm_siv_key_aes_backend(&k));
  EXPECT_EQ(nullptr, gcm_siv_key_fused_backend(&k));
  EXPECT_EQ(0, gcm_siv_key_init_with_fused(&k, raw, 16, nullptr, nullptr,
                                           "no-such-kernel"));
  EXPECT_EQ(GCM_ERR_BACKEND_UNKNOWN, gcm_last_error());
  // A kernel on another pair.
  for (const auto &t : gcmtest::UsableSivTriples()) {
    if (t.fused == "none") continue;
    EXPECT_EQ(0, gcm_siv_key_init_with_fused(&k, raw, 16, "ct", "ct64",
                                             t.fused.c_str()))
        << t.fused;
    EXPECT_EQ(GCM_ERR_BACKEND_UNUSABLE, gcm_last_error()) << t.fused;
  }
  EXPECT_EQ(nullptr, gcm_siv_key_fused_backend(nullptr));
}

// ---- any address ----------------------------------------------------------------

TEST(SivAlignment, KeysAtEveryOffsetAndMovedCopies) {
  std::mt19937_64 rng(64);
  const Bytes raw = RandomBytes(rng, 32), nonce = RandomBytes(rng, 12),
              aad = RandomBytes(rng, 21), pt = RandomBytes(rng, 16 * 9 + 5);
  gcm_siv_key ref;
  ASSERT_EQ(1, gcm_siv_key_init(&ref, raw.data(), raw.size()));
  const Sealed want = Seal(&ref, nonce, aad, pt);
  alignas(64) static uint8_t arena[2][sizeof(gcm_siv_key) + 64];
  for (size_t off = 0; off < 64; off++) {
    gcm_siv_key *k = reinterpret_cast<gcm_siv_key *>(arena[0] + off);
    ASSERT_EQ(1, gcm_siv_key_init(k, raw.data(), raw.size()));
    Sealed got = Seal(k, nonce, aad, pt);
    EXPECT_EQ(want.ct, got.ct) << off;
    EXPECT_EQ(0, std::memcmp(want.tag, got.tag, 16)) << off;
    // A memcpy copy at another offset works the same way.
    gcm_siv_key *moved =
        reinterpret_cast<gcm_siv_key *>(arena[1] + (off * 13 + 5) % 64);
    std::memcpy(moved, k, sizeof(gcm_siv_key));
    EXPECT_STREQ(gcm_siv_key_aes_backend(&ref), gcm_siv_key_aes_backend(moved));
    got = Seal(moved, nonce, aad, pt);
    EXPECT_EQ(want.ct, got.ct) << off;
    Bytes back(pt.size());
    EXPECT_EQ(1, gcm_siv_open(moved, back.data(), nonce.data(), 12,
                              want.ct.data(), want.ct.size(), want.tag, 16,
                              aad.data(), aad.size()))
        << off;
    EXPECT_EQ(pt, back);
    uint8_t bad[16];
    std::memcpy(bad, want.tag, 16);
    bad[0] ^= 1;
    EXPECT_EQ(0, gcm_siv_open(moved, back.data(), nonce.data(), 12,
                              want.ct.data(), want.ct.size(), bad, 16,
                              aad.data(), aad.size()));
    EXPECT_TRUE(gcmtest::AllZero(back));
    gcm_siv_key_cleanup(moved);
    EXPECT_EQ(0, gcm_siv_open(moved, back.data(), nonce.data(), 12,
                              want.ct.data(), want.ct.size(), want.tag, 16,
                              aad.data(), aad.size()));
    EXPECT_EQ(GCM_ERR_NOT_INITIALIZED, gcm_last_error());
    gcm_siv_key_cleanup(k);
  }
  gcm_siv_key_cleanup(&ref);
}

}  // namespace
