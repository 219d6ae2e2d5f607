// test/abi_util.h: what the ABI checkers' tests (abi_test.cc for x86_64,
// abi_x86_test.cc, abi_aarch64_test.cc, abi_arm_test.cc) share.
#ifndef LIBGCM_TEST_ABI_UTIL_H
#define LIBGCM_TEST_ABI_UTIL_H

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

namespace gcmtest {

// Runs call() and returns how many failures it reported, without failing
// the running test: each checker's self-test calls deliberately broken
// functions through its CheckedCall and expects exactly one report each.
template <typename Call>
int CountFailures(Call call) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::
            INTERCEPT_ONLY_CURRENT_THREAD,
        &results);
    call();
  }
  return results.size();
}

}  // namespace gcmtest

#endif  // LIBGCM_TEST_ABI_UTIL_H
