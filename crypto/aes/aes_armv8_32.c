/*
 * crypto/aes/aes_armv8_32.c: AES with the Armv8 Cryptographic Extension in
 * AArch32 ("armv8_32"): 32-bit ARM code on cores that have the AES
 * instructions (Cortex-A32/A35/A53/A57/A72 running a 32-bit system).
 *
 * The work is done by asm/armv4/aes-armv8-32-armv4.pl, whose opening
 * comment explains it: AESE/AESMC pairs, key expansion with VTBL + AESE
 * against a zero key (no table of S-box values), one block at a time for
 * E(K, 0) and, in counter mode, four blocks in flight with the last six
 * round keys in registers (32-bit big-endian counter, wrapping modulo 2^32
 * without touching bytes 0..11).
 *
 * Constant time: AESE/AESMC do SubBytes, ShiftRows and MixColumns in
 * hardware, without table lookups, in a fixed number of cycles; branches
 * and addresses depend only on the key length and the block count (the
 * secret-register check proves it for the kernel).
 */
#include <stddef.h>

#include "../cpu/cpu.h"
#include "aes.h"

#if defined(LIBGCM_ASM_ARM)
/* asm/armv4/aes-armv8-32-armv4.pl: round keys at the start of the
 * schedule, Nr written by the kernel; ctr32 keeps four blocks in flight. */
#define ARMV8_32_KERNEL(op) gcmi_aes_armv4_armv8_##op
GCM_HIDDEN aes_set_encrypt_key_fn ARMV8_32_KERNEL(set_encrypt_key);
GCM_HIDDEN aes_encrypt_block_fn ARMV8_32_KERNEL(encrypt_block);
GCM_HIDDEN aes_ctr32_fn ARMV8_32_KERNEL(ctr32);
#define ARMV8_32_BUILT 1
#else
#define ARMV8_32_KERNEL(op) NULL
#define ARMV8_32_BUILT 0
#endif

static int armv8_32_usable(void) { return ARMV8_32_BUILT && gcmi_cpu_arm_has_aes(); }

const struct aes_impl gcmi_aes_armv8_32 = {
    .name = "armv8_32",
    .constant_time = 1,
    .requires = "the Armv8 AES instructions in AArch32 (HWCAP2_AES)",
    .ctr_batch_blocks = 4,
    /* Up to fifteen round keys, then the round count (aes.h). */
    .key_bytes = AES_SCHEDULE_ROUND_KEYS_BYTES,
    .hardware_rounds = 1,
    .usable = armv8_32_usable,
    .set_encrypt_key = ARMV8_32_KERNEL(set_encrypt_key),
    .encrypt_block = ARMV8_32_KERNEL(encrypt_block),
    .ctr32 = ARMV8_32_KERNEL(ctr32),
};

