// test/compat_names_test.cc: every AES-GCM and AES-GCM-SIV name of
// BoringSSL's <openssl/aead.h> exists in libgcm's compat header, with
// BoringSSL's type.
//
// Where the list comes from: BoringSSL's include/openssl/aead.h (2025
// layout, as mirrored at
// commit 6e6e6dbb of a public BoringSSL mirror), plus the vectored calls
// EVP_AEAD_CTX_sealv / openv / openv_detached and CRYPTO_IOVEC /
// CRYPTO_IVEC, which that copy predates; their argument lists are the ones
// BoringSSL's crypto/cipher/aead_test.cc calls them with. The AES-GCM part
// is every EVP_aead_aes_*_gcm* constructor (AES-GCM-SIV's two included),
// EVP_has_aes_hardware, and the algorithm-independent EVP_AEAD_* functions,
// constants and types an AES-GCM user needs. When BoringSSL adds an AES-GCM
// name, add it here: the test then fails to build until the compat header
// has it.
//
// Checked at compile time: each function's address converts to exactly
// BoringSSL's function type (std::is_same on decltype), so a missing name
// or a different signature breaks the build of this test. Checked at run
// time: each AEAD exists, is distinct, and reports BoringSSL's key length,
// nonce length, overhead and maximum tag length.

#include <openssl/aead.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <type_traits>

namespace {

// The names and BoringSSL's type for each; X(name, type).
#define BORINGSSL_AES_GCM_FUNCTIONS(X)                                        \
  X(EVP_aead_aes_128_gcm, const EVP_AEAD *(*)(void))                          \
  X(EVP_aead_aes_192_gcm, const EVP_AEAD *(*)(void))                          \
  X(EVP_aead_aes_256_gcm, const EVP_AEAD *(*)(void))                          \
  X(EVP_aead_aes_128_gcm_randnonce, const EVP_AEAD *(*)(void))                \
  X(EVP_aead_aes_256_gcm_randnonce, const EVP_AEAD *(*)(void))                \
  X(EVP_aead_aes_128_gcm_tls12, const EVP_AEAD *(*)(void))                    \
  X(EVP_aead_aes_256_gcm_tls12, const EVP_AEAD *(*)(void))                    \
  X(EVP_aead_aes_128_gcm_tls13, const EVP_AEAD *(*)(void))                    \
  X(EVP_aead_aes_256_gcm_tls13, const EVP_AEAD *(*)(void))                    \
  X(EVP_aead_aes_128_gcm_siv, const EVP_AEAD *(*)(void))                      \
  X(EVP_aead_aes_256_gcm_siv, const EVP_AEAD *(*)(void))                      \
  X(EVP_has_aes_hardware, int (*)(void))                                      \
  X(EVP_AEAD_key_length, size_t (*)(const EVP_AEAD *))                        \
  X(EVP_AEAD_nonce_length, size_t (*)(const EVP_AEAD *))                      \
  X(EVP_AEAD_max_overhead, size_t (*)(const EVP_AEAD *))                      \
  X(EVP_AEAD_max_tag_len, size_t (*)(const EVP_AEAD *))                       \
  X(EVP_AEAD_CTX_zero, void (*)(EVP_AEAD_CTX *))                              \
  X(EVP_AEAD_CTX_new, EVP_AEAD_CTX *(*)(const EVP_AEAD *, const uint8_t *,    \
                                        size_t, size_t))                      \
  X(EVP_AEAD_CTX_free, void (*)(EVP_AEAD_CTX *))                              \
  X(EVP_AEAD_CTX_init, int (*)(EVP_AEAD_CTX *, const EVP_AEAD *,              \
                               const uint8_t *, size_t, size_t, ENGINE *))    \
  X(EVP_AEAD_CTX_cleanup, void (*)(EVP_AEAD_CTX *))                           \
  X(EVP_AEAD_CTX_seal,                                                        \
    int (*)(const EVP_AEAD_CTX *, uint8_t *, size_t *, size_t,                \
            const uint8_t *, size_t, const uint8_t *, size_t,                 \
            const uint8_t *, size_t))                                         \
  X(EVP_AEAD_CTX_open,                                                        \
    int (*)(const EVP_AEAD_CTX *, uint8_t *, size_t *, size_t,                \
            const uint8_t *, size_t, const uint8_t *, size_t,                 \
            const uint8_t *, size_t))                                         \
  X(EVP_AEAD_CTX_seal_scatter,                                                \
    int (*)(const EVP_AEAD_CTX *, uint8_t *, uint8_t *, size_t *, size_t,     \
            const uint8_t *, size_t, const uint8_t *, size_t,                 \
            const uint8_t *, size_t, const uint8_t *, size_t))                \
  X(EVP_AEAD_CTX_open_gather,                                                 \
    int (*)(const EVP_AEAD_CTX *, uint8_t *, const uint8_t *, size_t,         \
            const uint8_t *, size_t, const uint8_t *, size_t,                 \
            const uint8_t *, size_t))                                         \
  X(EVP_AEAD_CTX_sealv,                                                       \
    int (*)(const EVP_AEAD_CTX *, const CRYPTO_IOVEC *, size_t, uint8_t *,    \
            size_t *, size_t, const uint8_t *, size_t, const CRYPTO_IVEC *,   \
            size_t))                                                          \
  X(EVP_AEAD_CTX_openv,                                                       \
    int (*)(const EVP_AEAD_CTX *, const CRYPTO_IOVEC *, size_t, size_t *,     \
            const uint8_t *, size_t, const CRYPTO_IVEC *, size_t))            \
  X(EVP_AEAD_CTX_openv_detached,                                              \
    int (*)(const EVP_AEAD_CTX *, const CRYPTO_IOVEC *, size_t,               \
            const uint8_t *, size_t, const uint8_t *, size_t,                 \
            const CRYPTO_IVEC *, size_t))                                     \
  X(EVP_AEAD_CTX_aead, const EVP_AEAD *(*)(const EVP_AEAD_CTX *))             \
  X(EVP_AEAD_CTX_init_with_direction,                                         \
    int (*)(EVP_AEAD_CTX *, const EVP_AEAD *, const uint8_t *, size_t,        \
            size_t, enum evp_aead_direction_t))                               \
  X(EVP_AEAD_CTX_get_iv,                                                      \
    int (*)(const EVP_AEAD_CTX *, const uint8_t **, size_t *))                \
  X(EVP_AEAD_CTX_tag_len,                                                     \
    int (*)(const EVP_AEAD_CTX *, size_t *, const size_t, const size_t))

// Compile time: the name exists and has BoringSSL's type.
#define CHECK_TYPE(name, type)                                       \
  static_assert(std::is_same<decltype(&name), type>::value,          \
                #name " is missing or its signature differs from BoringSSL's");
BORINGSSL_AES_GCM_FUNCTIONS(CHECK_TYPE)
#undef CHECK_TYPE

// The constants and types, which exist only at compile time.
static_assert(EVP_AEAD_DEFAULT_TAG_LENGTH == 0, "EVP_AEAD_DEFAULT_TAG_LENGTH");
static_assert(EVP_AEAD_MAX_KEY_LENGTH >= 32, "EVP_AEAD_MAX_KEY_LENGTH");
static_assert(EVP_AEAD_MAX_NONCE_LENGTH >= 12, "EVP_AEAD_MAX_NONCE_LENGTH");
static_assert(EVP_AEAD_MAX_OVERHEAD >= 28, "EVP_AEAD_MAX_OVERHEAD");
static_assert(evp_aead_open != evp_aead_seal, "evp_aead_direction_t");
static_assert(std::is_same<decltype(CRYPTO_IOVEC::out), uint8_t *>::value &&
                  std::is_same<decltype(CRYPTO_IOVEC::in), const uint8_t *>::value &&
                  std::is_same<decltype(CRYPTO_IOVEC::len), size_t>::value,
              "CRYPTO_IOVEC fields");
static_assert(std::is_same<decltype(CRYPTO_IVEC::in), const uint8_t *>::value &&
                  std::is_same<decltype(CRYPTO_IVEC::len), size_t>::value,
              "CRYPTO_IVEC fields");
static_assert(std::is_default_constructible<bssl::ScopedEVP_AEAD_CTX>::value,
              "bssl::ScopedEVP_AEAD_CTX");
static_assert(sizeof(bssl::UniquePtr<EVP_AEAD_CTX>) > 0,
              "bssl::UniquePtr<EVP_AEAD_CTX>");

TEST(CompatNames, EveryFunctionLinks) {
  // Taking each address makes the linker find every function in libgcm.
  std::set<const void *> seen;
  size_t count = 0;
#define ADDRESS(name, type)                                        \
  {                                                                \
    using Fn = type;                                               \
    Fn fn = &name;                                                 \
    EXPECT_NE(nullptr, reinterpret_cast<const void *>(fn)) << #name; \
    seen.insert(reinterpret_cast<const void *>(fn));               \
    count++;                                                       \
  }
  BORINGSSL_AES_GCM_FUNCTIONS(ADDRESS)
#undef ADDRESS
  EXPECT_EQ(count, seen.size()) << "two names share one function";
}

// Run time: BoringSSL's key length, nonce length, overhead and largest tag
// for each AES-GCM AEAD (crypto/cipher/e_aes.c and e_aesgcmsiv.c there).
TEST(CompatNames, EveryAeadReportsBoringSslProperties) {
  struct {
    const char *name;
    const EVP_AEAD *aead;
    size_t key_len, nonce_len, overhead, max_tag_len;
  } aeads[] = {
      {"EVP_aead_aes_128_gcm", EVP_aead_aes_128_gcm(), 16, 12, 16, 16},
      {"EVP_aead_aes_192_gcm", EVP_aead_aes_192_gcm(), 24, 12, 16, 16},
      {"EVP_aead_aes_256_gcm", EVP_aead_aes_256_gcm(), 32, 12, 16, 16},
      {"EVP_aead_aes_128_gcm_randnonce", EVP_aead_aes_128_gcm_randnonce(), 16,
       0, 28, 28},
      {"EVP_aead_aes_256_gcm_randnonce", EVP_aead_aes_256_gcm_randnonce(), 32,
       0, 28, 28},
      {"EVP_aead_aes_128_gcm_tls12", EVP_aead_aes_128_gcm_tls12(), 16, 12, 16,
       16},
      {"EVP_aead_aes_256_gcm_tls12", EVP_aead_aes_256_gcm_tls12(), 32, 12, 16,
       16},
      {"EVP_aead_aes_128_gcm_tls13", EVP_aead_aes_128_gcm_tls13(), 16, 12, 16,
       16},
      {"EVP_aead_aes_256_gcm_tls13", EVP_aead_aes_256_gcm_tls13(), 32, 12, 16,
       16},
      {"EVP_aead_aes_128_gcm_siv", EVP_aead_aes_128_gcm_siv(), 16, 12, 16, 16},
      {"EVP_aead_aes_256_gcm_siv", EVP_aead_aes_256_gcm_siv(), 32, 12, 16, 16},
  };
  std::set<const EVP_AEAD *> distinct;
  for (const auto &a : aeads) {
    SCOPED_TRACE(a.name);
    ASSERT_NE(nullptr, a.aead);
    distinct.insert(a.aead);
    EXPECT_EQ(a.key_len, EVP_AEAD_key_length(a.aead));
    EXPECT_EQ(a.nonce_len, EVP_AEAD_nonce_length(a.aead));
    EXPECT_EQ(a.overhead, EVP_AEAD_max_overhead(a.aead));
    EXPECT_EQ(a.max_tag_len, EVP_AEAD_max_tag_len(a.aead));
    EXPECT_LE(EVP_AEAD_key_length(a.aead), size_t{EVP_AEAD_MAX_KEY_LENGTH});
    EXPECT_LE(EVP_AEAD_nonce_length(a.aead), size_t{EVP_AEAD_MAX_NONCE_LENGTH});
    EXPECT_LE(EVP_AEAD_max_overhead(a.aead), size_t{EVP_AEAD_MAX_OVERHEAD});
  }
  EXPECT_EQ(sizeof(aeads) / sizeof(aeads[0]), distinct.size());

  const int hw = EVP_has_aes_hardware();
  EXPECT_TRUE(hw == 0 || hw == 1) << hw;
}

}  // namespace
