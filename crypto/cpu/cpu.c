/*
 * crypto/cpu/cpu.c: reads the CPU's capabilities once per process.
 *
 * The architecture-specific readers (cpu_x86.c, cpu_arm.c, cpu_aarch64.c)
 * fill four words (cpu_detect.h); on x86 the OPENSSL_ia32cap environment
 * variable, on aarch64 and 32-bit ARM LIBGCM_ARMCAP, may then clear bits, so a user or a
 * test can force a lower tier on any machine (not in a privileged process:
 * crypto/env.c). Initialisation runs exactly
 * once even when many threads make their first call at the same time.
 *
 * The named queries of cpu.h are answered here, each from its word and
 * bit; on another architecture they answer 0.
 */
#include <stdlib.h>

#include "../env.h"
#include "../once.h"
#include "cpu.h"
#include "cpu_detect.h"

static uint32_t caps[4];

static void cpu_init(void) {
  uint32_t detected[4] = {0, 0, 0, 0};
  gcmi_cpu_detect(detected);
#if defined(GCM_X86_64) || defined(GCM_X86)
  gcmi_cpu_apply_ia32cap(detected, gcmi_getenv("OPENSSL_ia32cap"));
#endif
#if defined(GCM_AARCH64)
  gcmi_cpu_apply_armcap(detected, gcmi_getenv("LIBGCM_ARMCAP"));
#endif
#if defined(GCM_ARM)
  gcmi_cpu_apply_armcap32(detected, gcmi_getenv("LIBGCM_ARMCAP"));
#endif
  for (int i = 0; i < 4; i++) caps[i] = detected[i];
}

GCM_ONCE_DEFINE(cpu_init_once, cpu_init)

const uint32_t *gcmi_cpu_caps(void) {
  cpu_init_once();
  return caps;
}

int gcmi_cpu_always(void) { return 1; }

#if defined(GCM_X86_64) || defined(GCM_X86)
#define X86_CAP(word, bit) ((gcmi_cpu_caps()[word] & (bit)) != 0)
#else
#define X86_CAP(word, bit) 0
#endif
#if defined(GCM_AARCH64)
#define AARCH64_CAP(bit) ((gcmi_cpu_caps()[0] & (bit)) != 0)
#else
#define AARCH64_CAP(bit) 0
#endif
#if defined(GCM_ARM)
#define ARM_CAP(word, bit) ((gcmi_cpu_caps()[word] & (bit)) != 0)
#else
#define ARM_CAP(word, bit) 0
#endif

int gcmi_cpu_x86_has_sse2(void) { return X86_CAP(0, CPU_X86_SSE2); }
int gcmi_cpu_x86_has_ssse3(void) { return X86_CAP(1, CPU_X86_SSSE3); }
int gcmi_cpu_x86_has_aesni(void) { return X86_CAP(1, CPU_X86_AESNI); }
int gcmi_cpu_x86_has_pclmulqdq(void) { return X86_CAP(1, CPU_X86_PCLMULQDQ); }
int gcmi_cpu_x86_has_avx(void) { return X86_CAP(1, CPU_X86_AVX); }
int gcmi_cpu_x86_has_avx2(void) { return X86_CAP(2, CPU_X86_AVX2); }
int gcmi_cpu_x86_has_vaes(void) { return X86_CAP(3, CPU_X86_VAES); }
int gcmi_cpu_x86_has_vpclmulqdq(void) { return X86_CAP(3, CPU_X86_VPCLMULQDQ); }
int gcmi_cpu_x86_has_avx512(void) {
  return X86_CAP(2, CPU_X86_AVX512F) && X86_CAP(2, CPU_X86_AVX512BW) &&
         X86_CAP(2, CPU_X86_AVX512VL);
}
int gcmi_cpu_x86_avoids_zmm(void) { return X86_CAP(2, CPU_X86_AVOID_ZMM); }

int gcmi_cpu_aarch64_has_aes(void) { return AARCH64_CAP(CPU_AARCH64_AES); }
int gcmi_cpu_aarch64_has_pmull(void) { return AARCH64_CAP(CPU_AARCH64_PMULL); }
int gcmi_cpu_aarch64_has_neon(void) { return AARCH64_CAP(CPU_AARCH64_ASIMD); }
int gcmi_cpu_aarch64_has_sha3(void) { return AARCH64_CAP(CPU_AARCH64_SHA3); }

int gcmi_cpu_arm_has_neon(void) { return ARM_CAP(0, CPU_ARM_HWCAP_NEON); }
/* The Armv8 crypto instructions in AArch32 are NEON instructions: they
 * need NEON as well. */
int gcmi_cpu_arm_has_aes(void) {
  return gcmi_cpu_arm_has_neon() && ARM_CAP(1, CPU_ARM_HWCAP2_AES);
}
int gcmi_cpu_arm_has_pmull(void) {
  return gcmi_cpu_arm_has_neon() && ARM_CAP(1, CPU_ARM_HWCAP2_PMULL);
}

const char *gcmi_cpu_mask_variable(void) {
#if defined(GCM_X86_64) || defined(GCM_X86)
  return "OPENSSL_ia32cap";
#elif defined(GCM_AARCH64) || defined(GCM_ARM)
  return "LIBGCM_ARMCAP";
#else
  return NULL;
#endif
}

void gcmi_cpu_apply_armcap(uint32_t c[4], const char *env) {
  if (env == NULL || env[0] == '\0') return;
  int invert = 0;
  if (env[0] == '~') {
    invert = 1;
    env++;
  }
  char *end = NULL;
  unsigned long long v = strtoull(env, &end, 0);
  if (end == env || *end != '\0' || env[0] == '-') return;
  uint32_t mask = (uint32_t)v;
  c[0] &= invert ? ~mask : mask;
}

#if !defined(GCM_X86_64) && !defined(GCM_X86) && !defined(GCM_ARM) && \
    !defined(GCM_AARCH64)
/* No capability reader for this architecture: only portable code runs. */
void gcmi_cpu_detect(uint32_t out[4]) {
  out[0] = out[1] = out[2] = out[3] = 0;
}
#endif
