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
 * (bit-reflected) for k = 1..8 with their halves swapped, and their
 * Karatsuba halves, 8 bytes each (192 bytes); the blocks kernel aggregates
 * eight blocks per reduction. */
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

/* Eight powers with their halves swapped (128 bytes), then the XOR of each
 * power's halves, two to 16 bytes (64): the kernel's layout, which the fused kernels armv8_pmull and
 * armv8_pmull_eor3 read too. */
#define PMULL_KEY_BYTES 192
_Static_assert(PMULL_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "the pmull key fits in the largest GHASH key");


/* Runs here when this build has its kernels and the CPU has PMULL. */
static int pmull_usable(void) { return PMULL_BUILT && gcmi_cpu_aarch64_has_pmull(); }

const struct ghash_impl gcmi_ghash_pmull = {
    .name = "pmull",
    .constant_time = 1,
    .requires = "the Armv8 PMULL instructions",
    .hardware_multiply = 1,
    .key_bytes = PMULL_KEY_BYTES,
    .usable = pmull_usable,
    .init = PMULL_KERNEL(init),
    .update = PMULL_KERNEL(blocks),
    .polyval_update = PMULL_KERNEL(polyval),
};
