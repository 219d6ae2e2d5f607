/*
 * crypto/cpu/cpu_x86.c: CPUID and XGETBV on x86 and x86_64.
 *
 * The words follow OpenSSL's OPENSSL_ia32cap_P layout (cpu_detect.h). Features
 * whose register state the operating system has not enabled in XCR0 are
 * cleared: AVX needs XMM and YMM state, AVX-512 also the opmask and ZMM
 * state. VAES and VPCLMULQDQ are only usable with AVX.
 *
 * Word 2 bit 14 (MPX in CPUID) is replaced, as in BoringSSL, by libgcm's
 * own "avoid 512-bit vectors" bit (cpu_detect.h, gcmi_cpu_x86_avoids_zmm): set
 * on the Intel cores whose clock drops under 512-bit instructions.
 *
 * OPENSSL_ia32cap, as BoringSSL reads it: "A" or "A:B", where A applies to
 * words 0-1 (EDX, ECX of leaf 1; low 32 bits to word 0) and B to words 2-3
 * (EBX, ECX of leaf 7). Each is a decimal or 0x-prefixed hex 64-bit value:
 *   "~V"  clears the bits set in V,
 *   "|V"  would set bits (libgcm only keeps those the hardware has),
 *   "V"   replaces the words with V (again never adding missing features).
 * So OPENSSL_ia32cap=0:0 forces the portable tier, and
 * OPENSSL_ia32cap=~0x200000200000000 hides AES-NI and PCLMULQDQ.
 */
#include "cpu.h"
#include "cpu_detect.h"

/* Pure, so it exists on every build (the tests call it everywhere). */
int gcmi_cpu_x86_zmm_lowers_clock(int intel, uint32_t family, uint32_t model) {
  /* Skylake-SP, Cascade Lake and Cooper Lake (85), Ice Lake server (106,
   * 108), Ice Lake client (125, 126), Tiger Lake (140, 141). */
  return intel && family == 6 &&
         (model == 85 || model == 106 || model == 108 || model == 125 ||
          model == 126 || model == 140 || model == 141);
}

#if defined(GCM_X86_64) || defined(GCM_X86)

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#if defined(_MSC_VER)
#include <immintrin.h>
#include <intrin.h>
#endif

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
#if defined(_MSC_VER)
  int regs[4];
  __cpuidex(regs, (int)leaf, (int)sub);
  for (int i = 0; i < 4; i++) r[i] = (uint32_t)regs[i];
#else
  uint32_t a, b, c, d;
  __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
                   : "a"(leaf), "c"(sub));
  r[0] = a;
  r[1] = b;
  r[2] = c;
  r[3] = d;
#endif
}

static uint64_t xgetbv0(void) {
#if defined(_MSC_VER)
  return _xgetbv(0);
#else
  uint32_t lo, hi;
  __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
#endif
}

void gcmi_cpu_detect(uint32_t out[4]) {
  uint32_t r[4];
  out[0] = out[1] = out[2] = out[3] = 0;

  cpuid(0, 0, r);
  uint32_t max_leaf = r[0];
  /* "GenuineIntel" in EBX, EDX, ECX. */
  const int intel = r[1] == 0x756e6547u && r[3] == 0x49656e69u &&
                    r[2] == 0x6c65746eu;
  if (max_leaf < 1) return;

  cpuid(1, 0, r);
  out[0] = r[3]; /* EDX */
  out[1] = r[2]; /* ECX */
  /* Family and model with their extensions (Intel SDM, CPUID leaf 1). */
  const uint32_t family = (r[0] >> 8) & 0xf;
  const uint32_t model = ((r[0] >> 4) & 0xf) | ((r[0] >> 12) & 0xf0);
  if (max_leaf >= 7) {
    cpuid(7, 0, r);
    out[2] = r[1]; /* EBX */
    out[3] = r[2]; /* ECX */
  }
  out[2] &= ~CPU_X86_AVOID_ZMM;
  if (gcmi_cpu_x86_zmm_lowers_clock(intel, family, model)) {
    out[2] |= CPU_X86_AVOID_ZMM;
  }

  /* OSXSAVE says XGETBV may be executed. */
  uint64_t xcr0 = 0;
  if (out[1] & CPU_X86_OSXSAVE) xcr0 = xgetbv0();
  const int avx_state = (xcr0 & CPU_XCR0_AVX_STATE) == CPU_XCR0_AVX_STATE;
  const int avx512_state =
      (xcr0 & CPU_XCR0_AVX512_STATE) == CPU_XCR0_AVX512_STATE;
  if (!avx_state) {
    out[1] &= ~(CPU_X86_AVX | CPU_X86_FMA);
    out[2] &= ~CPU_X86_AVX2;
    out[3] &= ~(CPU_X86_VAES | CPU_X86_VPCLMULQDQ);
  }
  if (!avx_state || !avx512_state) {
    out[2] &= ~(CPU_X86_AVX512F | CPU_X86_AVX512DQ | CPU_X86_AVX512IFMA |
                CPU_X86_AVX512PF | CPU_X86_AVX512ER | CPU_X86_AVX512CD |
                CPU_X86_AVX512BW | CPU_X86_AVX512VL);
  }
}

/* Parses one half of OPENSSL_ia32cap into the pair of words w[0], w[1]. */
static void apply_half(uint32_t w[2], const char *s, size_t len) {
  char buf[40];
  if (len == 0 || len >= sizeof(buf)) return;
  memcpy(buf, s, len);
  buf[len] = '\0';
  const char *p = buf;
  char op = 0;
  if (*p == '~' || *p == '|') op = *p++;
  uint64_t v;
  int ok;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    ok = sscanf(p + 2, "%" SCNx64, &v) == 1;
  } else {
    ok = sscanf(p, "%" SCNu64, &v) == 1;
  }
  if (!ok) return;
  const uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
  if (op == '~') {
    w[0] &= ~lo;
    w[1] &= ~hi;
  } else if (op == '|') {
    /* Bits the hardware lacks stay clear: nothing to do. */
  } else {
    w[0] &= lo;
    w[1] &= hi;
  }
}

void gcmi_cpu_apply_ia32cap(uint32_t caps[4], const char *env) {
  if (env == NULL) return;
  const char *colon = strchr(env, ':');
  size_t first_len = colon ? (size_t)(colon - env) : strlen(env);
  apply_half(&caps[0], env, first_len);
  if (colon) apply_half(&caps[2], colon + 1, strlen(colon + 1));
}

#endif /* x86 */
