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
#   ghash_x86_64_ssse3_blocks(Xi = rdi, key = rsi, in = rdx, blocks = rcx)
#     xmm0          Y, the running hash, reflected
#     xmm1 xmm2     ACC: alo (degree >= 128 part), ahi
#     xmm3 xmm4     HI, LO nibbles of Y ^ X1 (pair) or Y ^ X (single)
#     xmm5 xmm6     HI, LO nibbles of X2 (pair)
#     xmm7 xmm8     look-up temporaries; reduction temporaries with xmm3-6
#     xmm9          0x0f in every byte
#     xmm10         byte-reversal mask for PSHUFB
# On win64 the translator saves and restores xmm6-xmm10, rdi and rsi.
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

my ($Xi, $key, $in, $blocks) = qw(rdi rsi rdx rcx);
my ($Y, $alo, $ahi) = qw(xmm0 xmm1 xmm2);
my ($hi1, $lo1, $hi2, $lo2) = qw(xmm3 xmm4 xmm5 xmm6);
my ($t0, $t1) = qw(xmm7 xmm8);
my ($m0f, $bswap) = qw(xmm9 xmm10);

my $code = <<___;
.rodata
.align 16
.Lbswap_mask:
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Llow_nibbles:
    .byte 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15
___

# nibbles(v, hi, lo): split the bytes of v into hi = v >> 4, lo = v & 15
# (per byte). v is clobbered (it becomes hi when v eq hi).
sub nibbles {
    my ($v, $hi, $lo) = @_;
    my $s = '';
    $s .= "    movdqa    $lo, $v\n";
    $s .= "    psrlw     $v, 4\n";
    $s .= "    pand      $lo, $m0f\n";
    $s .= "    pand      $v, $m0f\n";
    $s .= "    movdqa    $hi, $v\n" if $v ne $hi;
    return $s;
}

# lookups(b, [table offset, HI, LO] ...): W_b summed over the given
# (block, table set) pairs, left in t0.
sub lookups {
    my ($b, @sets) = @_;
    my $s = '';
    my $first = 1;
    for my $set (@sets) {
        my ($off, $hi, $lo) = @$set;
        my $row = $off + 32 * $b;
        if ($first) {
            $s .= "    movdqa    $t0, [$key + $row]\n";
            $s .= "    pshufb    $t0, $hi\n";
            $first = 0;
        } else {
            $s .= "    movdqa    $t1, [$key + $row]\n";
            $s .= "    pshufb    $t1, $hi\n";
            $s .= "    pxor      $t0, $t1\n";
        }
        $s .= "    movdqa    $t1, [$key + " . ($row + 16) . "]\n";
        $s .= "    pshufb    $t1, $lo\n";
        $s .= "    pxor      $t0, $t1\n";
    }
    return $s;
}

# multiply(sets): ACC = sum over rows b = 15..0 of (ACC << 8) ^ W_b.
sub multiply {
    my @sets = @_;
    my $s = lookups(15, @sets);
    $s .= "    movdqa    $alo, $t0                 # row 15\n";
    $s .= "    pxor      $ahi, $ahi\n";
    for (my $b = 14; $b >= 0; $b--) {
        $s .= lookups($b, @sets);
        $s .= "    palignr   $ahi, $alo, 15            # row $b: ACC <<= 8\n";
        $s .= "    pslldq    $alo, 1\n";
        $s .= "    pxor      $alo, $t0\n";
    }
    return $s;
}

# reduce: Y = ahi ^ alo * (1 + x + x^2 + x^7) mod P (see the header).
# Clobbers alo, ahi and xmm3-xmm8.
my $reduce = <<___;
    movdqa    xmm3, $alo                # C = V<<63 ^ V<<62 ^ V<<57 (lanes)
    movdqa    xmm4, $alo
    movdqa    xmm5, $alo
    psllq     xmm3, 63
    psllq     xmm4, 62
    psllq     xmm5, 57
    pxor      xmm3, xmm4
    pxor      xmm3, xmm5
    movdqa    xmm4, xmm3
    pslldq    xmm4, 8                   # F: what fell past x^127
    psrldq    xmm3, 8                   # high lane's carries into the low lane
    pxor      $alo, xmm4                # D = V ^ F
    pxor      $ahi, xmm3
    movdqa    xmm5, $alo
    movdqa    xmm6, $alo
    movdqa    xmm7, $alo
    psrlq     xmm5, 1
    psrlq     xmm6, 2
    psrlq     xmm7, 7
    pxor      $ahi, $alo
    pxor      xmm5, xmm6
    pxor      $ahi, xmm7
    pxor      $ahi, xmm5
    movdqa    $Y, $ahi
___

my $pair = multiply([512, $hi1, $lo1], [0, $hi2, $lo2]);
my $single = multiply([0, $hi1, $lo1]);

$code .= <<___;

.text
.function ghash_x86_64_ssse3_blocks args=4 public=rdi,rsi,rdx,rcx   # (uint8_t Xi[16], const struct ghash_key *key, const uint8_t *in, size_t blocks)
    test      $blocks, $blocks
    jz        .Lssse3_return
    movdqa    $bswap, [.Lbswap_mask]
    movdqa    $m0f, [.Llow_nibbles]
    movdqu    $Y, [$Xi]
    pshufb    $Y, $bswap                # Y, reflected
    cmp       $blocks, 2
    jb        .Lssse3_single
.Lssse3_loop2:                          # Y = (Y ^ X1) H^2 ^ X2 H
    movdqu    $hi1, [$in]
    movdqu    $hi2, [$in + 16]
    pshufb    $hi1, $bswap
    pshufb    $hi2, $bswap
    pxor      $hi1, $Y
@{[ nibbles($hi1, $hi1, $lo1) ]}
@{[ nibbles($hi2, $hi2, $lo2) ]}
$pair
$reduce
    add       $in, 32
    sub       $blocks, 2
    cmp       $blocks, 2
    jae       .Lssse3_loop2
    test      $blocks, $blocks
    jz        .Lssse3_done
.Lssse3_single:                         # Y = (Y ^ X) H
    movdqu    $hi1, [$in]
    pshufb    $hi1, $bswap
    pxor      $hi1, $Y
@{[ nibbles($hi1, $hi1, $lo1) ]}
$single
$reduce
.Lssse3_done:
    pshufb    $Y, $bswap
    movdqu    [$Xi], $Y
.Lssse3_return:
.endfunction
___

perlasm::driver::finish('x86_64', $code);
