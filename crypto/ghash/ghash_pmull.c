/*
 * crypto/ghash/ghash_pmull.c: GHASH with the PMULL/PMULL2 instructions
 * ("pmull"), aarch64.
 *
 * The work is done by asm/aarch64/ghash-pmull-aarch64.pl, whose opening
 * comment explains the algorithm: the blocks bit-reflected by a byte
 * reversal, H^k * x^-1 for k = 1..8 precomputed at init so that a
 * carry-less product of reflected values needs no shift, Karatsuba products
 * (three PMULLs a block), eight blocks per reduction, and a two-step
 * Montgomery reduction with the constant 0xC2 << 56.
 *
 * Constant time: secrets (H, its powers, the running hash and the data)
 * only pass through PMULL/PMULL2, EOR, EXT, REV64, shifts and AND, all
 * fixed-latency SIMD instructions; branches and addresses depend only on
 * the number of blocks.
 */
#include "ghash.h"

#if defined(LIBGCM_ASM_AARCH64)

#include "../cpu/cpu.h"
#include "ghash_asm.h"

_Static_assert(256 <= GHASH_KEY_BYTES, "the pmull key takes 256 bytes");

static int pmull_usable(void) { return cpu_aarch64_has_pmull(); }

const struct ghash_impl ghash_pmull = {
    .name = "pmull",
    .constant_time = 1,
    .requires = "the Armv8 PMULL instructions",
    .usable = pmull_usable,
    .init = ghash_aarch64_pmull_init,
    .ghash = ghash_aarch64_pmull_blocks,
};

#else

/* ISO C forbids an empty translation unit. */
typedef int ghash_pmull_not_built;

#endif
