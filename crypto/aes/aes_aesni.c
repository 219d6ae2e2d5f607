/*
 * crypto/aes/aes_aesni.c: AES with the AES-NI instructions ("aesni"),
 * x86_64 and 32-bit x86 (the same name on both: users keep it).
 *
 * The work is done by asm/x86_64/aes-ni-x86_64.pl (or, on 32-bit x86,
 * asm/x86/aes-ni-x86.pl: the same schedule layout, six blocks in flight
 * instead of eight for want of registers), whose opening comment
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
 * round keys (AES_SCHEDULE_ROUNDS_OFFSET in aes.h, which asserts it), and
 * write at most fifteen round keys before it: a key on this backend keeps
 * those 256 bytes (key_bytes), no more.
 */
#include <stddef.h>

#include "../cpu/cpu.h"
#include "aes.h"

/* The kernels of the architecture being built, or none. */
#if defined(LIBGCM_ASM_X86_64)
/* asm/x86_64/aes-ni-x86_64.pl; ctr32 keeps eight blocks in flight. */
#define AESNI_KERNEL(op) gcmi_aes_x86_64_aesni_##op
#define AESNI_CTR_BLOCKS 8
#elif defined(LIBGCM_ASM_X86)
/* asm/x86/aes-ni-x86.pl (cdecl); ctr32 keeps six blocks in flight. */
#define AESNI_KERNEL(op) gcmi_aes_x86_aesni_##op
#define AESNI_CTR_BLOCKS 6
#endif

#if defined(AESNI_KERNEL)
GCM_HIDDEN aes_set_encrypt_key_fn AESNI_KERNEL(set_encrypt_key);
GCM_HIDDEN aes_encrypt_block_fn AESNI_KERNEL(encrypt_block);
GCM_HIDDEN aes_ctr32_fn AESNI_KERNEL(ctr32);
/* AES-GCM-SIV's counter mode: ctr32 with another PSHUFB mask. */
GCM_HIDDEN aes_ctr32_fn AESNI_KERNEL(ctr32le);
#define AESNI_BUILT 1
#else
#define AESNI_KERNEL(op) NULL
#define AESNI_CTR_BLOCKS 8
#define AESNI_BUILT 0
#endif

/* Runs here when this build has its kernels and the CPU has AES-NI. */
static int aesni_usable(void) { return AESNI_BUILT && gcmi_cpu_x86_has_aesni(); }

const struct aes_impl gcmi_aes_aesni = {
    .name = "aesni",
    .constant_time = 1,
    .requires = "AES-NI",
    .ctr_batch_blocks = AESNI_CTR_BLOCKS,
    /* Up to fifteen round keys, then the round count (aes.h). */
    .key_bytes = AES_SCHEDULE_ROUND_KEYS_BYTES,
    .hardware_rounds = 1,
    .usable = aesni_usable,
    .set_encrypt_key = AESNI_KERNEL(set_encrypt_key),
    .encrypt_block = AESNI_KERNEL(encrypt_block),
    .ctr32 = AESNI_KERNEL(ctr32),
    .ctr32le = AESNI_KERNEL(ctr32le),
};
