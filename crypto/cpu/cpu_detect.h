/*
 * crypto/cpu/cpu_detect.h: the per-architecture readers behind cpu_caps().
 * Used by crypto/cpu only.
 */
#ifndef LIBGCM_CRYPTO_CPU_CPU_DETECT_H
#define LIBGCM_CRYPTO_CPU_CPU_DETECT_H

#include <stdint.h>

#include "../internal.h"

/* Fills the four capability words described in cpu.h from the hardware. */
GCM_HIDDEN void cpu_detect(uint32_t out[4]);

/* Applies an OPENSSL_ia32cap value (BoringSSL's format, see cpu_x86.c) to
 * the words. Bits can only be cleared: nothing the hardware lacks is ever
 * turned on. NULL or an unparsable value changes nothing. */
GCM_HIDDEN void cpu_apply_ia32cap(uint32_t caps[4], const char *env);

/* Applies a LIBGCM_ARMCAP value to word 0 (aarch64): "~MASK" clears the
 * bits of MASK, "MASK" keeps only them (hex with 0x, or decimal). Bits can
 * only be cleared. NULL or an unparsable value changes nothing. */
GCM_HIDDEN void cpu_apply_armcap(uint32_t caps[4], const char *env);

/* Applies a LIBGCM_ARMCAP value on 32-bit ARM: "M0[:M1]", where M0 masks
 * word 0 (AT_HWCAP) and M1 word 1 (AT_HWCAP2), each "~MASK" (clear those
 * bits) or "MASK" (keep only those); an empty part changes nothing. Bits
 * can only be cleared. NULL or an unparsable value changes nothing. */
GCM_HIDDEN void cpu_apply_armcap32(uint32_t caps[4], const char *env);

#endif /* LIBGCM_CRYPTO_CPU_CPU_DETECT_H */
