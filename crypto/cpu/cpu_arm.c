/*
 * crypto/cpu/cpu_arm.c: capability words for 32-bit ARM Linux.
 *
 * Word 0 is AT_HWCAP (NEON is bit 12), word 1 is AT_HWCAP2 (AES bit 0,
 * PMULL bit 1), as the kernel reports them through getauxval()
 * (arch/arm/include/uapi/asm/hwcap.h). Without getauxval (non-Linux),
 * nothing is reported and the portable code runs.
 *
 * LIBGCM_ARMCAP may then mask both words, so a test can force a lower tier
 * on a CPU (or an emulator) that has the features. Its form on 32-bit ARM
 * is "M0[:M1]", M0 for AT_HWCAP and M1 for AT_HWCAP2, each "~MASK" (clear
 * these bits) or "MASK" (AND it in), hex with 0x or decimal, an empty part
 * changing nothing (the spirit of OPENSSL_ia32cap's "a:b"):
 *   LIBGCM_ARMCAP=:~0x3      clear AES and PMULL (the NEON tier)
 *   LIBGCM_ARMCAP=~0x1000    clear NEON (which also hides AES and PMULL:
 *                            the AArch32 crypto instructions are NEON ones)
 *   LIBGCM_ARMCAP=0:0        nothing: the portable tier
 * Bits can only ever be cleared. An unparsable part changes nothing.
 */
#include <stdlib.h>

#include "cpu.h"
#include "cpu_detect.h"

#if defined(GCM_ARM)

#if defined(__linux__)
#include <sys/auxv.h>
#endif

void gcmi_cpu_detect(uint32_t out[4]) {
  out[0] = out[1] = out[2] = out[3] = 0;
#if defined(__linux__)
  out[0] = (uint32_t)getauxval(AT_HWCAP);
#if defined(AT_HWCAP2)
  out[1] = (uint32_t)getauxval(AT_HWCAP2);
#endif
#endif
}

/* Applies one "~MASK" / "MASK" part of [s, end) to *word. */
static void apply_part(uint32_t *word, const char *s, const char *end) {
  if (s == end) return;
  int invert = 0;
  if (*s == '~') {
    invert = 1;
    s++;
  }
  if (s == end || *s == '-' || *s == '+' || *s == ' ') return;
  char buf[32];
  size_t n = (size_t)(end - s);
  if (n >= sizeof(buf)) return;
  for (size_t i = 0; i < n; i++) buf[i] = s[i];
  buf[n] = '\0';
  char *stop = NULL;
  unsigned long long v = strtoull(buf, &stop, 0);
  if (stop == buf || *stop != '\0') return;
  uint32_t mask = (uint32_t)v;
  *word &= invert ? ~mask : mask;
}

void gcmi_cpu_apply_armcap32(uint32_t c[4], const char *env) {
  if (env == NULL || env[0] == '\0') return;
  const char *colon = env;
  while (*colon != '\0' && *colon != ':') colon++;
  apply_part(&c[0], env, colon);
  if (*colon == ':') {
    const char *rest = colon + 1;
    const char *end = rest;
    while (*end != '\0') end++;
    apply_part(&c[1], rest, end);
  }
}

#endif /* GCM_ARM */
