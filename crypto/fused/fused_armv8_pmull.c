/*
 * crypto/fused/fused_armv8_pmull.c: the fused AES-CTR + GHASH kernel with
 * the Armv8 Cryptographic Extension ("armv8_pmull"), aarch64 only, for the
 * pair (armv8, pmull): the top tier of 64-bit ARM cores with the AES and
 * PMULL instructions (Cortex-A53 and later, Neoverse, Apple).
 *
 * The work is done by asm/aarch64/aes-gcm-armv8-pmull-aarch64.pl, whose
 * opening comment explains it: eight counter blocks in flight in v0-v7
 * (counter blocks loaded from a stack area written one batch ahead), the
 * GHASH of eight blocks scheduled between their rounds (three Karatsuba
 * PMULLs a block, one reduction per eight blocks) with the pmull backend's
 * powers K_1..K_8, a 32-bit counter that wraps modulo 2^32 in every block,
 * and a tail of 1..7 blocks one block at a time. Seal hashes the previous
 * batch's output while encrypting the next; open hashes each batch's input
 * before writing its output, so in == out works for both. On cores with
 * FEAT_SHA3 its variant armv8_pmull_eor3 (fused_armv8_pmull_eor3.c) comes
 * first.
 *
 * It keeps nothing of its own (init is NULL): the round keys come from the
 * armv8 schedule and the powers of H from the pmull GHASH key, both read
 * through struct fused_keys (fused.h asserts its offsets).
 *
 * AES-GCM-SIV (fused.h's siv_open): seal's text in RFC 8452's byte order
 * (asm/perlasm/siv_copy.pm), decrypting and hashing the plaintext in one
 * pass.
 *
 * Constant time: AESE/AESMC, PMULL/PMULL2, EOR, EXT, REV64 and lane
 * inserts only; branches and addresses depend on the block count and the
 * key length alone.
 *
 * Needs what both halves of its pair need (the AES and PMULL
 * instructions), tested through the cached CPU capabilities, so
 * LIBGCM_ARMCAP can hide it.
 */
#include <stddef.h>

#include "../cpu/cpu.h"
#include "fused.h"

/* What the kernel reads, where: the two key pointers of struct fused_keys
 * (fused.h), the armv8 schedule's `rounds` (AES_SCHEDULE_ROUNDS_OFFSET,
 * aes.h), and the pmull key's powers. */

#if defined(LIBGCM_ASM_AARCH64)
/* asm/aarch64/aes-gcm-armv8-pmull-aarch64.pl: eight blocks in flight. */
#define ARMV8_PMULL_KERNEL(op) gcmi_aes_gcm_aarch64_armv8_pmull_##op
GCM_HIDDEN fused_crypt_fn ARMV8_PMULL_KERNEL(seal);
GCM_HIDDEN fused_crypt_fn ARMV8_PMULL_KERNEL(open);
GCM_HIDDEN fused_crypt_fn ARMV8_PMULL_KERNEL(siv_open);
#define ARMV8_PMULL_BUILT 1
#else
#define ARMV8_PMULL_KERNEL(op) NULL
#define ARMV8_PMULL_BUILT 0
#endif

static int armv8_pmull_usable(void) {
  return ARMV8_PMULL_BUILT && gcmi_aes_armv8.usable() && gcmi_ghash_pmull.usable();
}

const struct fused_impl gcmi_fused_armv8_pmull = {
    .name = "armv8_pmull",
    .constant_time = 1,
    .requires = "the Armv8 AES and PMULL instructions",
    .aes = &gcmi_aes_armv8,
    .ghash = &gcmi_ghash_pmull,
    .min_blocks = 1,
    .usable = armv8_pmull_usable,
    .key_bytes = 0, /* nothing of its own */
    .init = NULL,
    .seal = ARMV8_PMULL_KERNEL(seal),
    .open = ARMV8_PMULL_KERNEL(open),
    .siv_open = ARMV8_PMULL_KERNEL(siv_open),
};
