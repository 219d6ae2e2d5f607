/*
 * crypto/aes/aes_vpaes.c: constant-time AES with SSSE3 vector permutes
 * ("vpaes"), x86_64 and 32-bit x86 (the same name on both): the AES backend
 * for CPUs without AES-NI.
 *
 * The work is done by asm/x86_64/aes-vpaes-x86_64.pl (on 32-bit x86 by
 * asm/x86/aes-vpaes-x86.pl: the same schedule layout and tables, two blocks
 * side by side instead of four), whose opening comment
 * explains it (Hamburg, CHES 2009): the state is kept in a GF(16)-tower
 * representation of GF(2^8), where the S-box inversion is five PSHUFB
 * lookups indexed by nibbles and two more per output table; MixColumns is
 * three byte permutations and ShiftRows is folded into those permutations
 * and into the stored round keys. Counter mode runs four blocks side by side.
 * The generator computes every table from the field arithmetic and checks
 * its model of the kernel against FIPS 197 before it writes the assembly.
 *
 * Constant time: the lookups happen inside registers (the table is one
 * xmm register, the secret nibbles are the index register), so no secret
 * reaches a memory address; branches and addresses depend only on the key
 * length, the round number and the block count.
 *
 * The kernels read the round count from `rounds`, the field after the
 * round keys; the assertions below keep their idea of the layout honest.
 */
#include "aes.h"

#if defined(LIBGCM_ASM_X86_64) || defined(LIBGCM_ASM_X86)

#include <stddef.h>

#include "../cpu/cpu.h"
#include "aes_asm.h"

/* The kernels of the architecture being built. */
#if defined(LIBGCM_ASM_X86_64)
#define VPAES_SET_KEY aes_x86_64_vpaes_set_encrypt_key
#define VPAES_BLOCK aes_x86_64_vpaes_encrypt_block
#define VPAES_CTR32 aes_x86_64_vpaes_ctr32
#define VPAES_CTR_BLOCKS 4
#else
#define VPAES_SET_KEY aes_x86_vpaes_set_encrypt_key
#define VPAES_BLOCK aes_x86_vpaes_encrypt_block
#define VPAES_CTR32 aes_x86_vpaes_ctr32
#define VPAES_CTR_BLOCKS 2
#endif

_Static_assert(offsetof(struct aes_schedule, rounds) == AES_VPAES_ROUNDS_OFFSET,
               "the vpaes kernels read rounds at this offset");
_Static_assert(sizeof(((struct aes_schedule *)0)->rounds) == 4,
               "the vpaes kernels read rounds as a dword");
_Static_assert(15 * 16 <= AES_SCHEDULE_BYTES,
               "fifteen round keys fit in the schedule");

static int vpaes_usable(void) { return cpu_x86_has_ssse3(); }

const struct aes_impl aes_vpaes = {
    .name = "vpaes",
    .constant_time = 1,
    .requires = "SSSE3",
    .ctr_batch_blocks = VPAES_CTR_BLOCKS,
    .usable = vpaes_usable,
    .set_encrypt_key = VPAES_SET_KEY,
    .encrypt_block = VPAES_BLOCK,
    .ctr32 = VPAES_CTR32,
};

#else

/* ISO C forbids an empty translation unit. */
typedef int aes_vpaes_not_built;

#endif
