// test/ghash_test.cc: every usable GHASH backend against a bit-by-bit
// reference multiplication and against known GHASH values.
//
// The reference is SP 800-38D, section 6.3, Algorithm 1, followed literally:
// it walks the 128 bits of X, adds V into Z when the bit is set, and
// multiplies V by x (a right shift, folding R = 11100001 || 0^120 back in
// when a bit falls off). It is slow and shares nothing with any backend.
//
// Known answers: GHASH_H(A, C) from McGrew and Viega's GCM specification,
// test cases 1-4 (AES-128), where H = E(K, 0^128).
//
// Edge patterns matter for the integer-multiply ("holes") backends: words
// whose interleaved bit classes are completely full make a column of an
// integer product as large as it can get, so H and data made of 0xff, 0x11,
// 0x22, 0x44, 0x88 bytes are tried explicitly.
//
// The suite is parameterised over the dispatcher's list (gcmi_dispatch_ghash_at):
// a new backend gets all of these tests by being listed there.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "key_rooms.h"
#include "test_util.h"

extern "C" {
#include "../crypto/dispatch/dispatch.h"
#include "../crypto/ghash/ghash.h"
}

namespace {

using Bytes = std::vector<uint8_t>;

using gcmtest::FromHex;
using gcmtest::RandomBytes;

// ---------------------------------------------------------------------------
// Reference: SP 800-38D Algorithm 1 (multiplication in GF(2^128)) and the
// GHASH iteration Y_i = (Y_{i-1} xor X_i) * H.

void RefMul(uint8_t X[16], const uint8_t Y[16]) {
  uint8_t Z[16] = {0};
  uint8_t V[16];
  std::memcpy(V, Y, 16);
  for (int i = 0; i < 128; i++) {
    // Bit i of X, with bit 0 the leftmost (most significant bit of byte 0).
    if ((X[i / 8] >> (7 - i % 8)) & 1) {
      for (int j = 0; j < 16; j++) Z[j] ^= V[j];
    }
    int lsb = V[15] & 1;
    for (int j = 15; j > 0; j--) {
      V[j] = static_cast<uint8_t>((V[j] >> 1) | (V[j - 1] << 7));
    }
    V[0] >>= 1;
    if (lsb) V[0] ^= 0xe1;
  }
  std::memcpy(X, Z, 16);
}

void RefGhash(uint8_t Xi[16], const uint8_t H[16], const uint8_t *in,
              size_t blocks) {
  for (size_t i = 0; i < blocks; i++) {
    for (int j = 0; j < 16; j++) Xi[j] ^= in[16 * i + j];
    RefMul(Xi, H);
  }
}

// A, C zero-padded to whole blocks, then len(A) || len(C) in bits.
Bytes GhashInput(const Bytes &a, const Bytes &c) {
  Bytes in(a);
  in.resize((in.size() + 15) / 16 * 16, 0);
  in.insert(in.end(), c.begin(), c.end());
  in.resize((in.size() + 15) / 16 * 16, 0);
  uint64_t abits = static_cast<uint64_t>(a.size()) * 8;
  uint64_t cbits = static_cast<uint64_t>(c.size()) * 8;
  for (int i = 7; i >= 0; i--) in.push_back(static_cast<uint8_t>(abits >> (8 * i)));
  for (int i = 7; i >= 0; i--) in.push_back(static_cast<uint8_t>(cbits >> (8 * i)));
  return in;
}

// ---------------------------------------------------------------------------

std::vector<const ghash_impl *> UsableGhashImpls() {
  std::vector<const ghash_impl *> v;
  for (size_t i = 0; gcmi_dispatch_ghash_at(i) != nullptr; i++) {
    if (gcmi_dispatch_ghash_at(i)->usable()) v.push_back(gcmi_dispatch_ghash_at(i));
  }
  return v;
}

class GhashTest : public ::testing::TestWithParam<const ghash_impl *> {
 protected:
  const ghash_impl *impl() const { return GetParam(); }

  // A key that is not zero before init, so nothing relies on it.
  void Init(ghash_key *key, const uint8_t H[16]) const {
    std::memset(key, 0xa5, impl()->key_bytes);
    impl()->init(key, H);
  }

  // Runs the backend and the reference from the same Xi over `blocks`
  // blocks at `in`, and expects the same result.
  void ExpectMatchesReference(const uint8_t H[16], const uint8_t Xi0[16],
                              const uint8_t *in, size_t blocks) const {
    GhashKeyRoom key;
    Init(key.get(), H);
    uint8_t got[16], want[16];
    std::memcpy(got, Xi0, 16);
    std::memcpy(want, Xi0, 16);
    impl()->update(got, key.get(), in, blocks);
    RefGhash(want, H, in, blocks);
    EXPECT_EQ(0, std::memcmp(got, want, 16)) << "blocks = " << blocks;
  }
};

TEST(GhashList, PortableBackendsListed) {
  // The three portable backends are always built and always usable.
  for (const char *name : {"ct64", "ct32", "4bit"}) {
    const ghash_impl *g = gcmi_dispatch_find_ghash(name);
    ASSERT_NE(g, nullptr) << name;
    EXPECT_EQ(g->usable(), 1) << name;
  }
  EXPECT_EQ(gcmi_dispatch_find_ghash("ct64"), &gcmi_ghash_ct64);
  EXPECT_EQ(gcmi_dispatch_find_ghash("ct32"), &gcmi_ghash_ct32);
  EXPECT_EQ(gcmi_dispatch_find_ghash("4bit"), &gcmi_ghash_4bit);
  EXPECT_EQ(gcmi_ghash_ct64.constant_time, 1);
  EXPECT_EQ(gcmi_ghash_ct32.constant_time, 1);
  EXPECT_EQ(gcmi_ghash_4bit.constant_time, 0);
}

TEST_P(GhashTest, Descriptor) {
  ASSERT_NE(impl()->name, nullptr);
  EXPECT_GT(std::strlen(impl()->name), 0u);
  ASSERT_NE(impl()->requires, nullptr);
  ASSERT_NE(impl()->init, nullptr);
  ASSERT_NE(impl()->update, nullptr);
  EXPECT_EQ(gcmi_dispatch_find_ghash(impl()->name), impl());
}

// McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)", test cases
// 1-4: H, A, C and GHASH(H, A, C).
TEST_P(GhashTest, McGrewViegaTestCases) {
  static const char kC3[] =
      "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
      "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985";
  static const char kC4[] =
      "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
      "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091";
  struct {
    int tc;
    const char *h, *a, *c, *ghash;
  } cases[] = {
      {1, "66e94bd4ef8a2c3b884cfa59ca342b2e", "", "",
       "00000000000000000000000000000000"},
      {2, "66e94bd4ef8a2c3b884cfa59ca342b2e", "",
       "0388dace60b6a392f328c2b971b2fe78", "f38cbb1ad69223dcc3457ae5b6b0f885"},
      {3, "b83b533708bf535d0aa6e52980d53b78", "", kC3,
       "7f1b32b81b820d02614f8895ac1d4eac"},
      {4, "b83b533708bf535d0aa6e52980d53b78",
       "feedfacedeadbeeffeedfacedeadbeefabaddad2", kC4,
       "698e57f70e6ecc7fd9463b7260a9ae5f"},
  };
  for (const auto &t : cases) {
    SCOPED_TRACE("test case " + std::to_string(t.tc));
    Bytes h = FromHex(t.h), want = FromHex(t.ghash);
    Bytes in = GhashInput(FromHex(t.a), FromHex(t.c));
    ASSERT_EQ(in.size() % 16, 0u);

    // The reference agrees with the published value...
    uint8_t ref[16] = {0};
    RefGhash(ref, h.data(), in.data(), in.size() / 16);
    EXPECT_EQ(0, std::memcmp(ref, want.data(), 16));

    // ...and so does the backend, in one call and one block at a time.
    GhashKeyRoom key;
    Init(key.get(), h.data());
    uint8_t xi[16] = {0};
    impl()->update(xi, key.get(), in.data(), in.size() / 16);
    EXPECT_EQ(0, std::memcmp(xi, want.data(), 16));
    std::memset(xi, 0, 16);
    for (size_t i = 0; i < in.size() / 16; i++) {
      impl()->update(xi, key.get(), in.data() + 16 * i, 1);
    }
    EXPECT_EQ(0, std::memcmp(xi, want.data(), 16));
  }
}

TEST_P(GhashTest, ZeroBlocksLeavesXiAlone) {
  std::mt19937_64 rng(1);
  Bytes h = RandomBytes(rng, 16), xi = RandomBytes(rng, 16);
  Bytes before = xi;
  GhashKeyRoom key;
  Init(key.get(), h.data());
  impl()->update(xi.data(), key.get(), nullptr, 0);
  EXPECT_EQ(xi, before);
}

TEST_P(GhashTest, RandomAgainstReferenceAllSmallCounts) {
  std::mt19937_64 rng(0x6a09e667f3bcc908ull);
  for (size_t blocks = 0; blocks <= 40; blocks++) {
    for (int trial = 0; trial < 4; trial++) {
      Bytes h = RandomBytes(rng, 16), xi = RandomBytes(rng, 16);
      Bytes in = RandomBytes(rng, 16 * blocks + 1);
      ExpectMatchesReference(h.data(), xi.data(), in.data(), blocks);
      // Unaligned input.
      ExpectMatchesReference(h.data(), xi.data(), in.data() + 1, blocks);
    }
  }
}

TEST_P(GhashTest, RandomAgainstReferenceLarge) {
  std::mt19937_64 rng(0xbb67ae8584caa73bull);
  for (size_t blocks : {63u, 64u, 65u, 127u, 128u, 129u, 255u, 256u, 1000u,
                        1024u, 1031u}) {
    Bytes h = RandomBytes(rng, 16), xi = RandomBytes(rng, 16);
    Bytes in = RandomBytes(rng, 16 * blocks);
    ExpectMatchesReference(h.data(), xi.data(), in.data(), blocks);
  }
}

TEST_P(GhashTest, EdgePatterns) {
  // Full bit classes (0x11.., 0x22.., 0x44.., 0x88..), all ones, single bits
  // at both ends, and nibble halves, for H, Xi and data alike.
  std::vector<Bytes> patterns;
  for (uint8_t b : {0x00, 0xff, 0x11, 0x22, 0x44, 0x88, 0x0f, 0xf0, 0x77,
                    0xee}) {
    patterns.push_back(Bytes(16, b));
  }
  Bytes one(16, 0);
  one[0] = 0x80;  // The field's 1.
  patterns.push_back(one);
  Bytes top(16, 0);
  top[15] = 0x01;  // x^127.
  patterns.push_back(top);
  Bytes halves(16, 0xff);
  for (int i = 8; i < 16; i++) halves[i] = 0;
  patterns.push_back(halves);

  for (const Bytes &h : patterns) {
    for (const Bytes &x : patterns) {
      for (size_t blocks : {1u, 2u, 4u, 5u, 9u}) {
        Bytes in;
        for (size_t i = 0; i < blocks; i++) {
          in.insert(in.end(), x.begin(), x.end());
        }
        ExpectMatchesReference(h.data(), patterns[0].data(), in.data(),
                               blocks);
        ExpectMatchesReference(h.data(), x.data(), in.data(), blocks);
      }
    }
  }
}

TEST_P(GhashTest, MultiplicativeIdentityAndZero) {
  std::mt19937_64 rng(7);
  Bytes in = RandomBytes(rng, 16 * 7);
  GhashKeyRoom key;

  // H = 1: Xi becomes the XOR of Xi and every block.
  uint8_t one[16] = {0x80};
  Init(key.get(), one);
  uint8_t xi[16] = {0}, want[16] = {0};
  impl()->update(xi, key.get(), in.data(), 7);
  for (size_t i = 0; i < in.size(); i++) want[i % 16] ^= in[i];
  EXPECT_EQ(0, std::memcmp(xi, want, 16));

  // H = 0: Xi becomes 0.
  uint8_t zero[16] = {0};
  Init(key.get(), zero);
  impl()->update(xi, key.get(), in.data(), 7);
  EXPECT_EQ(0, std::memcmp(xi, zero, 16));
}

TEST_P(GhashTest, ChainedCallsMatchOneCall) {
  std::mt19937_64 rng(0x3c6ef372fe94f82bull);
  for (int trial = 0; trial < 20; trial++) {
    Bytes h = RandomBytes(rng, 16), xi0 = RandomBytes(rng, 16);
    size_t blocks = 1 + rng() % 70;
    Bytes in = RandomBytes(rng, 16 * blocks);
    GhashKeyRoom key;
    Init(key.get(), h.data());

    uint8_t whole[16], pieces[16];
    std::memcpy(whole, xi0.data(), 16);
    std::memcpy(pieces, xi0.data(), 16);
    impl()->update(whole, key.get(), in.data(), blocks);
    size_t done = 0;
    while (done < blocks) {
      size_t n = rng() % 10;  // Includes empty calls.
      if (n > blocks - done) n = blocks - done;
      impl()->update(pieces, key.get(), in.data() + 16 * done, n);
      done += n;
    }
    EXPECT_EQ(0, std::memcmp(whole, pieces, 16)) << "trial " << trial;

    uint8_t ref[16];
    std::memcpy(ref, xi0.data(), 16);
    RefGhash(ref, h.data(), in.data(), blocks);
    EXPECT_EQ(0, std::memcmp(whole, ref, 16)) << "trial " << trial;
  }
}

TEST_P(GhashTest, IndependentKeysAndReinit) {
  std::mt19937_64 rng(11);
  Bytes h1 = RandomBytes(rng, 16), h2 = RandomBytes(rng, 16);
  Bytes in = RandomBytes(rng, 16 * 13);
  GhashKeyRoom k1, k2;
  Init(k1.get(), h1.data());
  Init(k2.get(), h2.data());
  uint8_t a[16] = {0}, b[16] = {0}, ra[16] = {0}, rb[16] = {0};
  impl()->update(a, k1.get(), in.data(), 13);
  impl()->update(b, k2.get(), in.data(), 13);
  RefGhash(ra, h1.data(), in.data(), 13);
  RefGhash(rb, h2.data(), in.data(), 13);
  EXPECT_EQ(0, std::memcmp(a, ra, 16));
  EXPECT_EQ(0, std::memcmp(b, rb, 16));

  // Re-initialising a used key with another H forgets the old one.
  impl()->init(k1.get(), h2.data());
  std::memset(a, 0, 16);
  impl()->update(a, k1.get(), in.data(), 13);
  EXPECT_EQ(0, std::memcmp(a, rb, 16));
}

TEST_P(GhashTest, AgreesWithEveryOtherBackend) {
  std::mt19937_64 rng(0xa54ff53a5f1d36f1ull);
  Bytes h = RandomBytes(rng, 16), xi0 = RandomBytes(rng, 16);
  Bytes in = RandomBytes(rng, 16 * 333);
  GhashKeyRoom key;
  Init(key.get(), h.data());
  uint8_t mine[16];
  std::memcpy(mine, xi0.data(), 16);
  impl()->update(mine, key.get(), in.data(), 333);
  for (const ghash_impl *other : UsableGhashImpls()) {
    GhashKeyRoom okey;
    std::memset(&okey.room, 0x5a, sizeof(okey.room));
    other->init(okey.get(), h.data());
    uint8_t theirs[16];
    std::memcpy(theirs, xi0.data(), 16);
    other->update(theirs, okey.get(), in.data(), 333);
    EXPECT_EQ(0, std::memcmp(mine, theirs, 16)) << other->name;
  }
}

std::string ImplName(const testing::TestParamInfo<const ghash_impl *> &info) {
  return info.param->name;
}

INSTANTIATE_TEST_SUITE_P(AllUsable, GhashTest,
                         testing::ValuesIn(UsableGhashImpls()), ImplName);

}  // namespace
