/*
 * test/c_checks.h: what the plain C test programs (compat_program.c,
 * random_failure.c) share: a failure count, a check that reports and counts
 * a failure, a zero test for outputs that must have been wiped, and the end
 * of main. Header-only, with static definitions: each program is a single
 * file that includes it once.
 */
#ifndef LIBGCM_TEST_C_CHECKS_H
#define LIBGCM_TEST_C_CHECKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static int failures;

static void check(int cond, const char *what) {
  if (!cond) {
    fprintf(stderr, "FAIL: %s\n", what);
    failures++;
  }
}

static int all_zero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (p[i] != 0) return 0;
  }
  return 1;
}

/* main's result: 1 after saying how many checks failed, else 0 after
 * "<program>: all checks passed". */
static int checks_result(const char *program) {
  if (failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("%s: all checks passed\n", program);
  return 0;
}

#endif /* LIBGCM_TEST_C_CHECKS_H */
