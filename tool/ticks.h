/*
 * tool/ticks.h: the clock of the tuning tools gcm-cycles and gcm-ab: the
 * time-stamp counter on x86 (rdtsc: cheap, and steady across frequency
 * changes on every core these tools are used on), CLOCK_MONOTONIC
 * nanoseconds elsewhere. TICKS_NAME says which, for the output.
 */
#ifndef LIBGCM_TOOL_TICKS_H
#define LIBGCM_TOOL_TICKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t ticks(void) { return __rdtsc(); }
#define TICKS_NAME "rdtsc ticks"
#else
static inline uint64_t ticks(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#define TICKS_NAME "ns"
#endif

/* The median of n tick counts (sorts v in place; for even n the upper of
 * the two middle values). */
static inline int ticks_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}
static inline uint64_t ticks_median(uint64_t *v, size_t n) {
  qsort(v, n, sizeof(*v), ticks_cmp);
  return v[n / 2];
}

/* Keeps the core busy for about 100 ms before the first sample (2e8
 * ticks: 50-200 ms at the 1-4 GHz a TSC runs at; 100 ms of the clock
 * elsewhere). A core that was idle runs slower until its clock has risen:
 * on a Zen 1 KVM guest the first 20-30 ms of a run took 25% more ticks a
 * call, more than one warm-up round covers, which made the first size of
 * a list read 850 ticks where the same size read 660 later in the list. */
static inline void ticks_spin_up(void) {
#if defined(__x86_64__) || defined(__i386__)
  const uint64_t span = 200000000u;
#else
  const uint64_t span = 100000000u;
#endif
  volatile uint64_t sink = 0;
  const uint64_t start = ticks();
  while (ticks() - start < span) {
    for (int i = 0; i < 4096; i++) sink = sink * 6364136223846793005u + 1;
  }
}

#endif /* LIBGCM_TOOL_TICKS_H */
