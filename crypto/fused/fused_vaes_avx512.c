/*
 * crypto/fused/fused_vaes_avx512.c: the fused AES-CTR + GHASH kernel with
 * VAES and VPCLMULQDQ on 512-bit registers ("vaes_avx512"), x86_64 only,
 * for the pair (aesni, vpclmul_avx2).
 *
 * The work is done by asm/x86_64/aes-gcm-vaes-avx512-x86_64.pl, whose
 * opening comment explains it: sixteen counter blocks in flight in four
 * zmm registers (four blocks per register, VAESENC on every lane), the
 * round keys in registers, the GHASH of sixteen ciphertext blocks
 * stitched between their rounds with the vpclmul_avx2 backend's powers
 * H^16..H^1, loaded into registers once per call (schoolbook VPCLMULQDQ
 * on four lanes at once, reduced lane by lane, one fold per sixteen
 * blocks), a per-lane 32-bit counter that wraps modulo 2^32 exactly, and a
 * tail of 1..15 blocks whose loads and stores are masked to the blocks
 * that exist. Seal hashes the previous
 * batch's output, kept in registers, while encrypting the next; open
 * hashes each batch's input before writing its output, so in == out works
 * for both. The lagged seal (struct fused_lag in fused.h) is the seal loop
 * on whole groups of sixteen, its first group's rounds hashing the
 * previous call's pending group and its last group stored to lag->pending
 * unhashed.
 *
 * It shares its pair with gcmi_fused_vaes_avx2 and keeps nothing of its own
 * (init is NULL): the round keys come from the aesni schedule and the
 * powers of H from the vpclmul_avx2 GHASH key, both read through struct
 * fused_keys (fused.h asserts its offsets). The dispatcher lists it first,
 * so a key on that pair gets it wherever it runs, and vaes_avx2 elsewhere.
 *
 * AES-GCM-SIV (fused.h's siv_* hooks) has four functions here, made from
 * the same pieces in RFC 8452's byte order (asm/perlasm/siv_copy.pm):
 * siv_open (seal's text: decrypt, and POLYVAL of the plaintext),
 * siv_ctr32le and siv_polyval (counter mode and POLYVAL alone, sixteen
 * blocks per iteration; POLYVAL also over the runs of a whole message in
 * one call, siv_polyval_runs) and siv_hash_init (H'^1 .. H'^16 in four rounds
 * of multiplies, written where the others read them); and
 * siv_tag_ctr32le, a seal's tag and all of its counter mode (the padded
 * last block too) in one call, the counter made from the tag in
 * registers.
 *
 * Its AES-GCM-SIV per-message hooks (siv_keys, siv_seal_short,
 * siv_open_short) are the xmm kernel every aesni descriptor shares
 * (fused.h, asm/x86_64/aes-gcm-siv-aesni-x86_64.pl), for messages of up
 * to FUSED_SIV_VAES_SHORT_MAX (240) bytes: from 16 blocks this kernel's
 * siv_ctr32le is faster.
 *
 * Constant time: AES rounds, carry-less multiplies, XORs and constant
 * shuffles only; branches, addresses and the tail's masks depend on the
 * block count and the key length alone.
 *
 * Needs what both halves of its pair need (AES-NI; AVX2, PCLMULQDQ,
 * VPCLMULQDQ and VAES) and AVX-512 F, BW and VL with the opmask and ZMM
 * state enabled. On the Intel cores whose clock drops under 512-bit
 * instructions (gcmi_cpu_x86_avoids_zmm, BoringSSL's list) it is usable but not
 * preferred: the automatic choice gives them vaes_avx2, and vaes_avx512
 * runs there only when named (and in the tests, which run every usable
 * kernel). All of it is tested through the cached CPU capabilities, so
 * OPENSSL_ia32cap can hide it (":~0x40000000", AVX512BW, as for BoringSSL's
 * 512-bit kernel).
 */
#include <stddef.h>

#include "../cpu/cpu.h"
#include "fused.h"

/* What the kernel reads, where: the two key pointers of struct fused_keys
 * (fused.h), the aesni schedule's round keys and `rounds`
 * (AES_SCHEDULE_ROUNDS_OFFSET, aes.h), and the vpclmul_avx2 key's 256
 * bytes of powers (its key_bytes; a short tail's loads of them are masked
 * to the powers it uses, and test/key_size_test.cc puts the key at the end
 * of a readable page to hold the kernel to that). */

#if defined(LIBGCM_ASM_X86_64)
/* asm/x86_64/aes-gcm-vaes-avx512-x86_64.pl: sixteen blocks in flight. */
#define VAES_AVX512_KERNEL(op) gcmi_aes_gcm_x86_64_vaes_avx512_##op
GCM_HIDDEN fused_crypt_fn VAES_AVX512_KERNEL(seal);
GCM_HIDDEN fused_crypt_fn VAES_AVX512_KERNEL(open);
GCM_HIDDEN fused_crypt_fn VAES_AVX512_KERNEL(siv_open);
GCM_HIDDEN aes_ctr32_fn VAES_AVX512_KERNEL(siv_ctr32le);
GCM_HIDDEN fused_siv_tag_ctr_fn VAES_AVX512_KERNEL(siv_tag_ctr32le);
GCM_HIDDEN ghash_update_fn VAES_AVX512_KERNEL(siv_polyval);
GCM_HIDDEN ghash_init_for_fn VAES_AVX512_KERNEL(siv_hash_init);
GCM_HIDDEN siv_polyval_runs_fn VAES_AVX512_KERNEL(siv_polyval_runs);
GCM_HIDDEN fused_lagged_fn VAES_AVX512_KERNEL(seal_lagged);
#define VAES_AVX512_BUILT 1
#else
#define VAES_AVX512_KERNEL(op) NULL
#define VAES_AVX512_BUILT 0
#endif

/* Its pair's requirements, each asked of that backend, and AVX-512. */
static int vaes_avx512_usable(void) {
  return VAES_AVX512_BUILT && gcmi_aes_aesni.usable() &&
         gcmi_ghash_vpclmul_avx2.usable() && gcmi_cpu_x86_has_avx512();
}

/* Not on the cores that lower their clock under 512-bit instructions
 * (BoringSSL's list, cpu.h): there the automatic choice leaves it to
 * vaes_avx2, and it runs only when named. */
static int vaes_avx512_preferred(void) { return !gcmi_cpu_x86_avoids_zmm(); }

const struct fused_impl gcmi_fused_vaes_avx512 = {
    .name = "vaes_avx512",
    .constant_time = 1,
    .requires = "AES-NI, AVX2, PCLMULQDQ, VPCLMULQDQ, VAES and AVX-512 "
                "(F, BW, VL)",
    .aes = &gcmi_aes_aesni,
    .ghash = &gcmi_ghash_vpclmul_avx2,
    .min_blocks = 1,
    /* Stream sizes (rule 3 of crypto/gcm/stream_plan.h), as measured with
     * gcm-ab --chunk against the buffer: 128-byte chunks 1.33-1.56x,
     * 200-300 bytes 1.06-1.18x, a 16-byte-aligned run of 6 blocks
     * slower. */
    .stream_run_min = 8,
    .stream_tail_min = 8,
    .usable = vaes_avx512_usable,
    .key_bytes = 0, /* nothing of its own */
    .init = NULL,
    .seal = VAES_AVX512_KERNEL(seal),
    .open = VAES_AVX512_KERNEL(open),
    .seal_lagged = VAES_AVX512_KERNEL(seal_lagged),
    .lag_blocks = 16,
    .preferred = vaes_avx512_preferred,
    .siv_open = VAES_AVX512_KERNEL(siv_open),
    .siv_ctr32le = VAES_AVX512_KERNEL(siv_ctr32le),
    .siv_tag_ctr32le = VAES_AVX512_KERNEL(siv_tag_ctr32le),
    .siv_polyval = VAES_AVX512_KERNEL(siv_polyval),
    .siv_hash_init = VAES_AVX512_KERNEL(siv_hash_init),
    /* AES-GCM-SIV's per-message work: fused.h's aesni kernels. */
    FUSED_SIV_AESNI_HOOKS(FUSED_SIV_VAES_SHORT_MAX, FUSED_SIV_VAES_SHORT_MAX),
    .siv_polyval_runs = VAES_AVX512_KERNEL(siv_polyval_runs),
};
