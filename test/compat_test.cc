// test/compat_test.cc: the BoringSSL-compatible EVP_AEAD layer.
//
// The layer does no cryptography of its own, so most tests compare it with
// libgcm's native API on random inputs; the rest pin down BoringSSL's
// documented contract: buffer sizes, tag lengths, aliasing, zeroed outputs
// on failure and the TLS 1.2 / 1.3 nonce rules.

#include <openssl/aead.h>

#include <gcm/gcm.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "byte_util.h"

namespace {

using gcmtest::AllZero;
using gcmtest::Bytes;
using gcmtest::RandomBelow;
using gcmtest::RandomBytes;

const EVP_AEAD *AeadForKey(size_t key_len) {
  switch (key_len) {
    case 16:
      return EVP_aead_aes_128_gcm();
    case 24:
      return EVP_aead_aes_192_gcm();
    default:
      return EVP_aead_aes_256_gcm();
  }
}

// What the native API gives for the same inputs: ciphertext || tag.
Bytes NativeSeal(const Bytes &key, const Bytes &nonce, const Bytes &pt,
                 const Bytes &aad, size_t tag_len) {
  gcm_key k;
  EXPECT_EQ(1, gcm_key_init(&k, key.data(), key.size()));
  Bytes out(pt.size() + tag_len);
  EXPECT_EQ(1, gcm_seal(&k, out.data(), out.data() + pt.size(), tag_len,
                        nonce.data(), nonce.size(), pt.data(), pt.size(),
                        aad.data(), aad.size()));
  gcm_key_cleanup(&k);
  return out;
}

// Cuts n bytes into random pieces (some of them empty) and returns the
// lengths, which add up to n.
std::vector<size_t> RandomSplit(std::mt19937 &rng, size_t n) {
  std::vector<size_t> cuts = {0, n};
  size_t extra = RandomBelow(rng, 6);
  for (size_t i = 0; i < extra; i++) cuts.push_back(RandomBelow(rng, n + 1));
  std::sort(cuts.begin(), cuts.end());
  std::vector<size_t> lens;
  for (size_t i = 1; i < cuts.size(); i++) lens.push_back(cuts[i] - cuts[i - 1]);
  return lens;
}

// Pieces of `in`, each with its own output buffer (separate allocations,
// so they never touch), or pointing back into `in` for in-place use.
struct Pieces {
  std::vector<Bytes> outs;
  std::vector<CRYPTO_IOVEC> iov;

  Pieces(Bytes &in, const std::vector<size_t> &lens, bool in_place) {
    outs.resize(lens.size());
    size_t pos = 0;
    for (size_t i = 0; i < lens.size(); i++) {
      outs[i].assign(lens[i], 0xee);
      uint8_t *src = in.data() + pos;
      iov.push_back(CRYPTO_IOVEC{in_place ? src : outs[i].data(), src, lens[i]});
      pos += lens[i];
    }
  }

  Bytes Output() const {
    Bytes all;
    for (const auto &v : iov) all.insert(all.end(), v.out, v.out + v.len);
    return all;
  }

  bool OutputsZero() const {
    for (const auto &v : iov) {
      if (!AllZero(v.out, v.len)) return false;
    }
    return true;
  }
};

std::vector<CRYPTO_IVEC> SplitAad(std::mt19937 &rng, const Bytes &aad) {
  std::vector<CRYPTO_IVEC> out;
  size_t pos = 0;
  for (size_t len : RandomSplit(rng, aad.size())) {
    out.push_back(CRYPTO_IVEC{aad.data() + pos, len});
    pos += len;
  }
  return out;
}

const uint8_t kKey128[16] = {0xfe, 0xff, 0xe9, 0x92, 0x86, 0x65, 0x73, 0x1c,
                             0x6d, 0x6a, 0x8f, 0x94, 0x67, 0x30, 0x83, 0x08};

// A TLS-style 12-byte nonce: 4 salt bytes, then the big-endian counter.
Bytes TlsNonce(uint64_t counter, uint32_t salt = 0x01020304) {
  Bytes n(12);
  for (int i = 0; i < 4; i++) n[i] = static_cast<uint8_t>(salt >> (24 - 8 * i));
  for (int i = 0; i < 8; i++) {
    n[4 + i] = static_cast<uint8_t>(counter >> (56 - 8 * i));
  }
  return n;
}

// Seals a short fixed message with `nonce`; true on success. On failure,
// also checks the output was zeroed.
bool SealWithNonce(const EVP_AEAD_CTX *ctx, const Bytes &nonce) {
  const uint8_t msg[5] = {'h', 'e', 'l', 'l', 'o'};
  uint8_t out[5 + 16];
  size_t out_len = 99;
  int ok = EVP_AEAD_CTX_seal(ctx, out, &out_len, sizeof(out), nonce.data(),
                             nonce.size(), msg, sizeof(msg), nullptr, 0);
  if (!ok) {
    EXPECT_EQ(0u, out_len);
    EXPECT_TRUE(AllZero(out, sizeof(out)));
  }
  return ok == 1;
}

// ---------------------------------------------------------------------------

TEST(CompatTest, AlgorithmProperties) {
  struct {
    const EVP_AEAD *aead;
    size_t key_len;
  } cases[] = {
      {EVP_aead_aes_128_gcm(), 16},       {EVP_aead_aes_192_gcm(), 24},
      {EVP_aead_aes_256_gcm(), 32},       {EVP_aead_aes_128_gcm_tls12(), 16},
      {EVP_aead_aes_256_gcm_tls12(), 32}, {EVP_aead_aes_128_gcm_tls13(), 16},
      {EVP_aead_aes_256_gcm_tls13(), 32},
  };
  for (const auto &c : cases) {
    EXPECT_EQ(c.key_len, EVP_AEAD_key_length(c.aead));
    EXPECT_EQ(12u, EVP_AEAD_nonce_length(c.aead));
    EXPECT_EQ(16u, EVP_AEAD_max_overhead(c.aead));
    EXPECT_EQ(16u, EVP_AEAD_max_tag_len(c.aead));
    EXPECT_LE(EVP_AEAD_key_length(c.aead), size_t{EVP_AEAD_MAX_KEY_LENGTH});
    EXPECT_LE(EVP_AEAD_nonce_length(c.aead), size_t{EVP_AEAD_MAX_NONCE_LENGTH});
    EXPECT_LE(EVP_AEAD_max_overhead(c.aead), size_t{EVP_AEAD_MAX_OVERHEAD});
  }
  EXPECT_EQ(0, EVP_AEAD_DEFAULT_TAG_LENGTH);
}

TEST(CompatTest, AgreesWithNativeOnRandomInputs) {
  std::mt19937 rng(1);
  const size_t key_lens[] = {16, 24, 32};
  for (int iter = 0; iter < 300; iter++) {
    size_t key_len = key_lens[iter % 3];
    Bytes key = RandomBytes(rng, key_len);
    // Mostly 12-byte nonces, plus other lengths for the GHASH-derived J0.
    size_t nonce_len = (iter % 4 == 0) ? 1 + RandomBelow(rng, 40) : 12;
    Bytes nonce = RandomBytes(rng, nonce_len);
    Bytes pt = RandomBytes(rng, RandomBelow(rng, 300));
    Bytes aad = RandomBytes(rng, RandomBelow(rng, 80));
    size_t tag_len = (iter % 5 == 0) ? 1 + RandomBelow(rng, 16) : 16;

    bssl::ScopedEVP_AEAD_CTX ctx;
    ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), AeadForKey(key_len), key.data(),
                                  key.size(),
                                  tag_len == 16 ? EVP_AEAD_DEFAULT_TAG_LENGTH
                                                : tag_len,
                                  nullptr));

    Bytes sealed(pt.size() + EVP_AEAD_max_overhead(AeadForKey(key_len)));
    size_t sealed_len = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_seal(ctx.get(), sealed.data(), &sealed_len,
                                  sealed.size(), nonce.data(), nonce.size(),
                                  pt.data(), pt.size(), aad.data(),
                                  aad.size()));
    ASSERT_EQ(pt.size() + tag_len, sealed_len);
    sealed.resize(sealed_len);
    EXPECT_EQ(NativeSeal(key, nonce, pt, aad, tag_len), sealed);

    Bytes opened(sealed.size());
    size_t opened_len = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_open(ctx.get(), opened.data(), &opened_len,
                                  opened.size(), nonce.data(), nonce.size(),
                                  sealed.data(), sealed.size(), aad.data(),
                                  aad.size()));
    opened.resize(opened_len);
    EXPECT_EQ(pt, opened);

    // The same context opens in place, too.
    Bytes buf = sealed;
    ASSERT_TRUE(EVP_AEAD_CTX_open(ctx.get(), buf.data(), &opened_len,
                                  buf.size(), nonce.data(), nonce.size(),
                                  buf.data(), buf.size(), aad.data(),
                                  aad.size()));
    EXPECT_EQ(pt, Bytes(buf.begin(), buf.begin() + opened_len));
  }
}

TEST(CompatTest, SealScatterAndOpenGather) {
  std::mt19937 rng(2);
  for (int iter = 0; iter < 100; iter++) {
    Bytes key = RandomBytes(rng, 32);
    Bytes nonce = RandomBytes(rng, 12);
    Bytes in = RandomBytes(rng, RandomBelow(rng, 100));
    Bytes extra = RandomBytes(rng, RandomBelow(rng, 40));
    Bytes aad = RandomBytes(rng, RandomBelow(rng, 30));

    bssl::ScopedEVP_AEAD_CTX ctx;
    ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_256_gcm(),
                                  key.data(), key.size(), 0, nullptr));

    size_t expected_tag_len = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_tag_len(ctx.get(), &expected_tag_len, in.size(),
                                     extra.size()));
    EXPECT_EQ(extra.size() + 16, expected_tag_len);

    Bytes out(in.size());
    Bytes out_tag(extra.size() + EVP_AEAD_MAX_OVERHEAD);
    size_t out_tag_len = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_seal_scatter(
        ctx.get(), out.data(), out_tag.data(), &out_tag_len, out_tag.size(),
        nonce.data(), nonce.size(), in.data(), in.size(), extra.data(),
        extra.size(), aad.data(), aad.size()));
    ASSERT_EQ(expected_tag_len, out_tag_len);

    // extra_in is more plaintext after `in`: out || out_tag equals sealing
    // the concatenation in one go.
    Bytes whole = in;
    whole.insert(whole.end(), extra.begin(), extra.end());
    Bytes expected = NativeSeal(key, nonce, whole, aad, 16);
    Bytes got = out;
    got.insert(got.end(), out_tag.begin(), out_tag.begin() + out_tag_len);
    EXPECT_EQ(expected, got);

    // open_gather takes the ciphertext and tag apart.
    Bytes ct(expected.begin(), expected.end() - 16);
    Bytes tag(expected.end() - 16, expected.end());
    Bytes plain(ct.size());
    ASSERT_TRUE(EVP_AEAD_CTX_open_gather(
        ctx.get(), plain.data(), nonce.data(), nonce.size(), ct.data(),
        ct.size(), tag.data(), tag.size(), aad.data(), aad.size()));
    EXPECT_EQ(whole, plain);

    // A wrong tag leaves zeros.
    tag[RandomBelow(rng, tag.size())] ^= 0x40;
    ASSERT_FALSE(EVP_AEAD_CTX_open_gather(
        ctx.get(), plain.data(), nonce.data(), nonce.size(), ct.data(),
        ct.size(), tag.data(), tag.size(), aad.data(), aad.size()));
    EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
    EXPECT_TRUE(AllZero(plain));
  }
}

TEST(CompatTest, SealScatterExtraInInPlace) {
  // out_tag may be the very buffer extra_in is read from.
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey128,
                                16, 0, nullptr));
  Bytes nonce(12, 7), in(20, 1), extra(9, 2);
  Bytes buf(extra.size() + 16);
  std::copy(extra.begin(), extra.end(), buf.begin());
  Bytes out(in.size());
  size_t tag_len = 0;
  ASSERT_TRUE(EVP_AEAD_CTX_seal_scatter(
      ctx.get(), out.data(), buf.data(), &tag_len, buf.size(), nonce.data(),
      nonce.size(), in.data(), in.size(), buf.data(), extra.size(), nullptr,
      0));
  // Built at their final sizes: gcc 12 misreads insert() at the end of a
  // vector as an out-of-bounds copy (-Warray-bounds) in 32-bit builds.
  Bytes whole(in.size() + extra.size());
  std::copy(in.begin(), in.end(), whole.begin());
  std::copy(extra.begin(), extra.end(), whole.begin() + in.size());
  ASSERT_EQ(tag_len, buf.size());
  Bytes got(out.size() + buf.size());
  std::copy(out.begin(), out.end(), got.begin());
  std::copy(buf.begin(), buf.end(), got.begin() + out.size());
  EXPECT_EQ(NativeSeal(Bytes(kKey128, kKey128 + 16), nonce, whole, {}, 16),
            got);
}

TEST(CompatTest, SealvOpenvRandomSplits) {
  std::mt19937 rng(3);
  for (int iter = 0; iter < 400; iter++) {
    bool in_place = iter % 2 == 1;
    Bytes key = RandomBytes(rng, 16);
    Bytes nonce = RandomBytes(rng, iter % 7 == 0 ? 16 : 12);
    Bytes pt = RandomBytes(rng, RandomBelow(rng, 200));
    Bytes aad = RandomBytes(rng, RandomBelow(rng, 50));
    size_t tag_len = iter % 3 == 0 ? 1 + RandomBelow(rng, 16) : 16;
    Bytes expected = NativeSeal(key, nonce, pt, aad, tag_len);

    bssl::ScopedEVP_AEAD_CTX ctx;
    ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(),
                                  key.data(), key.size(), tag_len, nullptr));
    std::vector<CRYPTO_IVEC> aadv = SplitAad(rng, aad);

    // sealv: plaintext in pieces, tag apart.
    Bytes work = pt;
    Pieces seal_pieces(work, RandomSplit(rng, pt.size()), in_place);
    Bytes tag(EVP_AEAD_MAX_OVERHEAD);
    size_t out_tag_len = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_sealv(
        ctx.get(), seal_pieces.iov.data(), seal_pieces.iov.size(), tag.data(),
        &out_tag_len, tag.size(), nonce.data(), nonce.size(), aadv.data(),
        aadv.size()));
    ASSERT_EQ(tag_len, out_tag_len);
    Bytes got = seal_pieces.Output();
    got.insert(got.end(), tag.begin(), tag.begin() + out_tag_len);
    EXPECT_EQ(expected, got);

    // openv: ciphertext || tag in pieces, the tag possibly spread over
    // several of them.
    Bytes combined = expected;
    Pieces open_pieces(combined, RandomSplit(rng, combined.size()), in_place);
    size_t total = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_openv(ctx.get(), open_pieces.iov.data(),
                                   open_pieces.iov.size(), &total,
                                   nonce.data(), nonce.size(), aadv.data(),
                                   aadv.size()));
    ASSERT_EQ(pt.size(), total);
    Bytes opened = open_pieces.Output();
    opened.resize(total);
    EXPECT_EQ(pt, opened);

    // openv_detached: ciphertext in pieces, tag apart.
    Bytes ct(expected.begin(), expected.begin() + pt.size());
    Bytes in_tag(expected.begin() + pt.size(), expected.end());
    Pieces det_pieces(ct, RandomSplit(rng, ct.size()), in_place);
    ASSERT_TRUE(EVP_AEAD_CTX_openv_detached(
        ctx.get(), det_pieces.iov.data(), det_pieces.iov.size(), nonce.data(),
        nonce.size(), in_tag.data(), in_tag.size(), aadv.data(), aadv.size()));
    EXPECT_EQ(pt, det_pieces.Output());

    // A flipped bit anywhere fails and leaves every output zeroed.
    Bytes bad = expected;
    bad[RandomBelow(rng, bad.size())] ^= 0x01;
    Pieces bad_pieces(bad, RandomSplit(rng, bad.size()), in_place);
    total = 99;
    EXPECT_FALSE(EVP_AEAD_CTX_openv(ctx.get(), bad_pieces.iov.data(),
                                    bad_pieces.iov.size(), &total,
                                    nonce.data(), nonce.size(), aadv.data(),
                                    aadv.size()));
    EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
    EXPECT_EQ(0u, total);
    EXPECT_TRUE(bad_pieces.OutputsZero());

    Bytes bad_ct = ct;
    Bytes bad_tag = in_tag;
    if (!bad_ct.empty() && iter % 2 == 0) {
      bad_ct[RandomBelow(rng, bad_ct.size())] ^= 0x80;
    } else {
      bad_tag[RandomBelow(rng, bad_tag.size())] ^= 0x80;
    }
    Pieces bad_det(bad_ct, RandomSplit(rng, bad_ct.size()), in_place);
    EXPECT_FALSE(EVP_AEAD_CTX_openv_detached(
        ctx.get(), bad_det.iov.data(), bad_det.iov.size(), nonce.data(),
        nonce.size(), bad_tag.data(), bad_tag.size(), aadv.data(),
        aadv.size()));
    EXPECT_TRUE(bad_det.OutputsZero());
  }
}

TEST(CompatTest, SealvManyPieces) {
  // Far more pieces than any fixed-size table would hold, each one byte.
  std::mt19937 rng(4);
  Bytes key = RandomBytes(rng, 16), nonce = RandomBytes(rng, 12);
  Bytes pt = RandomBytes(rng, 3000);
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), key.data(),
                                16, 0, nullptr));
  Bytes work = pt;
  Pieces pieces(work, std::vector<size_t>(pt.size(), 1), /*in_place=*/true);
  uint8_t tag[16];
  size_t tag_len = 0;
  ASSERT_TRUE(EVP_AEAD_CTX_sealv(ctx.get(), pieces.iov.data(),
                                 pieces.iov.size(), tag, &tag_len, sizeof(tag),
                                 nonce.data(), nonce.size(), nullptr, 0));
  Bytes got = work;
  got.insert(got.end(), tag, tag + tag_len);
  EXPECT_EQ(NativeSeal(key, nonce, pt, {}, 16), got);
}

TEST(CompatTest, OpenvInputShorterThanTag) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey128,
                                16, 0, nullptr));
  Bytes nonce(12, 0), in(15, 3), out(15, 0xcc);
  CRYPTO_IOVEC piece = {out.data(), in.data(), in.size()};
  size_t total = 7;
  EXPECT_FALSE(EVP_AEAD_CTX_openv(ctx.get(), &piece, 1, &total, nonce.data(),
                                  nonce.size(), nullptr, 0));
  EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
  EXPECT_EQ(0u, total);
  EXPECT_TRUE(AllZero(out));
}

// A piece with bytes but a NULL pointer is refused up front; an empty piece
// with NULL pointers is fine (found by fuzz_compat and the sanitizer runs).
TEST(CompatTest, IovecPiecesWithNullPointers) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey128,
                                16, 0, nullptr));
  Bytes nonce(12, 0), msg(4, 9), sealed(20, 0);
  size_t len = 0;
  ASSERT_TRUE(EVP_AEAD_CTX_seal(ctx.get(), sealed.data(), &len, sealed.size(),
                                nonce.data(), 12, msg.data(), msg.size(),
                                nullptr, 0));
  Bytes out(20, 0xcc);
  size_t total = 7;
  CRYPTO_IOVEC null_in[2] = {{out.data(), nullptr, 20}, {nullptr, nullptr, 0}};
  EXPECT_FALSE(EVP_AEAD_CTX_openv(ctx.get(), null_in, 2, &total, nonce.data(),
                                  12, nullptr, 0));
  EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error());
  CRYPTO_IVEC null_aad = {nullptr, 3};
  CRYPTO_IOVEC ok_piece = {out.data(), sealed.data(), 20};
  EXPECT_FALSE(EVP_AEAD_CTX_openv(ctx.get(), &ok_piece, 1, &total,
                                  nonce.data(), 12, &null_aad, 1));
  EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error());
  // Trailing empty piece with NULL pointers: accepted.
  CRYPTO_IOVEC with_empty[2] = {{out.data(), sealed.data(), 20},
                                {nullptr, nullptr, 0}};
  EXPECT_TRUE(EVP_AEAD_CTX_openv(ctx.get(), with_empty, 2, &total,
                                 nonce.data(), 12, nullptr, 0));
  EXPECT_EQ(4u, total);
  EXPECT_EQ(0, memcmp(out.data(), msg.data(), 4));
}

TEST(CompatTest, TagLengths) {
  std::mt19937 rng(5);
  Bytes key(kKey128, kKey128 + 16), nonce = RandomBytes(rng, 12);
  Bytes pt = RandomBytes(rng, 33), aad = RandomBytes(rng, 7);
  Bytes full = NativeSeal(key, nonce, pt, aad, 16);

  for (size_t tag_len = 0; tag_len <= 17; tag_len++) {
    SCOPED_TRACE(tag_len);
    bssl::ScopedEVP_AEAD_CTX ctx;
    int ok = EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), key.data(),
                               key.size(), tag_len, nullptr);
    if (tag_len > 16) {
      EXPECT_FALSE(ok);
      EXPECT_EQ(GCM_ERR_TAG_LENGTH, gcm_last_error());
      EXPECT_EQ(nullptr, EVP_AEAD_CTX_aead(ctx.get()));
      continue;
    }
    ASSERT_TRUE(ok);
    size_t effective = tag_len == 0 ? 16 : tag_len;
    size_t reported = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_tag_len(ctx.get(), &reported, pt.size(), 0));
    EXPECT_EQ(effective, reported);

    // A truncated tag is the prefix of the full one.
    Bytes sealed(pt.size() + 16);
    size_t sealed_len = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_seal(ctx.get(), sealed.data(), &sealed_len,
                                  sealed.size(), nonce.data(), nonce.size(),
                                  pt.data(), pt.size(), aad.data(),
                                  aad.size()));
    ASSERT_EQ(pt.size() + effective, sealed_len);
    EXPECT_EQ(Bytes(full.begin(), full.begin() + sealed_len),
              Bytes(sealed.begin(), sealed.begin() + sealed_len));

    Bytes opened(pt.size());
    size_t opened_len = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_open(ctx.get(), opened.data(), &opened_len,
                                  opened.size(), nonce.data(), nonce.size(),
                                  sealed.data(), sealed_len, aad.data(),
                                  aad.size()));
    EXPECT_EQ(pt, opened);

    // open_gather wants exactly the context's tag length.
    const uint8_t *tag = full.data() + pt.size();
    for (size_t given : {effective - 1, effective + 1}) {
      if (given == 0 || given > 16) continue;
      Bytes out(pt.size(), 0x55);
      EXPECT_FALSE(EVP_AEAD_CTX_open_gather(
          ctx.get(), out.data(), nonce.data(), nonce.size(), full.data(),
          pt.size(), tag, given, aad.data(), aad.size()));
      EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
      EXPECT_TRUE(AllZero(out));
    }
  }
}

TEST(CompatTest, OutputTooSmall) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey128,
                                16, 0, nullptr));
  Bytes nonce(12, 1), pt(40, 2);

  // Seal needs in_len + 16; one byte less fails and zeroes all of `out`.
  for (size_t max_out : {size_t{0}, size_t{39}, size_t{40}, size_t{55}}) {
    Bytes out(64, 0xcc);
    size_t out_len = 1234;
    EXPECT_FALSE(EVP_AEAD_CTX_seal(ctx.get(), out.data(), &out_len, max_out,
                                   nonce.data(), nonce.size(), pt.data(),
                                   pt.size(), nullptr, 0));
    EXPECT_EQ(GCM_ERR_OUTPUT_TOO_SMALL, gcm_last_error());
    EXPECT_EQ(0u, out_len);
    EXPECT_TRUE(AllZero(out.data(), max_out));
    EXPECT_TRUE(std::all_of(out.begin() + max_out, out.end(),
                            [](uint8_t b) { return b == 0xcc; }))
        << "wrote past max_out_len";
  }

  // Open needs room for the plaintext only.
  Bytes sealed(56);
  size_t sealed_len = 0;
  ASSERT_TRUE(EVP_AEAD_CTX_seal(ctx.get(), sealed.data(), &sealed_len,
                                sealed.size(), nonce.data(), nonce.size(),
                                pt.data(), pt.size(), nullptr, 0));
  Bytes out(40, 0xcc);
  size_t out_len = 1234;
  EXPECT_FALSE(EVP_AEAD_CTX_open(ctx.get(), out.data(), &out_len, 39,
                                 nonce.data(), nonce.size(), sealed.data(),
                                 sealed_len, nullptr, 0));
  EXPECT_EQ(GCM_ERR_OUTPUT_TOO_SMALL, gcm_last_error());
  EXPECT_EQ(0u, out_len);
  EXPECT_TRUE(AllZero(out.data(), 39));
  EXPECT_TRUE(EVP_AEAD_CTX_open(ctx.get(), out.data(), &out_len, 40,
                                nonce.data(), nonce.size(), sealed.data(),
                                sealed_len, nullptr, 0));
  EXPECT_EQ(pt, out);

  // seal_scatter: out_tag must hold extra_in_len + 16.
  Bytes extra(5, 3), ct(pt.size(), 0xcc), tag(21, 0xcc);
  size_t tag_len = 77;
  EXPECT_FALSE(EVP_AEAD_CTX_seal_scatter(
      ctx.get(), ct.data(), tag.data(), &tag_len, 20, nonce.data(),
      nonce.size(), pt.data(), pt.size(), extra.data(), extra.size(), nullptr,
      0));
  EXPECT_EQ(GCM_ERR_OUTPUT_TOO_SMALL, gcm_last_error());
  EXPECT_EQ(0u, tag_len);
  EXPECT_TRUE(AllZero(ct));
  EXPECT_TRUE(AllZero(tag.data(), 20));

  // sealv: the tag buffer.
  Bytes work = pt;
  CRYPTO_IOVEC piece = {work.data(), work.data(), work.size()};
  uint8_t small_tag[15];
  EXPECT_FALSE(EVP_AEAD_CTX_sealv(ctx.get(), &piece, 1, small_tag, &tag_len,
                                  sizeof(small_tag), nonce.data(),
                                  nonce.size(), nullptr, 0));
  EXPECT_EQ(GCM_ERR_OUTPUT_TOO_SMALL, gcm_last_error());
  EXPECT_TRUE(AllZero(work));
  EXPECT_TRUE(AllZero(small_tag, sizeof(small_tag)));
}

TEST(CompatTest, OverlappingBuffersRefused) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey128,
                                16, 0, nullptr));
  Bytes nonce(12, 9);
  Bytes buf(200, 0x11);
  size_t out_len = 0;

  // Output one byte after the input: partial overlap.
  EXPECT_FALSE(EVP_AEAD_CTX_seal(ctx.get(), buf.data() + 1, &out_len, 80,
                                 nonce.data(), nonce.size(), buf.data(), 50,
                                 nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());

  // The tag would land on the input.
  std::fill(buf.begin(), buf.end(), 0x11);
  EXPECT_FALSE(EVP_AEAD_CTX_seal(ctx.get(), buf.data(), &out_len, 80,
                                 nonce.data(), nonce.size(), buf.data() + 60,
                                 10, nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());

  // Output over the additional data, and over the nonce.
  std::fill(buf.begin(), buf.end(), 0x11);
  Bytes in(30, 4);
  EXPECT_FALSE(EVP_AEAD_CTX_seal(ctx.get(), buf.data(), &out_len, 46,
                                 nonce.data(), nonce.size(), in.data(),
                                 in.size(), buf.data() + 40, 10));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());
  EXPECT_FALSE(EVP_AEAD_CTX_seal(ctx.get(), buf.data(), &out_len, 46,
                                 buf.data() + 10, 12, in.data(), in.size(),
                                 nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());

  // Open: plaintext output partially over the ciphertext.
  std::fill(buf.begin(), buf.end(), 0x11);
  EXPECT_FALSE(EVP_AEAD_CTX_open(ctx.get(), buf.data() + 3, &out_len, 100,
                                 nonce.data(), nonce.size(), buf.data(), 60,
                                 nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());

  // open_gather: output over the tag.
  Bytes ct(40, 5);
  std::fill(buf.begin(), buf.end(), 0x11);
  EXPECT_FALSE(EVP_AEAD_CTX_open_gather(ctx.get(), buf.data(), nonce.data(),
                                        nonce.size(), ct.data(), ct.size(),
                                        buf.data() + 30, 16, nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());

  // sealv: two pieces writing to overlapping outputs, and a piece writing
  // over another piece's input.
  Bytes a(32, 1), b(32, 2);
  uint8_t tag[16];
  size_t tag_len = 0;
  CRYPTO_IOVEC clash[2] = {{buf.data(), a.data(), 32},
                           {buf.data() + 16, b.data(), 32}};
  EXPECT_FALSE(EVP_AEAD_CTX_sealv(ctx.get(), clash, 2, tag, &tag_len,
                                  sizeof(tag), nonce.data(), nonce.size(),
                                  nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());
  CRYPTO_IOVEC cross[2] = {{b.data(), a.data(), 32},
                           {buf.data(), b.data(), 32}};
  EXPECT_FALSE(EVP_AEAD_CTX_sealv(ctx.get(), cross, 2, tag, &tag_len,
                                  sizeof(tag), nonce.data(), nonce.size(),
                                  nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());

  // sealv: tag buffer over a piece's input.
  Bytes c(48, 3);
  CRYPTO_IOVEC one = {buf.data(), c.data(), 32};
  EXPECT_FALSE(EVP_AEAD_CTX_sealv(ctx.get(), &one, 1, c.data() + 24, &tag_len,
                                  16, nonce.data(), nonce.size(), nullptr, 0));
  EXPECT_EQ(GCM_ERR_OVERLAP, gcm_last_error());
}

TEST(CompatTest, EmptyNonceRefused) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey128,
                                16, 0, nullptr));
  uint8_t out[32];
  size_t out_len = 5;
  const uint8_t in[4] = {1, 2, 3, 4};
  EXPECT_FALSE(EVP_AEAD_CTX_seal(ctx.get(), out, &out_len, sizeof(out),
                                 nullptr, 0, in, sizeof(in), nullptr, 0));
  EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());
  EXPECT_EQ(0u, out_len);
  EXPECT_TRUE(AllZero(out, sizeof(out)));
}

TEST(CompatTest, InitAndCleanup) {
  EVP_AEAD_CTX ctx;
  EVP_AEAD_CTX_zero(&ctx);
  EXPECT_EQ(nullptr, EVP_AEAD_CTX_aead(&ctx));
  EVP_AEAD_CTX_cleanup(&ctx);  // harmless on a zeroed context

  // Wrong key length: fails, context left empty, cleanup still harmless.
  EXPECT_FALSE(EVP_AEAD_CTX_init(&ctx, EVP_aead_aes_256_gcm(), kKey128, 16, 0,
                                 nullptr));
  EXPECT_EQ(GCM_ERR_KEY_LENGTH, gcm_last_error());
  EXPECT_EQ(nullptr, EVP_AEAD_CTX_aead(&ctx));
  EVP_AEAD_CTX_cleanup(&ctx);

  // A context that is not initialised refuses to work, zeroing outputs.
  uint8_t out[20];
  memset(out, 0xcc, sizeof(out));
  size_t out_len = 3;
  const uint8_t nonce[12] = {0};
  EXPECT_FALSE(EVP_AEAD_CTX_seal(&ctx, out, &out_len, sizeof(out), nonce, 12,
                                 out, 0, nullptr, 0));
  EXPECT_EQ(GCM_ERR_NOT_INITIALIZED, gcm_last_error());
  EXPECT_TRUE(AllZero(out, sizeof(out)));

  // Direction is irrelevant for AES-GCM: a "seal" context opens too.
  ASSERT_TRUE(EVP_AEAD_CTX_init_with_direction(
      &ctx, EVP_aead_aes_128_gcm(), kKey128, 16, 0, evp_aead_seal));
  EXPECT_EQ(EVP_aead_aes_128_gcm(), EVP_AEAD_CTX_aead(&ctx));
  ASSERT_TRUE(EVP_AEAD_CTX_seal(&ctx, out, &out_len, sizeof(out), nonce, 12,
                                nullptr, 0, nullptr, 0));
  uint8_t empty[1];
  size_t empty_len = 9;
  EVP_AEAD_CTX_cleanup(&ctx);
  ASSERT_TRUE(EVP_AEAD_CTX_init_with_direction(
      &ctx, EVP_aead_aes_128_gcm(), kKey128, 16, 0, evp_aead_open));
  EXPECT_TRUE(EVP_AEAD_CTX_open(&ctx, empty, &empty_len, 0, nonce, 12, out,
                                out_len, nullptr, 0));
  EXPECT_EQ(0u, empty_len);

  // No implicit IV for GCM.
  const uint8_t *iv = nullptr;
  size_t iv_len = 42;
  EXPECT_FALSE(EVP_AEAD_CTX_get_iv(&ctx, &iv, &iv_len));
  EXPECT_EQ(nullptr, iv);
  EXPECT_EQ(42u, iv_len);

  EVP_AEAD_CTX_cleanup(&ctx);
  EXPECT_EQ(nullptr, EVP_AEAD_CTX_aead(&ctx));
  EVP_AEAD_CTX_cleanup(&ctx);  // twice is fine

  // Heap contexts, through bssl::UniquePtr.
  bssl::UniquePtr<EVP_AEAD_CTX> heap(
      EVP_AEAD_CTX_new(EVP_aead_aes_128_gcm(), kKey128, 16, 12));
  ASSERT_TRUE(heap);
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(heap.get()) % alignof(EVP_AEAD_CTX));
  size_t tag_len = 0;
  ASSERT_TRUE(EVP_AEAD_CTX_tag_len(heap.get(), &tag_len, 100, 3));
  EXPECT_EQ(15u, tag_len);
  EXPECT_EQ(nullptr, EVP_AEAD_CTX_new(EVP_aead_aes_128_gcm(), kKey128, 15, 0));
  EVP_AEAD_CTX_free(nullptr);
}

// ---------------------------------------------------------------------------
// TLS nonce rules

TEST(CompatTest, Tls12NonceMustIncrease) {
  for (auto make : {EVP_aead_aes_128_gcm_tls12, EVP_aead_aes_256_gcm_tls12}) {
    const EVP_AEAD *aead = make();
    Bytes key(EVP_AEAD_key_length(aead), 0x42);
    bssl::ScopedEVP_AEAD_CTX ctx;
    ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), aead, key.data(), key.size(), 0,
                                  nullptr));

    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(0)));  // 0 may come first
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(0)));  // reuse
    EXPECT_EQ(GCM_ERR_NONCE_ORDER, gcm_last_error());
    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(5)));  // gaps are fine
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(3)));  // going back
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(5)));
    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(6)));
    // Only the last 8 bytes count: a different salt does not reset order.
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(6, 0xffffffff)));
    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(7, 0xffffffff)));
    // 2^64-1 is never accepted; 2^64-2 is.
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(UINT64_MAX)));
    EXPECT_EQ(GCM_ERR_NONCE_ORDER, gcm_last_error());
    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(UINT64_MAX - 1)));
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(UINT64_MAX - 1)));

    // The nonce must be exactly 12 bytes.
    Bytes long_nonce = TlsNonce(1000);
    long_nonce.push_back(0);
    bssl::ScopedEVP_AEAD_CTX fresh;
    ASSERT_TRUE(EVP_AEAD_CTX_init(fresh.get(), aead, key.data(), key.size(),
                                  0, nullptr));
    EXPECT_FALSE(SealWithNonce(fresh.get(), long_nonce));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());
    EXPECT_FALSE(SealWithNonce(fresh.get(), Bytes(8, 0)));
  }
}

TEST(CompatTest, Tls12OutputIsPlainGcmAndOpenIsUnrestricted) {
  Bytes key(kKey128, kKey128 + 16), pt(23, 0x61), aad(13, 0x17);
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm_tls12(),
                                key.data(), key.size(), 0, nullptr));
  std::vector<Bytes> sealed;
  for (uint64_t seq : {3u, 9u, 10u}) {
    Bytes nonce = TlsNonce(seq);
    Bytes out(pt.size() + 16);
    size_t out_len = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_seal(ctx.get(), out.data(), &out_len, out.size(),
                                  nonce.data(), nonce.size(), pt.data(),
                                  pt.size(), aad.data(), aad.size()));
    EXPECT_EQ(NativeSeal(key, nonce, pt, aad, 16), out);
    sealed.push_back(out);
  }
  // Opening in any order, and repeatedly, is allowed.
  for (size_t i : {2u, 0u, 1u, 0u}) {
    Bytes nonce = TlsNonce(i == 0 ? 3 : i == 1 ? 9 : 10);
    Bytes out(pt.size());
    size_t out_len = 0;
    EXPECT_TRUE(EVP_AEAD_CTX_open(ctx.get(), out.data(), &out_len, out.size(),
                                  nonce.data(), nonce.size(), sealed[i].data(),
                                  sealed[i].size(), aad.data(), aad.size()));
    EXPECT_EQ(pt, out);
  }
  // And opening does not move the seal counter.
  EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(11)));
}

TEST(CompatTest, TlsNonceUsedUpByLateFailure) {
  // As in BoringSSL, the nonce check runs before the seal itself: a seal
  // that fails afterwards (here for a short tag buffer) has still used its
  // nonce. A seal refused before that point (max_out_len < in_len) has not.
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm_tls12(),
                                kKey128, 16, 0, nullptr));
  Bytes nonce = TlsNonce(10);
  uint8_t in[8] = {0}, out[24];
  size_t out_len;
  EXPECT_FALSE(EVP_AEAD_CTX_seal(ctx.get(), out, &out_len, 7, nonce.data(),
                                 12, in, sizeof(in), nullptr, 0));
  EXPECT_EQ(GCM_ERR_OUTPUT_TOO_SMALL, gcm_last_error());
  EXPECT_FALSE(EVP_AEAD_CTX_seal(ctx.get(), out, &out_len, 23, nonce.data(),
                                 12, in, sizeof(in), nullptr, 0));
  EXPECT_EQ(GCM_ERR_OUTPUT_TOO_SMALL, gcm_last_error());
  EXPECT_FALSE(SealWithNonce(ctx.get(), nonce));
  EXPECT_EQ(GCM_ERR_NONCE_ORDER, gcm_last_error());
  EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(11)));
}

TEST(CompatTest, Tls13MaskFromFirstNonce) {
  for (auto make : {EVP_aead_aes_128_gcm_tls13, EVP_aead_aes_256_gcm_tls13}) {
    const EVP_AEAD *aead = make();
    Bytes key(EVP_AEAD_key_length(aead), 0x24);
    const uint64_t mask = 0x0123456789abcdefull;
    bssl::ScopedEVP_AEAD_CTX ctx;
    ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), aead, key.data(), key.size(), 0,
                                  nullptr));

    // The first nonce is sequence number 0 by definition: it is the mask.
    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(mask)));
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(mask)));  // seq 0 again
    EXPECT_EQ(GCM_ERR_NONCE_ORDER, gcm_last_error());
    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(mask ^ 1)));
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(mask ^ 1)));
    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(mask ^ 7)));  // skip ahead
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(mask ^ 4)));  // back
    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(mask ^ 8)));
    // A nonce that is larger as a number but a smaller sequence number.
    uint64_t bigger_but_older = mask ^ 2;
    ASSERT_GT(bigger_but_older, mask ^ 8);
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(bigger_but_older)));
    // Sequence number 2^64-1 is refused; 2^64-2 is the last usable one.
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(mask ^ UINT64_MAX)));
    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(mask ^ (UINT64_MAX - 1))));
    EXPECT_FALSE(SealWithNonce(ctx.get(), TlsNonce(mask ^ (UINT64_MAX - 1))));

    // Any first nonce is accepted, all-ones included; the salt bytes are
    // not part of the rule.
    bssl::ScopedEVP_AEAD_CTX other;
    ASSERT_TRUE(EVP_AEAD_CTX_init(other.get(), aead, key.data(), key.size(),
                                  0, nullptr));
    EXPECT_TRUE(SealWithNonce(other.get(), TlsNonce(UINT64_MAX, 0)));
    EXPECT_TRUE(SealWithNonce(other.get(), TlsNonce(UINT64_MAX ^ 1, 0xabcd)));
    EXPECT_FALSE(SealWithNonce(other.get(), TlsNonce(UINT64_MAX ^ 1, 0)));

    // Wrong nonce length.
    bssl::ScopedEVP_AEAD_CTX third;
    ASSERT_TRUE(EVP_AEAD_CTX_init(third.get(), aead, key.data(), key.size(),
                                  0, nullptr));
    EXPECT_FALSE(SealWithNonce(third.get(), Bytes(16, 0)));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error());

    // Reset by cleanup + init: the mask is learned afresh.
    ctx.Reset();
    ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), aead, key.data(), key.size(), 0,
                                  nullptr));
    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(5)));
    EXPECT_TRUE(SealWithNonce(ctx.get(), TlsNonce(5 ^ 1)));
  }
}

TEST(CompatTest, Tls13SealvAndScatterFollowTheRule) {
  // The rule lives in the shared seal path, so every seal form obeys it.
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm_tls13(),
                                kKey128, 16, 0, nullptr));
  Bytes pt(10, 1), ct(10), tag(16);
  size_t tag_len;
  CRYPTO_IOVEC piece = {ct.data(), pt.data(), pt.size()};
  Bytes n0 = TlsNonce(100), n1 = TlsNonce(100 ^ 1);
  EXPECT_TRUE(EVP_AEAD_CTX_sealv(ctx.get(), &piece, 1, tag.data(), &tag_len,
                                 tag.size(), n0.data(), 12, nullptr, 0));
  EXPECT_TRUE(EVP_AEAD_CTX_seal_scatter(ctx.get(), ct.data(), tag.data(),
                                        &tag_len, tag.size(), n1.data(), 12,
                                        pt.data(), pt.size(), nullptr, 0,
                                        nullptr, 0));
  EXPECT_FALSE(EVP_AEAD_CTX_sealv(ctx.get(), &piece, 1, tag.data(), &tag_len,
                                  tag.size(), n1.data(), 12, nullptr, 0));
  EXPECT_EQ(GCM_ERR_NONCE_ORDER, gcm_last_error());
  EXPECT_TRUE(AllZero(ct));
  EXPECT_TRUE(AllZero(tag));
}

TEST(CompatTest, SharedContextAcrossThreads) {
  // Plain AES-GCM contexts are read-only during seal and open.
  std::mt19937 rng(6);
  Bytes key = RandomBytes(rng, 32);
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_256_gcm(), key.data(),
                                key.size(), 0, nullptr));
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&, t] {
      std::mt19937 local(100 + t);
      for (int i = 0; i < 200; i++) {
        Bytes nonce = RandomBytes(local, 12);
        const size_t n = RandomBelow(local, 100);
        Bytes pt = RandomBytes(local, n);
        Bytes sealed(n + 16), opened(n);
        size_t len = 0;
        if (!EVP_AEAD_CTX_seal(ctx.get(), sealed.data(), &len, sealed.size(),
                               nonce.data(), 12, pt.data(), pt.size(),
                               nullptr, 0) ||
            !EVP_AEAD_CTX_open(ctx.get(), opened.data(), &len, opened.size(),
                               nonce.data(), 12, sealed.data(), sealed.size(),
                               nullptr, 0) ||
            opened != pt) {
          failures[t]++;
        }
      }
    });
  }
  for (auto &th : threads) th.join();
  for (int f : failures) EXPECT_EQ(0, f);
}

// ---- AES-GCM-SIV (EVP_aead_aes_{128,256}_gcm_siv) ---------------------------

// The native AES-GCM-SIV seal of the same inputs: ciphertext || tag.
Bytes NativeSivSeal(const Bytes &key, const Bytes &nonce, const Bytes &pt,
                    const Bytes &aad) {
  gcm_siv_key k;
  EXPECT_EQ(1, gcm_siv_key_init(&k, key.data(), key.size()));
  Bytes out(pt.size() + 16);
  EXPECT_EQ(1, gcm_siv_seal(&k, out.data(), out.data() + pt.size(), 16,
                            nonce.data(), nonce.size(), pt.data(), pt.size(),
                            aad.data(), aad.size()));
  gcm_siv_key_cleanup(&k);
  return out;
}

TEST(CompatSiv, InitTakesOnly16ByteTagsAndItsKeyLength) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  const Bytes key(32, 7);
  for (size_t tag_len : {0, 16}) {
    EXPECT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_256_gcm_siv(),
                                  key.data(), 32, tag_len, nullptr));
    size_t n = 0;
    EXPECT_TRUE(EVP_AEAD_CTX_tag_len(ctx.get(), &n, 100, 0));
    EXPECT_EQ(16u, n);
    EVP_AEAD_CTX_cleanup(ctx.get());
  }
  for (size_t tag_len : {1, 12, 15, 17}) {
    EXPECT_FALSE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm_siv(),
                                   key.data(), 16, tag_len, nullptr));
    EXPECT_EQ(GCM_ERR_TAG_LENGTH, gcm_last_error()) << tag_len;
    EXPECT_EQ(nullptr, EVP_AEAD_CTX_aead(ctx.get()));
  }
  EXPECT_FALSE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm_siv(),
                                 key.data(), 32, 0, nullptr));
  EXPECT_EQ(GCM_ERR_KEY_LENGTH, gcm_last_error());
}

TEST(CompatSiv, EveryFormAgreesWithNative) {
  std::mt19937 rng(8452);
  for (int iter = 0; iter < 200; iter++) {
    const bool in_place = iter % 2 == 1;
    const size_t key_len = iter % 3 == 0 ? 32 : 16;
    const EVP_AEAD *aead = key_len == 32 ? EVP_aead_aes_256_gcm_siv()
                                         : EVP_aead_aes_128_gcm_siv();
    Bytes key = RandomBytes(rng, key_len), nonce = RandomBytes(rng, 12);
    Bytes pt = RandomBytes(rng, RandomBelow(rng, iter < 100 ? 70 : 700));
    Bytes aad = RandomBytes(rng, RandomBelow(rng, 50));
    const Bytes expected = NativeSivSeal(key, nonce, pt, aad);
    const Bytes ct(expected.begin(), expected.end() - 16);
    const Bytes tag(expected.end() - 16, expected.end());
    bssl::ScopedEVP_AEAD_CTX ctx;
    ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), aead, key.data(), key_len, 0,
                                  nullptr));

    // seal and open, one buffer.
    Bytes buf = pt;
    buf.resize(pt.size() + 16);
    size_t len = 0;
    Bytes out(pt.size() + 16);
    ASSERT_TRUE(EVP_AEAD_CTX_seal(ctx.get(), in_place ? buf.data() : out.data(),
                                  &len, pt.size() + 16, nonce.data(), 12,
                                  in_place ? buf.data() : pt.data(), pt.size(),
                                  aad.data(), aad.size()));
    EXPECT_EQ(expected, in_place ? buf : out);
    Bytes opened = expected;
    ASSERT_TRUE(EVP_AEAD_CTX_open(ctx.get(), opened.data(), &len,
                                  opened.size(), nonce.data(), 12,
                                  opened.data(), opened.size(), aad.data(),
                                  aad.size()));
    opened.resize(len);
    EXPECT_EQ(pt, opened);

    // seal_scatter (no extra_in) and open_gather.
    Bytes sct(pt.size()), stag(16);
    ASSERT_TRUE(EVP_AEAD_CTX_seal_scatter(
        ctx.get(), sct.data(), stag.data(), &len, stag.size(), nonce.data(),
        12, pt.data(), pt.size(), nullptr, 0, aad.data(), aad.size()));
    EXPECT_EQ(ct, sct);
    EXPECT_EQ(tag, stag);
    Bytes gathered(pt.size());
    ASSERT_TRUE(EVP_AEAD_CTX_open_gather(ctx.get(), gathered.data(),
                                         nonce.data(), 12, ct.data(),
                                         ct.size(), tag.data(), 16,
                                         aad.data(), aad.size()));
    EXPECT_EQ(pt, gathered);

    // sealv, openv and openv_detached in random pieces.
    std::vector<CRYPTO_IVEC> aadv = SplitAad(rng, aad);
    Bytes work = pt;
    Pieces seal_pieces(work, RandomSplit(rng, pt.size()), in_place);
    Bytes vtag(16);
    ASSERT_TRUE(EVP_AEAD_CTX_sealv(ctx.get(), seal_pieces.iov.data(),
                                   seal_pieces.iov.size(), vtag.data(), &len,
                                   vtag.size(), nonce.data(), 12, aadv.data(),
                                   aadv.size()));
    EXPECT_EQ(ct, seal_pieces.Output());
    EXPECT_EQ(tag, vtag);
    Bytes combined = expected;
    Pieces open_pieces(combined, RandomSplit(rng, combined.size()), in_place);
    size_t total = 0;
    ASSERT_TRUE(EVP_AEAD_CTX_openv(ctx.get(), open_pieces.iov.data(),
                                   open_pieces.iov.size(), &total,
                                   nonce.data(), 12, aadv.data(), aadv.size()));
    Bytes got = open_pieces.Output();
    got.resize(total);
    EXPECT_EQ(pt, got);
    Bytes det = ct;
    Pieces det_pieces(det, RandomSplit(rng, det.size()), in_place);
    ASSERT_TRUE(EVP_AEAD_CTX_openv_detached(
        ctx.get(), det_pieces.iov.data(), det_pieces.iov.size(), nonce.data(),
        12, tag.data(), 16, aadv.data(), aadv.size()));
    EXPECT_EQ(pt, det_pieces.Output());

    // A flipped bit anywhere fails every open and zeroes every output.
    Bytes bad = expected;
    bad[RandomBelow(rng, bad.size())] ^= 0x04;
    Pieces bad_pieces(bad, RandomSplit(rng, bad.size()), in_place);
    EXPECT_FALSE(EVP_AEAD_CTX_openv(ctx.get(), bad_pieces.iov.data(),
                                    bad_pieces.iov.size(), &total,
                                    nonce.data(), 12, aadv.data(),
                                    aadv.size()));
    EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
    EXPECT_TRUE(bad_pieces.OutputsZero());
    Bytes bad_one = bad, bad_out(bad.size(), 0xcc);
    EXPECT_FALSE(EVP_AEAD_CTX_open(ctx.get(), bad_out.data(), &len,
                                   bad_out.size(), nonce.data(), 12,
                                   bad_one.data(), bad_one.size(), aad.data(),
                                   aad.size()));
    EXPECT_TRUE(AllZero(bad_out));
  }
}

TEST(CompatSiv, ManyOneBytePieces) {
  std::mt19937 rng(9);
  Bytes key = RandomBytes(rng, 16), nonce = RandomBytes(rng, 12);
  Bytes pt = RandomBytes(rng, 700), aad = RandomBytes(rng, 37);
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm_siv(),
                                key.data(), 16, 0, nullptr));
  Bytes work = pt;
  Pieces pieces(work, std::vector<size_t>(pt.size(), 1), /*in_place=*/true);
  std::vector<CRYPTO_IVEC> aadv;
  for (size_t i = 0; i < aad.size(); i++) aadv.push_back({aad.data() + i, 1});
  uint8_t tag[16];
  size_t tag_len = 0;
  ASSERT_TRUE(EVP_AEAD_CTX_sealv(ctx.get(), pieces.iov.data(),
                                 pieces.iov.size(), tag, &tag_len, sizeof(tag),
                                 nonce.data(), 12, aadv.data(), aadv.size()));
  Bytes got = work;
  got.insert(got.end(), tag, tag + tag_len);
  EXPECT_EQ(NativeSivSeal(key, nonce, pt, aad), got);
  // And back, one byte at a time, the tag spread over sixteen pieces.
  Pieces back(got, std::vector<size_t>(got.size(), 1), /*in_place=*/true);
  size_t total = 0;
  ASSERT_TRUE(EVP_AEAD_CTX_openv(ctx.get(), back.iov.data(), back.iov.size(),
                                 &total, nonce.data(), 12, aadv.data(),
                                 aadv.size()));
  EXPECT_EQ(pt, Bytes(got.begin(), got.begin() + total));
}

TEST(CompatSiv, BoringSslRefusals) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm_siv(), kKey128,
                                16, 0, nullptr));
  Bytes nonce(13, 1), in(20, 2), out(40, 0xcc), tag(40, 0xcc);
  size_t len = 9;
  // A nonce of other than 12 bytes, in seal and in open.
  for (size_t n : {0, 8, 11, 13}) {
    std::fill(out.begin(), out.end(), 0xcc);
    EXPECT_FALSE(EVP_AEAD_CTX_seal(ctx.get(), out.data(), &len, out.size(),
                                   nonce.data(), n, in.data(), in.size(),
                                   nullptr, 0));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error()) << n;
    EXPECT_EQ(0u, len);
    EXPECT_TRUE(AllZero(out));
    std::fill(out.begin(), out.end(), 0xcc);
    EXPECT_FALSE(EVP_AEAD_CTX_open(ctx.get(), out.data(), &len, out.size(),
                                   nonce.data(), n, in.data(), in.size(),
                                   nullptr, 0));
    EXPECT_EQ(GCM_ERR_NONCE_LENGTH, gcm_last_error()) << n;
    EXPECT_TRUE(AllZero(out));
  }
  // extra_in, which BoringSSL's AES-GCM-SIV does not take.
  Bytes extra(5, 3);
  EXPECT_FALSE(EVP_AEAD_CTX_seal_scatter(
      ctx.get(), out.data(), tag.data(), &len, tag.size(), nonce.data(), 12,
      in.data(), in.size(), extra.data(), extra.size(), nullptr, 0));
  EXPECT_EQ(GCM_ERR_INVALID_ARGUMENT, gcm_last_error());
  EXPECT_TRUE(AllZero(out.data(), in.size()) && AllZero(tag));
  // A tag of other than 16 bytes to open_gather, and a tag buffer too small.
  EXPECT_FALSE(EVP_AEAD_CTX_open_gather(ctx.get(), out.data(), nonce.data(),
                                        12, in.data(), in.size(), tag.data(),
                                        15, nullptr, 0));
  EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
  EXPECT_FALSE(EVP_AEAD_CTX_seal_scatter(ctx.get(), out.data(), tag.data(),
                                         &len, 15, nonce.data(), 12, in.data(),
                                         in.size(), nullptr, 0, nullptr, 0));
  EXPECT_EQ(GCM_ERR_OUTPUT_TOO_SMALL, gcm_last_error());
}

}  // namespace
