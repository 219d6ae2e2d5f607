// test/abi_test.cc: every x86_64 assembly kernel keeps the calling
// convention.
//
// Each kernel is called through a trampoline (asm/x86_64/abi-check-x86_64.pl)
// that loads the callee-saved registers with random values, calls the
// kernel with the stack aligned to 16 bytes as the ABI requires, and stores
// the registers and the direction flag's state back; the test fails if any
// of them changed. On Linux the kernels are also built with the Microsoft
// x64 convention (translator flavour elf-msabi) and checked with the win64
// trampoline, which adds rdi, rsi and xmm6-xmm15 to the registers that
// must survive, so the win64 prologues and epilogues run here too. The
// results must match a direct call.
//
// Upper vector state: on CPUs where XGETBV takes ECX=1 (XINUSE), the
// trampoline cleans the upper state before the call and reads XINUSE after
// it; a kernel must return with YMM_Hi128 and ZMM_Hi256 in their initial
// state (VZEROUPPER does that; the translator emits it for every function
// that names a ymm or zmm register). Only the components XCR0 enables are
// checked. Hi16_ZMM (zmm16-31) is not: those registers are volatile in
// both ABIs and dirty ones cost no transition penalty, no instruction but
// XRSTOR returns them to the initial state, and glibc's AVX-512 string
// functions leave them in use from process start (so a backend's C init
// that calls memset would fail a check that its code cannot pass).
//
// Adding a kernel: add a row to Kernels() (GHASH), AesKernelList() (AES)
// or FusedKernelList() (fused AES-CTR + GHASH) below.
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#endif
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#if defined(LIBGCM_ASM_X86_64) && defined(LIBGCM_ABI_TEST_TRAMPOLINES)

#include <gcm/gcm.h>

#include "key_rooms.h"
#include "abi_util.h"

// The kernels are reached through their descriptors, whose hooks point
// at them directly.
extern "C" {
#include "../crypto/aes/aes.h"
#include "../crypto/fused/fused.h"
#include "../crypto/ghash/ghash.h"
}

namespace {

// Layout shared with asm/x86_64/abi-check-x86_64.pl.
struct AbiRegs {
  uint64_t gp[8];  // rbx, rbp, r12, r13, r14, r15, rdi, rsi
  uint8_t xmm[10][16];  // xmm6 .. xmm15
  int64_t df_step;  // +1 when the direction flag was clear after the call
  uint64_t xinuse_probe;  // in: nonzero to read XINUSE around the call
  uint64_t xinuse;        // out: XGETBV(ECX=1) right after the call
};
static_assert(offsetof(AbiRegs, xmm) == 64, "layout");
static_assert(offsetof(AbiRegs, df_step) == 224, "layout");
static_assert(offsetof(AbiRegs, xinuse) == 240, "layout");

// XINUSE bits that must be clear when a kernel returns: YMM_Hi128 (2) and
// ZMM_Hi256 (6), as far as XCR0 enables them; 0 when this CPU cannot
// report XINUSE (then nothing is checked).
uint64_t UpperStateMask() {
#if defined(__GNUC__)
  static const uint64_t mask = [] {
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, nullptr) < 0xd) return uint64_t{0};
    __cpuid_count(1, 0, a, b, c, d);
    if (!(c & (1u << 27))) return uint64_t{0};  // OSXSAVE
    const bool avx = (c & (1u << 28)) != 0;
    __cpuid_count(0xd, 1, a, b, c, d);
    if (!(a & (1u << 2))) return uint64_t{0};  // XGETBV with ECX=1
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    const uint64_t xcr0 = (static_cast<uint64_t>(hi) << 32) | lo;
    // An emulator may report every component as in use without tracking
    // it (qemu's TCG does, e.g. under -cpu Icelake-Server): right after
    // VZEROUPPER the upper YMM halves must read as not in use, else XINUSE
    // means nothing here and nothing is checked.
    if (avx && (xcr0 & (1u << 2))) {
      __asm__ volatile("vzeroupper\n\txgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
      if (lo & (1u << 2)) return uint64_t{0};
    }
    return xcr0 & ((1u << 2) | (1u << 6));
  }();
  return mask;
#else
  return 0;
#endif
}

const char *const kGpNames[8] = {"rbx", "rbp", "r12", "r13",
                                 "r14", "r15", "rdi", "rsi"};

extern "C" {
uint64_t abi_test_call_sysv(const void *fn, const uint64_t args[6],
                            AbiRegs *regs);
uint64_t abi_test_call_win64(const void *fn, const uint64_t args[6],
                             AbiRegs *regs);
#if defined(LIBGCM_ABI_TEST_MSABI)
// Only their addresses are taken: they are called through the trampoline.
void gcmi_ghash_x86_64_clmul_init_msabi(void);
void gcmi_ghash_x86_64_clmul_blocks_msabi(void);
void gcmi_ghash_x86_64_clmul_polyval_msabi(void);
void gcmi_ghash_x86_64_clmul_init_for_msabi(void);
void gcmi_ghash_x86_64_ssse3_blocks_msabi(void);
void gcmi_ghash_x86_64_ssse3_polyval_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx512_seal_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx512_open_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx512_seal_lagged_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx512_siv_open_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx512_siv_ctr32le_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx512_siv_tag_ctr32le_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx512_siv_polyval_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx512_siv_hash_init_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx512_siv_polyval_runs_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx2_seal_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx2_open_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx2_seal_lagged_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx2_siv_open_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx2_siv_ctr32le_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx2_siv_tag_ctr32le_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx2_siv_keys_hash_msabi(void);
void gcmi_aes_gcm_x86_64_vaes_avx2_siv_open_end_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_avx_seal_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_avx_open_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_avx_seal_lagged_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_avx_seal_oneshot_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_avx_open_oneshot_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_avx_siv_open_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_sse_seal_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_sse_open_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_sse_seal_lagged_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_sse_seal_oneshot_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_sse_open_oneshot_msabi(void);
void gcmi_aes_gcm_x86_64_aesni_sse_siv_open_msabi(void);
void gcmi_aes_gcm_siv_x86_64_aesni_keys_msabi(void);
void gcmi_aes_gcm_siv_x86_64_aesni_seal_short_msabi(void);
void gcmi_aes_gcm_siv_x86_64_aesni_open_short_msabi(void);
void gcmi_ghash_x86_64_vpclmul_avx2_init_msabi(void);
void gcmi_ghash_x86_64_vpclmul_avx2_blocks_msabi(void);
void gcmi_ghash_x86_64_vpclmul_avx2_polyval_msabi(void);
void gcmi_ghash_x86_64_vpclmul_avx2_polyval_runs_msabi(void);
void gcmi_ghash_x86_64_vpclmul_avx2_init_for_msabi(void);
void gcmi_aes_x86_64_aesni_set_encrypt_key_msabi(void);
void gcmi_aes_x86_64_aesni_encrypt_block_msabi(void);
void gcmi_aes_x86_64_aesni_ctr32_msabi(void);
void gcmi_aes_x86_64_aesni_ctr32le_msabi(void);
void gcmi_aes_x86_64_vpaes_set_encrypt_key_msabi(void);
void gcmi_aes_x86_64_vpaes_encrypt_block_msabi(void);
void gcmi_aes_x86_64_vpaes_ctr32_msabi(void);
void gcmi_aes_x86_64_vpaes_ctr32le_msabi(void);
#endif
}

enum class Abi { kSysV, kWin64 };

#if defined(_WIN32)
constexpr Abi kNativeAbi = Abi::kWin64;
#else
constexpr Abi kNativeAbi = Abi::kSysV;
#endif

// Calls fn(args) through the trampoline for `abi` and checks the
// registers; returns fn's rax.
uint64_t CheckedCall(Abi abi, const void *fn, const uint64_t args[6],
                     const std::string &what) {
  static std::mt19937_64 rng(12345);
  AbiRegs in, out;
  for (auto &g : in.gp) g = rng();
  for (auto &x : in.xmm)
    for (auto &b : x) b = static_cast<uint8_t>(rng());
  in.df_step = 0;
  const uint64_t upper = UpperStateMask();
  in.xinuse_probe = upper != 0;
  in.xinuse = 0;
  out = in;
  uint64_t ret = abi == Abi::kSysV ? abi_test_call_sysv(fn, args, &out)
                                   : abi_test_call_win64(fn, args, &out);
  int ngp = abi == Abi::kSysV ? 6 : 8;
  for (int i = 0; i < ngp; i++) {
    EXPECT_EQ(in.gp[i], out.gp[i]) << what << ": " << kGpNames[i]
                                   << " not preserved";
  }
  if (abi == Abi::kWin64) {
    for (int i = 0; i < 10; i++) {
      EXPECT_EQ(0, memcmp(in.xmm[i], out.xmm[i], 16))
          << what << ": xmm" << 6 + i << " not preserved";
    }
  }
  EXPECT_EQ(1, out.df_step) << what << ": direction flag left set";
  EXPECT_EQ(0u, out.xinuse & upper)
      << what << ": upper vector state left in use (XINUSE 0x" << std::hex
      << out.xinuse << std::dec << "): missing VZEROUPPER";
  return ret;
}

uint64_t Arg(const void *p) { return reinterpret_cast<uintptr_t>(p); }

// A GHASH kernel pair as built for one calling convention. `init` may be
// null when the backend's init is C (only its blocks are assembly).
struct GhashKernels {
  const char *name;
  Abi abi;
  const void *init;
  const void *blocks;
  // The native functions, called directly for the reference results.
  void (*ref_init)(ghash_key *, const uint8_t *);
  void (*ref_blocks)(uint8_t *, const ghash_key *, const uint8_t *, size_t);
  // AES-GCM-SIV's hooks (null where the backend has none): POLYVAL's
  // blocks and init_for, as built and as called directly.
  const void *polyval = nullptr;
  const void *init_for = nullptr;
  void (*ref_polyval)(uint8_t *, const ghash_key *, const uint8_t *,
                      size_t) = nullptr;
  void (*ref_init_for)(ghash_key *, const uint8_t *, size_t) = nullptr;
};

// A GHASH backend's kernels as the descriptor points at them, SIV hooks
// included.
GhashKernels FromDescriptor(const char *name, const ghash_impl &g,
                            bool asm_init) {
  GhashKernels k{name, kNativeAbi,
                 asm_init ? reinterpret_cast<const void *>(g.init) : nullptr,
                 reinterpret_cast<const void *>(g.update), g.init, g.update};
  k.polyval = reinterpret_cast<const void *>(g.polyval_update);
  k.init_for = reinterpret_cast<const void *>(g.init_for);
  k.ref_polyval = g.polyval_update;
  k.ref_init_for = g.init_for;
  return k;
}

#if defined(LIBGCM_ABI_TEST_MSABI)
// A GHASH backend's Win64 build (its *_msabi kernels: init, blocks,
// POLYVAL's blocks, init_for), against the descriptor's own functions.
GhashKernels Win64Kernels(const char *name, const ghash_impl &g,
                          void (*init)(void), void (*blocks)(void),
                          void (*polyval)(void), void (*init_for)(void)) {
  GhashKernels k = FromDescriptor(name, g, true);
  k.abi = Abi::kWin64;
  k.init = reinterpret_cast<const void *>(init);
  k.blocks = reinterpret_cast<const void *>(blocks);
  k.polyval = reinterpret_cast<const void *>(polyval);
  k.init_for = reinterpret_cast<const void *>(init_for);
  return k;
}
#endif

std::vector<GhashKernels> Kernels() {
  std::vector<GhashKernels> k;
  k.push_back(FromDescriptor("clmul", gcmi_ghash_clmul, true));
  // ssse3's init is C (crypto/ghash/ghash_ssse3.c).
  k.push_back(FromDescriptor("ssse3", gcmi_ghash_ssse3, true));
  k.push_back(FromDescriptor("vpclmul_avx2", gcmi_ghash_vpclmul_avx2, true));
#if defined(LIBGCM_ABI_TEST_MSABI)
  k.push_back(Win64Kernels("vpclmul_avx2_msabi", gcmi_ghash_vpclmul_avx2,
                           &gcmi_ghash_x86_64_vpclmul_avx2_init_msabi,
                           &gcmi_ghash_x86_64_vpclmul_avx2_blocks_msabi,
                           &gcmi_ghash_x86_64_vpclmul_avx2_polyval_msabi,
                           &gcmi_ghash_x86_64_vpclmul_avx2_init_for_msabi));
  k.push_back(Win64Kernels("clmul_msabi", gcmi_ghash_clmul,
                           &gcmi_ghash_x86_64_clmul_init_msabi,
                           &gcmi_ghash_x86_64_clmul_blocks_msabi,
                           &gcmi_ghash_x86_64_clmul_polyval_msabi,
                           &gcmi_ghash_x86_64_clmul_init_for_msabi));
  // ssse3's init and init_for are C: only its blocks kernels are Win64.
  GhashKernels ssse3 = FromDescriptor("ssse3_msabi", gcmi_ghash_ssse3, false);
  ssse3.abi = Abi::kWin64;
  ssse3.blocks =
      reinterpret_cast<const void *>(&gcmi_ghash_x86_64_ssse3_blocks_msabi);
  ssse3.polyval =
      reinterpret_cast<const void *>(&gcmi_ghash_x86_64_ssse3_polyval_msabi);
  ssse3.init_for = nullptr;
  k.push_back(ssse3);
#endif
  return k;
}

void PrintTo(const GhashKernels &k, std::ostream *os) { *os << k.name; }

// An init_for-shaped kernel (key, H, max_blocks) called through the
// trampoline against `ref` called directly, for limits around the powers
// of H that kernels compute in groups: the keys must be byte for byte the
// same.
void CheckInitFor(Abi abi, const void *fn, ghash_init_for_fn *ref,
                  const uint8_t H[16], const std::string &name) {
  for (size_t max : {1, 2, 4, 5, 8, 9, 16, 17}) {
    GhashKeyRoom ref_key, got_key;
    memset(ref_key.get(), 0, sizeof(ref_key));
    memset(got_key.get(), 0, sizeof(got_key));
    ref(ref_key.get(), H, max);
    uint64_t args[6] = {Arg(got_key.get()), Arg(H), max, 0, 0, 0};
    const std::string what = name + " " + std::to_string(max);
    CheckedCall(abi, fn, args, what);
    EXPECT_EQ(0, memcmp(ref_key.get(), got_key.get(), sizeof(got_key)))
        << what;
  }
}

// A kernel shaped like ghash_update_fn (a 16-byte state, a GHASH key, n
// blocks: GHASH's blocks, POLYVAL's) called through the trampoline on
// `key` against `ref` called directly on `ref_key`, both from the state
// xi0: the states after must be the same.
void CheckStateCall(Abi abi, const void *fn, ghash_update_fn *ref,
                    const ghash_key *ref_key, const ghash_key *key,
                    const uint8_t xi0[16], const uint8_t *in, size_t n,
                    const std::string &what) {
  uint8_t ref_s[16], got_s[16];
  memcpy(ref_s, xi0, 16);
  memcpy(got_s, xi0, 16);
  ref(ref_s, ref_key, in, n);
  uint64_t args[6] = {Arg(got_s), Arg(key), Arg(in), n, 0, 0};
  CheckedCall(abi, fn, args, what);
  EXPECT_EQ(0, memcmp(ref_s, got_s, 16)) << what;
}

class GhashAbiTest : public ::testing::TestWithParam<GhashKernels> {};

// A kernel may only be called on a CPU that has its instructions (the qemu
// tier runs use CPU models without them). `name` is the backend name,
// optionally followed by "_msabi".
bool KernelUsable(const std::string &name) {
  const std::string base = name.substr(0, name.find("_msabi"));
  return gcm_backend_is_available(GCM_BACKEND_AES, base.c_str()) ||
         gcm_backend_is_available(GCM_BACKEND_GHASH, base.c_str());
}

TEST_P(GhashAbiTest, PreservesRegistersAndMatchesDirectCall) {
  const GhashKernels &k = GetParam();
  if (!KernelUsable(k.name)) {
    GTEST_SKIP() << k.name << " needs CPU features this CPU lacks";
  }
  std::mt19937 rng(7);
  uint8_t H[16];
  for (auto &b : H) b = static_cast<uint8_t>(rng());

  // Reference: the native kernels called directly.
  GhashKeyRoom ref_key, key;
  memset(ref_key.get(), 0, sizeof(ref_key));
  memset(key.get(), 0, sizeof(key));
  k.ref_init(ref_key.get(), H);

  if (k.init != nullptr) {
    uint64_t init_args[6] = {Arg(key.get()), Arg(H), 0, 0, 0, 0};
    CheckedCall(k.abi, k.init, init_args, std::string(k.name) + " init");
    EXPECT_EQ(0, memcmp(ref_key.get(), key.get(), sizeof(key))) << k.name << " init";
  } else {
    key = ref_key;
  }

  std::vector<uint8_t> in(16 * 70 + 1);
  for (auto &b : in) b = static_cast<uint8_t>(rng());
  uint8_t xi0[16];
  for (int i = 0; i < 16; i++) xi0[i] = static_cast<uint8_t>(i * 17);
  for (size_t n : {0, 1, 2, 7, 8, 9, 15, 16, 17, 70}) {
    for (size_t misalign : {0, 1}) {
      const uint8_t *p = in.data() + misalign;
      std::string what = std::string(k.name) + " blocks n=" +
                         std::to_string(n) + " misalign=" +
                         std::to_string(misalign);
      CheckStateCall(k.abi, k.blocks, k.ref_blocks, ref_key.get(), key.get(),
                     xi0, p, n, what);
      if (k.polyval != nullptr) {
        CheckStateCall(k.abi, k.polyval, k.ref_polyval, ref_key.get(),
                       key.get(), xi0, p, n, what + " polyval");
      }
    }
  }
  if (k.init_for != nullptr) {
    CheckInitFor(k.abi, k.init_for, k.ref_init_for, H,
                 std::string(k.name) + " init_for");
  }
}

INSTANTIATE_TEST_SUITE_P(
    X86_64, GhashAbiTest, ::testing::ValuesIn(Kernels()),
    [](const ::testing::TestParamInfo<GhashKernels> &info) {
      return std::string(info.param.name);
    });

// An AES kernel triple as built for one calling convention.
struct AesKernels {
  const char *name;
  Abi abi;
  const void *set_encrypt_key;
  const void *encrypt_block;
  const void *ctr32;
  // The native kernels, called directly for the reference results.
  void (*ref_set_encrypt_key)(aes_schedule *, const uint8_t *, size_t);
  void (*ref_encrypt_block)(const aes_schedule *, uint8_t *, const uint8_t *);
  void (*ref_ctr32)(const aes_schedule *, uint8_t *, const uint8_t *, size_t,
                    const uint8_t *);
  // AES-GCM-SIV's counter mode, as built and as called directly.
  const void *ctr32le = nullptr;
  void (*ref_ctr32le)(const aes_schedule *, uint8_t *, const uint8_t *,
                      size_t, const uint8_t *) = nullptr;
};

std::vector<AesKernels> AesKernelList() {
  std::vector<AesKernels> k;
  k.push_back(
      {"aesni", kNativeAbi,
       reinterpret_cast<const void *>(gcmi_aes_aesni.set_encrypt_key),
       reinterpret_cast<const void *>(gcmi_aes_aesni.encrypt_block),
       reinterpret_cast<const void *>(gcmi_aes_aesni.ctr32),
       gcmi_aes_aesni.set_encrypt_key, gcmi_aes_aesni.encrypt_block,
       gcmi_aes_aesni.ctr32,
       reinterpret_cast<const void *>(gcmi_aes_aesni.ctr32le),
       gcmi_aes_aesni.ctr32le});
  k.push_back(
      {"vpaes", kNativeAbi,
       reinterpret_cast<const void *>(gcmi_aes_vpaes.set_encrypt_key),
       reinterpret_cast<const void *>(gcmi_aes_vpaes.encrypt_block),
       reinterpret_cast<const void *>(gcmi_aes_vpaes.ctr32),
       gcmi_aes_vpaes.set_encrypt_key, gcmi_aes_vpaes.encrypt_block,
       gcmi_aes_vpaes.ctr32,
       reinterpret_cast<const void *>(gcmi_aes_vpaes.ctr32le),
       gcmi_aes_vpaes.ctr32le});
#if defined(LIBGCM_ABI_TEST_MSABI)
  k.push_back(
      {"aesni_msabi", Abi::kWin64,
       reinterpret_cast<const void *>(&gcmi_aes_x86_64_aesni_set_encrypt_key_msabi),
       reinterpret_cast<const void *>(&gcmi_aes_x86_64_aesni_encrypt_block_msabi),
       reinterpret_cast<const void *>(&gcmi_aes_x86_64_aesni_ctr32_msabi),
       gcmi_aes_aesni.set_encrypt_key, gcmi_aes_aesni.encrypt_block,
       gcmi_aes_aesni.ctr32,
       reinterpret_cast<const void *>(&gcmi_aes_x86_64_aesni_ctr32le_msabi),
       gcmi_aes_aesni.ctr32le});
  k.push_back(
      {"vpaes_msabi", Abi::kWin64,
       reinterpret_cast<const void *>(&gcmi_aes_x86_64_vpaes_set_encrypt_key_msabi),
       reinterpret_cast<const void *>(&gcmi_aes_x86_64_vpaes_encrypt_block_msabi),
       reinterpret_cast<const void *>(&gcmi_aes_x86_64_vpaes_ctr32_msabi),
       gcmi_aes_vpaes.set_encrypt_key, gcmi_aes_vpaes.encrypt_block,
       gcmi_aes_vpaes.ctr32,
       reinterpret_cast<const void *>(&gcmi_aes_x86_64_vpaes_ctr32le_msabi),
       gcmi_aes_vpaes.ctr32le});
#endif
  return k;
}

void PrintTo(const AesKernels &k, std::ostream *os) { *os << k.name; }

// A kernel shaped like aes_ctr32_fn (a schedule, out, in, n blocks, the
// counter: ctr32, ctr32le) called through the trampoline on `key` against
// `ref` called directly on `ref_key`, with the same input and counter:
// the outputs, written `misalign` bytes into their buffers, must be the
// same.
void CheckCtrCall(Abi abi, const void *fn, aes_ctr32_fn *ref,
                  const aes_schedule *ref_key, const aes_schedule *key,
                  size_t misalign, const uint8_t *in, size_t n,
                  const uint8_t ctr[16], const std::string &what) {
  std::vector<uint8_t> ref_out(16 * n + 1), got_out(16 * n + 1);
  ref(ref_key, ref_out.data() + misalign, in, n, ctr);
  uint64_t args[6] = {Arg(key), Arg(got_out.data() + misalign), Arg(in), n,
                      Arg(ctr), 0};
  CheckedCall(abi, fn, args, what);
  EXPECT_EQ(ref_out, got_out) << what;
}

class AesAbiTest : public ::testing::TestWithParam<AesKernels> {};

// Every key size, and ctr32 through the eight-block loop and each tail
// (0..7 blocks left), with five arguments (the fifth on the stack in win64).
TEST_P(AesAbiTest, PreservesRegistersAndMatchesDirectCall) {
  const AesKernels &k = GetParam();
  if (!KernelUsable(k.name)) {
    GTEST_SKIP() << k.name << " needs CPU features this CPU lacks";
  }
  std::mt19937 rng(11);
  uint8_t raw[32];
  for (auto &b : raw) b = static_cast<uint8_t>(rng());
  std::vector<uint8_t> in(16 * 20 + 1);
  for (auto &b : in) b = static_cast<uint8_t>(rng());
  uint8_t ctr[16];
  for (auto &b : ctr) b = static_cast<uint8_t>(rng());

  for (size_t key_len : {16, 24, 32}) {
    const std::string key_what =
        std::string(k.name) + " key_len=" + std::to_string(key_len);
    AesKeyRoom ref_s, s;
    memset(ref_s.get(), 0, sizeof(ref_s));
    memset(s.get(), 0, sizeof(s));
    k.ref_set_encrypt_key(ref_s.get(), raw, key_len);
    uint64_t key_args[6] = {Arg(s.get()), Arg(raw), key_len, 0, 0, 0};
    CheckedCall(k.abi, k.set_encrypt_key, key_args,
                key_what + " set_encrypt_key");
    EXPECT_EQ(0, memcmp(ref_s.get(), s.get(), sizeof(s))) << key_what;

    uint8_t ref_block[16], got_block[16];
    k.ref_encrypt_block(ref_s.get(), ref_block, in.data());
    uint64_t block_args[6] = {Arg(s.get()), Arg(got_block), Arg(in.data()), 0, 0, 0};
    CheckedCall(k.abi, k.encrypt_block, block_args,
                key_what + " encrypt_block");
    EXPECT_EQ(0, memcmp(ref_block, got_block, 16)) << key_what;

    for (size_t n : {0, 1, 2, 4, 5, 7, 8, 9, 15, 16, 20}) {
      for (size_t misalign : {0, 1}) {
        const uint8_t *p = in.data() + misalign;
        std::string what = key_what + " ctr32 n=" + std::to_string(n) +
                           " misalign=" + std::to_string(misalign);
        CheckCtrCall(k.abi, k.ctr32, k.ref_ctr32, ref_s.get(), s.get(),
                     misalign, p, n, ctr, what);
        if (k.ctr32le != nullptr) {
          CheckCtrCall(k.abi, k.ctr32le, k.ref_ctr32le, ref_s.get(), s.get(),
                       misalign, p, n, ctr, what + " ctr32le");
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    X86_64, AesAbiTest, ::testing::ValuesIn(AesKernelList()),
    [](const ::testing::TestParamInfo<AesKernels> &info) {
      return std::string(info.param.name);
    });

// A fused kernel pair (seal, open) as built for one calling convention:
// six arguments, so on win64 the fifth and sixth come from the stack.
struct FusedKernels {
  const char *name;  // the fused descriptor's name (+ "_msabi")
  Abi abi;
  const void *seal;
  const void *open;
  const fused_impl *ref;  // the descriptor, for the key set-up and results
  const void *seal_lagged;  // the lagged seal, or null when there is none
  // The AES-GCM-SIV functions as built (null where the kernel has none);
  // the descriptor's are the reference.
  const void *siv_open = nullptr;
  const void *siv_ctr32le = nullptr;
  const void *siv_polyval = nullptr;
  const void *siv_hash_init = nullptr;
  const void *siv_polyval_runs = nullptr;
  const void *siv_tag_ctr32le = nullptr;
  const void *siv_keys_hash = nullptr;
  const void *siv_open_end = nullptr;
  // The one-shot seal and open (struct fused_oneshot), or null.
  const void *seal_oneshot = nullptr;
  const void *open_oneshot = nullptr;
};

template <typename F>
const void *Fn(F *f) {
  return reinterpret_cast<const void *>(f);
}

std::vector<FusedKernels> FusedKernelList() {
  std::vector<FusedKernels> k;
  k.push_back({"vaes_avx512", kNativeAbi,
               reinterpret_cast<const void *>(gcmi_fused_vaes_avx512.seal),
               reinterpret_cast<const void *>(gcmi_fused_vaes_avx512.open),
               &gcmi_fused_vaes_avx512,
               reinterpret_cast<const void *>(gcmi_fused_vaes_avx512.seal_lagged),
               Fn(gcmi_fused_vaes_avx512.siv_open),
               Fn(gcmi_fused_vaes_avx512.siv_ctr32le),
               Fn(gcmi_fused_vaes_avx512.siv_polyval),
               Fn(gcmi_fused_vaes_avx512.siv_hash_init),
               Fn(gcmi_fused_vaes_avx512.siv_polyval_runs),
               Fn(gcmi_fused_vaes_avx512.siv_tag_ctr32le)});
#if defined(LIBGCM_ABI_TEST_MSABI)
  k.push_back(
      {"vaes_avx512_msabi", Abi::kWin64,
       reinterpret_cast<const void *>(&gcmi_aes_gcm_x86_64_vaes_avx512_seal_msabi),
       reinterpret_cast<const void *>(&gcmi_aes_gcm_x86_64_vaes_avx512_open_msabi),
       &gcmi_fused_vaes_avx512,
       reinterpret_cast<const void *>(
           &gcmi_aes_gcm_x86_64_vaes_avx512_seal_lagged_msabi),
       Fn(&gcmi_aes_gcm_x86_64_vaes_avx512_siv_open_msabi),
       Fn(&gcmi_aes_gcm_x86_64_vaes_avx512_siv_ctr32le_msabi),
       Fn(&gcmi_aes_gcm_x86_64_vaes_avx512_siv_polyval_msabi),
       Fn(&gcmi_aes_gcm_x86_64_vaes_avx512_siv_hash_init_msabi),
       Fn(&gcmi_aes_gcm_x86_64_vaes_avx512_siv_polyval_runs_msabi),
       Fn(&gcmi_aes_gcm_x86_64_vaes_avx512_siv_tag_ctr32le_msabi)});
#endif
  k.push_back({"vaes_avx2", kNativeAbi,
               reinterpret_cast<const void *>(gcmi_fused_vaes_avx2.seal),
               reinterpret_cast<const void *>(gcmi_fused_vaes_avx2.open),
               &gcmi_fused_vaes_avx2,
               reinterpret_cast<const void *>(gcmi_fused_vaes_avx2.seal_lagged),
               Fn(gcmi_fused_vaes_avx2.siv_open),
               Fn(gcmi_fused_vaes_avx2.siv_ctr32le),
               Fn(gcmi_fused_vaes_avx2.siv_polyval), nullptr,
               Fn(gcmi_fused_vaes_avx2.siv_polyval_runs),
               Fn(gcmi_fused_vaes_avx2.siv_tag_ctr32le),
               Fn(gcmi_fused_vaes_avx2.siv_keys_hash),
               Fn(gcmi_fused_vaes_avx2.siv_open_end)});
#if defined(LIBGCM_ABI_TEST_MSABI)
  k.push_back(
      {"vaes_avx2_msabi", Abi::kWin64,
       reinterpret_cast<const void *>(&gcmi_aes_gcm_x86_64_vaes_avx2_seal_msabi),
       reinterpret_cast<const void *>(&gcmi_aes_gcm_x86_64_vaes_avx2_open_msabi),
       &gcmi_fused_vaes_avx2,
       reinterpret_cast<const void *>(
           &gcmi_aes_gcm_x86_64_vaes_avx2_seal_lagged_msabi),
       Fn(&gcmi_aes_gcm_x86_64_vaes_avx2_siv_open_msabi),
       Fn(&gcmi_aes_gcm_x86_64_vaes_avx2_siv_ctr32le_msabi),
       Fn(&gcmi_ghash_x86_64_vpclmul_avx2_polyval_msabi), nullptr,
       Fn(&gcmi_ghash_x86_64_vpclmul_avx2_polyval_runs_msabi),
       Fn(&gcmi_aes_gcm_x86_64_vaes_avx2_siv_tag_ctr32le_msabi),
       Fn(&gcmi_aes_gcm_x86_64_vaes_avx2_siv_keys_hash_msabi),
       Fn(&gcmi_aes_gcm_x86_64_vaes_avx2_siv_open_end_msabi)});
#endif
  k.push_back({"aesni_avx", kNativeAbi,
               reinterpret_cast<const void *>(gcmi_fused_aesni_avx.seal),
               reinterpret_cast<const void *>(gcmi_fused_aesni_avx.open),
               &gcmi_fused_aesni_avx,
               reinterpret_cast<const void *>(gcmi_fused_aesni_avx.seal_lagged),
               Fn(gcmi_fused_aesni_avx.siv_open)});
  k.back().seal_oneshot = Fn(gcmi_fused_aesni_avx.seal_oneshot);
  k.back().open_oneshot = Fn(gcmi_fused_aesni_avx.open_oneshot);
#if defined(LIBGCM_ABI_TEST_MSABI)
  k.push_back(
      {"aesni_avx_msabi", Abi::kWin64,
       reinterpret_cast<const void *>(&gcmi_aes_gcm_x86_64_aesni_avx_seal_msabi),
       reinterpret_cast<const void *>(&gcmi_aes_gcm_x86_64_aesni_avx_open_msabi),
       &gcmi_fused_aesni_avx,
       reinterpret_cast<const void *>(
           &gcmi_aes_gcm_x86_64_aesni_avx_seal_lagged_msabi),
       Fn(&gcmi_aes_gcm_x86_64_aesni_avx_siv_open_msabi)});
  k.back().seal_oneshot = Fn(&gcmi_aes_gcm_x86_64_aesni_avx_seal_oneshot_msabi);
  k.back().open_oneshot = Fn(&gcmi_aes_gcm_x86_64_aesni_avx_open_oneshot_msabi);
#endif
  k.push_back({"aesni_sse", kNativeAbi,
               reinterpret_cast<const void *>(gcmi_fused_aesni_sse.seal),
               reinterpret_cast<const void *>(gcmi_fused_aesni_sse.open),
               &gcmi_fused_aesni_sse,
               reinterpret_cast<const void *>(gcmi_fused_aesni_sse.seal_lagged),
               Fn(gcmi_fused_aesni_sse.siv_open)});
  k.back().seal_oneshot = Fn(gcmi_fused_aesni_sse.seal_oneshot);
  k.back().open_oneshot = Fn(gcmi_fused_aesni_sse.open_oneshot);
#if defined(LIBGCM_ABI_TEST_MSABI)
  k.push_back(
      {"aesni_sse_msabi", Abi::kWin64,
       reinterpret_cast<const void *>(&gcmi_aes_gcm_x86_64_aesni_sse_seal_msabi),
       reinterpret_cast<const void *>(&gcmi_aes_gcm_x86_64_aesni_sse_open_msabi),
       &gcmi_fused_aesni_sse,
       reinterpret_cast<const void *>(
           &gcmi_aes_gcm_x86_64_aesni_sse_seal_lagged_msabi),
       Fn(&gcmi_aes_gcm_x86_64_aesni_sse_siv_open_msabi)});
  k.back().seal_oneshot = Fn(&gcmi_aes_gcm_x86_64_aesni_sse_seal_oneshot_msabi);
  k.back().open_oneshot = Fn(&gcmi_aes_gcm_x86_64_aesni_sse_open_oneshot_msabi);
#endif
  return k;
}

void PrintTo(const FusedKernels &k, std::ostream *os) { *os << k.name; }

// A kernel shaped like fused_crypt_fn (keys, out, in, n blocks, the
// counter, a 16-byte state: seal, open, siv_open) called through the
// trampoline against `ref` called directly, on the same keys, input,
// counter and starting state xi0: the outputs (written one byte into
// their buffers, so misaligned) and the states after must be the same.
void CheckCryptCall(Abi abi, const void *fn, fused_crypt_fn *ref,
                    const fused_keys *keys, const uint8_t *in, size_t n,
                    const uint8_t ctr[16], const uint8_t xi0[16],
                    const std::string &what) {
  std::vector<uint8_t> ref_out(16 * n + 1), got_out(16 * n + 1);
  uint8_t ref_s[16], got_s[16];
  memcpy(ref_s, xi0, 16);
  memcpy(got_s, xi0, 16);
  ref(keys, ref_out.data() + 1, in, n, ctr, ref_s);
  uint64_t args[6] = {Arg(keys), Arg(got_out.data() + 1), Arg(in), n,
                      Arg(ctr), Arg(got_s)};
  CheckedCall(abi, fn, args, what);
  EXPECT_EQ(ref_out, got_out) << what;
  EXPECT_EQ(0, memcmp(ref_s, got_s, 16)) << what;
}

class FusedAbiTest : public ::testing::TestWithParam<FusedKernels> {};

// Every key size; the first batch, the stitched loop and each tail length.
TEST_P(FusedAbiTest, PreservesRegistersAndMatchesDirectCall) {
  const FusedKernels &k = GetParam();
  if (!k.ref->usable()) {
    GTEST_SKIP() << k.name << " needs " << k.ref->requires;
  }
  std::mt19937 rng(13);
  uint8_t raw[32], ctr[16], xi0[16];
  for (auto &b : raw) b = static_cast<uint8_t>(rng());
  for (auto &b : ctr) b = static_cast<uint8_t>(rng());
  for (auto &b : xi0) b = static_cast<uint8_t>(rng());
  // Input for the longest call below: 40 blocks, or the lagged seal's
  // three groups. (It was 40 blocks, and the 48-block lagged seals read
  // 128 bytes past it: heap bytes that could change between the direct
  // call and the checked one, so the two outputs differed under Wine.)
  const size_t most_blocks = std::max<size_t>(40, 3 * k.ref->lag_blocks);
  std::vector<uint8_t> in(16 * most_blocks + 1);
  for (auto &b : in) b = static_cast<uint8_t>(rng());
  for (size_t key_len : {16, 24, 32}) {
    AesKeyRoom s;
    GhashKeyRoom g;
    FusedKeyRoom f;
    memset(f.get(), 0, sizeof(f));
    k.ref->aes->set_encrypt_key(s.get(), raw, key_len);
    uint8_t zero[16] = {0}, H[16];
    k.ref->aes->encrypt_block(s.get(), H, zero);
    k.ref->ghash->init(g.get(), H);
    const fused_keys keys = {k.ref->aes, s.get(), k.ref->ghash, g.get(), f.get()};
    for (size_t n : {1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 40}) {
      for (int seal = 0; seal < 2; seal++) {
        const std::string what = std::string(k.name) +
                                 (seal ? " seal" : " open") + " key_len=" +
                                 std::to_string(key_len) +
                                 " n=" + std::to_string(n);
        CheckCryptCall(k.abi, seal ? k.seal : k.open,
                       seal ? k.ref->seal : k.ref->open, &keys,
                       in.data() + 1, n, ctr, xi0, what);
        const void *one = seal ? k.seal_oneshot : k.open_oneshot;
        if (one != nullptr) {
          // The same call with the one-shot pieces (its sixth argument a
          // struct fused_oneshot): output and the whole struct after.
          fused_oneshot ref_m, got_m;
          for (size_t j = 0; j < sizeof(ref_m); j++) {
            reinterpret_cast<uint8_t *>(&ref_m)[j] = static_cast<uint8_t>(7 * j + 1);
          }
          ref_m.end = 2 - n % 2;  // the partial block and the length block, or the latter
          got_m = ref_m;
          std::vector<uint8_t> ref(16 * n + 1), got(16 * n + 1);
          (seal ? k.ref->seal_oneshot : k.ref->open_oneshot)(
              &keys, ref.data() + 1, in.data() + 1, n, ctr, &ref_m);
          uint64_t args[6] = {Arg(&keys), Arg(got.data() + 1), Arg(in.data() + 1),
                              n, Arg(ctr), Arg(&got_m)};
          CheckedCall(k.abi, one, args, what + " oneshot");
          EXPECT_EQ(ref, got) << what << " oneshot";
          EXPECT_EQ(0, memcmp(&ref_m, &got_m, sizeof(ref_m))) << what << " oneshot";
        }
      }
    }
    // The AES-GCM-SIV functions on the same keys (the byte order does not
    // matter to the calling convention): siv_open like open, counter mode
    // and POLYVAL alone through every loop and tail, and the powers of H.
    const fused_impl &d = *k.ref;
    for (size_t n : {1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 40}) {
      const uint8_t *p = in.data() + 1;
      const std::string what = std::string(k.name) + " key_len=" +
                               std::to_string(key_len) +
                               " n=" + std::to_string(n);
      if (k.siv_open != nullptr) {
        CheckCryptCall(k.abi, k.siv_open, d.siv_open, &keys, p, n, ctr, xi0,
                       what + " siv_open");
      }
      if (k.siv_ctr32le != nullptr) {
        CheckCtrCall(k.abi, k.siv_ctr32le, d.siv_ctr32le, s.get(), s.get(), 1,
                     p, n, ctr, what + " siv_ctr32le");
      }
      if (k.siv_polyval != nullptr) {
        CheckStateCall(k.abi, k.siv_polyval, d.siv_polyval, g.get(), g.get(),
                       xi0, p, n, what + " siv_polyval");
      }
      if (k.siv_polyval_runs != nullptr) {
        // Four runs of the same blocks, one of them empty: a message's.
        const siv_polyval_runs r = {{p, p, nullptr, p}, {n, 1, 0, 2}};
        uint8_t ref_s[16], got_s[16];
        memcpy(ref_s, xi0, 16);
        memcpy(got_s, xi0, 16);
        d.siv_polyval_runs(ref_s, g.get(), &r);
        uint64_t args[6] = {Arg(got_s), Arg(g.get()), Arg(&r), 0, 0, 0};
        CheckedCall(k.abi, k.siv_polyval_runs, args, what + " siv_polyval_runs");
        EXPECT_EQ(0, memcmp(ref_s, got_s, 16)) << what << " siv_polyval_runs";
      }
      if (k.siv_open_end != nullptr) {
        // siv_open and the message's end: both partial blocks, then
        // neither (its sixth argument a struct siv_open_end).
        for (uint64_t partial : {uint64_t{1}, uint64_t{0}}) {
          siv_open_end ref_e;
          for (size_t j = 0; j < sizeof(ref_e); j++) {
            reinterpret_cast<uint8_t *>(&ref_e)[j] = static_cast<uint8_t>(5 * j + 3);
          }
          ref_e.partial = ref_e.aad_partial = partial;
          siv_open_end got_e = ref_e;
          std::vector<uint8_t> ref(16 * n + 1), got(16 * n + 1);
          d.siv_open_end(&keys, ref.data() + 1, p, n, ctr, &ref_e);
          uint64_t args[6] = {Arg(&keys), Arg(got.data() + 1), Arg(p), n,
                              Arg(ctr), Arg(&got_e)};
          const std::string w = what + " siv_open_end partial=" +
                                std::to_string(partial);
          CheckedCall(k.abi, k.siv_open_end, args, w);
          EXPECT_EQ(ref, got) << w;
          EXPECT_EQ(0, memcmp(&ref_e, &got_e, sizeof(ref_e))) << w;
        }
      }
      if (k.siv_tag_ctr32le != nullptr) {
        // The tag, n blocks (then none) and the padded last block: six
        // arguments, the last two on the stack under Win64.
        for (size_t blocks : {n, size_t{0}}) {
          std::vector<uint8_t> ref(16 * blocks + 1), got(16 * blocks + 1);
          uint8_t ref_tag[32], got_tag[32], ref_last[16], got_last[16];
          memcpy(ref_tag, xi0, 16);
          memcpy(ref_tag + 16, p, 16);
          memcpy(got_tag, ref_tag, 32);
          memcpy(ref_last, p, 16);
          memcpy(got_last, p, 16);
          d.siv_tag_ctr32le(s.get(), ref_tag, ref.data() + 1, p, blocks,
                            ref_last);
          uint64_t args[6] = {Arg(s.get()), Arg(got_tag), Arg(got.data() + 1),
                              Arg(p), blocks, Arg(got_last)};
          const std::string w = what + " siv_tag_ctr32le blocks=" +
                                std::to_string(blocks);
          CheckedCall(k.abi, k.siv_tag_ctr32le, args, w);
          EXPECT_EQ(ref, got) << w;
          EXPECT_EQ(0, memcmp(ref_tag, got_tag, 32)) << w;
          EXPECT_EQ(0, memcmp(ref_last, got_last, 16)) << w;
        }
      }
    }
    if (k.siv_keys_hash != nullptr) {
      // Both message keys, for each power count (five arguments).
      uint8_t nonce[12];
      for (size_t i = 0; i < 12; i++) nonce[i] = static_cast<uint8_t>(7 * i + 1);
      for (size_t max : {1, 5, 9, 17}) {
        AesKeyRoom ref_enc, got_enc;
        GhashKeyRoom ref_hash, got_hash;
        memset(ref_enc.get(), 0, sizeof(ref_enc));
        memset(got_enc.get(), 0, sizeof(got_enc));
        memset(ref_hash.get(), 0, sizeof(ref_hash));
        memset(got_hash.get(), 0, sizeof(got_hash));
        d.siv_keys_hash(s.get(), nonce, ref_hash.get(), ref_enc.get(), max);
        uint64_t args[6] = {Arg(s.get()), Arg(nonce), Arg(got_hash.get()),
                            Arg(got_enc.get()), max, 0};
        const std::string w = std::string(k.name) + " siv_keys_hash key_len=" +
                              std::to_string(key_len) + " max=" +
                              std::to_string(max);
        CheckedCall(k.abi, k.siv_keys_hash, args, w);
        EXPECT_EQ(0, memcmp(ref_enc.get(), got_enc.get(), sizeof(ref_enc))) << w;
        EXPECT_EQ(0, memcmp(ref_hash.get(), got_hash.get(), sizeof(ref_hash))) << w;
      }
    }
    if (k.siv_hash_init != nullptr) {
      CheckInitFor(k.abi, k.siv_hash_init, d.siv_hash_init, H,
                   std::string(k.name) + " siv_hash_init");
    }
    // The lagged seal: one group and several, with and without a pending
    // group (its struct fused_lag is the sixth argument).
    if (k.seal_lagged == nullptr) continue;
    const size_t group = k.ref->lag_blocks;
    for (size_t n : {group, 2 * group, 3 * group}) {
      for (size_t has : {size_t{0}, size_t{1}}) {
        std::vector<uint8_t> ref(16 * n + 1), got(16 * n + 1);
        std::vector<uint8_t> ref_pend(16 * group, 0x77),
            got_pend(16 * group, 0x77);
        uint8_t ref_xi[16], got_xi[16];
        memcpy(ref_xi, xi0, 16);
        memcpy(got_xi, xi0, 16);
        const fused_lag ref_lag = {ref_xi, ref_pend.data(), has};
        const fused_lag got_lag = {got_xi, got_pend.data(), has};
        const uint8_t *p = in.data() + 1;
        k.ref->seal_lagged(&keys, ref.data() + 1, p, n, ctr, &ref_lag);
        uint64_t args[6] = {Arg(&keys), Arg(got.data() + 1), Arg(p), n,
                            Arg(ctr), Arg(&got_lag)};
        const std::string what = std::string(k.name) + " seal_lagged key_len=" +
                                 std::to_string(key_len) +
                                 " n=" + std::to_string(n) +
                                 " pending=" + std::to_string(has);
        CheckedCall(k.abi, k.seal_lagged, args, what);
        EXPECT_EQ(ref, got) << what;
        EXPECT_EQ(ref_pend, got_pend) << what;
        EXPECT_EQ(0, memcmp(ref_xi, got_xi, 16)) << what;
      }
    }
  }
}

// AES-GCM-SIV's per-message kernels (fused.h's siv_keys, siv_seal_short
// and siv_open_short, which the aesni descriptors share), as built for
// each calling convention, against direct calls: both key sizes, short
// messages of every shape of the loops (no data, a partial block, the
// counter-mode widths 1, 2, 4 and 8, the POLYVAL groups and tails).
struct SivShortKernels {
  const char *name;
  Abi abi;
  const void *keys, *seal, *open;
};

TEST(SivAesniAbiTest, PreservesRegistersAndMatchesDirectCall) {
  const fused_impl &d = gcmi_fused_aesni_sse;
  if (!d.usable() || d.siv_keys == nullptr) {
    GTEST_SKIP() << "needs " << d.requires;
  }
  std::vector<SivShortKernels> sets = {
      {"native", kNativeAbi, Fn(d.siv_keys), Fn(d.siv_seal_short),
       Fn(d.siv_open_short)}};
#if defined(LIBGCM_ABI_TEST_MSABI)
  sets.push_back({"msabi", Abi::kWin64,
                  Fn(&gcmi_aes_gcm_siv_x86_64_aesni_keys_msabi),
                  Fn(&gcmi_aes_gcm_siv_x86_64_aesni_seal_short_msabi),
                  Fn(&gcmi_aes_gcm_siv_x86_64_aesni_open_short_msabi)});
#endif
  std::mt19937 rng(8452);
  uint8_t raw[32], nonce[12];
  for (auto &b : raw) b = static_cast<uint8_t>(rng());
  for (auto &b : nonce) b = static_cast<uint8_t>(rng());
  for (const SivShortKernels &k : sets) {
    for (size_t key_len : {16, 32}) {
      AesKeyRoom kgk, want_enc, got_enc;
      d.aes->set_encrypt_key(kgk.get(), raw, key_len);
      const std::string kw = std::string(k.name) + " key_len=" +
                             std::to_string(key_len);
      memset(want_enc.get(), 0, sizeof(want_enc));
      memset(got_enc.get(), 0, sizeof(got_enc));
      uint8_t want_auth[16], got_auth[16];
      d.siv_keys(kgk.get(), nonce, want_auth, want_enc.get());
      uint64_t kargs[6] = {Arg(kgk.get()), Arg(nonce), Arg(got_auth),
                           Arg(got_enc.get()), 0, 0};
      CheckedCall(k.abi, k.keys, kargs, kw + " siv_keys");
      EXPECT_EQ(0, memcmp(want_auth, got_auth, 16)) << kw;
      EXPECT_EQ(0, memcmp(want_enc.get(), got_enc.get(), sizeof(want_enc)))
          << kw;
      for (size_t a : {0, 1, 4}) {
        for (size_t len : {0, 5, 16, 31, 64, 100, 128, 200, 256, 1350}) {
          const std::string what = kw + " a=" + std::to_string(a) +
                                   " len=" + std::to_string(len);
          uint8_t tag0[16];
          for (auto &b : tag0) b = static_cast<uint8_t>(rng());
          // hb holds the AAD, a partial last block and the length block
          // (io.end); the whole blocks go from io.in to io.out.
          for (int open = 0; open < 2; open++) {
            const size_t n = 16 * (a + (len % 16 != 0) + 1);
            std::vector<uint8_t> hb(n), in(len / 16 * 16 + 1);
            for (auto &b : hb) b = static_cast<uint8_t>(rng());
            for (auto &b : in) b = static_cast<uint8_t>(rng());
            std::vector<uint8_t> want = hb, got = hb;
            std::vector<uint8_t> want_out(in.size(), 0x5a),
                got_out(in.size(), 0x5a);
            siv_short_io want_io{}, got_io{};
            memcpy(want_io.tag, tag0, 16);
            memcpy(got_io.tag, tag0, 16);
            want_io.in = got_io.in = in.data();
            want_io.out = want_out.data();
            got_io.out = got_out.data();
            want_io.end = want.data() + 16 * a;
            got_io.end = got.data() + 16 * a;
            (open ? d.siv_open_short : d.siv_seal_short)(
                kgk.get(), nonce, want.data(), a, len, &want_io);
            uint64_t args[6] = {Arg(kgk.get()), Arg(nonce), Arg(got.data()),
                                a, len, Arg(&got_io)};
            CheckedCall(k.abi, open ? k.open : k.seal, args,
                        what + (open ? " open_short" : " seal_short"));
            EXPECT_EQ(want, got) << what << (open ? " open" : " seal");
            EXPECT_EQ(want_out, got_out) << what << " output";
            EXPECT_EQ(0x5a, got_out.back()) << what << " wrote past the blocks";
            EXPECT_EQ(0, memcmp(want_io.tag, got_io.tag, 16)) << what;
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    X86_64, FusedAbiTest, ::testing::ValuesIn(FusedKernelList()),
    [](const ::testing::TestParamInfo<FusedKernels> &info) {
      return std::string(info.param.name);
    });

// The checker itself: functions that break the rules must be caught (in
// the Windows builds too: MinGW's GCC takes the same naked functions).
#if defined(__GNUC__)
#if defined(__CET__)
#define ABI_TEST_ENDBR "endbr64\n"
#else
#define ABI_TEST_ENDBR ""
#endif
__attribute__((naked)) void abi_test_bad_rbx(void) {
  __asm__(ABI_TEST_ENDBR "movq $1, %rbx\n ret\n");
}
__attribute__((naked)) void abi_test_bad_r15(void) {
  __asm__(ABI_TEST_ENDBR "xorq %r15, %r15\n ret\n");
}
__attribute__((naked)) void abi_test_bad_df(void) {
  __asm__(ABI_TEST_ENDBR "std\n ret\n");
}
__attribute__((naked)) void abi_test_bad_xmm6(void) {
  __asm__(ABI_TEST_ENDBR "pxor %xmm6, %xmm6\n ret\n");
}
__attribute__((naked)) void abi_test_bad_rsi(void) {
  __asm__(ABI_TEST_ENDBR "xorl %esi, %esi\n ret\n");
}
// Leaves the upper halves of ymm0 non-zero (no VZEROUPPER).
__attribute__((naked)) void abi_test_bad_upper(void) {
  __asm__(ABI_TEST_ENDBR "vpcmpeqd %ymm0, %ymm0, %ymm0\n ret\n");
}
// The same, cleaned up: must pass.
__attribute__((naked)) void abi_test_good_upper(void) {
  __asm__(ABI_TEST_ENDBR "vpcmpeqd %ymm0, %ymm0, %ymm0\n vzeroupper\n ret\n");
}

// Counts the failures CheckedCall reports for fn.
int Violations(Abi abi, void (*fn)(void)) {
  uint64_t args[6] = {0, 0, 0, 0, 0, 0};
  return gcmtest::CountFailures([&] {
    CheckedCall(abi, reinterpret_cast<const void *>(fn), args, "bad");
  });
}

TEST(AbiChecker, CatchesViolations) {
  EXPECT_EQ(1, Violations(Abi::kSysV, abi_test_bad_rbx));
  EXPECT_EQ(1, Violations(Abi::kSysV, abi_test_bad_r15));
  EXPECT_EQ(1, Violations(Abi::kSysV, abi_test_bad_df));
  EXPECT_EQ(0, Violations(Abi::kSysV, abi_test_bad_xmm6));  // volatile in SysV
  EXPECT_EQ(0, Violations(Abi::kSysV, abi_test_bad_rsi));   // volatile in SysV
  EXPECT_EQ(1, Violations(Abi::kWin64, abi_test_bad_xmm6));
  EXPECT_EQ(1, Violations(Abi::kWin64, abi_test_bad_rsi));
  EXPECT_EQ(1, Violations(Abi::kWin64, abi_test_bad_rbx));
}

TEST(AbiChecker, CatchesDirtyUpperState) {
  // YMM state enabled in XCR0 means the CPU has AVX (whatever
  // OPENSSL_ia32cap says: the checker's own test runs the instructions).
  if ((UpperStateMask() & (1u << 2)) == 0) {
    GTEST_SKIP() << "this CPU cannot report XINUSE, or has no AVX state";
  }
  EXPECT_EQ(1, Violations(Abi::kSysV, abi_test_bad_upper));
  EXPECT_EQ(1, Violations(Abi::kWin64, abi_test_bad_upper));
  EXPECT_EQ(0, Violations(Abi::kSysV, abi_test_good_upper));
  EXPECT_EQ(0, Violations(Abi::kWin64, abi_test_good_upper));
}
#endif

}  // namespace

#else

TEST(GhashAbiTest, NotBuilt) {
  GTEST_SKIP() << "no x86_64 assembly in this build";
}

#endif
