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
#include "../cpu/cpu.h"
#include "ghash.h"

#if defined(LIBGCM_ASM_ARM)
/* asm/armv4/ghash-neon-armv4.pl: init stores H..H^4 (times x^-1,
 * bit-reflected) in the first 64 bytes of the key; blocks reduces once
 * per four blocks. */
#define NEON_ARMV4_KERNEL(op) gcmi_ghash_armv4_neon_##op
GCM_HIDDEN ghash_init_fn NEON_ARMV4_KERNEL(init);
GCM_HIDDEN ghash_update_fn NEON_ARMV4_KERNEL(blocks);
#define NEON_ARMV4_BUILT 1
#else
#define NEON_ARMV4_KERNEL(op) NULL
#define NEON_ARMV4_BUILT 0
#endif

#define NEON_ARMV4_KEY_BYTES 64
_Static_assert(NEON_ARMV4_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "the neon key fits in the largest GHASH key");

static int neon_usable(void) { return NEON_ARMV4_BUILT && gcmi_cpu_arm_has_neon(); }

/* The 32-bit ARM descriptor of "neon" (dispatch.c lists the build's own). */
const struct ghash_impl gcmi_ghash_neon_armv4 = {
    .name = "neon",
    .constant_time = 1,
    .requires = "NEON (HWCAP_NEON)",
    .hardware_multiply = 0,
    .key_bytes = NEON_ARMV4_KEY_BYTES,
    .usable = neon_usable,
    .init = NEON_ARMV4_KERNEL(init),
    .update = NEON_ARMV4_KERNEL(blocks),
};

