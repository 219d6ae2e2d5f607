/*
 * crypto/aes/aes_bitsliced_rounds.h: the bitsliced AES rounds and key
 * schedule shared by the two bitsliced backends, "ct" (crypto/aes/aes_ct.c,
 * 64-bit words, four blocks) and "ct_sse2" (crypto/aes/aes_ct_sse2.c, SSE2
 * registers, eight blocks). Not a backend of its own: it is included, once,
 * by each of those files after they have defined their word type.
 *
 * What the including file provides
 * --------------------------------
 *   typedef ... word;           one bit plane
 *   NBLK                        blocks per word (16 * NBLK bits = one plane)
 *   AES_INLINE                  the forced-inline storage class
 *   w_xor w_and                 bitwise operations on words
 *   w_load w_store              aligned load/store of a word
 *   w_bytes(b)                  the word with every byte equal to b
 *   SWAPMOVE(a, b, m, n)        exchange bits of a at (m << n) with bits of
 *                               b at m (shifts on 64-bit lanes)
 *   rot_rows1 rot_rows2         rows r+1, r+2 into row r in every column
 *   rot_cols(x, n)              column c+n into column c
 *   shift_rows2                 SR^2 on one plane
 *   pack unpack                 NBLK blocks <-> eight planes (they use
 *                               transpose8 below)
 *   pack_counters(q, ctr, c)    the NBLK counter blocks ctr[0..11] ||
 *                               be32(c + b) straight into planes
 *   xor_key_stream(out, in, q, n, ks)
 *                               out = in ^ the first n blocks of the key
 *                               stream planes q (destroys q; ks is a
 *                               BATCH_BYTES scratch buffer it may use)
 * pack, unpack, pack_counters and xor_key_stream use transpose8, so they
 * are defined after the #include; this file declares them.
 *
 * Algorithm
 * ---------
 * Bitslicing (Kasper and Schwabe, CHES 2009) stores the AES state of several
 * blocks as eight "bit planes": plane i holds bit i of every byte of every
 * block. SubBytes then becomes one boolean circuit evaluated on whole words,
 * and ShiftRows/MixColumns become fixed shuffles of bit positions.
 *
 * The word type is the including backend's: NBLK blocks of 128 bits are
 * eight planes of 16*NBLK bits, one `word` each (uint64_t and NBLK = 4 in
 * aes_ct.c, __m128i and NBLK = 8 in aes_ct_sse2.c).
 *
 * Layout of a plane. With a lane of L = 4*NBLK bits per state column,
 *   bit (L*c + NBLK*r + b) of plane i = bit i of state byte (row r, column c)
 *                                     of block b.
 * Since the state byte (r, c) is byte k = 4c + r of the block, this is bit
 * NBLK*k + b: a plain bit-matrix transposition of the blocks (plus, for the
 * uint64_t words, an even/odd byte split first), see each backend's
 * pack(). So a column is one lane (32 or 16 bits) and inside a lane a row
 * is one group of NBLK bits. Rotating the rows of every column is a
 * rotation inside each lane; moving a whole column is a lane shuffle
 * (PSHUFD) or a 64-bit rotation.
 *
 * S-box: the 113-gate circuit of Boyar and Peralta (32 AND, 77 XOR, 4 XNOR;
 * J. Boyar, R. Peralta, "A new combinational logic minimization technique
 * with applications to cryptology", SEA 2010, the circuit reused in their
 * 2011 depth-16 paper). We take it over for its gate count: a bitsliced core
 * is throughput bound, and the depth-16 variant spends 15 more gates. The four
 * XNORs (the S-box's affine constant 0x63) are left out; because MixColumns
 * maps a state of all-0x63 bytes to itself and the row and column
 * permutations keep it too, the constant is XORed into round keys 1..Nr
 * instead, at key set-up.
 *
 * ShiftRows is never executed ("fixslicing", Adomnicai and Peyrin, 2020,
 * adapted here to this layout). After round j the stored state S_j relates
 * to the true state T_j by T_j = SR^j(S_j), where SR^m moves byte
 * (r, c + m*r) to (r, c). Working through one round shows that MixColumns on
 * the true state is, on the stored state,
 *     S_j[r][c] = 2*Y[r][c] ^ 3*Y[r+1][c+j] ^ Y[r+2][c+2j] ^ Y[r+3][c+3j]
 * with Y = SubBytes(S_{j-1}): the usual formula with the "next row" rotation
 * replaced by "next row, j columns further". That costs one lane shuffle more
 * than the plain rotation, where the real ShiftRows costs a masked blend of
 * four shuffles per plane. Round key j is stored pre-permuted as
 * SR^-j(K_j), and after the last round one SR^Nr (the identity for Nr = 12,
 * SR^2 for Nr = 10 and 14) brings the state back.
 *
 * MixColumns per plane with rot = "next row (and j columns)":
 *     t = x ^ rot(x);  out = xtime(t) ^ rot(x) ^ rot^2(t),
 * where xtime on bit planes is a renaming plus three XORs with plane 7.
 *
 * The key schedule (FIPS 197, 5.2) runs SubWord through the same bitsliced
 * circuit, then stores every round key broadcast to all NBLK blocks, already
 * bitsliced, permuted and with 0x63 folded in, so encryption never redoes
 * per-key work.
 *
 * Why it is constant-time
 * -----------------------
 * Every operation on key or data is a bitwise AND/XOR/OR, a shift or
 * shuffle by a constant amount, or a load/store at an address that depends
 * only on public lengths and the round count. There is no table, so no
 * secret-dependent address, and no branch on a secret value. Loops and
 * branches depend only on the number of blocks and the key size.
 */
#ifndef LIBGCM_CRYPTO_AES_AES_BITSLICED_ROUNDS_H
#define LIBGCM_CRYPTO_AES_AES_BITSLICED_ROUNDS_H

#define PLANES_BYTES (8 * sizeof(word))
#define BATCH_BYTES (16 * NBLK)

/* What a key on a bitsliced backend keeps: the round count at its shared
 * place, then from byte 256 on the planes of fifteen round keys (aes.h). */
#define BITSLICED_KEY_BYTES (AES_SCHEDULE_PLANES_OFFSET + 15 * PLANES_BYTES)
_Static_assert(BITSLICED_KEY_BYTES <= AES_SCHEDULE_MAX_BYTES,
               "bitsliced round keys must fit in the largest schedule");
_Static_assert(sizeof(word) * 8 == 16 * 8 * NBLK / 8, "one plane per word");

/* ------------------------------------------------------------------------ */
/* Bit transposition between NBLK blocks of bytes and eight planes.         */

/* An 8x8 bit transposition in every byte position at once: afterwards bit b
 * of byte j of q[i] is what was bit i of byte j of q[b]. Each stage swaps
 * one bit of the row index (the word) with the same bit of the column index
 * (the bit inside the byte). It is its own inverse. */
AES_INLINE void transpose8(word q[8]) {
  const word m1 = w_bytes(0x55), m2 = w_bytes(0x33), m4 = w_bytes(0x0f);
  SWAPMOVE(q[0], q[1], m1, 1);
  SWAPMOVE(q[2], q[3], m1, 1);
  SWAPMOVE(q[4], q[5], m1, 1);
  SWAPMOVE(q[6], q[7], m1, 1);
  SWAPMOVE(q[0], q[2], m2, 2);
  SWAPMOVE(q[1], q[3], m2, 2);
  SWAPMOVE(q[4], q[6], m2, 2);
  SWAPMOVE(q[5], q[7], m2, 2);
  SWAPMOVE(q[0], q[4], m4, 4);
  SWAPMOVE(q[1], q[5], m4, 4);
  SWAPMOVE(q[2], q[6], m4, 4);
  SWAPMOVE(q[3], q[7], m4, 4);
}

/* pack() and unpack(), which differ per word type, are the including
 * file's; the rest of this header is written over them. */
AES_INLINE void pack(word q[8], const uint8_t *in);
AES_INLINE void unpack(uint8_t *out, word q[8]);
AES_INLINE void pack_counters(word q[8], const uint8_t ctr[16], uint32_t c);
AES_INLINE void xor_key_stream(uint8_t *out, const uint8_t *in, word q[8],
                               size_t n, uint8_t ks[BATCH_BYTES]);

/* ------------------------------------------------------------------------ */
/* The round functions.                                                     */

/* SubBytes without its affine constant 0x63 (folded into the round keys).
 * q[7] is the most significant bit (U0/S0 in Boyar-Peralta's names). */
AES_INLINE void sub_bytes(word q[8]) {
  word u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
  word u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];
  word t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14;
  word t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27;
  word m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14;
  word m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27;
  word m28, m29, m30, m31, m32, m33, m34, m35, m36, m37, m38, m39, m40;
  word m41, m42, m43, m44, m45, m46, m47, m48, m49, m50, m51, m52, m53;
  word m54, m55, m56, m57, m58, m59, m60, m61, m62, m63;
  word l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14;
  word l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25, l26, l27;
  word l28, l29;

  /* Top linear layer: 8 inputs to 27 linear forms. */
  t1 = w_xor(u0, u3);
  t2 = w_xor(u0, u5);
  t3 = w_xor(u0, u6);
  t4 = w_xor(u3, u5);
  t5 = w_xor(u4, u6);
  t6 = w_xor(t1, t5);
  t7 = w_xor(u1, u2);
  t8 = w_xor(u7, t6);
  t9 = w_xor(u7, t7);
  t10 = w_xor(t6, t7);
  t11 = w_xor(u1, u5);
  t12 = w_xor(u2, u5);
  t13 = w_xor(t3, t4);
  t14 = w_xor(t6, t11);
  t15 = w_xor(t5, t11);
  t16 = w_xor(t5, t12);
  t17 = w_xor(t9, t16);
  t18 = w_xor(u3, u7);
  t19 = w_xor(t7, t18);
  t20 = w_xor(t1, t19);
  t21 = w_xor(u6, u7);
  t22 = w_xor(t7, t21);
  t23 = w_xor(t2, t22);
  t24 = w_xor(t2, t10);
  t25 = w_xor(t20, t17);
  t26 = w_xor(t3, t16);
  t27 = w_xor(t1, t12);

  /* Middle, non-linear: inversion in GF(2^8) through GF(2^4). */
  m1 = w_and(t13, t6);
  m2 = w_and(t23, t8);
  m3 = w_xor(t14, m1);
  m4 = w_and(t19, u7);
  m5 = w_xor(m4, m1);
  m6 = w_and(t3, t16);
  m7 = w_and(t22, t9);
  m8 = w_xor(t26, m6);
  m9 = w_and(t20, t17);
  m10 = w_xor(m9, m6);
  m11 = w_and(t1, t15);
  m12 = w_and(t4, t27);
  m13 = w_xor(m12, m11);
  m14 = w_and(t2, t10);
  m15 = w_xor(m14, m11);
  m16 = w_xor(m3, m2);
  m17 = w_xor(m5, t24);
  m18 = w_xor(m8, m7);
  m19 = w_xor(m10, m15);
  m20 = w_xor(m16, m13);
  m21 = w_xor(m17, m15);
  m22 = w_xor(m18, m13);
  m23 = w_xor(m19, t25);
  m24 = w_xor(m22, m23);
  m25 = w_and(m22, m20);
  m26 = w_xor(m21, m25);
  m27 = w_xor(m20, m21);
  m28 = w_xor(m23, m25);
  m29 = w_and(m28, m27);
  m30 = w_and(m26, m24);
  m31 = w_and(m20, m23);
  m32 = w_and(m27, m31);
  m33 = w_xor(m27, m25);
  m34 = w_and(m21, m22);
  m35 = w_and(m24, m34);
  m36 = w_xor(m24, m25);
  m37 = w_xor(m21, m29);
  m38 = w_xor(m32, m33);
  m39 = w_xor(m23, m30);
  m40 = w_xor(m35, m36);
  m41 = w_xor(m38, m40);
  m42 = w_xor(m37, m39);
  m43 = w_xor(m37, m38);
  m44 = w_xor(m39, m40);
  m45 = w_xor(m42, m41);
  m46 = w_and(m44, t6);
  m47 = w_and(m40, t8);
  m48 = w_and(m39, u7);
  m49 = w_and(m43, t16);
  m50 = w_and(m38, t9);
  m51 = w_and(m37, t17);
  m52 = w_and(m42, t15);
  m53 = w_and(m45, t27);
  m54 = w_and(m41, t10);
  m55 = w_and(m44, t13);
  m56 = w_and(m40, t23);
  m57 = w_and(m39, t19);
  m58 = w_and(m43, t3);
  m59 = w_and(m38, t22);
  m60 = w_and(m37, t20);
  m61 = w_and(m42, t1);
  m62 = w_and(m45, t4);
  m63 = w_and(m41, t2);

  /* Bottom linear layer (the XNORs of the published circuit are XORs here:
   * the constant 0x63 lives in the round keys). */
  l0 = w_xor(m61, m62);
  l1 = w_xor(m50, m56);
  l2 = w_xor(m46, m48);
  l3 = w_xor(m47, m55);
  l4 = w_xor(m54, m58);
  l5 = w_xor(m49, m61);
  l6 = w_xor(m62, l5);
  l7 = w_xor(m46, l3);
  l8 = w_xor(m51, m59);
  l9 = w_xor(m52, m53);
  l10 = w_xor(m53, l4);
  l11 = w_xor(m60, l2);
  l12 = w_xor(m48, m51);
  l13 = w_xor(m50, l0);
  l14 = w_xor(m52, m61);
  l15 = w_xor(m55, l1);
  l16 = w_xor(m56, l0);
  l17 = w_xor(m57, l1);
  l18 = w_xor(m58, l8);
  l19 = w_xor(m63, l4);
  l20 = w_xor(l0, l1);
  l21 = w_xor(l1, l7);
  l22 = w_xor(l3, l12);
  l23 = w_xor(l18, l2);
  l24 = w_xor(l15, l9);
  l25 = w_xor(l6, l10);
  l26 = w_xor(l7, l9);
  l27 = w_xor(l8, l10);
  l28 = w_xor(l11, l14);
  l29 = w_xor(l11, l17);

  q[7] = w_xor(l6, l24);
  q[6] = w_xor(l16, l26);
  q[5] = w_xor(l19, l28);
  q[4] = w_xor(l6, l21);
  q[3] = w_xor(l20, l22);
  q[2] = w_xor(l25, l29);
  q[1] = w_xor(l13, l27);
  q[0] = w_xor(l6, l23);
}

/* MixColumns of round j (only j mod 4 matters) on the fixsliced state, see
 * the header: "next row" is row r+1 of column c+j. j is a constant after
 * inlining, and everything is written out so the planes stay in registers. */
AES_INLINE void mix_columns(word q[8], unsigned j) {
  word r0 = rot_cols(rot_rows1(q[0]), j), r1 = rot_cols(rot_rows1(q[1]), j);
  word r2 = rot_cols(rot_rows1(q[2]), j), r3 = rot_cols(rot_rows1(q[3]), j);
  word r4 = rot_cols(rot_rows1(q[4]), j), r5 = rot_cols(rot_rows1(q[5]), j);
  word r6 = rot_cols(rot_rows1(q[6]), j), r7 = rot_cols(rot_rows1(q[7]), j);
  word t0 = w_xor(q[0], r0), t1 = w_xor(q[1], r1), t2 = w_xor(q[2], r2);
  word t3 = w_xor(q[3], r3), t4 = w_xor(q[4], r4), t5 = w_xor(q[5], r5);
  word t6 = w_xor(q[6], r6), t7 = w_xor(q[7], r7);
  /* out_i = xtime(t)_i ^ r_i ^ rot^2(t)_i; xtime reduces by x^8 = x^4 +
   * x^3 + x + 1, so t7 feeds planes 0, 1, 3 and 4. */
#define ROT2(x) rot_cols(rot_rows2(x), 2 * j)
  q[0] = w_xor(w_xor(t7, r0), ROT2(t0));
  q[1] = w_xor(w_xor(w_xor(t0, t7), r1), ROT2(t1));
  q[2] = w_xor(w_xor(t1, r2), ROT2(t2));
  q[3] = w_xor(w_xor(w_xor(t2, t7), r3), ROT2(t3));
  q[4] = w_xor(w_xor(w_xor(t3, t7), r4), ROT2(t4));
  q[5] = w_xor(w_xor(t4, r5), ROT2(t5));
  q[6] = w_xor(w_xor(t5, r6), ROT2(t6));
  q[7] = w_xor(w_xor(t6, r7), ROT2(t7));
#undef ROT2
}

AES_INLINE void add_round_key(word q[8], const uint8_t *rk) {
  q[0] = w_xor(q[0], w_load(rk + 0 * sizeof(word)));
  q[1] = w_xor(q[1], w_load(rk + 1 * sizeof(word)));
  q[2] = w_xor(q[2], w_load(rk + 2 * sizeof(word)));
  q[3] = w_xor(q[3], w_load(rk + 3 * sizeof(word)));
  q[4] = w_xor(q[4], w_load(rk + 4 * sizeof(word)));
  q[5] = w_xor(q[5], w_load(rk + 5 * sizeof(word)));
  q[6] = w_xor(q[6], w_load(rk + 6 * sizeof(word)));
  q[7] = w_xor(q[7], w_load(rk + 7 * sizeof(word)));
}

AES_INLINE void round_j(word q[8], const uint8_t *rk, unsigned j) {
  sub_bytes(q);
  mix_columns(q, j);
  add_round_key(q, rk);
}

/* Encrypts the NBLK blocks in io. nr (10, 12, 14) is public. */
static void encrypt_planes(word io[8], const uint8_t *rk, unsigned nr) {
  word q[8];
  q[0] = io[0], q[1] = io[1], q[2] = io[2], q[3] = io[3];
  q[4] = io[4], q[5] = io[5], q[6] = io[6], q[7] = io[7];
  add_round_key(q, rk);
  /* Rounds 1 .. nr-1 with MixColumns; the rotation depends on j mod 4, so
   * the loop body is unrolled four times. nr - 1 is 9, 11 or 13. */
  unsigned j = 1;
  for (;;) {
    round_j(q, rk + PLANES_BYTES * j, 1);
    if (++j == nr) break;
    round_j(q, rk + PLANES_BYTES * j, 2);
    if (++j == nr) break;
    round_j(q, rk + PLANES_BYTES * j, 3);
    if (++j == nr) break;
    round_j(q, rk + PLANES_BYTES * j, 0);
    if (++j == nr) break;
  }
  sub_bytes(q);
  add_round_key(q, rk + PLANES_BYTES * nr);
  if (nr & 2) { /* nr = 10 or 14: undo the pending SR^2 */
    q[0] = shift_rows2(q[0]), q[1] = shift_rows2(q[1]);
    q[2] = shift_rows2(q[2]), q[3] = shift_rows2(q[3]);
    q[4] = shift_rows2(q[4]), q[5] = shift_rows2(q[5]);
    q[6] = shift_rows2(q[6]), q[7] = shift_rows2(q[7]);
  }
  io[0] = q[0], io[1] = q[1], io[2] = q[2], io[3] = q[3];
  io[4] = q[4], io[5] = q[5], io[6] = q[6], io[7] = q[7];
}

/* ------------------------------------------------------------------------ */
/* Key schedule.                                                            */

/* SubWord on 4 bytes, through the bitsliced circuit. */
static void sub_word(uint8_t w[4]) {
  _Alignas(16) uint8_t buf[BATCH_BYTES];
  word q[8];
  memset(buf, 0, sizeof(buf));
  memcpy(buf, w, 4);
  pack(q, buf);
  sub_bytes(q);
  unpack(buf, q);
  for (int i = 0; i < 4; i++) w[i] = (uint8_t)(buf[i] ^ 0x63);
  gcmi_secure_wipe(buf, sizeof(buf));
}

static void bitsliced_set_encrypt_key(struct aes_schedule *s,
                                      const uint8_t *key, size_t key_len) {
  const unsigned nk = (unsigned)(key_len / 4), nr = nk + 6;
  uint8_t w[4 * 4 * 15];
  _Alignas(16) uint8_t buf[BATCH_BYTES];
  uint8_t rcon = 1;
  word q[8];

  memcpy(w, key, key_len);
  for (unsigned i = nk; i < 4 * (nr + 1); i++) {
    uint8_t tmp[4];
    memcpy(tmp, w + 4 * (i - 1), 4);
    if (i % nk == 0) {
      uint8_t t0 = tmp[0];
      tmp[0] = tmp[1];
      tmp[1] = tmp[2];
      tmp[2] = tmp[3];
      tmp[3] = t0;
      sub_word(tmp);
      tmp[0] ^= rcon;
      rcon = (uint8_t)((rcon << 1) ^ (0x1b & -(rcon >> 7)));
    } else if (nk > 6 && i % nk == 4) {
      sub_word(tmp);
    }
    for (int k = 0; k < 4; k++) w[4 * i + k] = w[4 * (i - nk) + k] ^ tmp[k];
  }

  /* Round key j goes in as SR^-j(K_j) (byte (r, c) <- K_j byte
   * (r, c - j*r)), with 0x63 folded in for j >= 1, broadcast to all NBLK
   * blocks and bitsliced. */
  for (unsigned j = 0; j <= nr; j++) {
    uint8_t rk[16];
    for (unsigned c = 0; c < 4; c++) {
      for (unsigned r = 0; r < 4; r++) {
        unsigned from = 4 * ((c + 4 * 4 - (j % 4) * r) % 4) + r;
        rk[4 * c + r] = (uint8_t)(w[16 * j + from] ^ (j ? 0x63 : 0));
      }
    }
    for (int b = 0; b < NBLK; b++) memcpy(buf + 16 * b, rk, 16);
    pack(q, buf);
    for (int i = 0; i < 8; i++) {
      w_store(aes_schedule_planes(s) + PLANES_BYTES * j + i * sizeof(word),
              q[i]);
    }
    gcmi_secure_wipe(rk, sizeof(rk));
  }
  aes_set_rounds(s, nr);
  gcmi_secure_wipe(w, sizeof(w));
  gcmi_secure_wipe(buf, sizeof(buf));
}

/* ------------------------------------------------------------------------ */
/* One block (H, the tag mask; also the known-answer tests).                */

static void bitsliced_encrypt_block(const struct aes_schedule *s,
                                    uint8_t out[16], const uint8_t in[16]) {
  _Alignas(16) uint8_t buf[BATCH_BYTES];
  word q[8];
  memset(buf + 16, 0, sizeof(buf) - 16);
  memcpy(buf, in, 16);
  pack(q, buf);
  encrypt_planes(q, aes_schedule_cplanes(s), aes_rounds(s));
  unpack(buf, q);
  memcpy(out, buf, 16);
  gcmi_secure_wipe(buf, sizeof(buf));
}

/* ------------------------------------------------------------------------ */
/* Counter mode.                                                            */

/* The counter c comes from J0, which for nonces other than 12 bytes is a
 * GHASH of the nonce under the secret H. Without this barrier a compiler
 * may rewrite the loop's exit test `blocks >= NBLK` as a comparison of c
 * with its final value (gcc -m32 does), a branch on a secret-derived value
 * even though its outcome is public; valgrind's ct check reports it. */
#if defined(__GNUC__) || defined(__clang__)
#define OPAQUE(x) __asm__("" : "+r"(x))
#else
#define OPAQUE(x) ((void)0)
#endif

AES_INLINE uint32_t bswap32(uint32_t x) {
  return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
}

/* The ctr32 hook: NBLK counter blocks per pass, then a shorter last pass
 * whose unused key stream is dropped. Addresses and branches depend only on
 * `blocks` and the round count. */
static void bitsliced_ctr32(const struct aes_schedule *s, uint8_t *out,
                            const uint8_t *in, size_t blocks,
                            const uint8_t ctr[16]) {
  _Alignas(16) uint8_t ks[BATCH_BYTES];
  uint32_t c = load_be32(ctr + 12);
  word q[8];
  for (; blocks >= NBLK; blocks -= NBLK) {
    pack_counters(q, ctr, c);
    c += NBLK;
    OPAQUE(c);
    encrypt_planes(q, aes_schedule_cplanes(s), aes_rounds(s));
    xor_key_stream(out, in, q, NBLK, ks);
    in += BATCH_BYTES;
    out += BATCH_BYTES;
  }
  if (blocks > 0) {
    pack_counters(q, ctr, c);
    encrypt_planes(q, aes_schedule_cplanes(s), aes_rounds(s));
    xor_key_stream(out, in, q, blocks, ks);
  }
  gcmi_secure_wipe(ks, sizeof(ks));
}

/* The ctr32le hook (AES-GCM-SIV's counter: little-endian in ctr[0..3]).
 * The NBLK counter blocks of a pass are written to ks and packed from
 * there (pack_counters is made for ctr32's big-endian last word); the
 * rest is ctr32's loop. */
static void bitsliced_ctr32le(const struct aes_schedule *s, uint8_t *out,
                              const uint8_t *in, size_t blocks,
                              const uint8_t ctr[16]) {
  _Alignas(16) uint8_t ks[BATCH_BYTES];
  uint32_t c = load_le32(ctr);
  word q[8];
  while (blocks > 0) {
    const size_t n = blocks < NBLK ? blocks : NBLK;
    for (int b = 0; b < NBLK; b++) {
      memcpy(ks + 16 * b, ctr, 16);
      store_le32(ks + 16 * b, c + (uint32_t)b);
    }
    pack(q, ks);
    c += NBLK;
    OPAQUE(c);
    encrypt_planes(q, aes_schedule_cplanes(s), aes_rounds(s));
    xor_key_stream(out, in, q, n, ks);
    in += 16 * n;
    out += 16 * n;
    blocks -= n;
  }
  gcmi_secure_wipe(ks, sizeof(ks));
}

#endif /* LIBGCM_CRYPTO_AES_AES_BITSLICED_ROUNDS_H */
