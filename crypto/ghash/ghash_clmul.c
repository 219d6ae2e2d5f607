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
#include "ghash.h"

#if defined(LIBGCM_ASM_X86_64) || defined(LIBGCM_ASM_X86)

#include "../cpu/cpu.h"
#include "ghash_asm.h"

/* The kernels of the architecture being built. */
#if defined(LIBGCM_ASM_X86_64)
#define CLMUL_INIT ghash_x86_64_clmul_init
#define CLMUL_BLOCKS ghash_x86_64_clmul_blocks
#else
#define CLMUL_INIT ghash_x86_clmul_init
#define CLMUL_BLOCKS ghash_x86_clmul_blocks
#endif

static int clmul_usable(void) {
  return cpu_x86_has_pclmulqdq() && cpu_x86_has_ssse3();
}

const struct ghash_impl ghash_clmul = {
    .name = "clmul",
    .constant_time = 1,
    .requires = "PCLMULQDQ and SSSE3",
    .usable = clmul_usable,
    .init = CLMUL_INIT,
    .ghash = CLMUL_BLOCKS,
};

#else

/* ISO C forbids an empty translation unit. */
typedef int ghash_clmul_not_built;

#endif
