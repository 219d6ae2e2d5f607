/*
 * crypto/ghash/ghash_ssse3.c: constant-time GHASH with SSSE3 ("ssse3"),
 * x86_64 and 32-bit x86 (the same name on both), for CPUs without PCLMULQDQ.
 *
 * The blocks are hashed by asm/x86_64/ghash-ssse3-x86_64.pl (on 32-bit x86
 * by asm/x86/ghash-ssse3-x86.pl: the same key layout), whose opening
 * comment explains the method: Shoup's 4-bit tables of multiples, stored
 * transposed so that PSHUFB reads sixteen entries at once from a register
 * with the secret nibbles as shuffle indices, instead of from memory at
 * secret addresses. This file holds the descriptor and the key set-up
 * (`init`, once per key; `init_for`, once per AES-GCM-SIV message), in C
 * with SSSE3 intrinsics: the rows of a table are built from two small
 * tables by PSHUFB (store_rows).
 *
 * Key set-up. With G = H * x^-8 and G2 = H^2 * x^-8 (the kernel's
 * accumulator comes out multiplied by x^8; see the kernel), it builds for
 * each G the 16 multiples T[n] = n(x) G and T4[n] = x^4 n(x) G, where a
 * nibble n is read as n(x) with value 8 the coefficient of x^0, and stores
 * them transposed: row b of a table holds byte b (of the kernel's
 * byte-reversed block form) of all 16 entries, entry n at byte n.
 *
 * Values are held as hi:lo 64-bit words loaded big-endian from GCM's byte
 * order, so bit 127 - i of hi:lo is the coefficient of x^i: multiplying by
 * x is a right shift (the bit falling off, x^128, returns as x^7 + x^2 +
 * x + 1, 0xE1 in the top byte), by x^-1 a left shift (the bit falling off,
 * x^-1, returns as x^127 + x^6 + x + 1: bits 0, 121, 126 and 127). The same
 * hi:lo is the kernel's reflected register form (hi the upper qword), so
 * byte b of it is byte b of the register.
 *
 * H^2 comes from the kernel: once the H rows are written, hashing the
 * block H with a zero accumulator gives H * H (square_with_kernel).
 *
 * AES-GCM-SIV makes a GHASH key for every message, through init_for: for
 * a message of at most SSSE3_SINGLE_MAX blocks of POLYVAL input it builds
 * the H rows alone, which the POLYVAL kernel reads alone for such a call
 * (one block at a time). This keeps the key set-up the backend's own
 * tables and kernel, only fewer of them; it is not a second multiplier.
 *
 * Constant time: every reduction is a mask made from the secret bit, never
 * a branch; H^2 comes from the constant-time kernel; table indices and
 * loop bounds are public constants. The kernel's own argument is in its opening comment.
 */
#include <string.h>

#include "../cpu/cpu.h"
#include "ghash.h"
#include "gf128_setup.h"

/* The blocks kernel of the architecture being built, or none; it takes two
 * blocks per reduction and reads the 1024-byte key built by init below. */
#if defined(LIBGCM_ASM_X86_64)
#define SSSE3_KERNEL(op) gcmi_ghash_x86_64_ssse3_##op /* ghash-ssse3-x86_64.pl */
#elif defined(LIBGCM_ASM_X86)
#define SSSE3_KERNEL(op) gcmi_ghash_x86_ssse3_##op /* ghash-ssse3-x86.pl, cdecl */
#endif

#if defined(SSSE3_KERNEL)
GCM_HIDDEN ghash_update_fn SSSE3_KERNEL(blocks);
/* The same without its byte reversals: POLYVAL (ghash.h's polyval_update). */
GCM_HIDDEN ghash_update_fn SSSE3_KERNEL(polyval);
#define SSSE3_BLOCKS SSSE3_KERNEL(blocks)
#define SSSE3_POLYVAL SSSE3_KERNEL(polyval)
#define SSSE3_BUILT 1
#else
#define SSSE3_BLOCKS NULL
#define SSSE3_POLYVAL NULL
#define SSSE3_BUILT 0
#endif

/* The POLYVAL kernel hashes a call of at most this many blocks one block
 * at a time with the H rows alone (the asm reads this line: perlasm/
 * layout.pm's c_define), and init_for builds no H^2 rows for a key that
 * sees no longer call. A per-message key (AES-GCM-SIV) for a few blocks
 * then costs one table of rows and no squaring: up to twelve blocks (a
 * message of up to 160 bytes with a short AAD) the rows for H^2 and the
 * square take longer than the pairs of blocks they save; at thirteen and
 * fourteen the two ways cost the same (gcm-ab --siv on vpaes + ssse3, AMD
 * Zen 1, 2026-12-05: 144 bytes 3% faster than with pairs, 192 bytes
 * level, 256 bytes 2% slower). The GHASH kernel keeps its pairs (a GCM key
 * is made once): init_for's key serves polyval_update only, as ghash.h
 * allows for a backend that has one. */
#define SSSE3_SINGLE_MAX 12

/* The 512 bytes of rows for H and for H^2 (the kernel's layout). */
#define SSSE3_KEY_BYTES 1024
_Static_assert(SSSE3_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "the ssse3 key fits in the largest GHASH key");

/* Writes the 16 rows of the table T[n] = n(x) G (nibble value 8 standing
 * for x^0) at out, out + 32, ..., out + 480, from q[i] = G x^i, i = 0..3:
 * byte n of row b is byte b of T[n] (lo's bytes 0..7 from the least
 * significant up, then hi's). T is linear in n's bits, T[n] = A[n >> 2] ^
 * B[n & 3] with A = {0, q1, q0, q0 ^ q1} and B = {0, q3, q2, q2 ^ q3}.
 *
 * With SSSE3 (which this backend requires; its set-up is built for it on
 * 32-bit x86 too) no 16x16 transpose is needed: two steps of unpacks turn
 * the four A registers into four, register k holding A[0..3][b] side by
 * side for b = 4k .. 4k + 3 (likewise B), and then row b is two PSHUFBs,
 * A's group with the indices 4(b & 3) + (n >> 2), B's with 4(b & 3) +
 * (n & 3), and a PXOR: 16 unpacks, then three operations a row, where
 * transposing the 16 entries took 64 unpacks and spilled. The shuffle
 * indices are constants; the data is only shuffled and XORed. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <tmmintrin.h>
__attribute__((target("ssse3"))) static void store_rows(
    uint8_t *out, const struct u128 q[4]) {
  /* Lane n: the A index n >> 2 and the B index n & 3; adding 4 moves
   * both to the next row's bytes of the group. */
  const __m128i ia0 = _mm_setr_epi8(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3,
                                    3, 3, 3);
  const __m128i ib0 = _mm_setr_epi8(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0,
                                    1, 2, 3);
  const __m128i four = _mm_set1_epi8(4);
  const __m128i zero = _mm_setzero_si128();
  const __m128i q0 = _mm_set_epi64x((long long)q[0].hi, (long long)q[0].lo);
  const __m128i q1 = _mm_set_epi64x((long long)q[1].hi, (long long)q[1].lo);
  const __m128i q2 = _mm_set_epi64x((long long)q[2].hi, (long long)q[2].lo);
  const __m128i q3 = _mm_set_epi64x((long long)q[3].hi, (long long)q[3].lo);
  const __m128i a3 = _mm_xor_si128(q0, q1), b3 = _mm_xor_si128(q2, q3);
  /* {0, A1}, {A2, A3} byte pairs, then the pairs of pairs: group k. */
  const __m128i alo01 = _mm_unpacklo_epi8(zero, q1);
  const __m128i alo23 = _mm_unpacklo_epi8(q0, a3);
  const __m128i ahi01 = _mm_unpackhi_epi8(zero, q1);
  const __m128i ahi23 = _mm_unpackhi_epi8(q0, a3);
  const __m128i blo01 = _mm_unpacklo_epi8(zero, q3);
  const __m128i blo23 = _mm_unpacklo_epi8(q2, b3);
  const __m128i bhi01 = _mm_unpackhi_epi8(zero, q3);
  const __m128i bhi23 = _mm_unpackhi_epi8(q2, b3);
  const __m128i ga[4] = {
      _mm_unpacklo_epi16(alo01, alo23), _mm_unpackhi_epi16(alo01, alo23),
      _mm_unpacklo_epi16(ahi01, ahi23), _mm_unpackhi_epi16(ahi01, ahi23)};
  const __m128i gb[4] = {
      _mm_unpacklo_epi16(blo01, blo23), _mm_unpackhi_epi16(blo01, blo23),
      _mm_unpacklo_epi16(bhi01, bhi23), _mm_unpackhi_epi16(bhi01, bhi23)};
  for (int k = 0; k < 4; k++) {
    __m128i ia = ia0, ib = ib0;
    for (int r = 0; r < 4; r++) {
      const __m128i row = _mm_xor_si128(_mm_shuffle_epi8(ga[k], ia),
                                        _mm_shuffle_epi8(gb[k], ib));
      _mm_storeu_si128((__m128i *)(void *)(out + 32 * (4 * k + r)), row);
      ia = _mm_add_epi8(ia, four);
      ib = _mm_add_epi8(ib, four);
    }
  }
}
#else
static void store_rows(uint8_t *out, const struct u128 q[4]) {
  for (int n = 0; n < 16; n++) {
    uint64_t hi = 0, lo = 0;
    for (int i = 0; i < 4; i++) {
      /* public: n and i are loop indices; the mask selects q[i]. */
      const uint64_t m = 0 - (uint64_t)((n >> (3 - i)) & 1);
      hi ^= q[i].hi & m;
      lo ^= q[i].lo & m;
    }
    for (int b = 0; b < 16; b++) {
      out[32 * b + n] = (uint8_t)((b < 8 ? lo : hi) >> (8 * (b & 7)));
    }
  }
}
#endif

/* Writes the 512 bytes of T and T4 rows for G = h x^-8 at `out` (row b
 * of T at out + 32 b, of T4 at out + 32 b + 16), from p[i] = G x^i =
 * h x^(i - 8), made downwards from h: T's single-bit entries are
 * p[0..3], T4's p[4..7]. AES-GCM-SIV builds these rows for every
 * message. */
static void build_rows(uint8_t out[512], struct u128 h) {
  struct u128 p[8];
  p[7] = mul_x_inv(h);
  for (int i = 6; i >= 0; i--) p[i] = mul_x_inv(p[i + 1]);
  store_rows(out, p);
  store_rows(out + 16, p + 4);
  gcmi_secure_wipe(p, sizeof(p));
}

/* H^2 in GCM's byte order, by the kernel itself once the H rows are in
 * place: a single block uses the H rows alone (the kernel's opening
 * comment), and hashing the block H into a zero accumulator gives H * H.
 * That takes a few dozen cycles where the bit-serial mul takes hundreds;
 * AES-GCM-SIV sets up a GHASH key for every message. */
static struct u128 square_with_kernel(const struct ghash_key *key,
                                      const uint8_t H[16]) {
#if SSSE3_BUILT
  _Alignas(16) uint8_t sq[16] = {0};
  SSSE3_BLOCKS(sq, key, H, 1);
  struct u128 h2 = {load_be64(sq), load_be64(sq + 8)};
  gcmi_secure_wipe(sq, sizeof(sq));
  return h2;
#else
  (void)key; /* not reached: ssse3_usable is 0 without the kernel */
  struct u128 h = {load_be64(H), load_be64(H + 8)};
  return mul(h, h);
#endif
}

static void ssse3_init(struct ghash_key *key, const uint8_t H[16]) {
  const struct u128 h = {load_be64(H), load_be64(H + 8)};
  build_rows(ghash_key_bytes(key), h);
  build_rows(ghash_key_bytes(key) + 512, square_with_kernel(key, H));
}

/* init for a key that sees polyval_update calls of at most max_blocks
 * blocks: the H rows alone when the kernel hashes such calls one block at
 * a time. The rest of the key is left as it was (no such call reads it). */
static void ssse3_init_for(struct ghash_key *key, const uint8_t H[16],
                           size_t max_blocks) {
  if (max_blocks > SSSE3_SINGLE_MAX) { /* public: the message's length */
    ssse3_init(key, H);
    return;
  }
  const struct u128 h = {load_be64(H), load_be64(H + 8)};
  build_rows(ghash_key_bytes(key), h);
}

/* Runs here when this build has its kernels and the CPU has SSSE3. */
static int ssse3_usable(void) { return SSSE3_BUILT && gcmi_cpu_x86_has_ssse3(); }

const struct ghash_impl gcmi_ghash_ssse3 = {
    .name = "ssse3",
    .constant_time = 1,
    .requires = "SSSE3",
    .hardware_multiply = 0,
    .key_bytes = SSSE3_KEY_BYTES,
    .usable = ssse3_usable,
    .init = ssse3_init,
    .update = SSSE3_BLOCKS,
    .polyval_update = SSSE3_POLYVAL,
    .init_for = ssse3_init_for,
};
