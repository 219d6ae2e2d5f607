/*
 * crypto/aes/aes_aesni.c: AES with the AES-NI instructions ("aesni"),
 * x86_64 only.
 *
 * The work is done by asm/x86_64/aes-ni-x86_64.pl, whose opening comment
 * explains it: key expansion with PSHUFB + AESENCLAST (no AESKEYGENASSIST),
 * one block at a time for E(K, 0) and, in counter mode, eight blocks in
 * flight with the counter blocks built in registers (32-bit big-endian
 * counter, wrapping modulo 2^32 without touching bytes 0..11).
 *
 * Constant time: AESENC/AESENCLAST do the whole round in hardware, with no
 * table lookups, and take the same time whatever the key and data;
 * branches and addresses depend only on the key length and block count.
 *
 * The kernels read the round count from `rounds`, the field after the
 * round keys; the assertions below keep their idea of the layout honest.
 */
#include "aes.h"

#if defined(LIBGCM_ASM_X86_64)

#include <stddef.h>

#include "../cpu/cpu.h"
#include "aes_asm.h"

_Static_assert(offsetof(struct aes_schedule, rounds) == AES_NI_ROUNDS_OFFSET,
               "aes-ni-x86_64.pl reads rounds at this offset");
_Static_assert(sizeof(((struct aes_schedule *)0)->rounds) == 4,
               "aes-ni-x86_64.pl reads rounds as a dword");
_Static_assert(15 * 16 <= AES_SCHEDULE_BYTES,
               "fifteen round keys fit in the schedule");

static int aesni_usable(void) { return cpu_x86_has_aesni(); }

const struct aes_impl aes_aesni = {
    .name = "aesni",
    .constant_time = 1,
    .requires = "AES-NI",
    .ctr_batch_blocks = 8,
    .usable = aesni_usable,
    .set_encrypt_key = aes_x86_64_aesni_set_encrypt_key,
    .encrypt_block = aes_x86_64_aesni_encrypt_block,
    .ctr32 = aes_x86_64_aesni_ctr32,
};

#else

/* ISO C forbids an empty translation unit. */
typedef int aes_aesni_not_built;

#endif
