/*
 * crypto/cpu/cpu_detect.h: how crypto/cpu stores what it reads. Used by
 * crypto/cpu only; everything else asks the named queries of cpu.h.
 *
 * Four capability words, filled once by the architecture's reader:
 *   x86, x86_64: OpenSSL's OPENSSL_ia32cap_P layout, so OPENSSL_ia32cap
 *     (BoringSSL's format) masks them bit for bit:
 *       word 0: CPUID.1:EDX        word 1: CPUID.1:ECX
 *       word 2: CPUID.(7,0):EBX    word 3: CPUID.(7,0):ECX
 *   32-bit ARM: word 0 AT_HWCAP, word 1 AT_HWCAP2 (Linux).
 *   aarch64: word 0 holds AT_HWCAP's ASIMD, AES, PMULL and SHA3 bits, in the kernel's
 *     positions, after the LIBGCM_ARMCAP mask.
 */
#ifndef LIBGCM_CRYPTO_CPU_CPU_DETECT_H
#define LIBGCM_CRYPTO_CPU_CPU_DETECT_H

#include <stdint.h>

#include "../internal.h"

/* x86 bits, by word. */
#define CPU_X86_SSE2 (1u << 26)       /* word 0 */
#define CPU_X86_SSSE3 (1u << 9)       /* word 1 */
#define CPU_X86_PCLMULQDQ (1u << 1)   /* word 1 */
#define CPU_X86_FMA (1u << 12)        /* word 1 */
#define CPU_X86_OSXSAVE (1u << 27)    /* word 1 */
#define CPU_X86_AESNI (1u << 25)      /* word 1 */
#define CPU_X86_AVX (1u << 28)        /* word 1 */
#define CPU_X86_AVX2 (1u << 5)        /* word 2 */
/* Word 2 bit 14 is MPX in CPUID, a feature no kernel here uses and Intel
 * has dropped; as in BoringSSL, libgcm's reader replaces it with "512-bit
 * vectors cost this CPU clock speed" (cpu_x86.c), so OPENSSL_ia32cap's
 * ":~0x4000" clears it as BoringSSL's does. */
#define CPU_X86_AVOID_ZMM (1u << 14)  /* word 2 */
#define CPU_X86_AVX512F (1u << 16)    /* word 2 */
#define CPU_X86_AVX512DQ (1u << 17)   /* word 2 */
#define CPU_X86_AVX512IFMA (1u << 21) /* word 2 */
#define CPU_X86_AVX512PF (1u << 26)   /* word 2 */
#define CPU_X86_AVX512ER (1u << 27)   /* word 2 */
#define CPU_X86_AVX512CD (1u << 28)   /* word 2 */
#define CPU_X86_AVX512BW (1u << 30)   /* word 2 */
#define CPU_X86_AVX512VL (1u << 31)   /* word 2 */
#define CPU_X86_VAES (1u << 9)        /* word 3 */
#define CPU_X86_VPCLMULQDQ (1u << 10) /* word 3 */

/* XCR0 state components (XGETBV 0). */
#define CPU_XCR0_AVX_STATE 0x6u     /* XMM | YMM */
/* XMM | YMM | opmask | ZMM_Hi256 | Hi16_ZMM */
#define CPU_XCR0_AVX512_STATE 0xe6u

/* 32-bit ARM Linux bits. */
#define CPU_ARM_HWCAP_NEON (1u << 12)  /* word 0: AT_HWCAP */
#define CPU_ARM_HWCAP2_AES (1u << 0)   /* word 1: AT_HWCAP2 */
#define CPU_ARM_HWCAP2_PMULL (1u << 1) /* word 1: AT_HWCAP2 */

/* aarch64 bits (word 0, Linux AT_HWCAP positions). */
#define CPU_AARCH64_ASIMD (1u << 1) /* NEON */
#define CPU_AARCH64_AES (1u << 3)
#define CPU_AARCH64_PMULL (1u << 4)
#define CPU_AARCH64_SHA3 (1u << 17) /* FEAT_SHA3: EOR3, RAX1, XAR, BCAX */

/* The four words, initialised exactly once (thread-safe), after the mask. */
GCM_HIDDEN const uint32_t *gcmi_cpu_caps(void);

/* 1 for the x86 cores whose clock drops while 512-bit instructions run,
 * where libgcm prefers 256-bit kernels (BoringSSL's list: Intel family 6,
 * models 85, 106, 108, 125, 126, 140, 141); `intel` says the vendor string
 * is GenuineIntel, family and model include their CPUID extensions.
 * gcmi_cpu_detect sets CPU_X86_AVOID_ZMM from it. */
GCM_HIDDEN int gcmi_cpu_x86_zmm_lowers_clock(int intel, uint32_t family,
                                        uint32_t model);

/* Fills the four capability words from the hardware. */
GCM_HIDDEN void gcmi_cpu_detect(uint32_t out[4]);

/* Applies an OPENSSL_ia32cap value (BoringSSL's format, see cpu_x86.c) to
 * the words. Bits can only be cleared: nothing the hardware lacks is ever
 * turned on. NULL or an unparsable value changes nothing. */
GCM_HIDDEN void gcmi_cpu_apply_ia32cap(uint32_t caps[4], const char *env);

/* Applies a LIBGCM_ARMCAP value to word 0 (aarch64): "~MASK" clears the
 * bits of MASK, "MASK" keeps only them (hex with 0x, or decimal). Bits can
 * only be cleared. NULL or an unparsable value changes nothing. */
GCM_HIDDEN void gcmi_cpu_apply_armcap(uint32_t caps[4], const char *env);

/* Applies a LIBGCM_ARMCAP value on 32-bit ARM: "M0[:M1]", where M0 masks
 * word 0 (AT_HWCAP) and M1 word 1 (AT_HWCAP2), each "~MASK" (clear those
 * bits) or "MASK" (keep only those); an empty part changes nothing. Bits
 * can only be cleared. NULL or an unparsable value changes nothing. */
GCM_HIDDEN void gcmi_cpu_apply_armcap32(uint32_t caps[4], const char *env);

#endif /* LIBGCM_CRYPTO_CPU_CPU_DETECT_H */
