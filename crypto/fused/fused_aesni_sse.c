/*
 * crypto/fused/fused_aesni_sse.c: the stitched AES-CTR + GHASH kernel with
 * AES-NI and PCLMULQDQ in the legacy SSE encoding ("aesni_sse"), x86_64
 * only, for the pair (aesni, clmul): the CPUs with AES-NI and PCLMULQDQ
 * but no AVX (Westmere; the Atom-class Silvermont, Goldmont and Tremont
 * cores), which without it run counter mode and GHASH in two passes.
 *
 * The work is done by asm/x86_64/aes-gcm-aesni-sse-x86_64.pl, the
 * aesni_avx kernel (fused_aesni_avx.c) in two-operand form: both are
 * written once by asm/perlasm/aes_gcm_aesni_xmm.pm, whose opening comment
 * explains them, so they run the same schedule: eight
 * counter blocks in flight in eight xmm registers, the GHASH of eight
 * ciphertext blocks stitched between their rounds with the clmul
 * backend's powers H^8..H^1 (Karatsuba PCLMULQDQ, one reduction per eight
 * blocks), a 32-bit counter that wraps modulo 2^32 exactly in every block,
 * and a tail of 1..7 blocks that reads and writes only the blocks that
 * exist. Only 16-byte-aligned memory (the constants, its stack frame, the
 * clmul key) is a vector operand; the data, the counter block and Xi are
 * loaded with MOVDQU.
 *
 * It keeps nothing of its own (init is NULL): the round keys come from the
 * aesni schedule and the powers of H from the clmul GHASH key, both read
 * through struct fused_keys (fused.h asserts its offsets).
 *
 * AES-GCM-SIV (fused.h's siv_open): seal's text in RFC 8452's byte order
 * (asm/perlasm/siv_copy.pm), decrypting and hashing the plaintext in one
 * pass.
 *
 * Its AES-GCM-SIV per-message hooks (siv_keys, siv_seal_short,
 * siv_open_short) are the kernel every aesni descriptor shares
 * (fused.h, asm/x86_64/aes-gcm-siv-aesni-x86_64.pl, legacy SSE as this
 * one); seals of up to FUSED_SIV_AESNI_SEAL_MAX bytes and opens of up to
 * FUSED_SIV_AESNI_OPEN_MAX go to it whole (siv_seal_max, siv_open_max).
 *
 * Constant time: AES rounds, carry-less multiplies, XORs and constant
 * shuffles only; branches and addresses depend on the block count and the
 * key length alone.
 *
 * Needs exactly what both halves of its pair need (AES-NI; PCLMULQDQ and
 * SSSE3), tested through their descriptors and so through the cached CPU
 * capabilities: OPENSSL_ia32cap can hide it. The dispatcher lists it after
 * aesni_avx, which takes the pair wherever AVX is there.
 */
#include <stddef.h>

#include "../cpu/cpu.h"
#include "fused.h"

#if defined(LIBGCM_ASM_X86_64)
/* asm/x86_64/aes-gcm-aesni-sse-x86_64.pl: eight blocks in flight. */
#define AESNI_SSE_KERNEL(op) gcmi_aes_gcm_x86_64_aesni_sse_##op
GCM_HIDDEN fused_crypt_fn AESNI_SSE_KERNEL(seal);
GCM_HIDDEN fused_crypt_fn AESNI_SSE_KERNEL(open);
GCM_HIDDEN fused_crypt_fn AESNI_SSE_KERNEL(siv_open);
GCM_HIDDEN fused_lagged_fn AESNI_SSE_KERNEL(seal_lagged);
GCM_HIDDEN fused_oneshot_fn AESNI_SSE_KERNEL(seal_oneshot);
GCM_HIDDEN fused_oneshot_fn AESNI_SSE_KERNEL(open_oneshot);
#define AESNI_SSE_BUILT 1
#else
#define AESNI_SSE_KERNEL(op) NULL
#define AESNI_SSE_BUILT 0
#endif

static int aesni_sse_usable(void) {
  return AESNI_SSE_BUILT && gcmi_aes_aesni.usable() && gcmi_ghash_clmul.usable();
}

const struct fused_impl gcmi_fused_aesni_sse = {
    .name = "aesni_sse",
    .constant_time = 1,
    .requires = "AES-NI, SSSE3 and PCLMULQDQ",
    .aes = &gcmi_aes_aesni,
    .ghash = &gcmi_ghash_clmul,
    .min_blocks = 1,
    /* Measured with gcm-ab on Zen 5 with AVX masked, against the two
     * passes: one-shot seals of 160-256 bytes were 10-25% slower through
     * the kernel than through the short one-shot path, so one-shot
     * messages take it only above GCM_SHORT_MAX (256 bytes; from 272 on
     * 1.4-1.6x faster). Streams keep 16-block runs: 256-byte chunks were
     * 20-25% slower with min_blocks 17 (the two passes). */
    .oneshot_min = GCM_SHORT_MAX + 1,
    .stream_run_min = 16,
    .stream_tail_min = 32,
    .usable = aesni_sse_usable,
    .key_bytes = 0, /* nothing of its own */
    .init = NULL,
    .seal = AESNI_SSE_KERNEL(seal),
    .open = AESNI_SSE_KERNEL(open),
    .seal_oneshot = AESNI_SSE_KERNEL(seal_oneshot),
    .open_oneshot = AESNI_SSE_KERNEL(open_oneshot),
    .seal_lagged = AESNI_SSE_KERNEL(seal_lagged),
    .lag_blocks = 8,
    .siv_open = AESNI_SSE_KERNEL(siv_open),
    /* AES-GCM-SIV's per-message work: fused.h's aesni kernels. */
    FUSED_SIV_AESNI_HOOKS(FUSED_SIV_AESNI_SEAL_MAX, FUSED_SIV_AESNI_OPEN_MAX),
};
