/*
 * crypto/ghash/ghash_asm.h: every GHASH assembly kernel, in one place.
 *
 * The kernels are generated at build time from asm/<arch>/NAME.pl by the
 * project's translator (asm/perlasm). Each is wrapped by a descriptor in
 * crypto/ghash/ghash_<name>.c, which says when it may run; nothing else
 * calls them. A kernel's prototype matches the `struct ghash_impl` hook it
 * implements, so a descriptor can point at it directly.
 *
 * The build defines LIBGCM_ASM_X86_64 when the x86_64 kernels are
 * assembled and linked, LIBGCM_ASM_X86 for the 32-bit x86 ones
 * (asm/CMakeLists.txt; LIBGCM_NO_ASM turns both off).
 */
#ifndef LIBGCM_CRYPTO_GHASH_GHASH_ASM_H
#define LIBGCM_CRYPTO_GHASH_GHASH_ASM_H

#include "ghash.h"

#if defined(__cplusplus)
extern "C" {
#endif

#if defined(LIBGCM_ASM_X86_64)
/* asm/x86_64/ghash-clmul-x86_64.pl: PCLMULQDQ + SSSE3 ("clmul").
 * init stores H*x^-1 and its powers up to 8 (256 bytes of the key);
 * blocks aggregates eight blocks per reduction. */
GCM_HIDDEN void ghash_x86_64_clmul_init(struct ghash_key *key,
                                        const uint8_t H[16]);
GCM_HIDDEN void ghash_x86_64_clmul_blocks(uint8_t Xi[16],
                                          const struct ghash_key *key,
                                          const uint8_t *in, size_t blocks);

/* asm/x86_64/ghash-ssse3-x86_64.pl: SSSE3 only ("ssse3"). The key (1024
 * bytes: transposed 4-bit tables for H and H^2) is built in C by the
 * descriptor's init, crypto/ghash/ghash_ssse3.c; blocks takes two blocks
 * per reduction. */
GCM_HIDDEN void ghash_x86_64_ssse3_blocks(uint8_t Xi[16],
                                          const struct ghash_key *key,
                                          const uint8_t *in, size_t blocks);

/* asm/x86_64/ghash-vpclmul-avx2-x86_64.pl: VPCLMULQDQ on ymm, AVX2
 * ("vpclmul_avx2"). init stores H*x^-1 and its powers up to 16 (H^16
 * first: entry e at 16*e is H^(16-e)) and their Karatsuba half sums at
 * 256 + 16*e, 512 bytes of the key; blocks aggregates sixteen blocks per
 * reduction. The fused kernel reads the same powers. */
#define GHASH_VPCLMUL_AVX2_KEY_BYTES 512
GCM_HIDDEN void ghash_x86_64_vpclmul_avx2_init(struct ghash_key *key,
                                               const uint8_t H[16]);
GCM_HIDDEN void ghash_x86_64_vpclmul_avx2_blocks(uint8_t Xi[16],
                                                 const struct ghash_key *key,
                                                 const uint8_t *in,
                                                 size_t blocks);
#endif

#if defined(LIBGCM_ASM_X86)
/* asm/x86/ghash-clmul-x86.pl: PCLMULQDQ + SSSE3 ("clmul") for 32-bit x86,
 * cdecl. The same key layout as ghash-clmul-x86_64.pl (H*x^-1 and its
 * powers up to 8); blocks aggregates eight blocks per reduction. */
GCM_HIDDEN void ghash_x86_clmul_init(struct ghash_key *key,
                                     const uint8_t H[16]);
GCM_HIDDEN void ghash_x86_clmul_blocks(uint8_t Xi[16],
                                       const struct ghash_key *key,
                                       const uint8_t *in, size_t blocks);

/* asm/x86/ghash-ssse3-x86.pl: SSSE3 only ("ssse3") for 32-bit x86, cdecl.
 * The same key as the x86_64 kernel (built by the C init in
 * crypto/ghash/ghash_ssse3.c); two blocks per reduction. */
GCM_HIDDEN void ghash_x86_ssse3_blocks(uint8_t Xi[16],
                                       const struct ghash_key *key,
                                       const uint8_t *in, size_t blocks);

/* asm/x86/ghash-sse2-x86.pl: SSE2 only ("sse2") for 32-bit x86, cdecl.
 * The key (576 bytes: the Karatsuba operand words of H*x^-1 and H^2*x^-1,
 * split into bit classes) is built in C by crypto/ghash/ghash_sse2.c;
 * two blocks per reduction. */
GCM_HIDDEN void ghash_x86_sse2_blocks(uint8_t Xi[16],
                                      const struct ghash_key *key,
                                      const uint8_t *in, size_t blocks);
#endif

#if defined(LIBGCM_ASM_AARCH64)
/* asm/aarch64/ghash-pmull-aarch64.pl: PMULL/PMULL2 ("pmull"). init stores
 * H^k * x^-1 (bit-reflected) for k = 1..8 and their Karatsuba halves (256
 * bytes); blocks aggregates eight blocks per reduction. */
GCM_HIDDEN void ghash_aarch64_pmull_init(struct ghash_key *key,
                                         const uint8_t H[16]);
GCM_HIDDEN void ghash_aarch64_pmull_blocks(uint8_t Xi[16],
                                           const struct ghash_key *key,
                                           const uint8_t *in, size_t blocks);

/* asm/aarch64/ghash-neon-aarch64.pl: plain NEON, PMULL on 8-bit lanes
 * ("neon"). The key (1024 bytes: for H^k * x^-1, k = 8..1, the rotated
 * operand registers) is built in C by the descriptor's init,
 * crypto/ghash/ghash_neon_aarch64.c; blocks aggregates up to eight blocks per
 * reduction. */
GCM_HIDDEN void ghash_aarch64_neon_blocks(uint8_t Xi[16],
                                          const struct ghash_key *key,
                                          const uint8_t *in, size_t blocks);
#endif

#if defined(LIBGCM_ASM_ARM)
/* asm/armv4/ghash-pmull32-armv4.pl: VMULL.P64 in AArch32 ("pmull32"). init
 * stores H..H^4 (times x^-1, bit-reflected) and their Karatsuba halves in
 * the first 96 bytes of the key; blocks reduces once per four blocks. */
GCM_HIDDEN void ghash_armv4_pmull32_init(struct ghash_key *key,
                                         const uint8_t H[16]);
GCM_HIDDEN void ghash_armv4_pmull32_blocks(uint8_t Xi[16],
                                           const struct ghash_key *key,
                                           const uint8_t *in, size_t blocks);
/* asm/armv4/ghash-neon-armv4.pl: VMULL.P8 on plain NEON ("neon"). init
 * stores H..H^4 (times x^-1, bit-reflected) in the first 64 bytes of the
 * key; blocks reduces once per four blocks. */
GCM_HIDDEN void ghash_armv4_neon_init(struct ghash_key *key,
                                      const uint8_t H[16]);
GCM_HIDDEN void ghash_armv4_neon_blocks(uint8_t Xi[16],
                                        const struct ghash_key *key,
                                        const uint8_t *in, size_t blocks);
#endif

#if defined(__cplusplus)
}
#endif

#endif /* LIBGCM_CRYPTO_GHASH_GHASH_ASM_H */
