#!/usr/bin/env perl
# asm/x86/ghash-sse2-x86.pl: constant-time GHASH with SSE2 only, for 32-bit
# x86, the kernel behind the "sse2" descriptor in crypto/ghash/ghash_sse2.c.
# For CPUs with SSE2 but neither PCLMULQDQ nor SSSE3 (Pentium 4, Pentium M,
# Athlon 64 / Opteron and early VIA cores running 32-bit code).
#
# Usage: perl ghash-sse2-x86.pl FLAVOUR [OUTPUT]  (see asm/perlasm, x86.pm).
#
# Algorithm
# =========
# Values are in the reflected form of the other x86 kernels: a GCM block
# read big-endian as a 128-bit integer, so integer bit n is the
# coefficient of x^(127-n). For such a and h, the carry-less integer
# product a (x) h has bit n = coefficient of x^(254-n) of the polynomial
# product; read as a 256-bit reflected value (bit n for x^(255-n)) it is
# x * a * h. The key therefore holds h = H^k * x^-1 (k = 1, 2) and the
# product needs no shift.
#
# Carry-less multiplication from integer multiplication, "with holes":
# a 32-bit word x is split into four classes x_i = x & (0x11111111 << i).
# An integer product x_i * y_j has its terms only at bit positions of class
# i + j (mod 4), and at most 8 terms meet in one position (8 bits per
# class), so a column's count never reaches 16: its low bit, the parity, is
# exact and the carries land only in the three positions above it, which
# belong to other classes. So the carry-less product is
#     z = sum over k of ( XOR over i of x_i * y_(k-i mod 4) ) & M_k,
# M_k = 0x1111111111111111 << k: 16 integer multiplies per 32x32 product.
# PMULUDQ multiplies the low dwords of both 64-bit lanes, two 32x32 -> 64
# products per instruction; the two lanes carry two different blocks.
#
# Karatsuba, twice: 128 x 128 = three 64 x 64 products (low halves, high
# halves, XOR of the halves), each three 32 x 32 products (low words, high
# words, XOR of the words): 9 products of 16 multiplies, 144 multiplies per
# block; each PMULUDQ does one for both blocks of a pair, so a pair costs
# 144 PMULUDQ. The key holds
# the 9 operand words of each power already split into classes; the data's
# words are split with four PANDs per product.
#
# Aggregated reduction: a pair of blocks X1, X2 is hashed as
#     Y' = (Y ^ X1) * H^2  ^  X2 * H,
# lane 0 computing the first product and lane 1 the second; the two 256-bit
# products are summed (their lanes folded together after each 32 x 32
# product: every later step is linear) and reduced once. A single last
# block runs the same code with lane 0 zero and Y ^ X in lane 1. The
# reduction folds the 128 high-degree bits back with x^128 = x^7 + x^2 +
# x + 1 by shifts on 64-bit lanes (the reflected two-phase fold: first the
# bits that fall off the bottom, x^-1 .. x^-7 of the fold, then the fold
# itself). Aggregating more than two blocks would save only part of this
# reduction, a few percent of the work against the 144 multiplies per
# block, and need a key larger than struct ghash_key.
#
# Key layout (struct ghash_key, written by the C init): for operand o =
# 3*S + t (S = 0: the low 64-bit half, 1: the high half, 2: their XOR; t =
# 0: the low word, 1: the high word, 2: their XOR) and class j, the 16
# bytes at 16 * (4*o + j) hold, in dword 0, that word of H^2 * x^-1 and in
# dword 2 that word of H * x^-1, each ANDed with class j's mask; dwords 1
# and 3 are zero. 576 bytes.
#
# Register plan (cdecl; perlasm/x86.pm loads the arguments in the order
# edi, esi, edx, ecx; constants through the pic= register)
# =====================================================================
#   gcmi_ghash_x86_sse2_blocks(Xi = edi, key = esi, in = edx, blocks = ecx)
#     xmm7          Y, the running hash, reflected
#     xmm0-xmm3     during a 32 x 32 product: the four classes of the data
#                   word; otherwise loading, byte reversal and reduction
#     xmm4          the output class being summed
#     xmm5          one integer product
#     xmm6          the 32 x 32 product being assembled
#     ebx           pic
#   Frame (16-byte aligned, 192 bytes): [esp + 16*S] the three 64-bit
#   operand halves of the two blocks (S = 0, 1, 2, both lanes), [esp + 48 +
#   16*o] the nine folded 32 x 32 products (low qword).
# Any caller alignment works: the frame is aligned by the prologue.
#
# Secrets and constant time
# =========================
# Secret: H (the key), Y and the data. They only flow through PMULUDQ
# (whose latency and throughput do not depend on the operand values on
# any x86 core), PAND/PXOR/POR, PUNPCK*, PSHUF* with constant immediates
# and shifts by constant counts, and through loads and stores at addresses
# that depend only on the pointers, the frame and the unrolled code's
# constants. Branches depend only on the block count. The secret-register
# check in perlasm verifies that no other register reaches an address or a
# branch; the frame is wiped before return.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

my ($Xi, $key, $in, $blocks) = ('edi', 'esi', 'edx', 'ecx');
my $Y = 'xmm7';
my ($acc, $t, $z) = ('xmm4', 'xmm5', 'xmm6');
my $FRAME = 192;
my $V = sub { my ($s) = @_; return "[esp + " . 16 * $s . "]" };
my $P = sub { my ($o) = @_; return "[esp + " . (48 + 16 * $o) . "]" };

# reflect(v, tmp): byte-reverse the 16 bytes of v (GCM order <-> reflected
# integer). PSHUFD reverses the dwords, PSHUFLW/PSHUFHW the words in each
# dword, the shift pair the bytes in each word.
sub reflect {
    my ($v, $tmp) = @_;
    return <<___;
    pshufd    $v, $v, 0x1b
    pshuflw   $v, $v, 0xb1
    pshufhw   $v, $v, 0xb1
    movdqa    $tmp, $v
    psllw     $v, 8
    psrlw     $tmp, 8
    por       $v, $tmp
___
}

# mul32(o): the 32 x 32 products of the data word in the low dword of each
# lane of xmm0 with operand o of the two powers (key entries 4o .. 4o+3),
# folded over the two lanes, stored to slot o. Clobbers xmm0-xmm6.
sub mul32 {
    my ($o) = @_;
    my $s = '';
    $s .= "    movdqa    xmm$_, xmm0\n" for 1 .. 3;
    $s .= "    pand      xmm$_, [.Lclass + " . 16 * $_ . "]\n" for 0 .. 3;
    for my $k (0 .. 3) {
        my $dst = $k == 0 ? $z : $acc;
        for my $i (0 .. 3) {
            my $j = ($k - $i) & 3;
            my $ent = "[$key + " . 16 * (4 * $o + $j) . "]";
            if ($i == 0) {
                $s .= "    movdqa    $dst, xmm0\n";
                $s .= "    pmuludq   $dst, $ent\n";
            } else {
                $s .= "    movdqa    $t, xmm$i\n";
                $s .= "    pmuludq   $t, $ent\n";
                $s .= "    pxor      $dst, $t\n";
            }
        }
        $s .= "    pand      $dst, [.Lclass + " . 16 * $k . "]\n";
        $s .= "    pxor      $z, $acc\n" if $k > 0;
    }
    # Fold lane 1 onto lane 0: the two blocks' products are summed.
    $s .= "    pshufd    $t, $z, 0x4e\n";
    $s .= "    pxor      $z, $t\n";
    $s .= "    movdqa    " . $P->($o) . ", $z\n";
    return $s;
}

# products(): the nine 32 x 32 products of the pair whose 64-bit halves are
# in the frame (V slots), into the P slots.
sub products {
    my $s = '';
    for my $S (0 .. 2) {
        for my $w (0 .. 2) {
            $s .= "    movdqa    xmm0, " . $V->($S) . "\n";
            if ($w == 1) {
                $s .= "    psrlq     xmm0, 32\n";
            } elsif ($w == 2) {
                $s .= "    movdqa    xmm1, xmm0\n";
                $s .= "    psrlq     xmm1, 32\n";
                $s .= "    pxor      xmm0, xmm1\n";
            }
            $s .= mul32(3 * $S + $w);
        }
    }
    return $s;
}

# combine(): Karatsuba recombination of the nine products into the 256-bit
# sum xmm1 (high 128 bits, degrees 0..127) : xmm0 (low 128 bits), then the
# reduction into Y.
sub combine {
    my $s = '';
    # Q_S = P_hi << 64 ^ (P_mid ^ P_lo ^ P_hi) << 32 ^ P_lo, into xmm(S+1)
    # for S = 0, 1, 2 (xmm1..xmm3); temporaries xmm4-xmm6.
    for my $S (0 .. 2) {
        my $q = "xmm" . ($S + 1);
        $s .= "    movq      $q, qword " . $P->(3 * $S) . "\n";
        $s .= "    movq      xmm4, qword " . $P->(3 * $S + 1) . "\n";
        $s .= "    movq      xmm5, qword " . $P->(3 * $S + 2) . "\n";
        $s .= "    pxor      xmm5, $q\n";
        $s .= "    pxor      xmm5, xmm4\n";
        $s .= "    punpcklqdq $q, xmm4\n";
        $s .= "    pslldq    xmm5, 4\n";
        $s .= "    pxor      $q, xmm5\n";
    }
    # R = Q1 << 128 ^ (Q2 ^ Q0 ^ Q1) << 64 ^ Q0 (Q0 = xmm1, Q1 = xmm2, Q2 =
    # xmm3): low half into xmm0, high half into xmm1.
    $s .= <<___;
    pxor      xmm3, xmm1
    pxor      xmm3, xmm2
    movdqa    xmm0, xmm3
    pslldq    xmm0, 8
    pxor      xmm0, xmm1
    psrldq    xmm3, 8
    pxor      xmm2, xmm3
    movdqa    xmm1, xmm2
___
    # Reduction. xmm0 = [X1:X0] holds degrees 128..255 (X0, its low qword,
    # the highest), xmm1 = [X3:X2] degrees 0..127. Phase 1: the bits of X0
    # that the shifts by 1, 2 and 7 push below bit 0 come back as
    # (X0 << 63) ^ (X0 << 62) ^ (X0 << 57) added into X1, giving [D:X0].
    # Phase 2: [D:X0] ^ [D:X0] >> 1 ^ >> 2 ^ >> 7 (128-bit shifts) is
    # added into [X3:X2].
    $s .= <<___;
    movdqa    xmm2, xmm0
    movdqa    xmm3, xmm0
    movdqa    xmm4, xmm0
    psllq     xmm2, 63
    psllq     xmm3, 62
    psllq     xmm4, 57
    pxor      xmm2, xmm3
    pxor      xmm2, xmm4
    pslldq    xmm2, 8
    pxor      xmm0, xmm2
    pxor      xmm1, xmm0
    movdqa    xmm2, xmm0
    movdqa    xmm3, xmm0
    movdqa    xmm4, xmm0
    psrlq     xmm2, 1
    psrlq     xmm3, 2
    psrlq     xmm4, 7
    pxor      xmm1, xmm2
    pxor      xmm1, xmm3
    pxor      xmm1, xmm4
    movdqa    xmm2, xmm0
    movdqa    xmm3, xmm0
    psllq     xmm2, 63
    psllq     xmm3, 62
    psllq     xmm0, 57
    pxor      xmm2, xmm3
    pxor      xmm2, xmm0
    psrldq    xmm2, 8
    pxor      xmm1, xmm2
    movdqa    $Y, xmm1
___
    return $s;
}

my $code = <<___;
.rodata
.align 16
.Lclass:
    .quad 0x1111111111111111, 0x1111111111111111
    .quad 0x2222222222222222, 0x2222222222222222
    .quad 0x4444444444444444, 0x4444444444444444
    .quad 0x8888888888888888, 0x8888888888888888

.text
.function gcmi_ghash_x86_sse2_blocks args=4 frame=$FRAME pic=ebx public=edi,esi,edx,ecx,ebx   # (uint8_t Xi[16], const struct ghash_key *key, const uint8_t *in, size_t blocks)
    test      $blocks, $blocks
    jz        .Lsse2_return
    movdqu    $Y, [$Xi]
@{[ reflect($Y, 'xmm0') ]}
.Lsse2_loop:
    cmp       $blocks, 2
    jb        .Lsse2_single
    # A pair: lane 0 = Y ^ X1 (times H^2), lane 1 = X2 (times H).
    movdqu    xmm1, [$in]
    movdqu    xmm2, [$in + 16]
@{[ reflect('xmm1', 'xmm0') ]}
@{[ reflect('xmm2', 'xmm0') ]}
    pxor      xmm1, $Y
    add       $in, 32
    sub       $blocks, 2
    jmp       .Lsse2_pair
.Lsse2_single:
    # The last block alone: lane 0 = 0, lane 1 = Y ^ X (times H).
    movdqu    xmm2, [$in]
@{[ reflect('xmm2', 'xmm0') ]}
    pxor      xmm2, $Y
    pxor      xmm1, xmm1
    add       $in, 16
    sub       $blocks, 1
.Lsse2_pair:
    # The 64-bit halves of both blocks, lane 0 from xmm1, lane 1 from xmm2:
    # S = 0 the low halves, 1 the high halves, 2 their XOR.
    movdqa    xmm0, xmm1
    punpcklqdq xmm0, xmm2
    punpckhqdq xmm1, xmm2
    movdqa    @{[ $V->(0) ]}, xmm0
    movdqa    @{[ $V->(1) ]}, xmm1
    pxor      xmm0, xmm1
    movdqa    @{[ $V->(2) ]}, xmm0
@{[ products() ]}
@{[ combine() ]}
    test      $blocks, $blocks
    jnz       .Lsse2_loop
@{[ reflect($Y, 'xmm0') ]}
    movdqu    [$Xi], $Y
    # Wipe the frame (secret operand halves and products) and the registers.
    pxor      xmm0, xmm0
@{[ join '', map { "    movdqa    [esp + " . 16 * $_ . "], xmm0\n" } 0 .. $FRAME / 16 - 1 ]}
@{[ join '', map { "    pxor      xmm$_, xmm$_\n" } 1 .. 7 ]}
.Lsse2_return:
.endfunction
___

perlasm::driver::finish('x86', $code);
