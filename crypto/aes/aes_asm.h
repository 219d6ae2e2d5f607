/*
 * crypto/aes/aes_asm.h: every AES assembly kernel, in one place.
 *
 * The kernels are generated at build time from asm/<arch>/NAME.pl by the
 * project's translator (asm/perlasm). Each is wrapped by a descriptor in
 * crypto/aes/aes_<name>.c, which says when it may run; nothing else calls
 * them. A kernel's prototype matches the `struct aes_impl` hook it
 * implements, so a descriptor can point at it directly.
 *
 * The build defines LIBGCM_ASM_X86_64 when the x86_64 kernels are
 * assembled and linked, LIBGCM_ASM_X86 for the 32-bit x86 ones
 * (asm/CMakeLists.txt; LIBGCM_NO_ASM turns both off).
 */
#ifndef LIBGCM_CRYPTO_AES_AES_ASM_H
#define LIBGCM_CRYPTO_AES_AES_ASM_H

#include "aes.h"

#if defined(__cplusplus)
extern "C" {
#endif

#if defined(LIBGCM_ASM_X86_64)
/* asm/x86_64/aes-ni-x86_64.pl: AES-NI ("aesni").
 * The schedule holds the round keys 0..rounds at bytes[16*i] and the kernel
 * writes `rounds` itself (it reads it at offset AES_NI_ROUNDS_OFFSET);
 * ctr32 keeps eight blocks in flight. */
#define AES_NI_ROUNDS_OFFSET 1920
GCM_HIDDEN void aes_x86_64_aesni_set_encrypt_key(struct aes_schedule *s,
                                                 const uint8_t *key,
                                                 size_t key_len);
GCM_HIDDEN void aes_x86_64_aesni_encrypt_block(const struct aes_schedule *s,
                                               const uint8_t in[16],
                                               uint8_t out[16]);
GCM_HIDDEN void aes_x86_64_aesni_ctr32(const struct aes_schedule *s,
                                       const uint8_t *in, uint8_t *out,
                                       size_t blocks, const uint8_t ctr[16]);

/* asm/x86_64/aes-vpaes-x86_64.pl: SSSE3 vector-permute AES ("vpaes").
 * The schedule holds round keys in the kernel's own form (tower basis,
 * permuted; see the .pl) and `rounds`, written by set_encrypt_key at offset
 * AES_VPAES_ROUNDS_OFFSET; ctr32 runs four blocks at a time. */
#define AES_VPAES_ROUNDS_OFFSET 1920
GCM_HIDDEN void aes_x86_64_vpaes_set_encrypt_key(struct aes_schedule *s,
                                                 const uint8_t *key,
                                                 size_t key_len);
GCM_HIDDEN void aes_x86_64_vpaes_encrypt_block(const struct aes_schedule *s,
                                               const uint8_t in[16],
                                               uint8_t out[16]);
GCM_HIDDEN void aes_x86_64_vpaes_ctr32(const struct aes_schedule *s,
                                       const uint8_t *in, uint8_t *out,
                                       size_t blocks, const uint8_t ctr[16]);
#endif

#if defined(LIBGCM_ASM_X86)
/* asm/x86/aes-ni-x86.pl: AES-NI ("aesni") for 32-bit x86, cdecl. The same
 * schedule layout as aes-ni-x86_64.pl (round keys at bytes[16*i], `rounds`
 * at AES_NI_ROUNDS_OFFSET, written by the kernel); ctr32 keeps six blocks
 * in flight (eight xmm registers). */
#define AES_NI_ROUNDS_OFFSET 1920
GCM_HIDDEN void aes_x86_aesni_set_encrypt_key(struct aes_schedule *s,
                                              const uint8_t *key,
                                              size_t key_len);
GCM_HIDDEN void aes_x86_aesni_encrypt_block(const struct aes_schedule *s,
                                            const uint8_t in[16],
                                            uint8_t out[16]);
GCM_HIDDEN void aes_x86_aesni_ctr32(const struct aes_schedule *s,
                                    const uint8_t *in, uint8_t *out,
                                    size_t blocks, const uint8_t ctr[16]);

/* asm/x86/aes-vpaes-x86.pl: SSSE3 vector-permute AES ("vpaes") for 32-bit
 * x86, cdecl. The same schedule as aes-vpaes-x86_64.pl (`rounds` at
 * AES_VPAES_ROUNDS_OFFSET); ctr32 runs two blocks at a time. */
#define AES_VPAES_ROUNDS_OFFSET 1920
GCM_HIDDEN void aes_x86_vpaes_set_encrypt_key(struct aes_schedule *s,
                                              const uint8_t *key,
                                              size_t key_len);
GCM_HIDDEN void aes_x86_vpaes_encrypt_block(const struct aes_schedule *s,
                                            const uint8_t in[16],
                                            uint8_t out[16]);
GCM_HIDDEN void aes_x86_vpaes_ctr32(const struct aes_schedule *s,
                                    const uint8_t *in, uint8_t *out,
                                    size_t blocks, const uint8_t ctr[16]);
#endif

#if defined(LIBGCM_ASM_AARCH64)
/* asm/aarch64/aes-armv8-aarch64.pl: the Armv8 Cryptographic Extension
 * ("armv8"). Round keys at the start of the schedule, Nr at offset
 * AES_ARMV8_ROUNDS_OFFSET (written by the kernel); ctr32 keeps eight blocks
 * in flight and every round key in a register. */
#define AES_ARMV8_ROUNDS_OFFSET 1920
GCM_HIDDEN void aes_aarch64_armv8_set_encrypt_key(struct aes_schedule *s,
                                                  const uint8_t *key,
                                                  size_t key_len);
GCM_HIDDEN void aes_aarch64_armv8_encrypt_block(const struct aes_schedule *s,
                                                const uint8_t in[16],
                                                uint8_t out[16]);
GCM_HIDDEN void aes_aarch64_armv8_ctr32(const struct aes_schedule *s,
                                        const uint8_t *in, uint8_t *out,
                                        size_t blocks, const uint8_t ctr[16]);

/* asm/aarch64/aes-vpaes-neon-aarch64.pl: NEON vector-permute AES
 * ("vpaes-neon"). The x86 vpaes schedule layout (round keys in the tower
 * basis, permuted; see the .pl) with Nr at AES_VPAES_NEON_ROUNDS_OFFSET,
 * written by set_encrypt_key; ctr32 runs four blocks side by side. */
#define AES_VPAES_NEON_ROUNDS_OFFSET 1920
GCM_HIDDEN void aes_aarch64_vpaes_neon_set_encrypt_key(struct aes_schedule *s,
                                                       const uint8_t *key,
                                                       size_t key_len);
GCM_HIDDEN void aes_aarch64_vpaes_neon_encrypt_block(
    const struct aes_schedule *s, const uint8_t in[16], uint8_t out[16]);
GCM_HIDDEN void aes_aarch64_vpaes_neon_ctr32(const struct aes_schedule *s,
                                             const uint8_t *in, uint8_t *out,
                                             size_t blocks,
                                             const uint8_t ctr[16]);
#endif

#if defined(LIBGCM_ASM_ARM)
/* asm/armv4/aes-armv8-32-armv4.pl: the Armv8 Cryptographic Extension in
 * AArch32 ("armv8-32"). Round keys at the start of the schedule, Nr at
 * offset AES_ARMV8_32_ROUNDS_OFFSET (written by the kernel); ctr32 keeps
 * four blocks in flight. */
#define AES_ARMV8_32_ROUNDS_OFFSET 1920
GCM_HIDDEN void aes_armv4_armv8_set_encrypt_key(struct aes_schedule *s,
                                                const uint8_t *key,
                                                size_t key_len);
GCM_HIDDEN void aes_armv4_armv8_encrypt_block(const struct aes_schedule *s,
                                              const uint8_t in[16],
                                              uint8_t out[16]);
GCM_HIDDEN void aes_armv4_armv8_ctr32(const struct aes_schedule *s,
                                      const uint8_t *in, uint8_t *out,
                                      size_t blocks, const uint8_t ctr[16]);

/* asm/armv4/aes-bsaes-neon-armv4.pl: bitsliced AES on NEON ("bsaes-neon").
 * Only counter mode is assembly: the schedule (eight 16-byte bit planes per
 * round key, Nr at AES_BSAES_NEON_ROUNDS_OFFSET) and encrypt_block are C in
 * crypto/aes/aes_bsaes_neon.c; ctr32 runs eight blocks per pass and reads
 * ctr completely before writing out. */
#define AES_BSAES_NEON_ROUNDS_OFFSET 1920
GCM_HIDDEN void aes_armv4_bsaes_neon_ctr32(const struct aes_schedule *s,
                                           const uint8_t *in, uint8_t *out,
                                           size_t blocks,
                                           const uint8_t ctr[16]);
#endif

#if defined(__cplusplus)
}
#endif

#endif /* LIBGCM_CRYPTO_AES_AES_ASM_H */
