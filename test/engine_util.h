// test/engine_util.h: what the stream engine's test files share: the
// internal key of a public one, a sealing stream fed in given chunks, and
// the way fake fused kernels are written.
#ifndef LIBGCM_TEST_ENGINE_UTIL_H
#define LIBGCM_TEST_ENGINE_UTIL_H

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

extern "C" {
#include "../crypto/gcm/mode.h"
#include "../crypto/gcm/placement.h"
}
#include "test_util.h"

// Fake descriptors (struct fused_impl, struct aes_impl) name every field
// they set with a designated initialiser, so reordering the struct cannot
// bind a value to the wrong field (C++ also refuses designators out of
// declaration order); the fields left out are zero. gcc's
// -Wmissing-field-initializers would flag each field left out, so the
// fakes sit between these two macros.
#define ENGINE_FAKES_BEGIN \
  _Pragma("GCC diagnostic push") \
  _Pragma("GCC diagnostic ignored \"-Wmissing-field-initializers\"")
#define ENGINE_FAKES_END _Pragma("GCC diagnostic pop")

// The fields every fake kernel of the engine tests shares, in fused.h's
// order: a constant-time kernel any pair may name (never picked by
// dispatch), usable everywhere, whose seal and open are Class::Seal and
// Class::Open. A fake lists the fields after these (seal_lagged,
// lag_blocks, stream sizes) behind it:
//   const struct fused_impl kLagged = {ENGINE_FAKE_KERNEL("lagged", 1, Lagged),
//                                      .seal_lagged = Lagged::SealLagged, ...};
#define ENGINE_FAKE_KERNEL(kernel_name, min, Class)                          \
  .name = kernel_name, .constant_time = 1, .requires = "none",               \
  .min_blocks = min, .usable = enginetest::AlwaysUsable, .seal = Class::Seal, \
  .open = Class::Open, .named_only = 1

namespace enginetest {

inline struct gcm_key_st *KeySt(gcm_key *k) { return gcm_key_place(k); }

inline int AlwaysUsable() { return 1; }

// Seals pt through a stream fed chunks[0], chunks[1], ... (repeated).
inline void StreamSealChunks(const gcm_key *k, const gcmtest::Bytes &nonce,
                             const gcmtest::Bytes &aad, const gcmtest::Bytes &pt,
                             const std::vector<size_t> &chunks, gcmtest::Bytes *ct,
                             uint8_t tag[16]) {
  gcm_stream s;
  ASSERT_EQ(1, gcm_stream_init(&s, k, GCM_ENCRYPT, nonce.data(), nonce.size()));
  ASSERT_EQ(1, gcm_stream_aad(&s, aad.data(), aad.size()));
  ct->assign(pt.size(), 0);
  size_t off = 0;
  for (size_t i = 0; off < pt.size(); i++) {
    size_t n = std::min(pt.size() - off, chunks[i % chunks.size()]);
    ASSERT_EQ(1, gcm_stream_update(&s, ct->data() + off, pt.data() + off, n));
    off += n;
  }
  ASSERT_EQ(1, gcm_stream_finish_seal(&s, tag, 16));
}

// The Seal and Open hooks of a fake kernel built on the portable fused
// loop (gcmi_fused_c): each calls T::Run(kernel, ...) with the loop's seal
// or open, so T counts or alters what it wraps in one place.
template <typename T>
struct OnPortableLoop {
  static void Seal(const struct fused_keys *k, uint8_t *out, const uint8_t *in, size_t n,
                   const uint8_t ctr[16], uint8_t Xi[16]) {
    T::Run(gcmi_fused_c.seal, k, out, in, n, ctr, Xi);
  }
  static void Open(const struct fused_keys *k, uint8_t *out, const uint8_t *in, size_t n,
                   const uint8_t ctr[16], uint8_t Xi[16]) {
    T::Run(gcmi_fused_c.open, k, out, in, n, ctr, Xi);
  }
};

// One-shot seals of pt under keys a and b (one raw key on two engines, say
// a fake kernel in a's slot and the two passes on b): true when the
// ciphertexts and tags agree. ct and tag, when given, get a's.
inline bool SealsAgree(const gcm_key *a, const gcm_key *b, const gcmtest::Bytes &nonce,
                       const gcmtest::Bytes &aad, const gcmtest::Bytes &pt,
                       gcmtest::Bytes *ct = nullptr, uint8_t *tag = nullptr) {
  gcmtest::Bytes ca(pt.size()), cb(pt.size());
  uint8_t ta[16], tb[16];
  EXPECT_EQ(1, gcm_seal(a, ca.data(), ta, 16, nonce.data(), nonce.size(), pt.data(),
                        pt.size(), aad.data(), aad.size()));
  EXPECT_EQ(1, gcm_seal(b, cb.data(), tb, 16, nonce.data(), nonce.size(), pt.data(),
                        pt.size(), aad.data(), aad.size()));
  if (ct != nullptr) *ct = ca;
  if (tag != nullptr) memcpy(tag, ta, 16);
  return ca == cb && memcmp(ta, tb, 16) == 0;
}

}  // namespace enginetest

#endif  // LIBGCM_TEST_ENGINE_UTIL_H
