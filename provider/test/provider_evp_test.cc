// provider/test/provider_evp_test.cc: libgcm's OpenSSL provider driven the
// way OpenSSL programs drive it, through EVP, in a library context that
// loads the module from the build tree.
//
//   provider_evp_test MODULE_DIR SECTION [VECTOR_FILE...]
//
// Sections (one ctest entry each):
//   vectors   every case of every vector file given: seal and open through
//             EVP_CIPHER_fetch(libctx, "AES-<n>-GCM", "provider=libgcm"),
//             one-piece and in random chunks; invalid cases must be refused
//   stream    random chunkings, every tag length 1..16, IV lengths 1..80,
//             a flipped bit in each field, IV given before or after the key,
//             new IV on the same key, dupctx mid-message, the parameters
//             provider-cipher(7) lists, and the provider's counters
//   diff      differential against OpenSSL's default provider on random
//             inputs: byte-for-byte equal ciphertext and tags, each side
//             opening the other's messages
//   tls12     the TLS 1.2 record-layer parameters (tlsivfixed, tlsaad,
//             tlsivgen, tlsivinv, EVP_Cipher on a whole record) against the
//             default provider, and a forged record left zeroed
//   siv       AES-128-GCM-SIV and AES-256-GCM-SIV (fetched by OpenSSL
//             3.2's names): every case of the AES-GCM-SIV vector files
//             given, the algorithm's parameters, the empty message, the
//             one-update rule, the tag set before the data, a wrong tag
//             failing with zeroed output, dupctx, `speed`, the counters,
//             and OpenSSL's own AES-GCM-SIV where it has one (3.2 and up)
//   params    the parameter lists of every cipher (names, types, order),
//             the algorithm's values, and the context parameters the
//             ciphers share: keylen,
//             ivlen, taglen, the backend names, keylen refused but at its
//             own value, unknown names ignored
//   backends  the cipher context reports the backends LIBGCM_EXPECT_PAIR
//             ("aes/ghash") names, so LIBGCM_AES / LIBGCM_GHASH /
//             OPENSSL_ia32cap reach libgcm inside an OpenSSL program
//   badenv    with LIBGCM_AES or LIBGCM_GHASH naming a backend libgcm does
//             not have, loading the provider fails and OpenSSL's error
//             queue names the backend (LIBGCM_EXPECT_ENV_ERROR)
//   badpath   a module directory without libgcm.so: loading fails, and no
//             cipher with provider=libgcm can be fetched
//
// Exit status: 0 pass, 1 fail, 77 skipped (no vector files, when allowed).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "vector_file.h"

namespace {

using Bytes = std::vector<uint8_t>;

int g_failures = 0;

#define CHECK(cond, ...)                                       \
  do {                                                         \
    if (!(cond)) {                                             \
      g_failures++;                                            \
      if (g_failures <= 25) {                                  \
        std::fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__,     \
                     __LINE__, #cond);                         \
        std::fprintf(stderr, __VA_ARGS__);                     \
        std::fprintf(stderr, "\n");                            \
        ERR_print_errors_fp(stderr);                           \
      }                                                        \
    }                                                          \
  } while (0)

OSSL_LIB_CTX *g_libctx = nullptr;
OSSL_PROVIDER *g_libgcm = nullptr;
OSSL_PROVIDER *g_default = nullptr;

const char *CipherName(size_t keylen) {
  switch (keylen) {
    case 16: return "AES-128-GCM";
    case 24: return "AES-192-GCM";
    case 32: return "AES-256-GCM";
    default: return nullptr;
  }
}

// The ciphers of one provider, by key length.
struct Ciphers {
  EVP_CIPHER *c[3] = {nullptr, nullptr, nullptr};
  const EVP_CIPHER *For(size_t keylen) const {
    switch (keylen) {
      case 16: return c[0];
      case 24: return c[1];
      case 32: return c[2];
      default: return nullptr;
    }
  }
  bool Fetch(const char *propq) {
    const size_t lens[3] = {16, 24, 32};
    for (int i = 0; i < 3; i++) {
      c[i] = EVP_CIPHER_fetch(g_libctx, CipherName(lens[i]), propq);
      if (c[i] == nullptr) return false;
    }
    return true;
  }
  ~Ciphers() {
    for (EVP_CIPHER *x : c) EVP_CIPHER_free(x);
  }
};

// Splits n bytes into random pieces (one piece when rng is null).
std::vector<size_t> Chunks(size_t n, std::mt19937_64 *rng) {
  std::vector<size_t> out;
  if (rng == nullptr) {
    out.push_back(n);
    return out;
  }
  while (n > 0) {
    size_t max = (*rng)() % 4 == 0 ? 200 : 40;
    size_t k = 1 + (*rng)() % max;
    if (k > n) k = n;
    out.push_back(k);
    n -= k;
  }
  if ((*rng)() % 3 == 0) out.push_back(0);  // a zero-length update
  return out;
}

// How a message is fed: IV before or with the key, and in what pieces.
struct Feed {
  std::mt19937_64 *rng = nullptr;  // random chunks when set
  bool iv_after_key = false;       // init(key) then init(iv)
};

bool Init(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *c, int enc, const Bytes &key,
          const Bytes &iv, const Feed &f) {
  if (!EVP_CipherInit_ex2(ctx, c, nullptr, nullptr, enc, nullptr)) return false;
  if (iv.empty()) return false;
  if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN,
                          static_cast<int>(iv.size()), nullptr) <= 0)
    return false;
  if (f.iv_after_key) {
    if (!EVP_CipherInit_ex2(ctx, nullptr, key.data(), nullptr, enc, nullptr))
      return false;
    return EVP_CipherInit_ex2(ctx, nullptr, nullptr, iv.data(), enc, nullptr);
  }
  return EVP_CipherInit_ex2(ctx, nullptr, key.data(), iv.data(), enc, nullptr);
}

bool FeedAad(EVP_CIPHER_CTX *ctx, const Bytes &aad, const Feed &f) {
  size_t off = 0;
  for (size_t n : Chunks(aad.size(), f.rng)) {
    int outl = 0;
    if (!EVP_CipherUpdate(ctx, nullptr, &outl, aad.data() + off,
                          static_cast<int>(n)))
      return false;
    off += n;
  }
  return true;
}

bool FeedData(EVP_CIPHER_CTX *ctx, const Bytes &in, Bytes *out,
              const Feed &f) {
  out->assign(in.size(), 0);
  size_t off = 0;
  for (size_t n : Chunks(in.size(), f.rng)) {
    int outl = -1;
    if (!EVP_CipherUpdate(ctx, out->data() + off, &outl, in.data() + off,
                          static_cast<int>(n)))
      return false;
    if (static_cast<size_t>(outl) != n) return false;
    off += n;
  }
  return true;
}

// Seals through EVP; the tag is `taglen` bytes.
bool Seal(const EVP_CIPHER *c, const Bytes &key, const Bytes &iv,
          const Bytes &aad, const Bytes &pt, size_t taglen, Bytes *ct,
          Bytes *tag, const Feed &f = Feed()) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  bool ok = ctx != nullptr && Init(ctx, c, 1, key, iv, f) &&
            FeedAad(ctx, aad, f) && FeedData(ctx, pt, ct, f);
  int outl = -1;
  uint8_t fin[16];
  ok = ok && EVP_CipherFinal_ex(ctx, fin, &outl) && outl == 0;
  tag->assign(taglen, 0);
  ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
                                 static_cast<int>(taglen), tag->data()) > 0;
  EVP_CIPHER_CTX_free(ctx);
  return ok;
}

// Finishes a message on a context that has its key and IV: the AAD and the
// plaintext in one update each, final, and the 16-byte tag into `tag`.
bool FinishSeal(EVP_CIPHER_CTX *ctx, const Bytes &aad, const Bytes &pt,
                Bytes *ct, uint8_t tag[16]) {
  int outl;
  ct->assign(pt.size(), 0);
  return EVP_EncryptUpdate(ctx, nullptr, &outl, aad.data(),
                           static_cast<int>(aad.size())) &&
         EVP_EncryptUpdate(ctx, ct->data(), &outl, pt.data(),
                           static_cast<int>(pt.size())) &&
         EVP_EncryptFinal_ex(ctx, ct->data(), &outl) &&
         EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
}

// Opens through EVP: true only when every step and the tag check succeed.
bool Open(const EVP_CIPHER *c, const Bytes &key, const Bytes &iv,
          const Bytes &aad, const Bytes &ct, const Bytes &tag, Bytes *pt,
          const Feed &f = Feed()) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  bool ok = ctx != nullptr && Init(ctx, c, 0, key, iv, f) && !tag.empty() &&
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                static_cast<int>(tag.size()),
                                const_cast<uint8_t *>(tag.data())) > 0 &&
            FeedAad(ctx, aad, f) && FeedData(ctx, ct, pt, f);
  int outl = -1;
  uint8_t fin[16];
  ok = ok && EVP_CipherFinal_ex(ctx, fin, &outl) > 0 && outl == 0;
  EVP_CIPHER_CTX_free(ctx);
  ERR_clear_error();
  return ok;
}

Bytes Random(std::mt19937_64 &rng, size_t n) {
  Bytes b(n);
  for (auto &x : b) x = static_cast<uint8_t>(rng());
  return b;
}

std::string Hex(const Bytes &b) {
  static const char d[] = "0123456789abcdef";
  std::string s;
  for (uint8_t x : b) {
    s += d[x >> 4];
    s += d[x & 15];
  }
  return s;
}

uint64_t ProviderCounter(const char *name) {
  uint64_t v = 0;
  OSSL_PARAM p[2] = {OSSL_PARAM_construct_uint64(name, &v),
                     OSSL_PARAM_construct_end()};
  if (!OSSL_PROVIDER_get_params(g_libgcm, p)) return UINT64_MAX;
  return v;
}

std::string CtxString(EVP_CIPHER_CTX *ctx, const char *name) {
  char *s = nullptr;
  OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_ptr(name, &s, 0),
                     OSSL_PARAM_construct_end()};
  if (!EVP_CIPHER_CTX_get_params(ctx, p) || s == nullptr) return "<none>";
  return s;
}

// ---- vectors ---------------------------------------------------------------

int RunVectors(const std::vector<std::string> &files) {
  Ciphers gcm;
  CHECK(gcm.Fetch("provider=libgcm"), "fetch libgcm ciphers");
  if (g_failures) return 1;
  std::mt19937_64 rng(0x1234);
  size_t files_read = 0, valid = 0, invalid = 0, skipped = 0;
  for (const std::string &path : files) {
    std::vector<gcmvec::VectorCase> cases;
    std::string error;
    if (!gcmvec::ReadVectorFile(path, &cases, &error)) {
      if (std::getenv("LIBGCM_REQUIRE_VECTORS") != nullptr ||
          path.find("openssl_generated") != std::string::npos) {
        CHECK(false, "%s", error.c_str());
      } else {
        std::fprintf(stderr, "skipping %s: %s\n", path.c_str(), error.c_str());
      }
      continue;
    }
    files_read++;
    for (const auto &v : cases) {
      const EVP_CIPHER *c = gcm.For(v.key.size());
      if (c == nullptr) {
        // Not an AES key length: OpenSSL's AES-GCM cannot even be asked.
        CHECK(!v.valid, "%s: valid case with a %zu-byte key", v.Where().c_str(),
              v.key.size());
        skipped++;
        continue;
      }
      Bytes ct, tag, pt;
      if (v.valid) {
        valid++;
        Feed whole, chunked;
        chunked.rng = &rng;
        chunked.iv_after_key = (rng() & 1) != 0;
        for (const Feed *f : {&whole, &chunked}) {
          bool sealed = Seal(c, v.key, v.nonce, v.aad, v.pt, v.tag.size(), &ct,
                             &tag, *f);
          CHECK(sealed && ct == v.ct && tag == v.tag, "%s: seal gives %s / %s",
                v.Where().c_str(), Hex(ct).c_str(), Hex(tag).c_str());
          bool opened = Open(c, v.key, v.nonce, v.aad, v.ct, v.tag, &pt, *f);
          CHECK(opened && pt == v.pt, "%s: open", v.Where().c_str());
        }
      } else {
        invalid++;
        bool opened = Open(c, v.key, v.nonce, v.aad, v.ct, v.tag, &pt);
        CHECK(!opened, "%s: invalid case opened", v.Where().c_str());
      }
    }
  }
  std::printf("vectors: %zu files, %zu valid, %zu invalid, %zu with non-AES keys\n",
              files_read, valid, invalid, skipped);
  if (files_read == 0) {
    if (std::getenv("LIBGCM_REQUIRE_VECTORS") != nullptr) {
      CHECK(false, "no vector file could be read");
    } else {
      return 77;
    }
  }
  return g_failures ? 1 : 0;
}

// ---- stream ----------------------------------------------------------------

int RunStream() {
  Ciphers gcm, ref;
  CHECK(gcm.Fetch("provider=libgcm") && ref.Fetch("provider=default"),
        "fetch ciphers");
  if (g_failures) return 1;
  std::mt19937_64 rng(0x5eed);
  const uint64_t seals0 = ProviderCounter("libgcm-seal-count");
  const uint64_t opens0 = ProviderCounter("libgcm-open-count");
  const uint64_t fails0 = ProviderCounter("libgcm-open-fail-count");
  uint64_t seals = 0, opens = 0, fails = 0;

  // Algorithm parameters.
  for (size_t kl : {16, 24, 32}) {
    const EVP_CIPHER *c = gcm.For(kl);
    CHECK(EVP_CIPHER_get_key_length(c) == static_cast<int>(kl), "keylen");
    CHECK(EVP_CIPHER_get_iv_length(c) == 12, "ivlen");
    CHECK(EVP_CIPHER_get_block_size(c) == 1, "blocksize");
    CHECK(EVP_CIPHER_get_mode(c) == EVP_CIPH_GCM_MODE, "mode");
    CHECK((EVP_CIPHER_get_flags(c) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0, "aead");
    CHECK((EVP_CIPHER_get_flags(c) & EVP_CIPH_CUSTOM_IV) != 0, "custom-iv");
    CHECK(std::strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)),
                      "libgcm") == 0, "provider name");
  }
  // The aliases fetch the same implementation.
  for (const char *alias : {"id-aes128-GCM", "id-aes192-GCM", "id-aes256-GCM",
                            "aes-128-gcm", "2.16.840.1.101.3.4.1.46"}) {
    EVP_CIPHER *c = EVP_CIPHER_fetch(g_libctx, alias, "provider=libgcm");
    CHECK(c != nullptr, "fetch %s", alias);
    EVP_CIPHER_free(c);
  }

  for (int iter = 0; iter < 3000; iter++) {
    size_t kl = 16 + 8 * (rng() % 3);
    size_t ivlen = iter % 5 == 0 ? 1 + rng() % 80 : 12;
    size_t taglen = 1 + iter % 16;
    Bytes key = Random(rng, kl), iv = Random(rng, ivlen);
    Bytes aad = Random(rng, rng() % 70), pt = Random(rng, rng() % 600);
    Feed f;
    f.rng = &rng;
    f.iv_after_key = (iter & 1) != 0;
    Bytes ct, tag, rct, rtag, out;
    CHECK(Seal(gcm.For(kl), key, iv, aad, pt, taglen, &ct, &tag, f),
          "seal iter %d", iter);
    seals++;
    CHECK(Seal(ref.For(kl), key, iv, aad, pt, taglen, &rct, &rtag),
          "reference seal iter %d", iter);
    CHECK(ct == rct && tag == rtag, "iter %d: differs from OpenSSL", iter);
    CHECK(Open(gcm.For(kl), key, iv, aad, ct, tag, &out, f) && out == pt,
          "open iter %d", iter);
    opens++;
    // One flipped bit in each field must fail the tag check.
    if (iter % 10 == 0) {
      Bytes *fields[4] = {&ct, &aad, &iv, &tag};
      const char *names[4] = {"ciphertext", "aad", "iv", "tag"};
      for (int fi = 0; fi < 4; fi++) {
        Bytes &fld = *fields[fi];
        if (fld.empty()) continue;
        size_t bit = rng() % (fld.size() * 8);
        fld[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
        CHECK(!Open(gcm.For(kl), key, iv, aad, ct, tag, &out, f),
              "iter %d: flipped bit in the %s accepted", iter, names[fi]);
        fails++;
        fld[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      }
    }
  }

  // One context: many messages on one key with a new IV each time (as
  // TLS 1.3 does), a tag readable at any length, dupctx mid-message.
  {
    Bytes key = Random(rng, 16);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    CHECK(EVP_EncryptInit_ex2(ctx, gcm.For(16), key.data(), nullptr, nullptr),
          "init with key only");
    int outl = 0;
    uint8_t buf[64];
    CHECK(!EVP_EncryptUpdate(ctx, buf, &outl, buf, 16),
          "update without an IV must fail");
    ERR_clear_error();
    std::string aes = CtxString(ctx, "libgcm-aes-backend");
    std::string ghash = CtxString(ctx, "libgcm-ghash-backend");
    CHECK(aes != "<none>" && aes != "none" && ghash != "<none>" && ghash != "none",
          "backend params: %s/%s", aes.c_str(), ghash.c_str());
    for (int m = 0; m < 50; m++) {
      Bytes iv = Random(rng, 12), aad = Random(rng, 13), pt = Random(rng, 100);
      CHECK(EVP_EncryptInit_ex2(ctx, nullptr, nullptr, iv.data(), nullptr),
            "new IV");
      Bytes ct(pt.size());
      CHECK(EVP_EncryptUpdate(ctx, nullptr, &outl, aad.data(), 13), "aad");
      CHECK(EVP_EncryptUpdate(ctx, ct.data(), &outl, pt.data(), 37), "update");
      // dupctx halfway: both copies finish the message the same way.
      EVP_CIPHER_CTX *dup = EVP_CIPHER_CTX_new();
      CHECK(EVP_CIPHER_CTX_copy(dup, ctx), "copy");
      Bytes ct2 = ct;
      CHECK(EVP_EncryptUpdate(ctx, ct.data() + 37, &outl, pt.data() + 37, 63),
            "update");
      CHECK(EVP_EncryptFinal_ex(ctx, buf, &outl), "final");
      CHECK(EVP_EncryptUpdate(dup, ct2.data() + 37, &outl, pt.data() + 37, 63),
            "dup update");
      CHECK(EVP_EncryptFinal_ex(dup, buf, &outl), "dup final");
      uint8_t tag[16], tag2[16];
      CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0, "tag");
      CHECK(EVP_CIPHER_CTX_ctrl(dup, EVP_CTRL_AEAD_GET_TAG, 16, tag2) > 0, "tag");
      CHECK(ct == ct2 && std::memcmp(tag, tag2, 16) == 0, "dup differs");
      EVP_CIPHER_CTX_free(dup);
      seals += 2;
      Bytes rct, rtag;
      CHECK(Seal(ref.For(16), key, iv, aad, pt, 16, &rct, &rtag) && rct == ct &&
                std::memcmp(rtag.data(), tag, 16) == 0,
            "reused context differs from OpenSSL at message %d", m);
      uint8_t tag5[5];
      CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 5, tag5) > 0 &&
                std::memcmp(tag5, tag, 5) == 0, "truncated tag");
      // After final, more data needs a new IV.
      CHECK(!EVP_EncryptUpdate(ctx, buf, &outl, buf, 16),
            "update after final must fail");
      ERR_clear_error();
    }
    size_t taglen = 0, ivlen = 0, keylen = 0;
    OSSL_PARAM gp[4] = {
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, &taglen),
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen),
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen),
        OSSL_PARAM_construct_end()};
    CHECK(EVP_CIPHER_CTX_get_params(ctx, gp) && taglen == 16 && ivlen == 12 &&
              keylen == 16, "ctx params %zu %zu %zu", taglen, ivlen, keylen);
    // Wrong key length and empty IV are refused.
    CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 0, nullptr) <= 0,
          "ivlen 0 accepted");
    uint8_t tag17[17] = {0};
    CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 17, tag17) <= 0,
          "17-byte tag accepted");
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
  }

  // AAD after data is refused.
  {
    Bytes key = Random(rng, 32), iv = Random(rng, 12);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    uint8_t buf[32] = {0};
    int outl;
    CHECK(EVP_EncryptInit_ex2(ctx, gcm.For(32), key.data(), iv.data(), nullptr),
          "init");
    CHECK(EVP_EncryptUpdate(ctx, buf, &outl, buf, 16), "data");
    CHECK(!EVP_EncryptUpdate(ctx, nullptr, &outl, buf, 16), "AAD after data");
    ERR_clear_error();
    // Decrypting without a tag fails at final.
    CHECK(EVP_DecryptInit_ex2(ctx, gcm.For(32), key.data(), iv.data(), nullptr),
          "init");
    CHECK(EVP_DecryptUpdate(ctx, buf, &outl, buf, 16), "data");
    CHECK(!EVP_DecryptFinal_ex(ctx, buf, &outl), "final without a tag");
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
  }

  // Re-keying one context: the same key again keeps its expansion (set_key's
  // shortcut), a different key (even one differing in the last byte only)
  // must replace it, and a duplicate keeps the key it was made with. Every
  // message is checked against OpenSSL's default provider.
  for (size_t kl : {16, 32}) {
    Bytes a = Random(rng, kl), b = a, iv = Random(rng, 12), aad = Random(rng, 13);
    b[kl - 1] ^= 1;
    const Bytes pt = Random(rng, 37);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    EVP_CIPHER_CTX *dup = nullptr;
    const Bytes *order[] = {&a, &a, &b, &b, &a};
    for (size_t m = 0; m < 5; m++) {
      const Bytes &key = *order[m];
      Bytes ct(pt.size());
      uint8_t tag[16];
      iv[0] = static_cast<uint8_t>(m);
      // After the first message no cipher is passed, so EVP keeps the
      // provider context and hands it the key again.
      CHECK(EVP_EncryptInit_ex2(ctx, m == 0 ? gcm.For(kl) : nullptr, key.data(),
                                iv.data(), nullptr) &&
                FinishSeal(ctx, aad, pt, &ct, tag),
            "re-key seal %zu", m);
      seals++;
      Bytes rct, rtag;
      CHECK(Seal(ref.For(kl), key, iv, aad, pt, 16, &rct, &rtag) && rct == ct &&
                std::memcmp(rtag.data(), tag, 16) == 0,
            "re-keyed context (key %s, message %zu) differs from OpenSSL",
            &key == &a ? "a" : "b", m);
      if (m == 1) {  // a copy holding key a
        dup = EVP_CIPHER_CTX_new();
        if (dup != nullptr && !EVP_CIPHER_CTX_copy(dup, ctx)) {
          EVP_CIPHER_CTX_free(dup);
          dup = nullptr;
        }
      }
    }
    // The duplicate, re-initialised with only a new IV, still seals with a.
    CHECK(dup != nullptr, "dup");
    if (dup != nullptr) {
      Bytes ct(pt.size());
      uint8_t tag[16];
      iv[0] = 9;
      CHECK(EVP_EncryptInit_ex2(dup, nullptr, nullptr, iv.data(), nullptr) &&
                FinishSeal(dup, aad, pt, &ct, tag),
            "dup seal");
      seals++;
      Bytes rct, rtag;
      CHECK(Seal(ref.For(kl), a, iv, aad, pt, 16, &rct, &rtag) && rct == ct &&
                std::memcmp(rtag.data(), tag, 16) == 0,
            "duplicate lost its key after the original was re-keyed");
      EVP_CIPHER_CTX_free(dup);
    }
    EVP_CIPHER_CTX_free(ctx);
  }

  // IV lengths changing on one context, across the 16 bytes a context keeps
  // inline (longer IVs live in a buffer of their own), each message made by
  // a duplicate taken while the IV is buffered and the original freed
  // before the duplicate uses it: the duplicate must hold its own IV, not
  // the original's (freed and wiped by then). Checked against OpenSSL's
  // default provider.
  {
    Bytes key = Random(rng, 16), aad = Random(rng, 20), pt = Random(rng, 50);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    CHECK(EVP_EncryptInit_ex2(ctx, gcm.For(16), key.data(), nullptr, nullptr),
          "init with key only");
    for (size_t ivlen : {12, 60, 12, 17, 128, 1, 16, 100}) {
      Bytes iv = Random(rng, ivlen), ct(pt.size());
      uint8_t tag[16];
      CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN,
                                static_cast<int>(ivlen), nullptr) > 0 &&
                EVP_EncryptInit_ex2(ctx, nullptr, nullptr, iv.data(), nullptr),
            "a %zu-byte IV", ivlen);
      EVP_CIPHER_CTX *dup = EVP_CIPHER_CTX_new();
      CHECK(dup != nullptr && EVP_CIPHER_CTX_copy(dup, ctx), "copy");
      if (dup == nullptr) break;
      EVP_CIPHER_CTX_free(ctx);
      ctx = dup;
      CHECK(FinishSeal(ctx, aad, pt, &ct, tag), "seal with a %zu-byte IV", ivlen);
      seals++;
      Bytes rct, rtag;
      CHECK(Seal(ref.For(16), key, iv, aad, pt, 16, &rct, &rtag) && rct == ct &&
                std::memcmp(rtag.data(), tag, 16) == 0,
            "duplicate with a %zu-byte IV differs from OpenSSL", ivlen);
    }
    EVP_CIPHER_CTX_free(ctx);
  }

  const uint64_t dseal = ProviderCounter("libgcm-seal-count") - seals0;
  const uint64_t dopen = ProviderCounter("libgcm-open-count") - opens0;
  const uint64_t dfail = ProviderCounter("libgcm-open-fail-count") - fails0;
  CHECK(dseal == seals && dopen == opens && dfail == fails,
        "counters: seal %llu (want %llu) open %llu (want %llu) fail %llu (want %llu)",
        (unsigned long long)dseal, (unsigned long long)seals,
        (unsigned long long)dopen, (unsigned long long)opens,
        (unsigned long long)dfail, (unsigned long long)fails);
  std::printf("stream: %llu seals, %llu opens, %llu refused forgeries\n",
              (unsigned long long)seals, (unsigned long long)opens,
              (unsigned long long)fails);
  return g_failures ? 1 : 0;
}

// ---- diff ------------------------------------------------------------------

int RunDiff() {
  Ciphers gcm, ref;
  CHECK(gcm.Fetch("provider=libgcm") && ref.Fetch("provider=default"),
        "fetch ciphers");
  if (g_failures) return 1;
  std::mt19937_64 rng(0xd1ff);
  int n = 0;
  for (int iter = 0; iter < 4000; iter++, n++) {
    size_t kl = 16 + 8 * (rng() % 3);
    size_t ivlen = rng() % 4 == 0 ? 1 + rng() % 128 : 12;
    size_t taglen = rng() % 3 == 0 ? 1 + rng() % 16 : 16;
    size_t ptlen = rng() % 8 == 0 ? rng() % 20000 : rng() % 300;
    Bytes key = Random(rng, kl), iv = Random(rng, ivlen);
    Bytes aad = Random(rng, rng() % 300), pt = Random(rng, ptlen);
    Feed fa, fb;
    fa.rng = &rng;
    fb.rng = (rng() & 1) ? &rng : nullptr;
    fa.iv_after_key = (rng() & 1) != 0;
    Bytes ct, tag, rct, rtag, out;
    CHECK(Seal(gcm.For(kl), key, iv, aad, pt, taglen, &ct, &tag, fa), "seal");
    CHECK(Seal(ref.For(kl), key, iv, aad, pt, taglen, &rct, &rtag, fb),
          "reference seal");
    CHECK(ct == rct && tag == rtag,
          "iter %d (key %zu, iv %zu, aad %zu, pt %zu, tag %zu) differs", iter,
          kl, ivlen, aad.size(), ptlen, taglen);
    CHECK(Open(ref.For(kl), key, iv, aad, ct, tag, &out, fb) && out == pt,
          "OpenSSL opens libgcm's message, iter %d", iter);
    CHECK(Open(gcm.For(kl), key, iv, aad, rct, rtag, &out, fa) && out == pt,
          "libgcm opens OpenSSL's message, iter %d", iter);
    if (g_failures > 25) break;
  }
  std::printf("diff: %d random messages equal byte for byte\n", n);
  return g_failures ? 1 : 0;
}

// ---- tls12 -----------------------------------------------------------------

// A TLS 1.2 record context set up the way libssl does it.
EVP_CIPHER_CTX *TlsCtx(const EVP_CIPHER *c, int enc, const Bytes &key,
                       const Bytes &salt) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  if (!EVP_CipherInit_ex(ctx, c, nullptr, key.data(), nullptr, enc) ||
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IV_FIXED,
                          static_cast<int>(salt.size()),
                          const_cast<uint8_t *>(salt.data())) <= 0) {
    EVP_CIPHER_CTX_free(ctx);
    return nullptr;
  }
  return ctx;
}

// Seals or opens one record in place: `rec` is explicit nonce || payload ||
// tag. Returns EVP_Cipher's result, or with `update` EVP_CipherUpdate's
// output length (libssl's way), or a negative number on failure. As in libssl, the header's length is the
// record's without the tag when sealing (the tag is not there yet) and the
// whole record's when opening.
int TlsRecord(EVP_CIPHER_CTX *ctx, uint64_t seq, Bytes *rec, bool update) {
  size_t len = rec->size() - (EVP_CIPHER_CTX_is_encrypting(ctx) ? 16 : 0);
  uint8_t aad[EVP_AEAD_TLS1_AAD_LEN];
  for (int i = 0; i < 8; i++) aad[i] = static_cast<uint8_t>(seq >> (56 - 8 * i));
  aad[8] = 23;
  aad[9] = 3;
  aad[10] = 3;
  aad[11] = static_cast<uint8_t>(len >> 8);
  aad[12] = static_cast<uint8_t>(len);
  int pad = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, sizeof(aad), aad);
  if (pad != EVP_GCM_TLS_TAG_LEN) return -100;
  if (update) {
    int outl = 0;
    if (!EVP_CipherUpdate(ctx, rec->data(), &outl, rec->data(),
                          static_cast<int>(rec->size())))
      return -1;
    return outl;
  }
  return EVP_Cipher(ctx, rec->data(), rec->data(), static_cast<unsigned>(rec->size()));
}

int RunTls12() {
  Ciphers gcm, ref;
  CHECK(gcm.Fetch("provider=libgcm") && ref.Fetch("provider=default"),
        "fetch ciphers");
  if (g_failures) return 1;
  std::mt19937_64 rng(0x7125);
  const uint64_t seals0 = ProviderCounter("libgcm-seal-count");
  const uint64_t opens0 = ProviderCounter("libgcm-open-count");
  int records = 0;
  for (size_t kl : {16, 32}) {
    Bytes key = Random(rng, kl), salt = Random(rng, 4);
    // libgcm seals, OpenSSL opens; then the other way round.
    for (int dir = 0; dir < 2; dir++) {
      const EVP_CIPHER *sc = dir == 0 ? gcm.For(kl) : ref.For(kl);
      const EVP_CIPHER *oc = dir == 0 ? ref.For(kl) : gcm.For(kl);
      EVP_CIPHER_CTX *s = TlsCtx(sc, 1, key, salt);
      EVP_CIPHER_CTX *o = TlsCtx(oc, 0, key, salt);
      CHECK(s != nullptr && o != nullptr, "record contexts");
      if (s == nullptr || o == nullptr) return 1;
      Bytes prev_nonce;
      for (uint64_t seq = 0; seq < 200; seq++) {
        size_t plen = seq % 7 == 0 ? rng() % 16385 : rng() % 200;
        Bytes pt = Random(rng, plen);
        Bytes rec(8 + plen + 16, 0);
        if (plen != 0) std::memcpy(rec.data() + 8, pt.data(), plen);
        // Half the records go through EVP_Cipher, half through
        // EVP_CipherUpdate as libssl sends them.
        const bool update = (seq & 1) != 0;
        int n = TlsRecord(s, seq, &rec, update);
        CHECK(n == static_cast<int>(rec.size()), "seal record %llu: %d",
              (unsigned long long)seq, n);
        Bytes nonce(rec.begin(), rec.begin() + 8);
        CHECK(nonce != prev_nonce, "explicit nonce repeated");
        prev_nonce = nonce;
        Bytes sealed = rec;
        n = TlsRecord(o, seq, &rec, update);
        // Both providers report the whole record through EVP_Cipher and the
        // payload through EVP_CipherUpdate.
        CHECK(n == static_cast<int>(update ? plen : rec.size()) &&
                  (plen == 0 || std::memcmp(rec.data() + 8, pt.data(), plen) == 0),
              "open record %llu: %d", (unsigned long long)seq, n);
        records++;
        // A forged record: refused, and libgcm leaves nothing behind.
        if (seq % 20 == 0) {
          Bytes forged = sealed;
          size_t bit = rng() % (forged.size() * 8);
          forged[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
          n = TlsRecord(o, seq, &forged, update);
          CHECK(n <= 0, "forged record accepted");
          if (oc == gcm.For(kl)) {
            // libgcm opened it: nothing of the forged record is left.
            bool zero = true;
            for (uint8_t x : forged) zero = zero && x == 0;
            CHECK(zero, "forged record not zeroed");
          }
          ERR_clear_error();
        }
      }
      EVP_CIPHER_CTX_free(s);
      EVP_CIPHER_CTX_free(o);
    }
  }
  // tlsivgen / tlsivinv: the explicit nonce handed out and taken back.
  {
    Bytes key = Random(rng, 16), salt = Random(rng, 4);
    EVP_CIPHER_CTX *s = TlsCtx(gcm.For(16), 1, key, salt);
    EVP_CIPHER_CTX *o = TlsCtx(ref.For(16), 0, key, salt);
    CHECK(s != nullptr && o != nullptr, "contexts");
    for (int i = 0; i < 5; i++) {
      uint8_t explicit_iv[8];
      CHECK(EVP_CIPHER_CTX_ctrl(s, EVP_CTRL_GCM_IV_GEN, 8, explicit_iv) > 0,
            "tlsivgen");
      Bytes aad = Random(rng, 13), pt = Random(rng, 77), ct(77);
      int outl;
      CHECK(EVP_EncryptUpdate(s, nullptr, &outl, aad.data(), 13), "aad");
      CHECK(EVP_EncryptUpdate(s, ct.data(), &outl, pt.data(), 77), "data");
      CHECK(EVP_EncryptFinal_ex(s, nullptr, &outl), "final");
      uint8_t tag[16];
      CHECK(EVP_CIPHER_CTX_ctrl(s, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0, "tag");
      CHECK(EVP_CIPHER_CTX_ctrl(o, EVP_CTRL_GCM_SET_IV_INV, 8, explicit_iv) > 0,
            "tlsivinv");
      CHECK(EVP_CIPHER_CTX_ctrl(o, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0, "tag");
      Bytes out(77);
      CHECK(EVP_DecryptUpdate(o, nullptr, &outl, aad.data(), 13), "aad");
      CHECK(EVP_DecryptUpdate(o, out.data(), &outl, ct.data(), 77), "data");
      CHECK(EVP_DecryptFinal_ex(o, nullptr, &outl) > 0 && out == pt,
            "OpenSSL opens a tlsivgen message");
    }
    EVP_CIPHER_CTX_free(s);
    EVP_CIPHER_CTX_free(o);
  }
  CHECK(ProviderCounter("libgcm-seal-count") - seals0 >= 400 &&
            ProviderCounter("libgcm-open-count") - opens0 >= 400,
        "libgcm sealed and opened the records");
  std::printf("tls12: %d records each way\n", records);
  return g_failures ? 1 : 0;
}

// ---- AES-GCM-SIV ---------------------------------------------------------------

// Seals one message: key and IV at init, the AAD in `aad_pieces` updates,
// the plaintext in one update, final, and the 16-byte tag.
bool SivSeal(const EVP_CIPHER *c, const Bytes &key, const Bytes &iv,
             const Bytes &aad, const Bytes &pt, Bytes *ct, Bytes *tag,
             size_t aad_pieces = 1) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  bool ok = ctx != nullptr &&
            EVP_EncryptInit_ex2(ctx, c, key.data(), iv.data(), nullptr);
  int outl = 0;
  for (size_t i = 0, off = 0; ok && i < aad_pieces; i++) {
    size_t n = i + 1 == aad_pieces ? aad.size() - off : aad.size() / aad_pieces;
    ok = EVP_EncryptUpdate(ctx, nullptr, &outl, aad.data() + off,
                           static_cast<int>(n));
    off += n;
  }
  ct->assign(pt.size(), 0);
  if (ok && !pt.empty()) {
    ok = EVP_EncryptUpdate(ctx, ct->data(), &outl, pt.data(),
                           static_cast<int>(pt.size())) &&
         static_cast<size_t>(outl) == pt.size();
  }
  uint8_t fin[16];
  ok = ok && EVP_EncryptFinal_ex(ctx, fin, &outl) && outl == 0;
  tag->assign(16, 0);
  ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16,
                                 tag->data()) > 0;
  EVP_CIPHER_CTX_free(ctx);
  return ok;
}

// Opens one message: the tag first, then the AAD and the ciphertext in one
// update each. True only when the data update and final both succeed;
// *pt holds what the data update wrote.
bool SivOpen(const EVP_CIPHER *c, const Bytes &key, const Bytes &iv,
             const Bytes &aad, const Bytes &ct, const Bytes &tag, Bytes *pt) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int outl = 0;
  pt->assign(ct.size(), 0xa5);
  bool ok = ctx != nullptr &&
            EVP_DecryptInit_ex2(ctx, c, key.data(), iv.data(), nullptr) &&
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
                                static_cast<int>(tag.size()),
                                const_cast<uint8_t *>(tag.data())) > 0 &&
            EVP_DecryptUpdate(ctx, nullptr, &outl, aad.data(),
                              static_cast<int>(aad.size()));
  if (ok && !ct.empty()) {
    ok = EVP_DecryptUpdate(ctx, pt->data(), &outl, ct.data(),
                           static_cast<int>(ct.size()));
  }
  uint8_t fin[16];
  ok = ok && EVP_DecryptFinal_ex(ctx, fin, &outl) > 0;
  EVP_CIPHER_CTX_free(ctx);
  ERR_clear_error();
  return ok;
}

bool AllZeroBytes(const Bytes &b) {
  for (uint8_t x : b)
    if (x != 0) return false;
  return true;
}

int RunSiv(const std::vector<std::string> &files) {
  EVP_CIPHER *siv[2] = {
      EVP_CIPHER_fetch(g_libctx, "AES-128-GCM-SIV", "provider=libgcm"),
      EVP_CIPHER_fetch(g_libctx, "AES-256-GCM-SIV", "provider=libgcm")};
  CHECK(siv[0] != nullptr && siv[1] != nullptr, "fetch AES-GCM-SIV");
  if (g_failures) return 1;
  auto For = [&](size_t keylen) { return siv[keylen == 32 ? 1 : 0]; };

  // The algorithm, as OpenSSL 3.2 describes AES-GCM-SIV; and a fetch by
  // name alone finds one (on OpenSSL 3.0, only this provider has it).
  for (size_t kl : {16, 32}) {
    const EVP_CIPHER *c = For(kl);
    CHECK(EVP_CIPHER_get_mode(c) == 0x10005, "mode %lx",
          static_cast<unsigned long>(EVP_CIPHER_get_mode(c)));
    CHECK(EVP_CIPHER_get_key_length(c) == static_cast<int>(kl), "keylen");
    CHECK(EVP_CIPHER_get_iv_length(c) == 12, "ivlen");
    CHECK(EVP_CIPHER_get_block_size(c) == 1, "block size");
    CHECK((EVP_CIPHER_get_flags(c) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0, "AEAD");
  }
  EVP_CIPHER *any = EVP_CIPHER_fetch(g_libctx, "AES-256-GCM-SIV", nullptr);
  CHECK(any != nullptr, "fetch AES-256-GCM-SIV by name alone");
  EVP_CIPHER_free(any);

  // The vector files.
  size_t valid = 0, invalid = 0, read = 0;
  for (const std::string &path : files) {
    std::vector<gcmvec::VectorCase> cases;
    std::string error;
    if (!gcmvec::ReadVectorFile(path, &cases, &error)) {
      CHECK(std::getenv("LIBGCM_REQUIRE_VECTORS") == nullptr, "%s",
            error.c_str());
      continue;
    }
    read++;
    for (const auto &v : cases) {
      CHECK(v.key.size() == 16 || v.key.size() == 32, "%s: key length",
            v.Where().c_str());
      const EVP_CIPHER *c = For(v.key.size());
      Bytes ct, tag, pt;
      if (v.valid) {
        valid++;
        for (size_t pieces : {1, 3}) {
          CHECK(SivSeal(c, v.key, v.nonce, v.aad, v.pt, &ct, &tag, pieces) &&
                    ct == v.ct && tag == v.tag,
                "%s: seal gives %s / %s", v.Where().c_str(), Hex(ct).c_str(),
                Hex(tag).c_str());
        }
        CHECK(SivOpen(c, v.key, v.nonce, v.aad, v.ct, v.tag, &pt) && pt == v.pt,
              "%s: open", v.Where().c_str());
      } else {
        invalid++;
        CHECK(!SivOpen(c, v.key, v.nonce, v.aad, v.ct, v.tag, &pt) &&
                  AllZeroBytes(pt),
              "%s: invalid case opened or left output", v.Where().c_str());
      }
    }
  }
  std::printf("siv vectors: %zu files, %zu valid, %zu invalid\n", read, valid,
              invalid);
  if (read == 0 && std::getenv("LIBGCM_REQUIRE_VECTORS") != nullptr) {
    CHECK(false, "no AES-GCM-SIV vector file could be read");
  }

  // The empty message: final without a data update (RFC 8452, C.1).
  const Bytes k1 = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const Bytes n3 = {3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  Bytes ct, tag, pt;
  CHECK(SivSeal(For(16), k1, n3, {}, {}, &ct, &tag) &&
            Hex(tag) == "dc20e2d83f25705bb49e439eca56de25",
        "empty message: tag %s", Hex(tag).c_str());
  CHECK(SivOpen(For(16), k1, n3, {}, {}, tag, &pt), "empty message: open");

  std::mt19937_64 rng(8452);
  const uint64_t seals0 = ProviderCounter("libgcm-seal-count");
  const uint64_t opens0 = ProviderCounter("libgcm-open-count");
  const uint64_t fails0 = ProviderCounter("libgcm-open-fail-count");
  const Bytes key = Random(rng, 32), iv = Random(rng, 12);
  const Bytes aad = Random(rng, 40), msg = Random(rng, 300);
  int outl = 0;
  uint8_t fin[16];

  // One data update per message; the tag before the data when decrypting;
  // the tag readable (16 bytes) only after an encrypting final.
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  Bytes out(msg.size());
  CHECK(EVP_EncryptInit_ex2(ctx, For(32), key.data(), iv.data(), nullptr) &&
            EVP_EncryptUpdate(ctx, nullptr, &outl, aad.data(), 40) &&
            EVP_EncryptUpdate(ctx, out.data(), &outl, msg.data(), 300),
        "seal");
  CHECK(!EVP_EncryptUpdate(ctx, out.data(), &outl, msg.data(), 300),
        "a second data update was taken");
  CHECK(!EVP_EncryptUpdate(ctx, nullptr, &outl, aad.data(), 40),
        "AAD after the data was taken");
  uint8_t short_tag[12];
  CHECK(EVP_EncryptFinal_ex(ctx, fin, &outl) &&
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 12, short_tag) <= 0,
        "a 12-byte tag was handed out");
  ERR_clear_error();
  Bytes want_ct, want_tag;
  CHECK(SivSeal(For(32), key, iv, aad, msg, &want_ct, &want_tag) &&
            want_ct == out,
        "seal");
  CHECK(EVP_DecryptInit_ex2(ctx, For(32), key.data(), iv.data(), nullptr) &&
            !EVP_DecryptUpdate(ctx, out.data(), &outl, want_ct.data(), 300),
        "a decrypting data update ran without a tag");
  ERR_clear_error();

  // A wrong tag: the data update fails with the output zeroed, and so does
  // final.
  Bytes bad = want_tag;
  bad[5] ^= 0x20;
  std::fill(out.begin(), out.end(), 0xa5);
  CHECK(EVP_DecryptInit_ex2(ctx, For(32), key.data(), iv.data(), nullptr) &&
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, bad.data()) > 0 &&
            EVP_DecryptUpdate(ctx, nullptr, &outl, aad.data(), 40) &&
            !EVP_DecryptUpdate(ctx, out.data(), &outl, want_ct.data(), 300) &&
            AllZeroBytes(out) && EVP_DecryptFinal_ex(ctx, fin, &outl) <= 0,
        "a wrong tag was accepted or left output");
  ERR_clear_error();
  CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 15, bad.data()) <= 0,
        "a 15-byte tag was taken");
  ERR_clear_error();

  // dupctx after the AAD: both contexts finish the same message alike.
  CHECK(EVP_EncryptInit_ex2(ctx, For(32), key.data(), iv.data(), nullptr) &&
            EVP_EncryptUpdate(ctx, nullptr, &outl, aad.data(), 20),
        "seal start");
  EVP_CIPHER_CTX *copy = EVP_CIPHER_CTX_new();
  CHECK(EVP_CIPHER_CTX_copy(copy, ctx), "dupctx");
  for (EVP_CIPHER_CTX *x : {ctx, copy}) {
    Bytes o(300);
    uint8_t t[16];
    CHECK(EVP_EncryptUpdate(x, nullptr, &outl, aad.data() + 20, 20) &&
              EVP_EncryptUpdate(x, o.data(), &outl, msg.data(), 300) &&
              EVP_EncryptFinal_ex(x, fin, &outl) &&
              EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, t) > 0 &&
              o == want_ct && Bytes(t, t + 16) == want_tag,
          "a duplicated context sealed differently");
  }
  EVP_CIPHER_CTX_free(copy);

  // The copy shares the original's key block (a reference): it opens after
  // the original is freed, and re-keying one leaves the other's key alone.
  {
    EVP_CIPHER_CTX *orig = EVP_CIPHER_CTX_new();
    CHECK(EVP_DecryptInit_ex2(orig, For(32), key.data(), iv.data(), nullptr),
          "open start");
    EVP_CIPHER_CTX *dup = EVP_CIPHER_CTX_new();
    CHECK(EVP_CIPHER_CTX_copy(dup, orig), "dupctx of a keyed context");
    EVP_CIPHER_CTX_free(orig);
    Bytes o(300);
    CHECK(EVP_CIPHER_CTX_ctrl(dup, EVP_CTRL_AEAD_SET_TAG, 16,
                              want_tag.data()) > 0 &&
              EVP_DecryptUpdate(dup, nullptr, &outl, aad.data(), 40) &&
              EVP_DecryptUpdate(dup, o.data(), &outl, want_ct.data(), 300) &&
              EVP_DecryptFinal_ex(dup, fin, &outl) > 0 && o == msg,
          "a duplicated context did not open after the original was freed");
    EVP_CIPHER_CTX *dup2 = EVP_CIPHER_CTX_new();
    CHECK(EVP_CIPHER_CTX_copy(dup2, dup), "dupctx of a copy");
    const Bytes other = Random(rng, 32);
    CHECK(EVP_EncryptInit_ex2(dup2, For(32), other.data(), iv.data(),
                              nullptr),
          "re-key the copy");
    Bytes o2(300);
    uint8_t t[16];
    CHECK(EVP_EncryptInit_ex2(dup, nullptr, nullptr, iv.data(), nullptr) &&
              EVP_EncryptUpdate(dup, nullptr, &outl, aad.data(), 40) &&
              EVP_EncryptUpdate(dup, o2.data(), &outl, msg.data(), 300) &&
              EVP_EncryptFinal_ex(dup, fin, &outl) &&
              EVP_CIPHER_CTX_ctrl(dup, EVP_CTRL_AEAD_GET_TAG, 16, t) > 0 &&
              o2 == want_ct && Bytes(t, t + 16) == want_tag,
          "re-keying a copy changed the original's key");
    EVP_CIPHER_CTX_free(dup2);
    EVP_CIPHER_CTX_free(dup);
  }

  // Re-keying: the same key again (kept, not expanded again), another key,
  // then the first again: each seals as the key it was given.
  {
    const Bytes other = Random(rng, 32);
    for (const Bytes *k : {&key, &key, &other, &key}) {
      Bytes o(300);
      uint8_t t[16];
      CHECK(EVP_EncryptInit_ex2(ctx, For(32), k->data(), iv.data(), nullptr) &&
                EVP_EncryptUpdate(ctx, nullptr, &outl, aad.data(), 40) &&
                EVP_EncryptUpdate(ctx, o.data(), &outl, msg.data(), 300) &&
                EVP_EncryptFinal_ex(ctx, fin, &outl) &&
                EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, t) > 0,
            "seal after re-keying");
      CHECK((o == want_ct && Bytes(t, t + 16) == want_tag) == (k == &key),
            "a re-keyed context sealed under the wrong key");
    }
  }

  // `speed`: data updates may repeat on one IV (each one a whole message).
  unsigned one = 1;
  OSSL_PARAM sp[2] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_SPEED, &one),
                      OSSL_PARAM_construct_end()};
  Bytes o1(300), o2(300);
  CHECK(EVP_EncryptInit_ex2(ctx, For(32), key.data(), iv.data(), sp) &&
            EVP_EncryptUpdate(ctx, nullptr, &outl, aad.data(), 40) &&
            EVP_EncryptUpdate(ctx, o1.data(), &outl, msg.data(), 300) &&
            EVP_EncryptUpdate(ctx, o2.data(), &outl, msg.data(), 300) &&
            o1 == want_ct && o2 == want_ct,
        "speed");
  EVP_CIPHER_CTX_free(ctx);

  // Round trips and the counters: 20 seals, 20 opens, 20 failed opens.
  for (int i = 0; i < 20; i++) {
    const size_t kl = i % 2 ? 32 : 16;
    Bytes k = Random(rng, kl), n = Random(rng, 12), a = Random(rng, i * 3);
    Bytes p = Random(rng, 1 + rng() % 2000);
    CHECK(SivSeal(For(kl), k, n, a, p, &ct, &tag) &&
              SivOpen(For(kl), k, n, a, ct, tag, &pt) && pt == p,
          "round trip %d", i);
    tag[i % 16] ^= 1;
    CHECK(!SivOpen(For(kl), k, n, a, ct, tag, &pt) && AllZeroBytes(pt),
          "tampered %d", i);
  }
  const uint64_t seals = ProviderCounter("libgcm-seal-count") - seals0;
  const uint64_t opens = ProviderCounter("libgcm-open-count") - opens0;
  const uint64_t fails = ProviderCounter("libgcm-open-fail-count") - fails0;
  CHECK(seals == 31 && opens == 21 && fails == 21,
        "counters: %llu seals, %llu opens, %llu failed opens",
        static_cast<unsigned long long>(seals),
        static_cast<unsigned long long>(opens),
        static_cast<unsigned long long>(fails));

  // OpenSSL's own AES-GCM-SIV (3.2 and later), where it exists.
  EVP_CIPHER *ref = EVP_CIPHER_fetch(g_libctx, "AES-128-GCM-SIV",
                                     "provider=default");
  ERR_clear_error();
  if (ref == nullptr) {
    std::printf("siv: OpenSSL %s has no AES-GCM-SIV of its own; no "
                "differential run\n", OpenSSL_version(OPENSSL_VERSION_STRING));
  } else {
    for (int i = 0; i < 50; i++) {
      Bytes k = Random(rng, 16), n = Random(rng, 12), a = Random(rng, i);
      Bytes p = Random(rng, 1 + rng() % 700), rct, rtag;
      CHECK(SivSeal(For(16), k, n, a, p, &ct, &tag) &&
                SivSeal(ref, k, n, a, p, &rct, &rtag) && ct == rct &&
                tag == rtag,
            "differs from OpenSSL's AES-128-GCM-SIV");
    }
    EVP_CIPHER_free(ref);
  }
  EVP_CIPHER_free(siv[0]);
  EVP_CIPHER_free(siv[1]);
  return g_failures ? 1 : 0;
}

// ---- backends / badenv / badpath --------------------------------------------

int RunBackends() {
  const char *want = std::getenv("LIBGCM_EXPECT_PAIR");
  CHECK(want != nullptr, "LIBGCM_EXPECT_PAIR not set");
  if (want == nullptr) return 1;
  Ciphers gcm;
  CHECK(gcm.Fetch("provider=libgcm"), "fetch");
  if (g_failures) return 1;
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  uint8_t key[16] = {1};
  CHECK(EVP_EncryptInit_ex2(ctx, gcm.For(16), key, nullptr, nullptr), "init");
  std::string got = CtxString(ctx, "libgcm-aes-backend") + "/" +
                    CtxString(ctx, "libgcm-ghash-backend");
  CHECK(got == want, "backends %s, expected %s", got.c_str(), want);
  std::printf("backends: %s\n", got.c_str());
  EVP_CIPHER_CTX_free(ctx);
  return g_failures ? 1 : 0;
}

std::string DrainErrors() {
  std::string all;
  unsigned long e;
  const char *data = nullptr;
  int flags = 0;
  while ((e = ERR_get_error_all(nullptr, nullptr, nullptr, &data, &flags)) != 0) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof(buf));
    all += buf;
    if (data != nullptr && (flags & ERR_TXT_STRING)) {
      all += " (";
      all += data;
      all += ")";
    }
    all += "\n";
  }
  return all;
}

// ---- params ----------------------------------------------------------------

// One row of a parameter list: its name and data type.
struct Row {
  const char *key;
  unsigned type;
};

// A parameter list as "name/type" strings, in its order.
std::vector<std::string> Rows(const OSSL_PARAM *p) {
  std::vector<std::string> out;
  for (; p != nullptr && p->key != nullptr; p++) {
    out.push_back(std::string(p->key) + "/" + std::to_string(p->data_type));
  }
  return out;
}
std::vector<std::string> Rows(const std::vector<Row> &rows) {
  std::vector<std::string> out;
  for (const Row &r : rows) {
    out.push_back(std::string(r.key) + "/" + std::to_string(r.type));
  }
  return out;
}

std::string Joined(const std::vector<std::string> &v) {
  std::string s;
  for (const std::string &x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

// The parameter lists each cipher publishes, name, type and order, and
// the context parameters both ciphers answer alike: keylen, ivlen, taglen
// and the backend names read (one call asking for them all, an unknown
// name among them left alone), keylen set to its own value and refused
// at any other, unknown and other-mode names ignored when set.
int RunParams() {
  constexpr unsigned kUnsigned = OSSL_PARAM_UNSIGNED_INTEGER;
  constexpr unsigned kInt = OSSL_PARAM_INTEGER;
  constexpr unsigned kOctets = OSSL_PARAM_OCTET_STRING;
  constexpr unsigned kUtf8Ptr = OSSL_PARAM_UTF8_PTR;
  const std::vector<Row> alg_gettable = {
      {OSSL_CIPHER_PARAM_MODE, kUnsigned},
      {OSSL_CIPHER_PARAM_KEYLEN, kUnsigned},
      {OSSL_CIPHER_PARAM_IVLEN, kUnsigned},
      {OSSL_CIPHER_PARAM_BLOCK_SIZE, kUnsigned},
      {OSSL_CIPHER_PARAM_AEAD, kInt},
      {OSSL_CIPHER_PARAM_CUSTOM_IV, kInt},
      {OSSL_CIPHER_PARAM_CTS, kInt},
      {OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, kInt},
      {OSSL_CIPHER_PARAM_HAS_RAND_KEY, kInt},
  };
  const std::vector<Row> gcm_gettable = {
      {OSSL_CIPHER_PARAM_KEYLEN, kUnsigned},
      {OSSL_CIPHER_PARAM_IVLEN, kUnsigned},
      {OSSL_CIPHER_PARAM_AEAD_TAGLEN, kUnsigned},
      {OSSL_CIPHER_PARAM_IV, kOctets},
      {OSSL_CIPHER_PARAM_UPDATED_IV, kOctets},
      {OSSL_CIPHER_PARAM_AEAD_TAG, kOctets},
      {OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, kUnsigned},
      {OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, kOctets},
      {"libgcm-aes-backend", kUtf8Ptr},
      {"libgcm-ghash-backend", kUtf8Ptr},
  };
  const std::vector<Row> gcm_settable = {
      {OSSL_CIPHER_PARAM_KEYLEN, kUnsigned},
      {OSSL_CIPHER_PARAM_IVLEN, kUnsigned},
      {OSSL_CIPHER_PARAM_AEAD_TAG, kOctets},
      {OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, kOctets},
      {OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, kOctets},
      {OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, kOctets},
  };
  const std::vector<Row> siv_gettable = {
      {OSSL_CIPHER_PARAM_KEYLEN, kUnsigned},
      {OSSL_CIPHER_PARAM_IVLEN, kUnsigned},
      {OSSL_CIPHER_PARAM_AEAD_TAGLEN, kUnsigned},
      {OSSL_CIPHER_PARAM_AEAD_TAG, kOctets},
      {"libgcm-aes-backend", kUtf8Ptr},
      {"libgcm-ghash-backend", kUtf8Ptr},
  };
  const std::vector<Row> siv_settable = {
      {OSSL_CIPHER_PARAM_KEYLEN, kUnsigned},
      {OSSL_CIPHER_PARAM_SPEED, kUnsigned},
      {OSSL_CIPHER_PARAM_AEAD_TAG, kOctets},
  };
  const unsigned gcm_mode = EVP_CIPH_GCM_MODE, siv_mode = 0x10005;
  struct Case {
    const char *name;
    unsigned mode;
    size_t keylen;
    const std::vector<Row> &gettable, &settable;
    const char *foreign;  // a parameter of the other mode: ignored when set
  } cases[] = {
      {"AES-128-GCM", gcm_mode, 16, gcm_gettable, gcm_settable,
       OSSL_CIPHER_PARAM_SPEED},
      {"AES-192-GCM", gcm_mode, 24, gcm_gettable, gcm_settable,
       OSSL_CIPHER_PARAM_SPEED},
      {"AES-256-GCM", gcm_mode, 32, gcm_gettable, gcm_settable,
       OSSL_CIPHER_PARAM_SPEED},
      {"AES-128-GCM-SIV", siv_mode, 16, siv_gettable, siv_settable,
       OSSL_CIPHER_PARAM_IVLEN},
      {"AES-256-GCM-SIV", siv_mode, 32, siv_gettable, siv_settable,
       OSSL_CIPHER_PARAM_IVLEN},
  };
  for (const Case &t : cases) {
    EVP_CIPHER *c = EVP_CIPHER_fetch(g_libctx, t.name, "provider=libgcm");
    CHECK(c != nullptr, "%s: fetch", t.name);
    if (c == nullptr) continue;
    const struct {
      const char *what;
      std::vector<std::string> got, want;
    } lists[] = {
        {"gettable", Rows(EVP_CIPHER_gettable_params(c)), Rows(alg_gettable)},
        {"gettable ctx", Rows(EVP_CIPHER_gettable_ctx_params(c)),
         Rows(t.gettable)},
        {"settable ctx", Rows(EVP_CIPHER_settable_ctx_params(c)),
         Rows(t.settable)},
    };
    for (const auto &l : lists) {
      CHECK(l.got == l.want, "%s: %s params are [%s], expected [%s]", t.name,
            l.what, Joined(l.got).c_str(), Joined(l.want).c_str());
    }

    // The algorithm's values, all asked for at once.
    unsigned mode = 0;
    size_t alg_keylen = 0, alg_ivlen = 0, block = 0;
    int aead = -1, custom_iv = -1, cts = -1, multiblock = -1, rand_key = -1;
    OSSL_PARAM alg[] = {
        OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_MODE, &mode),
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &alg_keylen),
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &alg_ivlen),
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, &block),
        OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_AEAD, &aead),
        OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_CUSTOM_IV, &custom_iv),
        OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_CTS, &cts),
        OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK,
                                 &multiblock),
        OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, &rand_key),
        OSSL_PARAM_construct_end()};
    CHECK(EVP_CIPHER_get_params(c, alg) && mode == t.mode &&
              alg_keylen == t.keylen && alg_ivlen == 12 && block == 1 &&
              aead == 1 && custom_iv == 1 && cts == 0 && multiblock == 0 &&
              rand_key == 0,
          "%s: mode %x keylen %zu ivlen %zu block %zu aead %d custom-iv %d "
          "cts %d tls-multi %d has-randkey %d",
          t.name, mode, alg_keylen, alg_ivlen, block, aead, custom_iv, cts,
          multiblock, rand_key);

    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    const Bytes key(t.keylen, 0x42), iv(12, 7);
    for (int keyed = 0; keyed < 2; keyed++) {
      CHECK(EVP_EncryptInit_ex2(ctx, c, keyed ? key.data() : nullptr,
                                keyed ? iv.data() : nullptr, nullptr),
            "%s: init", t.name);
      size_t keylen = 0, ivlen = 0, taglen = 0, unknown = 99;
      char *aes = nullptr, *ghash = nullptr;
      OSSL_PARAM get[] = {
          OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen),
          OSSL_PARAM_construct_size_t("no-such-param", &unknown),
          OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen),
          OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, &taglen),
          OSSL_PARAM_construct_utf8_ptr("libgcm-aes-backend", &aes, 0),
          OSSL_PARAM_construct_utf8_ptr("libgcm-ghash-backend", &ghash, 0),
          OSSL_PARAM_construct_end()};
      CHECK(EVP_CIPHER_CTX_get_params(ctx, get) && keylen == t.keylen &&
                ivlen == 12 && taglen == 16 && unknown == 99 &&
                !OSSL_PARAM_modified(&get[1]),
            "%s, keyed %d: keylen %zu ivlen %zu taglen %zu unknown %zu",
            t.name, keyed, keylen, ivlen, taglen, unknown);
      const std::string a = aes ? aes : "<null>", g = ghash ? ghash : "<null>";
      CHECK(keyed ? (a != "none" && a != "<null>" && g != "none" &&
                     g != "<null>")
                  : (a == "none" && g == "none"),
            "%s, keyed %d: backends %s/%s", t.name, keyed, a.c_str(),
            g.c_str());
    }

    size_t own = t.keylen, other = t.keylen == 16 ? 32 : 16, zero = 0;
    OSSL_PARAM set_own[] = {
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &own),
        OSSL_PARAM_construct_end()};
    CHECK(EVP_CIPHER_CTX_set_params(ctx, set_own), "%s: keylen %zu refused",
          t.name, own);
    OSSL_PARAM set_other[] = {
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &other),
        OSSL_PARAM_construct_end()};
    ERR_clear_error();
    CHECK(!EVP_CIPHER_CTX_set_params(ctx, set_other), "%s: keylen %zu taken",
          t.name, other);
    const std::string errors = DrainErrors();
    CHECK(errors.find("this cipher's key is " + std::to_string(t.keylen) +
                      " bytes") != std::string::npos,
          "%s: keylen %zu refused with %s", t.name, other, errors.c_str());
    OSSL_PARAM set_ignored[] = {
        OSSL_PARAM_construct_size_t("no-such-param", &zero),
        OSSL_PARAM_construct_size_t(t.foreign, &zero),
        OSSL_PARAM_construct_end()};
    CHECK(EVP_CIPHER_CTX_set_params(ctx, set_ignored),
          "%s: an unknown name or %s was not ignored", t.name, t.foreign);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
  }
  return g_failures ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MODULE_DIR SECTION [VECTOR_FILE...]\n", argv[0]);
    return 2;
  }
  const std::string section = argv[2];
  g_libctx = OSSL_LIB_CTX_new();
  if (g_libctx == nullptr ||
      !OSSL_PROVIDER_set_default_search_path(g_libctx, argv[1])) {
    std::fprintf(stderr, "cannot set up a library context\n");
    return 1;
  }
  g_libgcm = OSSL_PROVIDER_load(g_libctx, "libgcm");
  if (section == "badenv" || section == "badpath") {
    std::string errors = DrainErrors();
    std::printf("load %s; errors:\n%s", g_libgcm ? "succeeded" : "failed",
                errors.c_str());
    CHECK(g_libgcm == nullptr, "the provider loaded despite the bad setup");
    if (section == "badenv") {
      const char *name = std::getenv("LIBGCM_EXPECT_ENV_ERROR");
      CHECK(name != nullptr && errors.find(name) != std::string::npos,
            "the error does not name the backend %s", name ? name : "(unset)");
    }
    g_default = OSSL_PROVIDER_load(g_libctx, "default");
    EVP_CIPHER *c = EVP_CIPHER_fetch(g_libctx, "AES-128-GCM", "provider=libgcm");
    CHECK(c == nullptr, "a libgcm cipher was fetched after a failed load");
    EVP_CIPHER_free(c);
    ERR_clear_error();
    return g_failures ? 1 : 0;
  }
  if (g_libgcm == nullptr) {
    std::fprintf(stderr, "cannot load the libgcm provider from %s\n", argv[1]);
    ERR_print_errors_fp(stderr);
    return 1;
  }
  g_default = OSSL_PROVIDER_load(g_libctx, "default");
  if (g_default == nullptr) {
    std::fprintf(stderr, "cannot load OpenSSL's default provider\n");
    return 1;
  }
  int rc;
  if (section == "vectors") {
    rc = RunVectors(std::vector<std::string>(argv + 3, argv + argc));
  } else if (section == "stream") {
    rc = RunStream();
  } else if (section == "diff") {
    rc = RunDiff();
  } else if (section == "tls12") {
    rc = RunTls12();
  } else if (section == "siv") {
    rc = RunSiv(std::vector<std::string>(argv + 3, argv + argc));
  } else if (section == "backends") {
    rc = RunBackends();
  } else if (section == "params") {
    rc = RunParams();
  } else {
    std::fprintf(stderr, "unknown section %s\n", section.c_str());
    rc = 2;
  }
  OSSL_PROVIDER_unload(g_libgcm);
  OSSL_PROVIDER_unload(g_default);
  OSSL_LIB_CTX_free(g_libctx);
  if (rc == 0 && g_failures) rc = 1;
  std::printf("%s: %s\n", section.c_str(),
              rc == 0 ? "passed" : rc == 77 ? "skipped" : "FAILED");
  return rc;
}
