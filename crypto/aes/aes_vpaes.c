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
 * round keys (AES_SCHEDULE_ROUNDS_OFFSET in aes.h, which asserts it), and
 * write at most fifteen round keys before it: a key on this backend keeps
 * those 256 bytes (key_bytes), no more.
 */
#include <stddef.h>

#include "../cpu/cpu.h"
#include "aes.h"

/* The kernels of the architecture being built, or none. The schedule
 * holds round keys in the kernels' own form (tower basis, permuted). */
#if defined(LIBGCM_ASM_X86_64)
/* asm/x86_64/aes-vpaes-x86_64.pl; ctr32 runs four blocks at a time. */
#define VPAES_KERNEL(op) gcmi_aes_x86_64_vpaes_##op
#define VPAES_CTR_BLOCKS 4
#elif defined(LIBGCM_ASM_X86)
/* asm/x86/aes-vpaes-x86.pl (cdecl); ctr32 runs two blocks at a time. */
#define VPAES_KERNEL(op) gcmi_aes_x86_vpaes_##op
#define VPAES_CTR_BLOCKS 2
#endif

#if defined(VPAES_KERNEL)
GCM_HIDDEN aes_set_encrypt_key_fn VPAES_KERNEL(set_encrypt_key);
GCM_HIDDEN aes_encrypt_block_fn VPAES_KERNEL(encrypt_block);
GCM_HIDDEN aes_ctr32_fn VPAES_KERNEL(ctr32);
/* AES-GCM-SIV's counter mode: ctr32 with another PSHUFB mask. */
GCM_HIDDEN aes_ctr32_fn VPAES_KERNEL(ctr32le);
#define VPAES_BUILT 1
#else
#define VPAES_KERNEL(op) NULL
#define VPAES_CTR_BLOCKS 4
#define VPAES_BUILT 0
#endif

/* Runs here when this build has its kernels and the CPU has SSSE3. */
static int vpaes_usable(void) { return VPAES_BUILT && gcmi_cpu_x86_has_ssse3(); }

const struct aes_impl gcmi_aes_vpaes = {
    .name = "vpaes",
    .constant_time = 1,
    .requires = "SSSE3",
    .ctr_batch_blocks = VPAES_CTR_BLOCKS,
    /* Up to fifteen round keys, then the round count (aes.h). */
    .key_bytes = AES_SCHEDULE_ROUND_KEYS_BYTES,
    .usable = vpaes_usable,
    .set_encrypt_key = VPAES_KERNEL(set_encrypt_key),
    .encrypt_block = VPAES_KERNEL(encrypt_block),
    .ctr32 = VPAES_KERNEL(ctr32),
    .ctr32le = VPAES_KERNEL(ctr32le),
};
