#!/usr/bin/env perl
# asm/aarch64/ghash-pmull-aarch64.pl: GHASH with PMULL/PMULL2 (FEAT_PMULL),
# the kernel behind the "pmull" descriptor in crypto/ghash/ghash_pmull.c.
#
# Usage: perl ghash-pmull-aarch64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# Representation. GCM writes an element of GF(2^128) = GF(2)[x]/g,
# g = x^128 + x^7 + x^2 + x + 1, as 16 bytes whose first bit (the top bit
# of byte 0) is the coefficient of x^0. Reversing the 16 bytes (REV64 then
# EXT #8) gives a 128-bit integer R whose bit 127-k is the coefficient of
# x^k: the bit-reflected element. Write y = x^-1 and read R as a polynomial
# in y (bit n is y^n): R_A(y) = y^127 A. In y the modulus becomes
# g'(y) = y^128 + y^127 + y^126 + y^121 + 1 (g times y^128), and a
# carry-less product of two such integers is R_A R_B = y^254 A B.
#
# Key. init stores K_k = H^k * x^-1 = H^k * y for k = 1..8. Then for a
# block X, R_X(y) R_K(y) = y^255 X H^k, and what we want back is
# y^127 X H^k (the representation of X H^k): a division by y^128, i.e. a
# Montgomery reduction modulo g'. K_1 = H * y is one left shift of R_H
# with the bit shifted out folded back: y^128 = y^127 + y^126 + y^121 + 1
# (mod g'), so R_K1 = (R_H << 1) ^ (top bit ? 0xC2000000..00000001 : 0),
# done with a mask (SSHR #63), never a branch. The powers come from the
# same multiply and reduction: R_{K_k} R_{K_1} y^-128 = y^128 H^k y^128 H
# y^-128 = y^128 H^{k+1} = R_{K_{k+1}}.
#
# Multiply. 64x64-bit halves with Karatsuba: for A = a1:a0, B = b1:b0,
#     lo = a0 b0 (PMULL), hi = a1 b1 (PMULL2),
#     mid = (a0 ^ a1)(b0 ^ b1) ^ lo ^ hi,
#     product = hi * 2^128 ^ mid * 2^64 ^ lo.
# The key also stores b0 ^ b1 for each K_k, two per register, so each
# block costs three PMULLs. Eight blocks are aggregated:
#     X' = (X ^ B0) H^8 ^ B1 H^7 ^ ... ^ B7 H
# summing lo, hi and mid of the eight products and reducing once.
#
# Reduction (Montgomery, modulo g', two 64-bit digits). g' = 1 + s (mod
# y^128) with s = y^127 + y^126 + y^121, i.e. 0xC2 << 56 in the upper
# 64-bit word. For the 256-bit product [H1:H0:L1:L0] (64-bit words):
#     T  = L0 * 0xC200000000000000       (PMULL)
#     L1 ^= T.lo;  H0 ^= T.hi ^ L0        (adds L0 * g' * 1: clears L0)
#     T' = L1 * 0xC200000000000000
#     H0 ^= T'.lo; H1 ^= T'.hi ^ L1       (adds L1 * g' * y^64: clears L1)
#     result = [H1:H0]  (degree < 128 by construction: no final step)
# written with EXT #8 (swap the halves of [L1:L0]) and EOR.
#
# Key layout (struct ghash_key)
# =============================
#     bytes[16*(k-1)]          R_{K_k}, k = 1..8 (two little-endian 64-bit
#                              words: low half, high half)
#     bytes[128 + 16*j]        (K_{2j+1}.lo ^ K_{2j+1}.hi,
#                               K_{2j+2}.lo ^ K_{2j+2}.hi), j = 0..3
#     bytes[256 + 16*(k-1)]    R_{K_k} with its halves swapped (high half
#                              first), k = 1..8: the multiplier of a block
#                              reversed by REV64 alone (its halves swapped
#                              too)
#
# Register plan (AAPCS64)
# =======================
#   gcmi_ghash_aarch64_pmull_init(key = x0, H = x1)
#     v0 K_1, v1 K_k, v28 the reduction constant, v29 zero, v30 fix-up
#     constant, v2-v7 temporaries
#   gcmi_ghash_aarch64_pmull_blocks(Xi = x0, key = x1, in = x2, blocks = x3)
#     v0 the running hash (reflected), v1-v8 eight blocks (v8 is
#     callee-saved: the prologue saves d8-d14), v9 lo, v10 hi, v11 mid,
#     v12-v14 temporaries, v16-v23 K_1..K_8, v24-v27 the Karatsuba halves,
#     v28 reduction constant, v29 zero
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# H, its powers, the running hash and the data are secret and only ever in
# SIMD registers and memory; they pass through PMULL/PMULL2 (constant time:
# fixed latency on every core that has them, and in FEAT_DIT's list), EOR,
# EXT, REV64, shifts and AND. Addresses come from the argument pointers and
# the constants pointer; branches depend only on the block count. No
# general-purpose register ever holds a secret (the check: public= lists
# every one the kernel uses).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

# Full byte reversal of a 16-byte register (GCM order <-> reflected).
sub reverse16 {
    my ($v) = @_;
    return "    rev64   $v.16b, $v.16b\n    ext     $v.16b, $v.16b, $v.16b, 8\n";
}

# [hi:mid:lo] -> fold mid into lo and hi, reduce, result in $res.
# c = reduction constant (lane 0), z = zero, t = temporary.
sub fold_reduce {
    my ($res, $lo, $hi, $mid, $c, $z, $t) = @_;
    return <<___;
    eor     $mid.16b, $mid.16b, $lo.16b
    eor     $mid.16b, $mid.16b, $hi.16b
    ext     $t.16b, $z.16b, $mid.16b, 8
    eor     $lo.16b, $lo.16b, $t.16b
    ext     $t.16b, $mid.16b, $z.16b, 8
    eor     $hi.16b, $hi.16b, $t.16b
    pmull   $t.1q, $lo.1d, $c.1d
    ext     $lo.16b, $lo.16b, $lo.16b, 8
    eor     $lo.16b, $lo.16b, $t.16b
    pmull   $t.1q, $lo.1d, $c.1d
    ext     $lo.16b, $lo.16b, $lo.16b, 8
    eor     $lo.16b, $lo.16b, $t.16b
    eor     $res.16b, $hi.16b, $lo.16b
___
}

# res = a (x) b, with bk holding b.lo ^ b.hi in both lanes (or in the lane
# $lane picks: 0 -> PMULL, 1 -> PMULL2 of a register whose lanes are equal).
sub mul {
    my ($res, $a, $b, $bk, $lane, $lo, $hi, $mid, $c, $z, $t) = @_;
    my $kmul = $lane ? "pmull2  $mid.1q, $t.2d, $bk.2d" : "pmull   $mid.1q, $t.1d, $bk.1d";
    return <<___ . fold_reduce($res, $lo, $hi, $mid, $c, $z, $t);
    pmull   $lo.1q, $a.1d, $b.1d
    pmull2  $hi.1q, $a.2d, $b.2d
    ext     $t.16b, $a.16b, $a.16b, 8
    eor     $t.16b, $t.16b, $a.16b
    $kmul
___
}

my $code = <<___;
.rodata
.align 16
.Lghash_pmull_consts:
.quad 0xc200000000000000, 0xc200000000000000   # reduction constant
.quad 0x1, 0xc200000000000000                  # y^128 mod g' (the x^-1 fix-up)

.text
.function gcmi_ghash_aarch64_pmull_init args=2 public=x0,x1,x9,x10,x11
    adrl    x9, .Lghash_pmull_consts
    ld1     {v28.2d, v29.2d}, [x9]
    mov     v30.16b, v29.16b
    movi    v29.16b, 0
    ld1     {v0.16b}, [x1]
@{[reverse16('v0')]}
    # K_1 = (R_H << 1) ^ (bit 127 ? fix-up : 0)
    sshr    v2.2d, v0.2d, 63
    dup     v2.2d, v2.d[1]
    and     v2.16b, v2.16b, v30.16b
    ushr    v3.2d, v0.2d, 63
    ext     v3.16b, v29.16b, v3.16b, 8
    shl     v0.2d, v0.2d, 1
    orr     v0.16b, v0.16b, v3.16b
    eor     v0.16b, v0.16b, v2.16b
    # v31: K_1.lo ^ K_1.hi in both lanes; K_1 with its halves swapped to
    # 256.
    ext     v31.16b, v0.16b, v0.16b, 8
    add     x11, x0, 256
    st1     {v31.16b}, [x11], 16
    eor     v31.16b, v31.16b, v0.16b
    mov     x10, x0
    st1     {v0.16b}, [x10], 16
    mov     v1.16b, v0.16b
    # Each power's Karatsuba half goes to the key as it is made (8 bytes
    # each, so K_{2j+1} and K_{2j+2} share the 16 bytes at 128 + 16 j).
    add     x9, x0, 128
    st1     {v31.d}[0], [x9], 8
    mov     x1, 7
.Linit_loop:
@{[mul('v1', 'v1', 'v0', 'v31', 0, 'v4', 'v5', 'v6', 'v28', 'v29', 'v7')]}
    st1     {v1.16b}, [x10], 16
    ext     v2.16b, v1.16b, v1.16b, 8
    st1     {v2.16b}, [x11], 16
    eor     v2.16b, v2.16b, v1.16b
    st1     {v2.d}[0], [x9], 8
    subs    x1, x1, 1
    b.ne    .Linit_loop
.endfunction

.function gcmi_ghash_aarch64_pmull_blocks args=4 public=x0,x1,x2,x3,x9
    cbz     x3, .Lblocks_done
    ld1     {v0.16b}, [x0]
@{[reverse16('v0')]}
    adrl    x9, .Lghash_pmull_consts
    ld1     {v28.2d}, [x9]
    movi    v29.16b, 0
    mov     x9, x1
    ld1     {v16.2d-v19.2d}, [x9], 64
    ld1     {v20.2d-v23.2d}, [x9], 64
    ld1     {v24.2d-v27.2d}, [x9]

.Lblocks_loop8:
    cmp     x3, 8
    b.lo    .Lblocks_tail
    ld1     {v1.16b-v4.16b}, [x2], 64
    ld1     {v5.16b-v8.16b}, [x2], 64
___
$code .= reverse16("v$_") for 1 .. 8;
$code .= "    eor     v1.16b, v1.16b, v0.16b\n";
for my $i (1 .. 8) {
    my $k = 9 - $i;                     # this block's power of H
    my $K = "v" . (15 + $k);            # K_k in v16..v23
    my $KK = "v" . (24 + int(($k - 1) / 2));
    my $lane = ($k - 1) % 2;
    my ($lo, $hi, $mid) = $i == 1 ? ('v9', 'v10', 'v11') : ('v12', 'v13', 'v14');
    my $t = $i == 1 ? 'v12' : 'v15';
    my $kmul = $lane ? "pmull2  $mid.1q, $t.2d, $KK.2d" : "pmull   $mid.1q, $t.1d, $KK.1d";
    $code .= <<___;
    pmull   $lo.1q, v$i.1d, $K.1d
    pmull2  $hi.1q, v$i.2d, $K.2d
    ext     $t.16b, v$i.16b, v$i.16b, 8
    eor     $t.16b, $t.16b, v$i.16b
    $kmul
___
    $code .= <<___ if $i > 1;
    eor     v9.16b, v9.16b, v12.16b
    eor     v10.16b, v10.16b, v13.16b
    eor     v11.16b, v11.16b, v14.16b
___
}
$code .= fold_reduce('v0', 'v9', 'v10', 'v11', 'v28', 'v29', 'v12');
$code .= <<___;
    sub     x3, x3, 8
    b       .Lblocks_loop8

.Lblocks_tail:
    cbz     x3, .Lblocks_store
    ld1     {v1.16b}, [x2], 16
@{[reverse16('v1')]}
    eor     v1.16b, v1.16b, v0.16b
@{[mul('v0', 'v1', 'v16', 'v24', 0, 'v9', 'v10', 'v11', 'v28', 'v29', 'v12')]}
    sub     x3, x3, 1
    b       .Lblocks_tail
.Lblocks_store:
@{[reverse16('v0')]}
    st1     {v0.16b}, [x0]
.Lblocks_done:
.endfunction
___

perlasm::driver::finish('aarch64', $code);
