/*
 * crypto/fused/fused_aesni_avx.c: the stitched AES-CTR + GHASH kernel with
 * AES-NI and PCLMULQDQ in the AVX (VEX) encoding ("aesni_avx"), x86_64
 * only, for the pair (aesni, clmul): the top tier of CPUs with AVX but
 * without VAES and VPCLMULQDQ (Sandy Bridge to Broadwell, Zen 1 and 2).
 *
 * The work is done by asm/x86_64/aes-gcm-aesni-avx-x86_64.pl, written by
 * asm/perlasm/aes_gcm_aesni_xmm.pm, whose opening comment explains it: eight counter blocks in flight in eight xmm
 * registers, the GHASH of eight ciphertext blocks stitched between their
 * rounds with the clmul backend's powers H^8..H^1 (Karatsuba PCLMULQDQ,
 * one reduction per eight blocks), a 32-bit counter that wraps modulo 2^32
 * exactly in every block, and a tail of 1..7 blocks that reads and writes
 * only the blocks that exist. Seal hashes the previous batch's output while
 * encrypting the next; open hashes each batch's input before writing its
 * output, so in == out works for both.
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
 * (fused.h, asm/x86_64/aes-gcm-siv-aesni-x86_64.pl); seals of up to
 * FUSED_SIV_AESNI_SEAL_MAX bytes and opens of up to
 * FUSED_SIV_AESNI_OPEN_MAX go to it whole (siv_seal_max, siv_open_max).
 *
 * Constant time: AES rounds, carry-less multiplies, XORs and constant
 * shuffles only; branches and addresses depend on the block count and the
 * key length alone.
 *
 * Needs what both halves of its pair need (AES-NI; PCLMULQDQ and SSSE3)
 * plus AVX for the VEX encoding (with the OS's YMM state, which the CPU
 * layer checks), all tested through the cached CPU capabilities, so
 * OPENSSL_ia32cap can hide it. It does not use MOVBE.
 */
#include <stddef.h>

#include "../cpu/cpu.h"
#include "fused.h"

/* What the kernel reads, where: the two key pointers of struct fused_keys
 * (fused.h), the aesni schedule's `rounds` (AES_SCHEDULE_ROUNDS_OFFSET,
 * aes.h), and the clmul key's 256 bytes of powers and half sums. */

#if defined(LIBGCM_ASM_X86_64)
/* asm/x86_64/aes-gcm-aesni-avx-x86_64.pl: eight blocks in flight. */
#define AESNI_AVX_KERNEL(op) gcmi_aes_gcm_x86_64_aesni_avx_##op
GCM_HIDDEN fused_crypt_fn AESNI_AVX_KERNEL(seal);
GCM_HIDDEN fused_crypt_fn AESNI_AVX_KERNEL(open);
GCM_HIDDEN fused_crypt_fn AESNI_AVX_KERNEL(siv_open);
GCM_HIDDEN fused_lagged_fn AESNI_AVX_KERNEL(seal_lagged);
GCM_HIDDEN fused_oneshot_fn AESNI_AVX_KERNEL(seal_oneshot);
GCM_HIDDEN fused_oneshot_fn AESNI_AVX_KERNEL(open_oneshot);
#define AESNI_AVX_BUILT 1
#else
#define AESNI_AVX_KERNEL(op) NULL
#define AESNI_AVX_BUILT 0
#endif

static int aesni_avx_usable(void) {
  return AESNI_AVX_BUILT && gcmi_aes_aesni.usable() && gcmi_ghash_clmul.usable() &&
         gcmi_cpu_x86_has_avx();
}

const struct fused_impl gcmi_fused_aesni_avx = {
    .name = "aesni_avx",
    .constant_time = 1,
    .requires = "AES-NI, PCLMULQDQ, SSSE3 and AVX",
    .aes = &gcmi_aes_aesni,
    .ghash = &gcmi_ghash_clmul,
    .min_blocks = 1,
    /* Stream sizes (rule 3 of crypto/gcm/stream_plan.h), as measured with
     * gcm-ab --chunk: 272 and 400-byte chunks 1.15x and 1.55x with uncut
     * runs; with a partial block behind, 350-500-byte chunks were up to
     * 12% slower on the kernel, 1000 bytes and up faster. */
    .stream_run_min = 16,
    .stream_tail_min = 32,
    .usable = aesni_avx_usable,
    .key_bytes = 0, /* nothing of its own */
    .init = NULL,
    .seal = AESNI_AVX_KERNEL(seal),
    .open = AESNI_AVX_KERNEL(open),
    .seal_oneshot = AESNI_AVX_KERNEL(seal_oneshot),
    .open_oneshot = AESNI_AVX_KERNEL(open_oneshot),
    .seal_lagged = AESNI_AVX_KERNEL(seal_lagged),
    .lag_blocks = 8,
    .siv_open = AESNI_AVX_KERNEL(siv_open),
    /* AES-GCM-SIV's per-message work: fused.h's aesni kernels. */
    FUSED_SIV_AESNI_HOOKS(FUSED_SIV_AESNI_SEAL_MAX, FUSED_SIV_AESNI_OPEN_MAX),
};
