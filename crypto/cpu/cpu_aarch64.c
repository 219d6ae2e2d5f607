/*
 * crypto/cpu/cpu_aarch64.c: capability words for aarch64.
 *
 * Word 0 holds the Linux AT_HWCAP bits the dispatcher cares about, in the
 * kernel's own positions (arch/arm64/include/uapi/asm/hwcap.h): ASIMD
 * (NEON) is bit 1, AES bit 3, PMULL bit 4, SHA3 bit 17 (FEAT_SHA3, whose
 * EOR3 the armv8_pmull_eor3 kernel uses). On Linux (and Android) they come
 * from getauxval(); on Apple platforms from sysctl hw.optional.arm.FEAT_AES
 * / FEAT_PMULL / FEAT_SHA3: if the AES or PMULL sysctl is missing (older
 * releases) the feature is assumed, since every Apple arm64 core has it,
 * while a missing FEAT_SHA3 means no (the A7-A12 lack it); ASIMD is always
 * there. Elsewhere nothing is reported and the portable code runs.
 *
 * LIBGCM_ARMCAP may then mask word 0, so a test can force the NEON or the
 * portable tier on a CPU (or an emulator) that has the Cryptographic
 * Extension:
 *   LIBGCM_ARMCAP=~0x20000  clear SHA3 (bit 17): armv8_pmull, not its EOR3
 *                         variant
 *   LIBGCM_ARMCAP=~0x18   clear AES and PMULL (bits 3 and 4): the NEON tier
 *   LIBGCM_ARMCAP=~0x1a   clear ASIMD too: the portable tier
 *   LIBGCM_ARMCAP=0x8     keep only AES
 * A leading `~` means "clear these bits", otherwise the value is ANDed in;
 * bits can only ever be cleared (gcmi_cpu_apply_armcap in cpu.c).
 */
#include "cpu.h"
#include "cpu_detect.h"

#if defined(GCM_AARCH64)

#if defined(__linux__)
#include <sys/auxv.h>
#elif defined(__APPLE__)
#include <sys/sysctl.h>
#include <sys/types.h>
#endif

#if defined(__APPLE__)
/* 1 when the sysctl says yes, or is absent (every Apple arm64 core has the
 * feature); 0 only when it exists and says no. */
static int apple_feature(const char *name) {
  int value = 0;
  size_t len = sizeof(value);
  if (sysctlbyname(name, &value, &len, NULL, 0) != 0) return 1;
  return value != 0;
}
/* FEAT_SHA3 only when the sysctl says so: the first Apple arm64 cores
 * (A7-A12) lack it, so its absence means no. */
static int apple_sha3(void) {
  int value = 0;
  size_t len = sizeof(value);
  if (sysctlbyname("hw.optional.arm.FEAT_SHA3", &value, &len, NULL, 0) != 0) {
    return 0;
  }
  return value != 0;
}
#endif

void gcmi_cpu_detect(uint32_t out[4]) {
  out[0] = out[1] = out[2] = out[3] = 0;
#if defined(__linux__)
  unsigned long hwcap = getauxval(AT_HWCAP);
  out[0] = (uint32_t)(hwcap & (CPU_AARCH64_ASIMD | CPU_AARCH64_AES |
                                CPU_AARCH64_PMULL | CPU_AARCH64_SHA3));
#elif defined(__APPLE__)
  out[0] |= CPU_AARCH64_ASIMD;
  if (apple_feature("hw.optional.arm.FEAT_AES")) out[0] |= CPU_AARCH64_AES;
  if (apple_feature("hw.optional.arm.FEAT_PMULL")) out[0] |= CPU_AARCH64_PMULL;
  if (apple_sha3()) out[0] |= CPU_AARCH64_SHA3;
#endif
}

#endif /* GCM_AARCH64 */
