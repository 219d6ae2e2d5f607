// test/fused_kernel_test.cc: every fused AES-CTR + GHASH kernel against the two
// passes it replaces.
//
// A fused kernel (crypto/fused/fused.h) is called directly through its
// descriptor, not through the mode engine, and compared with its pair's
// AES counter mode (the AES backend's ctr32) followed by GHASH from the
// portable ct64 backend, which shares no code or key layout with the wide
// kernels. Covered: every run of 1..300 blocks, runs around 1 KiB and
// 256 KiB of blocks, the three key sizes, random data, counter and running
// hash, odd alignments of in and out, in == out, the 32-bit counter
// wrapping at every position of a batch (the kernels' batches are 8 or 16
// blocks, their tails 1..15), and no
// write outside out[0, 16 * blocks). Kernels with a lagged seal (the
// stream's seal with its hash one group behind) have it checked the same
// way, plus chains of lagged calls against one seal; kernels with the
// one-shot hooks (the AAD block and two mask blocks inside the call) have
// them checked on every call the plain seal and open are.
//
// Adding a kernel: nothing here; the suite reads the dispatcher's list. A
// kernel this CPU cannot run is skipped with the reason.
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
#include "../crypto/fused/fused.h"
#include "../crypto/dispatch/dispatch.h"
#include "../crypto/ghash/ghash.h"
}

namespace {

using gcmtest::Bytes;
using gcmtest::RandomBytes;

// Every kernel of the dispatcher's fused list that this build has and that
// belongs to one pair (the portable loop, which fits any pair, has its own
// suite in kernel_contract_test.cc).
std::vector<const fused_impl *> FusedImpls() {
  std::vector<const fused_impl *> v;
  for (size_t i = 0; gcmi_dispatch_fused_at(i) != nullptr; i++) {
    const fused_impl *f = gcmi_dispatch_fused_at(i);
    if (f->seal != nullptr && f->aes != nullptr) v.push_back(f);
  }
  return v;
}

// One key, set up as the mode engine would for the kernel's pair, plus the
// reference GHASH key.
struct FusedKey {
  AesKeyRoom aes;
  GhashKeyRoom ghash;
  FusedKeyRoom fused;
  GhashKeyRoom ref_ghash;
  fused_keys keys;
};

// A kernel call's input and output: `data` at in_off of its own buffer
// (or already in out when in place), out at out_off inside guard bytes,
// which Untouched() checks afterwards.
struct KernelBuffers {
  static constexpr size_t kGuard = 64;
  Bytes buf, inbuf;
  uint8_t *out;
  const uint8_t *in;
  size_t out_off, n;
  KernelBuffers(const Bytes &data, size_t in_off, size_t out_off_,
                bool in_place)
      : buf(kGuard + out_off_ + data.size() + kGuard, 0x5c),
        inbuf(in_off + data.size() + 16, 0x3a),
        out(buf.data() + kGuard + out_off_),
        in(nullptr),
        out_off(out_off_),
        n(data.size()) {
    if (in_place) {
      std::memcpy(out, data.data(), n);
      in = out;
    } else {
      std::memcpy(inbuf.data() + in_off, data.data(), n);
      in = inbuf.data() + in_off;
    }
  }
  // Empty when nothing around out was written, else what was.
  std::string Untouched() const {
    for (size_t i = 0; i < kGuard + out_off; i++) {
      if (buf[i] != 0x5c) return "wrote before out";
    }
    for (size_t i = kGuard + out_off + n; i < buf.size(); i++) {
      if (buf[i] != 0x5c) return "wrote after out";
    }
    return "";
  }
};

class FusedKernelDirect : public ::testing::TestWithParam<const fused_impl *> {
 protected:
  const fused_impl *impl() const { return GetParam(); }

  void SetUp() override {
    if (!impl()->usable()) {
      GTEST_SKIP() << impl()->name << " needs " << impl()->requires
                   << ", which this CPU (after its test mask) lacks";
    }
  }

  // Key set-up: the pair's AES schedule, H = E(K, 0), the pair's GHASH key,
  // the kernel's own key, and ct64's key for the reference.
  void MakeKey(FusedKey *k, const uint8_t *raw, size_t len) const {
    ASSERT_NE(impl()->aes, nullptr);
    ASSERT_NE(impl()->ghash, nullptr);
    std::memset(k, 0xa5, sizeof(*k));
    impl()->aes->set_encrypt_key(k->aes.get(), raw, len);
    uint8_t zero[16] = {0}, H[16];
    impl()->aes->encrypt_block(k->aes.get(), H, zero);
    impl()->ghash->init(k->ghash.get(), H);
    std::memset(k->fused.get(), 0, sizeof(k->fused.bytes));
    if (impl()->init) impl()->init(k->fused.get(), k->aes.get(), k->ghash.get(), H);
    gcmi_ghash_ct64.init(k->ref_ghash.get(), H);
    k->keys = fused_keys{impl()->aes, k->aes.get(), impl()->ghash, k->ghash.get(),
                         k->fused.get()};
  }

  // Runs the kernel (seal or open) on `blocks` blocks of `in` into a buffer
  // at offset out_off (or in place when in_place), and expects the output
  // and Xi of the two-pass reference, and nothing written around out.
  void Check(const FusedKey &k, bool seal, const Bytes &data, size_t blocks,
             size_t in_off, size_t out_off, bool in_place,
             const uint8_t ctr[16], const uint8_t xi0[16],
             const std::string &what) const {
    const size_t n = 16 * blocks;
    // Reference: CTR, then GHASH of the ciphertext.
    Bytes want(n);
    impl()->aes->ctr32(k.aes.get(), want.data(), data.data(), blocks, ctr);
    uint8_t want_xi[16];
    std::memcpy(want_xi, xi0, 16);
    gcmi_ghash_ct64.update(want_xi, k.ref_ghash.get(), seal ? want.data() : data.data(),
                     blocks);

    // The kernel, with guard bytes around its output.
    ASSERT_EQ(n, data.size());
    KernelBuffers b(data, in_off, out_off, in_place);
    uint8_t *out = b.out;
    const uint8_t *in = b.in;
    uint8_t got_xi[16];
    std::memcpy(got_xi, xi0, 16);
    uint8_t ctr_copy[16];
    std::memcpy(ctr_copy, ctr, 16);
    (seal ? impl()->seal : impl()->open)(&k.keys, out, in, blocks, ctr_copy,
                                         got_xi);
    const std::string w = what + (seal ? " seal" : " open") +
                          " blocks=" + std::to_string(blocks);
    ASSERT_EQ(0, std::memcmp(out, want.data(), n)) << w << ": output";
    ASSERT_EQ(0, std::memcmp(got_xi, want_xi, 16)) << w << ": Xi";
    ASSERT_EQ(0, std::memcmp(ctr_copy, ctr, 16)) << w << ": ctr changed";
    ASSERT_EQ("", b.Untouched()) << w;
    CheckOneshot(k, seal, data, blocks, in_off, out_off, in_place, ctr, xi0, w);
  }

  // The one-shot hooks (fused.h: seal_oneshot, open_oneshot), when the
  // kernel has them, on the same call, with the pieces made from the data:
  // an AAD block, two mask counters, and a partial last block of
  // blocks % 16 bytes (none when 0: the length block alone ends the hash).
  // Expects m->Xi = GHASH from xi0 of the AAD block, the blocks as seal's
  // or open's, the ciphertext's partial block (seal: the plaintext's xor
  // the key stream, masked; open: the given one) and the length block;
  // the same output; m->ks[0] = AES(K, m->ctr[0]) and m->ks[1] =
  // AES(K, m->ctr[1]) ^ tail, from the AES backend's encrypt_block; and
  // nothing else of m or around out written.
  void CheckOneshot(const FusedKey &k, bool seal, const Bytes &data,
                    size_t blocks, size_t in_off, size_t out_off,
                    bool in_place, const uint8_t ctr[16],
                    const uint8_t xi0[16], const std::string &w) const {
    fused_oneshot_fn *one = seal ? impl()->seal_oneshot : impl()->open_oneshot;
    if (one == nullptr) return;
    ASSERT_TRUE(impl()->seal_oneshot != nullptr &&
                impl()->open_oneshot != nullptr)
        << w << ": a kernel has both one-shot hooks or neither";
    const size_t n = 16 * blocks, rest = blocks % 16;
    fused_oneshot m;
    std::memset(&m, 0, sizeof(m));
    std::memcpy(m.Xi, xi0, 16);
    for (size_t i = 0; i < 16; i++) {
      m.aad[i] = static_cast<uint8_t>(data[i] ^ 0x36);
      m.ctr[0][i] = static_cast<uint8_t>(data[n - 16 + i] ^ 0x5c);
      m.ctr[1][i] = static_cast<uint8_t>(ctr[i] + 1 + i);
      m.lengths[i] = static_cast<uint8_t>(xi0[i] * 3 + i);
      if (i < rest) {
        m.tail[i] = static_cast<uint8_t>(data[i] + data[n - 1 - i]);
        if (seal) m.hmask[i] = 0xff;
      }
    }
    m.end = rest > 0 ? 2 : 1;
    std::memset(m.ks, 0xa7, sizeof(m.ks));
    Bytes want(n);
    impl()->aes->ctr32(k.aes.get(), want.data(), data.data(), blocks, ctr);
    uint8_t want_xi[16], want_ks[2][16], end[32];
    for (int i = 0; i < 2; i++) {
      impl()->aes->encrypt_block(k.aes.get(), want_ks[i], m.ctr[i]);
    }
    for (size_t i = 0; i < 16; i++) {
      end[i] = static_cast<uint8_t>(m.tail[i] ^ (want_ks[1][i] & m.hmask[i]));
      want_ks[1][i] ^= m.tail[i];
    }
    std::memcpy(end + 16, m.lengths, 16);
    std::memcpy(want_xi, xi0, 16);
    gcmi_ghash_ct64.update(want_xi, k.ref_ghash.get(), m.aad, 1);
    gcmi_ghash_ct64.update(want_xi, k.ref_ghash.get(),
                           seal ? want.data() : data.data(), blocks);
    gcmi_ghash_ct64.update(want_xi, k.ref_ghash.get(), end + 32 - 16 * m.end,
                           m.end);
    const fused_oneshot m0 = m;
    KernelBuffers b(data, in_off, out_off, in_place);
    uint8_t ctr_copy[16];
    std::memcpy(ctr_copy, ctr, 16);
    one(&k.keys, b.out, b.in, blocks, ctr_copy, &m);
    const std::string wo = w + " oneshot";
    ASSERT_EQ(0, std::memcmp(b.out, want.data(), n)) << wo << ": output";
    ASSERT_EQ(0, std::memcmp(m.Xi, want_xi, 16)) << wo << ": Xi";
    ASSERT_EQ(0, std::memcmp(m.ks, want_ks, 32)) << wo << ": mask blocks";
    std::memcpy(m.Xi, m0.Xi, 16);
    std::memcpy(m.ks, m0.ks, 32);
    ASSERT_EQ(0, std::memcmp(&m, &m0, sizeof(m))) << wo << ": an input changed";
    ASSERT_EQ(0, std::memcmp(ctr_copy, ctr, 16)) << wo << ": ctr changed";
    ASSERT_EQ("", b.Untouched()) << wo;
  }

  // The lagged seal (fused.h: seal_lagged) on `blocks` blocks (a multiple
  // of lag_blocks), with the previous call's group in `pending0` when
  // has_pending: expects seal's output, Xi over the pending group and all
  // but the last group of the new ciphertext, that last group in the
  // pending buffer, and nothing written around out or the pending buffer.
  // A pending0 that is not pending is junk the kernel must not read.
  void CheckLagged(const FusedKey &k, const Bytes &data, size_t blocks,
                   size_t in_off, size_t out_off, bool in_place,
                   const uint8_t ctr[16], const uint8_t xi0[16],
                   const Bytes &pending0, bool has_pending,
                   const std::string &what) const {
    const size_t group = impl()->lag_blocks, n = 16 * blocks;
    const size_t g = 16 * group;
    Bytes want(n);
    impl()->aes->ctr32(k.aes.get(), want.data(), data.data(), blocks, ctr);
    uint8_t want_xi[16];
    std::memcpy(want_xi, xi0, 16);
    if (has_pending) {
      gcmi_ghash_ct64.update(want_xi, k.ref_ghash.get(), pending0.data(), group);
    }
    gcmi_ghash_ct64.update(want_xi, k.ref_ghash.get(), want.data(), blocks - group);

    ASSERT_EQ(n, data.size());
    KernelBuffers b(data, in_off, out_off, in_place);
    uint8_t *out = b.out;
    const uint8_t *in = b.in;
    const size_t guard = KernelBuffers::kGuard;
    Bytes pend(guard + g + guard, 0x6e);
    std::memcpy(pend.data() + guard, pending0.data(), g);
    uint8_t got_xi[16], ctr_copy[16];
    std::memcpy(got_xi, xi0, 16);
    std::memcpy(ctr_copy, ctr, 16);
    const fused_lag lag = {got_xi, pend.data() + guard,
                           static_cast<size_t>(has_pending ? 1 : 0)};
    impl()->seal_lagged(&k.keys, out, in, blocks, ctr_copy, &lag);
    const std::string w = what + " lagged blocks=" + std::to_string(blocks) +
                          (has_pending ? " pending" : " none pending") +
                          (in_place ? " in-place" : "");
    ASSERT_EQ(0, std::memcmp(out, want.data(), n)) << w << ": output";
    ASSERT_EQ(0, std::memcmp(got_xi, want_xi, 16)) << w << ": Xi";
    ASSERT_EQ(0, std::memcmp(pend.data() + guard, want.data() + n - g, g))
        << w << ": pending group";
    ASSERT_EQ(0, std::memcmp(ctr_copy, ctr, 16)) << w << ": ctr changed";
    ASSERT_EQ("", b.Untouched()) << w;
    for (size_t i = 0; i < guard; i++) {
      ASSERT_EQ(0x6e, pend[i]) << w << ": wrote before pending";
      ASSERT_EQ(0x6e, pend[guard + g + i]) << w << ": wrote after pending";
    }
  }

  bool HasLagged() const { return impl()->seal_lagged != nullptr; }

  // Both directions, separate buffers and in place.
  void CheckAll(const FusedKey &k, const Bytes &data, size_t blocks,
                size_t in_off, size_t out_off, const uint8_t ctr[16],
                const uint8_t xi0[16], const std::string &what) const {
    for (bool seal : {true, false}) {
      Check(k, seal, data, blocks, in_off, out_off, false, ctr, xi0, what);
      Check(k, seal, data, blocks, 0, out_off, true, ctr, xi0,
            what + " in-place");
    }
  }
};

TEST_P(FusedKernelDirect, Descriptor) {
  ASSERT_NE(impl()->name, nullptr);
  ASSERT_NE(impl()->requires, nullptr);
  ASSERT_NE(impl()->seal, nullptr);
  ASSERT_NE(impl()->open, nullptr);
  ASSERT_NE(impl()->usable, nullptr);
  EXPECT_GE(impl()->min_blocks, 1u);
  // A one-shot threshold of its own, if any, covers at least one block
  // (the one-shot fused path hands the kernel every whole block).
  if (impl()->oneshot_min != 0) {
    EXPECT_GE(impl()->oneshot_min, 16u);
  }
  // An assembly kernel is tied to its pair, and its pair can run wherever
  // it can.
  ASSERT_NE(impl()->aes, nullptr);
  ASSERT_NE(impl()->ghash, nullptr);
  EXPECT_TRUE(impl()->aes->usable());
  EXPECT_TRUE(impl()->ghash->usable());
  // A lagged seal's group is a power of two the stream's buffer holds
  // with a length block behind it; no group without the hook.
  if (HasLagged()) {
    const unsigned g = impl()->lag_blocks;
    EXPECT_GE(g, 1u);
    EXPECT_LE(g, unsigned{FUSED_LAG_MAX_BLOCKS});
    EXPECT_EQ(0u, g & (g - 1)) << "lag_blocks " << g;
  } else {
    EXPECT_EQ(0u, impl()->lag_blocks);
  }
}

// Every whole number of groups up to 300 blocks, the three key sizes, with
// and without a pending group.
TEST_P(FusedKernelDirect, LaggedSealEveryGroupCountAllKeySizes) {
  if (!HasLagged()) GTEST_SKIP() << impl()->name << " has no lagged seal";
  std::mt19937_64 rng(0x3c6ef372a54ff53aull);
  const size_t group = impl()->lag_blocks;
  for (size_t key_len : {16, 24, 32}) {
    FusedKey k;
    Bytes raw = RandomBytes(rng, key_len);
    MakeKey(&k, raw.data(), key_len);
    for (size_t blocks = group; blocks <= 300; blocks += group) {
      Bytes data = RandomBytes(rng, 16 * blocks);
      Bytes ctr = RandomBytes(rng, 16), xi = RandomBytes(rng, 16);
      Bytes pending = RandomBytes(rng, 16 * group);
      for (bool has : {false, true}) {
        CheckLagged(k, data, blocks, 0, 0, false, ctr.data(), xi.data(),
                    pending, has, "key_len=" + std::to_string(key_len));
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// Odd alignments, in place, and the counter wrapping at every position of
// the first group and a later one.
TEST_P(FusedKernelDirect, LaggedSealAlignmentsInPlaceAndCounterWrap) {
  if (!HasLagged()) GTEST_SKIP() << impl()->name << " has no lagged seal";
  std::mt19937_64 rng(0xa54ff53a510e527full);
  const size_t group = impl()->lag_blocks;
  for (size_t key_len : {16, 32}) {
    FusedKey k;
    Bytes raw = RandomBytes(rng, key_len);
    MakeKey(&k, raw.data(), key_len);
    for (size_t blocks : {group, 2 * group, 3 * group}) {
      Bytes data = RandomBytes(rng, 16 * blocks);
      Bytes ctr = RandomBytes(rng, 16), xi = RandomBytes(rng, 16);
      Bytes pending = RandomBytes(rng, 16 * group);
      for (size_t in_off : {0u, 1u, 15u}) {
        for (size_t out_off : {0u, 7u, 32u}) {
          for (bool has : {false, true}) {
            CheckLagged(k, data, blocks, in_off, out_off, false, ctr.data(),
                        xi.data(), pending, has, "offsets");
            CheckLagged(k, data, blocks, 0, out_off, true, ctr.data(),
                        xi.data(), pending, has, "offsets");
            if (::testing::Test::HasFatalFailure()) return;
          }
        }
      }
      for (uint32_t start = 0xFFFFFFFFu - 2 * static_cast<uint32_t>(group);
           start != 0; start++) {
        store_be32(ctr.data() + 12, start);
        char what[64];
        std::snprintf(what, sizeof(what), "key_len=%zu ctr=0x%08x", key_len,
                      start);
        CheckLagged(k, data, blocks, 0, 0, false, ctr.data(), xi.data(),
                    pending, true, what);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// A chain of lagged seals of random lengths, then GHASH of the last pending
// group, equals one seal over the whole run (the mode engine's use).
TEST_P(FusedKernelDirect, LaggedSealChainEqualsOneSeal) {
  if (!HasLagged()) GTEST_SKIP() << impl()->name << " has no lagged seal";
  std::mt19937_64 rng(0x9b05688c510e527full);
  const size_t group = impl()->lag_blocks;
  FusedKey k;
  Bytes raw = RandomBytes(rng, 16);
  MakeKey(&k, raw.data(), 16);
  for (int trial = 0; trial < 20; trial++) {
    std::vector<size_t> runs;
    size_t total = 0;
    for (int i = 0; i < 1 + trial % 7; i++) {
      runs.push_back(group * (1 + rng() % 5));
      total += runs.back();
    }
    Bytes data = RandomBytes(rng, 16 * total);
    Bytes ctr = RandomBytes(rng, 16), xi0 = RandomBytes(rng, 16);
    Bytes want(data.size()), got(data.size());
    uint8_t want_xi[16], got_xi[16];
    std::memcpy(want_xi, xi0.data(), 16);
    std::memcpy(got_xi, xi0.data(), 16);
    impl()->seal(&k.keys, want.data(), data.data(), total, ctr.data(), want_xi);
    Bytes pending(16 * group), c = ctr;
    size_t done = 0;
    for (size_t r = 0; r < runs.size(); r++) {
      const fused_lag lag = {got_xi, pending.data(), r > 0 ? size_t{1} : 0};
      impl()->seal_lagged(&k.keys, got.data() + 16 * done,
                          data.data() + 16 * done, runs[r], c.data(), &lag);
      done += runs[r];
      store_be32(c.data() + 12,
                 load_be32(c.data() + 12) + static_cast<uint32_t>(runs[r]));
    }
    impl()->ghash->update(got_xi, k.ghash.get(), pending.data(), group);
    EXPECT_EQ(want, got) << "trial " << trial;
    EXPECT_EQ(0, std::memcmp(want_xi, got_xi, 16)) << "trial " << trial;
  }
}

TEST_P(FusedKernelDirect, EveryCountUpTo300AllKeySizes) {
  std::mt19937_64 rng(0x510e527fade682d1ull);
  for (size_t key_len : {16, 24, 32}) {
    FusedKey k;
    Bytes raw = RandomBytes(rng, key_len);
    MakeKey(&k, raw.data(), key_len);
    for (size_t blocks = 1; blocks <= 300; blocks++) {
      Bytes data = RandomBytes(rng, 16 * blocks);
      Bytes ctr = RandomBytes(rng, 16), xi = RandomBytes(rng, 16);
      const std::string what = "key_len=" + std::to_string(key_len);
      for (bool seal : {true, false}) {
        Check(k, seal, data, blocks, 0, 0, false, ctr.data(), xi.data(), what);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST_P(FusedKernelDirect, LargeCounts) {
  std::mt19937_64 rng(0x9b05688c2b3e6c1full);
  FusedKey k;
  Bytes raw = RandomBytes(rng, 16);
  MakeKey(&k, raw.data(), 16);
  std::vector<size_t> counts;
  for (int d = -17; d <= 17; d++) counts.push_back(1024 + d);  // ~16 KiB
  for (size_t c : {16383u, 16384u, 16385u, 16401u}) counts.push_back(c);
  for (size_t blocks : counts) {
    Bytes data = RandomBytes(rng, 16 * blocks);
    Bytes ctr = RandomBytes(rng, 16), xi = RandomBytes(rng, 16);
    CheckAll(k, data, blocks, 0, 0, ctr.data(), xi.data(), "large");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST_P(FusedKernelDirect, OddAlignmentsAndInPlace) {
  std::mt19937_64 rng(0x1f83d9abfb41bd6bull);
  FusedKey k;
  Bytes raw = RandomBytes(rng, 32);
  MakeKey(&k, raw.data(), 32);
  for (size_t blocks : {1u, 2u, 3u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 33u, 100u}) {
    Bytes data = RandomBytes(rng, 16 * blocks);
    Bytes ctr = RandomBytes(rng, 16), xi = RandomBytes(rng, 16);
    for (size_t in_off : {0u, 1u, 3u, 8u, 15u}) {
      for (size_t out_off : {0u, 1u, 7u, 13u, 32u}) {
        CheckAll(k, data, blocks, in_off, out_off, ctr.data(), xi.data(),
                 "in_off=" + std::to_string(in_off) +
                     " out_off=" + std::to_string(out_off));
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// The counter's low word wraps from 0xFFFFFFFF to 0 (bytes 0..11 stay) at
// every position of a batch: start values 0xFFFFFFF0..0xFFFFFFFF, with runs
// that reach the wrap in the first batch, a later batch and the tail.
TEST_P(FusedKernelDirect, CounterWrapsModulo2To32AtEveryPosition) {
  std::mt19937_64 rng(0x5be0cd19137e2179ull);
  for (size_t key_len : {16, 24, 32}) {
    FusedKey k;
    Bytes raw = RandomBytes(rng, key_len);
    MakeKey(&k, raw.data(), key_len);
    for (uint32_t start = 0xFFFFFFF0u; start != 0; start++) {
      for (size_t blocks : {1u, 5u, 8u, 13u, 16u, 17u, 24u, 31u, 32u, 40u, 48u}) {
        Bytes data = RandomBytes(rng, 16 * blocks);
        Bytes ctr = RandomBytes(rng, 16), xi = RandomBytes(rng, 16);
        store_be32(ctr.data() + 12, start);
        char what[64];
        std::snprintf(what, sizeof(what), "key_len=%zu ctr=0x%08x", key_len,
                      start);
        CheckAll(k, data, blocks, 0, 0, ctr.data(), xi.data(), what);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// Sealing then opening the result gives the data back and the same Xi;
// chained calls over a split run equal one call over the whole.
TEST_P(FusedKernelDirect, RoundTripAndChaining) {
  std::mt19937_64 rng(0x6a09e667bb67ae85ull);
  FusedKey k;
  Bytes raw = RandomBytes(rng, 16);
  MakeKey(&k, raw.data(), 16);
  for (size_t blocks : {1u, 9u, 64u, 77u}) {
    Bytes data = RandomBytes(rng, 16 * blocks);
    Bytes ctr = RandomBytes(rng, 16), xi0 = RandomBytes(rng, 16);
    Bytes ct(data.size()), pt(data.size());
    uint8_t xs[16], xo[16];
    std::memcpy(xs, xi0.data(), 16);
    std::memcpy(xo, xi0.data(), 16);
    impl()->seal(&k.keys, ct.data(), data.data(), blocks, ctr.data(), xs);
    impl()->open(&k.keys, pt.data(), ct.data(), blocks, ctr.data(), xo);
    EXPECT_EQ(data, pt);
    EXPECT_EQ(0, std::memcmp(xs, xo, 16));

    // Split at `first` blocks: the second call starts at ctr + first.
    const size_t first = blocks / 2 + 1 > blocks ? blocks : blocks / 2 + 1;
    Bytes ct2(data.size());
    uint8_t x2[16];
    std::memcpy(x2, xi0.data(), 16);
    impl()->seal(&k.keys, ct2.data(), data.data(), first, ctr.data(), x2);
    if (first < blocks) {
      Bytes ctr2 = ctr;
      store_be32(ctr2.data() + 12,
                 load_be32(ctr2.data() + 12) + static_cast<uint32_t>(first));
      impl()->seal(&k.keys, ct2.data() + 16 * first, data.data() + 16 * first,
                   blocks - first, ctr2.data(), x2);
    }
    EXPECT_EQ(ct, ct2) << blocks;
    EXPECT_EQ(0, std::memcmp(xs, x2, 16)) << blocks;
  }
}

std::string ImplName(const ::testing::TestParamInfo<const fused_impl *> &info) {
  return info.param->name;
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FusedKernelDirect);
INSTANTIATE_TEST_SUITE_P(All, FusedKernelDirect, ::testing::ValuesIn(FusedImpls()),
                         ImplName);

}  // namespace
