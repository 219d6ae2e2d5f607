/*
 * crypto/fused/fused_asm.h: every fused AES-CTR + GHASH assembly kernel, in
 * one place.
 *
 * The kernels are generated at build time from asm/<arch>/NAME.pl by the
 * project's translator (asm/perlasm). Each is wrapped by a descriptor in
 * crypto/fused/fused_<name>.c, which says when it may run; nothing else
 * calls them. A kernel's prototype matches the `struct fused_impl` hook it
 * implements, so a descriptor can point at it directly.
 */
#ifndef LIBGCM_CRYPTO_FUSED_FUSED_ASM_H
#define LIBGCM_CRYPTO_FUSED_FUSED_ASM_H

#include "fused.h"

#if defined(__cplusplus)
extern "C" {
#endif

#if defined(LIBGCM_ASM_X86_64)
/* asm/x86_64/aes-gcm-vaes-avx2-x86_64.pl: VAES + VPCLMULQDQ on ymm
 * ("vaes_avx2"), for the pair (aesni, vpclmul_avx2). Reads k->aes_key and
 * k->ghash_key at the offsets FUSED_KEYS_AES_KEY_OFFSET and
 * FUSED_KEYS_GHASH_KEY_OFFSET; sixteen blocks in flight. */
#define FUSED_KEYS_AES_KEY_OFFSET 8
#define FUSED_KEYS_GHASH_KEY_OFFSET 24
GCM_HIDDEN void aes_gcm_x86_64_vaes_avx2_seal(const struct fused_keys *k,
                                              uint8_t *out, const uint8_t *in,
                                              size_t blocks,
                                              const uint8_t ctr[16],
                                              uint8_t Xi[16]);
GCM_HIDDEN void aes_gcm_x86_64_vaes_avx2_open(const struct fused_keys *k,
                                              uint8_t *out, const uint8_t *in,
                                              size_t blocks,
                                              const uint8_t ctr[16],
                                              uint8_t Xi[16]);
/* asm/x86_64/aes-gcm-aesni-avx-x86_64.pl: AES-NI + PCLMULQDQ stitched, VEX
 * encoded ("aesni_avx"), for the pair (aesni, clmul). Reads k->aes_key and
 * k->ghash_key at the same offsets; eight blocks in flight. */
GCM_HIDDEN void aes_gcm_x86_64_aesni_avx_seal(const struct fused_keys *k,
                                              uint8_t *out, const uint8_t *in,
                                              size_t blocks,
                                              const uint8_t ctr[16],
                                              uint8_t Xi[16]);
GCM_HIDDEN void aes_gcm_x86_64_aesni_avx_open(const struct fused_keys *k,
                                              uint8_t *out, const uint8_t *in,
                                              size_t blocks,
                                              const uint8_t ctr[16],
                                              uint8_t Xi[16]);
#endif

#if defined(LIBGCM_ASM_AARCH64)
/* asm/aarch64/aes-gcm-armv8-pmull-aarch64.pl: AESE/AESMC + PMULL/PMULL2
 * fused ("armv8_pmull"), for the pair (armv8, pmull). Reads k->aes_key and
 * k->ghash_key at the offsets below; eight blocks in flight. */
#define FUSED_KEYS_AES_KEY_OFFSET 8
#define FUSED_KEYS_GHASH_KEY_OFFSET 24
GCM_HIDDEN void aes_gcm_aarch64_armv8_pmull_seal(const struct fused_keys *k,
                                                 uint8_t *out,
                                                 const uint8_t *in,
                                                 size_t blocks,
                                                 const uint8_t ctr[16],
                                                 uint8_t Xi[16]);
GCM_HIDDEN void aes_gcm_aarch64_armv8_pmull_open(const struct fused_keys *k,
                                                 uint8_t *out,
                                                 const uint8_t *in,
                                                 size_t blocks,
                                                 const uint8_t ctr[16],
                                                 uint8_t Xi[16]);
#endif

#if defined(__cplusplus)
}
#endif

#endif /* LIBGCM_CRYPTO_FUSED_FUSED_ASM_H */
