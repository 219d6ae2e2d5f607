// test/kernel_contract_test.cc: every usable fused kernel, on every pair
// it fits, called directly against its contract (crypto/fused/fused.h) with
// keys built as the mode engine builds them: CTR with the pair's ctr32 and
// GHASH with the pair's ghash as the reference, run lengths around every
// small power of two, the 32-bit counter wrapping inside a run, in place
// and at odd alignments. (test/fused_kernel_test.cc compares the kernels
// with a GHASH that shares no code with them, over longer runs.)
#include <gtest/gtest.h>

#include <algorithm>
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
using gcmtest::Triple;

namespace {

std::vector<Triple> FusedTriples() {
  std::vector<Triple> out;
  for (const auto &t : gcmtest::UsableBackendTriples())
    if (t.fused != "none") out.push_back(t);
  return out;
}

class FusedKernel : public ::testing::TestWithParam<Triple> {};

TEST_P(FusedKernel, MatchesCtrThenGhash) {
  const Triple &t = GetParam();
  const struct aes_impl *aes = gcmi_dispatch_find_aes(t.aes.c_str());
  const struct ghash_impl *ghash = gcmi_dispatch_find_ghash(t.ghash.c_str());
  const struct fused_impl *f = gcmi_dispatch_find_fused(t.fused.c_str());
  ASSERT_TRUE(aes && ghash && f);
  ASSERT_TRUE(gcmi_dispatch_fused_fits(f, aes, ghash));

  std::mt19937_64 rng(2024);
  // Keys built as the mode engine builds them.
  gcm_key key;
  Bytes raw = RandomBytes(rng, 32);
  ASSERT_EQ(1, gcm_key_init_with_fused(&key, raw.data(), raw.size(), t.aes.c_str(),
                                       t.ghash.c_str(), t.fused.c_str()));
  const struct gcm_key_st *ks = gcm_key_place(&key);
  const struct fused_keys fk = gcm_key_fused_keys(ks);

  const size_t lengths[] = {1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
                            127, 128, 129, 255, 256, 257, 600};
  const uint32_t starts[] = {1, 0xfffffff0u, 0xffffffffu, 0x7fffffffu};
  for (size_t blocks : lengths) {
    for (uint32_t start : starts) {
      for (int dir = 0; dir < 2; dir++) {
        for (size_t align : {0, 1, 7}) {
          for (int inplace = 0; inplace < 2; inplace++) {
            const size_t n = blocks * 16;
            Bytes in = RandomBytes(rng, n);
            uint8_t ctr[16];
            Bytes c16 = RandomBytes(rng, 12);
            std::memcpy(ctr, c16.data(), 12);
            store_be32(ctr + 12, start);
            Bytes xi0 = RandomBytes(rng, 16);

            // Reference: two passes.
            Bytes ref(n);
            aes->ctr32(gcm_key_aes(ks), ref.data(), in.data(), blocks, ctr);
            uint8_t ref_xi[16];
            std::memcpy(ref_xi, xi0.data(), 16);
            ghash->update(ref_xi, gcm_key_ghash(ks), dir == 0 ? ref.data() : in.data(), blocks);

            // The kernel, at an odd offset, in place or not.
            Bytes inbuf(n + 16 + align), outbuf(n + 16 + align + 16, 0xa5);
            uint8_t *src = inbuf.data() + align;
            std::memcpy(src, in.data(), n);
            uint8_t *dst = inplace ? src : outbuf.data() + align;
            uint8_t ctr_copy[16], xi[16];
            std::memcpy(ctr_copy, ctr, 16);
            std::memcpy(xi, xi0.data(), 16);
            if (dir == 0)
              f->seal(&fk, dst, src, blocks, ctr_copy, xi);
            else
              f->open(&fk, dst, src, blocks, ctr_copy, xi);
            const std::string what = std::string(dir == 0 ? "seal" : "open") +
                                     " blocks=" + std::to_string(blocks) +
                                     " ctr=" + std::to_string(start) +
                                     " align=" + std::to_string(align) +
                                     " inplace=" + std::to_string(inplace);
            ASSERT_EQ(0, std::memcmp(dst, ref.data(), n)) << what;
            ASSERT_EQ(0, std::memcmp(xi, ref_xi, 16)) << what;
            ASSERT_EQ(0, std::memcmp(ctr_copy, ctr, 16)) << "ctr changed: " << what;
            if (!inplace) {
              ASSERT_TRUE(std::all_of(outbuf.begin() + align + n, outbuf.end(),
                                      [](uint8_t b) { return b == 0xa5; }))
                  << "wrote past the end: " << what;
            }
          }
        }
      }
    }
  }
  gcm_key_cleanup(&key);
}

INSTANTIATE_TEST_SUITE_P(All, FusedKernel, ::testing::ValuesIn(FusedTriples()),
                         [](const ::testing::TestParamInfo<Triple> &info) {
                           return gcmtest::TripleName(info.param);
                         });
// A build with no fused kernel at all would leave the suite empty.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FusedKernel);

// Every fused descriptor of the list, usable here or not: the block counts
// it gives the stream planner fit the policy's bytes
// (crypto/gcm/stream_plan.h, STREAM_POLICY_MAX_RUN_MIN), with a batch added.
TEST(FusedDescriptor, CountsFitTheStreamPolicy) {
  size_t n = 0;
  for (const struct fused_impl *f; (f = gcmi_dispatch_fused_at(n)) != NULL; n++) {
    SCOPED_TRACE(f->name);
    EXPECT_LE(f->min_blocks, (unsigned)STREAM_POLICY_MAX_RUN_MIN);
    EXPECT_LE(f->stream_run_min, (unsigned)STREAM_POLICY_MAX_RUN_MIN);
    EXPECT_LE(f->stream_tail_min, (unsigned)STREAM_POLICY_MAX_RUN_MIN);
    EXPECT_LE(f->lag_blocks, (unsigned)STREAM_POLICY_MAX_COUNT);
  }
  EXPECT_GT(n, 0u);
  EXPECT_LE(GCM_STREAM_RUN_MIN, STREAM_POLICY_MAX_RUN_MIN);
}

}  // namespace
