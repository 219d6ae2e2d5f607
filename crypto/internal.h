/*
 * crypto/internal.h: small helpers shared by every layer of libgcm.
 *
 * Byte-order loads and stores, constant-time comparison, a wipe the compiler
 * may not remove, and the attribute that keeps internal symbols out of the
 * shared library's export table.
 */
#ifndef LIBGCM_CRYPTO_INTERNAL_H
#define LIBGCM_CRYPTO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(LIBGCM_VALGRIND_ANNOTATIONS)
#include <valgrind/memcheck.h>
#endif

/* GCM_HIDDEN keeps an internal function out of the ELF and Mach-O shared
 * libraries' dynamic symbols. PE/COFF has no symbol visibility: a DLL
 * exports only what is marked __declspec(dllexport) (GCM_EXPORT while
 * libgcm.dll is built), so on Windows it is empty (GCC warns about the
 * attribute there). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define GCM_HIDDEN __attribute__((visibility("hidden")))
#else
#define GCM_HIDDEN
#endif
#if defined(__GNUC__) || defined(__clang__)
#define GCM_LIKELY(x) __builtin_expect(!!(x), 1)
#define GCM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define GCM_LIKELY(x) (x)
#define GCM_UNLIKELY(x) (x)
#endif

/* GCM_HOT_ENTRY starts a function of the per-call path on a 64-byte
 * boundary (a cache line, and a whole number of the 32-byte windows the
 * x86 front ends fetch and cache decoded code in). Where such a function
 * otherwise starts depends on the size of everything linked before it, and
 * for short calls (1- to 64-byte stream updates) that alone moved the time
 * per call by 4-6% between builds that differ only in unrelated code
 * (gcm-ab --chunk 1 of a build against itself with one unused function
 * added in front). */
#if defined(__GNUC__) || defined(__clang__)
#define GCM_HOT_ENTRY __attribute__((aligned(64)))
#else
#define GCM_HOT_ENTRY
#endif

#if defined(__x86_64__) || defined(_M_X64)
#define GCM_X86_64 1
#elif defined(__i386__) || defined(_M_IX86)
#define GCM_X86 1
#elif defined(__arm__) || defined(_M_ARM)
#define GCM_ARM 1
#elif defined(__aarch64__) || defined(_M_ARM64)
#define GCM_AARCH64 1
#endif

/* Alignment that also reads as C++ when tests include internal headers. */
#if defined(__cplusplus)
#define GCM_ALIGNED(n) alignas(n)
#else
#define GCM_ALIGNED(n) _Alignas(n)
#endif

#if UINTPTR_MAX > 0xffffffffu
#define GCM_64BIT_WORDS 1
#endif

static inline uint32_t load_be32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
         ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static inline uint64_t load_be64(const uint8_t *p) {
  return ((uint64_t)load_be32(p) << 32) | load_be32(p + 4);
}

static inline void store_be64(uint8_t *p, uint64_t v) {
  store_be32(p, (uint32_t)(v >> 32));
  store_be32(p + 4, (uint32_t)v);
}

static inline uint32_t load_le32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
}

static inline void store_le32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

static inline uint64_t load_le64(const uint8_t *p) {
  return (uint64_t)load_le32(p) | ((uint64_t)load_le32(p + 4) << 32);
}

static inline void store_le64(uint8_t *p, uint64_t v) {
  store_le32(p, (uint32_t)v);
  store_le32(p + 4, (uint32_t)(v >> 32));
}

/* out[i] = a[i] ^ b[i] for n bytes; out may equal a or b. */
static inline void xor_bytes(uint8_t *out, const uint8_t *a, const uint8_t *b,
                             size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    memcpy(&x, a + i, 8);
    memcpy(&y, b + i, 8);
    x ^= y;
    memcpy(out + i, &x, 8);
  }
  for (; i < n; i++) out[i] = a[i] ^ b[i];
}

/* An empty assembly statement the compiler must assume changes x: after
 * it, the compiler cannot know x's value. */
#if defined(__GNUC__) || defined(__clang__)
#define CT_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define CT_OPAQUE(x) ((void)0)
#endif

/* Returns 1 when the n bytes at a and b are equal, 0 otherwise, in time that
 * depends on n only; inline, since every open compares a tag. The
 * differences are ORed together a word at a time (the last n % 8 bytes one
 * at a time), so only the public length decides what is loaded, and the
 * accumulator passes through CT_OPAQUE after each step, so the compiler
 * cannot turn the loop into one that stops at the first difference. */
static inline int ct_memeq(const void *a, const void *b, size_t n) {
#if !defined(__GNUC__) && !defined(__clang__)
  /* Without the assembly barrier, volatile loads keep the loop whole. */
  const volatile uint8_t *vx = (const volatile uint8_t *)a;
  const volatile uint8_t *vy = (const volatile uint8_t *)b;
  uint8_t bytes = 0;
  for (size_t i = 0; i < n; i++) bytes |= (uint8_t)(vx[i] ^ vy[i]);
  uint64_t diff = bytes;
#else
  const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;
  uint64_t diff = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t u, v;
    memcpy(&u, x + i, 8);
    memcpy(&v, y + i, 8);
    diff |= u ^ v;
    CT_OPAQUE(diff);
  }
  for (; i < n; i++) {
    diff |= (uint64_t)(x[i] ^ y[i]);
    CT_OPAQUE(diff);
  }
#endif
  /* diff | -diff has its top bit set exactly when diff != 0, so the
   * verdict is computed without a branch. */
  int equal = (int)(1u ^ (unsigned)((diff | (0 - diff)) >> 63));
#if defined(LIBGCM_VALGRIND_ANNOTATIONS)
  /* The verdict is public (the caller returns it), so callers may branch on
   * it; the bytes compared stay secret. */
  VALGRIND_MAKE_MEM_DEFINED(&equal, sizeof(equal));
#endif
  return equal;
}

/* Overwrites n bytes at p with zeros in a way the compiler cannot elide. */
GCM_HIDDEN void gcmi_secure_wipe(void *p, size_t n);

/* gcmi_secure_wipe inlined: memset, then an empty assembly statement that
 * claims to read the memory, so the stores are not dead. For the few
 * hundred bytes of per-message keys AES-GCM-SIV wipes on every call, one
 * call fewer each. */
static inline void secure_wipe_inline(void *p, size_t n) {
#if defined(__GNUC__) || defined(__clang__)
  memset(p, 0, n);
  __asm__ __volatile__("" : : "r"(p) : "memory");
#else
  gcmi_secure_wipe(p, n);
#endif
}

/* gcmi_secure_wipe of one 16-byte block, inlined: the hot paths wipe a tag or
 * a block of key stream on every call. */
static inline void secure_wipe_block(void *p) {
#if defined(__GNUC__) || defined(__clang__)
  memset(p, 0, 16);
  __asm__ __volatile__("" : : "r"(p) : "memory");
#else
  gcmi_secure_wipe(p, 16);
#endif
}

/* 1 when a length is within a GCM limit. A function rather than an inline
 * comparison: with a 32-bit size_t, `(uint64_t)len <= limit` is always true
 * for the 2^36 and 2^61 limits and compilers warn about the comparison. */
static inline int length_within(uint64_t len, uint64_t limit) {
  return len <= limit;
}

/* Returns 1 when [a, a+alen) and [b, b+blen) share at least one byte. */
static inline int buffers_overlap(const void *a, size_t alen, const void *b,
                                  size_t blen) {
  uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  if (alen == 0 || blen == 0) return 0;
  return x < y + blen && y < x + alen;
}

#endif /* LIBGCM_CRYPTO_INTERNAL_H */
