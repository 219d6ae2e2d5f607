/*
 * crypto/cpu/cpu_arm.c: capability words for 32-bit ARM Linux.
 *
 * Word 0 is AT_HWCAP (NEON is bit 12), word 1 is AT_HWCAP2 (AES bit 0,
 * PMULL bit 1), as the kernel reports them through getauxval(). Without
 * getauxval (non-Linux), nothing is reported and the portable code runs.
 */
#include "cpu.h"
#include "cpu_detect.h"

#if defined(GCM_ARM)

#if defined(__linux__)
#include <sys/auxv.h>
#endif

void cpu_detect(uint32_t out[4]) {
  out[0] = out[1] = out[2] = out[3] = 0;
#if defined(__linux__)
  out[0] = (uint32_t)getauxval(AT_HWCAP);
#if defined(AT_HWCAP2)
  out[1] = (uint32_t)getauxval(AT_HWCAP2);
#endif
#endif
}

#endif /* GCM_ARM */
