/*
 * crypto/aes/aes_ct_sse2.c: "ct_sse2", bitsliced constant-time AES on SSE2
 * registers, eight blocks at a time, for x86 (x86_64, where SSE2 is part of
 * the architecture, and 32-bit x86 CPUs that have it: Pentium 4, Pentium M,
 * Athlon 64 and later). It is the AES of the SSE2-only tier, for CPUs with
 * neither AES-NI nor SSSE3 (vpaes).
 *
 * Algorithm
 * ---------
 * Bitsliced AES with fixsliced ShiftRows and the Boyar-Peralta S-box
 * circuit, written once over a `word` type in aes_bitsliced_rounds.h, whose
 * opening comment derives it; "ct" (aes_ct.c) is the same on 64-bit words.
 * This file supplies the word: __m128i, NBLK = 8 blocks, so a plane is 128
 * bits, a state column a 32-bit lane and a row a byte inside it:
 *   bit (32c + 8r + b) of plane i = bit i of state byte (r, c) of block b.
 * Byte k = 4c + r of block b goes to bit 8k + b, which is exactly where an
 * 8x8 bit-matrix transposition of the eight loaded blocks puts it, so
 * pack() is eight loads and the transposition. Row rotations are a 32-bit
 * lane rotation by 8 (PSRLD/PSLLD/POR) and a 16-bit half swap
 * (PSHUFLW/PSHUFHW); column moves are PSHUFD. Counter blocks are built in
 * registers, and the key stream is transposed back and XORed straight into
 * the output.
 *
 * Building it
 * -----------
 * An i686 build must still run on CPUs without SSE2, so the build compiles
 * this one file with -msse2 (CMakeLists.txt; MSVC needs no flag for SSE2
 * intrinsics) and the dispatcher calls into it only after `usable` has seen
 * CPUID's SSE2 bit (after the OPENSSL_ia32cap mask). `usable` and the
 * descriptor itself contain no SSE2 code. On x86_64 the file is built as
 * usual and always usable.
 *
 * Why it is constant-time
 * -----------------------
 * Only PXOR/PAND/POR, shifts and shuffles by constant amounts, and loads
 * and stores at addresses that depend on public lengths and the round
 * count; no table, no branch on key or data (see aes_bitsliced_rounds.h).
 */
#include "../cpu/cpu.h"
#include "aes.h"

/* SSE2 exists only on x86; elsewhere the descriptor below has no code and
 * reports unusable. */
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || \
    defined(_M_IX86)
#define CT_SSE2_BUILT 1
#else
#define CT_SSE2_BUILT 0
#endif

/* The round count at its shared place, then from byte 256 on the planes
 * of fifteen round keys, eight 128-bit planes each (aes.h): what
 * aes_bitsliced_rounds.h lays out for this file's word (asserted there). */
#define CT_SSE2_KEY_BYTES (AES_SCHEDULE_PLANES_OFFSET + 15 * 8 * 16)

#if CT_SSE2_BUILT

#if !defined(__SSE2__) && !defined(_MSC_VER)
#error "crypto/aes/aes_ct_sse2.c must be compiled with -msse2 (see CMakeLists.txt)"
#endif

#include <emmintrin.h>
#include <string.h>

#include "../internal.h"

#if defined(__GNUC__) || defined(__clang__)
#define AES_INLINE static inline __attribute__((always_inline))
#else
#define AES_INLINE static inline
#endif

typedef __m128i word;
#define NBLK 8 /* blocks per word */

AES_INLINE word w_xor(word a, word b) { return _mm_xor_si128(a, b); }
AES_INLINE word w_and(word a, word b) { return _mm_and_si128(a, b); }
AES_INLINE word w_load(const void *p) {
  return _mm_load_si128((const word *)p);
}
AES_INLINE void w_store(void *p, word x) { _mm_store_si128((word *)p, x); }
AES_INLINE word w_bytes(uint8_t b) { return _mm_set1_epi8((char)b); }

/* (a, b) exchange: bits of a at (mask << n) and bits of b at mask. */
#define SWAPMOVE(a, b, m, n)                                              \
  do {                                                                    \
    word t_ = _mm_and_si128(_mm_xor_si128(_mm_srli_epi64((a), (n)), (b)), \
                            (m));                                         \
    (b) = _mm_xor_si128((b), t_);                                         \
    (a) = _mm_xor_si128((a), _mm_slli_epi64(t_, (n)));                    \
  } while (0)

/* Row r+1 into row r in every column: rotate each 32-bit lane by 8. */
AES_INLINE word rot_rows1(word x) {
  return _mm_or_si128(_mm_srli_epi32(x, 8), _mm_slli_epi32(x, 24));
}
/* Row r+2 into row r: swap the 16-bit halves of each lane. */
AES_INLINE word rot_rows2(word x) {
  return _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xb1), 0xb1);
}
/* Column c+n into column c. n is a compile-time constant after inlining. */
AES_INLINE word rot_cols(word x, unsigned n) {
  switch (n & 3) {
    case 1: return _mm_shuffle_epi32(x, 0x39);
    case 2: return _mm_shuffle_epi32(x, 0x4e);
    case 3: return _mm_shuffle_epi32(x, 0x93);
    default: return x;
  }
}
/* SR^2: rows 1 and 3 take the column two further on. */
AES_INLINE word shift_rows2(word x) {
  const word odd_rows = _mm_set1_epi32((int)0xff00ff00u);
  word y = _mm_shuffle_epi32(x, 0x4e);
  return _mm_xor_si128(x, _mm_and_si128(_mm_xor_si128(x, y), odd_rows));
}

#include "aes_bitsliced_rounds.h"

_Static_assert(CT_SSE2_KEY_BYTES == BITSLICED_KEY_BYTES,
               "the descriptor states the bitsliced layout's size");

/* 8 blocks (128 bytes) -> planes. Block b in word b: bit i of byte k of
 * block b is already at bit 8k + i; the transposition moves it to bit
 * 8k + b of plane i. */
AES_INLINE void pack(word q[8], const uint8_t *in) {
  for (int b = 0; b < 8; b++) {
    q[b] = _mm_loadu_si128((const word *)(in + 16 * b));
  }
  transpose8(q);
}

/* Planes -> 8 blocks. Destroys q. */
AES_INLINE void unpack(uint8_t *out, word q[8]) {
  transpose8(q);
  for (int b = 0; b < 8; b++) {
    _mm_storeu_si128((word *)(out + 16 * b), q[b]);
  }
}

/* Counter blocks ctr[0..11] || be32(c + b), b = 0 .. 7, straight into
 * planes (no trip through memory). */
AES_INLINE void pack_counters(word q[8], const uint8_t ctr[16], uint32_t c) {
  const int n0 = (int)load_le32(ctr), n1 = (int)load_le32(ctr + 4),
            n2 = (int)load_le32(ctr + 8);
  for (int b = 0; b < 8; b++) {
    q[b] = _mm_set_epi32((int)bswap32(c + (uint32_t)b), n2, n1, n0);
  }
  transpose8(q);
}

/* out = in ^ the first n blocks of key stream planes q; destroys q. A
 * whole batch is transposed back and XORed straight into the output; a
 * last, partial one goes through ks. */
AES_INLINE void xor_key_stream(uint8_t *out, const uint8_t *in, word q[8],
                               size_t n, uint8_t ks[BATCH_BYTES]) {
  if (n == NBLK) {
    transpose8(q);
    for (int b = 0; b < 8; b++) {
      word x = _mm_loadu_si128((const word *)(in + 16 * b));
      _mm_storeu_si128((word *)(out + 16 * b), _mm_xor_si128(x, q[b]));
    }
    return;
  }
  unpack(ks, q);
  xor_bytes(out, in, ks, 16 * n);
}

#define CT_SSE2_KERNEL(op) op
#else
#define CT_SSE2_KERNEL(op) NULL
#endif /* CT_SSE2_BUILT */

/* x86_64 has SSE2 by definition; 32-bit x86 asks CPUID.1:EDX.SSE2, after
 * the OPENSSL_ia32cap mask. */
static int aes_ct_sse2_usable(void) {
#if defined(__x86_64__) || defined(_M_X64)
  return 1;
#else
  return CT_SSE2_BUILT && gcmi_cpu_x86_has_sse2();
#endif
}

const struct aes_impl gcmi_aes_ct_sse2 = {
    .name = "ct_sse2",
    .constant_time = 1,
    .requires = "SSE2",
    .ctr_batch_blocks = 8, /* NBLK */
    .key_bytes = CT_SSE2_KEY_BYTES,
    .usable = aes_ct_sse2_usable,
    .set_encrypt_key = CT_SSE2_KERNEL(bitsliced_set_encrypt_key),
    .encrypt_block = CT_SSE2_KERNEL(bitsliced_encrypt_block),
    .ctr32 = CT_SSE2_KERNEL(bitsliced_ctr32),
    .ctr32le = CT_SSE2_KERNEL(bitsliced_ctr32le),
};
