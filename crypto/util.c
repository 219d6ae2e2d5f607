/*
 * crypto/util.c: a wipe the compiler keeps (ct_memeq is inline, in
 * crypto/internal.h).
 */
#include "internal.h"

void gcmi_secure_wipe(void *p, size_t n) {
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
