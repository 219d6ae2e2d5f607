// fuzz/fuzz_differential.cc: every backend pair seals the same message to
// the same bytes, and agrees with the system's OpenSSL when there is one.
//
// Input: the common message header (fuzz_util.h), then the plaintext (the
// rest of the input). Bit 7 of the key-size byte makes the seals work in
// place (out == in).
//
// For each usable (AES, GHASH) pair: a key from gcm_key_init_with_backends,
// gcm_seal, and the ciphertext and tag compared with the first pair's; then
// gcm_open of that pair's own output must succeed and give the plaintext
// back. When libcrypto.so.3 can be loaded (once, at the first input), its
// EVP AES-GCM seals the message too and must give the same ciphertext and
// the same tag prefix; without it that comparison is skipped silently.
#include <dlfcn.h>

#include "fuzz_util.h"

using namespace gcmfuzz;

namespace {

// The few libcrypto entry points needed, looked up with dlsym so that
// nothing links against OpenSSL. Values from OpenSSL's evp.h.
constexpr int kCtrlSetIvLen = 0x9;  // EVP_CTRL_GCM_SET_IVLEN
constexpr int kCtrlGetTag = 0x10;   // EVP_CTRL_GCM_GET_TAG

struct OpenSSL {
  bool ok = false;
  void *(*ctx_new)(void);
  void (*ctx_free)(void *);
  const void *(*aes_gcm[3])(void);  // 128, 192, 256
  int (*encrypt_init)(void *, const void *, void *, const unsigned char *,
                      const unsigned char *);
  int (*encrypt_update)(void *, unsigned char *, int *, const unsigned char *,
                        int);
  int (*encrypt_final)(void *, unsigned char *, int *);
  int (*ctrl)(void *, int, int, void *);
};

template <typename F>
bool Sym(void *lib, const char *name, F *out) {
  void *p = dlsym(lib, name);
  *out = reinterpret_cast<F>(p);
  return p != nullptr;
}

const OpenSSL &GetOpenSSL() {
  static const OpenSSL ossl = [] {
    OpenSSL o;
    void *lib = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return o;
    o.ok = Sym(lib, "EVP_CIPHER_CTX_new", &o.ctx_new) &&
           Sym(lib, "EVP_CIPHER_CTX_free", &o.ctx_free) &&
           Sym(lib, "EVP_aes_128_gcm", &o.aes_gcm[0]) &&
           Sym(lib, "EVP_aes_192_gcm", &o.aes_gcm[1]) &&
           Sym(lib, "EVP_aes_256_gcm", &o.aes_gcm[2]) &&
           Sym(lib, "EVP_EncryptInit_ex", &o.encrypt_init) &&
           Sym(lib, "EVP_EncryptUpdate", &o.encrypt_update) &&
           Sym(lib, "EVP_EncryptFinal_ex", &o.encrypt_final) &&
           Sym(lib, "EVP_CIPHER_CTX_ctrl", &o.ctrl);
    return o;  // the library stays loaded for the life of the process
  }();
  static bool said = [] {
    std::fprintf(stderr, "fuzz_differential: %s\n",
                 ossl.ok ? "comparing with OpenSSL (libcrypto.so.3)"
                         : "libcrypto.so.3 not loadable; no OpenSSL comparison");
    return true;
  }();
  (void)said;
  return ossl;
}

// Seals with OpenSSL into ct (pt.size() bytes) and a full 16-byte tag.
// Returns false when OpenSSL refuses (then nothing is compared).
bool OpenSSLSeal(const OpenSSL &o, const Message &m, const Bytes &pt, Bytes *ct,
                 uint8_t tag[16]) {
  if (pt.size() > INT32_MAX || m.aad.size() > INT32_MAX) return false;
  void *ctx = o.ctx_new();
  if (ctx == nullptr) return false;
  const void *cipher = o.aes_gcm[m.key.size() / 8 - 2]();
  int len = 0;
  bool ok =
      o.encrypt_init(ctx, cipher, nullptr, nullptr, nullptr) == 1 &&
      o.ctrl(ctx, kCtrlSetIvLen, static_cast<int>(m.nonce.size()), nullptr) ==
          1 &&
      o.encrypt_init(ctx, nullptr, nullptr, m.key.data(), m.nonce.data()) == 1;
  if (ok && !m.aad.empty()) {
    ok = o.encrypt_update(ctx, nullptr, &len, m.aad.data(),
                          static_cast<int>(m.aad.size())) == 1;
  }
  ct->assign(pt.size(), 0);
  if (ok && !pt.empty()) {
    ok = o.encrypt_update(ctx, ct->data(), &len, pt.data(),
                          static_cast<int>(pt.size())) == 1 &&
         static_cast<size_t>(len) == pt.size();
  }
  uint8_t scratch[16];
  ok = ok && o.encrypt_final(ctx, scratch, &len) == 1 && len == 0 &&
       o.ctrl(ctx, kCtrlGetTag, 16, tag) == 1;
  o.ctx_free(ctx);
  return ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Input in(data, size);
  const Message m = ReadMessage(in);
  const bool in_place = (m.key_sel & 0x80) != 0;
  const Bytes pt = in.Rest();
  const size_t n = pt.size();

  Bytes ref_ct, ref_tag;
  const Pair *ref_pair = nullptr;
#define DUMP_ALL (DumpMessage(m), DumpHex("plaintext", pt))

  for (const Pair &p : UsablePairs()) {
    gcm_key key;
    FUZZ_CHECK(gcm_key_init_with_backends(&key, m.key.data(), m.key.size(),
                                          p.aes.c_str(), p.ghash.c_str()) == 1,
               DUMP_ALL, "key init failed for usable pair %s/%s",
               p.aes.c_str(), p.ghash.c_str());

    Bytes ct(n), tag(m.tag_len);
    int ok;
    if (in_place) {
      ct = pt;
      ok = gcm_seal(&key, ct.data(), tag.data(), tag.size(), m.nonce.data(),
                    m.nonce.size(), ct.data(), n, m.aad.data(), m.aad.size());
    } else {
      ok = gcm_seal(&key, ct.data(), tag.data(), tag.size(), m.nonce.data(),
                    m.nonce.size(), pt.data(), n, m.aad.data(), m.aad.size());
    }
    FUZZ_CHECK(ok == 1, DUMP_ALL, "gcm_seal failed with %s/%s", p.aes.c_str(),
               p.ghash.c_str());

    if (ref_pair == nullptr) {
      ref_pair = &p;
      ref_ct = ct;
      ref_tag = tag;
    } else {
      FUZZ_CHECK(ct == ref_ct && tag == ref_tag,
                 (DUMP_ALL, DumpHex("ct", ct), DumpHex("ref ct", ref_ct),
                  DumpHex("tag", tag), DumpHex("ref tag", ref_tag)),
                 "%s/%s and %s/%s seal differently", p.aes.c_str(),
                 p.ghash.c_str(), ref_pair->aes.c_str(),
                 ref_pair->ghash.c_str());
    }

    // Each pair opens its own output (in place when sealing was).
    Bytes back(n);
    if (in_place) {
      back = ct;
      ok = gcm_open(&key, back.data(), m.nonce.data(), m.nonce.size(),
                    back.data(), n, tag.data(), tag.size(), m.aad.data(),
                    m.aad.size());
    } else {
      ok = gcm_open(&key, back.data(), m.nonce.data(), m.nonce.size(),
                    ct.data(), n, tag.data(), tag.size(), m.aad.data(),
                    m.aad.size());
    }
    FUZZ_CHECK(ok == 1 && back == pt,
               (DUMP_ALL, DumpHex("ct", ct), DumpHex("tag", tag),
                DumpHex("opened", back)),
               "%s/%s cannot open its own output (ok=%d)", p.aes.c_str(),
               p.ghash.c_str(), ok);
    gcm_key_cleanup(&key);
  }

  const OpenSSL &o = GetOpenSSL();
  if (o.ok) {
    Bytes ct;
    uint8_t tag[16];
    if (OpenSSLSeal(o, m, pt, &ct, tag)) {
      FUZZ_CHECK(ct == ref_ct && Equal(tag, ref_tag.data(), m.tag_len),
                 (DUMP_ALL, DumpHex("libgcm ct", ref_ct),
                  DumpHex("openssl ct", ct), DumpHex("libgcm tag", ref_tag),
                  DumpHex("openssl tag", tag, 16)),
                 "libgcm and OpenSSL disagree");
    }
  }
#undef DUMP_ALL
  return 0;
}
