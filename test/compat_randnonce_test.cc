// test/compat_randnonce_test.cc: EVP_aead_aes_{128,256}_gcm_randnonce.
//
// A randnonce seal is plain AES-GCM under a nonce the library draws from
// the OS, with that nonce appended to the tag. So the tests check that the
// output opens with the plain AEAD given the appended nonce, that every
// seal and open form agrees with the one-shot ones, that the nonce is part
// of what is authenticated, that the caller cannot pass a nonce, that two
// seals differ, and BoringSSL's tag-length rules (0 means 28, 13..28 keep a
// shorter GCM tag). The OS source failing is tested by random_failure.c.

#include <openssl/aead.h>

#include <gcm/gcm.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "test_util.h"

using gcmtest::AllZero;
using gcmtest::Bytes;
using gcmtest::RandomBelow;
using gcmtest::RandomBytes;

namespace {

constexpr size_t kNonceLen = 12;
constexpr size_t kGcmTagLen = 16;
constexpr size_t kApiTagLen = kGcmTagLen + kNonceLen;  // 28

struct RandnonceCase {
  const EVP_AEAD *(*randnonce)(void);
  const EVP_AEAD *(*plain)(void);
  size_t key_len;
};

const RandnonceCase kCases[] = {
    {EVP_aead_aes_128_gcm_randnonce, EVP_aead_aes_128_gcm, 16},
    {EVP_aead_aes_256_gcm_randnonce, EVP_aead_aes_256_gcm, 32},
};

// Seals with the randnonce AEAD (nonce argument empty) and returns
// ciphertext || GCM tag || nonce.
Bytes RandSeal(const EVP_AEAD_CTX *ctx, const Bytes &pt, const Bytes &aad) {
  Bytes out(pt.size() + EVP_AEAD_max_overhead(EVP_AEAD_CTX_aead(ctx)));
  size_t out_len = 0;
  EXPECT_EQ(1, EVP_AEAD_CTX_seal(ctx, out.data(), &out_len, out.size(),
                                 nullptr, 0, pt.data(), pt.size(), aad.data(),
                                 aad.size()))
      << gcm_last_error_message();
  out.resize(out_len);
  return out;
}

TEST(CompatRandnonce, Properties) {
  for (const auto &c : kCases) {
    const EVP_AEAD *aead = c.randnonce();
    ASSERT_NE(nullptr, aead);
    EXPECT_NE(c.plain(), aead);
    EXPECT_EQ(c.key_len, EVP_AEAD_key_length(aead));
    EXPECT_EQ(0u, EVP_AEAD_nonce_length(aead));
    EXPECT_EQ(kApiTagLen, EVP_AEAD_max_overhead(aead));
    EXPECT_EQ(kApiTagLen, EVP_AEAD_max_tag_len(aead));
    EXPECT_LE(EVP_AEAD_max_overhead(aead), size_t{EVP_AEAD_MAX_OVERHEAD});

    Bytes key(c.key_len, 0x3c);
    bssl::ScopedEVP_AEAD_CTX ctx;
    ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), aead, key.data(), key.size(),
                                  EVP_AEAD_DEFAULT_TAG_LENGTH, nullptr));
    EXPECT_EQ(aead, EVP_AEAD_CTX_aead(ctx.get()));
    size_t tag_len = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_tag_len(ctx.get(), &tag_len, 100, 7));
    EXPECT_EQ(7 + kApiTagLen, tag_len);
  }
}

// The output is ciphertext || tag || nonce, and the plain AEAD opens
// ciphertext || tag under that nonce; the native API agrees byte for byte.
TEST(CompatRandnonce, OutputIsPlainGcmUnderTheAppendedNonce) {
  std::mt19937_64 rng(16);
  for (const auto &c : kCases) {
    for (int iter = 0; iter < 50; iter++) {
      Bytes key = RandomBytes(rng, c.key_len);
      Bytes pt = RandomBytes(rng, RandomBelow(rng, 200));
      Bytes aad = RandomBytes(rng, RandomBelow(rng, 40));
      bssl::ScopedEVP_AEAD_CTX ctx;
      ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), c.randnonce(), key.data(),
                                    key.size(), 0, nullptr));
      Bytes sealed = RandSeal(ctx.get(), pt, aad);
      ASSERT_EQ(pt.size() + kApiTagLen, sealed.size());
      Bytes nonce(sealed.end() - kNonceLen, sealed.end());

      bssl::ScopedEVP_AEAD_CTX plain;
      ASSERT_TRUE(EVP_AEAD_CTX_init(plain.get(), c.plain(), key.data(),
                                    key.size(), 0, nullptr));
      Bytes opened(pt.size());
      size_t opened_len = 0;
      ASSERT_TRUE(EVP_AEAD_CTX_open(plain.get(), opened.data(), &opened_len,
                                    opened.size(), nonce.data(), nonce.size(),
                                    sealed.data(), sealed.size() - kNonceLen,
                                    aad.data(), aad.size()));
      EXPECT_EQ(pt, opened);

      gcm_key k;
      ASSERT_EQ(1, gcm_key_init(&k, key.data(), key.size()));
      Bytes native(pt.size() + kGcmTagLen);
      ASSERT_EQ(1, gcm_seal(&k, native.data(), native.data() + pt.size(),
                            kGcmTagLen, nonce.data(), nonce.size(), pt.data(),
                            pt.size(), aad.data(), aad.size()));
      gcm_key_cleanup(&k);
      EXPECT_EQ(native, Bytes(sealed.begin(), sealed.end() - kNonceLen));

      // And the randnonce AEAD opens its own output, also in place.
      Bytes back(sealed.size());
      ASSERT_TRUE(EVP_AEAD_CTX_open(ctx.get(), back.data(), &opened_len,
                                    back.size(), nullptr, 0, sealed.data(),
                                    sealed.size(), aad.data(), aad.size()));
      EXPECT_EQ(pt, Bytes(back.begin(), back.begin() + opened_len));
      Bytes buf = sealed;
      ASSERT_TRUE(EVP_AEAD_CTX_open(ctx.get(), buf.data(), &opened_len,
                                    buf.size(), nullptr, 0, buf.data(),
                                    buf.size(), aad.data(), aad.size()));
      EXPECT_EQ(pt, Bytes(buf.begin(), buf.begin() + opened_len));
    }
  }
}

// Every seal form and every open form: seal_scatter with extra_in,
// open_gather, sealv, openv and openv_detached, with several pieces.
TEST(CompatRandnonce, ScatterGatherAndVectoredForms) {
  std::mt19937_64 rng(17);
  for (const auto &c : kCases) {
    for (int iter = 0; iter < 40; iter++) {
      Bytes key = RandomBytes(rng, c.key_len);
      Bytes in = RandomBytes(rng, RandomBelow(rng, 90));
      Bytes extra = RandomBytes(rng, RandomBelow(rng, 30));
      Bytes aad = RandomBytes(rng, RandomBelow(rng, 30));
      bssl::ScopedEVP_AEAD_CTX ctx;
      ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), c.randnonce(), key.data(),
                                    key.size(), 0, nullptr));

      // seal_scatter: out_tag = ciphertext of extra || GCM tag || nonce.
      Bytes out(in.size());
      Bytes out_tag(extra.size() + EVP_AEAD_max_overhead(c.randnonce()));
      size_t out_tag_len = 0;
      ASSERT_TRUE(EVP_AEAD_CTX_seal_scatter(
          ctx.get(), out.data(), out_tag.data(), &out_tag_len, out_tag.size(),
          nullptr, 0, in.data(), in.size(), extra.data(), extra.size(),
          aad.data(), aad.size()));
      ASSERT_EQ(extra.size() + kApiTagLen, out_tag_len);
      Bytes whole = in;
      whole.insert(whole.end(), extra.begin(), extra.end());
      Bytes sealed = out;
      sealed.insert(sealed.end(), out_tag.begin(),
                    out_tag.begin() + out_tag_len);

      // One-shot open of the concatenation.
      Bytes opened(whole.size());
      size_t opened_len = 0;
      ASSERT_TRUE(EVP_AEAD_CTX_open(ctx.get(), opened.data(), &opened_len,
                                    opened.size(), nullptr, 0, sealed.data(),
                                    sealed.size(), aad.data(), aad.size()));
      EXPECT_EQ(whole, opened);

      // open_gather: the 28-byte tag apart, and only that length.
      const Bytes ct(sealed.begin(), sealed.end() - kApiTagLen);
      const Bytes tag(sealed.end() - kApiTagLen, sealed.end());
      Bytes plain(ct.size(), 0xee);
      ASSERT_TRUE(EVP_AEAD_CTX_open_gather(
          ctx.get(), plain.data(), nullptr, 0, ct.data(), ct.size(),
          tag.data(), tag.size(), aad.data(), aad.size()));
      EXPECT_EQ(whole, plain);
      EXPECT_FALSE(EVP_AEAD_CTX_open_gather(
          ctx.get(), plain.data(), nullptr, 0, ct.data(), ct.size(),
          tag.data(), kGcmTagLen, aad.data(), aad.size()));
      EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
      EXPECT_TRUE(AllZero(plain.data(), plain.size()));

      // openv: ciphertext || tag split into pieces, the tag (and the nonce
      // inside it) possibly across pieces; also in place.
      for (bool in_place : {false, true}) {
        Bytes src = sealed;
        size_t cut1 = RandomBelow(rng, src.size() + 1);
        size_t cut2 = cut1 + RandomBelow(rng, src.size() - cut1 + 1);
        Bytes o1(cut1), o2(cut2 - cut1), o3(src.size() - cut2);
        CRYPTO_IOVEC pieces[3] = {
            {in_place ? src.data() : o1.data(), src.data(), cut1},
            {in_place ? src.data() + cut1 : o2.data(), src.data() + cut1,
             cut2 - cut1},
            {in_place ? src.data() + cut2 : o3.data(), src.data() + cut2,
             src.size() - cut2}};
        CRYPTO_IVEC av = {aad.data(), aad.size()};
        size_t total = 0;
        ASSERT_TRUE(EVP_AEAD_CTX_openv(ctx.get(), pieces, 3, &total, nullptr,
                                       0, &av, 1));
        ASSERT_EQ(whole.size(), total);
        Bytes got;
        for (const auto &p : pieces) got.insert(got.end(), p.out, p.out + p.len);
        got.resize(total);
        EXPECT_EQ(whole, got);
      }

      // openv_detached: ciphertext in two pieces, the 28-byte tag apart.
      {
        size_t cut = RandomBelow(rng, ct.size() + 1);
        Bytes o1(cut), o2(ct.size() - cut);
        CRYPTO_IOVEC pieces[2] = {{o1.data(), ct.data(), cut},
                                  {o2.data(), ct.data() + cut, ct.size() - cut}};
        CRYPTO_IVEC av = {aad.data(), aad.size()};
        ASSERT_TRUE(EVP_AEAD_CTX_openv_detached(ctx.get(), pieces, 2, nullptr,
                                                0, tag.data(), tag.size(), &av,
                                                1));
        Bytes got = o1;
        got.insert(got.end(), o2.begin(), o2.end());
        EXPECT_EQ(whole, got);
      }

      // sealv: the plaintext in two pieces, the 28-byte tag apart; its
      // output opens with the one-shot open.
      {
        size_t cut = RandomBelow(rng, whole.size() + 1);
        Bytes o1(cut), o2(whole.size() - cut);
        CRYPTO_IOVEC pieces[2] = {
            {o1.data(), whole.data(), cut},
            {o2.data(), whole.data() + cut, whole.size() - cut}};
        CRYPTO_IVEC av = {aad.data(), aad.size()};
        uint8_t vtag[EVP_AEAD_MAX_OVERHEAD];
        size_t vtag_len = 0;
        ASSERT_TRUE(EVP_AEAD_CTX_sealv(ctx.get(), pieces, 2, vtag, &vtag_len,
                                       sizeof(vtag), nullptr, 0, &av, 1));
        ASSERT_EQ(kApiTagLen, vtag_len);
        Bytes vsealed = o1;
        vsealed.insert(vsealed.end(), o2.begin(), o2.end());
        vsealed.insert(vsealed.end(), vtag, vtag + vtag_len);
        Bytes back(whole.size());
        ASSERT_TRUE(EVP_AEAD_CTX_open(ctx.get(), back.data(), &opened_len,
                                      back.size(), nullptr, 0, vsealed.data(),
                                      vsealed.size(), aad.data(), aad.size()));
        EXPECT_EQ(whole, back);
      }
    }
  }
}

// The appended nonce is authenticated: any change to it (or to the GCM tag)
// fails as a wrong tag, with every output zeroed.
TEST(CompatRandnonce, TamperedNonceOrTagFailsWithZeroedOutput) {
  for (const auto &c : kCases) {
    Bytes key(c.key_len, 0x5a), pt(45, 0x61), aad(9, 0x17);
    bssl::ScopedEVP_AEAD_CTX ctx;
    ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), c.randnonce(), key.data(),
                                  key.size(), 0, nullptr));
    const Bytes sealed = RandSeal(ctx.get(), pt, aad);
    ASSERT_EQ(pt.size() + kApiTagLen, sealed.size());
    for (size_t pos = pt.size(); pos < sealed.size(); pos++) {
      SCOPED_TRACE(pos);
      Bytes bad = sealed;
      bad[pos] ^= static_cast<uint8_t>(1u << (pos % 8));
      Bytes out(sealed.size(), 0xcc);
      size_t out_len = 99;
      EXPECT_FALSE(EVP_AEAD_CTX_open(ctx.get(), out.data(), &out_len,
                                     out.size(), nullptr, 0, bad.data(),
                                     bad.size(), aad.data(), aad.size()));
      EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
      EXPECT_EQ(0u, out_len);
      EXPECT_TRUE(AllZero(out.data(), out.size()));

      // The same through openv, with the tag split from the ciphertext.
      Bytes o1(pt.size(), 0xcc), o2(kApiTagLen, 0xcc);
      CRYPTO_IOVEC pieces[2] = {{o1.data(), bad.data(), pt.size()},
                                {o2.data(), bad.data() + pt.size(), kApiTagLen}};
      CRYPTO_IVEC av = {aad.data(), aad.size()};
      size_t total = 99;
      EXPECT_FALSE(EVP_AEAD_CTX_openv(ctx.get(), pieces, 2, &total, nullptr,
                                      0, &av, 1));
      EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
      EXPECT_EQ(0u, total);
      EXPECT_TRUE(AllZero(o1.data(), o1.size()));
      EXPECT_TRUE(AllZero(o2.data(), o2.size()));
    }
    // Untouched, it opens.
    Bytes out(sealed.size());
    size_t out_len = 0;
    EXPECT_TRUE(EVP_AEAD_CTX_open(ctx.get(), out.data(), &out_len, out.size(),
                                  nullptr, 0, sealed.data(), sealed.size(),
                                  aad.data(), aad.size()));
  }
}

// The caller may not supply a nonce, in any direction and any form; every
// output is zeroed.
TEST(CompatRandnonce, NonEmptyNonceArgumentIsRefused) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  const uint8_t key[16] = {1};
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm_randnonce(),
                                key, 16, 0, nullptr));
  const Bytes pt(20, 3);
  const Bytes sealed = RandSeal(ctx.get(), pt, {});
  ASSERT_EQ(pt.size() + kApiTagLen, sealed.size());
  const uint8_t nonce[12] = {9};

  for (size_t nonce_len : {size_t{1}, size_t{12}}) {
    SCOPED_TRACE(nonce_len);
    Bytes out(64, 0xcc);
    size_t len = 99;
    EXPECT_FALSE(EVP_AEAD_CTX_seal(ctx.get(), out.data(), &len, out.size(),
                                   nonce, nonce_len, pt.data(), pt.size(),
                                   nullptr, 0));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());
    EXPECT_EQ(0u, len);
    EXPECT_TRUE(AllZero(out.data(), out.size()));

    std::fill(out.begin(), out.end(), 0xcc);
    len = 99;
    EXPECT_FALSE(EVP_AEAD_CTX_open(ctx.get(), out.data(), &len, out.size(),
                                   nonce, nonce_len, sealed.data(),
                                   sealed.size(), nullptr, 0));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());
    EXPECT_EQ(0u, len);
    EXPECT_TRUE(AllZero(out.data(), out.size()));

    Bytes ct_out(pt.size(), 0xcc), tag_out(kApiTagLen, 0xcc);
    EXPECT_FALSE(EVP_AEAD_CTX_seal_scatter(
        ctx.get(), ct_out.data(), tag_out.data(), &len, tag_out.size(), nonce,
        nonce_len, pt.data(), pt.size(), nullptr, 0, nullptr, 0));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());
    EXPECT_TRUE(AllZero(ct_out.data(), ct_out.size()));
    EXPECT_TRUE(AllZero(tag_out.data(), tag_out.size()));

    std::fill(ct_out.begin(), ct_out.end(), 0xcc);
    EXPECT_FALSE(EVP_AEAD_CTX_open_gather(
        ctx.get(), ct_out.data(), nonce, nonce_len, sealed.data(), pt.size(),
        sealed.data() + pt.size(), kApiTagLen, nullptr, 0));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());
    EXPECT_TRUE(AllZero(ct_out.data(), ct_out.size()));

    std::fill(ct_out.begin(), ct_out.end(), 0xcc);
    std::fill(tag_out.begin(), tag_out.end(), 0xcc);
    CRYPTO_IOVEC seal_piece = {ct_out.data(), pt.data(), pt.size()};
    EXPECT_FALSE(EVP_AEAD_CTX_sealv(ctx.get(), &seal_piece, 1, tag_out.data(),
                                    &len, tag_out.size(), nonce, nonce_len,
                                    nullptr, 0));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());
    EXPECT_TRUE(AllZero(ct_out.data(), ct_out.size()));
    EXPECT_TRUE(AllZero(tag_out.data(), tag_out.size()));

    Bytes whole(sealed.size(), 0xcc);
    CRYPTO_IOVEC open_piece = {whole.data(), sealed.data(), sealed.size()};
    EXPECT_FALSE(EVP_AEAD_CTX_openv(ctx.get(), &open_piece, 1, &len, nonce,
                                    nonce_len, nullptr, 0));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());
    EXPECT_TRUE(AllZero(whole.data(), whole.size()));

    std::fill(ct_out.begin(), ct_out.end(), 0xcc);
    CRYPTO_IOVEC det_piece = {ct_out.data(), sealed.data(), pt.size()};
    EXPECT_FALSE(EVP_AEAD_CTX_openv_detached(
        ctx.get(), &det_piece, 1, nonce, nonce_len, sealed.data() + pt.size(),
        kApiTagLen, nullptr, 0));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());
    EXPECT_TRUE(AllZero(ct_out.data(), ct_out.size()));
  }
}

// Each seal draws a new nonce: sealing one message many times gives as many
// different nonces and ciphertexts.
TEST(CompatRandnonce, SealsOfTheSameMessageDiffer) {
  for (const auto &c : kCases) {
    Bytes key(c.key_len, 0x11), pt(32, 0x22);
    bssl::ScopedEVP_AEAD_CTX ctx;
    ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), c.randnonce(), key.data(),
                                  key.size(), 0, nullptr));
    std::set<Bytes> nonces, ciphertexts;
    const int kSeals = 200;
    for (int i = 0; i < kSeals; i++) {
      Bytes sealed = RandSeal(ctx.get(), pt, {});
      ASSERT_EQ(pt.size() + kApiTagLen, sealed.size());
      nonces.insert(Bytes(sealed.end() - kNonceLen, sealed.end()));
      ciphertexts.insert(Bytes(sealed.begin(), sealed.begin() + pt.size()));
    }
    // 200 random 96-bit values collide with probability below 2^-80.
    EXPECT_EQ(size_t{kSeals}, nonces.size());
    EXPECT_EQ(size_t{kSeals}, ciphertexts.size());
  }
}

// BoringSSL's tag lengths for randnonce: 0 means 28; 13..28 mean a GCM tag
// of tag_len - 12 bytes, still followed by the whole nonce. 1..12 and 29+
// are refused here (BoringSSL maps 12 to 28; see aead.h).
TEST(CompatRandnonce, TagLengths) {
  std::mt19937_64 rng(18);
  Bytes key = RandomBytes(rng, 16), pt = RandomBytes(rng, 33);
  Bytes aad = RandomBytes(rng, 5);
  for (size_t tag_len = 0; tag_len <= 30; tag_len++) {
    SCOPED_TRACE(tag_len);
    bssl::ScopedEVP_AEAD_CTX ctx;
    int ok = EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm_randnonce(),
                               key.data(), key.size(), tag_len, nullptr);
    if ((tag_len >= 1 && tag_len <= 12) || tag_len > 28) {
      EXPECT_FALSE(ok);
      EXPECT_EQ(GCM_ERR_TAG_LENGTH, gcm_last_error());
      EXPECT_EQ(nullptr, EVP_AEAD_CTX_aead(ctx.get()));
      continue;
    }
    ASSERT_TRUE(ok);
    const size_t api_tag = tag_len == 0 ? kApiTagLen : tag_len;
    const size_t gcm_tag = api_tag - kNonceLen;
    size_t reported = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_tag_len(ctx.get(), &reported, pt.size(), 0));
    EXPECT_EQ(api_tag, reported);

    Bytes sealed = RandSeal(ctx.get(), pt, aad);
    ASSERT_EQ(pt.size() + api_tag, sealed.size());
    Bytes nonce(sealed.end() - kNonceLen, sealed.end());
    // The GCM tag is the prefix of the full one under that nonce.
    gcm_key k;
    ASSERT_EQ(1, gcm_key_init(&k, key.data(), key.size()));
    Bytes full(pt.size() + kGcmTagLen);
    ASSERT_EQ(1, gcm_seal(&k, full.data(), full.data() + pt.size(), kGcmTagLen,
                          nonce.data(), nonce.size(), pt.data(), pt.size(),
                          aad.data(), aad.size()));
    gcm_key_cleanup(&k);
    EXPECT_EQ(Bytes(full.begin(), full.begin() + pt.size() + gcm_tag),
              Bytes(sealed.begin(), sealed.end() - kNonceLen));

    Bytes out(pt.size());
    size_t out_len = 0;
    EXPECT_TRUE(EVP_AEAD_CTX_open(ctx.get(), out.data(), &out_len, out.size(),
                                  nullptr, 0, sealed.data(), sealed.size(),
                                  aad.data(), aad.size()));
    EXPECT_EQ(pt, out);
  }
}

// Buffers one byte short of ciphertext + 28 fail, zeroed, and nothing is
// written past them.
TEST(CompatRandnonce, OutputTooSmall) {
  const uint8_t key[32] = {7};
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_256_gcm_randnonce(),
                                key, 32, 0, nullptr));
  Bytes pt(40, 2);
  for (size_t max_out : {size_t{0}, size_t{40}, size_t{55}, size_t{67}}) {
    Bytes out(80, 0xcc);
    size_t out_len = 1234;
    EXPECT_FALSE(EVP_AEAD_CTX_seal(ctx.get(), out.data(), &out_len, max_out,
                                   nullptr, 0, pt.data(), pt.size(), nullptr,
                                   0));
    EXPECT_EQ(GCM_ERR_OUTPUT_TOO_SMALL, gcm_last_error());
    EXPECT_EQ(0u, out_len);
    EXPECT_TRUE(AllZero(out.data(), max_out));
    EXPECT_TRUE(std::all_of(out.begin() + max_out, out.end(),
                            [](uint8_t b) { return b == 0xcc; }));
  }
  Bytes out(68);
  size_t out_len = 0;
  EXPECT_TRUE(EVP_AEAD_CTX_seal(ctx.get(), out.data(), &out_len, out.size(),
                                nullptr, 0, pt.data(), pt.size(), nullptr, 0));
  EXPECT_EQ(68u, out_len);

  // An input shorter than the 28-byte tag cannot be opened.
  Bytes plain(30, 0xcc);
  EXPECT_FALSE(EVP_AEAD_CTX_open(ctx.get(), plain.data(), &out_len,
                                 plain.size(), nullptr, 0, out.data(), 27,
                                 nullptr, 0));
  EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
  EXPECT_TRUE(AllZero(plain.data(), plain.size()));
}

}  // namespace
