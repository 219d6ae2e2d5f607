/*
 * crypto/ghash/ghash_clmul.c: GHASH with the PCLMULQDQ instruction
 * ("clmul"), x86_64 and 32-bit x86 (the same name on both: users keep it).
 *
 * The work is done by asm/x86_64/ghash-clmul-x86_64.pl (on 32-bit x86 by
 * asm/x86/ghash-clmul-x86.pl: the same key layout and aggregation, with
 * eight xmm registers), whose opening
 * comment explains the algorithm: Karatsuba products with PCLMULQDQ, powers
 * H..H^8 precomputed at init, eight blocks per reduction, and a two-phase
 * reduction modulo x^128 + x^7 + x^2 + x + 1 in GCM's reflected bit order.
 *
 * Constant time: secrets (H, its powers, the running hash and the data)
 * only pass through carry-less multiplications, XORs, constant shuffles
 * and shifts; branches and addresses depend only on the number of blocks.
 * PCLMULQDQ's timing does not depend on its operands on any x86 core that
 * implements it.
 *
 * It needs PCLMULQDQ and SSSE3 (PSHUFB reverses the bytes of each block);
 * both are tested separately because OPENSSL_ia32cap may mask either.
 */
#include "../cpu/cpu.h"
#include "ghash.h"

/* The kernels of the architecture being built, or none. init stores H*x^-1
 * and its powers up to 8 (256 bytes of the key); the blocks kernel
 * aggregates eight blocks per reduction. */
#if defined(LIBGCM_ASM_X86_64)
#define CLMUL_KERNEL(op) gcmi_ghash_x86_64_clmul_##op /* ghash-clmul-x86_64.pl */
#define CLMUL_INIT_FOR gcmi_ghash_x86_64_clmul_init_for
#elif defined(LIBGCM_ASM_X86)
#define CLMUL_KERNEL(op) gcmi_ghash_x86_clmul_##op /* ghash-clmul-x86.pl, cdecl */
#endif

#if defined(CLMUL_KERNEL)
GCM_HIDDEN ghash_init_fn CLMUL_KERNEL(init);
GCM_HIDDEN ghash_update_fn CLMUL_KERNEL(blocks);
/* AES-GCM-SIV's POLYVAL: the blocks kernel without its byte swaps; and
 * init with only the powers a message of at most max_blocks reads. */
GCM_HIDDEN ghash_update_fn CLMUL_KERNEL(polyval);
#if defined(CLMUL_INIT_FOR)
GCM_HIDDEN ghash_init_for_fn CLMUL_INIT_FOR;
#endif
#define CLMUL_BUILT 1
#else
#define CLMUL_KERNEL(op) NULL
#define CLMUL_BUILT 0
#endif
#if !defined(CLMUL_INIT_FOR)
#define CLMUL_INIT_FOR NULL /* the 32-bit kernel has none: init serves */
#endif

#define CLMUL_KEY_BYTES 256
_Static_assert(CLMUL_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "the clmul key fits in the largest GHASH key");

static int clmul_usable(void) {
  return CLMUL_BUILT && gcmi_cpu_x86_has_pclmulqdq() && gcmi_cpu_x86_has_ssse3();
}

const struct ghash_impl gcmi_ghash_clmul = {
    .name = "clmul",
    .constant_time = 1,
    .requires = "PCLMULQDQ and SSSE3",
    .hardware_multiply = 1,
    .key_bytes = CLMUL_KEY_BYTES,
    .usable = clmul_usable,
    .init = CLMUL_KERNEL(init),
    .update = CLMUL_KERNEL(blocks),
    .polyval_update = CLMUL_KERNEL(polyval),
    .init_for = CLMUL_INIT_FOR,
};
