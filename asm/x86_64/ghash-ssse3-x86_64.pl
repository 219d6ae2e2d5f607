#!/usr/bin/env perl
# asm/x86_64/ghash-ssse3-x86_64.pl: constant-time GHASH with SSSE3 (PSHUFB),
# the kernel behind the "ssse3" descriptor in crypto/ghash/ghash_ssse3.c.
# For x86_64 CPUs without PCLMULQDQ.
#
# Usage: perl ghash-ssse3-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# Representation. As in the clmul kernel, a block is byte-reversed on load
# (PSHUFB), which makes it the "reflected" 128-bit integer: bit k is the
# coefficient of x^(127-k), so register byte b holds x^(8(15-b)) ..
# x^(8(15-b)+7), with bit 7 of the byte the lowest power. Multiplying by x
# is a right shift by one bit; multiplying by x^8 moves every byte one
# position down. The running hash Y stays in this form between blocks.
#
# Multiplication as table look-ups (Shoup's method, turned sideways). Cut a
# block A (register form) into its 16 bytes; byte k' (k' = 0..15) of the
# register is a_k'(x) * x^(8(15-k')), and a_k' is itself two nibbles:
#     a_k'(x) = hi(x) + x^4 lo(x),
# where a nibble n is read as n(x) with value 8 the coefficient of x^0.
# With two 16-entry tables of multiples of a fixed G,
#     T[n] = n(x) G,     T4[n] = x^4 n(x) G     (reduced, 128 bits each),
# the product is
#     A G = sum_k' x^(8(15-k')) S_k',   S_k' = T[hi_k'] ^ T4[lo_k'].
# The tables are indexed by secret nibbles, so they are not read from
# memory with those nibbles as addresses. Instead init stores them
# transposed: "row" b (b = 0..15) of T holds byte b of T[0], T[1], ...,
# T[15], i.e. row_b[n] = byte b of T[n]; likewise for T4. Then
#     W_b = PSHUFB(rowT_b, HI) ^ PSHUFB(rowT4_b, LO),
# where HI and LO are A's high and low nibbles (one per byte, from
# PSRLW/PAND), has in byte k' exactly byte b of S_k': sixteen look-ups in
# one instruction, from a register, at no secret address.
#
# Placing the bytes. Byte b of S_k' has degree 8(15-b) + 8(15-k') (+0..7).
# In a 256-bit accumulator ACC = ahi:alo whose byte B holds x^(8(31-B)) ..
# (alo bytes B = 0..15, ahi bytes B = 16..31: ahi is an ordinary reflected
# 128-bit value, alo is the part of degree >= 128), that byte belongs at
# B = 1 + b + k'. Horner's rule over b places them all with a one-byte
# shift of the accumulator per row:
#     ACC = 0;  for b = 15 down to 0:  ACC = (ACC << 8) ^ W_b
# (the 256-bit left shift by one byte is PALIGNR ahi, alo, 15 and
# PSLLDQ alo, 1). This leaves W_b at B = b + k', one byte short of 1+b+k',
# i.e. ACC = x^8 * (the product). Rather than spend a last shift on every
# block, init builds the tables from G = H * x^-8 instead of H, so that
# ACC is congruent to A * H itself.
#
# Two blocks per step. With a second pair of tables for H^2 (init computes
# H^2 once), two blocks X1, X2 are hashed at once,
#     Y' = (Y ^ X1) H^2 ^ X2 H,
# and both products are summed into the same accumulator row by row: per
# block, the shifting and the reduction are paid only half as often.
# An odd last block uses the H tables alone.
#
# POLYVAL (RFC 8452) is the same function without the byte reversals, of
# the blocks and of Y: by the RFC's appendix A it computes POLYVAL on a key
# made from the POLYVAL key (crypto/siv/polyval.c), with S itself as the
# running value (ghash.h's polyval_update). A POLYVAL call of at most
# SSSE3_SINGLE_MAX blocks (crypto/ghash/ghash_ssse3.c, read from there)
# hashes them one at a time with the H tables alone, so AES-GCM-SIV's key
# for a short message needs no H^2 tables (init_for). On this machine a
# pair costs about what a single block costs (the chain through the rows
# is the same; the second block's look-ups run beside it), so this trades
# a product per two blocks for the squaring and the second table set-up,
# which wins up to about twelve blocks (ghash_ssse3.c has the figures).
#
# Reduction. ACC = ahi + x^128 V, where V is alo read as an ordinary
# reflected 128-bit value, and x^128 = x^7 + x^2 + x + 1 mod P, so
#     Y = ahi ^ V (1 + x + x^2 + x^7)   mod P.
# V x^s (s = 1, 2, 7) is a 128-bit right shift by s. Done on 64-bit lanes:
# PSRLQ gives the in-lane part, and PSLLQ by 64-s gives the bits that
# leave each lane, C = V<<63 ^ V<<62 ^ V<<57 (lanes). The high lane's
# leavings belong at the top of the low lane (PSRLDQ C, 8). The low lane's
# leavings fall past x^127: they are F x^128 with F = PSLLDQ(C, 8) (bits
# 121..127, reflected, i.e. degree < 7), and fold back once more as
# F (1 + x + x^2 + x^7), which cannot overflow again. Since F only has high
# bits, both are done at once on D = V ^ F:
#     Y = ahi ^ D ^ D>>1 ^ D>>2 ^ D>>7 (lanes) ^ PSRLDQ(C, 8).
#
# Key layout (struct ghash_key, 1024 bytes, written by the C init in
# crypto/ghash/ghash_ssse3.c):
#     [32 b]             row b of T  for G = H   * x^-8
#     [32 b + 16]        row b of T4 for G = H   * x^-8
#     [512 + 32 b]       row b of T  for G = H^2 * x^-8
#     [512 + 32 b + 16]  row b of T4 for G = H^2 * x^-8
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   gcmi_ghash_x86_64_ssse3_blocks(Xi = rdi, key = rsi, in = rdx, blocks = rcx)
#   gcmi_ghash_x86_64_ssse3_polyval(same; xmm10 unused)
#     xmm0          Y, the running hash, reflected
#     xmm1 xmm2     ACC: alo (degree >= 128 part), ahi
#     xmm3 xmm4     HI, LO nibbles of Y ^ X1 (pair) or Y ^ X (single)
#     xmm5 xmm6     HI, LO nibbles of X2 (pair)
#     xmm7 xmm8     look-up temporaries; reduction temporaries with xmm3-6
#     xmm9          0x0f in every byte
#     xmm10         byte-reversal mask for PSHUFB
#     xmm11 xmm12   a second accumulator (alo, ahi) for rows 7..0, which
#                   run as a Horner chain of their own beside rows 15..8
#                   (perlasm/ghash_ssse3_common.pm's multiply)
# On win64 the translator saves and restores xmm6-xmm12, rdi and rsi.
# The instruction sequences are generated by perlasm/ghash_ssse3_common.pm
# (shared with the 32-bit x86 kernel) from these register names.
#
# Secrets and constant time
# =========================
# Secret: H (the tables), Y and the data. They only flow through PSHUFB (as
# the table register and as indices: PSHUFB's timing does not depend on
# either operand), PXOR/PAND, byte shifts and bit shifts by constant counts,
# PALIGNR with a constant immediate. Table rows are loaded from addresses
# that depend only on the key pointer and the row number, a constant of the
# unrolled code. Branches depend only on the block count.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::ghash_ssse3_common;

my %r = (
    Xi => 'rdi', key => 'rsi', in => 'rdx', blocks => 'rcx',
    Y => 'xmm0', alo => 'xmm1', ahi => 'xmm2',
    hi1 => 'xmm3', lo1 => 'xmm4', hi2 => 'xmm5', lo2 => 'xmm6',
    t0 => 'xmm7', t1 => 'xmm8',
    m0f => 'xmm9', bswap => 'xmm10',
    alo2 => 'xmm11', ahi2 => 'xmm12',
);

my $code = perlasm::ghash_ssse3_common::rodata();
for my $f ([ 'blocks', 'ssse3', 0 ], [ 'polyval', 'ssse3_pv', 1 ]) {
    my ($name, $p, $polyval) = @$f;
    my $what = $polyval ? 'POLYVAL (ghash.h polyval_update)' : 'GHASH';
    $code .= <<___;

.text
.function gcmi_ghash_x86_64_ssse3_$name args=4 public=rdi,rsi,rdx,rcx   # (uint8_t Xi[16], const struct ghash_key *key, const uint8_t *in, size_t blocks): $what
    test      $r{blocks}, $r{blocks}
    jz        .L${p}_return
    movdqa    $r{m0f}, [.Llow_nibbles]
___
    $code .= "    movdqa    $r{bswap}, [.Lbswap_mask]\n" if !$polyval;
    $code .= perlasm::ghash_ssse3_common::blocks(\%r, prefix => $p,
        polyval => $polyval);
    $code .= <<___;
.L${p}_return:
.endfunction
___
}

perlasm::driver::finish('x86_64', $code);
