/*
 * crypto/ghash/ghash_vpclmul_avx2.c: GHASH with 256-bit VPCLMULQDQ on AVX2
 * registers ("vpclmul_avx2"), x86_64 only.
 *
 * The work is done by asm/x86_64/ghash-vpclmul-avx2-x86_64.pl, whose
 * opening comment explains the algorithm: two blocks per ymm register,
 * Karatsuba products with VPCLMULQDQ in both 128-bit lanes, powers
 * H..H^16 precomputed at init, sixteen blocks per reduction, and the clmul
 * kernel's Montgomery reduction in GCM's reflected bit order. Its key
 * layout is the one the fused kernels crypto/fused/fused_vaes_avx2.c and
 * fused_vaes_avx512.c read.
 *
 * Constant time: secrets (H, its powers, the running hash and the data)
 * only pass through carry-less multiplications, XORs and constant
 * shuffles; branches and addresses depend only on the number of blocks.
 *
 * It needs AVX and AVX2 (ymm state enabled by the OS: crypto/cpu clears the
 * bits otherwise), PCLMULQDQ and VPCLMULQDQ. It also asks for VAES: this
 * backend exists to pair with the VAES fused kernel, and every CPU with
 * VPCLMULQDQ has VAES, so the requirement costs nothing and keeps the
 * automatic pair (aesni, vpclmul_avx2) exactly the fused kernel's pair.
 * A CPU that reports VAES without VPCLMULQDQ (some emulators) or hides
 * any of them through OPENSSL_ia32cap keeps clmul.
 */
#include "../cpu/cpu.h"
#include "ghash.h"

/* init stores H*x^-1 and its powers up to 16 (H^16 first: entry e at 16*e
 * is H^(16-e)), 256 bytes, and nothing else: the kernels make the
 * Karatsuba half sums as they go. The fused kernels
 * crypto/fused/fused_vaes_avx2.c and fused_vaes_avx512.c read them. */
#define VPCLMUL_AVX2_KEY_BYTES 256

#if defined(LIBGCM_ASM_X86_64)
/* asm/x86_64/ghash-vpclmul-avx2-x86_64.pl: sixteen blocks per reduction. */
#define VPCLMUL_AVX2_KERNEL(op) gcmi_ghash_x86_64_vpclmul_avx2_##op
GCM_HIDDEN ghash_init_fn VPCLMUL_AVX2_KERNEL(init);
GCM_HIDDEN ghash_update_fn VPCLMUL_AVX2_KERNEL(blocks);
/* AES-GCM-SIV's POLYVAL: the blocks kernel without its byte swaps; and
 * init with only the powers a message of at most max_blocks reads. */
GCM_HIDDEN ghash_update_fn VPCLMUL_AVX2_KERNEL(polyval);
GCM_HIDDEN ghash_init_for_fn VPCLMUL_AVX2_KERNEL(init_for);
#define VPCLMUL_AVX2_BUILT 1
#else
#define VPCLMUL_AVX2_KERNEL(op) NULL
#define VPCLMUL_AVX2_BUILT 0
#endif

_Static_assert(VPCLMUL_AVX2_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "the powers H^16..H^1 fit in the largest GHASH key");

static int vpclmul_avx2_usable(void) {
  return VPCLMUL_AVX2_BUILT && gcmi_cpu_x86_has_avx() && gcmi_cpu_x86_has_avx2() &&
         gcmi_cpu_x86_has_pclmulqdq() && gcmi_cpu_x86_has_vpclmulqdq() &&
         gcmi_cpu_x86_has_vaes();
}

const struct ghash_impl gcmi_ghash_vpclmul_avx2 = {
    .name = "vpclmul_avx2",
    .constant_time = 1,
    .requires = "AVX2, PCLMULQDQ, VPCLMULQDQ and VAES",
    .hardware_multiply = 1,
    .key_bytes = VPCLMUL_AVX2_KEY_BYTES,
    .usable = vpclmul_avx2_usable,
    .init = VPCLMUL_AVX2_KERNEL(init),
    .update = VPCLMUL_AVX2_KERNEL(blocks),
    .polyval_update = VPCLMUL_AVX2_KERNEL(polyval),
    .init_for = VPCLMUL_AVX2_KERNEL(init_for),
};
