// test/alignment_test.cc: gcm_key, gcm_stream and EVP_AEAD_CTX at addresses
// their types do not promise (include/gcm/gcm.h, "Alignment").
//
// A packed struct, malloc's 16 bytes or a hand-rolled allocator put objects
// anywhere; libgcm places its data at an aligned spot inside them on every
// call, so every entry point must work at each of the 64 offsets from a
// 64-byte boundary, under every backend pair and fused kernel, and give
// exactly what an object declared normally gives. memcpy copies of an
// initialised key (and of a stream in mid-message) to another offset must
// work too.
//
// The objects are only ever reached through pointers handed to libgcm; the
// test never reads a member of one at a misaligned address, so UBSan's
// alignment check judges the library alone.

#include <gcm/gcm.h>
#include <openssl/aead.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using gcmtest::Triple;
using Bytes = std::vector<uint8_t>;

constexpr size_t kOffsets = 64;

// Room for one object at any offset 0..63 from a 64-byte boundary.
template <size_t N>
struct Arena {
  alignas(64) uint8_t bytes[N + kOffsets];
  uint8_t *at(size_t off) { return bytes + off; }
};

// Message lengths: empty, one partial block, and runs long enough to reach
// every kernel's bulk path (fused kernels start at 16 or more blocks).
const size_t kLengths[] = {0, 1, 31, 16 * 40 + 5};

struct Sealed {
  Bytes ct;
  uint8_t tag[16];
};

const uint8_t kKey[32] = {0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87,
                          0x98, 0xa9, 0xba, 0xcb, 0xdc, 0xed, 0xfe, 0x0f,
                          0x01, 0x12, 0x23, 0x34, 0x45, 0x56, 0x67, 0x78,
                          0x89, 0x9a, 0xab, 0xbc, 0xcd, 0xde, 0xef, 0xf0};
const uint8_t kNonce[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce,
                            0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};

Bytes Message(size_t len) {
  Bytes m(len);
  for (size_t i = 0; i < len; i++) m[i] = static_cast<uint8_t>(i * 7 + 3);
  return m;
}

const Bytes kAad = Message(20);

int InitKey(gcm_key *k, const Triple &t, size_t key_len) {
  return gcm_key_init_with_fused(k, kKey, key_len, t.aes.c_str(),
                                 t.ghash.c_str(), t.fused.c_str());
}

Sealed SealOneShot(const gcm_key *k, const Bytes &pt) {
  Sealed s;
  s.ct.resize(pt.size());
  EXPECT_EQ(1, gcm_seal(k, s.ct.data(), s.tag, 16, kNonce, sizeof(kNonce),
                        pt.data(), pt.size(), kAad.data(), kAad.size()))
      << gcm_last_error_message();
  return s;
}

// Seals with a stream at `s`, in uneven pieces so the buffered and the bulk
// paths both run.
Sealed SealStream(gcm_stream *s, const gcm_key *k, const Bytes &pt) {
  Sealed out;
  out.ct.resize(pt.size());
  EXPECT_EQ(1, gcm_stream_init(s, k, GCM_ENCRYPT, kNonce, sizeof(kNonce)))
      << gcm_last_error_message();
  EXPECT_EQ(1, gcm_stream_aad(s, kAad.data(), 7));
  EXPECT_EQ(1, gcm_stream_aad(s, kAad.data() + 7, kAad.size() - 7));
  size_t done = 0, piece = 5;
  while (done < pt.size()) {
    size_t n = std::min(piece, pt.size() - done);
    EXPECT_EQ(1, gcm_stream_update(s, out.ct.data() + done, pt.data() + done, n));
    done += n;
    piece = piece * 3 + 1;
  }
  EXPECT_EQ(1, gcm_stream_finish_seal(s, out.tag, 16));
  gcm_stream_cleanup(s);
  return out;
}

void ExpectSame(const Sealed &want, const Sealed &got) {
  EXPECT_EQ(want.ct, got.ct);
  EXPECT_EQ(0, std::memcmp(want.tag, got.tag, 16));
}

// Opens `c` with k one-shot and with a decrypting stream at `s`.
void ExpectOpens(const gcm_key *k, gcm_stream *s, const Bytes &pt,
                 const Sealed &c) {
  Bytes out(pt.size());
  EXPECT_EQ(1, gcm_open(k, out.data(), kNonce, sizeof(kNonce), c.ct.data(),
                        c.ct.size(), c.tag, 16, kAad.data(), kAad.size()))
      << gcm_last_error_message();
  EXPECT_EQ(pt, out);
  std::fill(out.begin(), out.end(), 0);
  ASSERT_EQ(1, gcm_stream_init(s, k, GCM_DECRYPT, kNonce, sizeof(kNonce)));
  EXPECT_EQ(1, gcm_stream_aad(s, kAad.data(), kAad.size()));
  EXPECT_EQ(1, gcm_stream_update(s, out.data(), c.ct.data(), c.ct.size()));
  EXPECT_EQ(1, gcm_stream_finish_open(s, c.tag, 16));
  EXPECT_EQ(pt, out);
  gcm_stream_cleanup(s);
}

class Alignment : public testing::TestWithParam<Triple> {
 protected:
  // The answers of a key and a stream declared as their types ask.
  void SetUp() override {
    ASSERT_EQ(1, InitKey(&ref_, GetParam(), 16)) << gcm_last_error_message();
    for (size_t len : kLengths) want_.push_back(SealOneShot(&ref_, Message(len)));
  }
  void TearDown() override { gcm_key_cleanup(&ref_); }

  // Everything a key at k and a stream at s must do: the same ciphertext
  // and tag as the reference, one-shot and streamed, and both open.
  void CheckKeyAndStream(const gcm_key *k, gcm_stream *s) {
    EXPECT_STREQ(GetParam().aes.c_str(), gcm_key_aes_backend(k));
    EXPECT_STREQ(GetParam().ghash.c_str(), gcm_key_ghash_backend(k));
    EXPECT_STREQ(GetParam().fused.c_str(), gcm_key_fused_backend(k));
    EXPECT_EQ(16u, gcm_key_length(k));
    for (size_t i = 0; i < std::size(kLengths); i++) {
      SCOPED_TRACE(kLengths[i]);
      Bytes pt = Message(kLengths[i]);
      ExpectSame(want_[i], SealOneShot(k, pt));
      ExpectSame(want_[i], SealStream(s, k, pt));
      ExpectOpens(k, s, pt, want_[i]);
    }
  }

  gcm_key ref_;
  std::vector<Sealed> want_;
};

// A key at every offset from a 64-byte boundary, with a stream at the same
// offset and at another; then cleaned up, after which it is refused.
TEST_P(Alignment, KeyAndStreamAtEveryOffset) {
  Arena<sizeof(gcm_key)> ka;
  Arena<sizeof(gcm_stream)> sa;
  for (size_t off = 0; off < kOffsets; off++) {
    SCOPED_TRACE("offset " + std::to_string(off));
    gcm_key *k = reinterpret_cast<gcm_key *>(ka.at(off));
    ASSERT_EQ(1, InitKey(k, GetParam(), 16)) << gcm_last_error_message();
    CheckKeyAndStream(k, reinterpret_cast<gcm_stream *>(sa.at(off)));
    CheckKeyAndStream(k, reinterpret_cast<gcm_stream *>(sa.at(63 - off)));
    gcm_key_cleanup(k);
    uint8_t tag[16];
    EXPECT_EQ(0, gcm_seal(k, nullptr, tag, 16, kNonce, 12, nullptr, 0,
                          nullptr, 0));
    EXPECT_EQ(GCM_ERR_NOT_INITIALIZED, gcm_last_error());
    EXPECT_EQ(nullptr, gcm_key_aes_backend(k));
  }
}

// Every key length at a few offsets (the AES-192 and -256 schedules are
// longer and laid out differently by some backends).
TEST_P(Alignment, KeyLengths) {
  Arena<sizeof(gcm_key)> ka;
  for (size_t key_len : {16, 24, 32}) {
    gcm_key ref;
    ASSERT_EQ(1, InitKey(&ref, GetParam(), key_len));
    Bytes pt = Message(16 * 40 + 5);
    Sealed want = SealOneShot(&ref, pt);
    for (size_t off : {1, 8, 16, 33, 48, 63}) {
      SCOPED_TRACE("key " + std::to_string(key_len) + ", offset " +
                   std::to_string(off));
      gcm_key *k = reinterpret_cast<gcm_key *>(ka.at(off));
      ASSERT_EQ(1, InitKey(k, GetParam(), key_len));
      ExpectSame(want, SealOneShot(k, pt));
      gcm_key_cleanup(k);
    }
    gcm_key_cleanup(&ref);
  }
}

// gcm.h: "Copying a gcm_key with memcpy gives a working copy", also to an
// address with another remainder mod 64. From offset 0 to every offset,
// and from every offset to two others, so every difference of offsets is
// seen; the original stays usable, and both are cleaned up.
TEST_P(Alignment, KeyCopiedToAnotherOffset) {
  Arena<sizeof(gcm_key)> from, to;
  Arena<sizeof(gcm_stream)> sa;
  for (size_t a = 0; a < kOffsets; a++) {
    for (size_t b : {size_t{0}, (a + 17) % kOffsets, (kOffsets - a) % kOffsets}) {
      if (a != 0 && b == 0 && a % 2 == 1) continue;  // enough pairs
      SCOPED_TRACE("from " + std::to_string(a) + " to " + std::to_string(b));
      gcm_key *src = reinterpret_cast<gcm_key *>(from.at(a));
      gcm_key *dst = reinterpret_cast<gcm_key *>(to.at(b));
      ASSERT_EQ(1, InitKey(src, GetParam(), 16));
      std::memcpy(dst, src, sizeof(gcm_key));
      CheckKeyAndStream(dst, reinterpret_cast<gcm_stream *>(sa.at(b)));
      ExpectSame(want_[3], SealOneShot(src, Message(kLengths[3])));
      gcm_key_cleanup(dst);
      EXPECT_EQ(nullptr, gcm_key_aes_backend(dst));
      uint8_t tag[16];
      EXPECT_EQ(0, gcm_seal(dst, nullptr, tag, 16, kNonce, 12, nullptr, 0,
                            nullptr, 0));
      EXPECT_EQ(GCM_ERR_NOT_INITIALIZED, gcm_last_error());
      gcm_key_cleanup(src);
    }
  }
}

// A stream copied with memcpy in mid-message to another offset goes on
// from where the original was.
TEST_P(Alignment, StreamCopiedInMidMessage) {
  Arena<sizeof(gcm_stream)> from, to;
  const Bytes pt = Message(kLengths[3]);
  for (size_t a = 0; a < kOffsets; a += 3) {
    size_t b = (a * 5 + 7) % kOffsets;
    SCOPED_TRACE("from " + std::to_string(a) + " to " + std::to_string(b));
    gcm_stream *s = reinterpret_cast<gcm_stream *>(from.at(a));
    gcm_stream *t = reinterpret_cast<gcm_stream *>(to.at(b));
    Sealed got;
    got.ct.resize(pt.size());
    ASSERT_EQ(1, gcm_stream_init(s, &ref_, GCM_ENCRYPT, kNonce, 12));
    ASSERT_EQ(1, gcm_stream_aad(s, kAad.data(), 3));
    std::memcpy(t, s, sizeof(gcm_stream));
    ASSERT_EQ(1, gcm_stream_aad(t, kAad.data() + 3, kAad.size() - 3));
    ASSERT_EQ(1, gcm_stream_update(t, got.ct.data(), pt.data(), 45));
    std::memcpy(s, t, sizeof(gcm_stream));
    ASSERT_EQ(1, gcm_stream_update(s, got.ct.data() + 45, pt.data() + 45,
                                   pt.size() - 45));
    ASSERT_EQ(1, gcm_stream_finish_seal(s, got.tag, 16));
    ExpectSame(want_[3], got);
    gcm_stream_cleanup(s);
    gcm_stream_cleanup(t);
  }
}

INSTANTIATE_TEST_SUITE_P(All, Alignment,
                         testing::ValuesIn(gcmtest::UsableBackendTriples()),
                         [](const testing::TestParamInfo<Triple> &info) {
                           return gcmtest::TripleName(info.param);
                         });

// ---- BoringSSL-compatible EVP_AEAD_CTX --------------------------------------

// EVP_AEAD_CTX's type asks only for the alignment of its pointer and 64-bit
// fields (like BoringSSL's), which callers' own structs and malloc give; it
// holds the native key as bytes, so it works at every such address. The
// default backends are the ones under test here (the ia32cap tier runs of
// this binary cover the others).
TEST(AlignmentCompat, AeadCtxAtEveryOffset) {
  const EVP_AEAD *aead = EVP_aead_aes_128_gcm();
  const Bytes pt = Message(16 * 40 + 5);
  gcm_key ref;
  ASSERT_EQ(1, gcm_key_init(&ref, kKey, 16));
  Sealed want = SealOneShot(&ref, pt);
  gcm_key_cleanup(&ref);

  Arena<sizeof(EVP_AEAD_CTX)> arena;
  for (size_t off = 0; off < kOffsets; off += alignof(EVP_AEAD_CTX)) {
    SCOPED_TRACE("offset " + std::to_string(off));
    EVP_AEAD_CTX *ctx = reinterpret_cast<EVP_AEAD_CTX *>(arena.at(off));
    EVP_AEAD_CTX_zero(ctx);
    ASSERT_EQ(1, EVP_AEAD_CTX_init(ctx, aead, kKey, 16,
                                   EVP_AEAD_DEFAULT_TAG_LENGTH, nullptr));
    // seal: ciphertext || tag
    Bytes out(pt.size() + 16);
    size_t out_len = 0;
    ASSERT_EQ(1, EVP_AEAD_CTX_seal(ctx, out.data(), &out_len, out.size(),
                                   kNonce, 12, pt.data(), pt.size(),
                                   kAad.data(), kAad.size()));
    ASSERT_EQ(out.size(), out_len);
    EXPECT_EQ(want.ct, Bytes(out.begin(), out.begin() + pt.size()));
    EXPECT_EQ(0, std::memcmp(want.tag, out.data() + pt.size(), 16));
    // open
    Bytes back(out.size());
    size_t back_len = 0;
    ASSERT_EQ(1, EVP_AEAD_CTX_open(ctx, back.data(), &back_len, back.size(),
                                   kNonce, 12, out.data(), out.size(),
                                   kAad.data(), kAad.size()));
    EXPECT_EQ(pt, Bytes(back.begin(), back.begin() + back_len));
    // seal_scatter with extra input, open_gather
    Bytes ct(pt.size() - 9), tag(16 + 9);
    size_t tag_len = 0;
    ASSERT_EQ(1, EVP_AEAD_CTX_seal_scatter(
                     ctx, ct.data(), tag.data(), &tag_len, tag.size(), kNonce,
                     12, pt.data(), ct.size(), pt.data() + ct.size(), 9,
                     kAad.data(), kAad.size()));
    ASSERT_EQ(tag.size(), tag_len);
    EXPECT_EQ(Bytes(want.ct.begin(), want.ct.begin() + ct.size()), ct);
    EXPECT_EQ(0, std::memcmp(want.tag, tag.data() + 9, 16));
    Bytes plain(pt.size());
    ASSERT_EQ(1, EVP_AEAD_CTX_open_gather(ctx, plain.data(), kNonce, 12,
                                          want.ct.data(), want.ct.size(),
                                          want.tag, 16, kAad.data(),
                                          kAad.size()));
    EXPECT_EQ(pt, plain);
    EVP_AEAD_CTX_cleanup(ctx);
    EXPECT_EQ(0, EVP_AEAD_CTX_seal(ctx, out.data(), &out_len, out.size(),
                                   kNonce, 12, pt.data(), pt.size(),
                                   kAad.data(), kAad.size()));
  }
  // EVP_AEAD_CTX_new allocates with malloc.
  EVP_AEAD_CTX *ctx = EVP_AEAD_CTX_new(aead, kKey, 16, 16);
  ASSERT_NE(nullptr, ctx);
  Bytes out(pt.size() + 16);
  size_t out_len = 0;
  ASSERT_EQ(1, EVP_AEAD_CTX_seal(ctx, out.data(), &out_len, out.size(), kNonce,
                                 12, pt.data(), pt.size(), kAad.data(),
                                 kAad.size()));
  EXPECT_EQ(want.ct, Bytes(out.begin(), out.begin() + pt.size()));
  EVP_AEAD_CTX_free(ctx);
}

// A BoringSSL program's own struct with 8-byte alignment, copied with
// memcpy to another such place: EVP_AEAD_CTX holds a gcm_key's bytes, so
// the copy works as a copied gcm_key does.
TEST(AlignmentCompat, AeadCtxCopied) {
  const EVP_AEAD *aead = EVP_aead_aes_256_gcm();
  Arena<sizeof(EVP_AEAD_CTX)> a, b;
  const Bytes pt = Message(100);
  EVP_AEAD_CTX *src = reinterpret_cast<EVP_AEAD_CTX *>(a.at(8));
  EVP_AEAD_CTX *dst = reinterpret_cast<EVP_AEAD_CTX *>(b.at(40));
  ASSERT_EQ(1, EVP_AEAD_CTX_init(src, aead, kKey, 32, 16, nullptr));
  std::memcpy(dst, src, sizeof(EVP_AEAD_CTX));
  Bytes x(pt.size() + 16), y(pt.size() + 16);
  size_t xl = 0, yl = 0;
  ASSERT_EQ(1, EVP_AEAD_CTX_seal(src, x.data(), &xl, x.size(), kNonce, 12,
                                 pt.data(), pt.size(), nullptr, 0));
  ASSERT_EQ(1, EVP_AEAD_CTX_seal(dst, y.data(), &yl, y.size(), kNonce, 12,
                                 pt.data(), pt.size(), nullptr, 0));
  EXPECT_EQ(x, y);
  EVP_AEAD_CTX_cleanup(src);
  EVP_AEAD_CTX_cleanup(dst);
}

}  // namespace
