// test/misuse_test.cc: every row of docs/api.md's "Bad input"
// table, for the cases api_test.cc and compat_test.cc leave open.
//
// Row by row, where each case is tested:
//
// 1. NULL key, nonce, tag or buffer with a non-zero length: NULL_POINTER.
//    api_test: gcm_seal (key, nonce, in, aad, tag), gcm_open (tag),
//    gcm_key_init. Here: the rest of gcm_open, gcm_seal's out, every
//    streaming call, zero-length NULL buffers being fine, and the compat
//    functions (context, AEAD, out_len, out, in, iovec arrays, pieces).
// 2. Key length: api_test (native, object zeroed), compat_test (one AEAD).
//    Here: every compat AEAD against every wrong length, context left
//    empty.
// 3. Empty nonce: api_test (seal, open, stream), compat_test (seal). Here:
//    every other compat entry point, and that other lengths (1, 13, 1000)
//    are accepted.
// 4. Tag length: api_test (seal, open), compat_test (init). Here: the
//    streaming finish calls, 0 and 17 refused, 1..16 accepted.
// 5. Too long: api_test (one-shot data over the limit, seal AAD over the
//    limit, one stream update of SIZE_MAX). Here:
//    - gcm_open with AAD over the limit;
//    - gcm_seal with AAD exactly at the limit passes the length check (it
//      then fails on a deliberate overlap, never reading the AAD);
//    - streaming AAD totals: a real first piece, then a fake-pointer piece
//      that takes the total one byte over: refused before it is read;
//    - streaming totals exactly at and one byte over both limits, using
//      the internal stream to start near the limit (whitebox: nobody can
//      feed 64 GiB to a test), then real one-byte and zero-byte calls;
//    - compat: sums of piece lengths that overflow a size_t.
//    Not tested: one-shot data of exactly 2^36 - 32 bytes being accepted
//    (it would have to be encrypted: 64 GiB of memory and minutes of CPU).
//    The compat layer zeroes every output it was handed on failure, so a
//    too-long compat call can only be tested with real buffers of that
//    size; see the note at the end of this file.
// 6. Partial overlap: api_test (seal: out/in, out/aad, out/nonce,
//    tag/out; open: out/tag; stream update), compat_test (many). Here:
//    gcm_seal's tag against in, aad and nonce; gcm_open's out against aad
//    and nonce; compat seal_scatter's out against out_tag, open_gather's
//    out against ad, openv_detached's in_tag against an output.
// 7. Output too small: compat_test (seal, open, seal_scatter, sealv).
// 8. Wrong tag or a flipped bit: api_test (gcm_open, every bit of ct, tag,
//    AAD and nonce). Here: gcm_stream_finish_open, and compat open,
//    openv and openv_detached with every tag bit flipped and ciphertext
//    bits, outputs zeroed.
// 9. State: api_test (AAD after data, finish twice, data after finish,
//    wrong finish for the direction, use after an over-long update).
//    Here: AAD after finish, and every call after each kind of failed
//    call (NULL AAD, bad tag length at finish, failed tag check,
//    overlap).
// 10. Not initialised: api_test (seal after cleanup, zeroed stream,
//    key cleaned mid-stream), compat_test (seal on an empty context).
//    Here: garbage and zeroed keys for every native call and query, a
//    stream after cleanup, every compat call on empty and cleaned-up
//    contexts.
// 11. TLS nonce order: compat_test (TLS 1.2 and 1.3 via seal, TLS 1.3 via
//    sealv and seal_scatter). Here: TLS 1.2 via seal_scatter and sealv,
//    and a refused nonce leaving the counter where it was.
// 12. Backend names: api_test (unknown and unusable by name), the env.*
//    tests (by environment). Here: queries for unknown names.
// 13. randnonce AEADs: a nonce argument that is not empty
//    (NONCE_LENGTH) and tag lengths 1..12 and 29+ (TAG_LENGTH) in
//    compat_randnonce_test, in every seal and open form; the OS random
//    source failing (RANDOM, outputs zeroed) in random_failure.c. Here:
//    their wrong key lengths, with the other AEADs'.
#include <openssl/aead.h>

#include <gcm/gcm.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <vector>

#include "../crypto/gcm/mode.h"
#include "../crypto/gcm/placement.h"
#include "test_util.h"

using gcmtest::AllZero;
using gcmtest::Bytes;
using gcmtest::WithBitFlipped;

namespace {

const uint8_t kKey[16] = {0xfe, 0xff, 0xe9, 0x92, 0x86, 0x65, 0x73, 0x1c,
                          0x6d, 0x6a, 0x8f, 0x94, 0x67, 0x30, 0x83, 0x08};
const uint8_t kNonce[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce,
                            0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};

// An address that is never dereferenced: the calls given it must refuse
// before touching memory. Far below any mapping on 64-bit Linux.
uint8_t *Fake(int i) {
  return reinterpret_cast<uint8_t *>(uintptr_t{1} << (40 + i));
}

gcm_stream_st *Internal(gcm_stream *s) {
  return gcm_stream_place(s);
}

class Misuse : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(1, gcm_key_init(&key_, kKey, 16)); }
  void TearDown() override { gcm_key_cleanup(&key_); }
  gcm_key key_;
};

#define EXPECT_ERR(call, err)                      \
  do {                                             \
    EXPECT_EQ(0, (call));                          \
    EXPECT_EQ((err), gcm_last_error()) << #call;   \
  } while (0)

// ---- 1. NULL pointers ---------------------------------------------------

TEST_F(Misuse, NullPointersNativeOpen) {
  Bytes ct(20, 1), out(20, 0xee);
  uint8_t tag[16] = {0}, aad[4] = {0};
  EXPECT_ERR(gcm_open(nullptr, out.data(), kNonce, 12, ct.data(), 20, tag, 16, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_TRUE(AllZero(out.data(), 20));
  EXPECT_ERR(gcm_open(&key_, out.data(), nullptr, 12, ct.data(), 20, tag, 16, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(gcm_open(&key_, out.data(), kNonce, 12, nullptr, 20, tag, 16, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(gcm_open(&key_, nullptr, kNonce, 12, ct.data(), 20, tag, 16, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  memset(out.data(), 0xee, 20);
  EXPECT_ERR(gcm_open(&key_, out.data(), kNonce, 12, ct.data(), 20, tag, 16, nullptr, 4),
             GCM_ERR_NULL_POINTER);
  EXPECT_TRUE(AllZero(out.data(), 20));
  (void)aad;
}

TEST_F(Misuse, NullPointersNativeSealOutAndEmptyBuffers) {
  Bytes pt(20, 1);
  uint8_t tag[16];
  memset(tag, 0xee, sizeof(tag));
  EXPECT_ERR(gcm_seal(&key_, nullptr, tag, 16, kNonce, 12, pt.data(), 20, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_TRUE(AllZero(tag, 16));
  // NULL is fine for empty buffers, in both directions.
  ASSERT_EQ(1, gcm_seal(&key_, nullptr, tag, 16, kNonce, 12, nullptr, 0, nullptr, 0));
  EXPECT_EQ(1, gcm_open(&key_, nullptr, kNonce, 12, nullptr, 0, tag, 16, nullptr, 0));
}

TEST_F(Misuse, NullPointersStreaming) {
  gcm_stream s;
  uint8_t buf[16] = {0}, tag[16];
  EXPECT_ERR(gcm_stream_init(nullptr, &key_, GCM_ENCRYPT, kNonce, 12), GCM_ERR_NULL_POINTER);
  EXPECT_ERR(gcm_stream_init(&s, nullptr, GCM_ENCRYPT, kNonce, 12), GCM_ERR_NULL_POINTER);
  EXPECT_ERR(gcm_stream_init(&s, &key_, GCM_ENCRYPT, nullptr, 12), GCM_ERR_NULL_POINTER);
  EXPECT_ERR(gcm_stream_aad(nullptr, buf, 1), GCM_ERR_NULL_POINTER);
  EXPECT_ERR(gcm_stream_update(nullptr, buf, buf, 1), GCM_ERR_NULL_POINTER);
  EXPECT_ERR(gcm_stream_finish_seal(nullptr, tag, 16), GCM_ERR_NULL_POINTER);
  EXPECT_ERR(gcm_stream_finish_open(nullptr, tag, 16), GCM_ERR_NULL_POINTER);
  gcm_stream_cleanup(nullptr);

  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  EXPECT_ERR(gcm_stream_aad(&s, nullptr, 3), GCM_ERR_NULL_POINTER);

  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  memset(buf, 0xee, sizeof(buf));
  EXPECT_ERR(gcm_stream_update(&s, buf, nullptr, 16), GCM_ERR_NULL_POINTER);
  EXPECT_TRUE(AllZero(buf, 16));
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  EXPECT_ERR(gcm_stream_update(&s, nullptr, buf, 16), GCM_ERR_NULL_POINTER);

  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  EXPECT_ERR(gcm_stream_finish_seal(&s, nullptr, 16), GCM_ERR_NULL_POINTER);
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_DECRYPT, kNonce, 12));
  EXPECT_ERR(gcm_stream_finish_open(&s, nullptr, 16), GCM_ERR_NULL_POINTER);

  // Empty NULL pieces are fine.
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  EXPECT_EQ(1, gcm_stream_aad(&s, nullptr, 0));
  EXPECT_EQ(1, gcm_stream_update(&s, nullptr, nullptr, 0));
  EXPECT_EQ(1, gcm_stream_finish_seal(&s, tag, 16));
  gcm_stream_cleanup(&s);
}

TEST(MisuseCompat, NullPointers) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey, 16, 0, nullptr));
  uint8_t out[64], tag[16], in[32] = {0};
  size_t len = 7;
  EXPECT_ERR(EVP_AEAD_CTX_init(nullptr, EVP_aead_aes_128_gcm(), kKey, 16, 0, nullptr),
             GCM_ERR_NULL_POINTER);
  {
    EVP_AEAD_CTX c;
    EXPECT_ERR(EVP_AEAD_CTX_init(&c, nullptr, kKey, 16, 0, nullptr), GCM_ERR_NULL_POINTER);
    EXPECT_EQ(nullptr, EVP_AEAD_CTX_aead(&c));
    EXPECT_ERR(EVP_AEAD_CTX_init(&c, EVP_aead_aes_128_gcm(), nullptr, 16, 0, nullptr),
               GCM_ERR_NULL_POINTER);
    EXPECT_EQ(nullptr, EVP_AEAD_CTX_aead(&c));
  }
  EXPECT_ERR(EVP_AEAD_CTX_seal(nullptr, out, &len, sizeof(out), kNonce, 12, in, 16, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_EQ(0u, len);
  EXPECT_ERR(EVP_AEAD_CTX_seal(ctx.get(), out, nullptr, sizeof(out), kNonce, 12, in, 16,
                               nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_seal(ctx.get(), nullptr, &len, 40, kNonce, 12, in, 16, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  memset(out, 0xee, sizeof(out));
  EXPECT_ERR(EVP_AEAD_CTX_seal(ctx.get(), out, &len, sizeof(out), kNonce, 12, nullptr, 16,
                               nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_TRUE(AllZero(out, sizeof(out)));
  EXPECT_ERR(EVP_AEAD_CTX_seal(ctx.get(), out, &len, sizeof(out), kNonce, 12, in, 16,
                               nullptr, 3),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_seal(ctx.get(), out, &len, sizeof(out), nullptr, 12, in, 16,
                               nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_open(ctx.get(), out, &len, sizeof(out), kNonce, 12, nullptr, 32,
                               nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_open(ctx.get(), out, nullptr, sizeof(out), kNonce, 12, in, 32,
                               nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_seal_scatter(ctx.get(), out, tag, nullptr, 16, kNonce, 12, in, 16,
                                       nullptr, 0, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_seal_scatter(ctx.get(), out, nullptr, &len, 16, kNonce, 12, in, 16,
                                       nullptr, 0, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  uint8_t tag_and_extra[20];
  EXPECT_ERR(EVP_AEAD_CTX_seal_scatter(ctx.get(), out, tag_and_extra, &len, 20, kNonce, 12,
                                       in, 16, nullptr, 4, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_open_gather(ctx.get(), out, kNonce, 12, in, 16, nullptr, 16,
                                      nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_sealv(ctx.get(), nullptr, 2, tag, &len, 16, kNonce, 12, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_sealv(ctx.get(), nullptr, 0, tag, nullptr, 16, kNonce, 12, nullptr,
                                0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_sealv(ctx.get(), nullptr, 0, tag, &len, 16, kNonce, 12, nullptr, 1),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_openv(ctx.get(), nullptr, 1, &len, kNonce, 12, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_openv_detached(ctx.get(), nullptr, 1, kNonce, 12, tag, 16, nullptr,
                                         0),
             GCM_ERR_NULL_POINTER);
  // A piece whose input is NULL: single-piece and multi-piece paths.
  CRYPTO_IOVEC one = {out, nullptr, 8};
  EXPECT_ERR(EVP_AEAD_CTX_sealv(ctx.get(), &one, 1, tag, &len, 16, kNonce, 12, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  CRYPTO_IOVEC two[2] = {{out, in, 8}, {out + 8, nullptr, 8}};
  EXPECT_ERR(EVP_AEAD_CTX_sealv(ctx.get(), two, 2, tag, &len, 16, kNonce, 12, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_openv_detached(ctx.get(), two, 2, kNonce, 12, tag, 16, nullptr, 0),
             GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_tag_len(ctx.get(), nullptr, 0, 0), GCM_ERR_NULL_POINTER);
  EXPECT_ERR(EVP_AEAD_CTX_tag_len(nullptr, &len, 0, 0), GCM_ERR_NULL_POINTER);
}

// ---- 2. Key length ------------------------------------------------------

TEST(MisuseCompat, EveryAeadRefusesEveryWrongKeyLength) {
  const EVP_AEAD *aeads[] = {
      EVP_aead_aes_128_gcm(),           EVP_aead_aes_192_gcm(),
      EVP_aead_aes_256_gcm(),           EVP_aead_aes_128_gcm_tls12(),
      EVP_aead_aes_256_gcm_tls12(),     EVP_aead_aes_128_gcm_tls13(),
      EVP_aead_aes_256_gcm_tls13(),     EVP_aead_aes_128_gcm_randnonce(),
      EVP_aead_aes_256_gcm_randnonce()};
  const uint8_t raw[40] = {0};
  for (const EVP_AEAD *aead : aeads) {
    for (size_t len : {0, 1, 15, 16, 17, 24, 31, 32, 33, 40}) {
      if (len == EVP_AEAD_key_length(aead)) continue;
      EVP_AEAD_CTX ctx;
      memset(&ctx, 0xa5, sizeof(ctx));
      EXPECT_ERR(EVP_AEAD_CTX_init(&ctx, aead, raw, len, 0, nullptr), GCM_ERR_KEY_LENGTH);
      EXPECT_EQ(nullptr, EVP_AEAD_CTX_aead(&ctx)) << len;
      EVP_AEAD_CTX_cleanup(&ctx);
      EXPECT_EQ(nullptr, EVP_AEAD_CTX_new(aead, raw, len, 0));
    }
  }
}

// ---- 3. Nonce length ----------------------------------------------------

TEST(MisuseCompat, EmptyNonceEverywhere) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey, 16, 0, nullptr));
  uint8_t out[64], tag[16] = {0}, in[32] = {0};
  size_t len;
  CRYPTO_IOVEC piece = {out, in, 16};
  EXPECT_ERR(EVP_AEAD_CTX_open(ctx.get(), out, &len, sizeof(out), kNonce, 0, in, 32, nullptr,
                               0),
             GCM_ERR_NONCE_LENGTH);
  EXPECT_ERR(EVP_AEAD_CTX_seal_scatter(ctx.get(), out, tag, &len, 16, kNonce, 0, in, 16,
                                       nullptr, 0, nullptr, 0),
             GCM_ERR_NONCE_LENGTH);
  EXPECT_ERR(EVP_AEAD_CTX_open_gather(ctx.get(), out, kNonce, 0, in, 16, tag, 16, nullptr, 0),
             GCM_ERR_NONCE_LENGTH);
  EXPECT_ERR(EVP_AEAD_CTX_sealv(ctx.get(), &piece, 1, tag, &len, 16, kNonce, 0, nullptr, 0),
             GCM_ERR_NONCE_LENGTH);
  CRYPTO_IOVEC whole = {out, in, 32};
  EXPECT_ERR(EVP_AEAD_CTX_openv(ctx.get(), &whole, 1, &len, kNonce, 0, nullptr, 0),
             GCM_ERR_NONCE_LENGTH);
  EXPECT_ERR(EVP_AEAD_CTX_openv_detached(ctx.get(), &piece, 1, kNonce, 0, tag, 16, nullptr, 0),
             GCM_ERR_NONCE_LENGTH);
}

TEST_F(Misuse, AnyNonEmptyNonceLengthWorks) {
  Bytes nonce(1000);
  for (size_t i = 0; i < nonce.size(); i++) nonce[i] = static_cast<uint8_t>(i);
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey, 16, 0, nullptr));
  for (size_t n : {1, 8, 11, 13, 16, 17, 64, 1000}) {
    const uint8_t pt[5] = {1, 2, 3, 4, 5};
    uint8_t ct[5], tag[16], back[5];
    ASSERT_EQ(1, gcm_seal(&key_, ct, tag, 16, nonce.data(), n, pt, 5, nullptr, 0)) << n;
    ASSERT_EQ(1, gcm_open(&key_, back, nonce.data(), n, ct, 5, tag, 16, nullptr, 0)) << n;
    EXPECT_EQ(0, memcmp(pt, back, 5));
    uint8_t sealed[21];
    size_t len;
    ASSERT_TRUE(EVP_AEAD_CTX_seal(ctx.get(), sealed, &len, sizeof(sealed), nonce.data(), n,
                                  pt, 5, nullptr, 0));
    EXPECT_EQ(0, memcmp(sealed, ct, 5));
    EXPECT_EQ(0, memcmp(sealed + 5, tag, 16));
  }
}

// ---- 4. Tag length ------------------------------------------------------

TEST_F(Misuse, StreamFinishTagLengths) {
  gcm_stream s;
  uint8_t tag[17] = {0}, full[16];
  for (size_t bad : {0, 17}) {
    ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
    memset(tag, 0xee, sizeof(tag));
    EXPECT_ERR(gcm_stream_finish_seal(&s, tag, bad), GCM_ERR_TAG_LENGTH);
    if (bad <= 16) {
      EXPECT_TRUE(AllZero(tag, bad));
    }
    ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_DECRYPT, kNonce, 12));
    EXPECT_ERR(gcm_stream_finish_open(&s, tag, bad), GCM_ERR_TAG_LENGTH);
  }
  ASSERT_EQ(1, gcm_seal(&key_, nullptr, full, 16, kNonce, 12, nullptr, 0, nullptr, 0));
  for (size_t n = 1; n <= 16; n++) {
    ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
    ASSERT_EQ(1, gcm_stream_finish_seal(&s, tag, n)) << n;
    EXPECT_EQ(0, memcmp(tag, full, n));
    ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_DECRYPT, kNonce, 12));
    EXPECT_EQ(1, gcm_stream_finish_open(&s, full, n)) << n;
  }
  gcm_stream_cleanup(&s);
}

// ---- 5. Too long --------------------------------------------------------

TEST_F(Misuse, OpenAadOverTheLimit) {
  if (sizeof(size_t) < 8) GTEST_SKIP() << "the limit exceeds size_t";
  uint8_t ct[16] = {0}, tag[16] = {0}, out[16];
  memset(out, 0xee, sizeof(out));
  const size_t over = static_cast<size_t>(GCM_MAX_AAD_LEN) + 1;
  EXPECT_ERR(gcm_open(&key_, out, kNonce, 12, ct, 16, tag, 16, Fake(0), over),
             GCM_ERR_TOO_LONG);
  EXPECT_TRUE(AllZero(out, sizeof(out)));  // a real buffer is still zeroed
}

TEST_F(Misuse, SealAadExactlyAtTheLimitPassesTheLengthCheck) {
  if (sizeof(size_t) < 8) GTEST_SKIP() << "the limit exceeds size_t";
  // The tag overlaps the nonce, which gcm_seal checks after the lengths:
  // GCM_ERR_OVERLAP shows the length was accepted, GCM_ERR_TOO_LONG that
  // it was not. The AAD is never read either way.
  uint8_t buf[32] = {0};
  const size_t limit = static_cast<size_t>(GCM_MAX_AAD_LEN);
  EXPECT_ERR(gcm_seal(&key_, nullptr, buf + 4, 16, buf, 12, nullptr, 0, Fake(0), limit),
             GCM_ERR_OVERLAP);
  EXPECT_ERR(gcm_seal(&key_, nullptr, buf + 4, 16, buf, 12, nullptr, 0, Fake(0), limit + 1),
             GCM_ERR_TOO_LONG);
}

TEST_F(Misuse, StreamAadRunningTotalOverTheLimit) {
  if (sizeof(size_t) < 8) GTEST_SKIP() << "the limit exceeds size_t";
  gcm_stream s;
  uint8_t aad[10] = {0};
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  ASSERT_EQ(1, gcm_stream_aad(&s, aad, sizeof(aad)));
  // Alone this piece would fit; with the 10 bytes before it, it does not.
  const size_t piece = static_cast<size_t>(GCM_MAX_AAD_LEN) - sizeof(aad) + 1;
  EXPECT_ERR(gcm_stream_aad(&s, Fake(0), piece), GCM_ERR_TOO_LONG);
  EXPECT_ERR(gcm_stream_aad(&s, aad, 1), GCM_ERR_STATE);
  gcm_stream_cleanup(&s);
}

// Whitebox: the internal stream is moved to just below the limits, as if
// that much had been fed, at a block boundary so its state stays coherent.
TEST_F(Misuse, StreamDataTotalAtAndOverTheLimit) {
  gcm_stream s;
  uint8_t buf[32] = {0}, tag[16];
  ASSERT_EQ(GCM_MAX_DATA_LEN % 16, 0u);
  for (size_t last : {15, 16, 17}) {
    SCOPED_TRACE(last);
    ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
    ASSERT_EQ(1, gcm_stream_update(&s, buf, buf, 0));  // enter the data phase
    Internal(&s)->data_len = GCM_MAX_DATA_LEN - 16;
    memset(buf, 0xee, sizeof(buf));
    int ok = gcm_stream_update(&s, buf, buf, last);
    if (last <= 16) {
      EXPECT_EQ(1, ok) << "a total of exactly 2^36-32 bytes is allowed";
      EXPECT_ERR(gcm_stream_update(&s, buf, buf, 17 - last), GCM_ERR_TOO_LONG);
      EXPECT_TRUE(AllZero(buf, 17 - last));
    } else {
      EXPECT_EQ(0, ok);
      EXPECT_EQ(GCM_ERR_TOO_LONG, gcm_last_error());
      EXPECT_TRUE(AllZero(buf, last)) << "the refused update's output is zeroed";
    }
    EXPECT_ERR(gcm_stream_finish_seal(&s, tag, 16), GCM_ERR_STATE);
  }
  // Exactly at the limit, the message can be finished.
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  ASSERT_EQ(1, gcm_stream_update(&s, buf, buf, 0));
  Internal(&s)->data_len = GCM_MAX_DATA_LEN - 16;
  ASSERT_EQ(1, gcm_stream_update(&s, buf, buf, 16));
  EXPECT_EQ(1, gcm_stream_update(&s, buf, buf, 0)) << "empty updates are always fine";
  EXPECT_EQ(1, gcm_stream_finish_seal(&s, tag, 16));
  gcm_stream_cleanup(&s);
}

TEST_F(Misuse, StreamAadTotalAtAndOverTheLimit) {
  gcm_stream s;
  uint8_t aad[16] = {0}, tag[16];
  const uint64_t base = GCM_MAX_AAD_LEN & ~uint64_t{15};  // block aligned
  const size_t room = static_cast<size_t>(GCM_MAX_AAD_LEN - base);  // 15
  ASSERT_EQ(15u, room);
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  Internal(&s)->aad_len = base;
  EXPECT_ERR(gcm_stream_aad(&s, aad, room + 1), GCM_ERR_TOO_LONG);

  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  Internal(&s)->aad_len = base;
  EXPECT_EQ(1, gcm_stream_aad(&s, aad, room)) << "a total of exactly 2^61-1 is allowed";
  EXPECT_EQ(1, gcm_stream_aad(&s, aad, 0));
  EXPECT_ERR(gcm_stream_aad(&s, aad, 1), GCM_ERR_TOO_LONG);

  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  Internal(&s)->aad_len = base;
  ASSERT_EQ(1, gcm_stream_aad(&s, aad, room));
  EXPECT_EQ(1, gcm_stream_finish_seal(&s, tag, 16));
  gcm_stream_cleanup(&s);
}

TEST(MisuseCompat, LengthSumsThatOverflow) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey, 16, 0, nullptr));
  uint8_t tag[16];
  size_t len = 9;
  // NULL outputs: nothing can be zeroed, so nothing is touched.
  CRYPTO_IOVEC pieces[2] = {{nullptr, nullptr, SIZE_MAX}, {nullptr, nullptr, 1}};
  EXPECT_ERR(EVP_AEAD_CTX_sealv(ctx.get(), pieces, 2, tag, &len, 16, kNonce, 12, nullptr, 0),
             GCM_ERR_TOO_LONG);
  EXPECT_EQ(0u, len);
  CRYPTO_IVEC aad[2] = {{nullptr, SIZE_MAX}, {nullptr, 1}};
  EXPECT_ERR(EVP_AEAD_CTX_sealv(ctx.get(), nullptr, 0, tag, &len, 16, kNonce, 12, aad, 2),
             GCM_ERR_TOO_LONG);
  EXPECT_ERR(EVP_AEAD_CTX_openv(ctx.get(), pieces, 2, &len, kNonce, 12, nullptr, 0),
             GCM_ERR_TOO_LONG);
  EXPECT_ERR(EVP_AEAD_CTX_tag_len(ctx.get(), &len, 0, SIZE_MAX - 3), GCM_ERR_TOO_LONG);
  EXPECT_EQ(0u, len);
}

// ---- 6. Overlap ---------------------------------------------------------

TEST_F(Misuse, OverlapsApiTestLeavesOpen) {
  uint8_t buf[128];
  uint8_t tag[16];
  Bytes pt(32, 3), out(32);
  // gcm_seal: tag over in, over aad, over nonce.
  memcpy(buf, pt.data(), 32);
  EXPECT_ERR(gcm_seal(&key_, out.data(), buf + 8, 16, kNonce, 12, buf, 32, nullptr, 0),
             GCM_ERR_OVERLAP);
  EXPECT_TRUE(AllZero(out.data(), 32));
  EXPECT_ERR(gcm_seal(&key_, out.data(), buf + 4, 16, kNonce, 12, pt.data(), 32, buf, 12),
             GCM_ERR_OVERLAP);
  memcpy(buf + 64, kNonce, 12);
  EXPECT_ERR(gcm_seal(&key_, out.data(), buf + 60, 16, buf + 64, 12, pt.data(), 32, nullptr,
                      0),
             GCM_ERR_OVERLAP);
  // gcm_open: out over aad, over nonce.
  ASSERT_EQ(1, gcm_seal(&key_, out.data(), tag, 16, kNonce, 12, pt.data(), 32, nullptr, 0));
  EXPECT_ERR(gcm_open(&key_, buf, kNonce, 12, out.data(), 32, tag, 16, buf + 30, 4),
             GCM_ERR_OVERLAP);
  EXPECT_TRUE(AllZero(buf, 32));
  memcpy(buf + 40, kNonce, 12);
  EXPECT_ERR(gcm_open(&key_, buf + 20, buf + 40, 12, out.data(), 32, tag, 16, nullptr, 0),
             GCM_ERR_OVERLAP);
  // Touching but not overlapping is fine.
  memcpy(buf + 32, kNonce, 12);
  EXPECT_EQ(1, gcm_open(&key_, buf, buf + 32, 12, out.data(), 32, tag, 16, nullptr, 0));
  EXPECT_EQ(pt, Bytes(buf, buf + 32));
}

TEST(MisuseCompat, OverlapsCompatTestLeavesOpen) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey, 16, 0, nullptr));
  uint8_t buf[128] = {0}, in[32] = {0}, tag[16] = {0};
  size_t len;
  // seal_scatter: out_tag over out.
  EXPECT_ERR(EVP_AEAD_CTX_seal_scatter(ctx.get(), buf, buf + 20, &len, 16, kNonce, 12, in, 32,
                                       nullptr, 0, nullptr, 0),
             GCM_ERR_OVERLAP);
  // open_gather: out over ad.
  EXPECT_ERR(EVP_AEAD_CTX_open_gather(ctx.get(), buf, kNonce, 12, in, 32, tag, 16, buf + 31,
                                      5),
             GCM_ERR_OVERLAP);
  // openv_detached: in_tag inside an output piece.
  CRYPTO_IOVEC piece = {buf, in, 32};
  EXPECT_ERR(EVP_AEAD_CTX_openv_detached(ctx.get(), &piece, 1, kNonce, 12, buf + 16, 16,
                                         nullptr, 0),
             GCM_ERR_OVERLAP);
}

// ---- 8. Wrong tag / flipped bits ----------------------------------------

TEST_F(Misuse, StreamFinishOpenRejectsFlippedBits) {
  Bytes pt(40, 9), ct(40);
  uint8_t tag[16];
  ASSERT_EQ(1, gcm_seal(&key_, ct.data(), tag, 16, kNonce, 12, pt.data(), 40, nullptr, 0));
  gcm_stream s;
  for (size_t bit = 0; bit < 8 * (16 + 40); bit++) {
    // The first 128 bits are the tag's, the rest the ciphertext's.
    const Bytes t = bit < 128 ? WithBitFlipped(tag, 16, bit) : Bytes(tag, tag + 16);
    const Bytes c = bit < 128 ? ct : WithBitFlipped(ct, bit - 128);
    Bytes out(40);
    ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_DECRYPT, kNonce, 12));
    ASSERT_EQ(1, gcm_stream_update(&s, out.data(), c.data(), 40));
    EXPECT_ERR(gcm_stream_finish_open(&s, t.data(), 16), GCM_ERR_AUTH);
  }
  gcm_stream_cleanup(&s);
}

TEST(MisuseCompat, FlippedBitsZeroEveryOpenOutput) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), kKey, 16, 0, nullptr));
  Bytes pt(33, 0x5a), sealed(49), aad(7, 1);
  size_t len;
  ASSERT_TRUE(EVP_AEAD_CTX_seal(ctx.get(), sealed.data(), &len, sealed.size(), kNonce, 12,
                                pt.data(), pt.size(), aad.data(), aad.size()));
  for (size_t bit = 0; bit < 8 * sealed.size(); bit += 3) {
    const Bytes bad = WithBitFlipped(sealed, bit);
    Bytes out(64, 0xee);
    EXPECT_ERR(EVP_AEAD_CTX_open(ctx.get(), out.data(), &len, out.size(), kNonce, 12,
                                 bad.data(), bad.size(), aad.data(), aad.size()),
               GCM_ERR_AUTH);
    EXPECT_TRUE(AllZero(out.data(), out.size()));
    Bytes o1(20, 0xee), o2(29, 0xee);
    CRYPTO_IOVEC two[2] = {{o1.data(), bad.data(), 20}, {o2.data(), bad.data() + 20, 29}};
    EXPECT_ERR(EVP_AEAD_CTX_openv(ctx.get(), two, 2, &len, kNonce, 12, nullptr, 0),
               GCM_ERR_AUTH);  // no AAD: fails even unflipped, still zeroes
    CRYPTO_IVEC av = {aad.data(), aad.size()};
    o1.assign(20, 0xee);
    o2.assign(29, 0xee);
    EXPECT_ERR(EVP_AEAD_CTX_openv(ctx.get(), two, 2, &len, kNonce, 12, &av, 1), GCM_ERR_AUTH);
    EXPECT_TRUE(AllZero(o1.data(), 20) && AllZero(o2.data(), 29));
    o1.assign(20, 0xee);
    o2.assign(13, 0xee);
    CRYPTO_IOVEC det[2] = {{o1.data(), bad.data(), 20}, {o2.data(), bad.data() + 20, 13}};
    EXPECT_ERR(EVP_AEAD_CTX_openv_detached(ctx.get(), det, 2, kNonce, 12, bad.data() + 33, 16,
                                           &av, 1),
               GCM_ERR_AUTH);
    EXPECT_TRUE(AllZero(o1.data(), 20) && AllZero(o2.data(), 13));
  }
}

// ---- 9. State -----------------------------------------------------------

TEST_F(Misuse, EveryCallFailsAfterAFailedCall) {
  uint8_t buf[32] = {0}, tag[16] = {0};
  gcm_stream s;
  // One way to fail, for each kind of call; afterwards AAD, data and both
  // finishes all fail with GCM_ERR_STATE.
  auto fail_aad_null = [&] { return gcm_stream_aad(&s, nullptr, 1); };
  auto fail_overlap = [&] { return gcm_stream_update(&s, buf + 1, buf, 8); };
  auto fail_tag_len = [&] { return gcm_stream_finish_seal(&s, tag, 0); };
  auto fail_finish_wrong_dir = [&] { return gcm_stream_finish_open(&s, tag, 16); };
  auto finish_ok = [&] { return gcm_stream_finish_seal(&s, tag, 16) ? 0 : 1; };
  for (auto failing : std::vector<std::function<int()>>{
           fail_aad_null, fail_overlap, fail_tag_len, fail_finish_wrong_dir, finish_ok}) {
    ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
    ASSERT_EQ(1, gcm_stream_aad(&s, buf, 3));
    EXPECT_EQ(0, failing());
    EXPECT_ERR(gcm_stream_aad(&s, buf, 1), GCM_ERR_STATE);
    EXPECT_ERR(gcm_stream_update(&s, buf, buf, 1), GCM_ERR_STATE);
    EXPECT_ERR(gcm_stream_finish_seal(&s, tag, 16), GCM_ERR_STATE);
    EXPECT_ERR(gcm_stream_finish_open(&s, tag, 16), GCM_ERR_STATE);
    // Re-initialising brings it back.
    EXPECT_EQ(1, gcm_stream_init(&s, &key_, GCM_ENCRYPT, kNonce, 12));
  }
  // A decrypting stream after a failed tag check.
  ASSERT_EQ(1, gcm_stream_init(&s, &key_, GCM_DECRYPT, kNonce, 12));
  EXPECT_ERR(gcm_stream_finish_open(&s, tag, 16), GCM_ERR_AUTH);
  EXPECT_ERR(gcm_stream_update(&s, buf, buf, 1), GCM_ERR_STATE);
  EXPECT_ERR(gcm_stream_finish_open(&s, tag, 16), GCM_ERR_STATE);
  gcm_stream_cleanup(&s);
}

// ---- 10. Not initialised ------------------------------------------------

TEST(MisuseNotInitialized, NativeKeyGarbageOrZero) {
  for (int fill : {0x00, 0xa5}) {
    gcm_key k;
    memset(&k, fill, sizeof(k));
    uint8_t buf[16] = {0}, tag[16] = {0};
    gcm_stream s;
    EXPECT_ERR(gcm_seal(&k, buf, tag, 16, kNonce, 12, buf, 16, nullptr, 0),
               GCM_ERR_NOT_INITIALIZED);
    memset(buf, 0xee, sizeof(buf));
    EXPECT_ERR(gcm_open(&k, buf, kNonce, 12, tag, 16, tag, 16, nullptr, 0),
               GCM_ERR_NOT_INITIALIZED);
    EXPECT_TRUE(AllZero(buf, 16));
    EXPECT_ERR(gcm_stream_init(&s, &k, GCM_ENCRYPT, kNonce, 12), GCM_ERR_NOT_INITIALIZED);
    EXPECT_ERR(gcm_stream_aad(&s, buf, 1), GCM_ERR_NOT_INITIALIZED);
    EXPECT_EQ(nullptr, gcm_key_aes_backend(&k));
    EXPECT_EQ(nullptr, gcm_key_ghash_backend(&k));
    EXPECT_EQ(0u, gcm_key_length(&k));
  }
  EXPECT_EQ(nullptr, gcm_key_aes_backend(nullptr));
  EXPECT_EQ(0u, gcm_key_length(nullptr));
}

TEST(MisuseNotInitialized, StreamGarbageAndAfterCleanup) {
  gcm_key key;
  ASSERT_EQ(1, gcm_key_init(&key, kKey, 16));
  uint8_t buf[16] = {0}, tag[16] = {0};
  gcm_stream s;
  memset(&s, 0xa5, sizeof(s));
  EXPECT_ERR(gcm_stream_update(&s, buf, buf, 1), GCM_ERR_NOT_INITIALIZED);
  EXPECT_ERR(gcm_stream_finish_seal(&s, tag, 16), GCM_ERR_NOT_INITIALIZED);
  ASSERT_EQ(1, gcm_stream_init(&s, &key, GCM_ENCRYPT, kNonce, 12));
  gcm_stream_cleanup(&s);
  EXPECT_ERR(gcm_stream_aad(&s, buf, 1), GCM_ERR_NOT_INITIALIZED);
  EXPECT_ERR(gcm_stream_update(&s, buf, buf, 1), GCM_ERR_NOT_INITIALIZED);
  EXPECT_ERR(gcm_stream_finish_seal(&s, tag, 16), GCM_ERR_NOT_INITIALIZED);
  EXPECT_ERR(gcm_stream_finish_open(&s, tag, 16), GCM_ERR_NOT_INITIALIZED);
  gcm_key_cleanup(&key);
}

TEST(MisuseNotInitialized, CompatEmptyAndCleanedContexts) {
  for (bool cleaned : {false, true}) {
    EVP_AEAD_CTX ctx;
    EVP_AEAD_CTX_zero(&ctx);
    if (cleaned) {
      ASSERT_TRUE(EVP_AEAD_CTX_init(&ctx, EVP_aead_aes_128_gcm(), kKey, 16, 0, nullptr));
      EVP_AEAD_CTX_cleanup(&ctx);
    }
    uint8_t out[64], in[32] = {0}, tag[16] = {0};
    size_t len;
    CRYPTO_IOVEC piece = {out, in, 32};
    memset(out, 0xee, sizeof(out));
    EXPECT_ERR(EVP_AEAD_CTX_open(&ctx, out, &len, sizeof(out), kNonce, 12, in, 32, nullptr, 0),
               GCM_ERR_NOT_INITIALIZED);
    EXPECT_TRUE(AllZero(out, sizeof(out)));
    EXPECT_ERR(EVP_AEAD_CTX_seal_scatter(&ctx, out, tag, &len, 16, kNonce, 12, in, 16, nullptr,
                                         0, nullptr, 0),
               GCM_ERR_NOT_INITIALIZED);
    EXPECT_ERR(EVP_AEAD_CTX_open_gather(&ctx, out, kNonce, 12, in, 16, tag, 16, nullptr, 0),
               GCM_ERR_NOT_INITIALIZED);
    EXPECT_ERR(EVP_AEAD_CTX_sealv(&ctx, &piece, 1, tag, &len, 16, kNonce, 12, nullptr, 0),
               GCM_ERR_NOT_INITIALIZED);
    EXPECT_ERR(EVP_AEAD_CTX_openv(&ctx, &piece, 1, &len, kNonce, 12, nullptr, 0),
               GCM_ERR_NOT_INITIALIZED);
    EXPECT_ERR(EVP_AEAD_CTX_openv_detached(&ctx, &piece, 1, kNonce, 12, tag, 16, nullptr, 0),
               GCM_ERR_NOT_INITIALIZED);
    EXPECT_ERR(EVP_AEAD_CTX_tag_len(&ctx, &len, 10, 0), GCM_ERR_NOT_INITIALIZED);
    EXPECT_EQ(nullptr, EVP_AEAD_CTX_aead(&ctx));
  }
}

// ---- 11. TLS nonce order ------------------------------------------------

TEST(MisuseCompat, Tls12RuleInEverySealForm) {
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(
      EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm_tls12(), kKey, 16, 0, nullptr));
  auto nonce = [](uint8_t counter) {
    Bytes n(12, 0);
    n[11] = counter;
    return n;
  };
  uint8_t pt[10] = {1}, ct[10], tag[16];
  size_t len;
  CRYPTO_IOVEC piece = {ct, pt, sizeof(pt)};
  Bytes n5 = nonce(5), n4 = nonce(4), n6 = nonce(6);
  ASSERT_TRUE(EVP_AEAD_CTX_seal_scatter(ctx.get(), ct, tag, &len, 16, n5.data(), 12, pt, 10,
                                        nullptr, 0, nullptr, 0));
  EXPECT_ERR(EVP_AEAD_CTX_sealv(ctx.get(), &piece, 1, tag, &len, 16, n5.data(), 12, nullptr, 0),
             GCM_ERR_NONCE_ORDER);
  EXPECT_TRUE(AllZero(ct, sizeof(ct)) && AllZero(tag, sizeof(tag)));
  EXPECT_ERR(EVP_AEAD_CTX_seal_scatter(ctx.get(), ct, tag, &len, 16, n4.data(), 12, pt, 10,
                                       nullptr, 0, nullptr, 0),
             GCM_ERR_NONCE_ORDER);
  // Refused nonces did not move the counter: 6 is still the next allowed.
  EXPECT_TRUE(EVP_AEAD_CTX_sealv(ctx.get(), &piece, 1, tag, &len, 16, n6.data(), 12, nullptr,
                                 0));
}

// ---- 12. Backend names --------------------------------------------------

TEST(MisuseBackends, QueriesForUnknownNames) {
  EXPECT_EQ(0, gcm_backend_is_available(GCM_BACKEND_AES, "no-such-aes"));
  EXPECT_EQ(0, gcm_backend_is_available(GCM_BACKEND_GHASH, "ct"));  // an AES name
  EXPECT_EQ(0, gcm_backend_is_available(GCM_BACKEND_AES, "ct64"));  // a GHASH name
  EXPECT_EQ(0, gcm_backend_is_available(GCM_BACKEND_AES, nullptr));
  EXPECT_EQ(0, gcm_backend_get(0, nullptr));
  gcm_key k;
  const uint8_t raw[16] = {0};
  // An AES name given for GHASH is unknown there.
  EXPECT_ERR(gcm_key_init_with_backends(&k, raw, 16, nullptr, "ct"), GCM_ERR_BACKEND_UNKNOWN);
  EXPECT_ERR(gcm_key_init_with_backends(&k, raw, 16, "", nullptr), GCM_ERR_BACKEND_UNKNOWN);
}

// Note on compat and GCM_ERR_TOO_LONG: EVP_AEAD_CTX_seal/open and the
// vectored forms check buffer overlap before handing the message to the
// native API, and zero every output they were given when they fail. A
// message over 2^36 - 32 bytes is therefore refused with GCM_ERR_TOO_LONG
// only after the overlap check, and its (caller-sized) output is zeroed in
// full, so the row cannot be exercised with fake pointers as the native
// one is; MisuseCompat.LengthSumsThatOverflow covers the compat layer's
// own length arithmetic.

}  // namespace
