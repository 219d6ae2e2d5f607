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

}  // namespace enginetest

#endif  // LIBGCM_TEST_ENGINE_UTIL_H
