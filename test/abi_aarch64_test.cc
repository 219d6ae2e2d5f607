// test/abi_aarch64_test.cc: every aarch64 assembly kernel keeps AAPCS64.
//
// Each kernel is called through the trampoline in
// asm/aarch64/abi-check-aarch64.pl, which loads the callee-saved registers
// x19-x29 and d8-d15 (the low 64 bits of v8-v15; the upper halves are
// caller-saved) with random values, calls the kernel, and stores them back
// together with sp before and after the call. The test fails if any of
// them changed. The checker's own test calls deliberately broken functions
// (below, in assembly) and expects exactly one reported violation each,
// and none for a function that only clobbers what it may.
//
// Adding a kernel: add a call to the lists in AesKernels / GhashKernels /
// FusedKernels.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#if defined(__aarch64__) && defined(LIBGCM_ASM_AARCH64) && \
    defined(LIBGCM_ABI_TEST_TRAMPOLINES_AARCH64)

// The kernels are reached through their descriptors, whose hooks point
// at them directly.
#include "key_rooms.h"
#include "abi_util.h"

extern "C" {
#include "../crypto/aes/aes.h"
#include "../crypto/ghash/ghash.h"
#include "../crypto/fused/fused.h"
}

namespace {

// Layout shared with asm/aarch64/abi-check-aarch64.pl.
struct AbiRegs {
  uint64_t in[19];   // x19 .. x29, d8 .. d15
  uint64_t out[19];  // the same after the call
  uint64_t sp_before, sp_after;
};
static_assert(offsetof(AbiRegs, out) == 152, "layout");
static_assert(offsetof(AbiRegs, sp_before) == 304, "layout");

extern "C" uint64_t abi_aarch64_call(const void *fn, AbiRegs *regs,
                                     uint64_t a0, uint64_t a1, uint64_t a2,
                                     uint64_t a3, uint64_t a4, uint64_t a5);

// Deliberately broken functions for the checker's self-test.
extern "C" void abi_a64_bad_x19(void);
extern "C" void abi_a64_bad_x29(void);
extern "C" void abi_a64_bad_d8(void);
extern "C" void abi_a64_bad_d15(void);
extern "C" void abi_a64_good_v8_upper(void);
extern "C" void abi_a64_good_scratch(void);
asm(R"(
  .text
  .p2align 2
  .globl abi_a64_bad_x19
  .hidden abi_a64_bad_x19
abi_a64_bad_x19:
  hint #34
  eor x19, x19, #1
  ret
  .globl abi_a64_bad_x29
  .hidden abi_a64_bad_x29
abi_a64_bad_x29:
  hint #34
  eor x29, x29, #1
  ret
  .globl abi_a64_bad_d8
  .hidden abi_a64_bad_d8
abi_a64_bad_d8:
  hint #34
  movi d8, #0xff
  ret
  .globl abi_a64_bad_d15
  .hidden abi_a64_bad_d15
abi_a64_bad_d15:
  hint #34
  ins v15.b[7], wzr
  ret
  .globl abi_a64_good_v8_upper
  .hidden abi_a64_good_v8_upper
abi_a64_good_v8_upper:
  hint #34
  ins v8.d[1], xzr
  ret
  .globl abi_a64_good_scratch
  .hidden abi_a64_good_scratch
abi_a64_good_scratch:
  hint #34
  mov x9, #1
  mov x15, #2
  movi v0.16b, #3
  movi v16.16b, #4
  movi v31.16b, #5
  ret
)");

const char *const kNames[19] = {"x19", "x20", "x21", "x22", "x23", "x24",
                                "x25", "x26", "x27", "x28", "x29", "d8",
                                "d9",  "d10", "d11", "d12", "d13", "d14",
                                "d15"};

// Calls fn through the trampoline; one failure listing every register that
// did not survive (and sp).
uint64_t CheckedCall(const void *fn, const std::string &what, uint64_t a0 = 0,
                     uint64_t a1 = 0, uint64_t a2 = 0, uint64_t a3 = 0,
                     uint64_t a4 = 0, uint64_t a5 = 0) {
  static std::mt19937_64 rng(0x15aa64);
  AbiRegs regs;
  memset(&regs, 0, sizeof(regs));
  for (auto &v : regs.in) v = rng();
  uint64_t ret = abi_aarch64_call(fn, &regs, a0, a1, a2, a3, a4, a5);
  std::string bad;
  for (int i = 0; i < 19; i++) {
    if (regs.in[i] != regs.out[i]) bad += std::string(" ") + kNames[i];
  }
  if (regs.sp_before != regs.sp_after) bad += " sp";
  if (!bad.empty()) ADD_FAILURE() << what << " clobbered:" << bad;
  return ret;
}

template <typename F>
const void *Fn(F *f) {
  return reinterpret_cast<const void *>(f);
}

uint64_t P(const void *p) { return reinterpret_cast<uintptr_t>(p); }

TEST(AbiAarch64, AesKernels) {
  uint8_t key[32], ctr[16], buf[16 * 19], out[16 * 19];
  for (size_t i = 0; i < sizeof(key); i++) key[i] = (uint8_t)(3 * i + 1);
  for (size_t i = 0; i < sizeof(buf); i++) buf[i] = (uint8_t)i;
  memset(ctr, 0xfe, sizeof(ctr));
  for (size_t len : {16, 24, 32}) {
    AesKeyRoom s;
    std::string n = "armv8 (" + std::to_string(len * 8) + "-bit key) ";
    CheckedCall(Fn(gcmi_aes_armv8.set_encrypt_key), n + "set_encrypt_key",
                P(s.get()), P(key), len);
    CheckedCall(Fn(gcmi_aes_armv8.encrypt_block), n + "encrypt_block",
                P(s.get()), P(out), P(buf));
    for (size_t blocks : {0, 1, 7, 8, 19}) {
      CheckedCall(Fn(gcmi_aes_armv8.ctr32), n + "ctr32", P(s.get()), P(out),
                  P(buf), blocks, P(ctr));
      CheckedCall(Fn(gcmi_aes_armv8.ctr32le), n + "ctr32le", P(&s), P(out),
                  P(buf), blocks, P(ctr));
    }
    n = "vpaes_neon (" + std::to_string(len * 8) + "-bit key) ";
    CheckedCall(Fn(gcmi_aes_vpaes_neon.set_encrypt_key), n + "set_encrypt_key",
                P(s.get()), P(key), len);
    CheckedCall(Fn(gcmi_aes_vpaes_neon.encrypt_block), n + "encrypt_block",
                P(s.get()), P(out), P(buf));
    for (size_t blocks : {0, 1, 2, 3, 4, 7, 19}) {
      CheckedCall(Fn(gcmi_aes_vpaes_neon.ctr32), n + "ctr32", P(s.get()), P(out),
                  P(buf), blocks, P(ctr));
    }
  }
}

TEST(AbiAarch64, GhashKernels) {
  uint8_t h[16], xi[16] = {0}, buf[16 * 19];
  for (size_t i = 0; i < sizeof(h); i++) h[i] = (uint8_t)(7 * i + 5);
  for (size_t i = 0; i < sizeof(buf); i++) buf[i] = (uint8_t)(i * i);
  GhashKeyRoom k;
  CheckedCall(Fn(gcmi_ghash_pmull.init), "pmull init", P(k.get()), P(h));
  for (size_t blocks : {0, 1, 8, 19}) {
    CheckedCall(Fn(gcmi_ghash_pmull.update), "pmull blocks", P(xi), P(k.get()),
                P(buf), blocks);
    CheckedCall(Fn(gcmi_ghash_pmull.polyval_update), "pmull polyval", P(xi),
                P(&k), P(buf), blocks);
  }
  // neon: the key is built in C (crypto/ghash/ghash_neon_aarch64.c); the kernel
  // takes batches of up to eight blocks.
  gcmi_ghash_neon_aarch64.init(k.get(), h);
  for (size_t blocks : {0, 1, 8, 19}) {
    CheckedCall(Fn(gcmi_ghash_neon_aarch64.update), "neon blocks", P(xi), P(k.get()),
                P(buf), blocks);
  }
}

// Both aarch64 fused kernels (the EOR3 one where FEAT_SHA3 is there: qemu
// -cpu max).
class AbiAarch64Fused : public ::testing::TestWithParam<const struct fused_impl *> {};

TEST_P(AbiAarch64Fused, Kernels) {
  const struct fused_impl *f = GetParam();
  if (!f->usable()) GTEST_SKIP() << f->name << " needs " << f->requires;
  uint8_t key[32], h[16], ctr[16], xi[16] = {0}, buf[16 * 19], out[16 * 19];
  for (size_t i = 0; i < sizeof(key); i++) key[i] = (uint8_t)(5 * i + 2);
  for (size_t i = 0; i < sizeof(buf); i++) buf[i] = (uint8_t)(i ^ 0x5a);
  memset(ctr, 0xfd, sizeof(ctr));
  for (size_t len : {16, 24, 32}) {
    AesKeyRoom s;
    GhashKeyRoom gk;
    gcmi_aes_armv8.set_encrypt_key(s.get(), key, len);
    const uint8_t zero[16] = {0};
    gcmi_aes_armv8.encrypt_block(s.get(), h, zero);
    gcmi_ghash_pmull.init(gk.get(), h);
    struct fused_keys k = {&gcmi_aes_armv8, s.get(), &gcmi_ghash_pmull, gk.get(), nullptr};
    std::string n = std::string(f->name) + " (" + std::to_string(len * 8) + "-bit key) ";
    for (size_t blocks : {0, 1, 7, 8, 9, 16, 19}) {
      CheckedCall(Fn(f->seal), n + "seal", P(&k), P(out), P(buf), blocks, P(ctr), P(xi));
      CheckedCall(Fn(f->open), n + "open", P(&k), P(out), P(buf), blocks, P(ctr), P(xi));
      if (f->siv_open != nullptr) {
        CheckedCall(Fn(f->siv_open), n + "siv_open", P(&k), P(out), P(buf), blocks,
                    P(ctr), P(xi));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AbiAarch64, AbiAarch64Fused,
                         ::testing::Values(&gcmi_fused_armv8_pmull,
                                           &gcmi_fused_armv8_pmull_eor3),
                         [](const ::testing::TestParamInfo<const struct fused_impl *> &i) {
                           return std::string(i.param->name);
                         });

// Counts the failures CheckedCall reports for fn.
int Violations(void (*fn)(void)) {
  return gcmtest::CountFailures(
      [&] { CheckedCall(reinterpret_cast<const void *>(fn), "bad"); });
}

TEST(AbiAarch64Checker, CatchesViolations) {
  EXPECT_EQ(1, Violations(abi_a64_bad_x19));
  EXPECT_EQ(1, Violations(abi_a64_bad_x29));
  EXPECT_EQ(1, Violations(abi_a64_bad_d8));
  EXPECT_EQ(1, Violations(abi_a64_bad_d15));
  EXPECT_EQ(0, Violations(abi_a64_good_v8_upper));  // upper half: volatile
  EXPECT_EQ(0, Violations(abi_a64_good_scratch));
}

}  // namespace

#else

TEST(AbiAarch64, NotBuilt) {
  GTEST_SKIP() << "no aarch64 assembly in this build";
}

#endif
