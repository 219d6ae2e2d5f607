/*
 * crypto/ghash/ghash_pmull32.c: GHASH with VMULL.P64 in AArch32
 * ("pmull32"): 32-bit ARM code on cores with the Armv8 PMULL instruction.
 *
 * The work is done by asm/armv4/ghash-pmull32-armv4.pl, whose opening
 * comment explains the algorithm: the blocks bit-reflected by a byte
 * reversal, H^k * x^-1 for k = 1..4 precomputed at init so that a
 * carry-less product of reflected values needs no shift, Karatsuba products
 * (three VMULL.P64 a block), four blocks per reduction, and a two-step
 * Montgomery reduction with the constant 0xC2 << 56.
 *
 * Constant time: secrets (H, its powers, the running hash and the data)
 * only pass through VMULL.P64, VEOR, VEXT, VREV64, VSWP, shifts and VAND,
 * all fixed-latency NEON instructions; branches and addresses depend only
 * on the number of blocks.
 */
#include "../cpu/cpu.h"
#include "ghash.h"

#if defined(LIBGCM_ASM_ARM)
/* asm/armv4/ghash-pmull32-armv4.pl: init stores H..H^4 (times x^-1,
 * bit-reflected) and their Karatsuba halves in the first 96 bytes of the
 * key; blocks reduces once per four blocks. */
#define PMULL32_KERNEL(op) gcmi_ghash_armv4_pmull32_##op
GCM_HIDDEN ghash_init_fn PMULL32_KERNEL(init);
GCM_HIDDEN ghash_update_fn PMULL32_KERNEL(blocks);
#define PMULL32_BUILT 1
#else
#define PMULL32_KERNEL(op) NULL
#define PMULL32_BUILT 0
#endif

#define PMULL32_KEY_BYTES 96
_Static_assert(PMULL32_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "the pmull32 key fits in the largest GHASH key");

static int pmull32_usable(void) {
  return PMULL32_BUILT && gcmi_cpu_arm_has_pmull();
}

const struct ghash_impl gcmi_ghash_pmull32 = {
    .name = "pmull32",
    .constant_time = 1,
    .requires = "the Armv8 PMULL instruction in AArch32 (HWCAP2_PMULL)",
    .hardware_multiply = 1,
    .key_bytes = PMULL32_KEY_BYTES,
    .usable = pmull32_usable,
    .init = PMULL32_KERNEL(init),
    .update = PMULL32_KERNEL(blocks),
};

