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
#include "../cpu/cpu.h"
#include "ghash.h"

#if defined(LIBGCM_ASM_AARCH64)
/* asm/aarch64/ghash-pmull-aarch64.pl: init stores H^k * x^-1
 * (bit-reflected) for k = 1..8, their Karatsuba halves and the powers with
 * their halves swapped (384 bytes);
 * the blocks kernel aggregates eight blocks per reduction. */
#define PMULL_KERNEL(op) gcmi_ghash_aarch64_pmull_##op
GCM_HIDDEN ghash_init_fn PMULL_KERNEL(init);
GCM_HIDDEN ghash_update_fn PMULL_KERNEL(blocks);
/* AES-GCM-SIV's POLYVAL: the blocks kernel without its byte reversals. */
GCM_HIDDEN ghash_update_fn PMULL_KERNEL(polyval);
#define PMULL_BUILT 1
#else
#define PMULL_KERNEL(op) NULL
#define PMULL_BUILT 0
#endif

_Static_assert(384 <= GHASH_KEY_BYTES, "the pmull key takes 384 bytes");


/* Runs here when this build has its kernels and the CPU has PMULL. */
static int pmull_usable(void) { return PMULL_BUILT && gcmi_cpu_aarch64_has_pmull(); }

const struct ghash_impl gcmi_ghash_pmull = {
    .name = "pmull",
    .constant_time = 1,
    .requires = "the Armv8 PMULL instructions",
    .hardware_multiply = 1,
    .usable = pmull_usable,
    .init = PMULL_KERNEL(init),
    .update = PMULL_KERNEL(blocks),
    .polyval_update = PMULL_KERNEL(polyval),
};
