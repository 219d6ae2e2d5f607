#!/usr/bin/env perl
# asm/x86/ghash-ssse3-x86.pl: constant-time GHASH with SSSE3 (PSHUFB) for
# 32-bit x86, the kernel behind the "ssse3" descriptor in
# crypto/ghash/ghash_ssse3.c. For CPUs without PCLMULQDQ.
#
# Usage: perl ghash-ssse3-x86.pl FLAVOUR [OUTPUT]  (see asm/perlasm, x86.pm).
#
# Algorithm
# =========
# The same as asm/x86_64/ghash-ssse3-x86_64.pl, whose opening comment
# derives it: Shoup's 4-bit tables of multiples of G = H * x^-8 (and of
# H^2 * x^-8), stored transposed by the C init so that one PSHUFB with the
# secret nibbles as indices reads sixteen table entries from a register;
# row by row (Horner over the 16 byte positions, PALIGNR/PSLLDQ by one
# byte) the products of two blocks, (Y ^ X1) H^2 and X2 H, are summed into
# one 256-bit accumulator; one reduction per pair folds the part of degree
# >= 128 back with x^128 = x^7 + x^2 + x + 1 (shifts on 64-bit lanes).
#
# What differs on 32-bit x86 is the register file: eight xmm registers
# instead of the eleven the x86_64 kernel keeps live. The byte-reversal
# mask and the 0x0f nibble mask become memory operands (aligned constants,
# L1 loads), and during the multiplication the running hash register
# (xmm0), dead once Y has been folded into the first block, serves as the
# second look-up temporary.
#
# Key layout (struct ghash_key, 1024 bytes, written by the C init; the same
# as on x86_64, so one descriptor file serves both):
#     [32 b]             row b of T  for G = H   * x^-8
#     [32 b + 16]        row b of T4 for G = H   * x^-8
#     [512 + 32 b]       row b of T  for G = H^2 * x^-8
#     [512 + 32 b + 16]  row b of T4 for G = H^2 * x^-8
#
# Register plan (cdecl; perlasm/x86.pm loads the arguments in the order
# edi, esi, edx, ecx; constants through the pic= register)
# =====================================================================
#   ghash_x86_ssse3_blocks(Xi = edi, key = esi, in = edx, blocks = ecx)
#     xmm0          Y, the running hash, reflected; during a product the
#                   second look-up temporary
#     xmm1 xmm2     ACC: alo (degree >= 128 part), ahi
#     xmm3 xmm4     HI, LO nibbles of Y ^ X1 (pair) or Y ^ X (single)
#     xmm5 xmm6     HI, LO nibbles of X2 (pair)
#     xmm7          first look-up temporary; reduction temporaries xmm3-7
#     ebx           pic
# No stack frame: any caller alignment works (cdecl promises 4 bytes).
#
# Secrets and constant time
# =========================
# Secret: H (the tables), Y and the data. They only flow through PSHUFB (as
# the table register and as indices: PSHUFB's timing does not depend on
# either operand), PXOR/PAND, byte shifts and bit shifts by constant counts,
# PALIGNR with a constant immediate. Table rows are loaded from addresses
# that depend only on the key pointer and the row number, a constant of the
# unrolled code. Branches depend only on the block count; the
# secret-register check in perlasm verifies that no other register reaches
# an address or a branch.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

my ($Xi, $key, $in, $blocks) = qw(edi esi edx ecx);
my ($Y, $alo, $ahi) = qw(xmm0 xmm1 xmm2);
my ($hi1, $lo1, $hi2, $lo2) = qw(xmm3 xmm4 xmm5 xmm6);
my ($t0, $t1) = qw(xmm7 xmm0);          # t1 is Y's register: Y is dead during a product
my ($m0f, $bswap) = ('[.Llow_nibbles]', '[.Lbswap_mask]');

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
# Clobbers alo, ahi and xmm3-xmm7.
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
.function ghash_x86_ssse3_blocks args=4 pic=ebx public=edi,esi,edx,ecx,ebx   # (uint8_t Xi[16], const struct ghash_key *key, const uint8_t *in, size_t blocks)
    test      $blocks, $blocks
    jz        .Lssse3_return
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
@{[ join '', map { "    pxor      xmm$_, xmm$_\n" } 0 .. 7 ]}
.Lssse3_return:
.endfunction
___

perlasm::driver::finish('x86', $code);
