/*
 * crypto/cpu/cpu.h: what the CPU can do, read once.
 *
 * On x86 the capability words follow OpenSSL's OPENSSL_ia32cap_P layout so
 * that the OPENSSL_ia32cap environment variable (BoringSSL's format) can mask
 * them bit for bit:
 *   word 0: CPUID.1:EDX        word 1: CPUID.1:ECX
 *   word 2: CPUID.(7,0):EBX    word 3: CPUID.(7,0):ECX
 * Bits for AVX-family state the OS has not enabled (XGETBV) are cleared.
 *
 * On 32-bit ARM the words are the Linux AT_HWCAP and AT_HWCAP2 auxiliary
 * vectors, after the LIBGCM_ARMCAP mask (cpu_arm.c). On aarch64 word 0 holds AT_HWCAP's ASIMD, AES and PMULL bits (read from
 * sysctl on Apple platforms), after the LIBGCM_ARMCAP mask (cpu_aarch64.c).
 *
 * The environment is applied on first use; the result never changes after.
 * Only the backend dispatcher reads this module.
 */
#ifndef LIBGCM_CRYPTO_CPU_CPU_H
#define LIBGCM_CRYPTO_CPU_CPU_H

#include <stdint.h>

#include "../internal.h"

/* Returns the four capability words, initialised exactly once (thread-safe).
 * The pointer stays valid for the life of the process. */
GCM_HIDDEN const uint32_t *cpu_caps(void);

/* x86 bits, by word. */
#define CPU_X86_SSE2 (1u << 26)      /* word 0 */
#define CPU_X86_SSSE3 (1u << 9)      /* word 1 */
#define CPU_X86_PCLMULQDQ (1u << 1)  /* word 1 */
#define CPU_X86_AESNI (1u << 25)     /* word 1 */
#define CPU_X86_AVX (1u << 28)       /* word 1 */
#define CPU_X86_AVX2 (1u << 5)       /* word 2 */
#define CPU_X86_AVX512F (1u << 16)   /* word 2 */
#define CPU_X86_AVX512BW (1u << 30)  /* word 2 */
#define CPU_X86_AVX512VL (1u << 31)  /* word 2 */
#define CPU_X86_VAES (1u << 9)       /* word 3 */
#define CPU_X86_VPCLMULQDQ (1u << 10) /* word 3 */

static inline int cpu_x86_has_sse2(void) {
  return (cpu_caps()[0] & CPU_X86_SSE2) != 0;
}
static inline int cpu_x86_has_ssse3(void) {
  return (cpu_caps()[1] & CPU_X86_SSSE3) != 0;
}
static inline int cpu_x86_has_aesni(void) {
  return (cpu_caps()[1] & CPU_X86_AESNI) != 0;
}
static inline int cpu_x86_has_pclmulqdq(void) {
  return (cpu_caps()[1] & CPU_X86_PCLMULQDQ) != 0;
}
static inline int cpu_x86_has_avx(void) {
  return (cpu_caps()[1] & CPU_X86_AVX) != 0;
}
static inline int cpu_x86_has_avx2(void) {
  return (cpu_caps()[2] & CPU_X86_AVX2) != 0;
}
static inline int cpu_x86_has_vaes(void) {
  return (cpu_caps()[3] & CPU_X86_VAES) != 0;
}
static inline int cpu_x86_has_vpclmulqdq(void) {
  return (cpu_caps()[3] & CPU_X86_VPCLMULQDQ) != 0;
}

/* 32-bit ARM Linux bits. */
#define CPU_ARM_HWCAP_NEON (1u << 12)  /* word 0: AT_HWCAP */
#define CPU_ARM_HWCAP2_AES (1u << 0)   /* word 1: AT_HWCAP2 */
#define CPU_ARM_HWCAP2_PMULL (1u << 1) /* word 1: AT_HWCAP2 */

static inline int cpu_arm_has_neon(void) {
  return (cpu_caps()[0] & CPU_ARM_HWCAP_NEON) != 0;
}
/* The Armv8 crypto instructions in AArch32 need NEON as well. */
static inline int cpu_arm_has_aes(void) {
  return cpu_arm_has_neon() && (cpu_caps()[1] & CPU_ARM_HWCAP2_AES) != 0;
}
static inline int cpu_arm_has_pmull(void) {
  return cpu_arm_has_neon() && (cpu_caps()[1] & CPU_ARM_HWCAP2_PMULL) != 0;
}

/* aarch64 bits (word 0, Linux AT_HWCAP positions). */
#define CPU_AARCH64_ASIMD (1u << 1) /* NEON */
#define CPU_AARCH64_AES (1u << 3)
#define CPU_AARCH64_PMULL (1u << 4)

static inline int cpu_aarch64_has_aes(void) {
  return (cpu_caps()[0] & CPU_AARCH64_AES) != 0;
}
static inline int cpu_aarch64_has_pmull(void) {
  return (cpu_caps()[0] & CPU_AARCH64_PMULL) != 0;
}
static inline int cpu_aarch64_has_neon(void) {
  return (cpu_caps()[0] & CPU_AARCH64_ASIMD) != 0;
}

/* Always usable: the portable implementations' `usable` hook. */
GCM_HIDDEN int cpu_always(void);

#endif /* LIBGCM_CRYPTO_CPU_CPU_H */
