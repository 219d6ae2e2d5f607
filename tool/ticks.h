/*
 * tool/ticks.h: the clock of the tuning tools gcm-cycles and gcm-ab: the
 * time-stamp counter on x86 (rdtsc: cheap, and steady across frequency
 * changes on every core these tools are used on), CLOCK_MONOTONIC
 * nanoseconds elsewhere. TICKS_NAME says which, for the output.
 */
#ifndef LIBGCM_TOOL_TICKS_H
#define LIBGCM_TOOL_TICKS_H

#include <stdint.h>
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

#endif /* LIBGCM_TOOL_TICKS_H */
