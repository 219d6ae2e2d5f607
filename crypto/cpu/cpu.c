/*
 * crypto/cpu/cpu.c: reads the CPU's capabilities once per process.
 *
 * The architecture-specific readers (cpu_x86.c, cpu_arm.c) fill four words;
 * on x86 the OPENSSL_ia32cap environment variable may then clear bits, so a
 * user or a test can force a lower tier on any machine. Initialisation runs
 * exactly once even when many threads make their first call at the same time.
 */
#include <stdlib.h>

#include "cpu.h"
#include "cpu_detect.h"

#if defined(_WIN32)
#include <windows.h>
#else
#include <pthread.h>
#endif

static uint32_t caps[4];

static void cpu_init(void) {
  uint32_t detected[4] = {0, 0, 0, 0};
  cpu_detect(detected);
#if defined(GCM_X86_64) || defined(GCM_X86)
  cpu_apply_ia32cap(detected, getenv("OPENSSL_ia32cap"));
#endif
#if defined(GCM_AARCH64)
  cpu_apply_armcap(detected, getenv("LIBGCM_ARMCAP"));
#endif
#if defined(GCM_ARM)
  cpu_apply_armcap32(detected, getenv("LIBGCM_ARMCAP"));
#endif
  for (int i = 0; i < 4; i++) caps[i] = detected[i];
}

#if defined(_WIN32)
static INIT_ONCE cpu_once = INIT_ONCE_STATIC_INIT;
static BOOL CALLBACK cpu_init_win(PINIT_ONCE once, PVOID param, PVOID *ctx) {
  (void)once;
  (void)param;
  (void)ctx;
  cpu_init();
  return TRUE;
}
const uint32_t *cpu_caps(void) {
  InitOnceExecuteOnce(&cpu_once, cpu_init_win, NULL, NULL);
  return caps;
}
#else
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;
const uint32_t *cpu_caps(void) {
  pthread_once(&cpu_once, cpu_init);
  return caps;
}
#endif

int cpu_always(void) { return 1; }

void cpu_apply_armcap(uint32_t c[4], const char *env) {
  if (env == NULL || env[0] == '\0') return;
  int invert = 0;
  if (env[0] == '~') {
    invert = 1;
    env++;
  }
  char *end = NULL;
  unsigned long long v = strtoull(env, &end, 0);
  if (end == env || *end != '\0' || env[0] == '-') return;
  uint32_t mask = (uint32_t)v;
  c[0] &= invert ? ~mask : mask;
}

#if !defined(GCM_X86_64) && !defined(GCM_X86) && !defined(GCM_ARM) && \
    !defined(GCM_AARCH64)
/* No capability reader for this architecture: only portable code runs. */
void cpu_detect(uint32_t out[4]) {
  out[0] = out[1] = out[2] = out[3] = 0;
}
#endif
