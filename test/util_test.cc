// Tests of crypto/internal.h's ct_memeq (the tag comparison of every open)
// and secure_wipe_block: equal inputs compare equal at every length, and a
// difference in any one bit of any byte is seen, whatever the length (the
// word loop and the byte tail both).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "../crypto/internal.h"

namespace {

TEST(CtMemeq, EqualAtEveryLength) {
  uint8_t a[40], b[40];
  for (size_t i = 0; i < sizeof(a); i++) a[i] = b[i] = (uint8_t)(i * 13 + 7);
  for (size_t n = 0; n <= sizeof(a); n++) EXPECT_EQ(1, ct_memeq(a, b, n)) << n;
}

TEST(CtMemeq, SeesEveryBitOfEveryByte) {
  uint8_t a[40], b[40];
  for (size_t i = 0; i < sizeof(a); i++) a[i] = (uint8_t)(i * 13 + 7);
  for (size_t n = 1; n <= sizeof(a); n++) {
    for (size_t pos = 0; pos < n; pos++) {
      for (int bit = 0; bit < 8; bit++) {
        memcpy(b, a, sizeof(a));
        b[pos] ^= (uint8_t)(1u << bit);
        ASSERT_EQ(0, ct_memeq(a, b, n)) << "n=" << n << " pos=" << pos << " bit=" << bit;
        ASSERT_EQ(1, ct_memeq(a, b, pos)) << "n=" << n << " pos=" << pos;
      }
    }
  }
}

TEST(CtMemeq, UnalignedInputs) {
  uint8_t buf[64];
  for (size_t i = 0; i < sizeof(buf); i++) buf[i] = (uint8_t)(i & 7);
  // buf + 1 and buf + 9 hold the same bytes (period 8), at odd addresses.
  EXPECT_EQ(1, ct_memeq(buf + 1, buf + 9, 16));
  EXPECT_EQ(0, ct_memeq(buf + 1, buf + 10, 16));
}

TEST(SecureWipeBlock, ZeroesExactlySixteenBytes) {
  uint8_t buf[48];
  memset(buf, 0xab, sizeof(buf));
  secure_wipe_block(buf + 16);
  for (size_t i = 0; i < sizeof(buf); i++) {
    EXPECT_EQ((i >= 16 && i < 32) ? 0 : 0xab, buf[i]) << i;
  }
}

}  // namespace
