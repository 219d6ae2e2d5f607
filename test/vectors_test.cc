// test/vectors_test.cc: runs every test-vector file (vectors/README.md)
// against every usable (AES, GHASH) backend pair: the AES-GCM files once
// through the two passes and once through each usable fused kernel that
// fits the pair, the AES-GCM-SIV files (RFC 8452) through gcm_siv_* the
// same way (the fused kernels with AES-GCM-SIV functions) and once more,
// on the default pair, through the BoringSSL-compatible
// EVP_aead_aes_*_gcm_siv (EVP_AEAD_CTX_seal / open). Every native key
// lives in memory of exactly the size its backends take (AES-GCM:
// gcm_key_size_for, gcm_key_init_sized; AES-GCM-SIV: gcm_siv_key_size_for,
// gcm_siv_key_init_sized), at a placement remainder modulo 16 that changes
// from case to case, with guard bytes around it that must stay untouched
// and the key's bytes all zero after cleanup.
//
// One GoogleTest test per (file, backend pair) iterates all the file's cases,
// so ctest lists a few hundred tests, not hundreds of thousands. A failing
// case is reported by its ID (file and line for converted files).
//
// For each case:
//   valid:   seal gives CT and TAG, open gives PT; both out-of-place and
//            in-place; nothing is written past the output or the tag.
//   invalid: open returns 0 with GCM_ERR_AUTH (GCM_ERR_NONCE_LENGTH for a
//            nonce the mode refuses, empty for AES-GCM and other than 12
//            bytes for AES-GCM-SIV; GCM_ERR_TAG_LENGTH for a tag outside
//            1..16, or other than 16 bytes for AES-GCM-SIV) and the output
//            is all zero, out-of-place and in-place. Where the case is
//            invalid because of an argument (nonce, tag length), seal must
//            refuse it as well.
//
// Run time: the six NIST files hold 47,250 cases, and by default every case
// runs on every usable backend triple (AES, GHASH, fused kernel). Emulated
// runs (the qemu dispatch-tier tests) set LIBGCM_VECTORS_SAMPLE=1: there
// the triple the library picks on that CPU model runs every case, and every
// other triple runs every 8th NIST case (a different eighth per triple,
// still touching every length/tag section of the grid). The native run
// executes every case on every triple; what emulation adds is the pick on a
// CPU that really lacks the later instructions, and a sample of the rest.
// The other files are small and always run in full.
//
// The external suites (NIST CAVP, Wycheproof, BoringSSL) are converted at
// build time into LIBGCM_GENERATED_VECTORS_DIR. When they are absent the
// tests are skipped, or fail if LIBGCM_REQUIRE_VECTORS is set (CI).
#include <gcm/gcm.h>
#include <gtest/gtest.h>
#include <openssl/aead.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>
#if defined(_WIN32)
#include <process.h>
#define LIBGCM_GETPID _getpid
#else
#include <unistd.h>
#define LIBGCM_GETPID getpid
#endif

#include "test_util.h"
#include "vector_file.h"

#ifndef LIBGCM_REQUIRE_VECTORS
#define LIBGCM_REQUIRE_VECTORS 0
#endif

namespace {

// memcmp/memcpy with a zero length may be handed the NULL data() of an empty
// vector, which the C library does not allow; these accept it.
int MemCmp(const void *a, const void *b, size_t n) {
  return n == 0 ? 0 : std::memcmp(a, b, n);
}
void MemCpy(void *dst, const void *src, size_t n) {
  if (n != 0) std::memcpy(dst, src, n);
}


using gcmvec::VectorCase;
using Bytes = std::vector<uint8_t>;

enum class Mode { kGcm, kGcmSiv };

struct VectorFileInfo {
  const char *name;    // part of the test name
  const char *file;    // project-format file name
  const char *source;  // external original, relative to LIBGCM_VECTORS_DIR;
                       // nullptr for the project's own files (in the source
                       // tree's vectors/ directory)
  bool large = false;  // sampled off the pick (see the top of this file)
  Mode mode = Mode::kGcm;
};

// On sampled pairs, one case in kSampleStride runs.
constexpr size_t kSampleStride = 8;

const VectorFileInfo kFiles[] = {
    {"openssl_generated", "openssl_generated.txt", nullptr},
    {"wycheproof", "wycheproof_aes_gcm.txt", "wycheproof/aes_gcm_test.json"},
    {"boringssl_128", "boringssl_aes_128_gcm.txt",
     "boringssl/aes_128_gcm_tests.txt"},
    {"boringssl_192", "boringssl_aes_192_gcm.txt",
     "boringssl/aes_192_gcm_tests.txt"},
    {"boringssl_256", "boringssl_aes_256_gcm.txt",
     "boringssl/aes_256_gcm_tests.txt"},
    {"nist_encrypt_128", "nist_gcmEncryptExtIV128.txt",
     "nist-cavp/gcmEncryptExtIV128.rsp", true},
    {"nist_encrypt_192", "nist_gcmEncryptExtIV192.txt",
     "nist-cavp/gcmEncryptExtIV192.rsp", true},
    {"nist_encrypt_256", "nist_gcmEncryptExtIV256.txt",
     "nist-cavp/gcmEncryptExtIV256.rsp", true},
    {"nist_decrypt_128", "nist_gcmDecrypt128.txt",
     "nist-cavp/gcmDecrypt128.rsp", true},
    {"nist_decrypt_192", "nist_gcmDecrypt192.txt",
     "nist-cavp/gcmDecrypt192.rsp", true},
    {"nist_decrypt_256", "nist_gcmDecrypt256.txt",
     "nist-cavp/gcmDecrypt256.rsp", true},
    {"wycheproof_siv", "wycheproof_aes_gcm_siv.txt",
     "wycheproof/aes_gcm_siv_test.json", false, Mode::kGcmSiv},
    {"boringssl_siv_128", "boringssl_aes_128_gcm_siv.txt",
     "boringssl/aes_128_gcm_siv_tests.txt", false, Mode::kGcmSiv},
    {"boringssl_siv_256", "boringssl_aes_256_gcm_siv.txt",
     "boringssl/aes_256_gcm_siv_tests.txt", false, Mode::kGcmSiv},
};

struct Param {
  const VectorFileInfo *file;
  std::string aes, ghash, fused;
  bool sampled = false;  // sampled on emulated runs: not the triple the
                         // library picks on this CPU
  bool compat = false; // through <openssl/aead.h> (the default pair)
};

void PrintTo(const Param &p, std::ostream *os) {
  *os << p.file->file << " with AES " << p.aes << ", GHASH " << p.ghash
      << ", fused " << p.fused << (p.compat ? ", through the compat API" : "");
}

// Every usable backend of each kind, constant-time or not, in the library's
// order; a new backend is picked up without touching this file.
std::vector<std::string> UsableBackends(gcm_backend_kind kind) {
  std::vector<std::string> names;
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    if (gcm_backend_get(i, &info) && info.kind == kind && info.usable &&
        info.name != nullptr)
      names.push_back(info.name);
  }
  return names;
}

std::vector<Param> AllParams() {
  std::vector<Param> params;
  gcmtest::Triple pick;  // empty (no triple is the pick) if none can be made
  const bool picked = gcmtest::Pick(&pick);
  const auto triples = gcmtest::UsableBackendTriples();
  const auto siv_triples = gcmtest::UsableSivTriples();
  // File-major, so consecutive tests reuse the cached file. The
  // AES-GCM-SIV files run on the fused kernels with AES-GCM-SIV functions.
  for (const auto &f : kFiles)
    for (const auto &t : f.mode == Mode::kGcmSiv ? siv_triples : triples) {
      const bool is_pick = t.aes == pick.aes && t.ghash == pick.ghash &&
                           t.fused == pick.fused;
      params.push_back(Param{&f, t.aes, t.ghash, t.fused, !is_pick});
    }
  // The AES-GCM-SIV files once through the BoringSSL-compatible API too
  // (its keys take the default pair, which the native run above checks).
  if (picked) {
    for (const auto &f : kFiles)
      if (f.mode == Mode::kGcmSiv)
        params.push_back(Param{&f, pick.aes, pick.ghash, "none", false, true});
  }
  return params;
}

std::string Sanitize(const std::string &s) {
  std::string out;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9');
    out += ok ? c : '_';
  }
  return out;
}

// A stable hash, so a pair samples the same cases on every platform.
uint32_t Fnv1a(const std::string &s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

bool FileExists(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return static_cast<bool>(f);
}

// The most recently read file. Tests run file-major, so this reads each file
// once per process while holding at most one file in memory.
struct CachedFile {
  std::string path;
  std::vector<VectorCase> cases;
};

const std::vector<VectorCase> *LoadCached(const std::string &path,
                                          std::string *error) {
  static std::unique_ptr<CachedFile> cache;
  if (cache && cache->path == path) return &cache->cases;
  cache.reset();
  auto fresh = std::make_unique<CachedFile>();
  fresh->path = path;
  if (!gcmvec::ReadVectorFile(path, &fresh->cases, error)) return nullptr;
  cache = std::move(fresh);
  return &cache->cases;
}

constexpr size_t kGuard = 16;    // bytes checked after every output
constexpr uint8_t kFill = 0xa5;  // what outputs hold before a call

bool AllEqual(const uint8_t *p, size_t n, uint8_t v) {
  // A byte, then each byte against the one before it: memcmp speed.
  return n == 0 || (p[0] == v && std::memcmp(p, p + 1, n - 1) == 0);
}

// A buffer of n bytes followed by kGuard guard bytes, all kFill, optionally
// starting with a copy of `init`.
Bytes Buffer(size_t n, const Bytes *init = nullptr) {
  Bytes b(n + kGuard, kFill);
  if (init != nullptr) MemCpy(b.data(), init->data(), init->size());
  return b;
}

// A pointer for a possibly empty input. Zero-length inputs may be NULL, but
// an empty nonce is passed as a real pointer so that the error is about its
// length, not about NULL.
const uint8_t *Ptr(const Bytes &b) {
  static const uint8_t kEmpty[1] = {0};
  return b.empty() ? kEmpty : b.data();
}

// The calls a case runs through: AES-GCM on a gcm_key set up with the
// test's pair and fused kernel, or AES-GCM-SIV on a gcm_siv_key with the
// test's pair. Each knows which key, nonce and tag lengths its mode takes.
class Aead {
 public:
  virtual ~Aead() = default;
  // Sets up the key; false (with gcm_last_error set) when refused.
  virtual bool Init(const Bytes &key) = 0;
  // "" when the key uses the test's backends, else what is wrong.
  virtual std::string Backends() = 0;
  virtual int Seal(uint8_t *out, uint8_t *tag, size_t tl, const Bytes &nonce,
                   const uint8_t *in, size_t n, const Bytes &aad) = 0;
  virtual int Open(uint8_t *out, const Bytes &nonce, const uint8_t *in,
                   size_t n, const uint8_t *tag, size_t tl,
                   const Bytes &aad) = 0;
  virtual bool KeyLengthOk(size_t n) const = 0;
  virtual bool NonceLengthOk(size_t n) const = 0;
  virtual bool TagLengthOk(size_t n) const = 0;
  virtual size_t MaxTag() const = 0;
  // After the case: cleans up the key and returns "" or what its memory
  // shows wrong.
  virtual std::string Finish() { return ""; }
};

// Memory of exactly `size` bytes for a key, at remainder `at` (0..15) of
// a 16-byte aligned buffer, with kGuard guard bytes before and after it.
class KeyBytes {
 public:
  KeyBytes(size_t size, size_t at)
      : size_(size), mem_(16 + kGuard + at + size + kGuard, kFill) {
    const size_t lead =
        (16 - reinterpret_cast<uintptr_t>(mem_.data()) % 16) % 16;
    before_ = lead + kGuard + at;
  }
  uint8_t *get() { return mem_.data() + before_; }
  size_t size() const { return size_; }
  // After cleanup (named `cleanup`): "" when the key's bytes are all zero
  // and the guards untouched, else what is wrong.
  std::string Check(const char *cleanup, const char *size_for) const {
    const uint8_t *bytes = mem_.data() + before_;
    if (!AllEqual(bytes, size_, 0)) return std::string(cleanup) + " left key bytes";
    if (!AllEqual(mem_.data(), before_, kFill) ||
        !AllEqual(bytes + size_, kGuard, kFill))
      return std::string("the key's calls wrote outside its ") + size_for +
             " bytes";
    return "";
  }

 private:
  const size_t size_;
  Bytes mem_;          // the key's memory and its guards
  size_t before_ = 0;  // bytes of mem_ before the key
};

// AES-GCM on a key in memory of exactly gcm_key_size_for bytes
// (KeyBytes).
class GcmAead : public Aead {
 public:
  GcmAead(const Param &p, size_t size, size_t at)
      : p_(p), mem_(size, at), key_(reinterpret_cast<gcm_key *>(mem_.get())) {}
  ~GcmAead() override { gcm_key_cleanup(key_); }
  bool Init(const Bytes &key) override {
    return gcm_key_init_sized(key_, mem_.size(), key.data(), key.size(),
                              p_.aes.c_str(), p_.ghash.c_str(),
                              p_.fused.c_str()) == 1;
  }
  std::string Backends() override {
    if (std::strcmp(gcm_key_aes_backend(key_), p_.aes.c_str()) != 0 ||
        std::strcmp(gcm_key_ghash_backend(key_), p_.ghash.c_str()) != 0 ||
        std::strcmp(gcm_key_fused_backend(key_), p_.fused.c_str()) != 0)
      return "key uses the wrong backends";
    return "";
  }
  int Seal(uint8_t *out, uint8_t *tag, size_t tl, const Bytes &nonce,
           const uint8_t *in, size_t n, const Bytes &aad) override {
    return gcm_seal(key_, out, tag, tl, Ptr(nonce), nonce.size(), in, n,
                    aad.data(), aad.size());
  }
  int Open(uint8_t *out, const Bytes &nonce, const uint8_t *in, size_t n,
           const uint8_t *tag, size_t tl, const Bytes &aad) override {
    return gcm_open(key_, out, Ptr(nonce), nonce.size(), in, n, tag, tl,
                    aad.data(), aad.size());
  }
  bool KeyLengthOk(size_t n) const override {
    return n == 16 || n == 24 || n == 32;
  }
  bool NonceLengthOk(size_t n) const override { return n > 0; }
  bool TagLengthOk(size_t n) const override {
    return n >= 1 && n <= GCM_TAG_LEN;
  }
  size_t MaxTag() const override { return GCM_TAG_LEN; }
  std::string Finish() override {
    gcm_key_cleanup(key_);
    return mem_.Check("gcm_key_cleanup", "gcm_key_size_for");
  }

 private:
  const Param &p_;
  KeyBytes mem_;
  gcm_key *key_;
};

// AES-GCM-SIV on a key in memory of exactly gcm_siv_key_size_for bytes
// (KeyBytes).
class SivAead : public Aead {
 public:
  SivAead(const Param &p, size_t size, size_t at)
      : p_(p),
        mem_(size, at),
        key_(reinterpret_cast<gcm_siv_key *>(mem_.get())) {}
  ~SivAead() override { gcm_siv_key_cleanup(key_); }
  bool Init(const Bytes &key) override {
    return gcm_siv_key_init_sized(key_, mem_.size(), key.data(), key.size(),
                                  p_.aes.c_str(), p_.ghash.c_str(),
                                  p_.fused.c_str()) == 1;
  }
  std::string Backends() override {
    if (std::strcmp(gcm_siv_key_aes_backend(key_), p_.aes.c_str()) != 0 ||
        std::strcmp(gcm_siv_key_ghash_backend(key_), p_.ghash.c_str()) != 0 ||
        std::strcmp(gcm_siv_key_fused_backend(key_), p_.fused.c_str()) != 0)
      return "key uses the wrong backends";
    return "";
  }
  int Seal(uint8_t *out, uint8_t *tag, size_t tl, const Bytes &nonce,
           const uint8_t *in, size_t n, const Bytes &aad) override {
    return gcm_siv_seal(key_, out, tag, tl, Ptr(nonce), nonce.size(), in, n,
                        aad.data(), aad.size());
  }
  int Open(uint8_t *out, const Bytes &nonce, const uint8_t *in, size_t n,
           const uint8_t *tag, size_t tl, const Bytes &aad) override {
    return gcm_siv_open(key_, out, Ptr(nonce), nonce.size(), in, n, tag, tl,
                        aad.data(), aad.size());
  }
  bool KeyLengthOk(size_t n) const override { return n == 16 || n == 32; }
  bool NonceLengthOk(size_t n) const override {
    return n == GCM_SIV_NONCE_LEN;
  }
  bool TagLengthOk(size_t n) const override { return n == GCM_SIV_TAG_LEN; }
  size_t MaxTag() const override { return GCM_SIV_TAG_LEN; }
  std::string Finish() override {
    gcm_siv_key_cleanup(key_);
    return mem_.Check("gcm_siv_key_cleanup", "gcm_siv_key_size_for");
  }

 private:
  const Param &p_;
  KeyBytes mem_;
  gcm_siv_key *key_;
};

// AES-GCM-SIV through EVP_AEAD_CTX_seal / open, the tag after the
// ciphertext as BoringSSL writes it.
class CompatSivAead : public Aead {
 public:
  CompatSivAead() { EVP_AEAD_CTX_zero(&ctx_); }
  ~CompatSivAead() override { EVP_AEAD_CTX_cleanup(&ctx_); }
  bool Init(const Bytes &key) override {
    const EVP_AEAD *aead = key.size() == 32 ? EVP_aead_aes_256_gcm_siv()
                                            : EVP_aead_aes_128_gcm_siv();
    return EVP_AEAD_CTX_init(&ctx_, aead, key.data(), key.size(), 0,
                             nullptr) == 1;
  }
  std::string Backends() override { return ""; }  // the default pair
  int Seal(uint8_t *out, uint8_t *tag, size_t tl, const Bytes &nonce,
           const uint8_t *in, size_t n, const Bytes &aad) override {
    // The shim's tag is 16 bytes (fixed at init); the AES-GCM-SIV files
    // have no other. A case with another would fail here, as it should.
    if (tl != 16) return 0;
    Bytes buf(n + 16);
    size_t len = 0;
    if (n > 0) std::memcpy(buf.data(), in, n);
    int ok = EVP_AEAD_CTX_seal(&ctx_, buf.data(), &len, buf.size(),
                               Ptr(nonce), nonce.size(), buf.data(), n,
                               aad.data(), aad.size());
    if (n > 0) std::memcpy(out, buf.data(), n);
    std::memcpy(tag, buf.data() + n, 16);
    return ok;
  }
  int Open(uint8_t *out, const Bytes &nonce, const uint8_t *in, size_t n,
           const uint8_t *tag, size_t tl, const Bytes &aad) override {
    Bytes buf(n + tl);
    size_t len = 0;
    if (n > 0) std::memcpy(buf.data(), in, n);
    if (tl > 0) std::memcpy(buf.data() + n, tag, tl);
    int ok = EVP_AEAD_CTX_open(&ctx_, buf.data(), &len, buf.size(),
                               Ptr(nonce), nonce.size(), buf.data(),
                               buf.size(), aad.data(), aad.size());
    if (ok && len != n) return 0;
    if (n > 0) std::memcpy(out, buf.data(), n);
    return ok;
  }
  // The shim's refusals: a tag of other than 16 bytes is a wrong tag there
  // (BoringSSL's open reads it off the end of the input).
  bool KeyLengthOk(size_t n) const override { return n == 16 || n == 32; }
  bool NonceLengthOk(size_t n) const override { return n == 12; }
  bool TagLengthOk(size_t) const override { return true; }
  size_t MaxTag() const override { return 16; }

 private:
  EVP_AEAD_CTX ctx_;
};

class Checker {
 public:
  Checker(const Param &p)
      : p_(p),
        size_(p.file->mode == Mode::kGcmSiv
                  ? gcm_siv_key_size_for(p.aes.c_str(), p.ghash.c_str(),
                                         p.fused.c_str())
                  : gcm_key_size_for(p.aes.c_str(), p.ghash.c_str(),
                                     p.fused.c_str())) {}

  // Runs one case; returns "" or a description of the first problem.
  std::string Run(const VectorCase &c) {
    std::unique_ptr<Aead> a;
    if (p_.compat) {
      a.reset(new CompatSivAead());
    } else if (p_.file->mode == Mode::kGcmSiv) {
      if (size_ == 0) return "gcm_siv_key_size_for failed for this choice";
      a.reset(new SivAead(p_, size_, placement_++ % 16));
    } else {
      if (size_ == 0) return "gcm_key_size_for failed for this choice";
      a.reset(new GcmAead(p_, size_, placement_++ % 16));
    }
    if (!a->KeyLengthOk(c.key.size())) return BadKey(a.get(), c);
    if (!a->Init(c.key))
      return std::string("key set-up failed: ") + gcm_last_error_message();
    std::string err = a->Backends();
    if (err.empty()) err = c.valid ? Valid(a.get(), c) : Invalid(a.get(), c);
    const std::string left = a->Finish();
    return err.empty() ? left : err;
  }

 private:
  std::string BadKey(Aead *a, const VectorCase &c) {
    if (c.valid) return "valid case with a key length libgcm cannot take";
    if (a->Init(c.key)) return "key set-up accepted a bad key length";
    if (gcm_last_error() != GCM_ERR_KEY_LENGTH)
      return std::string("bad key length gave ") +
             gcm_error_string(gcm_last_error());
    return "";
  }

  std::string Valid(Aead *a, const VectorCase &c) {
    const size_t n = c.pt.size(), tl = c.tag.size();
    if (!a->NonceLengthOk(c.nonce.size()) || !a->TagLengthOk(tl))
      return "valid case with a nonce or tag length the mode refuses";

    // Seal, out-of-place.
    Bytes out = Buffer(n), tag = Buffer(tl);
    if (!a->Seal(out.data(), tag.data(), tl, c.nonce, c.pt.data(), n, c.aad))
      return std::string("seal failed: ") + gcm_last_error_message();
    if (MemCmp(out.data(), c.ct.data(), n) != 0)
      return "seal: wrong ciphertext " + gcmtest::ToHex(out.data(), n);
    if (MemCmp(tag.data(), c.tag.data(), tl) != 0)
      return "seal: wrong tag " + gcmtest::ToHex(tag.data(), tl);
    if (!AllEqual(out.data() + n, kGuard, kFill) ||
        !AllEqual(tag.data() + tl, kGuard, kFill))
      return "seal wrote past the end of the output or the tag";

    // Seal, in-place.
    Bytes buf = Buffer(n, &c.pt);
    tag = Buffer(tl);
    if (!a->Seal(buf.data(), tag.data(), tl, c.nonce, buf.data(), n, c.aad))
      return std::string("in-place seal failed: ") + gcm_last_error_message();
    if (MemCmp(buf.data(), c.ct.data(), n) != 0 ||
        MemCmp(tag.data(), c.tag.data(), tl) != 0)
      return "in-place seal: wrong ciphertext or tag";
    if (!AllEqual(buf.data() + n, kGuard, kFill))
      return "in-place seal wrote past the end of the buffer";

    // Open, out-of-place.
    out = Buffer(n);
    if (!a->Open(out.data(), c.nonce, c.ct.data(), n, c.tag.data(), tl,
                 c.aad))
      return std::string("open rejected a valid case: ") +
             gcm_last_error_message();
    if (MemCmp(out.data(), c.pt.data(), n) != 0)
      return "open: wrong plaintext " + gcmtest::ToHex(out.data(), n);
    if (!AllEqual(out.data() + n, kGuard, kFill))
      return "open wrote past the end of the output";

    // Open, in-place.
    buf = Buffer(n, &c.ct);
    if (!a->Open(buf.data(), c.nonce, buf.data(), n, c.tag.data(), tl, c.aad))
      return std::string("in-place open rejected a valid case: ") +
             gcm_last_error_message();
    if (MemCmp(buf.data(), c.pt.data(), n) != 0)
      return "in-place open: wrong plaintext";
    if (!AllEqual(buf.data() + n, kGuard, kFill))
      return "in-place open wrote past the end of the buffer";
    return "";
  }

  std::string Invalid(Aead *a, const VectorCase &c) {
    const size_t n = c.ct.size(), tl = c.tag.size();
    const bool bad_nonce = !a->NonceLengthOk(c.nonce.size());
    const bool bad_tag = !a->TagLengthOk(tl);
    // Which errors are right: the argument error(s) if any, else AUTH.
    auto expected = [&](gcm_error e) {
      if (bad_nonce || bad_tag)
        return (bad_nonce && e == GCM_ERR_NONCE_LENGTH) ||
               (bad_tag && e == GCM_ERR_TAG_LENGTH);
      return e == GCM_ERR_AUTH;
    };
    const char *want = bad_nonce ? "GCM_ERR_NONCE_LENGTH"
                       : bad_tag ? "GCM_ERR_TAG_LENGTH"
                                 : "GCM_ERR_AUTH";

    Bytes out = Buffer(n);
    if (a->Open(out.data(), c.nonce, c.ct.data(), n, Ptr(c.tag), tl, c.aad))
      return "open accepted an invalid case";
    if (!expected(gcm_last_error()))
      return std::string("open failed with ") +
             gcm_error_string(gcm_last_error()) + ", want " + want;
    if (!AllEqual(out.data(), n, 0))
      return "rejected open left non-zero output";
    if (!AllEqual(out.data() + n, kGuard, kFill))
      return "rejected open wrote past the end of the output";

    Bytes buf = Buffer(n, &c.ct);
    if (a->Open(buf.data(), c.nonce, buf.data(), n, Ptr(c.tag), tl, c.aad))
      return "in-place open accepted an invalid case";
    if (!expected(gcm_last_error()))
      return std::string("in-place open failed with ") +
             gcm_error_string(gcm_last_error()) + ", want " + want;
    if (!AllEqual(buf.data(), n, 0))
      return "rejected in-place open left non-zero output";

    // An argument error must stop seal as well, with zeroed outputs.
    if ((bad_nonce || bad_tag) && c.has_pt) {
      Bytes sout = Buffer(c.pt.size());
      size_t stl = tl <= a->MaxTag() ? tl : a->MaxTag();
      Bytes stag = Buffer(stl);
      if (a->Seal(sout.data(), stag.data(), tl, c.nonce, c.pt.data(),
                  c.pt.size(), c.aad))
        return "seal accepted an invalid nonce or tag length";
      if (!expected(gcm_last_error()))
        return std::string("seal failed with ") +
               gcm_error_string(gcm_last_error()) + ", want " + want;
      if (!AllEqual(sout.data(), c.pt.size(), 0) ||
          !AllEqual(stag.data(), stl, 0))
        return "failed seal left non-zero output or tag";
    }
    return "";
  }

  const Param &p_;
  const size_t size_;     // gcm_key_size_for (gcm_siv_key_size_for) the choice
  size_t placement_ = 0;  // cases run so far: the next placement
};

class VectorFileTest : public testing::TestWithParam<Param> {};

TEST_P(VectorFileTest, AllCases) {
  const Param &p = GetParam();
  std::string path;
  if (p.file->source == nullptr) {
    path = std::string(LIBGCM_SOURCE_VECTORS_DIR) + "/" + p.file->file;
    ASSERT_TRUE(FileExists(path)) << path << " is missing";
  } else {
    path = std::string(LIBGCM_GENERATED_VECTORS_DIR) + "/" + p.file->file;
    if (!FileExists(path)) {
      const std::string src =
          std::string(LIBGCM_VECTORS_DIR) + "/" + p.file->source;
      if (FileExists(src)) {
        FAIL() << src << " exists but was not converted to " << path
               << "; build the gcm_vectors target (needs Python 3)";
      }
      if (LIBGCM_REQUIRE_VECTORS) {
        FAIL() << "external vectors missing: " << src
               << " (LIBGCM_REQUIRE_VECTORS is ON; set LIBGCM_VECTORS_DIR)";
      }
      GTEST_SKIP() << "external vectors not found: " << src
                   << " (set LIBGCM_VECTORS_DIR to run them)";
    }
  }

  std::string error;
  const std::vector<VectorCase> *cases = LoadCached(path, &error);
  ASSERT_NE(cases, nullptr) << error;
  ASSERT_FALSE(cases->empty()) << path << " holds no cases";

  size_t stride = 1, offset = 0;
  if (p.file->large && p.sampled && gcmtest::EnvFlag("LIBGCM_VECTORS_SAMPLE")) {
    stride = kSampleStride;
    offset = Fnv1a(p.aes + "/" + p.ghash + "/" + p.fused) % stride;
  }

  Checker checker(p);
  size_t failures = 0, valid = 0, run = 0;
  for (size_t i = offset; i < cases->size(); i += stride) {
    const VectorCase &c = (*cases)[i];
    run++;
    valid += c.valid;
    std::string err = checker.Run(c);
    if (err.empty()) continue;
    if (++failures <= 10)
      ADD_FAILURE() << p.file->file << ": " << c.Where() << ": " << err;
  }
  EXPECT_EQ(failures, 0u) << failures << " of " << run
                          << " cases failed with AES " << p.aes << ", GHASH "
                          << p.ghash;
  RecordProperty("cases", static_cast<int>(run));
  RecordProperty("valid", static_cast<int>(valid));
  if (stride > 1) RecordProperty("sampled_from", static_cast<int>(cases->size()));
}

INSTANTIATE_TEST_SUITE_P(
    Vectors, VectorFileTest, testing::ValuesIn(AllParams()),
    [](const testing::TestParamInfo<Param> &pi) {
      if (pi.param.compat)
        return Sanitize(std::string(pi.param.file->name) + "__compat");
      return Sanitize(std::string(pi.param.file->name) + "__" +
                      gcmtest::TripleName({pi.param.aes, pi.param.ghash,
                                           pi.param.fused}));
    });

// The parameter list is empty (and the vector tests silently vanish) if the
// library lists no usable backend of a kind; make that a failure.
TEST(VectorFiles, EveryKindHasAUsableBackend) {
  EXPECT_FALSE(UsableBackends(GCM_BACKEND_AES).empty());
  EXPECT_FALSE(UsableBackends(GCM_BACKEND_GHASH).empty());
}

// The reader refuses malformed files rather than skipping cases.
TEST(VectorFiles, ReaderRefusesMalformedCases) {
  const std::string good =
      "# comment\n\nID: one\nKEY: 00112233445566778899aabbccddeeff\n"
      "NONCE: 000102030405060708090a0b\nAAD:\nPT: 00\nCT: 01\nTAG: ff\n"
      "RESULT: valid\n\nKEY: 00112233445566778899aabbccddeeff\nNONCE: 00\n"
      "AAD: \r\nCT: \nTAG: 00\nRESULT: invalid\n";
  const struct {
    const char *what;
    std::string text;
    bool ok;
  } inputs[] = {
      {"good", good, true},
      {"bad hex", good + "\nKEY: 0g\nNONCE:\nAAD:\nCT:\nTAG:\nRESULT: invalid\n",
       false},
      {"odd hex", good + "\nKEY: 000\nNONCE:\nAAD:\nCT:\nTAG:\nRESULT: invalid\n",
       false},
      {"no RESULT", good + "\nKEY: 00\nNONCE:\nAAD:\nCT:\nTAG:\n", false},
      {"valid without PT",
       good + "\nKEY: 00\nNONCE:\nAAD:\nCT:\nTAG:\nRESULT: valid\n", false},
      {"PT/CT lengths",
       good + "\nKEY: 00\nNONCE:\nAAD:\nPT: 00\nCT:\nTAG:\nRESULT: valid\n",
       false},
      {"unknown field", good + "\nKEY: 00\nIV: 00\n", false},
      {"repeated field", good + "\nKEY: 00\nKEY: 00\n", false},
      {"bad RESULT",
       good + "\nKEY: 00\nNONCE:\nAAD:\nCT:\nTAG:\nRESULT: maybe\n", false},
  };
  // Per process: ctest runs several copies of this binary at once (the
  // dispatch tiers), and a shared name let one remove another's file.
  const std::string path = testing::TempDir() + "libgcm_vector_reader_test." +
                           std::to_string(LIBGCM_GETPID()) + ".txt";
  for (const auto &in : inputs) {
    {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f << in.text;
    }
    std::vector<VectorCase> cases;
    std::string error;
    bool ok = gcmvec::ReadVectorFile(path, &cases, &error);
    EXPECT_EQ(ok, in.ok) << in.what << ": " << error;
    if (ok) {
      ASSERT_EQ(cases.size(), 2u);
      EXPECT_EQ(cases[0].id, "one");
      EXPECT_TRUE(cases[0].valid);
      EXPECT_EQ(cases[0].tag, Bytes({0xff}));
      EXPECT_FALSE(cases[1].valid);
      EXPECT_FALSE(cases[1].has_pt);
      EXPECT_TRUE(cases[1].aad.empty());
      EXPECT_EQ(cases[1].line, 12u);
    } else {
      EXPECT_TRUE(cases.empty());
    }
  }
  std::remove(path.c_str());
}

}  // namespace
