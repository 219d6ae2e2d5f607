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
 * (`init`, once per key; `init_for`, once per AES-GCM-SIV message), plain
 * C. Each entry of a table is one xor of two earlier ones.
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
 * then costs one table of rows and no squaring: for the three to six
 * blocks of a message of up to 64 bytes with a short AAD, the rows for H^2
 * and the square took longer than the pairs of blocks they save. The GHASH
 * kernel keeps its pairs (a GCM key is made once): init_for's key serves
 * polyval_update only, as ghash.h allows for a backend that has one. */
#define SSSE3_SINGLE_MAX 6

/* The 512 bytes of rows for H and for H^2 (the kernel's layout). */
#define SSSE3_KEY_BYTES 1024
_Static_assert(SSSE3_KEY_BYTES <= GHASH_KEY_MAX_BYTES,
               "the ssse3 key fits in the largest GHASH key");

/* Writes row b of the 16 entries e[n] at out + 32 b: byte n of the row is
 * byte b of e[n] (lo's bytes 0..7 from the least significant up, then
 * hi's). With SSE2 (every CPU this backend runs on has it, so its code is
 * built for it on 32-bit x86 too) this is a 16x16 byte transpose: one
 * step of 16 PUNPCKLBW/PUNPCKHBW, register i with register i + 8 into
 * registers 2i and 2i + 1, moves the byte at register r, position c to
 * the one whose 8-bit index (r:c) is rotated left by one; four steps
 * rotate it by four, to register c, position r. Public addresses only. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <emmintrin.h>
__attribute__((target("sse2"))) static void transpose_rows(
    uint8_t *out, const struct u128 e[16]) {
  __m128i a[16], b[16];
  for (int n = 0; n < 16; n++) {
    a[n] = _mm_set_epi64x((long long)e[n].hi, (long long)e[n].lo);
  }
  for (int step = 0; step < 4; step++) {
    for (int i = 0; i < 8; i++) {
      b[2 * i] = _mm_unpacklo_epi8(a[i], a[i + 8]);
      b[2 * i + 1] = _mm_unpackhi_epi8(a[i], a[i + 8]);
    }
    for (int n = 0; n < 16; n++) a[n] = b[n];
  }
  for (int row = 0; row < 16; row++) {
    _mm_storeu_si128((__m128i *)(void *)(out + 32 * row), a[row]);
  }
}
#else
static void transpose_rows(uint8_t *out, const struct u128 e[16]) {
  for (int row = 0; row < 16; row++) {
    unsigned shift = 8 * (row & 7);
    for (int n = 0; n < 16; n++) {
      uint64_t w = row < 8 ? e[n].lo : e[n].hi;
      out[32 * row + n] = (uint8_t)(w >> shift);
    }
  }
}
#endif

/* Writes the 512 bytes of transposed T and T4 rows for g at `out`. The
 * entries are linear in n's bits, so each is one xor of two earlier ones:
 * T[v] = g x^i for the single bit v = 8 >> i, and T[v + m] = T[v] ^ T[m]
 * for m < v (likewise T4 from g x^(i+4)): 22 xors where masking every
 * entry's four bits in took 128 and-xor pairs. AES-GCM-SIV builds these
 * rows for every message. */
static void build_rows(uint8_t out[512], struct u128 g) {
  /* p[i] = g * x^i (nibble value 8 >> i stands for x^i); the entries.
   * One struct, so one wipe clears every secret left on the stack. */
  struct {
    struct u128 p[8], t[16], t4[16];
  } w;
  w.p[0] = g;
  for (int i = 1; i < 8; i++) w.p[i] = mul_x(w.p[i - 1]);
  w.t[0].hi = w.t[0].lo = w.t4[0].hi = w.t4[0].lo = 0;
  for (int i = 3; i >= 0; i--) {
    const int v = 8 >> i; /* public: the loop's bit */
    w.t[v] = w.p[i];
    w.t4[v] = w.p[i + 4];
    for (int m = 1; m < v; m++) {
      w.t[v + m].hi = w.t[v].hi ^ w.t[m].hi;
      w.t[v + m].lo = w.t[v].lo ^ w.t[m].lo;
      w.t4[v + m].hi = w.t4[v].hi ^ w.t4[m].hi;
      w.t4[v + m].lo = w.t4[v].lo ^ w.t4[m].lo;
    }
  }
  transpose_rows(out, w.t);
  transpose_rows(out + 16, w.t4);
  gcmi_secure_wipe(&w, sizeof(w));
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
  struct u128 g = {load_be64(H), load_be64(H + 8)};
  for (int i = 0; i < 8; i++) g = mul_x_inv(g);
  build_rows(ghash_key_bytes(key), g);
  struct u128 g2 = square_with_kernel(key, H);
  for (int i = 0; i < 8; i++) g2 = mul_x_inv(g2);
  build_rows(ghash_key_bytes(key) + 512, g2);
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
  struct u128 g = {load_be64(H), load_be64(H + 8)};
  for (int i = 0; i < 8; i++) g = mul_x_inv(g);
  build_rows(ghash_key_bytes(key), g);
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
