/*
 * tool/speed_common.c: the pieces every part of gcm-speed uses: the
 * algorithm table, the program name, and error exits and allocation that
 * die with a message rather than return failure (a speed tool has nothing
 * sensible to do after either).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "speed.h"

const char *g_prog = "gcm-speed";
size_t g_chunk;
const char *g_fused;

const struct algo kAlgos[NUM_ALGOS] = {
    {"AES-128-GCM", GCM_KEY_LEN_128, 0},
    {"AES-192-GCM", GCM_KEY_LEN_192, 0},
    {"AES-256-GCM", GCM_KEY_LEN_256, 0},
    {"AES-128-GCM-SIV", GCM_KEY_LEN_128, 1},
    {"AES-256-GCM-SIV", GCM_KEY_LEN_256, 1},
};

void report_error_v(const char *fmt, va_list ap) {
  fflush(stdout);
  fprintf(stderr, "%s: ", g_prog);
  vfprintf(stderr, fmt, ap);
}

void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_error_v(fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(EXIT_FAILURE);
}

void *xmalloc(size_t n) {
  void *p = NULL;
  if (n == 0) {
    n = 1;
  }
  /* 64-byte alignment: buffers start on a cache line, as bssl aligns its.
   * Windows has no aligned allocation that free() and realloc() accept
   * (_aligned_malloc needs _aligned_free), so there the buffers have
   * malloc's 16-byte alignment. */
#if defined(_WIN32)
  p = malloc(n);
  if (p == NULL) {
#else
  if (posix_memalign(&p, 64, n) != 0) {
#endif
    die("out of memory (%zu bytes)", n);
  }
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (q == NULL) {
    die("out of memory (%zu bytes)", n);
  }
  return q;
}
