// test/siv_hooks_test.cc: the backends' AES-GCM-SIV hooks against their
// contracts (crypto/aes/aes.h, crypto/ghash/ghash.h), for every usable
// backend that has them, with references built from the hooks every
// backend has:
//   ctr32le         against encrypt_block on each counter block (the
//                   little-endian first word stepping, wrapping mod 2^32),
//                   run lengths around every kernel's batch, in place and
//                   at odd alignments, and the key sizes;
//   polyval_update  against update on byte-reversed blocks and a
//                   byte-reversed S (RFC 8452, appendix A), on a key from
//                   init, and RFC 8452's own POLYVAL example;
//   init_for        a key from init_for(n) gives the same result as one
//                   from init for every call of at most n blocks;
// and the fused kernels' AES-GCM-SIV functions (crypto/fused/fused.h)
// against their pair's hooks:
//   siv_ctr32le     against the AES backend's ctr32le, every run length
//                   around the batches, counters wrapping at every place
//                   in a batch, in place and at odd alignments;
//   siv_polyval     against the GHASH backend's polyval_update, on a key
//                   from init and on keys from siv_hash_init(n) for calls
//                   of up to n blocks (which checks siv_hash_init);
//   siv_open        against ctr32le followed by polyval_update of the
//                   output, the same runs and counters;
//   siv_keys        against encrypt_block on the derivation blocks and
//                   set_encrypt_key of K_enc (the schedule byte for byte);
//   siv_seal_short  against RFC 8452 built from the pair's hooks, every
//   siv_open_short  length 0..256 and longer ones up to
//                   FUSED_SIV_KERNEL_MAX, with AAD of 0..64 bytes, both key
//                   sizes; the seal's whole blocks to another buffer and
//                   in place, the open's layout in place, nothing written
//                   outside the buffers, open with the right tag and a
//                   wrong one.
//   siv_polyval_runs against polyval_update on each of its four runs,
//                   lengths around the groups and tails, and at random.
//   siv_keys_hash   against the derivation from encrypt_block,
//                   set_encrypt_key of K_enc and the GHASH backend's
//                   init_for on the POLYVAL key's GHASH key, byte for byte,
//                   for every power count;
//   siv_open_end    against polyval_update of the AAD's partial block,
//                   ctr32le and polyval_update of the output (as for
//                   siv_open), ctr32le of the partial last block, masked,
//                   and polyval_update of it and the length block, then
//                   encrypt_block for the tag; with and without either
//                   partial block, in place and not, nothing else written.
//   siv_tag_ctr32le against encrypt_block for the tag (of S ^ the nonce
//                   block, top bit cleared) and the AES
//                   backend's ctr32le from it, run lengths 0 .. 257 with and
//                   without the last block, counters wrapping, in place
//                   and at odd alignments, nothing written past.
// The backends without a hook are covered by the mode's fallbacks, which
// test/siv_test.cc and the vector files run on every pair.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "../crypto/dispatch/dispatch.h"
}
#include "key_rooms.h"
#include "test_util.h"

using gcmtest::Bytes;
using gcmtest::RandomBytes;

namespace {

std::vector<const aes_impl *> UsableAes() {
  std::vector<const aes_impl *> out;
  for (size_t i = 0; gcmi_dispatch_aes_at(i) != nullptr; i++) {
    const aes_impl *a = gcmi_dispatch_aes_at(i);
    if (a->usable()) out.push_back(a);
  }
  return out;
}

std::vector<const ghash_impl *> UsableGhash() {
  std::vector<const ghash_impl *> out;
  for (size_t i = 0; gcmi_dispatch_ghash_at(i) != nullptr; i++) {
    const ghash_impl *g = gcmi_dispatch_ghash_at(i);
    if (g->usable()) out.push_back(g);
  }
  return out;
}

// Room for a schedule or a GHASH key (test/key_rooms.h).
using Sched = AesKeyRoom;
using GKey = GhashKeyRoom;

// Whether a hook that made a GHASH key for g in `k` (filled with `fill`
// first) wrote nothing past g's key_bytes.
bool NothingPastKeyBytes(const ghash_impl *g, const GKey &k, uint8_t fill) {
  for (size_t i = g->key_bytes; i < sizeof(k.room.bytes); i++) {
    if (k.room.bytes[i] != fill) return false;
  }
  return true;
}

class SivAesHook : public ::testing::TestWithParam<const aes_impl *> {};

TEST_P(SivAesHook, Ctr32leMatchesEncryptBlock) {
  const aes_impl *aes = GetParam();
  if (aes->ctr32le == nullptr) GTEST_SKIP() << aes->name << " has no ctr32le";
  std::mt19937_64 rng(32);
  for (size_t key_len : {16, 24, 32}) {
    Sched s;
    const Bytes raw = RandomBytes(rng, key_len);
    aes->set_encrypt_key(s.get(), raw.data(), key_len);
    for (size_t blocks : {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64}) {
      for (uint32_t start : {0u, 5u, 0xfffffffeu, 0xfffffff0u}) {
        for (size_t align : {0, 3}) {
          for (int inplace = 0; inplace < 2; inplace++) {
            const size_t n = 16 * blocks;
            Bytes ctr = RandomBytes(rng, 16);
            store_le32(ctr.data(), start);
            const Bytes in = RandomBytes(rng, n);
            // Reference: one counter block at a time.
            Bytes want(n);
            uint8_t cb[16], ks[16];
            std::memcpy(cb, ctr.data(), 16);
            for (size_t i = 0; i < blocks; i++) {
              store_le32(cb, start + static_cast<uint32_t>(i));
              aes->encrypt_block(s.get(), ks, cb);
              for (int j = 0; j < 16; j++) want[16 * i + j] = in[16 * i + j] ^ ks[j];
            }
            Bytes ibuf(n + 64, 0x11), obuf(n + 64, 0x22);
            if (n > 0) std::memcpy(ibuf.data() + align, in.data(), n);
            uint8_t *dst = inplace ? ibuf.data() + align : obuf.data() + align;
            aes->ctr32le(s.get(), dst, ibuf.data() + align, blocks, ctr.data());
            const std::string what = std::string(aes->name) + " key " +
                                     std::to_string(key_len) + " blocks " +
                                     std::to_string(blocks) + " start " +
                                     std::to_string(start);
            ASSERT_EQ(0, n == 0 ? 0 : std::memcmp(dst, want.data(), n)) << what;
            // Nothing written past the blocks.
            const uint8_t fill = inplace ? 0x11 : 0x22;
            for (size_t j = align + n; j < n + 64; j++) {
              ASSERT_EQ(fill, (inplace ? ibuf : obuf)[j]) << what;
            }
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllUsable, SivAesHook, ::testing::ValuesIn(UsableAes()),
                         [](const ::testing::TestParamInfo<const aes_impl *> &i) {
                           return std::string(i.param->name);
                         });

class SivGhashHook : public ::testing::TestWithParam<const ghash_impl *> {};

void Reverse(uint8_t *b) {
  for (int i = 0; i < 8; i++) std::swap(b[i], b[15 - i]);
}

// The GHASH key for POLYVAL key h: mulX_GHASH(ByteReverse(h)), written
// here without the library's helper.
Bytes GhashKeyFor(const Bytes &h) {
  Bytes v(h.rbegin(), h.rend());  // ByteReverse, as a big-endian number
  const bool carry = v[15] & 1;
  for (int i = 15; i > 0; i--) v[i] = static_cast<uint8_t>((v[i] >> 1) | (v[i - 1] << 7));
  v[0] >>= 1;
  if (carry) v[0] ^= 0xe1;
  return v;
}

TEST_P(SivGhashHook, PolyvalUpdateIsUpdateOnReversedBlocks) {
  const ghash_impl *g = GetParam();
  if (g->polyval_update == nullptr) GTEST_SKIP() << g->name << " has no polyval_update";
  std::mt19937_64 rng(8452);
  for (int round = 0; round < 8; round++) {
    const Bytes h = RandomBytes(rng, 16);
    GKey key;
    g->init(key.get(), GhashKeyFor(h).data());
    for (size_t blocks : {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 70}) {
      for (size_t align : {0, 5}) {
        const Bytes in = RandomBytes(rng, 16 * blocks);
        const Bytes s0 = RandomBytes(rng, 16);
        // Reference: update on the byte reversals.
        Bytes rin = in, xi = s0;
        for (size_t i = 0; i < blocks; i++) Reverse(rin.data() + 16 * i);
        Reverse(xi.data());
        g->update(xi.data(), key.get(), rin.data(), blocks);
        Reverse(xi.data());
        Bytes buf(16 * blocks + 16);
        if (blocks) std::memcpy(buf.data() + align, in.data(), 16 * blocks);
        Bytes s = s0;
        g->polyval_update(s.data(), key.get(), buf.data() + align, blocks);
        ASSERT_EQ(xi, s) << g->name << " blocks " << blocks;
      }
    }
  }
}

// RFC 8452, appendix A: POLYVAL(H, X_1, X_2) for
// H = 25629347589242761d31f826ba4b757b,
// X_1 = 4f4f95668c83dfb6401762bb2d01a262,
// X_2 = d1a24ddd2721d006bbe45f20d3c9f362
// is f7a3b47b846119fae5b7866cf5e5b77e.
TEST_P(SivGhashHook, Rfc8452PolyvalExample) {
  const ghash_impl *g = GetParam();
  const Bytes h = gcmtest::FromHex("25629347589242761d31f826ba4b757b");
  const Bytes x = gcmtest::FromHex(
      "4f4f95668c83dfb6401762bb2d01a262d1a24ddd2721d006bbe45f20d3c9f362");
  const Bytes want = gcmtest::FromHex("f7a3b47b846119fae5b7866cf5e5b77e");
  GKey key;
  g->init(key.get(), GhashKeyFor(h).data());
  Bytes s(16, 0);
  if (g->polyval_update != nullptr) {
    g->polyval_update(s.data(), key.get(), x.data(), 2);
  } else {
    Bytes rx = x;
    Reverse(rx.data());
    Reverse(rx.data() + 16);
    g->update(s.data(), key.get(), rx.data(), 2);
    Reverse(s.data());
  }
  EXPECT_EQ(want, s) << g->name;
}

TEST_P(SivGhashHook, InitForServesCallsUpToItsLimit) {
  const ghash_impl *g = GetParam();
  if (g->init_for == nullptr) GTEST_SKIP() << g->name << " has no init_for";
  std::mt19937_64 rng(9);
  // Every count of the short path (up to 4 + 16 + 1 blocks), then longer.
  std::vector<size_t> maxes;
  for (size_t m = 1; m <= 24; m++) maxes.push_back(m);
  maxes.push_back(40);
  for (size_t max : maxes) {
    const Bytes h = RandomBytes(rng, 16);
    GKey full, part;
    g->init(full.get(), h.data());
    std::memset(&part, 0xa5, sizeof(part));  // what init_for leaves is garbage
    g->init_for(part.get(), h.data(), max);
    ASSERT_TRUE(NothingPastKeyBytes(g, part, 0xa5))
        << g->name << " init_for wrote past its key_bytes, max " << max;
    for (size_t blocks = 0; blocks <= max && blocks <= 40; blocks++) {
      const Bytes in = RandomBytes(rng, 16 * blocks);
      // The key serves polyval_update where the backend has one, else
      // update (ghash.h).
      if (g->polyval_update == nullptr) {
        Bytes a = RandomBytes(rng, 16), b = a;
        g->update(a.data(), full.get(), in.data(), blocks);
        g->update(b.data(), part.get(), in.data(), blocks);
        ASSERT_EQ(a, b) << g->name << " max " << max << " blocks " << blocks;
      } else {
        Bytes c = RandomBytes(rng, 16), d = c;
        g->polyval_update(c.data(), full.get(), in.data(), blocks);
        g->polyval_update(d.data(), part.get(), in.data(), blocks);
        ASSERT_EQ(c, d) << g->name << " polyval max " << max << " blocks " << blocks;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllUsable, SivGhashHook, ::testing::ValuesIn(UsableGhash()),
                         [](const ::testing::TestParamInfo<const ghash_impl *> &i) {
                           return std::string(i.param->name);
                         });

// ---- the fused kernels' AES-GCM-SIV functions ---------------------------------

std::vector<const fused_impl *> UsableSivFused() {
  std::vector<const fused_impl *> out;
  for (size_t i = 0; gcmi_dispatch_fused_at(i) != nullptr; i++) {
    const fused_impl *f = gcmi_dispatch_fused_at(i);
    if (f->usable() && f->siv_open != nullptr) out.push_back(f);
  }
  return out;
}

class SivFusedHook : public ::testing::TestWithParam<const fused_impl *> {};
// A CPU (or an OPENSSL_ia32cap / LIBGCM_ARMCAP tier) without a fused kernel
// that has AES-GCM-SIV functions leaves the suite empty.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SivFusedHook);

// Run lengths around the batches of 8 and 16 blocks and their tails.
std::vector<size_t> RunLengths() {
  std::vector<size_t> n;
  for (size_t i = 1; i <= 40; i++) n.push_back(i);
  for (size_t i : {47, 48, 49, 64, 100, 257}) n.push_back(i);
  return n;
}

TEST_P(SivFusedHook, Ctr32leAndOpenMatchThePairsHooks) {
  const fused_impl *f = GetParam();
  std::mt19937_64 rng(5);
  for (size_t key_len : {16, 32}) {
    Sched s;
    GKey g;
    const Bytes raw = RandomBytes(rng, key_len);
    f->aes->set_encrypt_key(s.get(), raw.data(), key_len);
    f->ghash->init(g.get(), GhashKeyFor(RandomBytes(rng, 16)).data());
    const fused_keys keys = {f->aes, s.get(), f->ghash, g.get(), nullptr};
    for (size_t blocks : RunLengths()) {
      // The counter wraps inside the run at a different place each time.
      const uint32_t start = 0u - static_cast<uint32_t>(blocks % 19);
      for (int inplace = 0; inplace < 2; inplace++) {
        const size_t n = 16 * blocks, align = inplace ? 0 : 7;
        Bytes ctr = RandomBytes(rng, 16);
        store_le32(ctr.data(), start);
        const Bytes in = RandomBytes(rng, n), s0 = RandomBytes(rng, 16);
        Bytes want(n);
        f->aes->ctr32le(s.get(), want.data(), in.data(), blocks, ctr.data());
        Bytes want_s = s0;
        f->ghash->polyval_update(want_s.data(), g.get(), want.data(), blocks);
        const std::string what = std::string(f->name) + " key " +
                                 std::to_string(key_len) + " blocks " +
                                 std::to_string(blocks) +
                                 (inplace ? " in place" : "");
        Bytes ibuf(n + 32, 0x11), obuf(n + 32, 0x22);
        std::memcpy(ibuf.data() + align, in.data(), n);
        uint8_t *dst = inplace ? ibuf.data() + align : obuf.data() + align;
        Bytes got_s = s0;
        f->siv_open(&keys, dst, ibuf.data() + align, blocks, ctr.data(),
                    got_s.data());
        ASSERT_EQ(0, std::memcmp(dst, want.data(), n)) << what << " siv_open";
        ASSERT_EQ(want_s, got_s) << what << " siv_open's S";
        if (f->siv_ctr32le != nullptr) {
          std::memcpy(ibuf.data() + align, in.data(), n);
          f->siv_ctr32le(s.get(), dst, ibuf.data() + align, blocks, ctr.data());
          ASSERT_EQ(0, std::memcmp(dst, want.data(), n)) << what << " siv_ctr32le";
        }
        const uint8_t fill = inplace ? 0x11 : 0x22;
        for (size_t j = align + n; j < n + 32; j++) {
          ASSERT_EQ(fill, (inplace ? ibuf : obuf)[j]) << what << " wrote past";
        }
      }
    }
  }
}

TEST_P(SivFusedHook, PolyvalAndHashInitMatchThePairsHooks) {
  const fused_impl *f = GetParam();
  if (f->siv_polyval == nullptr) GTEST_SKIP() << f->name << " has no siv_polyval";
  std::mt19937_64 rng(6);
  const Bytes h = GhashKeyFor(RandomBytes(rng, 16));
  GKey full;
  f->ghash->init(full.get(), h.data());
  for (size_t max : {1, 3, 4, 5, 8, 9, 16, 17, 300}) {
    GKey part;
    std::memset(&part, 0xa5, sizeof(part));
    if (f->siv_hash_init != nullptr) {
      f->siv_hash_init(part.get(), h.data(), max);
      ASSERT_TRUE(NothingPastKeyBytes(f->ghash, part, 0xa5))
          << f->name << " siv_hash_init wrote past " << f->ghash->name
          << "'s key_bytes, max " << max;
    } else {
      part = full;
    }
    std::vector<size_t> runs = RunLengths();
    runs.push_back(0);
    for (size_t blocks : runs) {
      if (blocks > max) continue;
      const Bytes in = RandomBytes(rng, 16 * blocks + 5);
      Bytes want = RandomBytes(rng, 16), got = want, again = want;
      f->ghash->polyval_update(want.data(), full.get(), in.data() + 5, blocks);
      f->siv_polyval(got.data(), part.get(), in.data() + 5, blocks);
      ASSERT_EQ(want, got) << f->name << " max " << max << " blocks " << blocks;
      f->siv_polyval(again.data(), full.get(), in.data() + 5, blocks);
      ASSERT_EQ(want, again) << f->name << " (init's key) blocks " << blocks;
    }
  }
}

// ---- the per-message hooks: siv_keys, siv_seal_short, siv_open_short -------

// The reference derivation from the pair's AES hooks (RFC 8452, section
// 4): K_auth, and K_enc's raw bytes.
void DeriveRef(const aes_impl *aes, const aes_schedule *kgk, size_t key_len,
               const uint8_t nonce[12], Bytes *auth, Bytes *enc) {
  auth->assign(16, 0);
  enc->assign(key_len, 0);
  for (size_t i = 0; i < 2 + key_len / 8; i++) {
    uint8_t in[16] = {0}, b[16];
    store_le32(in, static_cast<uint32_t>(i));
    std::memcpy(in + 4, nonce, 12);
    aes->encrypt_block(kgk, b, in);
    std::memcpy(i < 2 ? auth->data() + 8 * i : enc->data() + 8 * (i - 2), b, 8);
  }
}

// The short functions' layout: padded AAD, padded data, length block.
Bytes ShortLayout(const Bytes &aad, const Bytes &data) {
  const size_t a = (aad.size() + 15) / 16, c = (data.size() + 15) / 16;
  Bytes hb(16 * (a + c + 1), 0);
  if (!aad.empty()) std::memcpy(hb.data(), aad.data(), aad.size());
  if (!data.empty()) std::memcpy(hb.data() + 16 * a, data.data(), data.size());
  store_le64(hb.data() + 16 * (a + c), 8 * static_cast<uint64_t>(aad.size()));
  store_le64(hb.data() + 16 * (a + c) + 8, 8 * static_cast<uint64_t>(data.size()));
  return hb;
}

// RFC 8452 from the pair's hooks: counter mode from `tag` over `in` (the
// c padded blocks of the layout `hb`, in place), then, for open, the
// padding cleared; POLYVAL of hb; the tag. seal: hash first, then counter
// mode from the tag it makes.
void ShortRef(const fused_impl *f, const aes_schedule *kgk, size_t key_len,
              const uint8_t nonce[12], Bytes *hb, size_t a, size_t len,
              uint8_t tag[16], bool open) {
  Bytes auth, enc;
  DeriveRef(f->aes, kgk, key_len, nonce, &auth, &enc);
  Sched es;
  GKey g;
  f->aes->set_encrypt_key(es.get(), enc.data(), key_len);
  f->ghash->init(g.get(), GhashKeyFor(auth).data());
  const size_t c = (len + 15) / 16;
  uint8_t *data = hb->data() + 16 * a;
  auto crypt = [&](const uint8_t *t) {
    uint8_t cb[16];
    std::memcpy(cb, t, 16);
    cb[15] |= 0x80;
    f->aes->ctr32le(es.get(), data, data, c, cb);
  };
  auto hash = [&](uint8_t *out) {
    uint8_t s[16] = {0};
    f->ghash->polyval_update(s, g.get(), hb->data(), hb->size() / 16);
    for (int i = 0; i < 12; i++) s[i] ^= nonce[i];
    s[15] &= 0x7f;
    f->aes->encrypt_block(es.get(), out, s);
  };
  if (open) {
    crypt(tag);
    for (size_t i = len; i < 16 * c; i++) data[i] = 0;
    hash(tag);
  } else {
    hash(tag);
    crypt(tag);
  }
}

// Calls f's siv_seal_short (open false) or siv_open_short on `data`
// (plaintext or ciphertext) with AAD `aad` and tag_in in io.tag, three
// ways: the AAD, a partial last block and the length block in hb with the
// whole blocks from their own buffer to another; the same in place; and
// the whole message laid out in hb (one run). Checks io.tag against
// tag_want, the output against ref (ShortRef's layout of the result:
// whole blocks, and the padded last block as the kernel leaves it), and
// that nothing else in any buffer changed (guard blocks around each).
void RunShortThreeWays(const fused_impl *f, const aes_schedule *kgk,
                       const uint8_t nonce[12], const Bytes &aad,
                       const Bytes &data, bool open, const uint8_t tag_in[16],
                       const Bytes &ref, const uint8_t tag_want[16],
                       const std::string &what) {
  const size_t a = (aad.size() + 15) / 16, len = data.size();
  const size_t dw = len / 16, t = len % 16 != 0;
  const Bytes lay = ShortLayout(aad, data);
  for (int way = 0; way < 3; way++) {
    const bool whole = way == 2;
    Bytes hb(whole ? lay.size() + 32 : 16 * (a + t + 1) + 32, 0x77);
    if (whole) {
      std::memcpy(hb.data() + 16, lay.data(), lay.size());
    } else {
      std::memcpy(hb.data() + 16, lay.data(), 16 * a);
      std::memcpy(hb.data() + 16 + 16 * a, lay.data() + 16 * (a + dw),
                  16 * (t + 1));
    }
    const Bytes hb_before = hb;
    Bytes in(16 * dw + 32, 0x66), out(16 * dw + 32, 0x55);
    if (dw > 0) std::memcpy(in.data() + 16, data.data(), 16 * dw);
    siv_short_io io;
    std::memcpy(io.tag, tag_in, 16);
    uint8_t *d = hb.data() + 16 + 16 * a;
    io.in = whole ? d : in.data() + 16;
    io.out = whole ? d : way == 1 ? in.data() + 16 : out.data() + 16;
    io.end = whole ? d + 16 * dw : d;
    (open ? f->siv_open_short : f->siv_seal_short)(kgk, nonce, hb.data() + 16,
                                                   a, len, &io);
    const std::string w = what + (way == 0 ? "" : way == 1 ? " in place" : " in hb");
    ASSERT_EQ(0, std::memcmp(io.tag, tag_want, 16)) << w << " tag";
    ASSERT_EQ(0, dw == 0 ? 0 : std::memcmp(io.out, ref.data() + 16 * a, 16 * dw))
        << w << " whole blocks";
    if (t) {
      ASSERT_EQ(0, std::memcmp(io.end, ref.data() + 16 * (a + dw), 16))
          << w << " last block";
    }
    // Nothing else changed: the AAD, the length block, the guards, the
    // input (when not in place).
    const size_t from = 16 + 16 * a;
    const size_t to = whole ? 16 + 16 * (a + dw + t) : 16 + 16 * (a + t);
    for (size_t i = 0; i < hb.size(); i++) {
      if (i >= from && i < to) continue;
      ASSERT_EQ(hb_before[i], hb[i]) << w << " hb byte " << i;
    }
    for (size_t i = 0; i < in.size(); i++) {
      if (way == 1 && i >= 16 && i < 16 + 16 * dw) continue;
      const uint8_t was = i >= 16 && i < 16 + 16 * dw ? data[i - 16] : 0x66;
      ASSERT_EQ(was, in[i]) << w << " input byte " << i;
    }
    for (size_t i = 0; i < out.size(); i++) {
      if (way == 0 && i >= 16 && i < 16 + 16 * dw) continue;
      ASSERT_EQ(0x55, out[i]) << w << " output byte " << i;
    }
  }
}

TEST_P(SivFusedHook, KeysAndShortMatchThePairsHooks) {
  const fused_impl *f = GetParam();
  if (f->siv_keys == nullptr) GTEST_SKIP() << f->name << " has no siv_keys";
  ASSERT_NE(nullptr, f->siv_seal_short);
  ASSERT_NE(nullptr, f->siv_open_short);
  std::mt19937_64 rng(8452);
  for (size_t key_len : {16, 32}) {
    Sched kgk;
    const Bytes raw = RandomBytes(rng, key_len);
    f->aes->set_encrypt_key(kgk.get(), raw.data(), key_len);
    const std::string kw = std::string(f->name) + " key " + std::to_string(key_len);
    // siv_keys: K_auth, and K_enc's schedule as set_encrypt_key makes it.
    for (int round = 0; round < 16; round++) {
      const Bytes nonce = RandomBytes(rng, 12);
      Bytes auth, enc;
      DeriveRef(f->aes, kgk.get(), key_len, nonce.data(), &auth, &enc);
      Sched want, got;
      std::memset(&want, 0x5a, sizeof(want));
      std::memset(&got, 0x5a, sizeof(got));
      f->aes->set_encrypt_key(want.get(), enc.data(), key_len);
      Bytes got_auth(16 + 1, 0x33);
      f->siv_keys(kgk.get(), nonce.data(), got_auth.data(), got.get());
      ASSERT_EQ(0, std::memcmp(got_auth.data(), auth.data(), 16)) << kw << " K_auth";
      ASSERT_EQ(0x33, got_auth[16]) << kw << " wrote past K_auth";
      ASSERT_EQ(0, std::memcmp(&want, &got, sizeof(want))) << kw << " K_enc";
    }
    // The short functions: every length up to 256 bytes, AAD up to 64,
    // and longer ones up to FUSED_SIV_KERNEL_MAX (a kernel's siv_seal_max
    // may reach it; the functions take any length).
    std::vector<size_t> lens;
    for (size_t len = 0; len <= 256; len++) lens.push_back(len);
    for (size_t len : {257, 300, 383, 511, 1024, 1350, 2047}) lens.push_back(len);
    lens.push_back(FUSED_SIV_KERNEL_MAX);
    for (size_t len : lens) {
      for (size_t aad_len = 0; aad_len <= 64; aad_len += (len % 7 == 0 ? 1 : 13)) {
        const Bytes nonce = RandomBytes(rng, 12);
        const Bytes aad = RandomBytes(rng, aad_len), pt = RandomBytes(rng, len);
        const size_t a = (aad_len + 15) / 16;
        const std::string what = kw + " len " + std::to_string(len) + " aad " +
                                 std::to_string(aad_len);
        Bytes want = ShortLayout(aad, pt);
        uint8_t want_tag[16];
        ShortRef(f, kgk.get(), key_len, nonce.data(), &want, a, len, want_tag,
                 false);
        // The seal, then the open of what it sealed (once with a wrong
        // tag), each three ways.
        const Bytes ct(want.begin() + 16 * a, want.begin() + 16 * a + len);
        uint8_t stale[16];
        std::memset(stale, 0x44, sizeof(stale)); // the seal must overwrite it
        RunShortThreeWays(f, kgk.get(), nonce.data(), aad, pt, false, stale,
                          want, want_tag, what + " seal");
        for (int bad = 0; bad < 2; bad++) {
          Bytes ref = ShortLayout(aad, ct);
          uint8_t t_ref[16], t_in[16];
          std::memcpy(t_ref, want_tag, 16);
          t_ref[len % 16] ^= static_cast<uint8_t>(bad);
          std::memcpy(t_in, t_ref, 16);
          ShortRef(f, kgk.get(), key_len, nonce.data(), &ref, a, len, t_ref, true);
          if (!bad) {
            ASSERT_EQ(0, std::memcmp(t_ref, want_tag, 16)) << what;
            ASSERT_EQ(0, len == 0 ? 0 : std::memcmp(ref.data() + 16 * a, pt.data(), len))
                << what << " round trip";
          }
          RunShortThreeWays(f, kgk.get(), nonce.data(), aad, ct, true, t_in,
                            ref, t_ref, what + " open " + std::to_string(bad));
        }
      }
    }
  }
}

TEST_P(SivFusedHook, PolyvalRunsMatchesPolyvalOnEachRun) {
  const fused_impl *f = GetParam();
  if (f->siv_polyval_runs == nullptr) {
    GTEST_SKIP() << f->name << " has no siv_polyval_runs";
  }
  ASSERT_NE(nullptr, f->siv_polyval) << f->name;
  std::mt19937_64 rng(7);
  const Bytes h = GhashKeyFor(RandomBytes(rng, 16));
  GKey full;
  f->ghash->init(full.get(), h.data());
  // Run lengths around the groups of sixteen and the tails' two widths,
  // the AAD's runs short (as a message's are), and some at random.
  std::vector<std::vector<size_t>> cases;
  for (size_t a : {0, 1, 2, 17}) {
    for (size_t b : {0, 1}) {
      for (size_t c : {0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 84, 100}) {
        for (size_t d : {0, 1, 2}) cases.push_back({a, b, c, d});
      }
    }
  }
  for (int i = 0; i < 200; i++) {
    auto below = [&rng](size_t n) { return static_cast<size_t>(rng() % n); };
    cases.push_back({below(40), below(2), below(70), 1 + below(2)});
  }
  for (const std::vector<size_t> &c : cases) {
    const size_t total = c[0] + c[1] + c[2] + c[3];
    GKey part;
    if (f->siv_hash_init != nullptr) {
      f->siv_hash_init(part.get(), h.data(), total == 0 ? 1 : total);
    } else {
      part = full;
    }
    std::vector<Bytes> bufs;
    siv_polyval_runs r;
    for (size_t j = 0; j < 4; j++) {
      bufs.push_back(RandomBytes(rng, 16 * c[j] + 3));
    }
    for (size_t j = 0; j < 4; j++) {
      r.in[j] = c[j] == 0 ? nullptr : bufs[j].data() + 3;
      r.blocks[j] = c[j];
    }
    Bytes want = RandomBytes(rng, 16), got = want;
    for (size_t j = 0; j < 4; j++) {
      if (c[j] > 0) {
        f->ghash->polyval_update(want.data(), full.get(), r.in[j], c[j]);
      }
    }
    f->siv_polyval_runs(got.data(), part.get(), &r);
    ASSERT_EQ(want, got) << f->name << " runs " << c[0] << " " << c[1] << " "
                         << c[2] << " " << c[3];
  }
}

TEST_P(SivFusedHook, KeysHashMatchesTheDerivationAndInitFor) {
  const fused_impl *f = GetParam();
  if (f->siv_keys_hash == nullptr) {
    GTEST_SKIP() << f->name << " has no siv_keys_hash";
  }
  ASSERT_NE(nullptr, f->ghash->init_for) << f->name;
  std::mt19937_64 rng(12);
  for (size_t key_len : {16, 32}) {
    Sched kgk;
    f->aes->set_encrypt_key(kgk.get(), RandomBytes(rng, key_len).data(), key_len);
    for (size_t max : {1, 2, 4, 5, 8, 9, 15, 16, 17, 87, 1000}) {
      const Bytes nonce = RandomBytes(rng, 12);
      Bytes auth, enc;
      DeriveRef(f->aes, kgk.get(), key_len, nonce.data(), &auth, &enc);
      Sched want_enc, got_enc;
      GKey want_hash, got_hash;
      std::memset(&want_enc, 0x5a, sizeof(want_enc));
      std::memset(&got_enc, 0x5a, sizeof(got_enc));
      std::memset(&want_hash, 0x5a, sizeof(want_hash));
      std::memset(&got_hash, 0x5a, sizeof(got_hash));
      f->aes->set_encrypt_key(want_enc.get(), enc.data(), key_len);
      f->ghash->init_for(want_hash.get(), GhashKeyFor(auth).data(), max);
      f->siv_keys_hash(kgk.get(), nonce.data(), got_hash.get(), got_enc.get(), max);
      const std::string what = std::string(f->name) + " key " +
                               std::to_string(key_len) + " max " +
                               std::to_string(max);
      ASSERT_EQ(0, std::memcmp(&want_enc, &got_enc, sizeof(want_enc))) << what << " K_enc";
      ASSERT_EQ(0, std::memcmp(&want_hash, &got_hash, sizeof(want_hash))) << what << " hash key";
    }
  }
}

TEST_P(SivFusedHook, TagCtrMatchesEncryptBlockAndCtr32le) {
  const fused_impl *f = GetParam();
  if (f->siv_tag_ctr32le == nullptr) {
    GTEST_SKIP() << f->name << " has no siv_tag_ctr32le";
  }
  std::mt19937_64 rng(11);
  std::vector<size_t> lengths = RunLengths();
  lengths.insert(lengths.begin(), 0);
  for (size_t key_len : {16, 32}) {
    Sched s;
    f->aes->set_encrypt_key(s.get(), RandomBytes(rng, key_len).data(), key_len);
    for (size_t blocks : lengths) {
      for (int variant = 0; variant < 4; variant++) {
        const bool inplace = variant & 1, with_last = variant & 2;
        const size_t n = 16 * blocks, align = inplace ? 0 : 5;
        Bytes block = RandomBytes(rng, 16);
        block[15] &= 0x7f;
        // The counter wraps inside the run (or at the last block) at a
        // different place each time.
        const uint32_t start = 0u - static_cast<uint32_t>(blocks % 21);
        store_le32(block.data(), start);
        Bytes want_tag(16), cb(16);
        f->aes->encrypt_block(s.get(), want_tag.data(), block.data());
        cb = want_tag;
        cb[15] |= 0x80;
        const Bytes in = RandomBytes(rng, n), last_in = RandomBytes(rng, 16);
        Bytes want(n + 16);
        if (blocks > 0) {
          f->aes->ctr32le(s.get(), want.data(), in.data(), blocks, cb.data());
        }
        Bytes cb_last = cb;
        store_le32(cb_last.data(), load_le32(cb.data()) + static_cast<uint32_t>(blocks));
        f->aes->ctr32le(s.get(), want.data() + n, last_in.data(), 1, cb_last.data());
        const std::string what = std::string(f->name) + " key " +
                                 std::to_string(key_len) + " blocks " +
                                 std::to_string(blocks) +
                                 (inplace ? " in place" : "") +
                                 (with_last ? " with last" : "");
        Bytes ibuf(n + 32, 0x11), obuf(n + 32, 0x22), last(48, 0x33);
        if (n > 0) std::memcpy(ibuf.data() + align, in.data(), n);
        std::memcpy(last.data() + 16, last_in.data(), 16);
        uint8_t *dst = inplace ? ibuf.data() + align : obuf.data() + align;
        // The hook's input: S, then N || 0^32, whose XOR is `block`.
        Bytes tag = RandomBytes(rng, 32);
        std::memset(tag.data() + 28, 0, 4);
        for (size_t j = 0; j < 16; j++) tag[j] = block[j] ^ tag[16 + j];
        if (rng() & 1) tag[15] ^= 0x80;  // the hook clears that bit
        f->siv_tag_ctr32le(s.get(), tag.data(), dst, ibuf.data() + align, blocks,
                           with_last ? last.data() + 16 : nullptr);
        ASSERT_EQ(want_tag, Bytes(tag.begin(), tag.begin() + 16)) << what << " tag";
        ASSERT_EQ(0, std::memcmp(dst, want.data(), n)) << what;
        const uint8_t fill = inplace ? 0x11 : 0x22;
        for (size_t j = align + n; j < n + 32; j++) {
          ASSERT_EQ(fill, (inplace ? ibuf : obuf)[j]) << what << " wrote past";
        }
        for (size_t j = 0; j < 48; j++) {
          if (j >= 16 && j < 32) {
            ASSERT_EQ(with_last ? want[n + j - 16] : last_in[j - 16], last[j])
                << what << " last block";
          } else {
            ASSERT_EQ(0x33, last[j]) << what << " wrote around the last block";
          }
        }
      }
    }
  }
}

TEST_P(SivFusedHook, OpenEndMatchesOpenPolyvalAndEncryptBlock) {
  const fused_impl *f = GetParam();
  if (f->siv_open_end == nullptr) {
    GTEST_SKIP() << f->name << " has no siv_open_end";
  }
  std::mt19937_64 rng(12);
  for (size_t key_len : {16, 32}) {
    Sched s;
    GKey g;
    f->aes->set_encrypt_key(s.get(), RandomBytes(rng, key_len).data(), key_len);
    f->ghash->init(g.get(), GhashKeyFor(RandomBytes(rng, 16)).data());
    const fused_keys keys = {f->aes, s.get(), f->ghash, g.get(), nullptr};
    for (size_t blocks : RunLengths()) {
      for (int variant = 0; variant < 8; variant++) {
        const bool inplace = variant & 1, partial = variant & 2,
                   aad_partial = variant & 4;
        const size_t n = 16 * blocks, align = inplace ? 0 : 3;
        const size_t dr = 1 + blocks % 15;  // the partial block's bytes
        Bytes ctr = RandomBytes(rng, 16);
        store_le32(ctr.data(), 0u - static_cast<uint32_t>(blocks % 23));
        siv_open_end e;
        const Bytes s0 = RandomBytes(rng, 16), in = RandomBytes(rng, n);
        std::memcpy(e.s, s0.data(), 16);
        std::memcpy(e.nonce, RandomBytes(rng, 16).data(), 16);
        std::memset(e.nonce + 12, 0, 4);
        Bytes cb_last = ctr;
        store_le32(cb_last.data(), load_le32(ctr.data()) + static_cast<uint32_t>(blocks));
        std::memcpy(e.ctr, cb_last.data(), 16);
        for (size_t j = 0; j < 16; j++) e.mask[j] = j < dr ? 0xff : 0;
        std::memcpy(e.last, RandomBytes(rng, 16).data(), 16);
        std::memset(e.last + dr, 0, 16 - dr);
        std::memcpy(e.lengths, RandomBytes(rng, 16).data(), 16);
        std::memcpy(e.aad, RandomBytes(rng, 16).data(), 16);
        e.partial = partial;
        e.aad_partial = aad_partial;
        const siv_open_end e0 = e;
        // The reference: the pair's hooks, step by step.
        Bytes want_s = s0, want(n), want_last(16);
        if (aad_partial) f->ghash->polyval_update(want_s.data(), g.get(), e.aad, 1);
        f->aes->ctr32le(s.get(), want.data(), in.data(), blocks, ctr.data());
        f->ghash->polyval_update(want_s.data(), g.get(), want.data(), blocks);
        if (partial) {
          f->aes->ctr32le(s.get(), want_last.data(), e.last, 1, cb_last.data());
          for (size_t j = dr; j < 16; j++) want_last[j] = 0;
          f->ghash->polyval_update(want_s.data(), g.get(), want_last.data(), 1);
        }
        f->ghash->polyval_update(want_s.data(), g.get(), e.lengths, 1);
        uint8_t block[16], want_tag[16];
        for (size_t j = 0; j < 16; j++) block[j] = want_s[j] ^ e.nonce[j];
        block[15] &= 0x7f;
        f->aes->encrypt_block(s.get(), want_tag, block);
        const std::string what = std::string(f->name) + " key " +
                                 std::to_string(key_len) + " blocks " +
                                 std::to_string(blocks) +
                                 (inplace ? " in place" : "") +
                                 (partial ? " partial" : "") +
                                 (aad_partial ? " aad partial" : "");
        Bytes ibuf(n + 32, 0x11), obuf(n + 32, 0x22);
        std::memcpy(ibuf.data() + align, in.data(), n);
        uint8_t *dst = inplace ? ibuf.data() + align : obuf.data() + align;
        f->siv_open_end(&keys, dst, ibuf.data() + align, blocks, ctr.data(), &e);
        ASSERT_EQ(0, std::memcmp(dst, want.data(), n)) << what;
        ASSERT_EQ(0, std::memcmp(e.s, want_tag, 16)) << what << " tag";
        ASSERT_EQ(0, std::memcmp(e.last, partial ? want_last.data() : e0.last, 16))
            << what << " last block";
        ASSERT_EQ(0, std::memcmp(&e.nonce, &e0.nonce, 48)) << what << " changed its input";
        ASSERT_EQ(0, std::memcmp(&e.lengths, &e0.lengths, 32)) << what << " changed its input";
        const uint8_t fill = inplace ? 0x11 : 0x22;
        for (size_t j = align + n; j < n + 32; j++) {
          ASSERT_EQ(fill, (inplace ? ibuf : obuf)[j]) << what << " wrote past";
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllUsable, SivFusedHook,
                         ::testing::ValuesIn(UsableSivFused()),
                         [](const ::testing::TestParamInfo<const fused_impl *> &i) {
                           return std::string(i.param->name);
                         });

}  // namespace
