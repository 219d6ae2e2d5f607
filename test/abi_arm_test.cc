// test/abi_arm_test.cc: every 32-bit ARM assembly kernel keeps AAPCS.
//
// Each kernel is called through the trampoline in
// asm/armv4/abi-check-armv4.pl, which loads the callee-saved registers
// r4-r11 and d8-d15 (q4-q7) with random values, calls the kernel, and stores
// them back together with sp before and after the call. The test fails if
// any of them changed, or if sp was not 8-byte aligned at the call (AAPCS's
// public-interface rule, which the trampoline's own prologue must keep).
// The checker's own test calls deliberately broken functions (below, in
// assembly) and expects exactly one reported violation each, and none for
// a function that only clobbers what it may. (A function returning with sp
// moved would also crash the trampoline, which addresses its scratch
// through sp, so that case is caught but not self-tested.)
//
// The kernels need the CPU features they are written for: under a CPU
// without the Armv8 crypto instructions (qemu-arm -cpu cortex-a15) their
// tests are skipped, and test/run_all.sh runs them under -cpu max.
//
// Adding a kernel: add a call to the lists in AesKernels / GhashKernels.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#if defined(__arm__) && defined(LIBGCM_ASM_ARM) && \
    defined(LIBGCM_ABI_TEST_TRAMPOLINES_ARM)

#include "key_rooms.h"
#include "abi_util.h"
#include "../crypto/aes/aes.h"
// cpu.h has no C++ linkage block of its own.
extern "C" {
#include "../crypto/cpu/cpu.h"
}
#include "../crypto/ghash/ghash.h"

namespace {

// Layout shared with asm/armv4/abi-check-armv4.pl.
struct AbiRegs {
  uint32_t in_r[8];   // r4 .. r11
  uint64_t in_d[8];   // d8 .. d15
  uint32_t out_r[8];  // the same after the call
  uint64_t out_d[8];
  uint32_t sp_before, sp_after;
};
static_assert(offsetof(AbiRegs, in_d) == 32, "layout");
static_assert(offsetof(AbiRegs, out_r) == 96, "layout");
static_assert(offsetof(AbiRegs, sp_before) == 192, "layout");

extern "C" uint32_t abi_arm_call(const void *fn, AbiRegs *regs, uint32_t a0,
                                 uint32_t a1, uint32_t a2, uint32_t a3,
                                 uint32_t a4);

// Deliberately broken functions for the checker's self-test.
extern "C" void abi_arm_bad_r4(void);
extern "C" void abi_arm_bad_r11(void);
extern "C" void abi_arm_bad_d8(void);
extern "C" void abi_arm_bad_d15(void);
extern "C" void abi_arm_good_scratch(void);

#if defined(__thumb__)
#define ABI_ARM_ISA ".thumb\n"
#define ABI_ARM_FUNC(name) \
  ".globl " #name "\n.hidden " #name "\n.type " #name ", %function\n.thumb_func\n" #name ":\n"
#else
#define ABI_ARM_ISA ".arm\n"
#define ABI_ARM_FUNC(name) \
  ".globl " #name "\n.hidden " #name "\n.type " #name ", %function\n" #name ":\n"
#endif
asm(".text\n.syntax unified\n.fpu neon\n" ABI_ARM_ISA ".p2align 2\n"
    ABI_ARM_FUNC(abi_arm_bad_r4) "eor r4, r4, #1\nbx lr\n"
    ABI_ARM_FUNC(abi_arm_bad_r11) "eor r11, r11, #1\nbx lr\n"
    ABI_ARM_FUNC(abi_arm_bad_d8) "vmov.i8 d8, #0xff\nbx lr\n"
    ABI_ARM_FUNC(abi_arm_bad_d15) "vmov.i8 q7, #0\nbx lr\n"
    ABI_ARM_FUNC(abi_arm_good_scratch)
    "mov r1, #1\nmov r2, #2\nmov r3, #3\nmov r12, #4\n"
    "vmov.i8 q0, #5\nvmov.i8 q3, #6\nvmov.i8 q8, #7\nvmov.i8 q15, #8\nbx lr\n");

const char *const kNames[16] = {"r4", "r5", "r6",  "r7",  "r8",  "r9",
                                "r10", "r11", "d8", "d9", "d10", "d11",
                                "d12", "d13", "d14", "d15"};

// Calls fn through the trampoline; one failure listing every register that
// did not survive (and sp).
uint32_t CheckedCall(const void *fn, const std::string &what, uint32_t a0 = 0,
                     uint32_t a1 = 0, uint32_t a2 = 0, uint32_t a3 = 0,
                     uint32_t a4 = 0) {
  static std::mt19937_64 rng(0x13a32);
  AbiRegs regs;
  memset(&regs, 0, sizeof(regs));
  for (auto &v : regs.in_r) v = (uint32_t)rng();
  for (auto &v : regs.in_d) v = rng();
  uint32_t ret = abi_arm_call(fn, &regs, a0, a1, a2, a3, a4);
  std::string bad;
  for (int i = 0; i < 8; i++) {
    if (regs.in_r[i] != regs.out_r[i]) bad += std::string(" ") + kNames[i];
  }
  for (int i = 0; i < 8; i++) {
    if (regs.in_d[i] != regs.out_d[i]) bad += std::string(" ") + kNames[8 + i];
  }
  if (regs.sp_before != regs.sp_after) bad += " sp";
  if (regs.sp_before % 8 != 0) bad += " (sp not 8-byte aligned at the call)";
  if (!bad.empty()) ADD_FAILURE() << what << " clobbered:" << bad;
  return ret;
}

template <typename F>
const void *Fn(F *f) {
  return reinterpret_cast<const void *>(f);
}

uint32_t P(const void *p) { return (uint32_t)reinterpret_cast<uintptr_t>(p); }

TEST(AbiArm, AesKernels) {
  if (!gcmi_cpu_arm_has_aes()) GTEST_SKIP() << "no AES instructions on this CPU";
  uint8_t key[32], ctr[16], buf[16 * 19], out[16 * 19];
  for (size_t i = 0; i < sizeof(key); i++) key[i] = (uint8_t)(3 * i + 1);
  for (size_t i = 0; i < sizeof(buf); i++) buf[i] = (uint8_t)i;
  memset(ctr, 0xfe, sizeof(ctr));
  for (uint32_t len : {16u, 24u, 32u}) {
    AesKeyRoom s;
    std::string n = "armv8_32 (" + std::to_string(len * 8) + "-bit key) ";
    CheckedCall(Fn(gcmi_aes_armv8_32.set_encrypt_key), n + "set_encrypt_key",
                P(s.get()), P(key), len);
    CheckedCall(Fn(gcmi_aes_armv8_32.encrypt_block), n + "encrypt_block", P(s.get()),
                P(out), P(buf));
    for (uint32_t blocks : {0u, 1u, 3u, 4u, 19u}) {
      CheckedCall(Fn(gcmi_aes_armv8_32.ctr32), n + "ctr32", P(s.get()), P(out), P(buf),
                  blocks, P(ctr));
    }
  }
}

TEST(AbiArm, BsaesNeonKernels) {
  if (!gcmi_cpu_arm_has_neon()) GTEST_SKIP() << "no NEON on this CPU";
  uint8_t key[32], ctr[16], buf[16 * 19], out[16 * 19];
  for (size_t i = 0; i < sizeof(key); i++) key[i] = (uint8_t)(5 * i + 2);
  for (size_t i = 0; i < sizeof(buf); i++) buf[i] = (uint8_t)(i * 3);
  memset(ctr, 0xfd, sizeof(ctr));
  for (uint32_t len : {16u, 24u, 32u}) {
    AesKeyRoom s;
    // The schedule is C (crypto/aes/aes_bsaes_neon.c); the kernel is ctr32.
    gcmi_aes_bsaes_neon.set_encrypt_key(s.get(), key, len);
    std::string n = "bsaes_neon (" + std::to_string(len * 8) + "-bit key) ";
    for (uint32_t blocks : {0u, 1u, 7u, 8u, 19u}) {
      CheckedCall(Fn(gcmi_aes_bsaes_neon.ctr32), n + "ctr32", P(s.get()), P(out),
                  P(buf), blocks, P(ctr));
    }
  }
}

TEST(AbiArm, GhashKernels) {
  if (!gcmi_cpu_arm_has_pmull()) GTEST_SKIP() << "no PMULL instruction on this CPU";
  uint8_t h[16], xi[16] = {0}, buf[16 * 19];
  for (size_t i = 0; i < sizeof(h); i++) h[i] = (uint8_t)(7 * i + 5);
  for (size_t i = 0; i < sizeof(buf); i++) buf[i] = (uint8_t)(i * i);
  GhashKeyRoom k;
  CheckedCall(Fn(gcmi_ghash_pmull32.init), "pmull32 init", P(k.get()), P(h));
  for (uint32_t blocks : {0u, 1u, 4u, 19u}) {
    CheckedCall(Fn(gcmi_ghash_pmull32.update), "pmull32 blocks", P(xi),
                P(k.get()), P(buf), blocks);
  }
}

TEST(AbiArm, NeonGhashKernels) {
  if (!gcmi_cpu_arm_has_neon()) GTEST_SKIP() << "no NEON on this CPU";
  uint8_t h[16], xi[16] = {0}, buf[16 * 19];
  for (size_t i = 0; i < sizeof(h); i++) h[i] = (uint8_t)(11 * i + 3);
  for (size_t i = 0; i < sizeof(buf); i++) buf[i] = (uint8_t)(i * 5);
  GhashKeyRoom k;
  CheckedCall(Fn(gcmi_ghash_neon_armv4.init), "neon init", P(k.get()), P(h));
  for (uint32_t blocks : {0u, 1u, 4u, 19u}) {
    CheckedCall(Fn(gcmi_ghash_neon_armv4.update), "neon blocks", P(xi), P(k.get()),
                P(buf), blocks);
  }
}

// Counts the failures CheckedCall reports for fn.
int Violations(void (*fn)(void)) {
  return gcmtest::CountFailures(
      [&] { CheckedCall(reinterpret_cast<const void *>(fn), "bad"); });
}

TEST(AbiArmChecker, CatchesViolations) {
  EXPECT_EQ(1, Violations(abi_arm_bad_r4));
  EXPECT_EQ(1, Violations(abi_arm_bad_r11));
  EXPECT_EQ(1, Violations(abi_arm_bad_d8));
  EXPECT_EQ(1, Violations(abi_arm_bad_d15));
  EXPECT_EQ(0, Violations(abi_arm_good_scratch));
}

}  // namespace

#else

TEST(AbiArm, NotBuilt) {
  GTEST_SKIP() << "no 32-bit ARM assembly in this build";
}

#endif
