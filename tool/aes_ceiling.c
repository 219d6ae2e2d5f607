/*
 * tool/aes_ceiling.c: gcm-ceiling, how close each x86_64 AES-GCM tier runs
 * to the AES throughput of its own instructions (not a test, not
 * installed).
 *
 *   gcm-ceiling [--key-bits 128,256] [--size S] [--rounds R]
 *               [--tiers vaes_avx512,vaes_avx2,aesni_avx,aesni_sse,aesni+clmul]
 *
 * A tier's bulk speed is bounded by its AES rounds: every 16-byte block
 * costs Nr AES instructions (Nr - 1 VAESENC and one VAESENCLAST), whatever
 * the kernel does besides. For each tier this tool runs an AES-CTR loop
 * with nothing else in it, of the tier's own vector width and encoding and
 * round count:
 *   aesni_sse     AESENC on xmm, legacy SSE encoding;
 *   aesni+clmul   the same (the aesni ctr32 kernel's);
 *   aesni_avx     VAESENC on xmm, VEX encoding;
 *   vaes_avx2     VAESENC on ymm, two blocks per register;
 *   vaes_avx512   VAESENC on zmm, four blocks per register;
 * each with 4 and with 8 registers of blocks in flight (the kernels keep 8
 * xmm, 8 ymm and 4 zmm registers in flight). An iteration makes its
 * counter blocks from a counter register (VPADDD, the byte swap, the XOR
 * of rk[0]), runs the rounds and stores the key stream: no data is loaded,
 * nothing is hashed. The faster of the two register counts is the
 * tier's ceiling: the AES throughput of that width on this core. Then it
 * times the tier's kernel over the same S bytes (16 KiB by default),
 * sealing and opening in place: the fused kernel called directly, or for
 * aesni+clmul the two passes as the mode engine runs them (ctr32 then
 * GHASH to seal, GHASH then ctr32 to open), and prints bytes per cycle for
 * each and the kernel as a share of its ceiling. Beside them, for the
 * profile: the tier's GHASH backend alone over the same bytes.
 *
 * The AES ceiling leaves out that a kernel also hashes every block, with
 * carry-less multiplies, XORs and shuffles that compete with its AES
 * rounds for the same vector pipes (on AMD cores in particular). So each
 * tier also has a mix ceiling: a loop with the ceiling loop's AES side
 * unchanged, at the kernel's register count (4 zmm, 8 ymm, 8 xmm), and
 * beside it, per batch, the GHASH instructions the tier's kernel issues
 * per batch in the steady state of its seal loop, counted in the
 * generated assembly (perl asm/x86_64/<file>.pl elf out.S) and in the
 * kernel's arrangement:
 *   vaes_avx512  (aes-gcm-vaes-avx512, .Lseal_loop, 16 blocks in 4 zmm):
 *                18 VPCLMULQDQ zmm (16 products, four per 128-bit lane
 *                and register, no Karatsuba; 2 for the reduction),
 *                7 VPTERNLOGQ, 4 VPXORQ zmm, 4 VPSHUFB zmm (the byte
 *                reflection), 2 VPSHUFD zmm, and the fold of the four
 *                lanes (VEXTRACTI64X4, VEXTRACTI32X4, VPXORQ ymm and xmm):
 *                per block 1.125 multiplies (4.5 128-bit ones) and 1.31
 *                other GHASH instructions;
 *   vaes_avx2    (aes-gcm-vaes-avx2, .Lseal_loop, 16 blocks in 8 ymm):
 *                24 VPCLMULQDQ ymm (Karatsuba, three per register) and
 *                2 xmm (the reduction), 8 VPSHUFB ymm, 8 VPSHUFD ymm and
 *                2 xmm, 30 VPXOR ymm and 9 xmm, 3 VEXTRACTI128, and 8
 *                loads of the blocks hashed: per block 1.625 multiplies
 *                and 3.75 other GHASH instructions;
 *   aesni_avx    (aes-gcm-aesni-avx, .Lseal_loop, 8 blocks in 8 xmm):
 *                26 VPCLMULQDQ (3 per block, Karatsuba, and 2 for the
 *                reduction), 8 VPSHUFB, 10 VPSHUFD, 36 VPXOR, 8 loads:
 *                per block 3.25 multiplies and 6.75 other instructions;
 *   aesni_sse    (aes-gcm-aesni-sse, the same kernel in the legacy SSE
 *                encoding): the same instructions as aesni_avx, plus the
 *                MOVDQAs of the two-operand forms (18 per eight blocks);
 *                its mix loop is aesni_avx's compiled without AVX;
 *   aesni+clmul  (ghash-clmul, .Lblocks_loop8, 8 blocks): 26 PCLMULQDQ,
 *                8 PSHUFB, 10 PSHUFD, 37 PXOR, PSRLDQ and PSLLDQ, 8
 *                loads: per block 3.25 multiplies and 7.125 other
 *                instructions (the tier runs it as a second pass; the mix
 *                loop interleaves it with the rounds, as a fused kernel
 *                would).
 * The AES side is the kernels' too: Nr - 1 VAESENC and one VAESENCLAST
 * a block, and per register the counter's VPADDD, VPSHUFB and the XOR of
 * rk[0]. The kernel's XORs of the plaintext (seal) or ciphertext (open)
 * into the last round key have no counterpart in any loop here. The
 * xmm and ymm mix loops hash blocks loaded from a fixed buffer (where
 * the kernels load the previous batch's ciphertext); the zmm loop hashes
 * its batch's counter blocks (where its kernel hashes the previous
 * batch's ciphertext, kept in registers); no loop loads plaintext, and
 * nothing the AES side computes is hashed. Where the kernel XORs a
 * batch's reduced value into the next batch's first block, the mix loop
 * XORs it into an accumulator (a one-XOR chain from batch to batch),
 * stored to a sink apart from the key stream at the end so that the
 * multiplies are not dead code. The mix ceiling is therefore still an
 * upper bound, not a model: no data loads, no reduction chain from one
 * batch to the next, no tails. The counts above are those of the mix
 * loops' own disassembly (objdump -d, the functions mix_*) with gcc; the
 * compiler adds a few stack spills to the xmm and ymm loops (clang more
 * than gcc) and clang encodes a few XORs and shuffles in their
 * floating-point forms.
 *
 * Cycles, not ticks. The time-stamp counter runs at a fixed rate that is
 * in general not the core clock (boost, power limits, a virtual machine's
 * host). Every round therefore also times a chain of dependent 64-bit
 * register ADDs (one cycle each on every x86_64 core this is used on)
 * against the TSC, giving core cycles per tick for that round; each timed
 * call is converted with its own round's ratio and the medians are taken
 * of cycles. A chain of dependent IMULs (three cycles each) is timed the
 * same way as a check; the output states both, and warns when they
 * disagree by more than 2% (then the ADD chain is not running at one a
 * cycle and the figures are not cycles).
 *
 * Every ceiling and mix loop's key stream is first checked against the
 * aesni backend's ctr32 over zeros, from a counter that wraps inside the
 * run: a loop that did less work than AES-CTR would fail there, and the
 * tool exits with status 1. A mix loop must also have written its sink.
 *
 * The rounds interleave everything (calibration, ceilings, kernels, in
 * that order each round), so all of them see the same machine load.
 * The loops are C with intrinsics, each compiled for its instruction set
 * with a target attribute; their disassembly (objdump -d, the functions
 * ceiling_* and mix_*) is the instruction stream described above.
 *
 * The table gives, per tier and key size, bytes per cycle of the AES
 * loop at 4 and 8 registers, the ceiling (the faster), the mix loop,
 * then seal and open with each as a share of the ceiling (/ceil) and of
 * the mix ceiling (/mix), then the GHASH backend alone.
 */
#include <cpuid.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../crypto/gcm/mode.h"
#include "../crypto/gcm/placement.h"
#include "gcm/gcm.h"

/* The ceiling loops ------------------------------------------------------- */

/* ceiling_fn: key stream for `blocks` blocks (a multiple of the loop's
 * blocks per iteration) from the counter block ctr, with the Nr + 1 round
 * keys at rk (the aesni schedule, 16 bytes each), stored at out. */
typedef void ceiling_fn(const uint8_t *rk, uint8_t *out, size_t blocks,
                        const uint8_t ctr[16]);

/* Reverses bytes 12..15 of a block (and of every 128-bit lane): the
 * counter as a little-endian dword, as the kernels keep it. */
#define CTR_SWAP_BYTES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12

#if defined(__clang__)
#define UNROLL _Pragma("unroll")
#else
#define UNROLL _Pragma("GCC unroll 16")
#endif

/* The body of every xmm loop, n registers and nr rounds (constants after
 * inlining into a wrapper, which fully unrolls both loops). ENC and LAST
 * are the round instructions; the wrappers pick the encoding by their
 * target attribute. Written as a macro so that the same source is
 * compiled once for SSE and once for AVX. */
#define XMM_BODY(n, nr, HASH)                                                 \
  const __m128i swap = _mm_setr_epi8(CTR_SWAP_BYTES);                         \
  const __m128i *k = (const __m128i *)(const void *)rk;                       \
  __m128i base = _mm_shuffle_epi8(_mm_loadu_si128((const void *)ctr), swap);  \
  HASH##_INIT                                                                 \
  for (size_t b = 0; b < blocks; b += (n)) {                                  \
    __m128i x[(n)], c[(n)];                                                   \
    const __m128i k0 = _mm_load_si128(k);                                     \
    UNROLL for (int j = 0; j < (n); j++) {                                    \
      c[j] = _mm_add_epi32(base, _mm_setr_epi32(0, 0, 0, j));                 \
      x[j] = _mm_xor_si128(_mm_shuffle_epi8(c[j], swap), k0);                 \
    }                                                                         \
    base = _mm_add_epi32(base, _mm_setr_epi32(0, 0, 0, (n)));                 \
    HASH##_BEGIN                                                              \
    UNROLL for (int r = 1; r < (nr); r++) {                                   \
      const __m128i kr = _mm_load_si128(k + r);                               \
      HASH##_ROUND(r - 1, n)                                                  \
      UNROLL for (int j = 0; j < (n); j++) x[j] = _mm_aesenc_si128(x[j], kr); \
    }                                                                         \
    const __m128i kl = _mm_load_si128(k + (nr));                              \
    UNROLL for (int j = 0; j < (n); j++) _mm_storeu_si128(                    \
        (void *)(out + 16 * (b + j)), _mm_aesenclast_si128(x[j], kl));        \
  }                                                                           \
  HASH##_FINI

/* ymm: two blocks per register, the counter register holds (c, c + 1). */
#define YMM_BODY(n, nr, HASH)                                                 \
  const __m256i swap = _mm256_setr_epi8(CTR_SWAP_BYTES, CTR_SWAP_BYTES);      \
  const __m128i *k = (const __m128i *)(const void *)rk;                       \
  __m256i base = _mm256_add_epi32(                                            \
      _mm256_shuffle_epi8(                                                    \
          _mm256_broadcastsi128_si256(_mm_loadu_si128((const void *)ctr)),    \
          swap),                                                              \
      _mm256_setr_epi32(0, 0, 0, 0, 0, 0, 0, 1));                             \
  HASH##_INIT                                                                 \
  for (size_t b = 0; b < blocks; b += 2 * (n)) {                              \
    __m256i x[(n)], c[(n)];                                                   \
    const __m256i k0 = _mm256_broadcastsi128_si256(_mm_load_si128(k));       \
    UNROLL for (int j = 0; j < (n); j++) {                                    \
      c[j] = _mm256_add_epi32(                                                \
          base, _mm256_setr_epi32(0, 0, 0, 2 * j, 0, 0, 0, 2 * j));           \
      x[j] = _mm256_xor_si256(_mm256_shuffle_epi8(c[j], swap), k0);           \
    }                                                                         \
    base = _mm256_add_epi32(                                                  \
        base, _mm256_setr_epi32(0, 0, 0, 2 * (n), 0, 0, 0, 2 * (n)));         \
    HASH##_BEGIN                                                              \
    UNROLL for (int r = 1; r < (nr); r++) {                                   \
      const __m256i kr = _mm256_broadcastsi128_si256(_mm_load_si128(k + r));  \
      HASH##_ROUND(r - 1, n)                                                  \
      UNROLL for (int j = 0; j < (n); j++) x[j] =                             \
          _mm256_aesenc_epi128(x[j], kr);                                     \
    }                                                                         \
    const __m256i kl = _mm256_broadcastsi128_si256(_mm_load_si128(k + (nr))); \
    UNROLL for (int j = 0; j < (n); j++) _mm256_storeu_si256(                 \
        (void *)(out + 16 * (b + 2 * j)), _mm256_aesenclast_epi128(x[j], kl));\
  }                                                                           \
  HASH##_FINI

/* zmm: four blocks per register, the counter register holds c .. c + 3. */
#define ZMM_BODY(n, nr, HASH)                                                 \
  const __m512i swap = _mm512_broadcast_i32x4(_mm_setr_epi8(CTR_SWAP_BYTES)); \
  const __m128i *k = (const __m128i *)(const void *)rk;                       \
  __m512i base = _mm512_add_epi32(                                            \
      _mm512_shuffle_epi8(                                                    \
          _mm512_broadcast_i32x4(_mm_loadu_si128((const void *)ctr)), swap),  \
      _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3));     \
  HASH##_INIT                                                                 \
  for (size_t b = 0; b < blocks; b += 4 * (n)) {                              \
    __m512i x[(n)], c[(n)];                                                   \
    const __m512i k0 = _mm512_broadcast_i32x4(_mm_load_si128(k));             \
    UNROLL for (int j = 0; j < (n); j++) {                                    \
      c[j] = _mm512_add_epi32(                                                \
          base, _mm512_broadcast_i32x4(_mm_setr_epi32(0, 0, 0, 4 * j)));      \
      x[j] = _mm512_xor_si512(_mm512_shuffle_epi8(c[j], swap), k0);           \
    }                                                                         \
    base = _mm512_add_epi32(                                                  \
        base, _mm512_broadcast_i32x4(_mm_setr_epi32(0, 0, 0, 4 * (n))));      \
    HASH##_BEGIN                                                              \
    UNROLL for (int r = 1; r < (nr); r++) {                                   \
      const __m512i kr = _mm512_broadcast_i32x4(_mm_load_si128(k + r));       \
      HASH##_ROUND(r - 1, n)                                                  \
      UNROLL for (int j = 0; j < (n); j++) x[j] =                             \
          _mm512_aesenc_epi128(x[j], kr);                                     \
    }                                                                         \
    const __m512i kl = _mm512_broadcast_i32x4(_mm_load_si128(k + (nr)));      \
    UNROLL for (int j = 0; j < (n); j++) _mm512_storeu_si512(                 \
        (void *)(out + 16 * (b + 4 * j)), _mm512_aesenclast_epi128(x[j], kl));\
  }                                                                           \
  HASH##_FINI

#define TARGET_SSE __attribute__((target("aes,ssse3"), noinline))
#define TARGET_VEX __attribute__((target("aes,avx"), noinline))
#define TARGET_YMM __attribute__((target("vaes,avx2"), noinline))
#define TARGET_ZMM                                                            \
  __attribute__((target("vaes,avx512f,avx512bw"), noinline))

/* The ceiling loops hash nothing. */
#define NO_HASH_INIT
#define NO_HASH_BEGIN
#define NO_HASH_ROUND(i, n)
#define NO_HASH_FINI

/* One function per width, register count and round count. */
#define CEILING(width, TARGET, BODY, n, nr)                                   \
  static TARGET void ceiling_##width##_##n##_##nr(                            \
      const uint8_t *rk, uint8_t *out, size_t blocks,                         \
      const uint8_t ctr[16]) {                                                \
    BODY(n, nr, NO_HASH)                                                      \
  }
#define CEILINGS(width, TARGET, BODY)                                         \
  CEILING(width, TARGET, BODY, 4, 10)                                         \
  CEILING(width, TARGET, BODY, 4, 12)                                         \
  CEILING(width, TARGET, BODY, 4, 14)                                         \
  CEILING(width, TARGET, BODY, 8, 10)                                         \
  CEILING(width, TARGET, BODY, 8, 12)                                         \
  CEILING(width, TARGET, BODY, 8, 14)
CEILINGS(sse, TARGET_SSE, XMM_BODY)
CEILINGS(vex, TARGET_VEX, XMM_BODY)
CEILINGS(ymm, TARGET_YMM, YMM_BODY)
CEILINGS(zmm, TARGET_ZMM, ZMM_BODY)

/* [register count 4 or 8][Nr 10, 12, 14] */
#define CEILING_TABLE(width)                                                  \
  {{ceiling_##width##_4_10, ceiling_##width##_4_12, ceiling_##width##_4_14},  \
   {ceiling_##width##_8_10, ceiling_##width##_8_12, ceiling_##width##_8_14}}

/* The mix loops ------------------------------------------------------------ */

/* A mix loop is a ceiling loop (the same body, at the kernel's register
 * count) with the GHASH side of the tier's kernel beside its AES: per
 * batch, the carry-less multiplies, XORs and shuffles that the kernel's
 * steady-state seal loop issues to hash one batch, in the kernel's
 * arrangement and spread over the rounds as the kernel spreads them (see
 * the opening comment for the counts). The AES side is untouched and
 * nothing it computes is hashed: the xmm and ymm loops hash 16-byte
 * blocks loaded from mix_in (where the kernels load the last batch's
 * ciphertext), the zmm loop the batch's counter blocks (where its kernel
 * hashes the last batch's ciphertext, kept in registers). Each batch's
 * reduced value is XORed into an accumulator, where the kernel XORs it
 * into the next batch's first block, so the only chain from batch to
 * batch is that one XOR; the accumulator goes to `sink` at the end,
 * which keeps the multiplies live without touching the key stream. The
 * key powers come from mix_h, read from memory every batch by the xmm
 * and ymm loops (as those kernels do) and kept in four registers by the
 * zmm loop (as its kernel does). */
typedef void mix_fn(const uint8_t *rk, uint8_t *out, size_t blocks,
                    const uint8_t ctr[16], uint8_t sink[64]);

/* 16 key powers and 8 blocks to hash, of up to 32 bytes each: arbitrary
 * values set in main(), so that the compiler cannot fold them. */
static uint64_t mix_h[16 * 4] __attribute__((aligned(64)));
static uint64_t mix_in[8 * 4] __attribute__((aligned(64)));

#define REFLECT_BYTES 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
#define POLY _mm_set_epi64x((long long)0xc200000000000000ull, 1)

/* Opaque copies, made every batch, of the addresses of the key powers
 * and of the blocks: their loads cannot leave the loop. */
#define MIX_POINTERS(type)                                                    \
  const type *hp = (const type *)(const void *)mix_h;                         \
  const type *in = (const type *)(const void *)mix_in;                        \
  __asm__("" : "+r"(hp), "+r"(in));

/* Each product is XORed into its sum where it is made, as in the
 * kernels: without this, compilers reassociate the sums into a tree at
 * the end of the batch and keep every product alive until then, which
 * with 16 registers means spills the kernels do not have. No code. */
#define IN_ORDER(a, b, c) __asm__("" : "+x"(a), "+x"(b), "+x"(c))

/* aesni+clmul: ghash-clmul's eight-block loop (Karatsuba, the middle
 * product split over the halves with byte shifts, then the two-phase
 * reduction), legacy encoding. Block i is hashed in round i + 1, the
 * reduction in round 9. */
#define SSE_HASH_INIT                                                         \
  const __m128i reflect = _mm_setr_epi8(REFLECT_BYTES), poly = POLY;          \
  __m128i acc = _mm_setzero_si128();
#define XMM_HASH_BEGIN                                                        \
  MIX_POINTERS(__m128i)                                                       \
  __m128i lo = _mm_setzero_si128(), hi = lo, mid = lo;
/* One block's three products (Karatsuba) into lo, hi and mid. */
#define XMM_PRODUCTS(i)                                                       \
  {                                                                           \
    const __m128i a = _mm_shuffle_epi8(_mm_load_si128(in + (i)), reflect);    \
    const __m128i m = _mm_xor_si128(_mm_shuffle_epi32(a, 0x4e), a);          \
    const __m128i pl = _mm_clmulepi64_si128(a, hp[(i)], 0x00);                \
    const __m128i ph = _mm_clmulepi64_si128(a, hp[(i)], 0x11);                \
    const __m128i pm = _mm_clmulepi64_si128(m, hp[8 + (i)], 0x00);            \
    lo = (i) == 0 ? pl : _mm_xor_si128(lo, pl);                               \
    hi = (i) == 0 ? ph : _mm_xor_si128(hi, ph);                               \
    mid = (i) == 0 ? pm : _mm_xor_si128(mid, pm);                             \
    IN_ORDER(lo, hi, mid);                                                    \
  }
#define SSE_HASH_BEGIN XMM_HASH_BEGIN
#define SSE_HASH_ROUND(i, n)                                                  \
  if ((i) < (n)) {                                                            \
    XMM_PRODUCTS(i)                                                           \
  } else if ((i) == (n)) {                                                    \
    mid = _mm_xor_si128(_mm_xor_si128(mid, lo), hi);                          \
    hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));                           \
    lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));                           \
    lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e),                           \
                       _mm_clmulepi64_si128(lo, poly, 0x10));                 \
    lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e),                           \
                       _mm_clmulepi64_si128(lo, poly, 0x10));                 \
    acc = _mm_xor_si128(acc, _mm_xor_si128(hi, lo));                          \
  }
#define XMM_HASH_FINI _mm_storeu_si128((void *)sink, acc);
#define SSE_HASH_FINI XMM_HASH_FINI

/* The AVX kernels' reduction of lo, mid, hi (xmm, Karatsuba's middle
 * product not yet corrected) to y: the middle product folded into the
 * two phases. */
#define AVX_REDUCE(lo, mid, hi, y)                                            \
  mid = _mm_xor_si128(_mm_xor_si128(mid, lo), hi);                            \
  {                                                                           \
    const __m128i t1 = _mm_clmulepi64_si128(lo, poly, 0x10);                  \
    mid = _mm_xor_si128(_mm_xor_si128(mid, _mm_shuffle_epi32(lo, 0x4e)), t1); \
    const __m128i t2 = _mm_clmulepi64_si128(mid, poly, 0x10);                 \
    y = _mm_xor_si128(_mm_xor_si128(_mm_shuffle_epi32(mid, 0x4e), hi), t2);   \
  }

/* aesni_avx: its seal loop's eight blocks (Karatsuba, then AVX_REDUCE),
 * VEX encoding. Block i in round i + 1, the reduction in round 9. */
#define VEX_HASH_INIT SSE_HASH_INIT
#define VEX_HASH_BEGIN XMM_HASH_BEGIN
#define VEX_HASH_ROUND(i, n)                                                  \
  if ((i) < (n)) {                                                            \
    XMM_PRODUCTS(i)                                                           \
  } else if ((i) == (n)) {                                                    \
    __m128i y;                                                                \
    AVX_REDUCE(lo, mid, hi, y)                                                \
    acc = _mm_xor_si128(acc, y);                                              \
  }
#define VEX_HASH_FINI XMM_HASH_FINI

/* vaes_avx2: its seal loop's eight ymm registers (Karatsuba per 128-bit
 * lane), the lanes folded with VEXTRACTI128, then AVX_REDUCE. Register i
 * in round i + 1, the fold and reduction in round 9. */
#define YMM_HASH_INIT                                                         \
  const __m256i reflect = _mm256_setr_epi8(REFLECT_BYTES, REFLECT_BYTES);     \
  const __m128i poly = POLY;                                                  \
  __m256i acc = _mm256_setzero_si256();
#define YMM_HASH_BEGIN                                                        \
  MIX_POINTERS(__m256i)                                                       \
  __m256i lo = _mm256_setzero_si256(), hi = lo, mid = lo;
#define FOLD256(v)                                                            \
  _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1))
#define YMM_HASH_ROUND(i, n)                                                  \
  if ((i) < (n)) {                                                            \
    const __m256i a =                                                         \
        _mm256_shuffle_epi8(_mm256_load_si256(in + (i)), reflect);              \
    const __m256i m = _mm256_xor_si256(_mm256_shuffle_epi32(a, 0x4e), a);     \
    const __m256i pm = _mm256_clmulepi64_epi128(m, hp[8 + (i)], 0x10);        \
    const __m256i pl = _mm256_clmulepi64_epi128(a, hp[(i)], 0x00);            \
    const __m256i ph = _mm256_clmulepi64_epi128(a, hp[(i)], 0x11);            \
    lo = (i) == 0 ? pl : _mm256_xor_si256(lo, pl);                            \
    hi = (i) == 0 ? ph : _mm256_xor_si256(hi, ph);                            \
    mid = (i) == 0 ? pm : _mm256_xor_si256(mid, pm);                          \
    IN_ORDER(lo, hi, mid);                                                    \
  } else if ((i) == (n)) {                                                    \
    __m128i lo1 = FOLD256(lo), mid1 = FOLD256(mid), hi1 = FOLD256(hi), y;     \
    AVX_REDUCE(lo1, mid1, hi1, y)                                             \
    acc = _mm256_xor_si256(acc, _mm256_zextsi128_si256(y));                   \
  }
#define YMM_HASH_FINI _mm256_storeu_si256((void *)sink, acc);

/* vaes_avx512: its seal loop's four zmm registers (four products per
 * 128-bit lane, no Karatsuba, combined with VPTERNLOGQ), the reduction
 * per lane, then the lanes folded; spread over rounds 1 to 9 in the
 * kernel's order (AES-128's; the kernel spreads it wider for longer
 * keys). */
#define TERNLOG(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define CLMUL512 _mm512_clmulepi64_epi128
#define ZMM_HASH_INIT                                                         \
  const __m512i reflect =                                                     \
      _mm512_broadcast_i32x4(_mm_setr_epi8(REFLECT_BYTES));                   \
  const __m512i poly = _mm512_broadcast_i32x4(POLY);                          \
  const __m512i *h = (const __m512i *)(const void *)mix_h;                    \
  const __m512i h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3];                   \
  __m512i acc = _mm512_setzero_si512();
#define ZMM_HASH_BEGIN                                                        \
  __m512i a0, a1, a2, a3, lo, mid, hi, p0, p1, p2, t;
#define ZMM_HASH_ROUND(i, n)                                                  \
  if ((i) == 0) {                                                             \
    a0 = _mm512_shuffle_epi8(c[0], reflect);                                  \
    a1 = _mm512_shuffle_epi8(c[1], reflect);                                  \
    a2 = _mm512_shuffle_epi8(c[2], reflect);                                  \
    a3 = _mm512_shuffle_epi8(c[3], reflect);                                  \
    p0 = CLMUL512(a0, h0, 0x00);                                              \
    p1 = CLMUL512(a1, h1, 0x00);                                              \
    p2 = CLMUL512(a2, h2, 0x00);                                              \
  } else if ((i) == 1) {                                                      \
    lo = _mm512_xor_si512(TERNLOG(p0, p1, p2), CLMUL512(a3, h3, 0x00));       \
  } else if ((i) == 2) {                                                      \
    mid = TERNLOG(CLMUL512(a0, h0, 0x01), CLMUL512(a0, h0, 0x10),             \
                  CLMUL512(a1, h1, 0x01));                                    \
  } else if ((i) == 3) {                                                      \
    mid = TERNLOG(mid, CLMUL512(a1, h1, 0x10), CLMUL512(a2, h2, 0x01));       \
  } else if ((i) == 4) {                                                      \
    mid = TERNLOG(mid, CLMUL512(a2, h2, 0x10), CLMUL512(a3, h3, 0x01));       \
    mid = _mm512_xor_si512(mid, CLMUL512(a3, h3, 0x10));                      \
  } else if ((i) == 5) {                                                      \
    t = CLMUL512(lo, poly, 0x10);                                             \
    lo = _mm512_shuffle_epi32(lo, 0x4e);                                      \
    p0 = CLMUL512(a0, h0, 0x11);                                              \
    p1 = CLMUL512(a1, h1, 0x11);                                              \
  } else if ((i) == 6) {                                                      \
    hi = TERNLOG(p0, p1, CLMUL512(a2, h2, 0x11));                             \
    hi = _mm512_xor_si512(hi, CLMUL512(a3, h3, 0x11));                        \
    mid = TERNLOG(mid, lo, t);                                                \
  } else if ((i) == 7) {                                                      \
    t = CLMUL512(mid, poly, 0x10);                                            \
    hi = TERNLOG(hi, _mm512_shuffle_epi32(mid, 0x4e), t);                     \
  } else if ((i) == 8) {                                                      \
    const __m256i y2 = _mm256_xor_si256(_mm512_castsi512_si256(hi),           \
                                        _mm512_extracti64x4_epi64(hi, 1));    \
    acc = _mm512_xor_si512(acc, _mm512_zextsi128_si512(FOLD256(y2)));         \
  }
#define ZMM_HASH_FINI _mm512_storeu_si512((void *)sink, acc);

#define TARGET_SSE_MIX __attribute__((target("aes,pclmul,ssse3"), noinline))
#define TARGET_VEX_MIX __attribute__((target("aes,pclmul,avx"), noinline))
#define TARGET_YMM_MIX                                                        \
  __attribute__((target("vaes,vpclmulqdq,pclmul,avx2"), noinline))
#define TARGET_ZMM_MIX                                                        \
  __attribute__((target("vaes,vpclmulqdq,pclmul,avx512f,avx512bw"), noinline))

/* One function per tier and round count, at the kernel's register count
 * (8 xmm, 8 ymm, 4 zmm). */
#define MIX(width, TARGET, BODY, HASH, n, nr)                                 \
  static TARGET void mix_##width##_##nr(const uint8_t *rk, uint8_t *out,      \
                                        size_t blocks, const uint8_t ctr[16], \
                                        uint8_t sink[64]) {                   \
    BODY(n, nr, HASH)                                                         \
  }
#define MIXES(width, TARGET, BODY, HASH, n)                                   \
  MIX(width, TARGET, BODY, HASH, n, 10)                                       \
  MIX(width, TARGET, BODY, HASH, n, 12)                                       \
  MIX(width, TARGET, BODY, HASH, n, 14)
MIXES(sse, TARGET_SSE_MIX, XMM_BODY, SSE_HASH, 8)
MIXES(vex, TARGET_VEX_MIX, XMM_BODY, VEX_HASH, 8)
MIXES(sse_fused, TARGET_SSE_MIX, XMM_BODY, VEX_HASH, 8)
MIXES(ymm, TARGET_YMM_MIX, YMM_BODY, YMM_HASH, 8)
MIXES(zmm, TARGET_ZMM_MIX, ZMM_BODY, ZMM_HASH, 4)
#define MIX_TABLE(width) {mix_##width##_10, mix_##width##_12, mix_##width##_14}

/* The tiers ---------------------------------------------------------------- */

struct tier {
  const char *name;   /* what --tiers and the output call it */
  const char *aes, *ghash, *fused;  /* the key's backends ("none": 2 passes) */
  const char *width;  /* the ceiling loops' instructions, for the output */
  unsigned lanes;     /* blocks per register */
  ceiling_fn *ceiling[2][3];
  unsigned mix_regs;  /* the kernel's registers in flight, the mix loop's */
  mix_fn *mix[3];
};

static const struct tier tiers[] = {
    {"vaes_avx512", "aesni", "vpclmul_avx2", "vaes_avx512",
     "VAESENC zmm (EVEX)", 4, CEILING_TABLE(zmm), 4, MIX_TABLE(zmm)},
    {"vaes_avx2", "aesni", "vpclmul_avx2", "vaes_avx2", "VAESENC ymm (VEX)",
     2, CEILING_TABLE(ymm), 8, MIX_TABLE(ymm)},
    {"aesni_avx", "aesni", "clmul", "aesni_avx", "VAESENC xmm (VEX)", 1,
     CEILING_TABLE(vex), 8, MIX_TABLE(vex)},
    {"aesni_sse", "aesni", "clmul", "aesni_sse", "AESENC xmm (SSE)", 1,
     CEILING_TABLE(sse), 8, MIX_TABLE(sse_fused)},
    {"aesni+clmul", "aesni", "clmul", "none", "AESENC xmm (SSE)", 1,
     CEILING_TABLE(sse), 8, MIX_TABLE(sse)},
};
#define NTIERS (sizeof(tiers) / sizeof(tiers[0]))

/* The clock ---------------------------------------------------------------- */

#define CHAIN_OPS 100 /* instructions per iteration of a chain */

static inline uint64_t fenced_ticks(void) {
  _mm_lfence();
  const uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
}

/* Ticks for iters * CHAIN_OPS dependent ADDs (one cycle each). The loop's
 * own DEC/JNZ is a separate chain beside it. */
static uint64_t add_chain(uint64_t iters) {
  uint64_t x = 0, one = 1;
  const uint64_t t0 = fenced_ticks();
  __asm__ volatile("1:\n\t.rept 100\n\taddq %2, %0\n\t.endr\n\t"
                   "decq %1\n\tjnz 1b"
                   : "+r"(x), "+r"(iters)
                   : "r"(one)
                   : "cc");
  return fenced_ticks() - t0;
}

/* The same with dependent IMULs (three cycles each). */
static uint64_t imul_chain(uint64_t iters) {
  uint64_t x = 3;
  const uint64_t t0 = fenced_ticks();
  __asm__ volatile("1:\n\t.rept 100\n\timulq %0, %0\n\t.endr\n\t"
                   "decq %1\n\tjnz 1b"
                   : "+r"(x), "+r"(iters)
                   :
                   : "cc");
  return fenced_ticks() - t0;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The q-quantile of n values (sorts v). */
static double quantile(double *v, size_t n, double q) {
  qsort(v, n, sizeof(*v), cmp_double);
  size_t i = (size_t)(q * (double)(n - 1) + 0.5);
  return v[i < n ? i : n - 1];
}

/* The jobs ---------------------------------------------------------------- */

enum job_kind { JOB_CEILING, JOB_MIX, JOB_SEAL, JOB_OPEN, JOB_GHASH };

struct job {
  enum job_kind kind;
  size_t tier, bits_index;
  unsigned regs;            /* JOB_CEILING: 4 or 8 */
  ceiling_fn *ceiling;      /* JOB_CEILING */
  mix_fn *mix;              /* JOB_MIX */
  const struct gcm_key_st *key;
  double *cycles;           /* one per round */
  double median;            /* cycles */
};

static uint8_t *buf;
static size_t size;
static uint8_t mix_sink[64] __attribute__((aligned(64)));
static const uint8_t *rk_of(const struct gcm_key_st *k) {
  return (const uint8_t *)(const void *)gcm_key_aes(k);
}

static void run_job(const struct job *j) {
  static const uint8_t ctr[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 0, 0, 0, 1};
  uint8_t Xi[16] = {0};
  const size_t blocks = size / 16;
  const struct gcm_key_st *k = j->key;
  switch (j->kind) {
    case JOB_CEILING:
      j->ceiling(rk_of(k), buf, blocks, ctr);
      break;
    case JOB_MIX:
      j->mix(rk_of(k), buf, blocks, ctr, mix_sink);
      break;
    case JOB_SEAL:
      if (k->fused != NULL) {
        const struct fused_keys fk = gcm_key_fused_keys(k);
        k->fused->seal(&fk, buf, buf, blocks, ctr, Xi);
      } else { /* the two passes, as crypto/gcm/stream.c's bulk_run */
        k->aes->ctr32(gcm_key_aes(k), buf, buf, blocks, ctr);
        k->ghash->update(Xi, gcm_key_ghash(k), buf, blocks);
      }
      break;
    case JOB_OPEN:
      if (k->fused != NULL) {
        const struct fused_keys fk = gcm_key_fused_keys(k);
        k->fused->open(&fk, buf, buf, blocks, ctr, Xi);
      } else {
        k->ghash->update(Xi, gcm_key_ghash(k), buf, blocks);
        k->aes->ctr32(gcm_key_aes(k), buf, buf, blocks, ctr);
      }
      break;
    case JOB_GHASH:
      k->ghash->update(Xi, gcm_key_ghash(k), buf, blocks);
      break;
  }
}

/* A ceiling loop's (f) or a mix loop's (m) key stream against the aesni
 * backend's ctr32 over zeros, for 512 blocks from a counter 100 blocks
 * before a wrap of its 32-bit word. The mix loop's accumulator goes to
 * its own sink, which must have been written. */
static int ceiling_correct(ceiling_fn *f, mix_fn *m,
                           const struct gcm_key_st *k) {
  static const uint8_t ctr[16] = {0xa0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                  0xff, 0xff, 0xff, 0x9c};
  enum { N = 512 };
  static uint8_t want[16 * N], got[16 * N];
  memset(want, 0, sizeof(want));
  memset(got, 0x5a, sizeof(got));
  gcmi_aes_aesni.ctr32(gcm_key_aes(k), want, want, N, ctr);
  if (f != NULL) {
    f(rk_of(k), got, N, ctr);
  } else {
    static const uint8_t fill[64] = {0x5a};
    memcpy(mix_sink, fill, sizeof(mix_sink));
    m(rk_of(k), got, N, ctr, mix_sink);
    if (memcmp(mix_sink, fill, sizeof(mix_sink)) == 0) return 0;
  }
  return memcmp(want, got, sizeof(want)) == 0;
}

static int parse_bits(const char *v, unsigned bits[3], size_t *nbits) {
  *nbits = 0;
  for (const char *p = v; *p;) {
    char *end;
    unsigned long b = strtoul(p, &end, 10);
    if (end == p || (b != 128 && b != 192 && b != 256) || *nbits == 3)
      return 0;
    bits[(*nbits)++] = (unsigned)b;
    p = *end == ',' ? end + 1 : end;
    if (*end != ',' && *end != '\0') return 0;
  }
  return *nbits > 0;
}

static void print_host(void) {
  unsigned a, b, c, d;
  char brand[49] = "(unknown)";
  if ((unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000004u) {
    for (unsigned i = 0; i < 3; i++) {
      __cpuid(0x80000002u + i, a, b, c, d);
      memcpy(brand + 16 * i, &a, 4);
      memcpy(brand + 16 * i + 4, &b, 4);
      memcpy(brand + 16 * i + 8, &c, 4);
      memcpy(brand + 16 * i + 12, &d, 4);
    }
    brand[48] = '\0';
  }
  __cpuid(1, a, b, c, d);
  unsigned family = (a >> 8) & 15, model = (a >> 4) & 15;
  if (family == 15) family += (a >> 20) & 255;
  if (family == 6 || family >= 15) model += ((a >> 16) & 15) << 4;
  const char *s = brand;
  while (*s == ' ') s++;
  for (size_t n = strlen(brand); n > 0 && brand[n - 1] == ' '; n--)
    brand[n - 1] = '\0';
  printf("host: %s (family %u model %u)\n", s, family, model);
}

static int usage(void) {
  fprintf(stderr,
          "usage: gcm-ceiling [--key-bits 128,256] [--size S] [--rounds R]\n"
          "                   [--tiers vaes_avx512,vaes_avx2,aesni_avx,"
          "aesni_sse,aesni+clmul]\n"
          "  S: a positive multiple of 512 up to 16 MiB (default 16384)\n");
  return 2;
}

int main(int argc, char **argv) {
  unsigned bits[3] = {128, 256};
  size_t nbits = 2, rounds = 301;
  const char *only = NULL;
  size = 16384;
  for (int i = 1; i < argc; i += 2) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (v == NULL) return usage();
    if (strcmp(a, "--key-bits") == 0) {
      if (!parse_bits(v, bits, &nbits)) return usage();
    } else if (strcmp(a, "--size") == 0) {
      size = strtoul(v, NULL, 10);
    } else if (strcmp(a, "--rounds") == 0) {
      rounds = strtoul(v, NULL, 10);
    } else if (strcmp(a, "--tiers") == 0) {
      only = v;
    } else {
      return usage();
    }
  }
  if (size == 0 || size % 512 != 0 || size > (1u << 24) || rounds == 0)
    return usage();

  /* --tiers: which to run (every name must be a tier). */
  int wanted[NTIERS];
  for (size_t t = 0; t < NTIERS; t++) wanted[t] = only == NULL;
  for (const char *p = only; p != NULL && *p != '\0';) {
    const size_t len = strcspn(p, ",");
    size_t t = 0;
    while (t < NTIERS && (strlen(tiers[t].name) != len ||
                          strncmp(tiers[t].name, p, len) != 0))
      t++;
    if (t == NTIERS) return usage();
    wanted[t] = 1;
    p += len + (p[len] == ',');
  }

  for (size_t i = 0; i < sizeof(mix_h) / sizeof(mix_h[0]); i++)
    mix_h[i] = 0x9e3779b97f4a7c15ull * (i + 1);
  for (size_t i = 0; i < sizeof(mix_in) / sizeof(mix_in[0]); i++)
    mix_in[i] = 0xd1b54a32d192ed03ull * (i + 1);
  print_host();
  buf = aligned_alloc(64, size);
  if (buf == NULL) return 1;
  memset(buf, 0, size);

  /* Keys and jobs, tier by tier. */
  static const uint8_t key_bytes[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  gcm_key keys[NTIERS][3];
  int have[NTIERS] = {0};
  struct job jobs[NTIERS * 3 * 6];
  size_t njobs = 0;
  for (size_t t = 0; t < NTIERS; t++) {
    if (!wanted[t]) continue;
    int ok = 1;
    for (size_t b = 0; b < nbits && ok; b++) {
      ok = gcm_key_init_with_fused(&keys[t][b], key_bytes, bits[b] / 8,
                                   tiers[t].aes, tiers[t].ghash,
                                   tiers[t].fused);
      if (!ok) {
        printf("%s: not run here: %s\n", tiers[t].name,
               gcm_last_error_message());
        for (size_t c = 0; c < b; c++) gcm_key_cleanup(&keys[t][c]);
      }
    }
    if (!ok) continue;
    have[t] = 1;
    for (size_t b = 0; b < nbits; b++) {
      const struct gcm_key_st *k = gcm_key_placed(&keys[t][b]);
      const size_t nr = (aes_rounds(gcm_key_aes(k)) - 10) / 2;
      for (unsigned r = 0; r < 2; r++) {
        ceiling_fn *f = tiers[t].ceiling[r][nr];
        if (!ceiling_correct(f, NULL, k)) {
          fprintf(stderr, "gcm-ceiling: the %s ceiling loop (%u registers, "
                  "AES-%u) does not compute AES-CTR\n", tiers[t].name,
                  4 * (r + 1), bits[b]);
          return 1;
        }
        jobs[njobs++] = (struct job){JOB_CEILING, t, b, 4 * (r + 1), f,
                                     NULL, k, NULL, 0};
      }
      mix_fn *m = tiers[t].mix[nr];
      if (!ceiling_correct(NULL, m, k)) {
        fprintf(stderr, "gcm-ceiling: the %s mix loop (AES-%u) does not "
                "compute AES-CTR\n", tiers[t].name, bits[b]);
        return 1;
      }
      jobs[njobs++] = (struct job){JOB_MIX, t, b, tiers[t].mix_regs, NULL, m,
                                   k, NULL, 0};
      jobs[njobs++] = (struct job){JOB_SEAL, t, b, 0, NULL, NULL, k, NULL, 0};
      jobs[njobs++] = (struct job){JOB_OPEN, t, b, 0, NULL, NULL, k, NULL, 0};
      jobs[njobs++] = (struct job){JOB_GHASH, t, b, 0, NULL, NULL, k, NULL,
                                   0};
    }
  }
  if (njobs == 0) {
    printf("no tier to run here\n");
    return 0;
  }
  for (size_t j = 0; j < njobs; j++) {
    jobs[j].cycles = calloc(rounds, sizeof(double));
    if (jobs[j].cycles == NULL) return 1;
  }

  /* The rounds: calibration, then every job, each converted to cycles
   * with its round's ratio. The ADD chain lasts about as long as the
   * longest job. Round 0 warms up. */
  const uint64_t chain_iters = size / 16;
  double *ratio = calloc(rounds, sizeof(double));
  double *imul_ratio = calloc(rounds, sizeof(double));
  if (ratio == NULL || imul_ratio == NULL) return 1;
  for (size_t r = 0; r <= rounds; r++) {
    const uint64_t add = add_chain(chain_iters);
    const uint64_t mul = imul_chain(chain_iters / 3);
    const double cpt = (double)(chain_iters * CHAIN_OPS) / (double)add;
    if (r > 0) {
      ratio[r - 1] = cpt;
      imul_ratio[r - 1] = (double)(3 * (chain_iters / 3) * CHAIN_OPS) /
                          (double)mul;
    }
    for (size_t j = 0; j < njobs; j++) {
      const uint64_t t0 = fenced_ticks();
      run_job(&jobs[j]);
      const uint64_t dt = fenced_ticks() - t0;
      if (r > 0) jobs[j].cycles[r - 1] = (double)dt * cpt;
    }
  }
  /* The TSC's rate, for the statement of the core clock: 20 ms of it
   * against CLOCK_MONOTONIC. */
  const double s0 = now_seconds();
  const uint64_t tsc0 = fenced_ticks();
  double s1;
  while ((s1 = now_seconds()) - s0 < 0.02) {
  }
  const double tsc_hz = (double)(fenced_ticks() - tsc0) / (s1 - s0);
  for (size_t j = 0; j < njobs; j++)
    jobs[j].median = quantile(jobs[j].cycles, rounds, 0.5);

  const double cpt = quantile(ratio, rounds, 0.5);
  const double lo = quantile(ratio, rounds, 0.1), hi = quantile(ratio, rounds, 0.9);
  const double cpt_mul = quantile(imul_ratio, rounds, 0.5);
  printf("clock: %.3f core cycles per TSC tick (median of %zu rounds, "
         "10-90%%: %.3f-%.3f), from a chain of %llu dependent ADDs a round; "
         "TSC %.3f GHz, so the core ran at %.3f GHz\n",
         cpt, rounds, lo, hi,
         (unsigned long long)(chain_iters * CHAIN_OPS), tsc_hz / 1e9,
         cpt * tsc_hz / 1e9);
  printf("check: a chain of dependent IMULs (3 cycles each) gives %.3f "
         "cycles per tick (%+.1f%%)%s\n",
         cpt_mul, 100.0 * (cpt_mul / cpt - 1.0),
         cpt_mul / cpt > 1.02 || cpt_mul / cpt < 0.98
             ? ": WARNING, the two disagree; the figures below are not cycles"
             : "");
  printf("%zu bytes a call, in place; bytes per core cycle (B/c), medians; "
         "ceiling: the faster AES-CTR-only loop; mix: AES-CTR with the "
         "kernel's GHASH instructions beside it\n\n", size);

  printf("%-12s %-7s %6s %6s %7s %6s | %6s %6s %6s | %6s %6s %6s | %6s\n",
         "tier", "key", "4 regs", "8 regs", "ceiling", "mix", "seal", "/ceil",
         "/mix", "open", "/ceil", "/mix", "GHASH");
  for (size_t t = 0; t < NTIERS; t++) {
    if (!have[t]) continue;
    for (size_t b = 0; b < nbits; b++) {
      double c4 = 0, c8 = 0, mix = 0, seal = 0, open = 0, gh = 0;
      for (size_t j = 0; j < njobs; j++) {
        const struct job *x = &jobs[j];
        if (x->tier != t || x->bits_index != b) continue;
        const double bpc = (double)size / x->median;
        if (x->kind == JOB_CEILING) *(x->regs == 4 ? &c4 : &c8) = bpc;
        if (x->kind == JOB_MIX) mix = bpc;
        if (x->kind == JOB_SEAL) seal = bpc;
        if (x->kind == JOB_OPEN) open = bpc;
        if (x->kind == JOB_GHASH) gh = bpc;
      }
      const double ceil = c4 > c8 ? c4 : c8;
      char key[16];
      snprintf(key, sizeof(key), "AES-%u", bits[b]);
      printf("%-12s %-7s %6.3f %6.3f %7.3f %6.3f | %6.3f %5.1f%% %5.1f%% | "
             "%6.3f %5.1f%% %5.1f%% | %6.3f\n",
             tiers[t].name, key, c4, c8, ceil, mix, seal, 100.0 * seal / ceil,
             100.0 * seal / mix, open, 100.0 * open / ceil, 100.0 * open / mix,
             gh);
    }
  }
  printf("\nloops: ");
  for (size_t t = 0, first = 1; t < NTIERS; t++) {
    if (!have[t]) continue;
    printf("%s%s %s, mix at %u registers", first ? "" : "; ", tiers[t].name,
           tiers[t].width, tiers[t].mix_regs);
    first = 0;
  }
  printf("\n(the kernels keep 8 xmm, 8 ymm and 4 zmm registers of blocks in "
         "flight; aesni+clmul is ctr32 and GHASH in two passes; /ceil, /mix: "
         "the kernel as a share of the ceiling and of the mix loop; GHASH: the "
         "tier's GHASH backend alone over the same bytes)\n");

  for (size_t t = 0; t < NTIERS; t++)
    for (size_t b = 0; b < nbits && have[t]; b++) gcm_key_cleanup(&keys[t][b]);
  for (size_t j = 0; j < njobs; j++) free(jobs[j].cycles);
  free(ratio);
  free(imul_ratio);
  free(buf);
  return 0;
}
