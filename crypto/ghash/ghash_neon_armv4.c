/*
 * crypto/ghash/ghash_neon_armv4.c: GHASH on plain NEON ("neon"), for 32-bit ARM
 * cores with NEON but without the Armv8 crypto extension (Cortex-A7, A8,
 * A9, A15, ...).
 *
 * The work is done by asm/armv4/ghash-neon-armv4.pl, whose opening comment
 * explains the algorithm: 64x64-bit carry-less products assembled from
 * eight VMULL.P8 (Camara, Gouvea, Lopez and Dahab 2013), Karatsuba (three
 * such products a block), H..H^4 precomputed, four blocks per reduction,
 * and the Montgomery reduction of the pmull32 kernel with its multiplies by
 * 0xC2 << 56 done as shifts.
 *
 * Constant time: secrets only pass through VMULL.P8, VEOR, VAND, VEXT,
 * VREV64, VSWP and shifts, fixed-latency NEON instructions; there are no
 * tables, and branches and addresses depend only on the number of blocks.
 */
#include "ghash.h"

#if defined(LIBGCM_ASM_ARM)

#include "../cpu/cpu.h"
#include "ghash_asm.h"

_Static_assert(64 <= GHASH_KEY_BYTES, "the neon key takes 64 bytes");

static int neon_usable(void) { return cpu_arm_has_neon(); }

const struct ghash_impl ghash_neon = {
    .name = "neon",
    .constant_time = 1,
    .requires = "NEON (HWCAP_NEON)",
    .usable = neon_usable,
    .init = ghash_armv4_neon_init,
    .ghash = ghash_armv4_neon_blocks,
};

#else

/* ISO C forbids an empty translation unit. */
typedef int ghash_neon_not_built;

#endif
