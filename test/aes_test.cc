// test/aes_test.cc: every usable AES backend against FIPS 197 and against a
// textbook AES written here.
//
// The reference below follows FIPS 197 literally: the S-box is computed as
// the affine map of the GF(2^8) inverse (x^254), MixColumns by explicit
// field multiplication, and counter mode one block at a time. It is slow and
// shares no code or tables with any backend, so a backend agreeing with it
// on many keys, lengths and counters is strong evidence, on top of the
// FIPS 197 appendix C known answers.
//
// The suite is parameterised over the dispatcher's list (gcmi_dispatch_aes_at):
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
#include "../crypto/aes/aes.h"
#include "../crypto/dispatch/dispatch.h"
}

namespace {

using Bytes = std::vector<uint8_t>;

using gcmtest::FromHex;
using gcmtest::RandomBytes;

// ---------------------------------------------------------------------------
// Reference AES (encryption only), straight from FIPS 197.

uint8_t GfMul(uint8_t a, uint8_t b) {
  uint8_t r = 0;
  for (int i = 0; i < 8; i++) {
    if (b & 1) r ^= a;
    a = static_cast<uint8_t>((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
    b >>= 1;
  }
  return r;
}

uint8_t RefSbox(uint8_t x) {
  // Inverse as x^254 (0 maps to 0), then the affine transformation.
  uint8_t inv = 1, base = x;
  for (int e = 254; e != 0; e >>= 1) {
    if (e & 1) inv = GfMul(inv, base);
    base = GfMul(base, base);
  }
  uint8_t r = 0x63;
  for (int i = 0; i < 5; i++) {
    r ^= inv;
    inv = static_cast<uint8_t>((inv << 1) | (inv >> 7));
  }
  return r;
}

class RefAes {
 public:
  explicit RefAes(const Bytes &key) {
    const int nk = static_cast<int>(key.size() / 4);
    nr_ = nk + 6;
    w_.assign(key.begin(), key.end());
    w_.resize(16 * (nr_ + 1));
    uint8_t rcon = 1;
    for (int i = nk; i < 4 * (nr_ + 1); i++) {
      uint8_t t[4] = {w_[4 * (i - 1)], w_[4 * (i - 1) + 1], w_[4 * (i - 1) + 2],
                      w_[4 * (i - 1) + 3]};
      if (i % nk == 0) {
        const uint8_t t0 = t[0];
        t[0] = static_cast<uint8_t>(RefSbox(t[1]) ^ rcon);
        t[1] = RefSbox(t[2]);
        t[2] = RefSbox(t[3]);
        t[3] = RefSbox(t0);
        rcon = GfMul(rcon, 2);
      } else if (nk > 6 && i % nk == 4) {
        for (auto &b : t) b = RefSbox(b);
      }
      for (int k = 0; k < 4; k++) w_[4 * i + k] = w_[4 * (i - nk) + k] ^ t[k];
    }
  }

  void Encrypt(const uint8_t in[16], uint8_t out[16]) const {
    uint8_t s[16], t[16];
    for (int i = 0; i < 16; i++) s[i] = in[i] ^ w_[i];
    for (int round = 1; round <= nr_; round++) {
      for (auto &b : s) b = RefSbox(b);
      // ShiftRows: byte (r, c) = s[4c + r] takes (r, c + r).
      for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) t[4 * c + r] = s[4 * ((c + r) % 4) + r];
      if (round != nr_) {
        for (int c = 0; c < 4; c++) {
          const uint8_t *a = t + 4 * c;
          uint8_t m[4];
          for (int r = 0; r < 4; r++) {
            m[r] = GfMul(a[r], 2) ^ GfMul(a[(r + 1) % 4], 3) ^ a[(r + 2) % 4] ^
                   a[(r + 3) % 4];
          }
          std::memcpy(t + 4 * c, m, 4);
        }
      }
      for (int i = 0; i < 16; i++) s[i] = t[i] ^ w_[16 * round + i];
    }
    std::memcpy(out, s, 16);
  }

  // Counter mode, 32-bit big-endian counter in bytes 12..15, no carry out.
  Bytes Ctr32(const Bytes &in, const uint8_t ctr[16]) const {
    Bytes out(in.size());
    const uint32_t c0 = (uint32_t{ctr[12]} << 24) | (uint32_t{ctr[13]} << 16) |
                        (uint32_t{ctr[14]} << 8) | ctr[15];
    for (size_t b = 0; b * 16 < in.size(); b++) {
      uint8_t block[16], ks[16];
      std::memcpy(block, ctr, 12);
      const uint32_t c = c0 + static_cast<uint32_t>(b);
      block[12] = static_cast<uint8_t>(c >> 24);
      block[13] = static_cast<uint8_t>(c >> 16);
      block[14] = static_cast<uint8_t>(c >> 8);
      block[15] = static_cast<uint8_t>(c);
      Encrypt(block, ks);
      for (int i = 0; i < 16; i++) out[16 * b + i] = in[16 * b + i] ^ ks[i];
    }
    return out;
  }

 private:
  int nr_;
  Bytes w_;
};

// ---------------------------------------------------------------------------

std::vector<const aes_impl *> UsableAesImpls() {
  std::vector<const aes_impl *> v;
  for (size_t i = 0; gcmi_dispatch_aes_at(i) != nullptr; i++) {
    if (gcmi_dispatch_aes_at(i)->usable()) v.push_back(gcmi_dispatch_aes_at(i));
  }
  return v;
}

class AesTest : public ::testing::TestWithParam<const aes_impl *> {
 protected:
  const aes_impl *impl() const { return GetParam(); }

  // A schedule that is not zero before set-up, so nothing relies on it.
  void SetKey(aes_schedule *s, const Bytes &key) const {
    std::memset(s, 0xa5, impl()->key_bytes);
    impl()->set_encrypt_key(s, key.data(), key.size());
  }
};

TEST_P(AesTest, Descriptor) {
  ASSERT_NE(impl()->name, nullptr);
  EXPECT_GT(std::strlen(impl()->name), 0u);
  ASSERT_NE(impl()->requires, nullptr);
  EXPECT_GE(impl()->ctr_batch_blocks, 1u);
  EXPECT_EQ(gcmi_dispatch_find_aes(impl()->name), impl());
  if (std::strcmp(impl()->name, "ct") == 0) {
    EXPECT_EQ(impl()->constant_time, 1);
  }
}

// FIPS 197 appendix C.1, C.2, C.3.
TEST_P(AesTest, Fips197AppendixC) {
  struct {
    const char *key, *ct;
  } const kCases[] = {
      {"000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"},
      {"000102030405060708090a0b0c0d0e0f1011121314151617",
       "dda97ca4864cdfe06eaf70a0ec0d7191"},
      {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
       "8ea2b7ca516745bfeafc49904b496089"},
  };
  const Bytes pt = FromHex("00112233445566778899aabbccddeeff");
  for (const auto &c : kCases) {
    SCOPED_TRACE(c.key);
    AesKeyRoom s;
    SetKey(s.get(), FromHex(c.key));
    EXPECT_EQ(aes_rounds(s.get()), 6 + std::strlen(c.key) / 8);
    uint8_t out[16];
    impl()->encrypt_block(s.get(), out, pt.data());
    EXPECT_EQ(Bytes(out, out + 16), FromHex(c.ct));
    // In place.
    std::memcpy(out, pt.data(), 16);
    impl()->encrypt_block(s.get(), out, out);
    EXPECT_EQ(Bytes(out, out + 16), FromHex(c.ct));
    // And the reference agrees, so the later comparisons mean something.
    RefAes ref(FromHex(c.key));
    ref.Encrypt(pt.data(), out);
    EXPECT_EQ(Bytes(out, out + 16), FromHex(c.ct));
  }
}

// Single blocks under random keys of every size.
TEST_P(AesTest, EncryptBlockMatchesReference) {
  std::mt19937_64 rng(1);
  for (size_t key_len : {16, 24, 32}) {
    for (int i = 0; i < 20; i++) {
      const Bytes key = RandomBytes(rng, key_len);
      const Bytes in = RandomBytes(rng, 16);
      AesKeyRoom s;
      SetKey(s.get(), key);
      uint8_t got[16], want[16];
      impl()->encrypt_block(s.get(), got, in.data());
      RefAes(key).Encrypt(in.data(), want);
      ASSERT_EQ(Bytes(got, got + 16), Bytes(want, want + 16))
          << "key_len " << key_len << " i " << i;
    }
  }
}

TEST_P(AesTest, Ctr32MatchesReferenceAllLengths) {
  std::mt19937_64 rng(2);
  const size_t kGuard = 32;
  for (size_t key_len : {16, 24, 32}) {
    const Bytes key = RandomBytes(rng, key_len);
    AesKeyRoom s;
    SetKey(s.get(), key);
    const RefAes ref(key);
    for (size_t blocks = 0; blocks <= 40; blocks++) {
      SCOPED_TRACE(testing::Message()
                   << "key_len " << key_len << " blocks " << blocks);
      const Bytes in = RandomBytes(rng, 16 * blocks);
      Bytes ctr = RandomBytes(rng, 16);
      const Bytes ctr_copy = ctr;
      const Bytes want = ref.Ctr32(in, ctr.data());

      // Out of place, with guard bytes after the output.
      Bytes out(16 * blocks + kGuard, 0xcc);
      impl()->ctr32(s.get(), out.data(), in.data(), blocks, ctr.data());
      EXPECT_EQ(Bytes(out.begin(), out.begin() + 16 * blocks), want);
      for (size_t i = 16 * blocks; i < out.size(); i++) {
        ASSERT_EQ(out[i], 0xcc) << "wrote past the end at " << i;
      }
      EXPECT_EQ(ctr, ctr_copy) << "ctr was modified";

      // In place.
      Bytes buf = in;
      buf.resize(16 * blocks + kGuard, 0xcc);
      impl()->ctr32(s.get(), buf.data(), buf.data(), blocks, ctr.data());
      EXPECT_EQ(Bytes(buf.begin(), buf.begin() + 16 * blocks), want);
      for (size_t i = 16 * blocks; i < buf.size(); i++) {
        ASSERT_EQ(buf[i], 0xcc) << "wrote past the end at " << i;
      }
    }
  }
}

// Unaligned input and output pointers.
TEST_P(AesTest, Ctr32Unaligned) {
  std::mt19937_64 rng(3);
  const Bytes key = RandomBytes(rng, 16);
  AesKeyRoom s;
  SetKey(s.get(), key);
  const RefAes ref(key);
  for (size_t off_in = 0; off_in < 4; off_in++) {
    for (size_t off_out : {size_t{0}, size_t{1}, size_t{7}}) {
      const size_t blocks = 19;
      Bytes in_store = RandomBytes(rng, 16 * blocks + off_in);
      Bytes out_store(16 * blocks + off_out);
      const Bytes ctr = RandomBytes(rng, 16);
      const Bytes in(in_store.begin() + off_in, in_store.end());
      impl()->ctr32(s.get(), out_store.data() + off_out, in_store.data() + off_in,
                    blocks, ctr.data());
      EXPECT_EQ(Bytes(out_store.begin() + off_out, out_store.end()),
                ref.Ctr32(in, ctr.data()));
    }
  }
}

// The 32-bit counter wraps to zero and never carries into byte 11.
TEST_P(AesTest, Ctr32CounterWrap) {
  std::mt19937_64 rng(4);
  const uint32_t kStarts[] = {0xfffffffeu, 0xffffffffu, 0xfffffff8u,
                              0xfffffff9u, 0xffffffe0u, 0x00000000u,
                              0x7fffffffu, 0x00fffffeu};
  for (size_t key_len : {16, 24, 32}) {
    const Bytes key = RandomBytes(rng, key_len);
    AesKeyRoom s;
    SetKey(s.get(), key);
    const RefAes ref(key);
    for (uint32_t start : kStarts) {
      for (size_t blocks : {1, 2, 3, 7, 8, 9, 17, 40}) {
        SCOPED_TRACE(testing::Message()
                     << std::hex << start << std::dec << " blocks " << blocks
                     << " key_len " << key_len);
        Bytes ctr = RandomBytes(rng, 16);
        ctr[11] = 0xff;  // a carry would show here (and in bytes 8..10)
        ctr[10] = 0xff;
        ctr[12] = static_cast<uint8_t>(start >> 24);
        ctr[13] = static_cast<uint8_t>(start >> 16);
        ctr[14] = static_cast<uint8_t>(start >> 8);
        ctr[15] = static_cast<uint8_t>(start);
        // With all-zero input the output is the key stream; check each block
        // against an explicitly built counter block.
        const Bytes zeros(16 * blocks, 0);
        Bytes out(16 * blocks);
        impl()->ctr32(s.get(), out.data(), zeros.data(), blocks, ctr.data());
        for (size_t b = 0; b < blocks; b++) {
          uint8_t block[16], want[16];
          std::memcpy(block, ctr.data(), 12);
          const uint32_t c = start + static_cast<uint32_t>(b);
          block[12] = static_cast<uint8_t>(c >> 24);
          block[13] = static_cast<uint8_t>(c >> 16);
          block[14] = static_cast<uint8_t>(c >> 8);
          block[15] = static_cast<uint8_t>(c);
          ref.Encrypt(block, want);
          ASSERT_EQ(Bytes(out.begin() + 16 * b, out.begin() + 16 * (b + 1)),
                    Bytes(want, want + 16))
              << "block " << b;
        }
      }
    }
  }
}

// Splitting a run anywhere and continuing with the advanced counter gives the
// same output: what the mode engine relies on when it buffers key stream.
TEST_P(AesTest, Ctr32SplitsAnywhere) {
  std::mt19937_64 rng(5);
  const Bytes key = RandomBytes(rng, 32);
  AesKeyRoom s;
  SetKey(s.get(), key);
  const size_t blocks = 3 * impl()->ctr_batch_blocks + 5;
  const Bytes in = RandomBytes(rng, 16 * blocks);
  Bytes ctr = RandomBytes(rng, 16);
  ctr[12] = ctr[13] = ctr[14] = 0xff;  // make the split cross the wrap too
  ctr[15] = 0xf0;
  Bytes whole(in.size());
  impl()->ctr32(s.get(), whole.data(), in.data(), blocks, ctr.data());
  for (size_t split = 0; split <= blocks; split++) {
    Bytes parts(in.size());
    impl()->ctr32(s.get(), parts.data(), in.data(), split, ctr.data());
    Bytes ctr2 = ctr;
    uint32_t c = (uint32_t{ctr[12]} << 24) | (uint32_t{ctr[13]} << 16) |
                 (uint32_t{ctr[14]} << 8) | ctr[15];
    c += static_cast<uint32_t>(split);
    ctr2[12] = static_cast<uint8_t>(c >> 24);
    ctr2[13] = static_cast<uint8_t>(c >> 16);
    ctr2[14] = static_cast<uint8_t>(c >> 8);
    ctr2[15] = static_cast<uint8_t>(c);
    impl()->ctr32(s.get(), parts.data() + 16 * split, in.data() + 16 * split,
                  blocks - split, ctr2.data());
    ASSERT_EQ(parts, whole) << "split " << split;
  }
}

// One schedule object re-keyed with each size in turn: nothing from the
// previous key (round count, larger schedule) leaks into the next.
TEST_P(AesTest, RekeyAcrossSizes) {
  std::mt19937_64 rng(6);
  AesKeyRoom s;
  std::memset(&s.room, 0, sizeof(s.room));
  for (size_t key_len : {32, 16, 24, 16, 32, 24}) {
    const Bytes key = RandomBytes(rng, key_len);
    impl()->set_encrypt_key(s.get(), key.data(), key.size());
    const Bytes in = RandomBytes(rng, 16 * 11);
    const Bytes ctr = RandomBytes(rng, 16);
    Bytes out(in.size());
    impl()->ctr32(s.get(), out.data(), in.data(), 11, ctr.data());
    EXPECT_EQ(out, RefAes(key).Ctr32(in, ctr.data())) << "key_len " << key_len;
  }
}

// Two schedules used alternately (the schedule holds all per-key state).
TEST_P(AesTest, IndependentSchedules) {
  std::mt19937_64 rng(7);
  const Bytes k1 = RandomBytes(rng, 16), k2 = RandomBytes(rng, 32);
  AesKeyRoom s1, s2;
  SetKey(s1.get(), k1);
  SetKey(s2.get(), k2);
  const Bytes in = RandomBytes(rng, 16 * 9);
  const Bytes ctr = RandomBytes(rng, 16);
  for (int i = 0; i < 3; i++) {
    Bytes o1(in.size()), o2(in.size());
    impl()->ctr32(s1.get(), o1.data(), in.data(), 9, ctr.data());
    impl()->ctr32(s2.get(), o2.data(), in.data(), 9, ctr.data());
    EXPECT_EQ(o1, RefAes(k1).Ctr32(in, ctr.data()));
    EXPECT_EQ(o2, RefAes(k2).Ctr32(in, ctr.data()));
  }
}

std::string ImplName(const testing::TestParamInfo<const aes_impl *> &info) {
  return info.param->name;
}

INSTANTIATE_TEST_SUITE_P(AllUsable, AesTest,
                         testing::ValuesIn(UsableAesImpls()), ImplName);

}  // namespace
