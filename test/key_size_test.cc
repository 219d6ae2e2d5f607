// test/key_size_test.cc: keys in memory of their own size
// (gcm_key_size_for, gcm_key_init_sized; for AES-GCM-SIV
// gcm_siv_key_size_for, gcm_siv_key_init_sized), over every usable (AES,
// GHASH, fused) choice.
//
// What a reported size must mean, and how each part is held to it:
//   - enough: the key is initialised in exactly that many bytes, with guard
//     bytes before and after them, at every placement remainder modulo 16;
//     seal, open, streaming, a memcpy copy and cleanup never touch a guard,
//     and give what a key in a whole gcm_key gives. One byte less is
//     refused (GCM_ERR_OUTPUT_TOO_SMALL) without a write past it.
//   - no more than needed: with the memory 16-byte aligned (the placement
//     that takes the most), the key's bytes reach into the last 16 of the
//     reported size. A size 16 bytes too large fails this; 16 too small
//     fails the guards or the init.
//   - reads stay inside: the key's last byte is the last readable byte
//     before an inaccessible page, and every operation runs (a read past
//     the key faults). The same for each backend's own region: an AES
//     schedule or GHASH key of exactly key_bytes at a page's end.
//   - cleanup wipes exactly the key's bytes: all of them zero afterwards,
//     the guards untouched.
// The AES-GCM-SIV keys are held to the same, at the end of this file.
// Every vector file also runs through keys from gcm_key_init_sized and
// gcm_siv_key_init_sized (test/vectors_test.cc).
#include <gcm/gcm.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "key_rooms.h"
#include "test_util.h"

extern "C" {
#include "../crypto/dispatch/dispatch.h"
}

namespace {

using gcmtest::Triple;
using Bytes = std::vector<uint8_t>;

constexpr uint8_t kGuardByte = 0xc5;
constexpr size_t kGuard = 64;

const char *Name(const std::string &s) { return s.c_str(); }

size_t SizeFor(const Triple &t) {
  return gcm_key_size_for(Name(t.aes), Name(t.ghash), Name(t.fused));
}

// Memory for one key: kGuard guard bytes, `offset` more (so the key's
// memory starts at any remainder modulo 16), `size` bytes for the key,
// kGuard guard bytes; the buffer itself 64-byte aligned.
class KeyMemory {
 public:
  KeyMemory(size_t size, size_t offset)
      : size_(size), buf_(kGuard + offset + size + kGuard + 64, kGuardByte) {
    uintptr_t p = reinterpret_cast<uintptr_t>(buf_.data());
    start_ = static_cast<size_t>((64 - (p & 63)) & 63) + kGuard + offset;
  }
  gcm_key *key() { return reinterpret_cast<gcm_key *>(buf_.data() + start_); }
  const uint8_t *bytes() const { return buf_.data() + start_; }
  size_t size() const { return size_; }
  // "" when every byte outside the key's memory is still a guard byte.
  std::string GuardsIntact() const {
    for (size_t i = 0; i < start_; i++)
      if (buf_[i] != kGuardByte)
        return "wrote " + std::to_string(start_ - i) + " bytes before the key";
    for (size_t i = start_ + size_; i < buf_.size(); i++)
      if (buf_[i] != kGuardByte)
        return "wrote at byte " + std::to_string(i - start_) +
               " of a key of " + std::to_string(size_);
    return "";
  }
  bool AllZero() const {
    for (size_t i = 0; i < size_; i++)
      if (bytes()[i] != 0) return false;
    return true;
  }

 private:
  size_t size_;
  Bytes buf_;
  size_t start_ = 0;
};

// A region of `size` bytes that ends where an inaccessible page begins:
// reading or writing one byte past it faults. Its start is 16-byte aligned
// when size is a multiple of 16.
class PageEnd {
 public:
  explicit PageEnd(size_t size) : size_(size) {
#if defined(_WIN32)
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    page_ = si.dwPageSize;
#else
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
#endif
    span_ = (size + page_ - 1) / page_ * page_ + page_;
#if defined(_WIN32)
    base_ = static_cast<uint8_t *>(
        VirtualAlloc(nullptr, span_, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE));
    DWORD old;
    ok_ = base_ != nullptr &&
          VirtualProtect(base_ + span_ - page_, page_, PAGE_NOACCESS, &old);
#else
    void *p = mmap(nullptr, span_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    base_ = p == MAP_FAILED ? nullptr : static_cast<uint8_t *>(p);
    ok_ = base_ != nullptr &&
          mprotect(base_ + span_ - page_, page_, PROT_NONE) == 0;
#endif
  }
  ~PageEnd() {
#if defined(_WIN32)
    if (base_ != nullptr) VirtualFree(base_, 0, MEM_RELEASE);
#else
    if (base_ != nullptr) munmap(base_, span_);
#endif
  }
  PageEnd(const PageEnd &) = delete;
  PageEnd &operator=(const PageEnd &) = delete;
  bool ok() const { return ok_; }
  uint8_t *data() { return base_ + span_ - page_ - size_; }

 private:
  size_t size_, page_ = 0, span_ = 0;
  uint8_t *base_ = nullptr;
  bool ok_ = false;
};

// What a message under a key gives: ciphertext, tag, and the plaintext
// opened back; streamed in `chunk`-byte pieces when chunk > 0.
struct Result {
  Bytes ct, tag, pt;
  bool operator==(const Result &o) const {
    return ct == o.ct && tag == o.tag && pt == o.pt;
  }
};

Result RunMessage(const gcm_key *k, const Bytes &msg, size_t chunk) {
  static const uint8_t nonce[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  static const uint8_t aad[13] = {'k', 'e', 'y', ' ', 's', 'i', 'z', 'e'};
  Result r;
  r.ct.assign(msg.size() + 1, 0);
  r.pt.assign(msg.size() + 1, 0);
  r.tag.assign(16, 0);
  if (chunk == 0) {
    if (!gcm_seal(k, r.ct.data(), r.tag.data(), 16, nonce, 12, msg.data(),
                  msg.size(), aad, sizeof(aad)) ||
        !gcm_open(k, r.pt.data(), nonce, 12, r.ct.data(), msg.size(),
                  r.tag.data(), 16, aad, sizeof(aad)))
      r.tag.clear();
    return r;
  }
  gcm_stream s;
  bool ok = gcm_stream_init(&s, k, GCM_ENCRYPT, nonce, 12) &&
            gcm_stream_aad(&s, aad, sizeof(aad));
  for (size_t i = 0; ok && i < msg.size(); i += chunk) {
    size_t n = msg.size() - i < chunk ? msg.size() - i : chunk;
    ok = gcm_stream_update(&s, r.ct.data() + i, msg.data() + i, n);
  }
  ok = ok && gcm_stream_finish_seal(&s, r.tag.data(), 16);
  ok = ok && gcm_stream_init(&s, k, GCM_DECRYPT, nonce, 12) &&
       gcm_stream_aad(&s, aad, sizeof(aad));
  for (size_t i = 0; ok && i < msg.size(); i += chunk) {
    size_t n = msg.size() - i < chunk ? msg.size() - i : chunk;
    ok = gcm_stream_update(&s, r.pt.data() + i, r.ct.data() + i, n);
  }
  ok = ok && gcm_stream_finish_open(&s, r.tag.data(), 16);
  gcm_stream_cleanup(&s);
  if (!ok) r.tag.clear();
  return r;
}

// Message lengths that take every path: the short one-shot path, the
// fused one-shot path, the stream with and without a fused kernel, with
// partial blocks at both ends.
const size_t kLengths[] = {0, 1, 16, 31, 160, 255, 256, 257, 1000, 4099};
const size_t kChunks[] = {0, 7, 256, 1000};

const uint8_t kKey[32] = {0x8a, 0x15, 0x33, 0xd2, 0x71, 0x0e, 0x9c, 0x44,
                          0x2b, 0xf6, 0x60, 0x18, 0xa9, 0x3d, 0xc7, 0x52,
                          0x05, 0xee, 0x4f, 0x91, 0x7a, 0x23, 0xb8, 0xd6,
                          0x1c, 0x6b, 0xf0, 0x39, 0x84, 0x5e, 0xa2, 0x47};

class KeySize : public ::testing::TestWithParam<Triple> {
 protected:
  const Triple &t() const { return GetParam(); }

  // The results of every length and chunking under a key in a whole
  // gcm_key: what a sized key must give.
  std::vector<Result> Reference(size_t key_len) const {
    gcm_key ref;
    EXPECT_TRUE(gcm_key_init_with_fused(&ref, kKey, key_len, Name(t().aes),
                                        Name(t().ghash), Name(t().fused)))
        << gcm_last_error_message();
    std::vector<Result> out;
    for (size_t len : kLengths) {
      Bytes msg(len);
      for (size_t i = 0; i < len; i++) msg[i] = static_cast<uint8_t>(i * 7 + len);
      for (size_t chunk : kChunks) out.push_back(RunMessage(&ref, msg, chunk));
    }
    gcm_key_cleanup(&ref);
    return out;
  }

  // Every length and chunking under k, against `want`; "" or the first
  // difference.
  static std::string Compare(const gcm_key *k, const std::vector<Result> &want) {
    size_t i = 0;
    for (size_t len : kLengths) {
      Bytes msg(len);
      for (size_t j = 0; j < len; j++) msg[j] = static_cast<uint8_t>(j * 7 + len);
      for (size_t chunk : kChunks) {
        Result r = RunMessage(k, msg, chunk);
        if (r.tag.empty())
          return "a call failed at length " + std::to_string(len) + ": " +
                 gcm_last_error_message();
        if (!(r == want[i]))
          return "different result at length " + std::to_string(len) +
                 ", chunk " + std::to_string(chunk);
        i++;
      }
    }
    return "";
  }
};

TEST_P(KeySize, SizeIsEnoughAtEveryPlacement) {
  const size_t size = SizeFor(t());
  ASSERT_NE(size, 0u) << gcm_last_error_message();
  EXPECT_LE(size, sizeof(gcm_key));
  const std::vector<Result> want = Reference(16);
  // Every remainder modulo 16 for the default choice, four for the others.
  std::vector<size_t> offsets = {0, 1, 8, 15};
  const char *da = nullptr, *dg = nullptr, *df = nullptr;
  if (gcm_default_backends(&da, &dg) && gcm_default_fused_backend(&df) &&
      t().aes == da && t().ghash == dg && t().fused == df) {
    offsets.clear();
    for (size_t o = 0; o < 16; o++) offsets.push_back(o);
  }
  for (size_t off : offsets) {
    SCOPED_TRACE("placement remainder " + std::to_string(off));
    KeyMemory m(size, off);
    ASSERT_EQ(1, gcm_key_init_sized(m.key(), size, kKey, 16, Name(t().aes),
                                    Name(t().ghash), Name(t().fused)))
        << gcm_last_error_message();
    EXPECT_STREQ(gcm_key_aes_backend(m.key()), Name(t().aes));
    EXPECT_STREQ(gcm_key_ghash_backend(m.key()), Name(t().ghash));
    EXPECT_STREQ(gcm_key_fused_backend(m.key()), Name(t().fused));
    EXPECT_EQ(gcm_key_length(m.key()), 16u);
    EXPECT_EQ("", m.GuardsIntact()) << "after init";
    EXPECT_EQ("", Compare(m.key(), want));
    EXPECT_EQ("", m.GuardsIntact()) << "after seal, open and streams";

    // A memcpy copy in memory of the same size at another remainder (the
    // calls lend it an aligned copy of exactly its bytes).
    KeyMemory copy(size, (off + 5) % 16);
    std::memcpy(copy.key(), m.key(), size);
    EXPECT_EQ("", Compare(copy.key(), want)) << "the copy";
    EXPECT_EQ("", copy.GuardsIntact()) << "the copy";
    gcm_key_cleanup(copy.key());
    EXPECT_TRUE(copy.AllZero()) << "cleanup of the copy left key bytes";
    EXPECT_EQ("", copy.GuardsIntact()) << "cleanup of the copy";

    gcm_key_cleanup(m.key());
    EXPECT_TRUE(m.AllZero()) << "cleanup left key bytes";
    EXPECT_EQ("", m.GuardsIntact()) << "after cleanup";
    EXPECT_EQ(gcm_key_aes_backend(m.key()), nullptr) << "still a key";
    gcm_key_cleanup(m.key());  // a cleaned key again: nothing to do
    EXPECT_EQ("", m.GuardsIntact()) << "after a second cleanup";
  }
}

TEST_P(KeySize, EveryKeyLength) {
  const size_t size = SizeFor(t());
  for (size_t key_len : {16, 24, 32}) {
    SCOPED_TRACE("key length " + std::to_string(key_len));
    const std::vector<Result> want = Reference(key_len);
    KeyMemory m(size, 3);
    ASSERT_EQ(1, gcm_key_init_sized(m.key(), size, kKey, key_len,
                                    Name(t().aes), Name(t().ghash),
                                    Name(t().fused)))
        << gcm_last_error_message();
    EXPECT_EQ("", Compare(m.key(), want));
    gcm_key_cleanup(m.key());
    EXPECT_TRUE(m.AllZero());
    EXPECT_EQ("", m.GuardsIntact());
  }
}

TEST_P(KeySize, OneByteShortIsRefused) {
  const size_t size = SizeFor(t());
  for (size_t off : {0, 7}) {
    KeyMemory m(size - 1, off);
    EXPECT_EQ(0, gcm_key_init_sized(m.key(), size - 1, kKey, 16, Name(t().aes),
                                    Name(t().ghash), Name(t().fused)));
    EXPECT_EQ(gcm_last_error(), GCM_ERR_OUTPUT_TOO_SMALL);
    const std::string msg = gcm_last_error_message();
    EXPECT_NE(msg.find(std::to_string(size)), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(size - 1)), std::string::npos) << msg;
    EXPECT_TRUE(m.AllZero()) << "a refused init leaves its memory zeroed";
    EXPECT_EQ("", m.GuardsIntact());
    EXPECT_EQ(gcm_key_aes_backend(m.key()), nullptr);
    uint8_t tag[16];
    EXPECT_EQ(0, gcm_seal(m.key(), nullptr, tag, 16, kKey, 12, nullptr, 0,
                          nullptr, 0));
    EXPECT_EQ(gcm_last_error(), GCM_ERR_NOT_INITIALIZED);
  }
}

// Not one of the reported bytes is spare: at the placement that uses the
// most of them (16-byte aligned memory puts the key 16 bytes in), the key
// reaches into the last 16. Key material there is random-looking, so it is
// all zero only if the size is too large.
TEST_P(KeySize, NoSpareBytes) {
  const size_t size = SizeFor(t());
  KeyMemory m(size, 0);
  ASSERT_EQ(0u, reinterpret_cast<uintptr_t>(m.bytes()) % 16);
  ASSERT_EQ(1, gcm_key_init_sized(m.key(), size, kKey, 32, Name(t().aes),
                                  Name(t().ghash), Name(t().fused)));
  bool used = false;
  for (size_t i = size - 16; i < size; i++) used = used || m.bytes()[i] != 0;
  EXPECT_TRUE(used) << "the last 16 of " << size << " bytes are unused";
  gcm_key_cleanup(m.key());
}

// The key's last byte right before an inaccessible page: nothing reads
// past it.
TEST_P(KeySize, NothingReadsPastTheKey) {
  const size_t size = SizeFor(t());
  const std::vector<Result> want = Reference(32);
  PageEnd mem(size);
  ASSERT_TRUE(mem.ok()) << "no guard page";
  gcm_key *k = reinterpret_cast<gcm_key *>(mem.data());
  ASSERT_EQ(1, gcm_key_init_sized(k, size, kKey, 32, Name(t().aes),
                                  Name(t().ghash), Name(t().fused)));
  EXPECT_EQ("", Compare(k, want));
  gcm_key_cleanup(k);
}

// The whole gcm_key: cleanup wipes the key's bytes, init all of it.
TEST(KeyCleanupExtent, FixedKeyIsWipedWhole) {
  gcm_key k;
  std::memset(&k, 0x77, sizeof(k));
  ASSERT_EQ(1, gcm_key_init(&k, kKey, 16));
  const uint8_t *b = reinterpret_cast<const uint8_t *>(&k);
  gcm_key_cleanup(&k);
  for (size_t i = 0; i < sizeof(k); i++) ASSERT_EQ(b[i], 0) << "byte " << i;
}

// The size query chooses as the inits do, and refuses what they refuse.
TEST(KeySizeQuery, DefaultsAndErrors) {
  const char *aes, *ghash, *fused;
  ASSERT_EQ(1, gcm_default_backends(&aes, &ghash));
  ASSERT_EQ(1, gcm_default_fused_backend(&fused));
  const size_t def = gcm_key_size_for(nullptr, nullptr, nullptr);
  EXPECT_NE(def, 0u);
  EXPECT_EQ(def, gcm_key_size_for(aes, ghash, fused));
  EXPECT_EQ(def, gcm_key_size_for(aes, nullptr, nullptr));
  EXPECT_EQ(0u, gcm_key_size_for("no-such-aes", nullptr, nullptr));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_BACKEND_UNKNOWN);
  EXPECT_NE(std::string(gcm_last_error_message()).find("gcm_key_size_for"),
            std::string::npos);
  EXPECT_EQ(0u, gcm_key_size_for(nullptr, nullptr, "no-such-fused"));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_BACKEND_UNKNOWN);

  // A sized key on the defaults is what gcm_key_init makes.
  KeyMemory m(def, 9);
  ASSERT_EQ(1, gcm_key_init_sized(m.key(), def, kKey, 16, nullptr, nullptr,
                                  nullptr));
  EXPECT_STREQ(gcm_key_aes_backend(m.key()), aes);
  EXPECT_STREQ(gcm_key_ghash_backend(m.key()), ghash);
  EXPECT_STREQ(gcm_key_fused_backend(m.key()), fused);
  gcm_key_cleanup(m.key());

  // Bad arguments: nothing past `size` is written, `size` bytes are zeroed.
  KeyMemory bad(def, 2);
  EXPECT_EQ(0, gcm_key_init_sized(bad.key(), def, kKey, 17, nullptr, nullptr,
                                  nullptr));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_KEY_LENGTH);
  EXPECT_TRUE(bad.AllZero());
  EXPECT_EQ("", bad.GuardsIntact());
  EXPECT_EQ(0, gcm_key_init_sized(nullptr, def, kKey, 16, nullptr, nullptr,
                                  nullptr));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_NULL_POINTER);
  EXPECT_EQ(0, gcm_key_init_sized(bad.key(), 0, kKey, 16, nullptr, nullptr,
                                  nullptr));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_OUTPUT_TOO_SMALL);
  EXPECT_EQ("", bad.GuardsIntact());
}

// Each backend's key_bytes: a multiple of 16 within the largest that the
// fixed-size gcm_key reserves, and all that its hooks write and read. A
// region of exactly key_bytes ends at an inaccessible page; the backend is
// set up and run there, against a room-sized copy.
TEST(BackendKeyBytes, AesScheduleIsAllItUses) {
  for (size_t i = 0; gcmi_dispatch_aes_at(i) != nullptr; i++) {
    const aes_impl *a = gcmi_dispatch_aes_at(i);
    SCOPED_TRACE(a->name);
    EXPECT_EQ(a->key_bytes % 16, 0u);
    EXPECT_GE(a->key_bytes, unsigned{AES_SCHEDULE_ROUND_KEYS_BYTES});
    EXPECT_LE(a->key_bytes, unsigned{AES_SCHEDULE_MAX_BYTES});
    if (!a->usable()) continue;
    PageEnd mem(a->key_bytes);
    ASSERT_TRUE(mem.ok());
    aes_schedule *s = reinterpret_cast<aes_schedule *>(mem.data());
    AesKeyRoom room;
    for (size_t key_len : {16, 24, 32}) {
      a->set_encrypt_key(s, kKey, key_len);
      a->set_encrypt_key(room.get(), kKey, key_len);
      uint8_t ctr[16] = {0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xfe};
      Bytes in(16 * 37, 0x3c), out1(in.size()), out2(in.size());
      a->ctr32(s, out1.data(), in.data(), 37, ctr);
      a->ctr32(room.get(), out2.data(), in.data(), 37, ctr);
      EXPECT_EQ(out1, out2);
      uint8_t b1[16], b2[16];
      a->encrypt_block(s, b1, ctr);
      a->encrypt_block(room.get(), b2, ctr);
      EXPECT_EQ(0, std::memcmp(b1, b2, 16));
    }
  }
}

TEST(BackendKeyBytes, GhashKeyIsAllItUses) {
  const uint8_t H[16] = {0x66, 0xe9, 0x4b, 0xd4, 0xef, 0x8a, 0x2c, 0x3b,
                         0x88, 0x4c, 0xfa, 0x59, 0xca, 0x34, 0x2b, 0x2e};
  for (size_t i = 0; gcmi_dispatch_ghash_at(i) != nullptr; i++) {
    const ghash_impl *g = gcmi_dispatch_ghash_at(i);
    SCOPED_TRACE(g->name);
    EXPECT_EQ(g->key_bytes % 16, 0u);
    EXPECT_GT(g->key_bytes, 0u);
    EXPECT_LE(g->key_bytes, unsigned{GHASH_KEY_MAX_BYTES});
    if (!g->usable()) continue;
    PageEnd mem(g->key_bytes);
    ASSERT_TRUE(mem.ok());
    ghash_key *k = reinterpret_cast<ghash_key *>(mem.data());
    GhashKeyRoom room;
    g->init(k, H);
    g->init(room.get(), H);
    for (size_t blocks = 0; blocks <= 40; blocks++) {
      Bytes in(16 * blocks);
      for (size_t j = 0; j < in.size(); j++) in[j] = static_cast<uint8_t>(j + blocks);
      uint8_t x1[16] = {1}, x2[16] = {1};
      g->update(x1, k, in.data(), blocks);
      g->update(x2, room.get(), in.data(), blocks);
      ASSERT_EQ(0, std::memcmp(x1, x2, 16)) << blocks << " blocks";
    }
  }
}

// A fused kernel reads its pair's schedule and GHASH key within their
// key_bytes (and its own, if it keeps any): each at a page's end.
TEST(BackendKeyBytes, FusedKernelsReadNoMore) {
  for (size_t i = 0; gcmi_dispatch_fused_at(i) != nullptr; i++) {
    const fused_impl *f = gcmi_dispatch_fused_at(i);
    SCOPED_TRACE(f->name);
    EXPECT_EQ(f->key_bytes % 16, 0u);
    EXPECT_LE(f->key_bytes, unsigned{FUSED_KEY_MAX_BYTES});
    if (!f->usable() || f->aes == nullptr) continue;
    PageEnd amem(f->aes->key_bytes), gmem(f->ghash->key_bytes),
        fmem(f->key_bytes > 0 ? f->key_bytes : 16);
    ASSERT_TRUE(amem.ok() && gmem.ok() && fmem.ok());
    aes_schedule *s = reinterpret_cast<aes_schedule *>(amem.data());
    ghash_key *g = reinterpret_cast<ghash_key *>(gmem.data());
    fused_key *own = reinterpret_cast<fused_key *>(fmem.data());
    f->aes->set_encrypt_key(s, kKey, 32);
    uint8_t zero[16] = {0}, H[16];
    f->aes->encrypt_block(s, H, zero);
    f->ghash->init(g, H);
    if (f->init != nullptr) f->init(own, s, g, H);
    const fused_keys keys = {f->aes, s, f->ghash, g, own};
    uint8_t ctr[16] = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0, 0, 0, 1};
    for (size_t blocks = 1; blocks <= 50; blocks++) {
      Bytes in(16 * blocks, 0x42), out(in.size()), back(in.size());
      uint8_t xs[16] = {0}, xo[16] = {0};
      f->seal(&keys, out.data(), in.data(), blocks, ctr, xs);
      f->open(&keys, back.data(), out.data(), blocks, ctr, xo);
      ASSERT_EQ(in, back) << blocks << " blocks";
      ASSERT_EQ(0, std::memcmp(xs, xo, 16)) << blocks << " blocks";
      if (f->seal_lagged != nullptr && blocks % f->lag_blocks == 0) {
        Bytes pending(16 * f->lag_blocks, 0x17), lout(in.size());
        uint8_t xl[16] = {0};
        const fused_lag lag = {xl, pending.data(), 1};
        f->seal_lagged(&keys, lout.data(), in.data(), blocks, ctr, &lag);
        ASSERT_EQ(out, lout) << blocks << " blocks";
      }
    }
  }
}

std::string TripleTestName(const testing::TestParamInfo<Triple> &info) {
  return gcmtest::TripleName(info.param);
}

INSTANTIATE_TEST_SUITE_P(AllUsable, KeySize,
                         testing::ValuesIn(gcmtest::UsableBackendTriples()),
                         TripleTestName);

// ---- AES-GCM-SIV keys -------------------------------------------------------
//
// A gcm_siv_key uses a 32-byte header and its AES backend's key_bytes,
// after its placement offset (crypto/siv/siv_mode.h), and
// gcm_siv_key_size_for reports that with the 16 bytes of slack: in memory
// of that size, at any placement, init, seal, open, a memcpy copy at
// another remainder and cleanup touch no byte past it, and cleanup leaves
// all of it zero.

size_t SivSizeFor(const Triple &t) {
  return gcm_siv_key_size_for(Name(t.aes), Name(t.ghash), Name(t.fused));
}

gcm_siv_key *SivKeyAt(uint8_t *p) { return reinterpret_cast<gcm_siv_key *>(p); }

// What one AES-GCM-SIV message gives: ciphertext and tag, and the
// plaintext opened back (the tag empty when a call failed).
Result RunSivMessage(const gcm_siv_key *k, const Bytes &msg) {
  static const uint8_t nonce[12] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2};
  Bytes aad(msg.size() / 3 + 1, 0x3c);
  Result r;
  r.ct.assign(msg.size() + 1, 0);
  r.pt.assign(msg.size() + 1, 0);
  r.tag.assign(16, 0);
  if (!gcm_siv_seal(k, r.ct.data(), r.tag.data(), 16, nonce, 12, msg.data(),
                    msg.size(), aad.data(), aad.size()) ||
      !gcm_siv_open(k, r.pt.data(), nonce, 12, r.ct.data(), msg.size(),
                    r.tag.data(), 16, aad.data(), aad.size()))
    r.tag.clear();
  return r;
}

// Lengths through every path of the mode: empty, partial blocks, the
// fused kernels' bulk loops and their tails.
const size_t kSivLengths[] = {0, 1, 16, 17, 64, 129, 300, 1000, 4099};

Bytes SivMessage(size_t len) {
  Bytes msg(len);
  for (size_t i = 0; i < len; i++) msg[i] = static_cast<uint8_t>(i * 7 + len);
  return msg;
}

// Every length under k, against `want` (from SivReference); "" or the
// first difference.
std::string SivCompare(const gcm_siv_key *k, const std::vector<Result> &want) {
  size_t i = 0;
  for (size_t len : kSivLengths) {
    Result r = RunSivMessage(k, SivMessage(len));
    if (r.tag.empty())
      return "a call failed at length " + std::to_string(len) + ": " +
             gcm_last_error_message();
    if (!(r == want[i]))
      return "different result at length " + std::to_string(len);
    i++;
  }
  return "";
}

// What a key on t in a whole gcm_siv_key gives: what a sized key must.
std::vector<Result> SivReference(const Triple &t, size_t key_len) {
  gcm_siv_key ref;
  EXPECT_TRUE(gcm_siv_key_init_with_fused(&ref, kKey, key_len, Name(t.aes),
                                          Name(t.ghash), Name(t.fused)))
      << gcm_last_error_message();
  std::vector<Result> out;
  for (size_t len : kSivLengths) out.push_back(RunSivMessage(&ref, SivMessage(len)));
  gcm_siv_key_cleanup(&ref);
  return out;
}

// One message of each length sealed and opened on k; "" or what failed.
std::string SivRoundTrips(const gcm_siv_key *k) {
  for (size_t n : kSivLengths) {
    const Bytes pt = SivMessage(n);
    Result r = RunSivMessage(k, pt);
    if (r.tag.empty()) return "a call failed at " + std::to_string(n);
    if (!std::equal(pt.begin(), pt.end(), r.pt.begin()))
      return "open gave other plaintext at " + std::to_string(n);
  }
  return "";
}

class SivKeySize : public testing::TestWithParam<Triple> {
 protected:
  const Triple &t() const { return GetParam(); }
};

// The size is the header and the AES schedule after the placement slack,
// whatever the fused kernel (none keeps anything of its own here).
TEST_P(SivKeySize, SizeIsHeaderAndSchedule) {
  const aes_impl *aes = gcmi_dispatch_find_aes(t().aes.c_str());
  ASSERT_NE(aes, nullptr);
  const size_t size = SivSizeFor(t());
  EXPECT_EQ(size, 16u + 32u + aes->key_bytes);
  EXPECT_LE(size, sizeof(gcm_siv_key));
}

TEST_P(SivKeySize, SizeIsEnoughAtEveryPlacement) {
  const size_t size = SivSizeFor(t());
  ASSERT_NE(size, 0u) << gcm_last_error_message();
  // Every remainder modulo 16 for the default choice, four for the others.
  std::vector<size_t> offsets = {0, 1, 8, 15};
  {
    gcm_siv_key def;
    ASSERT_EQ(1, gcm_siv_key_init(&def, kKey, 16)) << gcm_last_error_message();
    if (t().aes == gcm_siv_key_aes_backend(&def) &&
        t().ghash == gcm_siv_key_ghash_backend(&def) &&
        t().fused == gcm_siv_key_fused_backend(&def)) {
      offsets.clear();
      for (size_t o = 0; o < 16; o++) offsets.push_back(o);
    }
    gcm_siv_key_cleanup(&def);
  }
  for (size_t key_len : {16, 32}) {
    const std::vector<Result> want = SivReference(t(), key_len);
    for (size_t off : offsets) {
      SCOPED_TRACE("key length " + std::to_string(key_len) +
                   ", placement remainder " + std::to_string(off));
      KeyMemory m(size, off);
      gcm_siv_key *k = SivKeyAt(const_cast<uint8_t *>(m.bytes()));
      ASSERT_EQ(1, gcm_siv_key_init_sized(k, size, kKey, key_len,
                                          Name(t().aes), Name(t().ghash),
                                          Name(t().fused)))
          << gcm_last_error_message();
      EXPECT_STREQ(gcm_siv_key_aes_backend(k), Name(t().aes));
      EXPECT_STREQ(gcm_siv_key_ghash_backend(k), Name(t().ghash));
      EXPECT_STREQ(gcm_siv_key_fused_backend(k), Name(t().fused));
      EXPECT_EQ("", m.GuardsIntact()) << "after init";
      EXPECT_EQ("", SivCompare(k, want));
      EXPECT_EQ("", m.GuardsIntact()) << "after seal and open";

      // A memcpy copy in memory of the same size at another remainder
      // (the calls lend it an aligned copy of exactly its bytes).
      KeyMemory copy(size, (off + 5) % 16);
      gcm_siv_key *kc = SivKeyAt(const_cast<uint8_t *>(copy.bytes()));
      std::memcpy(kc, k, size);
      EXPECT_EQ("", SivCompare(kc, want)) << "the copy";
      EXPECT_STREQ(gcm_siv_key_aes_backend(kc), Name(t().aes)) << "the copy";
      EXPECT_STREQ(gcm_siv_key_fused_backend(kc), Name(t().fused))
          << "the copy";
      EXPECT_EQ("", copy.GuardsIntact()) << "the copy";
      gcm_siv_key_cleanup(kc);
      EXPECT_TRUE(copy.AllZero()) << "cleanup of the copy left key bytes";
      EXPECT_EQ("", copy.GuardsIntact()) << "cleanup of the copy";

      gcm_siv_key_cleanup(k);
      EXPECT_TRUE(m.AllZero()) << "cleanup left key bytes";
      EXPECT_EQ("", m.GuardsIntact()) << "after cleanup";
      EXPECT_EQ(gcm_siv_key_aes_backend(k), nullptr) << "still a key";
      gcm_siv_key_cleanup(k);  // a cleaned key again: nothing to do
      EXPECT_EQ("", m.GuardsIntact()) << "after a second cleanup";
    }
  }
}

TEST_P(SivKeySize, OneByteShortIsRefused) {
  const size_t size = SivSizeFor(t());
  for (size_t off : {0, 7}) {
    KeyMemory m(size - 1, off);
    gcm_siv_key *k = SivKeyAt(const_cast<uint8_t *>(m.bytes()));
    EXPECT_EQ(0, gcm_siv_key_init_sized(k, size - 1, kKey, 16, Name(t().aes),
                                        Name(t().ghash), Name(t().fused)));
    EXPECT_EQ(gcm_last_error(), GCM_ERR_OUTPUT_TOO_SMALL);
    const std::string msg = gcm_last_error_message();
    EXPECT_NE(msg.find(std::to_string(size)), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(size - 1)), std::string::npos) << msg;
    EXPECT_NE(msg.find("gcm_siv_key_init_sized"), std::string::npos) << msg;
    EXPECT_TRUE(m.AllZero()) << "a refused init leaves its memory zeroed";
    EXPECT_EQ("", m.GuardsIntact());
    EXPECT_EQ(gcm_siv_key_aes_backend(k), nullptr);
    uint8_t tag[16];
    EXPECT_EQ(0, gcm_siv_seal(k, nullptr, tag, 16, kKey, 12, nullptr, 0,
                              nullptr, 0));
    EXPECT_EQ(gcm_last_error(), GCM_ERR_NOT_INITIALIZED);
    gcm_siv_key_cleanup(k);
    EXPECT_EQ("", m.GuardsIntact()) << "cleanup of a refused key";
  }
}

// Not one of the reported bytes is spare: at the placement that uses the
// most of them (16-byte aligned memory puts the key 16 bytes in), the
// key's schedule reaches into the last 16.
TEST_P(SivKeySize, NoSpareBytes) {
  const size_t size = SivSizeFor(t());
  KeyMemory m(size, 0);
  ASSERT_EQ(0u, reinterpret_cast<uintptr_t>(m.bytes()) % 16);
  gcm_siv_key *k = SivKeyAt(const_cast<uint8_t *>(m.bytes()));
  ASSERT_EQ(1, gcm_siv_key_init_sized(k, size, kKey, 32, Name(t().aes),
                                      Name(t().ghash), Name(t().fused)));
  bool used = false;
  for (size_t i = size - 16; i < size; i++) used = used || m.bytes()[i] != 0;
  EXPECT_TRUE(used) << "the last 16 of " << size << " bytes are unused";
  gcm_siv_key_cleanup(k);
}

// The key's last byte right before an inaccessible page: nothing reads
// past it, in place or as a memcpy copy at another remainder (whose
// calls copy exactly the key's bytes out of it).
TEST_P(SivKeySize, NothingReadsPastTheKey) {
  const size_t size = SivSizeFor(t());
  for (size_t key_len : {16, 32}) {
    SCOPED_TRACE("key length " + std::to_string(key_len));
    const std::vector<Result> want = SivReference(t(), key_len);
    PageEnd mem(size);
    ASSERT_TRUE(mem.ok()) << "no guard page";
    gcm_siv_key *k = SivKeyAt(mem.data());
    ASSERT_EQ(1, gcm_siv_key_init_sized(k, size, kKey, key_len, Name(t().aes),
                                        Name(t().ghash), Name(t().fused)));
    EXPECT_EQ("", SivCompare(k, want));
    gcm_siv_key_cleanup(k);
    for (size_t i = 0; i < size; i++) ASSERT_EQ(mem.data()[i], 0) << i;

    // Set up at another remainder modulo 16, then copied to the page's end.
    const size_t here = reinterpret_cast<uintptr_t>(mem.data()) % 16;
    KeyMemory other(size, (here + 5) % 16);  // KeyMemory: 64-byte aligned
    ASSERT_NE(reinterpret_cast<uintptr_t>(other.bytes()) % 16, here);
    gcm_siv_key *ko = SivKeyAt(const_cast<uint8_t *>(other.bytes()));
    ASSERT_EQ(1, gcm_siv_key_init_sized(ko, size, kKey, key_len,
                                        Name(t().aes), Name(t().ghash),
                                        Name(t().fused)));
    std::memcpy(k, ko, size);
    gcm_siv_key_cleanup(ko);
    EXPECT_EQ("", SivCompare(k, want)) << "a copy at another remainder";
    EXPECT_STREQ(gcm_siv_key_ghash_backend(k), Name(t().ghash));
    gcm_siv_key_cleanup(k);
    for (size_t i = 0; i < size; i++) ASSERT_EQ(mem.data()[i], 0) << i;
  }
}

// A whole gcm_siv_key too: cleanup wipes the key's bytes and no more,
// in place or shifted (a memcpy copy keeps the original's placement byte:
// the moved path).
TEST_P(SivKeySize, WholeKeyStaysInItsBytes) {
  const aes_impl *aes = gcmi_dispatch_find_aes(t().aes.c_str());
  ASSERT_NE(aes, nullptr);
  for (size_t key_len : {16, 32}) {
    for (size_t shift : {0, 1, 8}) {
      alignas(64) uint8_t buf[sizeof(gcm_siv_key) + 64];
      std::memset(buf, kGuardByte, sizeof(buf));
      gcm_siv_key *k = reinterpret_cast<gcm_siv_key *>(buf);
      ASSERT_EQ(1, gcm_siv_key_init_with_fused(k, kKey, key_len, Name(t().aes),
                                               Name(t().ghash),
                                               Name(t().fused)));
      const size_t extent = buf[0] + 32 + aes->key_bytes;
      ASSERT_LE(extent, sizeof(gcm_siv_key));
      if (shift != 0) {
        std::memmove(buf + shift, buf, extent);
        std::memset(buf, kGuardByte, shift);
        k = reinterpret_cast<gcm_siv_key *>(buf + shift);
      }
      std::memset(buf + shift + extent, kGuardByte,
                  sizeof(buf) - shift - extent);
      EXPECT_EQ("", SivRoundTrips(k)) << key_len << " shift " << shift;
      EXPECT_STREQ(gcm_siv_key_aes_backend(k), aes->name);
      gcm_siv_key_cleanup(k);
      for (size_t i = 0; i < shift; i++) ASSERT_EQ(buf[i], kGuardByte) << i;
      for (size_t i = 0; i < extent; i++)
        ASSERT_EQ(buf[shift + i], 0) << "key byte " << i << " not wiped";
      for (size_t i = shift + extent; i < sizeof(buf); i++)
        ASSERT_EQ(buf[i], kGuardByte)
            << "byte " << i - shift << " past a key of " << extent;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllUsable, SivKeySize,
                         testing::ValuesIn(gcmtest::UsableSivTriples()),
                         TripleTestName);

// The size query chooses as gcm_siv_key_init_with_fused does, and refuses
// what it refuses, with the same error.
TEST(SivKeySizeQuery, ChoosesAsTheInitDoes) {
  gcm_siv_key def;
  ASSERT_EQ(1, gcm_siv_key_init(&def, kKey, 16)) << gcm_last_error_message();
  const std::string aes = gcm_siv_key_aes_backend(&def);
  const std::string ghash = gcm_siv_key_ghash_backend(&def);
  const std::string fused = gcm_siv_key_fused_backend(&def);
  gcm_siv_key_cleanup(&def);
  const size_t size = gcm_siv_key_size_for(nullptr, nullptr, nullptr);
  EXPECT_NE(size, 0u) << gcm_last_error_message();
  EXPECT_EQ(size, gcm_siv_key_size_for(aes.c_str(), ghash.c_str(),
                                       fused.c_str()));
  EXPECT_EQ(size, gcm_siv_key_size_for(aes.c_str(), nullptr, nullptr));

  // A sized key on the defaults is what gcm_siv_key_init makes.
  KeyMemory m(size, 9);
  gcm_siv_key *k = SivKeyAt(const_cast<uint8_t *>(m.bytes()));
  ASSERT_EQ(1, gcm_siv_key_init_sized(k, size, kKey, 16, nullptr, nullptr,
                                      nullptr));
  EXPECT_EQ(aes, gcm_siv_key_aes_backend(k));
  EXPECT_EQ(ghash, gcm_siv_key_ghash_backend(k));
  EXPECT_EQ(fused, gcm_siv_key_fused_backend(k));
  gcm_siv_key_cleanup(k);
  EXPECT_TRUE(m.AllZero());
  EXPECT_EQ("", m.GuardsIntact());

  // Every fused kernel named on its pair, and "none" on every usable
  // pair: the query answers exactly when the init succeeds, and fails
  // with the init's error (a kernel without AES-GCM-SIV functions is
  // refused by both).
  std::vector<Triple> choices;
  for (const auto &p : gcmtest::UsableBackendPairs())
    choices.push_back({p.first, p.second, "none"});
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    const char *fa = nullptr, *fg = nullptr;
    // A kernel for any backend of a kind (NULL) on the default's.
    if (gcm_backend_get(i, &info) && info.kind == GCM_BACKEND_FUSED &&
        gcm_fused_backend_pair(info.name, &fa, &fg))
      choices.push_back({fa != nullptr ? fa : aes, fg != nullptr ? fg : ghash,
                         info.name});
  }
  for (const Triple &t : choices) {
    SCOPED_TRACE(gcmtest::TripleName(t));
    gcm_siv_key whole;
    const int ok = gcm_siv_key_init_with_fused(&whole, kKey, 32, Name(t.aes),
                                               Name(t.ghash), Name(t.fused));
    const gcm_error init_err = gcm_last_error();
    gcm_siv_key_cleanup(&whole);
    const size_t n = SivSizeFor(t);
    if (ok) {
      EXPECT_NE(n, 0u) << gcm_last_error_message();
    } else {
      EXPECT_EQ(n, 0u);
      EXPECT_EQ(gcm_last_error(), init_err);
      EXPECT_NE(std::string(gcm_last_error_message())
                    .find("gcm_siv_key_size_for"),
                std::string::npos)
          << gcm_last_error_message();
    }
  }

  EXPECT_EQ(0u, gcm_siv_key_size_for("no-such-aes", nullptr, nullptr));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_BACKEND_UNKNOWN);
  EXPECT_NE(std::string(gcm_last_error_message()).find("gcm_siv_key_size_for"),
            std::string::npos);
  EXPECT_EQ(0u, gcm_siv_key_size_for(nullptr, "no-such-ghash", nullptr));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_BACKEND_UNKNOWN);
  EXPECT_EQ(0u, gcm_siv_key_size_for(nullptr, nullptr, "no-such-fused"));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_BACKEND_UNKNOWN);
}

// Bad arguments to the sized init: nothing past `size` is written, and the
// `size` bytes are zeroed.
TEST(SivKeySizeQuery, BadArguments) {
  const size_t size = gcm_siv_key_size_for(nullptr, nullptr, nullptr);
  ASSERT_NE(size, 0u);
  KeyMemory bad(size, 2);
  gcm_siv_key *k = SivKeyAt(const_cast<uint8_t *>(bad.bytes()));
  ASSERT_EQ(1, gcm_siv_key_init_sized(k, size, kKey, 16, nullptr, nullptr,
                                      nullptr));
  EXPECT_EQ(0, gcm_siv_key_init_sized(k, size, kKey, 24, nullptr, nullptr,
                                      nullptr));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_KEY_LENGTH);
  EXPECT_TRUE(bad.AllZero()) << "a failed init over a key left its bytes";
  EXPECT_EQ("", bad.GuardsIntact());
  EXPECT_EQ(0, gcm_siv_key_init_sized(k, size, nullptr, 16, nullptr, nullptr,
                                      nullptr));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_NULL_POINTER);
  EXPECT_EQ(0, gcm_siv_key_init_sized(nullptr, size, kKey, 16, nullptr,
                                      nullptr, nullptr));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_NULL_POINTER);
  EXPECT_EQ(0, gcm_siv_key_init_sized(k, size, kKey, 16, "no-such-aes",
                                      nullptr, nullptr));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_BACKEND_UNKNOWN);
  EXPECT_NE(std::string(gcm_last_error_message())
                .find("gcm_siv_key_init_sized"),
            std::string::npos);
  EXPECT_TRUE(bad.AllZero());
  EXPECT_EQ(0, gcm_siv_key_init_sized(k, 0, kKey, 16, nullptr, nullptr,
                                      nullptr));
  EXPECT_EQ(gcm_last_error(), GCM_ERR_OUTPUT_TOO_SMALL);
  EXPECT_EQ("", bad.GuardsIntact());
}

// The BoringSSL shim's AES-GCM-SIV contexts keep a key on the default
// backends in the bytes of a context (crypto/aead/compat.c) through the
// same calls: their size, with the key's last byte the last readable one.
TEST(SivKeySizeShim, NothingReadsPastTheKey) {
  const size_t size = gcm_siv_key_size_for(nullptr, nullptr, nullptr);
  ASSERT_GT(size, 0u);
  PageEnd mem(size);
  ASSERT_TRUE(mem.ok()) << "no guard page";
  gcm_siv_key *k = SivKeyAt(mem.data());
  EXPECT_EQ(0, gcm_siv_key_init_sized(k, size - 1, kKey, 32, nullptr, nullptr,
                                      nullptr));
  EXPECT_EQ(GCM_ERR_OUTPUT_TOO_SMALL, gcm_last_error());
  ASSERT_EQ(1, gcm_siv_key_init_sized(k, size, kKey, 32, nullptr, nullptr,
                                      nullptr));
  EXPECT_EQ("", SivRoundTrips(k));
  gcm_siv_key_cleanup(k);
  for (size_t i = 0; i < size; i++) ASSERT_EQ(mem.data()[i], 0) << i;
}

}  // namespace
