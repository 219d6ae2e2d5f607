/*
 * crypto/fused/fused_armv8_pmull_eor3.c: the fused AES-CTR + GHASH kernel
 * for aarch64 cores with FEAT_SHA3 ("armv8_pmull_eor3"), for the pair
 * (armv8, pmull), ahead of armv8_pmull in the dispatcher's list.
 *
 * The work is done by asm/aarch64/aes-gcm-armv8-pmull-eor3-aarch64.pl: the
 * algorithm, counters, key layout and constant-time argument of
 * armv8_pmull (asm/aarch64/aes-gcm-armv8-pmull-aarch64.pl explains them),
 * with EOR3, the three-way XOR of FEAT_SHA3, for every sum of three, and
 * the GHASH operands made in general-purpose registers: fewer instructions
 * on the SIMD pipes, which bound the wide cores that have FEAT_SHA3
 * (Neoverse V1 and later; docs/aarch64.md gives the modelled figures).
 *
 * It keeps nothing of its own (init is NULL): the round keys come from the
 * armv8 schedule and the powers of H from the pmull GHASH key, both read
 * through struct fused_keys (fused.h asserts its offsets).
 *
 * Constant time: AESE/AESMC, PMULL/PMULL2, EOR, EOR3, EXT, REV, FMOV and
 * lane moves only; branches and addresses depend on the block count and
 * the key length alone.
 *
 * Needs what armv8_pmull needs and FEAT_SHA3 (Linux HWCAP_SHA3), tested
 * through the cached CPU capabilities, so LIBGCM_ARMCAP=~0x20000 hides it
 * and puts armv8_pmull in its place.
 */
#include <stddef.h>

#include "../cpu/cpu.h"
#include "fused.h"

#if defined(LIBGCM_ASM_AARCH64)
/* asm/aarch64/aes-gcm-armv8-pmull-eor3-aarch64.pl: eight blocks in flight. */
#define ARMV8_PMULL_EOR3_KERNEL(op) gcmi_aes_gcm_aarch64_armv8_pmull_eor3_##op
GCM_HIDDEN fused_crypt_fn ARMV8_PMULL_EOR3_KERNEL(seal);
GCM_HIDDEN fused_crypt_fn ARMV8_PMULL_EOR3_KERNEL(open);
#define ARMV8_PMULL_EOR3_BUILT 1
#else
#define ARMV8_PMULL_EOR3_KERNEL(op) NULL
#define ARMV8_PMULL_EOR3_BUILT 0
#endif

static int armv8_pmull_eor3_usable(void) {
  return ARMV8_PMULL_EOR3_BUILT && gcmi_aes_armv8.usable() &&
         gcmi_ghash_pmull.usable() && gcmi_cpu_aarch64_has_sha3();
}

const struct fused_impl gcmi_fused_armv8_pmull_eor3 = {
    .name = "armv8_pmull_eor3",
    .constant_time = 1,
    .requires = "the Armv8 AES and PMULL instructions and EOR3 (FEAT_SHA3)",
    .aes = &gcmi_aes_armv8,
    .ghash = &gcmi_ghash_pmull,
    .min_blocks = 1,
    .usable = armv8_pmull_eor3_usable,
    .key_bytes = 0, /* nothing of its own */
    .init = NULL,
    .seal = ARMV8_PMULL_EOR3_KERNEL(seal),
    .open = ARMV8_PMULL_EOR3_KERNEL(open),
};
