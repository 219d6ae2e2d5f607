// test/fused_dispatch_test.cc: choosing a fused kernel: naming one,
// "none", errors and the public queries, kernels refused on pairs they do
// not fit, the automatic choice, and LIBGCM_FUSED. (test/dispatch_test.cc
// covers the AES and GHASH lists.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" {
#include "../crypto/dispatch/dispatch.h"
#include "../crypto/gcm/mode.h"
#include "../crypto/gcm/placement.h"
}
#include "test_util.h"

using gcmtest::Bytes;
using gcmtest::RandomBytes;

namespace {

TEST(FusedDispatch, NamesNoneAndErrors) {
  const uint8_t raw[16] = {0};
  gcm_key k;
  ASSERT_EQ(1, gcm_key_init_with_fused(&k, raw, 16, "ct", "ct64", "c"));
  EXPECT_STREQ("c", gcm_key_fused_backend(&k));
  ASSERT_EQ(1, gcm_key_init_with_fused(&k, raw, 16, "ct", "ct64", "none"));
  EXPECT_STREQ("none", gcm_key_fused_backend(&k));
  EXPECT_EQ(0, gcm_key_init_with_fused(&k, raw, 16, nullptr, nullptr, "no-such-fused"));
  EXPECT_EQ(GCM_ERR_BACKEND_UNKNOWN, gcm_last_error());
  EXPECT_NE(nullptr, strstr(gcm_last_error_message(), "no-such-fused"));
  EXPECT_EQ(nullptr, gcm_key_fused_backend(&k));  // zeroed on failure
  EXPECT_EQ(nullptr, gcm_key_fused_backend(nullptr));
  // An AES or GHASH name is not a fused kernel.
  EXPECT_EQ(0, gcm_key_init_with_fused(&k, raw, 16, nullptr, nullptr, "ct"));
  EXPECT_EQ(GCM_ERR_BACKEND_UNKNOWN, gcm_last_error());
  const char *fa = "x", *fg = "x";
  EXPECT_EQ(1, gcm_fused_backend_pair("c", &fa, &fg));
  EXPECT_EQ(nullptr, fa);
  EXPECT_EQ(nullptr, fg);
  EXPECT_EQ(0, gcm_fused_backend_pair("clmul", &fa, &fg));
  EXPECT_EQ(GCM_ERR_BACKEND_UNKNOWN, gcm_last_error());
  EXPECT_EQ(0, gcm_fused_backend_pair(nullptr, nullptr, nullptr));
  EXPECT_EQ(1, gcm_backend_is_available(GCM_BACKEND_FUSED, "c"));
  EXPECT_EQ(0, gcm_backend_is_available(GCM_BACKEND_FUSED, "ct"));
}

// gcm_key_init_with_fused checks its other arguments exactly as
// gcm_key_init does, and a failed call leaves the key zeroed.
TEST(FusedDispatch, BadArgumentsAreRefusedFirst) {
  const uint8_t raw[32] = {5};
  EXPECT_EQ(0, gcm_key_init_with_fused(nullptr, raw, 16, nullptr, nullptr, "c"));
  EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error());
  gcm_key k;
  std::memset(&k, 0xee, sizeof(k));
  EXPECT_EQ(0, gcm_key_init_with_fused(&k, nullptr, 16, nullptr, nullptr, "c"));
  EXPECT_EQ(GCM_ERR_NULL_POINTER, gcm_last_error());
  EXPECT_TRUE(gcmtest::AllZero(k.opaque, sizeof(k.opaque)));
  std::memset(&k, 0xee, sizeof(k));
  EXPECT_EQ(0, gcm_key_init_with_fused(&k, raw, 17, nullptr, nullptr, "c"));
  EXPECT_EQ(GCM_ERR_KEY_LENGTH, gcm_last_error());
  EXPECT_TRUE(gcmtest::AllZero(k.opaque, sizeof(k.opaque)));
  // A bad pair name is reported before the fused name is looked at.
  EXPECT_EQ(0, gcm_key_init_with_fused(&k, raw, 16, "no-such-aes", nullptr, "no-such-fused"));
  EXPECT_EQ(GCM_ERR_BACKEND_UNKNOWN, gcm_last_error());
  EXPECT_NE(nullptr, strstr(gcm_last_error_message(), "no-such-aes"));
  std::memset(&k, 0xee, sizeof(k));
  EXPECT_EQ(0, gcm_key_init_with_fused(&k, raw, 16, nullptr, nullptr, "no-such-fused"));
  EXPECT_TRUE(gcmtest::AllZero(k.opaque, sizeof(k.opaque)));
  // A key with a kernel seals exactly like one without.
  gcm_key a, b;
  ASSERT_EQ(1, gcm_key_init_with_fused(&a, raw, 32, nullptr, nullptr, "c"));
  ASSERT_EQ(1, gcm_key_init_with_fused(&b, raw, 32, nullptr, nullptr, "none"));
  std::mt19937_64 rng(8);
  Bytes pt = RandomBytes(rng, 5000), nonce = RandomBytes(rng, 12);
  Bytes ca(pt.size()), cb(pt.size());
  uint8_t ta[16], tb[16];
  ASSERT_EQ(1, gcm_seal(&a, ca.data(), ta, 16, nonce.data(), 12, pt.data(), pt.size(), nullptr, 0));
  ASSERT_EQ(1, gcm_seal(&b, cb.data(), tb, 16, nonce.data(), 12, pt.data(), pt.size(), nullptr, 0));
  EXPECT_EQ(ca, cb);
  EXPECT_EQ(0, memcmp(ta, tb, 16));
  // A memcpy copy of a key with a kernel works on its own.
  gcm_key c;
  std::memcpy(&c, &a, sizeof(a));
  gcm_key_cleanup(&a);
  ASSERT_EQ(1, gcm_seal(&c, ca.data(), ta, 16, nonce.data(), 12, pt.data(), pt.size(), nullptr, 0));
  EXPECT_EQ(ca, cb);
  gcm_key_cleanup(&b);
  gcm_key_cleanup(&c);
}

// A kernel made for one pair is refused, by name, on any other pair; every
// usable kernel is accepted on the pairs it fits.
TEST(FusedDispatch, KernelsFitOnlyTheirPair) {
  const uint8_t raw[16] = {7};
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    ASSERT_EQ(1, gcm_backend_get(i, &info));
    if (info.kind != GCM_BACKEND_FUSED) continue;
    const char *fa, *fg;
    ASSERT_EQ(1, gcm_fused_backend_pair(info.name, &fa, &fg));
    for (const auto &p : gcmtest::UsableBackendPairs()) {
      const bool fits = (fa == nullptr || p.first == fa) && (fg == nullptr || p.second == fg);
      gcm_key k;
      int ok = gcm_key_init_with_fused(&k, raw, 16, p.first.c_str(), p.second.c_str(), info.name);
      if (fits && info.usable) {
        EXPECT_EQ(1, ok) << info.name << " on " << p.first << "/" << p.second << ": "
                         << gcm_last_error_message();
        gcm_key_cleanup(&k);
      } else {
        EXPECT_EQ(0, ok);
        EXPECT_EQ(GCM_ERR_BACKEND_UNUSABLE, gcm_last_error());
        EXPECT_NE(nullptr, strstr(gcm_last_error_message(), info.name));
      }
    }
  }
}

// The automatic choice attaches the first fitting constant-time kernel that
// is not reserved for naming, and gcm_default_fused_backend reports it.
TEST(FusedDispatch, DefaultIsFirstFittingAutomaticKernel) {
  if (std::getenv("LIBGCM_FUSED") || std::getenv("LIBGCM_AES") || std::getenv("LIBGCM_GHASH"))
    GTEST_SKIP() << "the environment overrides the choice";
  const uint8_t raw[16] = {3};
  gcm_key k;
  const char *def = nullptr;
  ASSERT_EQ(1, gcm_default_fused_backend(&def));
  for (const auto &p : gcmtest::UsableBackendPairs()) {
    const struct aes_impl *a = gcmi_dispatch_find_aes(p.first.c_str());
    const struct ghash_impl *g = gcmi_dispatch_find_ghash(p.second.c_str());
    const char *expect = "none";
    for (size_t i = 0; gcmi_dispatch_fused_at(i) != nullptr; i++) {
      const struct fused_impl *f = gcmi_dispatch_fused_at(i);
      if (!f->named_only && f->constant_time && f->usable() &&
          (f->preferred == nullptr || f->preferred()) && gcmi_dispatch_fused_fits(f, a, g)) {
        expect = f->name;
        break;
      }
    }
    ASSERT_EQ(1, gcm_key_init_with_backends(&k, raw, 16, p.first.c_str(), p.second.c_str()));
    EXPECT_STREQ(expect, gcm_key_fused_backend(&k)) << p.first << "/" << p.second;
    gcm_key_cleanup(&k);
  }
  // What a default key carries is what the query reports.
  ASSERT_EQ(1, gcm_key_init(&k, raw, 16));
  EXPECT_STREQ(def, gcm_key_fused_backend(&k));
  gcm_key_cleanup(&k);
  // The portable loop is reserved for naming.
  EXPECT_EQ(1, gcmi_fused_c.named_only);
}

#if defined(LIBGCM_ASM_X86_64)
// The two stitched kernels of (aesni, clmul): aesni_avx (VEX) is listed
// before aesni_sse (legacy SSE), so a CPU with AVX keeps aesni_avx and one
// without takes aesni_sse; aesni_sse needs no more than the pair itself.
TEST(FusedDispatch, AesniSseFollowsAesniAvxAndNeedsOnlyThePair) {
  size_t avx = SIZE_MAX, sse = SIZE_MAX;
  for (size_t i = 0; gcmi_dispatch_fused_at(i) != nullptr; i++) {
    if (std::strcmp(gcmi_dispatch_fused_at(i)->name, "aesni_avx") == 0) avx = i;
    if (std::strcmp(gcmi_dispatch_fused_at(i)->name, "aesni_sse") == 0) sse = i;
  }
  ASSERT_NE(SIZE_MAX, avx);
  ASSERT_NE(SIZE_MAX, sse);
  EXPECT_LT(avx, sse);
  EXPECT_EQ(&gcmi_aes_aesni, gcmi_fused_aesni_sse.aes);
  EXPECT_EQ(&gcmi_ghash_clmul, gcmi_fused_aesni_sse.ghash);
  const bool pair = gcmi_aes_aesni.usable() && gcmi_ghash_clmul.usable();
  EXPECT_EQ(pair, gcmi_fused_aesni_sse.usable() != 0);
  if (!pair) GTEST_SKIP() << "no AES-NI + PCLMULQDQ here";
  if (std::getenv("LIBGCM_FUSED")) GTEST_SKIP() << "the environment overrides the choice";
  const uint8_t raw[16] = {5};
  gcm_key k;
  ASSERT_EQ(1, gcm_key_init_with_backends(&k, raw, 16, "aesni", "clmul"));
  EXPECT_STREQ(gcmi_fused_aesni_avx.usable() ? "aesni_avx" : "aesni_sse",
               gcm_key_fused_backend(&k));
  gcm_key_cleanup(&k);
}
#endif

// LIBGCM_FUSED, run from the env.fused_* ctest entries with
// LIBGCM_EXPECT_FUSED set to what every default key must carry.
TEST(FusedDispatch, EnvironmentChoosesTheKernel) {
  const char *expect = std::getenv("LIBGCM_EXPECT_FUSED");
  if (expect == nullptr) GTEST_SKIP() << "run from the env.fused_* ctest entries";
  const uint8_t raw[16] = {4};
  gcm_key k;
  ASSERT_EQ(1, gcm_key_init(&k, raw, 16)) << gcm_last_error_message();
  EXPECT_STREQ(expect, gcm_key_fused_backend(&k));
  const char *def = nullptr;
  ASSERT_EQ(1, gcm_default_fused_backend(&def));
  EXPECT_STREQ(expect, def);
  // An explicit name still wins over the environment.
  ASSERT_EQ(1, gcm_key_init_with_fused(&k, raw, 16, nullptr, nullptr, "none"));
  EXPECT_STREQ("none", gcm_key_fused_backend(&k));
  gcm_key_cleanup(&k);
}

}  // namespace
