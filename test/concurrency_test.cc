// test/concurrency_test.cc: one key or context shared by many threads.
//
// A gcm_key is read-only after set-up, and so is a plain AES-GCM
// EVP_AEAD_CTX, so any number of threads may seal and open with one at
// once (include/gcm/gcm.h, include/gcm/compat/openssl/aead.h). Each test
// computes the expected results single-threaded first, then lets 8 threads
// released together redo them in different orders and compares. Under
// ThreadSanitizer (test/sanitizers.sh runs the `concurrency` label, which
// runs this suite) the same runs prove there is no data race.
//
// First use from many threads needs a fresh process: see test/first_use.c.
#include <openssl/aead.h>

#include <gcm/gcm.h>
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "test_util.h"

using gcmtest::Bytes;
using gcmtest::RandomBytes;

namespace {

constexpr int kThreads = 8;

// Starts `n` threads that all begin fn(thread index) at the same moment.
void RunTogether(int n, const std::function<void(int)> &fn) {
  std::mutex m;
  std::condition_variable cv;
  int waiting = 0;
  bool go = false;
  std::vector<std::thread> threads;
  for (int t = 0; t < n; t++) {
    threads.emplace_back([&, t] {
      {
        std::unique_lock<std::mutex> lock(m);
        if (++waiting == n) {
          go = true;
          cv.notify_all();
        }
        cv.wait(lock, [&] { return go; });
      }
      fn(t);
    });
  }
  for (auto &th : threads) th.join();
}

// One message and what sealing it must give.
struct Case {
  Bytes nonce, pt, aad, ct, tag;
};

// Messages of assorted lengths (empty, partial blocks, the bulk path,
// several batches) and nonce lengths (12 bytes and hashed ones).
std::vector<Case> MakeCases(std::mt19937_64 &rng, size_t count) {
  static const size_t kLens[] = {0, 1, 15, 16, 17, 63, 255, 256, 1000, 4097};
  std::vector<Case> cases(count);
  for (size_t i = 0; i < count; i++) {
    Case &c = cases[i];
    c.nonce = RandomBytes(rng, i % 5 == 4 ? 1 + rng() % 40 : 12);
    c.pt = RandomBytes(rng, kLens[i % (sizeof(kLens) / sizeof(kLens[0]))]);
    c.aad = RandomBytes(rng, rng() % 40);
  }
  return cases;
}

void SealAll(const gcm_key *k, std::vector<Case> *cases) {
  for (Case &c : *cases) {
    c.ct.resize(c.pt.size());
    c.tag.resize(16);
    ASSERT_EQ(1, gcm_seal(k, c.ct.data(), c.tag.data(), 16, c.nonce.data(),
                          c.nonce.size(), c.pt.data(), c.pt.size(),
                          c.aad.data(), c.aad.size()));
  }
}

class ConcurrencyPairTest
    : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

// Seal, open and streaming on one shared key, every usable backend pair.
TEST_P(ConcurrencyPairTest, SharedKeySealOpenStream) {
  std::mt19937_64 rng(0x5eed);
  Bytes raw = RandomBytes(rng, 32);
  gcm_key key;
  ASSERT_EQ(1, gcm_key_init_with_backends(&key, raw.data(), raw.size(),
                                          GetParam().first.c_str(),
                                          GetParam().second.c_str()));
  std::vector<Case> cases = MakeCases(rng, 30);
  SealAll(&key, &cases);

  std::atomic<int> failures{0};
  RunTogether(kThreads, [&](int t) {
    std::mt19937_64 local(t);
    for (int round = 0; round < 2; round++) {
      for (size_t j = 0; j < cases.size(); j++) {
        // Each thread walks the cases from its own starting point.
        const Case &c = cases[(j + 7 * t) % cases.size()];
        Bytes ct(c.pt.size()), pt(c.pt.size()), tag(16);
        bool ok = gcm_seal(&key, ct.data(), tag.data(), 16, c.nonce.data(),
                           c.nonce.size(), c.pt.data(), c.pt.size(),
                           c.aad.data(), c.aad.size()) == 1 &&
                  ct == c.ct && tag == c.tag;
        ok = ok && gcm_open(&key, pt.data(), c.nonce.data(), c.nonce.size(),
                            c.ct.data(), c.ct.size(), c.tag.data(), 16,
                            c.aad.data(), c.aad.size()) == 1 &&
             pt == c.pt;
        // A wrong tag fails on this thread, with this thread's error.
        Bytes bad = c.tag;
        bad[15] ^= 1;
        ok = ok && gcm_open(&key, pt.data(), c.nonce.data(), c.nonce.size(),
                            c.ct.data(), c.ct.size(), bad.data(), 16,
                            c.aad.data(), c.aad.size()) == 0 &&
             gcm_last_error() == GCM_ERR_AUTH;
        // Streaming in random pieces, each thread its own stream.
        gcm_stream s;
        size_t cut = c.pt.size() ? local() % (c.pt.size() + 1) : 0;
        ok = ok && gcm_stream_init(&s, &key, GCM_ENCRYPT, c.nonce.data(),
                                   c.nonce.size()) == 1 &&
             gcm_stream_aad(&s, c.aad.data(), c.aad.size()) == 1 &&
             gcm_stream_update(&s, ct.data(), c.pt.data(), cut) == 1 &&
             gcm_stream_update(&s, ct.data() + cut, c.pt.data() + cut,
                               c.pt.size() - cut) == 1 &&
             gcm_stream_finish_seal(&s, tag.data(), 16) == 1 && ct == c.ct &&
             tag == c.tag;
        gcm_stream_cleanup(&s);
        if (!ok) failures++;
      }
    }
  });
  EXPECT_EQ(0, failures.load());
  gcm_key_cleanup(&key);
}

INSTANTIATE_TEST_SUITE_P(
    Concurrency, ConcurrencyPairTest,
    ::testing::ValuesIn(gcmtest::UsableBackendPairs()),
    [](const ::testing::TestParamInfo<std::pair<std::string, std::string>> &i) {
      return gcmtest::PairName(i.param);
    });

// Errors are per thread: each thread fails in its own way at the same time
// and reads back its own code and message.
TEST(Concurrency, ErrorsArePerThread) {
  const uint8_t raw[16] = {1};
  gcm_key key;
  ASSERT_EQ(1, gcm_key_init(&key, raw, 16));
  std::atomic<int> failures{0};
  RunTogether(kThreads, [&](int t) {
    uint8_t buf[64] = {0}, tag[16] = {0};
    const uint8_t nonce[12] = {0};
    for (int i = 0; i < 200; i++) {
      gcm_error want;
      switch (t % 4) {
        case 0:
          gcm_seal(&key, buf, tag, 17, nonce, 12, buf, 4, nullptr, 0);
          want = GCM_ERR_TAG_LENGTH;
          break;
        case 1:
          gcm_seal(&key, buf, tag, 16, nonce, 0, buf, 4, nullptr, 0);
          want = GCM_ERR_NONCE_LENGTH;
          break;
        case 2:
          gcm_seal(&key, buf + 1, tag, 16, nonce, 12, buf, 8, nullptr, 0);
          want = GCM_ERR_OVERLAP;
          break;
        default: {
          gcm_key other;
          gcm_key_init(&other, raw, 15 + t);  // 18 or 22 bytes
          want = GCM_ERR_KEY_LENGTH;
          if (strstr(gcm_last_error_message(), t == 3 ? "18" : "22") ==
              nullptr) {
            failures++;
          }
          break;
        }
      }
      if (gcm_last_error() != want) failures++;
    }
  });
  EXPECT_EQ(0, failures.load());
  gcm_key_cleanup(&key);
}

// Keys set up concurrently, each thread its own key, give the same results
// as keys set up one after another.
TEST(Concurrency, ConcurrentKeySetup) {
  std::mt19937_64 rng(11);
  std::vector<Bytes> raws;
  for (int t = 0; t < kThreads; t++) raws.push_back(RandomBytes(rng, 16 + 8 * (t % 3)));
  Bytes nonce = RandomBytes(rng, 12), pt = RandomBytes(rng, 333);
  std::vector<Bytes> expect(kThreads);
  for (int t = 0; t < kThreads; t++) {
    gcm_key k;
    ASSERT_EQ(1, gcm_key_init(&k, raws[t].data(), raws[t].size()));
    expect[t].resize(pt.size() + 16);
    ASSERT_EQ(1, gcm_seal(&k, expect[t].data(), expect[t].data() + pt.size(),
                          16, nonce.data(), 12, pt.data(), pt.size(), nullptr,
                          0));
    gcm_key_cleanup(&k);
  }
  std::atomic<int> failures{0};
  RunTogether(kThreads, [&](int t) {
    for (int i = 0; i < 20; i++) {
      gcm_key k;
      Bytes out(pt.size() + 16);
      if (gcm_key_init(&k, raws[t].data(), raws[t].size()) != 1 ||
          gcm_seal(&k, out.data(), out.data() + pt.size(), 16, nonce.data(),
                   12, pt.data(), pt.size(), nullptr, 0) != 1 ||
          out != expect[t]) {
        failures++;
      }
      gcm_key_cleanup(&k);
    }
  });
  EXPECT_EQ(0, failures.load());
}

// One plain EVP_AEAD_CTX shared by 8 threads, through every seal and open
// form of the compat layer.
TEST(Concurrency, SharedAeadContext) {
  std::mt19937_64 rng(0xc0ffee);
  Bytes raw = RandomBytes(rng, 16);
  bssl::ScopedEVP_AEAD_CTX ctx;
  ASSERT_TRUE(EVP_AEAD_CTX_init(ctx.get(), EVP_aead_aes_128_gcm(), raw.data(),
                                raw.size(), EVP_AEAD_DEFAULT_TAG_LENGTH,
                                nullptr));
  gcm_key key;
  ASSERT_EQ(1, gcm_key_init(&key, raw.data(), raw.size()));
  std::vector<Case> cases = MakeCases(rng, 20);
  for (Case &c : cases) c.nonce.resize(12);  // the compat AEADs' size
  SealAll(&key, &cases);
  gcm_key_cleanup(&key);

  std::atomic<int> failures{0};
  RunTogether(kThreads, [&](int t) {
    for (size_t j = 0; j < cases.size(); j++) {
      const Case &c = cases[(j + 5 * t) % cases.size()];
      const size_t n = c.pt.size();
      Bytes sealed = c.ct;
      sealed.insert(sealed.end(), c.tag.begin(), c.tag.end());
      bool ok = true;
      // seal / open
      Bytes out(n + 16), pt(n);
      size_t len = 0;
      ok = ok && EVP_AEAD_CTX_seal(ctx.get(), out.data(), &len, out.size(),
                                   c.nonce.data(), 12, c.pt.data(), n,
                                   c.aad.data(), c.aad.size()) &&
           out == sealed;
      ok = ok && EVP_AEAD_CTX_open(ctx.get(), pt.data(), &len, pt.size(),
                                   c.nonce.data(), 12, sealed.data(),
                                   sealed.size(), c.aad.data(),
                                   c.aad.size()) &&
           pt == c.pt;
      // seal_scatter with the last few bytes as extra_in / open_gather
      const size_t extra = n < 5 ? n : 5;
      Bytes ct(n - extra), tagbuf(extra + 16);
      size_t tag_len = 0;
      ok = ok && EVP_AEAD_CTX_seal_scatter(
                     ctx.get(), ct.data(), tagbuf.data(), &tag_len,
                     tagbuf.size(), c.nonce.data(), 12, c.pt.data(),
                     n - extra, c.pt.data() + n - extra, extra, c.aad.data(),
                     c.aad.size()) &&
           tag_len == extra + 16 &&
           Bytes(ct.begin(), ct.end()) ==
               Bytes(c.ct.begin(), c.ct.begin() + (n - extra)) &&
           Bytes(tagbuf.begin() + extra, tagbuf.end()) == c.tag;
      ok = ok && EVP_AEAD_CTX_open_gather(ctx.get(), pt.data(),
                                          c.nonce.data(), 12, c.ct.data(), n,
                                          c.tag.data(), 16, c.aad.data(),
                                          c.aad.size()) &&
           pt == c.pt;
      // sealv / openv in three pieces, AAD in two
      const size_t a = n / 3, b = n / 2;
      Bytes vout(n);
      CRYPTO_IOVEC iov[3] = {{vout.data(), c.pt.data(), a},
                             {vout.data() + a, c.pt.data() + a, b - a},
                             {vout.data() + b, c.pt.data() + b, n - b}};
      const size_t ah = c.aad.size() / 2;
      CRYPTO_IVEC aadv[2] = {{c.aad.data(), ah},
                             {c.aad.data() + ah, c.aad.size() - ah}};
      uint8_t vtag[16];
      ok = ok && EVP_AEAD_CTX_sealv(ctx.get(), iov, 3, vtag, &tag_len, 16,
                                    c.nonce.data(), 12, aadv, 2) &&
           vout == c.ct && memcmp(vtag, c.tag.data(), 16) == 0;
      Bytes vpt(n + 16);
      CRYPTO_IOVEC back[2] = {{vpt.data(), sealed.data(), b},
                              {vpt.data() + b, sealed.data() + b, n + 16 - b}};
      size_t total = 0;
      ok = ok && EVP_AEAD_CTX_openv(ctx.get(), back, 2, &total,
                                    c.nonce.data(), 12, aadv, 2) &&
           total == n && Bytes(vpt.begin(), vpt.begin() + n) == c.pt;
      if (!ok) failures++;
    }
  });
  EXPECT_EQ(0, failures.load());
}

// A TLS 1.2 context: seals must be serialised by the caller (they advance
// the nonce counter), opens need no lock. Sealing threads take a lock and
// the next counter value while opening threads open concurrently, without
// the lock; every seal must succeed with strictly increasing nonces and
// match the plain AEAD's output.
TEST(Concurrency, TlsContextLockedSealsUnlockedOpens) {
  const uint8_t raw[16] = {9, 8, 7};
  bssl::ScopedEVP_AEAD_CTX tls, plain;
  ASSERT_TRUE(EVP_AEAD_CTX_init(tls.get(), EVP_aead_aes_128_gcm_tls12(), raw,
                                16, 0, nullptr));
  ASSERT_TRUE(EVP_AEAD_CTX_init(plain.get(), EVP_aead_aes_128_gcm(), raw, 16,
                                0, nullptr));
  const Bytes msg(77, 0x42);
  auto nonce_for = [](uint64_t counter) {
    Bytes n(12, 0xaa);
    for (int i = 0; i < 8; i++) n[4 + i] = static_cast<uint8_t>(counter >> (56 - 8 * i));
    return n;
  };
  // Records for opening, sealed up front with counters 0..99 by the plain
  // AEAD (the TLS one would refuse to reuse them later).
  std::vector<Bytes> records;
  for (uint64_t i = 0; i < 100; i++) {
    Bytes out(msg.size() + 16), n = nonce_for(i);
    size_t len;
    ASSERT_TRUE(EVP_AEAD_CTX_seal(plain.get(), out.data(), &len, out.size(),
                                  n.data(), 12, msg.data(), msg.size(),
                                  nullptr, 0));
    records.push_back(out);
  }
  std::mutex seal_lock;
  uint64_t next = 1000;
  std::atomic<int> failures{0};
  RunTogether(kThreads, [&](int t) {
    for (int i = 0; i < 50; i++) {
      if (t % 2 == 0) {
        Bytes out(msg.size() + 16), expect(msg.size() + 16), n;
        size_t len;
        {
          std::lock_guard<std::mutex> lock(seal_lock);
          n = nonce_for(next++);
          if (!EVP_AEAD_CTX_seal(tls.get(), out.data(), &len, out.size(),
                                 n.data(), 12, msg.data(), msg.size(),
                                 nullptr, 0)) {
            failures++;
          }
        }
        if (!EVP_AEAD_CTX_seal(plain.get(), expect.data(), &len,
                               expect.size(), n.data(), 12, msg.data(),
                               msg.size(), nullptr, 0) ||
            out != expect) {
          failures++;
        }
      } else {
        const uint64_t r = static_cast<uint64_t>(i * 7 + t) % records.size();
        Bytes n = nonce_for(r), pt(msg.size());
        size_t len;
        if (!EVP_AEAD_CTX_open(tls.get(), pt.data(), &len, pt.size(), n.data(),
                               12, records[r].data(), records[r].size(),
                               nullptr, 0) ||
            pt != msg) {
          failures++;
        }
      }
    }
  });
  EXPECT_EQ(0, failures.load());
  // The counter moved exactly once per seal: the last one is used up.
  Bytes out(msg.size() + 16), n = nonce_for(next - 1);
  size_t len;
  EXPECT_FALSE(EVP_AEAD_CTX_seal(tls.get(), out.data(), &len, out.size(),
                                 n.data(), 12, msg.data(), msg.size(), nullptr,
                                 0));
  EXPECT_EQ(GCM_ERR_NONCE_ORDER, gcm_last_error());
  n = nonce_for(next);
  EXPECT_TRUE(EVP_AEAD_CTX_seal(tls.get(), out.data(), &len, out.size(),
                                n.data(), 12, msg.data(), msg.size(), nullptr,
                                0));
}

}  // namespace
