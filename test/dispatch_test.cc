// test/dispatch_test.cc: which backends the dispatcher picks.
//
// The expected default pair depends on the CPU, so it is given from outside:
// ctest runs the whole test binary once per dispatch tier, under qemu with a
// CPU model lacking features (qemu64, Conroe, Westmere) and natively with
// OPENSSL_ia32cap masks, each time with LIBGCM_EXPECT_PAIR=<aes>/<ghash>
// or <aes>/<ghash>/<fused> (see test/CMakeLists.txt); with the third part
// the fused kernel a default key carries ("none": the two passes) is
// checked too. Without that variable the tier check has no
// expectation to test and says so as a skip; the invariants below always run.
//
// The same expectation decides what the compat layer's EVP_has_aes_hardware
// must say in that tier (1 only for the pairs kHardwarePairs lists, as
// <openssl/aead.h> documents), so it is checked in every tier run too.
#include <openssl/aead.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <set>
#include <string>

#include "test_util.h"

extern "C" {
#include "../crypto/cpu/cpu_detect.h"
#include "../crypto/dispatch/dispatch.h"
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

namespace {

// The default pairs for which EVP_has_aes_hardware must return 1: both
// halves on dedicated instructions (AES-NI with PCLMULQDQ or VPCLMULQDQ;
// Armv8 AES with PMULL, in aarch64 or AArch32). Every
// other tier, vpaes/ssse3 and the portable ct/ct64 and ct/ct32 included,
// must give 0.
const std::set<std::string> kHardwarePairs = {"aesni/clmul",
                                              "aesni/vpclmul_avx2",
                                              "armv8/pmull",
                                              "armv8_32/pmull32"};

TEST(Dispatch, ExpectedTierForThisCpu) {
  const char *expect_env = std::getenv("LIBGCM_EXPECT_PAIR");
  if (expect_env == nullptr) {
    GTEST_SKIP() << "LIBGCM_EXPECT_PAIR not set: tier checks run from the "
                    "qemu.* and ia32cap.* ctest entries";
  }
  // "<aes>/<ghash>[/<fused>]": the pair, and the fused kernel if given.
  std::string pair(expect_env), expect_fused;
  const size_t second = pair.find('/', pair.find('/') + 1);
  if (second != std::string::npos) {
    expect_fused = pair.substr(second + 1);
    pair.resize(second);
  }
  const char *expect = pair.c_str();
  if (!expect_fused.empty()) {
    const char *fused = nullptr;
    ASSERT_EQ(1, gcm_default_fused_backend(&fused)) << gcm_last_error_message();
    EXPECT_EQ(expect_fused, std::string(fused));
    const uint8_t raw[16] = {0};
    gcm_key k;
    ASSERT_EQ(1, gcm_key_init(&k, raw, sizeof(raw)));
    EXPECT_EQ(expect_fused, std::string(gcm_key_fused_backend(&k)));
    gcm_key_cleanup(&k);
  }
  const char *aes = nullptr, *ghash = nullptr;
  ASSERT_EQ(1, gcm_default_backends(&aes, &ghash)) << gcm_last_error_message();
  EXPECT_EQ(std::string(expect), std::string(aes) + "/" + ghash);

  // A key set up with the defaults really uses that pair.
  const uint8_t raw[16] = {0};
  gcm_key k;
  ASSERT_EQ(1, gcm_key_init(&k, raw, sizeof(raw)));
  EXPECT_EQ(std::string(expect),
            std::string(gcm_key_aes_backend(&k)) + "/" + gcm_key_ghash_backend(&k));
  gcm_key_cleanup(&k);

  // BoringSSL's "is AES-GCM fast and constant-time here" follows the tier.
  EXPECT_EQ(kHardwarePairs.count(expect) ? 1 : 0, EVP_has_aes_hardware())
      << "tier " << expect;
}

// Outside the tier runs: EVP_has_aes_hardware agrees with the default pair
// whatever it is here, and is stable; naming other backends for one key
// does not change it (it describes the defaults).
TEST(Dispatch, HasAesHardwareDescribesTheDefaultPair) {
  const char *aes = nullptr, *ghash = nullptr;
  ASSERT_EQ(1, gcm_default_backends(&aes, &ghash)) << gcm_last_error_message();
  const int want = kHardwarePairs.count(std::string(aes) + "/" + ghash) ? 1 : 0;
  EXPECT_EQ(want, EVP_has_aes_hardware()) << aes << "/" << ghash;
  const uint8_t raw[16] = {0};
  gcm_key k;
  ASSERT_EQ(1, gcm_key_init_with_backends(&k, raw, sizeof(raw), "ct", "ct64"));
  EXPECT_EQ(want, EVP_has_aes_hardware());
  gcm_key_cleanup(&k);
}

// EVP_has_aes_hardware reads the descriptors' flags (aes.h's
// hardware_rounds, ghash.h's hardware_multiply), so each flag must say
// what kHardwarePairs says: an AES backend is hardware exactly when it is
// the first half of a listed pair, a GHASH backend when it is the second.
// Checked for every descriptor of the lists, built here or not, so a wrong
// flag on another architecture's backend fails here too.
TEST(Dispatch, HardwareFlagsAgreeWithTheHardwarePairs) {
  auto in_pairs = [](const std::string &name, bool first_half) {
    for (const std::string &pair : kHardwarePairs) {
      const size_t slash = pair.find('/');
      if ((first_half ? pair.substr(0, slash) : pair.substr(slash + 1)) == name) {
        return true;
      }
    }
    return false;
  };
  size_t i = 0;
  for (const aes_impl *a; (a = gcmi_dispatch_aes_at(i)) != nullptr; i++) {
    EXPECT_EQ(in_pairs(a->name, true), a->hardware_rounds != 0) << "AES " << a->name;
  }
  EXPECT_GT(i, 0u);
  i = 0;
  for (const ghash_impl *g; (g = gcmi_dispatch_ghash_at(i)) != nullptr; i++) {
    EXPECT_EQ(in_pairs(g->name, false), g->hardware_multiply != 0)
        << "GHASH " << g->name;
  }
  EXPECT_GT(i, 0u);
}

// Backend names have one separator: lower-case letters, digits and '_'
// only, for every kind (the test suites use them as GoogleTest name parts
// as they are, and users type them).
TEST(Dispatch, BackendNamesAreLettersDigitsAndUnderscores) {
  ASSERT_GT(gcm_backend_count(), 0u);
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    ASSERT_EQ(1, gcm_backend_get(i, &info));
    ASSERT_NE(nullptr, info.name);
    ASSERT_NE('\0', info.name[0]) << "backend " << i;
    for (const char *c = info.name; *c != '\0'; c++) {
      EXPECT_TRUE((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_')
          << "'" << info.name << "' has '" << *c << "'";
    }
  }
}

// The spellings of libgcm 1.0 that used '-', stated here independently of
// the library's alias table (crypto/dispatch/dispatch.c).
struct Respelled {
  const char *old_name, *name;
};
const Respelled kRespelledAes[] = {{"armv8-32", "armv8_32"},
                                   {"bsaes-neon", "bsaes_neon"},
                                   {"vpaes-neon", "vpaes_neon"}};

// An old spelling looks up the very descriptor of the new name (on every
// build: the descriptors exist everywhere), answers availability the same,
// and a key asked for by it reports the new name, or, where this CPU cannot
// run it, fails as unusable (not unknown) with a message naming the new
// spelling. Any other respelling is still unknown.
TEST(Dispatch, DeprecatedSpellingsSelectTheNewNamesBackend) {
  const uint8_t raw[16] = {0};
  for (const Respelled &r : kRespelledAes) {
    const aes_impl *want = gcmi_dispatch_find_aes(r.name);
    ASSERT_NE(nullptr, want) << r.name;
    EXPECT_STREQ(r.name, want->name);
    EXPECT_EQ(want, gcmi_dispatch_find_aes(r.old_name)) << r.old_name;
    EXPECT_EQ(gcm_backend_is_available(GCM_BACKEND_AES, r.name),
              gcm_backend_is_available(GCM_BACKEND_AES, r.old_name))
        << r.old_name;
    gcm_key k;
    const int ok = gcm_key_init_with_backends(&k, raw, sizeof(raw), r.old_name, "ct64");
    if (want->usable()) {
      ASSERT_EQ(1, ok) << r.old_name << ": " << gcm_last_error_message();
      EXPECT_STREQ(r.name, gcm_key_aes_backend(&k));
      gcm_key_cleanup(&k);
    } else {
      EXPECT_EQ(0, ok) << r.old_name;
      EXPECT_EQ(GCM_ERR_BACKEND_UNUSABLE, gcm_last_error()) << gcm_last_error_message();
      EXPECT_NE(nullptr, std::strstr(gcm_last_error_message(),
                                     (std::string("'") + r.name + "'").c_str()))
          << gcm_last_error_message();
    }
  }
  EXPECT_EQ(nullptr, gcmi_dispatch_find_aes("ct-sse2"));
  EXPECT_EQ(nullptr, gcmi_dispatch_find_ghash("vpclmul-avx2"));
  EXPECT_EQ(nullptr, gcmi_dispatch_find_fused("vaes-avx2"));
}

// The same through the environment: the env.deprecated_name entry sets
// LIBGCM_AES to an old spelling and LIBGCM_EXPECT_AES_NAME to the new one.
TEST(Dispatch, EnvironmentDeprecatedSpellingMeansTheNewName) {
  const char *old_name = std::getenv("LIBGCM_AES");
  const char *name = std::getenv("LIBGCM_EXPECT_AES_NAME");
  if (old_name == nullptr || name == nullptr) {
    GTEST_SKIP() << "LIBGCM_EXPECT_AES_NAME not set: run from env.deprecated_name";
  }
  ASSERT_STRNE(old_name, name);
  const aes_impl *want = gcmi_dispatch_find_aes(name);
  ASSERT_NE(nullptr, want) << name;
  const uint8_t raw[16] = {0};
  gcm_key k;
  const char *aes = nullptr, *ghash = nullptr;
  if (want->usable()) {
    ASSERT_EQ(1, gcm_key_init(&k, raw, sizeof(raw))) << gcm_last_error_message();
    EXPECT_STREQ(name, gcm_key_aes_backend(&k));
    gcm_key_cleanup(&k);
    ASSERT_EQ(1, gcm_default_backends(&aes, &ghash));
    EXPECT_STREQ(name, aes);
  } else {
    EXPECT_EQ(0, gcm_key_init(&k, raw, sizeof(raw)));
    EXPECT_EQ(GCM_ERR_BACKEND_UNUSABLE, gcm_last_error()) << gcm_last_error_message();
    const std::string msg = gcm_last_error_message();
    EXPECT_NE(std::string::npos, msg.find("LIBGCM_AES")) << msg;
    EXPECT_NE(std::string::npos, msg.find(std::string("'") + name + "'")) << msg;
  }
}

// With LIBGCM_AES / LIBGCM_GHASH / LIBGCM_FUSED naming a backend that does not exist, key
// set-up with the defaults fails with a message naming it; it never falls
// back to another backend. Run from the env.* ctest entries, which set
// LIBGCM_EXPECT_ENV_ERROR to the name.
TEST(Dispatch, EnvironmentNamingBadBackendFailsClearly) {
  const char *bad = std::getenv("LIBGCM_EXPECT_ENV_ERROR");
  if (bad == nullptr) {
    GTEST_SKIP() << "LIBGCM_EXPECT_ENV_ERROR not set: run from the env.* ctest entries";
  }
  const uint8_t raw[16] = {0};
  gcm_key k;
  EXPECT_EQ(0, gcm_key_init(&k, raw, sizeof(raw)));
  EXPECT_TRUE(gcm_last_error() == GCM_ERR_BACKEND_UNKNOWN ||
              gcm_last_error() == GCM_ERR_BACKEND_UNUSABLE);
  EXPECT_NE(nullptr, std::strstr(gcm_last_error_message(), bad)) << gcm_last_error_message();
  if (std::getenv("LIBGCM_FUSED") == nullptr) {
    EXPECT_EQ(0, gcm_default_backends(nullptr, nullptr));
  }
  EXPECT_EQ(0, gcm_default_fused_backend(nullptr));
  // Explicit names still work: the environment only sets the default.
  EXPECT_EQ(1, gcm_key_init_with_fused(&k, raw, sizeof(raw), "ct", "ct64", "none"))
      << gcm_last_error_message();
  gcm_key_cleanup(&k);
}

// The default is the first usable constant-time entry of each list, and the
// lists are reported best first.
TEST(Dispatch, DefaultIsFirstUsableConstantTimeEntry) {
  const char *aes = nullptr, *ghash = nullptr;
  if (std::getenv("LIBGCM_AES") || std::getenv("LIBGCM_GHASH")) {
    GTEST_SKIP() << "LIBGCM_AES/LIBGCM_GHASH override the order";
  }
  ASSERT_EQ(1, gcm_default_backends(&aes, &ghash));
  const char *first_aes = nullptr, *first_ghash = nullptr;
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    ASSERT_EQ(1, gcm_backend_get(i, &info));
    if (!info.usable || !info.constant_time || info.kind == GCM_BACKEND_FUSED) continue;
    const char **slot = info.kind == GCM_BACKEND_AES ? &first_aes : &first_ghash;
    if (*slot == nullptr) *slot = info.name;
  }
  ASSERT_NE(nullptr, first_aes);
  ASSERT_NE(nullptr, first_ghash);
  EXPECT_STREQ(first_aes, aes);
  EXPECT_STREQ(first_ghash, ghash);
}

// The top x86_64 tier: wherever the wide GHASH backend can run (AVX2,
// VPCLMULQDQ and VAES present and not masked by OPENSSL_ia32cap), it is the
// automatic choice, beside aesni; a CPU or mask without it gets something
// else. Runs natively in every tier entry, so the masked tiers check the
// second half and a plain run on a VAES machine the first.
TEST(Dispatch, WideGhashIsTheDefaultWhereverItRuns) {
  if (std::getenv("LIBGCM_AES") || std::getenv("LIBGCM_GHASH")) {
    GTEST_SKIP() << "LIBGCM_AES/LIBGCM_GHASH override the order";
  }
  const char *aes = nullptr, *ghash = nullptr;
  ASSERT_EQ(1, gcm_default_backends(&aes, &ghash));
  if (gcm_backend_is_available(GCM_BACKEND_GHASH, "vpclmul_avx2")) {
    EXPECT_STREQ("vpclmul_avx2", ghash);
    if (gcm_backend_is_available(GCM_BACKEND_AES, "aesni")) {
      EXPECT_STREQ("aesni", aes);
    }
  } else {
    EXPECT_STRNE("vpclmul_avx2", ghash);
  }
}

// Every listed backend is consistent with gcm_backend_is_available, and an
// explicit choice of each usable one works.
TEST(Dispatch, EveryUsableBackendCanBeChosenByName) {
  const uint8_t raw[32] = {1};
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    ASSERT_EQ(1, gcm_backend_get(i, &info));
    EXPECT_EQ(info.usable, gcm_backend_is_available(info.kind, info.name)) << info.name;
    ASSERT_NE(nullptr, info.requires);
    if (!info.usable || info.kind == GCM_BACKEND_FUSED) continue;  // FusedDispatch.*
    gcm_key k;
    const bool aes = info.kind == GCM_BACKEND_AES;
    ASSERT_EQ(1, gcm_key_init_with_backends(&k, raw, 32, aes ? info.name : nullptr,
                                            aes ? nullptr : info.name))
        << info.name << ": " << gcm_last_error_message();
    EXPECT_STREQ(info.name, aes ? gcm_key_aes_backend(&k) : gcm_key_ghash_backend(&k));
    gcm_key_cleanup(&k);
  }
}

#if defined(__i386__) || defined(__x86_64__) || defined(_M_IX86) || defined(_M_X64)
// The x86 order: (aesni, clmul) > (vpaes, ssse3) > (ct_sse2, sse2) > (ct,
// ct32/ct64); 4bit only by name. The lists are reported best first, so the
// positions of the names present in this build must rise in that order.
// ct_sse2 is C and in every x86 build; sse2 exists on 32-bit x86 only.
TEST(Dispatch, X86OrderPutsTheSse2TierBetweenSsse3AndPortable) {
  auto position = [](gcm_backend_kind kind, const char *name) -> int {
    for (size_t i = 0; i < gcm_backend_count(); i++) {
      gcm_backend_info info;
      if (gcm_backend_get(i, &info) == 1 && info.kind == kind &&
          std::strcmp(info.name, name) == 0) {
        return static_cast<int>(i);
      }
    }
    return -1;
  };
  auto in_order = [&](gcm_backend_kind kind, std::initializer_list<const char *> names) {
    int last = -1;
    std::string seen;
    for (const char *n : names) {
      int p = position(kind, n);
      if (p < 0) continue;  // not in this build (e.g. no assembly)
      EXPECT_LT(last, p) << n << " comes before " << seen;
      last = p;
      seen = n;
    }
  };
  ASSERT_GE(position(GCM_BACKEND_AES, "ct_sse2"), 0);
  ASSERT_GE(position(GCM_BACKEND_AES, "ct"), 0);
  in_order(GCM_BACKEND_AES, {"aesni", "vpaes", "ct_sse2", "ct"});
  in_order(GCM_BACKEND_GHASH, {"clmul", "ssse3", "sse2", "ct32", "4bit"});
#if defined(__i386__) || defined(_M_IX86)
  in_order(GCM_BACKEND_GHASH, {"sse2", "ct64"});
#endif
  gcm_backend_info info;
  for (size_t i = 0; gcm_backend_get(i, &info) == 1; i++) {
    if (std::strcmp(info.name, "4bit") == 0) {
      EXPECT_EQ(0, info.constant_time);
    }
    if (std::strcmp(info.name, "ct_sse2") == 0 || std::strcmp(info.name, "sse2") == 0) {
      EXPECT_EQ(1, info.constant_time) << info.name;
      EXPECT_STREQ("SSE2", info.requires) << info.name;
    }
  }
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
// The 512-bit fused kernel's usability, worked out here from CPUID and XCR0
// by this test's own code, not libgcm's CPU layer: AES-NI, PCLMULQDQ,
// AVX2, VAES, VPCLMULQDQ, AVX-512 F, BW and VL, and the OS saving the
// opmask and ZMM state. Under the vaes-avx2 tier's mask
// (OPENSSL_ia32cap=:~0x40000000, AVX512BW hidden; ctest ia32cap.vaes_avx2)
// it must be unusable. Where it is usable it is the fused kernel of a
// default key, beside aesni and vpclmul_avx2, except on the Intel cores
// that lose clock speed on 512-bit instructions (family 6, models 85, 106,
// 108, 125, 126, 140, 141: gcmi_cpu_x86_zmm_lowers_clock, whose list the test
// below checks), which keep vaes_avx2 unless named; elsewhere vaes_avx2 is
// the default, wherever that runs.
TEST(Dispatch, ZmmKernelFollowsCpuidAndIsTheDefaultWhereverItRuns) {
  const char *mask = std::getenv("OPENSSL_ia32cap");
  const bool avx512_masked = mask != nullptr && std::string(mask) == ":~0x40000000";
  if (mask != nullptr && !avx512_masked)
    GTEST_SKIP() << "OPENSSL_ia32cap=" << mask << ": not a mask this test models";
  unsigned a = 0, b = 0, c = 0, d = 0;
  ASSERT_TRUE(__get_cpuid(0, &a, &b, &c, &d));
  const unsigned max_leaf = a;
  const bool intel = b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu;
  ASSERT_TRUE(__get_cpuid(1, &a, &b, &c, &d));
  const unsigned family = (a >> 8) & 0xf;
  const unsigned model = ((a >> 4) & 0xf) | ((a >> 12) & 0xf0);
  const bool aesni = c & (1u << 25), pclmul = c & (1u << 1), osxsave = c & (1u << 27);
  unsigned b7 = 0, c7 = 0;
  if (max_leaf >= 7) __cpuid_count(7, 0, a, b7, c7, d);
  uint64_t xcr0 = 0;
  if (osxsave) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (uint64_t{hi} << 32) | lo;
  }
  const bool slow_zmm = gcmi_cpu_x86_zmm_lowers_clock(intel, family, model) != 0;
  const bool avx512 = (b7 & (1u << 16)) && (b7 & (1u << 30)) && (b7 & (1u << 31)) &&
                      (xcr0 & 0xe6) == 0xe6 && !avx512_masked;
  const bool runs = aesni && pclmul && (b7 & (1u << 5)) && (c7 & (1u << 9)) &&
                    (c7 & (1u << 10)) && avx512;
  EXPECT_EQ(runs ? 1 : 0, gcm_backend_is_available(GCM_BACKEND_FUSED, "vaes_avx512"))
      << "family " << family << " model " << model;
  if (std::getenv("LIBGCM_AES") || std::getenv("LIBGCM_GHASH") || std::getenv("LIBGCM_FUSED"))
    return;  // the environment overrides the default choice
  const char *fused = nullptr;
  ASSERT_EQ(1, gcm_default_fused_backend(&fused));
  if (runs && !slow_zmm) {
    EXPECT_STREQ("vaes_avx512", fused);
  } else if (gcm_backend_is_available(GCM_BACKEND_FUSED, "vaes_avx2")) {
    EXPECT_STREQ("vaes_avx2", fused);
  } else {
    EXPECT_STRNE("vaes_avx512", fused);
  }
  if (runs) {  // where it runs, naming it works, whatever the default
    const uint8_t raw[16] = {9};
    gcm_key k;
    ASSERT_EQ(1, gcm_key_init_with_fused(&k, raw, 16, "aesni", "vpclmul_avx2", "vaes_avx512"))
        << gcm_last_error_message();
    EXPECT_STREQ("vaes_avx512", gcm_key_fused_backend(&k));
    gcm_key_cleanup(&k);
  }
}
#endif

// The list of cores that keep the 256-bit kernel: BoringSSL's Intel models,
// and no other vendor, family or model (the host of this change, an Intel
// Xeon of family 6 model 207, and AMD's Zen 4, family 25, take 512 bits).
// The function exists on every build; only x86 builds call it.
TEST(Dispatch, ZmmClockListIsTheIntelModelsThatDownclock) {
  for (uint32_t model : {85u, 106u, 108u, 125u, 126u, 140u, 141u}) {
    EXPECT_EQ(1, gcmi_cpu_x86_zmm_lowers_clock(1, 6, model)) << "model " << model;
    EXPECT_EQ(0, gcmi_cpu_x86_zmm_lowers_clock(0, 6, model)) << "not Intel, model " << model;
    EXPECT_EQ(0, gcmi_cpu_x86_zmm_lowers_clock(1, 15, model)) << "family 15, model " << model;
  }
  for (uint32_t model : {0u, 60u, 79u, 84u, 86u, 143u, 151u, 173u, 207u, 255u}) {
    EXPECT_EQ(0, gcmi_cpu_x86_zmm_lowers_clock(1, 6, model)) << "model " << model;
  }
  EXPECT_EQ(0, gcmi_cpu_x86_zmm_lowers_clock(0, 25, 17));  // AMD Zen 4
}

}  // namespace
