/*
 * crypto/fused/fused_vaes_avx2.c: the fused AES-CTR + GHASH kernel with
 * VAES and VPCLMULQDQ on 256-bit registers ("vaes_avx2"), x86_64 only,
 * for the pair (aesni, vpclmul_avx2).
 *
 * The work is done by asm/x86_64/aes-gcm-vaes-avx2-x86_64.pl, whose opening
 * comment explains it: sixteen counter blocks in flight in eight ymm
 * registers (two blocks per register, VAESENC on both lanes), the GHASH of
 * sixteen ciphertext blocks stitched between their rounds with the
 * vpclmul_avx2 backend's powers H^16..H^1 (Karatsuba VPCLMULQDQ, one
 * reduction per sixteen blocks), a per-lane 32-bit counter that wraps
 * modulo 2^32 exactly, and a tail of 1..15 blocks that reads and writes
 * only the blocks that exist. Seal hashes the previous batch's output while
 * encrypting the next; open hashes each batch's input before writing its
 * output, so in == out works for both. The lagged seal (struct fused_lag
 * in fused.h) is the seal loop on whole groups of sixteen, its first
 * group's rounds hashing the previous call's pending group and its last
 * group stored to lag->pending unhashed.
 *
 * It keeps nothing of its own (init is NULL): the round keys come from the
 * aesni schedule and the powers of H from the vpclmul_avx2 GHASH key, both
 * read through struct fused_keys (fused.h asserts its offsets).
 *
 * AES-GCM-SIV (fused.h's siv_* hooks): siv_open (seal's text in RFC 8452's
 * byte order, asm/perlasm/siv_copy.pm) and siv_ctr32le (counter mode
 * alone from the same pieces, and siv_tag_ctr32le: a seal's tag, then
 * counter mode from it in registers over the whole blocks and the padded
 * last block, in one call; and siv_open_end: siv_open with the rest of
 * an open around it, the AAD's padded last block hashed at entry, the
 * partial last block's key stream, its hash and the length block's,
 * and the tag at exit); POLYVAL is the vpclmul_avx2 backend's
 * (asm/x86_64/ghash-vpclmul-avx2-x86_64.pl): siv_polyval its
 * polyval_update, and siv_polyval_runs, which hashes a whole message's
 * runs in one call.
 *
 * Its AES-GCM-SIV per-message hooks (siv_keys, siv_seal_short,
 * siv_open_short) are the xmm kernel every aesni descriptor shares
 * (fused.h, asm/x86_64/aes-gcm-siv-aesni-x86_64.pl), for messages of up
 * to FUSED_SIV_VAES_SHORT_MAX (240) bytes: from 16 blocks this kernel's
 * siv_ctr32le is faster. Its siv_keys_hash makes both keys of every other
 * message in one call (the derivation, K_enc's expansion and the
 * vpclmul_avx2 powers of K_auth, which is that key's H' as it is), where
 * siv_keys, the key transform of crypto/siv/polyval.c and the backend's
 * init_for took three.
 *
 * Constant time: AES rounds, carry-less multiplies, XORs and constant
 * shuffles only; branches and addresses depend on the block count and the
 * key length alone.
 *
 * Needs what both halves of its pair need (AES-NI; AVX2, PCLMULQDQ,
 * VPCLMULQDQ and VAES), all tested through the cached CPU capabilities, so
 * OPENSSL_ia32cap can hide it.
 */
#include <stddef.h>

#include "../cpu/cpu.h"
#include "fused.h"

/* What the kernel reads, where: the two key pointers of struct fused_keys
 * (fused.h), the aesni schedule's round keys and `rounds`
 * (AES_SCHEDULE_ROUNDS_OFFSET, aes.h), and the vpclmul_avx2 key's 256
 * bytes of powers (its key_bytes; test/key_size_test.cc puts the key at
 * the end of a readable page to hold it to that). */

#if defined(LIBGCM_ASM_X86_64)
/* asm/x86_64/aes-gcm-vaes-avx2-x86_64.pl: sixteen blocks in flight. */
#define VAES_AVX2_KERNEL(op) gcmi_aes_gcm_x86_64_vaes_avx2_##op
GCM_HIDDEN fused_crypt_fn VAES_AVX2_KERNEL(seal);
GCM_HIDDEN fused_crypt_fn VAES_AVX2_KERNEL(open);
GCM_HIDDEN fused_crypt_fn VAES_AVX2_KERNEL(siv_open);
GCM_HIDDEN fused_siv_open_end_fn VAES_AVX2_KERNEL(siv_open_end);
GCM_HIDDEN aes_ctr32_fn VAES_AVX2_KERNEL(siv_ctr32le);
GCM_HIDDEN fused_siv_tag_ctr_fn VAES_AVX2_KERNEL(siv_tag_ctr32le);
GCM_HIDDEN fused_siv_keys_hash_fn VAES_AVX2_KERNEL(siv_keys_hash);
GCM_HIDDEN fused_lagged_fn VAES_AVX2_KERNEL(seal_lagged);
/* asm/x86_64/ghash-vpclmul-avx2-x86_64.pl: POLYVAL, the pair's own, and
 * over a whole message's runs in one call. */
#define VAES_AVX2_POLYVAL(op) gcmi_ghash_x86_64_vpclmul_avx2_##op
GCM_HIDDEN ghash_update_fn VAES_AVX2_POLYVAL(polyval);
GCM_HIDDEN siv_polyval_runs_fn VAES_AVX2_POLYVAL(polyval_runs);
#define VAES_AVX2_BUILT 1
#else
#define VAES_AVX2_KERNEL(op) NULL
#define VAES_AVX2_POLYVAL(op) NULL
#define VAES_AVX2_BUILT 0
#endif

/* Its pair's requirements, each asked of that backend. */
static int vaes_avx2_usable(void) {
  return VAES_AVX2_BUILT && gcmi_aes_aesni.usable() && gcmi_ghash_vpclmul_avx2.usable();
}

const struct fused_impl gcmi_fused_vaes_avx2 = {
    .name = "vaes_avx2",
    .constant_time = 1,
    .requires = "AES-NI, AVX2, PCLMULQDQ, VPCLMULQDQ and VAES",
    .aes = &gcmi_aes_aesni,
    .ghash = &gcmi_ghash_vpclmul_avx2,
    /* Even a run of one block is cheaper here than aesni ctr32 followed by
     * a vpclmul_avx2 GHASH call (scratch timings: 16 bytes in about 70% of
     * the two passes' cycles, 128 bytes in 62-75%, 256 bytes in 67-78%). */
    .min_blocks = 1,
    /* Stream sizes (rule 3 of crypto/gcm/stream_plan.h), as measured with
     * gcm-ab --chunk: 272 and 400-byte chunks 1.25x and 1.8x with uncut
     * runs, odd chunks from 350 bytes on faster, 300-byte ones 4-9% slower
     * when their 18 blocks took the kernel. */
    .stream_run_min = 16,
    .stream_tail_min = 20,
    .usable = vaes_avx2_usable,
    .key_bytes = 0, /* nothing of its own */
    .init = NULL,
    .seal = VAES_AVX2_KERNEL(seal),
    .open = VAES_AVX2_KERNEL(open),
    .seal_lagged = VAES_AVX2_KERNEL(seal_lagged),
    .lag_blocks = 16,
    .siv_open = VAES_AVX2_KERNEL(siv_open),
    .siv_open_end = VAES_AVX2_KERNEL(siv_open_end),
    .siv_ctr32le = VAES_AVX2_KERNEL(siv_ctr32le),
    .siv_tag_ctr32le = VAES_AVX2_KERNEL(siv_tag_ctr32le),
    .siv_keys_hash = VAES_AVX2_KERNEL(siv_keys_hash),
    /* AES-GCM-SIV's per-message work: fused.h's aesni kernels. */
    FUSED_SIV_AESNI_HOOKS(FUSED_SIV_VAES_SHORT_MAX, FUSED_SIV_VAES_SHORT_MAX),
    .siv_polyval = VAES_AVX2_POLYVAL(polyval),
    .siv_polyval_runs = VAES_AVX2_POLYVAL(polyval_runs),
};
