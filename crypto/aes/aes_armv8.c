/*
 * crypto/aes/aes_armv8.c: AES with the Armv8 Cryptographic Extension
 * ("armv8"), aarch64.
 *
 * The work is done by asm/aarch64/aes-armv8-aarch64.pl, whose opening
 * comment explains it: AESE/AESMC pairs, key expansion with TBL + AESE
 * against a zero key (no table of S-box values), one block at a time for
 * E(K, 0) and, in counter mode, eight blocks in flight with every round key
 * in a register (32-bit big-endian counter, wrapping modulo 2^32 without
 * touching bytes 0..11).
 *
 * Constant time: AESE/AESMC do SubBytes, ShiftRows and MixColumns in
 * hardware, without table lookups, in a fixed number of cycles; branches
 * and addresses depend only on the key length and the block count (the
 * secret-register check proves it for the kernel).
 *
 * The name is not "aesni": that is an x86 instruction set, and users type
 * these names.
 */
#include <stddef.h>

#include "../cpu/cpu.h"
#include "aes.h"

#if defined(LIBGCM_ASM_AARCH64)
/* asm/aarch64/aes-armv8-aarch64.pl: round keys at the start of the
 * schedule, Nr written by the kernel; ctr32 keeps eight blocks in flight
 * and every round key in a register. */
#define ARMV8_KERNEL(op) gcmi_aes_aarch64_armv8_##op
GCM_HIDDEN aes_set_encrypt_key_fn ARMV8_KERNEL(set_encrypt_key);
GCM_HIDDEN aes_encrypt_block_fn ARMV8_KERNEL(encrypt_block);
GCM_HIDDEN aes_ctr32_fn ARMV8_KERNEL(ctr32);
/* AES-GCM-SIV's counter mode: ctr32 with the counter in bytes 0..3. */
GCM_HIDDEN aes_ctr32_fn ARMV8_KERNEL(ctr32le);
#define ARMV8_BUILT 1
#else
#define ARMV8_KERNEL(op) NULL
#define ARMV8_BUILT 0
#endif

/* Runs here when this build has its kernels and the CPU has the AES
 * instructions. */
static int armv8_usable(void) { return ARMV8_BUILT && gcmi_cpu_aarch64_has_aes(); }

const struct aes_impl gcmi_aes_armv8 = {
    .name = "armv8",
    .constant_time = 1,
    .requires = "the Armv8 AES instructions",
    .ctr_batch_blocks = 8,
    /* Up to fifteen round keys, then the round count (aes.h). */
    .key_bytes = AES_SCHEDULE_ROUND_KEYS_BYTES,
    .hardware_rounds = 1,
    .usable = armv8_usable,
    .set_encrypt_key = ARMV8_KERNEL(set_encrypt_key),
    .encrypt_block = ARMV8_KERNEL(encrypt_block),
    .ctr32 = ARMV8_KERNEL(ctr32),
    .ctr32le = ARMV8_KERNEL(ctr32le),
};
