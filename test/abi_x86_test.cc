// test/abi_x86_test.cc: every 32-bit x86 assembly kernel keeps the cdecl
// calling convention (the x86 section of the ABI checks; test/abi_test.cc
// holds the x86_64 one).
//
// Each kernel is called through a trampoline (asm/x86/abi-check-x86.pl)
// that loads ebx, ebp, esi and edi with random values, puts the arguments
// on the stack, calls the kernel with esp 0, 4, 8 or 12 bytes below a
// 16-byte boundary (cdecl promises only 4-byte alignment, so a kernel that
// assumed more would fault or misbehave at one of them), and stores the
// registers and the direction flag's state back; the test fails if any
// changed or if the results differ from a direct call.
//
// Adding a kernel: add a row to X86GhashKernels() or X86AesKernels().
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#if defined(LIBGCM_ASM_X86) && defined(LIBGCM_ABI_TEST_TRAMPOLINES_X86)

#include <gcm/gcm.h>

// The kernels are reached through their descriptors, whose hooks point
// at them directly.
#include "key_rooms.h"
#include "abi_util.h"

extern "C" {
#include "../crypto/aes/aes.h"
#include "../crypto/ghash/ghash.h"
}

namespace {

// Layout shared with asm/x86/abi-check-x86.pl.
struct AbiX86Regs {
  uint32_t gp[4];  // ebx, ebp, esi, edi
  uint32_t skew;   // bytes below a 16-byte boundary at the call
  int32_t df_step; // +1 when the direction flag was clear after the call
};
static_assert(offsetof(AbiX86Regs, skew) == 16, "layout");
static_assert(offsetof(AbiX86Regs, df_step) == 20, "layout");

const char *const kGpNames[4] = {"ebx", "ebp", "esi", "edi"};

extern "C" uint32_t abi_test_call_x86(const void *fn, const uint32_t args[6],
                                      AbiX86Regs *regs);

const uint32_t kSkews[] = {0, 4, 8, 12};

// Calls fn(args) through the trampoline at every stack alignment and checks
// the registers each time. fn must give the same result when repeated.
void CheckedCall(const void *fn, const uint32_t args[6],
                 const std::string &what) {
  static std::mt19937 rng(12345);
  for (uint32_t skew : kSkews) {
    AbiX86Regs in, out;
    for (auto &g : in.gp) g = rng();
    in.skew = skew;
    in.df_step = 0;
    out = in;
    abi_test_call_x86(fn, args, &out);
    for (int i = 0; i < 4; i++) {
      EXPECT_EQ(in.gp[i], out.gp[i])
          << what << " (esp skew " << skew << "): " << kGpNames[i]
          << " not preserved";
    }
    EXPECT_EQ(1, out.df_step) << what << ": direction flag left set";
  }
}

uint32_t Arg(const void *p) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p));
}

bool Usable(const char *name) {
  return gcm_backend_is_available(GCM_BACKEND_AES, name) ||
         gcm_backend_is_available(GCM_BACKEND_GHASH, name);
}

struct X86GhashKernels {
  const char *name;
  void (*init)(ghash_key *, const uint8_t *);  // null when init is C
  void (*blocks)(uint8_t *, const ghash_key *, const uint8_t *, size_t);
  const ghash_impl *c_init;  // the descriptor whose C init builds the key
  // The POLYVAL entry point (AES-GCM-SIV), null when the kernel has none.
  void (*polyval)(uint8_t *, const ghash_key *, const uint8_t *, size_t);
};

std::vector<X86GhashKernels> GhashList() {
  return {{"clmul", gcmi_ghash_clmul.init, gcmi_ghash_clmul.update, nullptr,
           gcmi_ghash_clmul.polyval_update},
          // ssse3's init is C (crypto/ghash/ghash_ssse3.c).
          {"ssse3", nullptr, gcmi_ghash_ssse3.update, &gcmi_ghash_ssse3,
           gcmi_ghash_ssse3.polyval_update},
          // So is sse2's (crypto/ghash/ghash_sse2.c).
          {"sse2", nullptr, gcmi_ghash_sse2.update, &gcmi_ghash_sse2,
           gcmi_ghash_sse2.polyval_update}};
}

void PrintTo(const X86GhashKernels &k, std::ostream *os) { *os << k.name; }

class GhashAbiX86Test : public ::testing::TestWithParam<X86GhashKernels> {};

TEST_P(GhashAbiX86Test, PreservesRegistersAtAnyStackAlignment) {
  const X86GhashKernels &k = GetParam();
  if (!Usable(k.name)) GTEST_SKIP() << k.name << " needs CPU features this CPU lacks";
  std::mt19937 rng(7);
  uint8_t H[16];
  for (auto &b : H) b = static_cast<uint8_t>(rng());
  GhashKeyRoom ref_key, key;
  memset(ref_key.get(), 0, sizeof(ref_key));
  memset(key.get(), 0, sizeof(key));
  if (k.init != nullptr) {
    k.init(ref_key.get(), H);
    uint32_t init_args[6] = {Arg(key.get()), Arg(H), 0, 0, 0, 0};
    CheckedCall(reinterpret_cast<const void *>(k.init), init_args,
                std::string(k.name) + " init");
    EXPECT_EQ(0, memcmp(ref_key.get(), key.get(), sizeof(key))) << k.name << " init";
  } else {
    k.c_init->init(ref_key.get(), H);
    key = ref_key;
  }

  std::vector<uint8_t> in(16 * 40 + 1);
  for (auto &b : in) b = static_cast<uint8_t>(rng());
  struct Entry {
    const char *what;
    void (*fn)(uint8_t *, const ghash_key *, const uint8_t *, size_t);
  };
  for (const Entry &e :
       {Entry{" blocks", k.blocks}, Entry{" polyval", k.polyval}}) {
    if (e.fn == nullptr) continue;
    for (uint32_t n : {0, 1, 2, 7, 8, 9, 16, 17, 40}) {
      for (size_t misalign : {0, 1}) {
        const uint8_t *p = in.data() + misalign;
        uint8_t ref[16], got[16];
        for (int i = 0; i < 16; i++) ref[i] = static_cast<uint8_t>(i * 17);
        e.fn(ref, ref_key.get(), p, n);
        std::string what = std::string(k.name) + e.what + " n=" + std::to_string(n) +
                           " misalign=" + std::to_string(misalign);
        // Four calls (one per alignment), each from the same starting Xi.
        for (uint32_t skew : kSkews) {
          for (int i = 0; i < 16; i++) got[i] = static_cast<uint8_t>(i * 17);
          uint32_t args[6] = {Arg(got), Arg(key.get()), Arg(p), n, 0, 0};
          AbiX86Regs r{{1, 2, 3, 4}, skew, 0};
          abi_test_call_x86(reinterpret_cast<const void *>(e.fn), args, &r);
          EXPECT_EQ(0, memcmp(ref, got, 16)) << what << " skew " << skew;
        }
        // Registers: blocks updates Xi in place, so they are checked on
        // calls whose result is not compared.
        uint32_t args[6] = {Arg(got), Arg(key.get()), Arg(p), n, 0, 0};
        CheckedCall(reinterpret_cast<const void *>(e.fn), args, what);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    X86, GhashAbiX86Test, ::testing::ValuesIn(GhashList()),
    [](const ::testing::TestParamInfo<X86GhashKernels> &info) {
      return std::string(info.param.name);
    });

struct X86AesKernels {
  const char *name;
  void (*set_encrypt_key)(aes_schedule *, const uint8_t *, size_t);
  void (*encrypt_block)(const aes_schedule *, uint8_t *, const uint8_t *);
  void (*ctr32)(const aes_schedule *, uint8_t *, const uint8_t *, size_t,
                const uint8_t *);
  // The little-endian counter form (AES-GCM-SIV), null when absent.
  void (*ctr32le)(const aes_schedule *, uint8_t *, const uint8_t *, size_t,
                  const uint8_t *);
};

std::vector<X86AesKernels> AesList() {
  return {{"aesni", gcmi_aes_aesni.set_encrypt_key, gcmi_aes_aesni.encrypt_block,
           gcmi_aes_aesni.ctr32, gcmi_aes_aesni.ctr32le},
          {"vpaes", gcmi_aes_vpaes.set_encrypt_key, gcmi_aes_vpaes.encrypt_block,
           gcmi_aes_vpaes.ctr32, gcmi_aes_vpaes.ctr32le},
          // C with SSE2 intrinsics, not assembly: checked here because it
          // must keep its SSE2 spills aligned at any caller alignment
          // (-mstackrealign, CMakeLists.txt).
          {"ct_sse2", gcmi_aes_ct_sse2.set_encrypt_key, gcmi_aes_ct_sse2.encrypt_block,
           gcmi_aes_ct_sse2.ctr32, gcmi_aes_ct_sse2.ctr32le}};
}

void PrintTo(const X86AesKernels &k, std::ostream *os) { *os << k.name; }

class AesAbiX86Test : public ::testing::TestWithParam<X86AesKernels> {};

// Every key size, and ctr32 through its main loop and every tail, with five
// arguments on the stack; in-place ctr32 is not used, so repeated calls
// give the same output.
TEST_P(AesAbiX86Test, PreservesRegistersAtAnyStackAlignment) {
  const X86AesKernels &k = GetParam();
  if (!Usable(k.name)) GTEST_SKIP() << k.name << " needs CPU features this CPU lacks";
  std::mt19937 rng(11);
  uint8_t raw[32];
  for (auto &b : raw) b = static_cast<uint8_t>(rng());
  std::vector<uint8_t> in(16 * 20 + 1);
  for (auto &b : in) b = static_cast<uint8_t>(rng());
  uint8_t ctr[16];
  for (auto &b : ctr) b = static_cast<uint8_t>(rng());

  for (uint32_t key_len : {16, 24, 32}) {
    const std::string key_what =
        std::string(k.name) + " key_len=" + std::to_string(key_len);
    AesKeyRoom ref_s, s;
    memset(ref_s.get(), 0, sizeof(ref_s));
    memset(s.get(), 0, sizeof(s));
    k.set_encrypt_key(ref_s.get(), raw, key_len);
    uint32_t key_args[6] = {Arg(s.get()), Arg(raw), key_len, 0, 0, 0};
    CheckedCall(reinterpret_cast<const void *>(k.set_encrypt_key), key_args,
                key_what + " set_encrypt_key");
    EXPECT_EQ(0, memcmp(ref_s.get(), s.get(), sizeof(s))) << key_what;

    uint8_t ref_block[16], got_block[16];
    k.encrypt_block(ref_s.get(), ref_block, in.data());
    uint32_t block_args[6] = {Arg(s.get()), Arg(got_block), Arg(in.data()), 0, 0, 0};
    CheckedCall(reinterpret_cast<const void *>(k.encrypt_block), block_args,
                key_what + " encrypt_block");
    EXPECT_EQ(0, memcmp(ref_block, got_block, 16)) << key_what;

    using CtrFn = void (*)(const aes_schedule *, uint8_t *, const uint8_t *,
                           size_t, const uint8_t *);
    const std::pair<const char *, CtrFn> ctr_fns[] = {{" ctr32", k.ctr32},
                                                      {" ctr32le", k.ctr32le}};
    for (const auto &fn : ctr_fns) {
      if (fn.second == nullptr) continue;
      for (uint32_t n : {0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 20}) {
        for (size_t misalign : {0, 1}) {
          std::vector<uint8_t> ref(16 * n + 1), got(16 * n + 1);
          const uint8_t *p = in.data() + misalign;
          fn.second(ref_s.get(), ref.data() + misalign, p, n, ctr);
          uint32_t args[6] = {Arg(s.get()), Arg(got.data() + misalign), Arg(p), n,
                              Arg(ctr), 0};
          std::string what = key_what + fn.first + " n=" + std::to_string(n) +
                             " misalign=" + std::to_string(misalign);
          CheckedCall(reinterpret_cast<const void *>(fn.second), args, what);
          EXPECT_EQ(ref, got) << what;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    X86, AesAbiX86Test, ::testing::ValuesIn(AesList()),
    [](const ::testing::TestParamInfo<X86AesKernels> &info) {
      return std::string(info.param.name);
    });

// The checker itself: functions that break the rules must be caught (in
// the Windows builds too: MinGW's GCC takes the same naked functions).
#if defined(__GNUC__)
#if defined(__CET__)
#define ABI_TEST_ENDBR "endbr32\n"
#else
#define ABI_TEST_ENDBR ""
#endif
__attribute__((naked)) void abi_x86_bad_ebx(void) {
  __asm__(ABI_TEST_ENDBR "movl $1, %ebx\n ret\n");
}
__attribute__((naked)) void abi_x86_bad_ebp(void) {
  __asm__(ABI_TEST_ENDBR "xorl %ebp, %ebp\n ret\n");
}
__attribute__((naked)) void abi_x86_bad_df(void) {
  __asm__(ABI_TEST_ENDBR "std\n ret\n");
}
__attribute__((naked)) void abi_x86_ok_ecx(void) {
  __asm__(ABI_TEST_ENDBR "xorl %ecx, %ecx\n xorl %edx, %edx\n ret\n");
}

// Counts the failures CheckedCall reports for fn.
int Violations(void (*fn)(void)) {
  uint32_t args[6] = {0, 0, 0, 0, 0, 0};
  return gcmtest::CountFailures(
      [&] { CheckedCall(reinterpret_cast<const void *>(fn), args, "bad"); });
}

TEST(AbiCheckerX86, CatchesViolations) {
  // One failure per stack alignment tried.
  const int n = sizeof(kSkews) / sizeof(kSkews[0]);
  EXPECT_EQ(n, Violations(abi_x86_bad_ebx));
  EXPECT_EQ(n, Violations(abi_x86_bad_ebp));
  EXPECT_EQ(n, Violations(abi_x86_bad_df));
  EXPECT_EQ(0, Violations(abi_x86_ok_ecx));  // ecx, edx are volatile
}
#endif

}  // namespace

#endif
