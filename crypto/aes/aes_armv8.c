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
#include "aes.h"

#if defined(LIBGCM_ASM_AARCH64)

#include <stddef.h>

#include "../cpu/cpu.h"
#include "aes_asm.h"

_Static_assert(offsetof(struct aes_schedule, rounds) == AES_ARMV8_ROUNDS_OFFSET,
               "the armv8 kernel reads rounds at this offset");
_Static_assert(sizeof(((struct aes_schedule *)0)->rounds) == 4,
               "the armv8 kernel reads rounds as a 32-bit word");
_Static_assert(16 * 16 <= AES_SCHEDULE_BYTES,
               "the key expansion writes up to sixteen round keys");

static int armv8_usable(void) { return cpu_aarch64_has_aes(); }

const struct aes_impl aes_armv8 = {
    .name = "armv8",
    .constant_time = 1,
    .requires = "the Armv8 AES instructions",
    .ctr_batch_blocks = 8,
    .usable = armv8_usable,
    .set_encrypt_key = aes_aarch64_armv8_set_encrypt_key,
    .encrypt_block = aes_aarch64_armv8_encrypt_block,
    .ctr32 = aes_aarch64_armv8_ctr32,
};

#else

/* ISO C forbids an empty translation unit. */
typedef int aes_armv8_not_built;

#endif
