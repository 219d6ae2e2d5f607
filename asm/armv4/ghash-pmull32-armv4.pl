#!/usr/bin/env perl
# asm/armv4/ghash-pmull32-armv4.pl: GHASH with VMULL.P64 (the Armv8
# Cryptographic Extension's PMULL, in AArch32), the kernel behind the
# "pmull32" descriptor in crypto/ghash/ghash_pmull32.c.
#
# Usage: perl ghash-pmull32-armv4.pl FLAVOUR [OUTPUT]  (see asm/perlasm;
# FLAVOUR linux32 for A32 code, linux32-thumb2 for T32).
#
# Algorithm
# =========
# The same mathematics as the aarch64 pmull kernel (its opening comment
# derives it); in short:
#
# Representation. Reversing the 16 bytes of a GCM block (VREV64.8, then
# swapping the d halves) gives a 128-bit integer whose bit n is the
# coefficient of y^n, y = x^-1; the modulus becomes
# g'(y) = y^128 + y^127 + y^126 + y^121 + 1, and a carry-less product of
# two such integers carries an extra factor y^127.
#
# Key. init stores K_k = H^k * y for k = 1..4, so that a product
# R_X * R_{K_k} divided by y^128 (a Montgomery reduction) is the
# representation of X * H^k. K_1 = (R_H << 1) ^ (bit 127 ? fix-up : 0),
# with fix-up = y^128 mod g' = 0xC2000000..00000001, chosen by a mask
# (VSHR.S64 #63), never a branch; K_{k+1} = K_k * K_1 / y^128.
#
# Multiply. 64x64-bit halves with Karatsuba: for A = a1:a0, B = b1:b0,
#     lo = a0 b0, hi = a1 b1 (VMULL.P64 on d registers),
#     mid = (a0 ^ a1)(b0 ^ b1) ^ lo ^ hi,
#     product = hi * 2^128 ^ mid * 2^64 ^ lo.
# The key stores b0 ^ b1 of each K_k, so a block costs three VMULL.P64.
# Four blocks are aggregated per reduction:
#     X' = (X ^ B0) H^4 ^ B1 H^3 ^ B2 H^2 ^ B3 H
# summing lo, hi and mid of the four products and reducing once (sixteen
# q registers hold the four powers, their Karatsuba halves, the running
# sums and the temporaries; eight blocks would not fit).
#
# Reduction (Montgomery modulo g', two 64-bit digits, constant
# c = 0xC2 << 56). For the product [H1:H0:L1:L0] (64-bit words, after
# folding mid into L1 and H0):
#     T  = L0 * c;   L1 ^= T.lo;  L0 ^= T.hi
#     T' = L1 * c;   L0 ^= T'.lo; L1 ^= T'.hi
#     result = [H1:H0] ^ [L1:L0]
# Every step works on d registers, so no lane shuffles are needed.
#
# Key layout (struct ghash_key)
# =============================
#     bytes[16*(k-1)]          R_{K_k}, k = 1..4 (low 64 bits first)
#     bytes[64 + 8*(k-1)]      K_k.lo ^ K_k.hi, k = 1..4
#
# Register plan (AAPCS; the prologue saves the d8-d15 the body touches)
# =====================================================================
#   gcmi_ghash_armv4_pmull32_init(key = r0, H = r1)
#     q0 K_1, q1 K_k, q2-q7 temporaries, d28 the reduction constant,
#     q13 the fix-up constant, q15 zero, r12 constants pointer, r3 counter
#   gcmi_ghash_armv4_pmull32_blocks(Xi = r0, key = r1, in = r2, blocks = r3)
#     q0 the running hash (reflected), q1 the block, d2^d3 in d14,
#     q2/q3/q4 the sums lo/hi/mid, q5/q6/q7 one product's lo/hi/mid,
#     q8-q11 K_1..K_4 (d16-d23), d24-d27 their Karatsuba halves,
#     d28 the reduction constant, r12 constants / key pointer
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# H, its powers, the running hash and the data are secret and only ever in
# NEON registers and memory; they pass through VMULL.P64 (a fixed-latency
# instruction on every core that has it), VEOR, VEXT, VREV64, VSWP, shifts
# and VAND. Addresses come from the argument pointers and the constants
# pointer; branches depend only on the block count. No core register ever
# holds a secret (the check: public= lists every one the kernel uses).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

# d register names of q register $q.
sub lo { my ($q) = @_; $q =~ /^q(\d+)$/ or die; return 'd' . 2 * $1; }
sub hi { my ($q) = @_; $q =~ /^q(\d+)$/ or die; return 'd' . (2 * $1 + 1); }

# Full byte reversal of a 16-byte register (GCM order <-> reflected).
sub reverse16 {
    my ($q) = @_;
    return "    vrev64.8 $q, $q\n    vswp    @{[lo($q)]}, @{[hi($q)]}\n";
}

# [hi:mid:lo] -> fold mid into lo and hi, reduce with the constant in $c
# (a d register), result in $res; $t a temporary q register.
sub fold_reduce {
    my ($res, $l, $h, $m, $c, $t) = @_;
    my ($l0, $l1, $h0, $h1, $m0, $m1, $t0, $t1) =
        (lo($l), hi($l), lo($h), hi($h), lo($m), hi($m), lo($t), hi($t));
    return <<___;
    veor    $m, $m, $l
    veor    $m, $m, $h
    veor    $l1, $l1, $m0
    veor    $h0, $h0, $m1
    vmull.p64 $t, $l0, $c
    veor    $l1, $l1, $t0
    veor    $l0, $l0, $t1
    vmull.p64 $t, $l1, $c
    veor    $l0, $l0, $t0
    veor    $l1, $l1, $t1
    veor    $res, $h, $l
___
}

# [lo, hi, mid] = a (x) b (unreduced); $bk the d register holding
# b.lo ^ b.hi, $ak a d register for a.lo ^ a.hi.
sub product {
    my ($l, $h, $m, $a, $b, $bk, $ak) = @_;
    return <<___;
    vmull.p64 $l, @{[lo($a)]}, @{[lo($b)]}
    vmull.p64 $h, @{[hi($a)]}, @{[hi($b)]}
    veor    $ak, @{[lo($a)]}, @{[hi($a)]}
    vmull.p64 $m, $ak, $bk
___
}

my $code = <<___;
.arch armv8-a
.fpu crypto-neon-fp-armv8

.rodata
.align 16
.Lghash_pmull32_consts:
.quad 0xc200000000000000, 0xc200000000000000   # reduction constant
.quad 0x1, 0xc200000000000000                  # y^128 mod g' (the x^-1 fix-up)

.text
.function gcmi_ghash_armv4_pmull32_init args=2 public=r0,r1,r2,r3,r12
    adrl    r12, .Lghash_pmull32_consts
    vld1.64 {d28-d29}, [r12]!
    vld1.64 {d26-d27}, [r12]
    vmov.i8 q15, 0
    vld1.8  {q0}, [r1]
@{[reverse16('q0')]}
    # K_1 = (R_H << 1) ^ (bit 127 ? fix-up : 0)
    vshr.s64 q2, q0, 63
    vmov    d4, d5
    vand    q2, q2, q13
    vshr.u64 q3, q0, 63
    vext.8  q3, q15, q3, 8
    vshl.i64 q0, q0, 1
    vorr    q0, q0, q3
    veor    q0, q0, q2
    # d30 = K_1.lo ^ K_1.hi, the Karatsuba half of K_1 (the b of every
    # product below).
    veor    d30, d0, d1
    mov     r2, r0
    add     r1, r0, 64
    vst1.8  {q0}, [r2]!
    vst1.64 {d30}, [r1]!
    vmov    q1, q0
    mov     r3, 3
.Linit_loop:
@{[product('q4', 'q5', 'q6', 'q1', 'q0', 'd30', 'd31')]}
@{[fold_reduce('q1', 'q4', 'q5', 'q6', 'd28', 'q7')]}
    vst1.8  {q1}, [r2]!
    veor    d4, d2, d3
    vst1.64 {d4}, [r1]!
    subs    r3, r3, 1
    bne     .Linit_loop
.endfunction

.function gcmi_ghash_armv4_pmull32_blocks args=4 public=r0,r1,r2,r3,r12
    cmp     r3, 0
    beq     .Lblocks_done
    vld1.8  {q0}, [r0]
@{[reverse16('q0')]}
    adrl    r12, .Lghash_pmull32_consts
    vld1.64 {d28}, [r12]
    mov     r12, r1
    vld1.64 {d16-d19}, [r12]!
    vld1.64 {d20-d23}, [r12]!
    vld1.64 {d24-d27}, [r12]

.Lblocks_loop4:
    cmp     r3, 4
    blo     .Lblocks_tail
___
for my $i (0 .. 3) {
    my $k = 4 - $i;                    # this block's power of H
    my $K = 'q' . (7 + $k);            # K_k in q8..q11
    my $KK = 'd' . (23 + $k);          # its Karatsuba half in d24..d27
    $code .= "    vld1.8  {q1}, [r2]!\n" . reverse16('q1');
    $code .= "    veor    q1, q1, q0\n" if $i == 0;
    if ($i == 0) {
        $code .= product('q2', 'q3', 'q4', 'q1', $K, $KK, 'd14');
    } else {
        $code .= product('q5', 'q6', 'q7', 'q1', $K, $KK, 'd2');
        $code .= "    veor    q2, q2, q5\n    veor    q3, q3, q6\n    veor    q4, q4, q7\n";
    }
}
$code .= fold_reduce('q0', 'q2', 'q3', 'q4', 'd28', 'q5');
$code .= <<___;
    sub     r3, r3, 4
    b       .Lblocks_loop4

.Lblocks_tail:
    cmp     r3, 0
    beq     .Lblocks_store
    vld1.8  {q1}, [r2]!
@{[reverse16('q1')]}
    veor    q1, q1, q0
@{[product('q2', 'q3', 'q4', 'q1', 'q8', 'd24', 'd14')]}
@{[fold_reduce('q0', 'q2', 'q3', 'q4', 'd28', 'q5')]}
    sub     r3, r3, 1
    b       .Lblocks_tail
.Lblocks_store:
@{[reverse16('q0')]}
    vst1.8  {q0}, [r0]
.Lblocks_done:
.endfunction
___

perlasm::driver::finish('armv4', $code);
