/*
 * crypto/cpu/cpu.h: what the CPU can do, as named questions per
 * architecture.
 *
 * Each query answers for the CPU this process runs on, after the
 * architecture's test mask (OPENSSL_ia32cap on x86 and x86_64,
 * LIBGCM_ARMCAP on aarch64 and 32-bit ARM; see cpu_x86.c, cpu_aarch64.c
 * and cpu_arm.c). The
 * capabilities are read once, on the first query, thread-safely; the
 * answers never change after that.
 *
 * Every query exists on every build and answers 0 for another
 * architecture's features, so a backend descriptor asks without an #if:
 * `gcmi_cpu_x86_has_aesni()` is 0 on aarch64. How the answers are stored (the
 * CPUID words, the Linux hwcap bits) is private to crypto/cpu
 * (cpu_detect.h); nothing outside it sees a bit number.
 *
 * Readers: the backend descriptors' `usable` hooks, and the API layer's
 * messages (gcmi_cpu_mask_variable).
 */
#ifndef LIBGCM_CRYPTO_CPU_CPU_H
#define LIBGCM_CRYPTO_CPU_CPU_H

#include "../internal.h"

/* x86 and x86_64 (CPUID, with the AVX-family features cleared when XGETBV
 * says the OS does not save their registers). */
GCM_HIDDEN int gcmi_cpu_x86_has_sse2(void);
GCM_HIDDEN int gcmi_cpu_x86_has_ssse3(void);
GCM_HIDDEN int gcmi_cpu_x86_has_aesni(void);
GCM_HIDDEN int gcmi_cpu_x86_has_pclmulqdq(void);
GCM_HIDDEN int gcmi_cpu_x86_has_avx(void);
GCM_HIDDEN int gcmi_cpu_x86_has_avx2(void);
GCM_HIDDEN int gcmi_cpu_x86_has_vaes(void);
GCM_HIDDEN int gcmi_cpu_x86_has_vpclmulqdq(void);
/* AVX-512 Foundation, Byte/Word and Vector Length (opmask and ZMM state
 * enabled by the OS): what a kernel on 512-bit registers with byte masks
 * and EVEX forms of xmm/ymm instructions needs. */
GCM_HIDDEN int gcmi_cpu_x86_has_avx512(void);
/* 1 on the Intel cores whose clock drops while 512-bit instructions run
 * (Skylake-SP to Cooper Lake, Ice Lake, Tiger Lake: family 6, models 85,
 * 106, 108, 125, 126, 140, 141), where 256-bit kernels are faster in a
 * whole program; the list is BoringSSL's. OPENSSL_ia32cap=:~0x4000 clears
 * it. */
GCM_HIDDEN int gcmi_cpu_x86_avoids_zmm(void);

/* aarch64 (Linux AT_HWCAP, or sysctl on Apple platforms). */
GCM_HIDDEN int gcmi_cpu_aarch64_has_aes(void);
GCM_HIDDEN int gcmi_cpu_aarch64_has_pmull(void);
GCM_HIDDEN int gcmi_cpu_aarch64_has_neon(void); /* Advanced SIMD (ASIMD) */
/* FEAT_SHA3: EOR3, the three-way XOR the armv8_pmull_eor3 kernel uses. */
GCM_HIDDEN int gcmi_cpu_aarch64_has_sha3(void);

/* 32-bit ARM (Linux AT_HWCAP and AT_HWCAP2). */
GCM_HIDDEN int gcmi_cpu_arm_has_neon(void);
GCM_HIDDEN int gcmi_cpu_arm_has_aes(void);
GCM_HIDDEN int gcmi_cpu_arm_has_pmull(void);

/* The environment variable that masks this architecture's capabilities
 * ("OPENSSL_ia32cap", "LIBGCM_ARMCAP"), or NULL where there is none; for
 * messages that explain why a backend is unusable. */
GCM_HIDDEN const char *gcmi_cpu_mask_variable(void);

/* Always usable: the portable implementations' `usable` hook. */
GCM_HIDDEN int gcmi_cpu_always(void);

#endif /* LIBGCM_CRYPTO_CPU_CPU_H */
