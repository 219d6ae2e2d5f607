#!/usr/bin/env perl
# asm/armv4/ghash-neon-armv4.pl: GHASH on plain NEON (ARMv7-A, no crypto
# extension: Cortex-A7/A8/A9/A15), the kernel behind the "neon" descriptor
# in crypto/ghash/ghash_neon_armv4.c. Its 64x64-bit carry-less products are built
# from VMULL.P8 (8 x 8 -> 16-bit polynomial multiplies, eight lanes at once),
# after Camara, Gouvea, Lopez and Dahab, "Fast software polynomial
# multiplication on ARM processors using the NEON engine" (CD-ARES 2013).
#
# Usage: perl ghash-neon-armv4.pl FLAVOUR [OUTPUT]  (see asm/perlasm;
# FLAVOUR linux32 for A32 code, linux32-thumb2 for T32).
#
# Algorithm
# =========
# Field arithmetic, key and aggregation are those of the pmull32 kernel
# (asm/armv4/ghash-pmull32-armv4.pl, whose opening comment derives them):
# bit-reflected blocks, K_k = H^k * x^-1 for k = 1..4 in the key, Karatsuba
# (three 64x64 products a block), four blocks per reduction, a two-step
# Montgomery reduction modulo g'(y) = y^128 + y^127 + y^126 + y^121 + 1.
# Two things differ:
#
# The 64x64 product. With a = sum a_i x^(8i), b = sum b_j x^(8j) (bytes
# a_i, b_j), a b = sum over i, j of a_i b_j x^(8(i+j)). Group the terms by
# the byte offset k = |i - j|:
#   k = 0:  VMULL.P8 a, b puts a_i b_i in lane i, i.e. at x^(16i): done.
#   k = 1, 2, 3: rotate a down by k bytes (VEXT a, a, k: lane m holds
#        a_(m+k mod 8)) and multiply by b; rotate b likewise and multiply
#        by a; the sum L has in lane m < 8-k the pair a_(m+k) b_m +
#        a_m b_(m+k), whose place is x^(16m + 8k), and in the lanes
#        m >= 8-k the pair of offset 8-k, whose place is x^(16m + 8k - 64).
#        So the contribution is (L_lo + L_hi') << 8k with L_hi' the
#        wrapped lanes moved down by 64 bits: with M = the wrapped lanes
#        (the top 2k bytes of L's high half, a VAND with a byte mask),
#        L.hi ^= M, L.lo ^= M, then shift the 128-bit L up by k bytes (VEXT
#        against zero) and add it in. (The XOR into L.lo may overlap other
#        terms: everything is added, so that is the sum we want.)
#   k = 4: one rotation covers both orders (a_(m+4) b_m for m < 4 and
#        a_(m-4) b_m for m >= 4); both halves belong 32 bits up from the
#        low half, so the contribution is (L.lo ^ L.hi) << 32.
# Eight VMULL.P8 per 64x64 product, in place of one VMULL.P64.
#
# The reduction multiplies by c = y^63 + y^62 + y^57 (0xC2 << 56): with
# shifts, L0 * c = (L0 << 63 ^ L0 << 62 ^ L0 << 57) (low 64 bits) and
# (L0 >> 1 ^ L0 >> 2 ^ L0 >> 7) (high 64 bits), 64-bit VSHL/VSHR.
#
# Key layout (struct ghash_key): bytes[16*(k-1)] = R_{K_k}, k = 1..4 (the
# Karatsuba halves b.lo ^ b.hi are recomputed: no register is free to keep
# them).
#
# Register plan (AAPCS; the prologue saves the d8-d15 the body touches)
# =====================================================================
#   gcmi_ghash_armv4_neon_init(key = r0, H = r1)
#   gcmi_ghash_armv4_neon_blocks(Xi = r0, key = r1, in = r2, blocks = r3)
#     q0 the running hash (reflected), q1 the block (then d2 = its
#     Karatsuba operand, d3 the key's), q2/q3/q4 the sums lo/hi/mid,
#     q5/q6/q7 one 128x128 product's lo/hi/mid, q8-q11 K_1..K_4 (in init:
#     q8 K_1, q9 K_k), q12 zero, d26 the rotated operand, d27 the byte mask,
#     q14 one offset's sum L, q15 the other product; r12 key pointer
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# H, its powers, the running hash and the data are secret and only ever in
# NEON registers and memory; they pass through VMULL.P8 (a fixed-latency
# NEON instruction: its timing does not depend on the values), VEOR, VAND,
# VEXT, VREV64, VSWP and shifts. Addresses come from the argument pointers;
# branches depend only on the block count. No core register ever holds a
# secret (the check: public= lists every one the kernel uses).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

sub lo { my ($q) = @_; $q =~ /^q(\d+)$/ or die; return 'd' . 2 * $1; }
sub hi { my ($q) = @_; $q =~ /^q(\d+)$/ or die; return 'd' . (2 * $1 + 1); }

sub reverse16 {
    my ($q) = @_;
    return "    vrev64.8 $q, $q\n    vswp    @{[lo($q)]}, @{[hi($q)]}\n";
}

# $r (q) = $a (d) x $b (d), carry-less 64x64 -> 128. Uses q12 (zero),
# d26, d27, q14, q15.
sub clmul64 {
    my ($r, $a, $b) = @_;
    my %mask = (1 => '0xffff000000000000', 2 => '0xffffffff00000000',
                3 => '0xffffffffffff0000');
    my $c = "    vmull.p8 $r, $a, $b\n";
    for my $k (1 .. 3) {
        $c .= <<___;
    vext.8  d26, $a, $a, $k
    vmull.p8 q14, d26, $b
    vext.8  d26, $b, $b, $k
    vmull.p8 q15, $a, d26
    veor    q14, q14, q15
    vmov.i64 d27, $mask{$k}
    vand    d27, d29, d27
    veor    d29, d29, d27
    veor    d28, d28, d27
    vext.8  q14, q12, q14, @{[16 - $k]}
    veor    $r, $r, q14
___
    }
    $c .= <<___;
    vext.8  d26, $a, $a, 4
    vmull.p8 q14, d26, $b
    veor    d28, d28, d29
    vmov.i64 d29, 0
    vext.8  q14, q12, q14, 12
    veor    $r, $r, q14
___
    return $c;
}

# (t0, t1) = s * c, c = 0xC2 << 56, with shifts; d26 a temporary.
sub mulc {
    my ($t0, $t1, $s) = @_;
    return <<___;
    vshl.i64 $t0, $s, 63
    vshl.i64 d26, $s, 62
    veor    $t0, $t0, d26
    vshl.i64 d26, $s, 57
    veor    $t0, $t0, d26
    vshr.u64 $t1, $s, 1
    vshr.u64 d26, $s, 2
    veor    $t1, $t1, d26
    vshr.u64 d26, $s, 7
    veor    $t1, $t1, d26
___
}

# [hi:mid:lo] -> fold mid, reduce, result in $res (q15 a temporary).
sub fold_reduce {
    my ($res, $l, $h, $m) = @_;
    my ($l0, $l1, $h0, $h1, $m0, $m1) = (lo($l), hi($l), lo($h), hi($h), lo($m), hi($m));
    return <<___ . mulc('d30', 'd31', $l0) . <<___ . mulc('d30', 'd31', $l1) . <<___;
    veor    $m, $m, $l
    veor    $m, $m, $h
    veor    $l1, $l1, $m0
    veor    $h0, $h0, $m1
___
    veor    $l1, $l1, d30
    veor    $l0, $l0, d31
___
    veor    $l0, $l0, d30
    veor    $l1, $l1, d31
    veor    $res, $h, $l
___
}

# [lo, hi, mid] = a (x) b (unreduced); a's Karatsuba operand goes to the
# low half of $a (which is then dead), b's to $bk.
sub product {
    my ($l, $h, $m, $a, $b, $bk) = @_;
    my ($a0, $a1, $b0, $b1) = (lo($a), hi($a), lo($b), hi($b));
    return clmul64($l, $a0, $b0) . clmul64($h, $a1, $b1) . <<___ . clmul64($m, $a0, $bk);
    veor    $a0, $a0, $a1
    veor    $bk, $b0, $b1
___
}

my $code = <<___;
.arch armv7-a
.fpu neon

.rodata
.align 16
.Lghash_neon_fixup:
.quad 0x1, 0xc200000000000000                  # y^128 mod g' (the x^-1 fix-up)

.text
.function gcmi_ghash_armv4_neon_init args=2 public=r0,r1,r2,r3,r12
    adrl    r12, .Lghash_neon_fixup
    vld1.64 {d22-d23}, [r12]
    vmov.i8 q12, 0
    vld1.8  {q8}, [r1]
@{[reverse16('q8')]}
    # K_1 = (R_H << 1) ^ (bit 127 ? fix-up : 0)
    vshr.s64 q2, q8, 63
    vmov    d4, d5
    vand    q2, q2, q11
    vshr.u64 q3, q8, 63
    vext.8  q3, q12, q3, 8
    vshl.i64 q8, q8, 1
    vorr    q8, q8, q3
    veor    q8, q8, q2
    mov     r2, r0
    vst1.8  {q8}, [r2]!
    vmov    q9, q8
    mov     r3, 3
.Linit_loop:
    vmov    q1, q9
@{[product('q5', 'q6', 'q7', 'q1', 'q8', 'd3')]}
@{[fold_reduce('q9', 'q5', 'q6', 'q7')]}
    vst1.8  {q9}, [r2]!
    subs    r3, r3, 1
    bne     .Linit_loop
.endfunction

.function gcmi_ghash_armv4_neon_blocks args=4 public=r0,r1,r2,r3,r12
    cmp     r3, 0
    beq     .Lblocks_done
    vld1.8  {q0}, [r0]
@{[reverse16('q0')]}
    vmov.i8 q12, 0
    mov     r12, r1
    vld1.64 {d16-d19}, [r12]!
    vld1.64 {d20-d23}, [r12]

.Lblocks_loop4:
    cmp     r3, 4
    blo     .Lblocks_tail
___
for my $i (0 .. 3) {
    my $K = 'q' . (7 + 4 - $i);        # K_(4-i) in q8..q11
    $code .= "    vld1.8  {q1}, [r2]!\n" . reverse16('q1');
    $code .= "    veor    q1, q1, q0\n" if $i == 0;
    if ($i == 0) {
        $code .= product('q2', 'q3', 'q4', 'q1', $K, 'd3');
    } else {
        $code .= product('q5', 'q6', 'q7', 'q1', $K, 'd3');
        $code .= "    veor    q2, q2, q5\n    veor    q3, q3, q6\n    veor    q4, q4, q7\n";
    }
}
$code .= fold_reduce('q0', 'q2', 'q3', 'q4');
$code .= <<___;
    sub     r3, r3, 4
    b       .Lblocks_loop4

.Lblocks_tail:
    cmp     r3, 0
    beq     .Lblocks_store
    vld1.8  {q1}, [r2]!
@{[reverse16('q1')]}
    veor    q1, q1, q0
@{[product('q2', 'q3', 'q4', 'q1', 'q8', 'd3')]}
@{[fold_reduce('q0', 'q2', 'q3', 'q4')]}
    sub     r3, r3, 1
    b       .Lblocks_tail
.Lblocks_store:
@{[reverse16('q0')]}
    vst1.8  {q0}, [r0]
.Lblocks_done:
.endfunction
___

perlasm::driver::finish('armv4', $code);
