// Tests of crypto/gcm/block.h, the 16-byte register blocks of the one-shot
// paths: every partial length loads and stores exactly its bytes (no byte
// outside them is read or written: each input sits at the end of its own
// heap allocation, so the sanitizer builds catch an over-read), and the
// counter and length blocks and the counter advance match the byte-wise
// encodings.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "../crypto/gcm/block.h"
#include "../crypto/internal.h"

namespace {

void StoreBlock(uint8_t out[16], gcm_block b) { block_store(out, b); }

TEST(Block, LoadPartialReadsExactlyItsBytesAndZeroPads) {
  for (size_t n = 0; n <= 16; n++) {
    // n bytes filling a heap allocation of their own.
    std::vector<uint8_t> src(n);
    for (size_t i = 0; i < src.size(); i++) src[i] = (uint8_t)(0xa0 + i);
    const uint8_t *p = src.data();
    uint8_t want[16] = {0}, got[16];
    if (n > 0) memcpy(want, p, n);  // p may be null when n == 0
    StoreBlock(got, block_load_partial(p, n));
    EXPECT_EQ(0, memcmp(want, got, 16)) << "n=" << n;
  }
}

TEST(Block, StorePartialWritesExactlyItsBytes) {
  uint8_t full[16];
  for (size_t i = 0; i < 16; i++) full[i] = (uint8_t)(0x11 * (i + 1));
  const gcm_block b = block_load(full);
  for (size_t n = 0; n <= 16; n++) {
    uint8_t buf[32];
    memset(buf, 0xee, sizeof(buf));
    block_store_partial(buf + 8, b, n);
    for (size_t i = 0; i < sizeof(buf); i++) {
      const uint8_t want = (i >= 8 && i < 8 + n) ? full[i - 8] : 0xee;
      ASSERT_EQ(want, buf[i]) << "n=" << n << " byte " << i;
    }
  }
}

TEST(Block, PrefixMaskHasNBytesSet) {
  for (size_t n = 0; n <= 16; n++) {
    uint8_t got[16];
    StoreBlock(got, block_prefix_mask(n));
    for (size_t i = 0; i < 16; i++) {
      ASSERT_EQ(i < n ? 0xff : 0x00, got[i]) << "n=" << n << " byte " << i;
    }
  }
}

TEST(Block, XorAndAndWorkBytewise) {
  uint8_t a[16], b[16], x[16], y[16];
  for (size_t i = 0; i < 16; i++) {
    a[i] = (uint8_t)(i * 37 + 5);
    b[i] = (uint8_t)(i * 91 + 200);
  }
  StoreBlock(x, block_xor(block_load(a), block_load(b)));
  StoreBlock(y, block_and(block_load(a), block_load(b)));
  for (size_t i = 0; i < 16; i++) {
    EXPECT_EQ((uint8_t)(a[i] ^ b[i]), x[i]);
    EXPECT_EQ((uint8_t)(a[i] & b[i]), y[i]);
  }
}

TEST(Block, CounterBlockIsNonceThenBigEndianCounter) {
  uint8_t nonce[12];
  for (size_t i = 0; i < 12; i++) nonce[i] = (uint8_t)(0xc0 + i);
  for (uint32_t ctr : {0u, 1u, 2u, 0x01020304u, 0xfffffffeu, 0xffffffffu}) {
    uint8_t want[16], got[16];
    memcpy(want, nonce, 12);
    store_be32(want + 12, ctr);
    StoreBlock(got, block_counter(nonce, ctr));
    EXPECT_EQ(0, memcmp(want, got, 16)) << std::hex << ctr;
  }
}

// The counter advance of the mode engine and the portable fused loop: the
// last word grows by n modulo 2^32 (it wraps without a carry into byte 11)
// and the first twelve bytes stay as they were.
TEST(Block, Ctr32AddAdvancesTheLastWordModulo2To32) {
  const uint32_t cases[][2] = {{0, 0},           {1, 1},
                               {0x000000ff, 1},  {0x01020304, 0x10000},
                               {0xffffffff, 1},  {0xfffffff0, 0x20},
                               {0x80000000, 0xffffffff}};
  for (const auto &c : cases) {
    uint8_t ctr[16], want[16];
    for (size_t i = 0; i < 12; i++) ctr[i] = (uint8_t)(0xf0 + i);
    store_be32(ctr + 12, c[0]);
    memcpy(want, ctr, 12);
    store_be32(want + 12, (uint32_t)(c[0] + c[1]));
    block_ctr32_add(ctr, c[1]);
    EXPECT_EQ(0, memcmp(want, ctr, 16)) << std::hex << c[0] << " + " << c[1];
  }
}

TEST(Block, LengthBlockIsBitCountsBigEndian) {
  const uint64_t lens[][2] = {{0, 0}, {13, 16}, {1, 0x123456789}, {(1ull << 61) - 1, (1ull << 36) - 32}};
  for (const auto &l : lens) {
    uint8_t want[16], got[16];
    store_be64(want, l[0] * 8);
    store_be64(want + 8, l[1] * 8);
    StoreBlock(got, block_lengths(l[0], l[1]));
    EXPECT_EQ(0, memcmp(want, got, 16)) << l[0] << " " << l[1];
  }
}

}  // namespace
