/*
 * crypto/util.c: constant-time comparison and a wipe the compiler keeps.
 */
#include "internal.h"

#if defined(LIBGCM_VALGRIND_ANNOTATIONS)
#include <valgrind/memcheck.h>
#endif

int ct_memeq(const void *a, const void *b, size_t n) {
  const volatile uint8_t *x = (const volatile uint8_t *)a;
  const volatile uint8_t *y = (const volatile uint8_t *)b;
  uint8_t diff = 0;
  for (size_t i = 0; i < n; i++) diff |= (uint8_t)(x[i] ^ y[i]);
  /* diff - 1 wraps to 0xffffffff exactly when diff == 0, so its top bit is
   * the verdict, computed without a branch. */
  int equal = (int)((((uint32_t)diff) - 1) >> 31);
#if defined(LIBGCM_VALGRIND_ANNOTATIONS)
  /* The verdict is public (the caller returns it), so callers may branch on
   * it; the bytes compared stay secret. */
  VALGRIND_MAKE_MEM_DEFINED(&equal, sizeof(equal));
#endif
  return equal;
}

void secure_wipe(void *p, size_t n) {
  if (p == NULL || n == 0) return;
#if defined(__GNUC__) || defined(__clang__)
  /* The empty assembly statement claims to read the memory, so the store
   * before it is not dead and cannot be removed. */
  memset(p, 0, n);
  __asm__ __volatile__("" : : "r"(p) : "memory");
#else
  /* Stores through a volatile pointer may not be removed. */
  volatile uint8_t *v = (volatile uint8_t *)p;
  for (size_t i = 0; i < n; i++) v[i] = 0;
#endif
}
