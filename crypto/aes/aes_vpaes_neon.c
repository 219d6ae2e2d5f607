/*
 * crypto/aes/aes_vpaes_neon.c: constant-time AES with NEON vector permutes
 * ("vpaes_neon"), aarch64: the AES backend for cores without the Armv8 AES
 * instructions (the Raspberry Pi 4's Cortex-A72, many Cortex-A53 boards).
 *
 * The work is done by asm/aarch64/aes-vpaes-neon-aarch64.pl, whose opening
 * comment explains it: Hamburg's vector-permute AES (CHES 2009) as the x86
 * vpaes kernels do it, with TBL as the 16-entry in-register lookup: the
 * state in a GF(16)-tower basis, the S-box inversion as nibble-indexed
 * lookups, MixColumns as three byte permutations, ShiftRows folded into
 * the stored round keys and the per-round masks. The tables come from
 * asm/perlasm/vpaes_tables.pm (shared with x86, derived from the field
 * arithmetic and checked against FIPS 197); the generator also checks that
 * TBL's out-of-range rule agrees with PSHUFB's on every index it looks up.
 * Counter mode runs four blocks side by side (tails of two and one take
 * shorter paths); the key schedule is expanded once, at key set-up.
 *
 * Constant time: the lookups happen inside registers (the table is one
 * vector register, the secret nibbles are the index register), so no
 * secret reaches a memory address; branches and addresses depend only on
 * the key length, the round number and the block count.
 *
 * The schedule has the x86 vpaes layout; the kernels read the round count
 * from `rounds` (AES_SCHEDULE_ROUNDS_OFFSET in aes.h, which asserts it).
 */
#include <stddef.h>

#include "../cpu/cpu.h"
#include "aes.h"

#if defined(LIBGCM_ASM_AARCH64)
/* asm/aarch64/aes-vpaes-neon-aarch64.pl: the x86 vpaes schedule layout
 * (round keys in the tower basis, permuted; see the .pl), Nr written by
 * set_encrypt_key; ctr32 runs four blocks side by side. */
#define VPAES_NEON_KERNEL(op) gcmi_aes_aarch64_vpaes_neon_##op
GCM_HIDDEN aes_set_encrypt_key_fn VPAES_NEON_KERNEL(set_encrypt_key);
GCM_HIDDEN aes_encrypt_block_fn VPAES_NEON_KERNEL(encrypt_block);
GCM_HIDDEN aes_ctr32_fn VPAES_NEON_KERNEL(ctr32);
#define VPAES_NEON_BUILT 1
#else
#define VPAES_NEON_KERNEL(op) NULL
#define VPAES_NEON_BUILT 0
#endif

static int vpaes_neon_usable(void) { return VPAES_NEON_BUILT && gcmi_cpu_aarch64_has_neon(); }

const struct aes_impl gcmi_aes_vpaes_neon = {
    .name = "vpaes_neon",
    .constant_time = 1,
    .requires = "NEON (ASIMD)",
    .ctr_batch_blocks = 4,
    /* Up to fifteen round keys, then the round count (aes.h). */
    .key_bytes = AES_SCHEDULE_ROUND_KEYS_BYTES,
    .usable = vpaes_neon_usable,
    .set_encrypt_key = VPAES_NEON_KERNEL(set_encrypt_key),
    .encrypt_block = VPAES_NEON_KERNEL(encrypt_block),
    .ctr32 = VPAES_NEON_KERNEL(ctr32),
};

