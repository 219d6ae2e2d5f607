#!/usr/bin/env perl
# asm/aarch64/ghash-neon-aarch64.pl: constant-time GHASH with plain NEON
# (ASIMD), for aarch64 cores without the PMULL 64x64 instruction (the
# Cortex-A72 of the Raspberry Pi 4, the A53 of many boards): the kernel
# behind the "neon" descriptor in crypto/ghash/ghash_neon_aarch64.c.
#
# Usage: perl ghash-neon-aarch64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# Representation, key powers and reduction are those of the pmull kernel
# (asm/aarch64/ghash-pmull-aarch64.pl, whose comment derives them): blocks
# are byte-reversed into the bit-reflected form, the key holds
# K_k = H^k * x^-1 for k = 1..8, eight blocks are aggregated,
#     X' = (X ^ B0) K_n ^ B1 K_(n-1) ^ ... ^ B(n-1) K_1     (n <= 8),
# each 128x128 product is three 64x64 ones (Karatsuba: lo = a0 b0,
# hi = a1 b1, mid = (a0 ^ a1)(b0 ^ b1)) and one Montgomery reduction by the
# constant 0xC2 << 56 ends the batch. What differs is the 64x64 carry-less
# product and the reduction's multiply, both built here from instructions
# every ASIMD core has.
#
# 64x64 from 8x8 (after Camara, Gouvea, Lopez and Dahab, "Fast software
# polynomial multiplication on ARM processors using the NEON engine",
# 2013). PMULL on .8B lanes multiplies the eight byte pairs of two 64-bit
# words, a_k * b_k, into eight 16-bit lanes. With A = sum a_i y^(8i) and
# B = sum b_j y^(8j) (bytes in little-endian order, bit n of byte i the
# coefficient of y^(8i+n)), A B = sum a_i b_j y^(8(i+j)): 64 byte products.
# Let rot_r rotate a word's bytes up by r (byte k takes byte k-r mod 8,
# a 64-bit rotate left by 8r). Then
#     P_r  = PMULL(rot_r A, B)   lane k = a_(k-r) b_k
#     P'_r = PMULL(A, rot_r B)   lane k = a_k b_(k-r)
# and the products with j - i = r (mod 8) sit in P_r, those with
# j - i = -r in P'_r: P_0 (i = j), P_r and P'_r for r = 1, 2, 3 and
# P'_4 (j - i = 4 = -4) hold each of the 64 products exactly once, in 8
# PMULLs. In L_r = P_r ^ P'_r lane k holds terms of degree offset
# 8(2k - r) (k >= r) or, where the index wrapped (k < r), 8(2k - r + 8).
# Lane k sits at bit 16k of the register, so with W the wrapped lanes
# (bits 0 .. 16r-1 of the low word: AND with a mask) and N the others,
#     contribution_r = [L_hi ^ W : L_lo ^ W] >> 8r      (128-bit shift)
# puts every term where it belongs: N and L_hi move down by 8r bits, W up
# by 64 - 8r. That is AND, EOR, EXT (W to the high word), EOR, EXT (the
# shift, against zero): five instructions and an EOR into the sum.
#
# Every step after the PMULLs is GF(2)-linear, and so is the Karatsuba
# combination and the aggregation over blocks. So the kernel does not
# combine per product: it only adds each PMULL's result into one of
# fifteen accumulators S(part, r), part in {lo, hi, mid}, r in 0..4, over
# the whole batch, and runs the combination once per batch. Per block
# that leaves 24 PMULLs (8 for each of lo, hi, mid) and 24 EORs, plus the
# operands: A = [a0 : a1] reflected and rotated by TBL (each 64-bit half
# rotates on its own, so PMULL does a0 against b0 and PMULL2 a1 against
# b1 from one register), M = a0 ^ a1 in both halves (EXT, EOR) rotated by
# TBL. The key side is precomputed per power (crypto/ghash/ghash_neon_aarch64.c):
#     B_r  = [rot_r b0 : rot_r b1]   r = 0..4   (lo with PMULL, hi PMULL2)
#     KX   = [m : rot_1 m], KY = [rot_2 m : rot_3 m], KZ = [rot_4 m : m]
# with m = b0 ^ b1, so that the eight mid products are
#     PMULL(M, KX) -> r0, PMULL2(M, KX) -> r1, PMULL(M, KY) -> r2,
#     PMULL2(M, KY) -> r3, PMULL(M, KZ) -> r4,
#     PMULL2(rot_r M, KZ) -> r (r = 1, 2, 3).
#
# Reduction. The pmull kernel's Montgomery steps multiply a 64-bit word w
# by c = y^63 + y^62 + y^57 (0xC2 << 56); here that 128-bit product is
# shifts: low word (w << 63) ^ (w << 62) ^ (w << 57), high word
# (w >> 1) ^ (w >> 2) ^ (w >> 7) (SHL/USHR on .2D lanes, ZIP1 to pair the
# two words).
#
# Key layout (struct ghash_key, 1024 bytes, written by the C init)
# ================================================================
#     bytes[128 * (8 - k) + 16 * i], i = 0..7: for power K_k, the eight
#     registers B_0 .. B_4, KX, KY, KZ (two little-endian 64-bit words
#     each). K_8 comes first, so a batch of n blocks starts at
#     128 * (8 - n) and walks forward.
#
# Register plan (AAPCS64)
# =======================
#   gcmi_ghash_aarch64_neon_blocks(Xi = x0, key = x1, in = x2, blocks = x3)
#     x4 blocks left in the batch, x5 key pointer, x6 batch size, x7
#     constants pointer
#     v0 A (reflected block), v1-v3 rot_1..3 A, v4 M, v5-v7 rot_1..3 M,
#     v8, v9 key registers (loaded two at a time), v10, v11 products,
#     v12 the running hash in GCM byte order (zero after the batch's first
#     block), v13-v17 S(lo, 0..4), v18-v22 S(hi, 0..4), v23-v27
#     S(mid, 0..4), v28 the byte-reversal index, v29-v31 the rot_1..3
#     indices. v8-v15 are callee-saved: the prologue saves d8-d15.
#     The combination and reduction reuse v0-v11 (masks, zero, temps).
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# H's powers (the key), the running hash and the data are secret. They
# live in SIMD registers and memory only and pass through PMULL/PMULL2 on
# byte lanes (a fixed-latency multiply), TBL with a constant table-register
# pair where the secret is the table and the index is a constant (and
# where the secret is the index, the lookup is inside the register file),
# EOR, AND, EXT, ZIP1 and shifts by constants. Every address comes from the
# argument pointers and the constants pointer moved by constants; every
# branch depends on the block count only. No general-purpose register holds
# a secret: public= lists every one used.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

my @SLO = map { "v$_" } 13 .. 17;
my @SHI = map { "v$_" } 18 .. 22;
my @SMID = map { "v$_" } 23 .. 27;

# acc(S, a, b, hi): S ^= PMULL(2)(a, b) through product register t.
sub acc {
    my ($s, $a, $b, $two, $t) = @_;
    my $mul = $two ? "pmull2  $t.8h, $a.16b, $b.16b" : "pmull   $t.8h, $a.8b, $b.8b";
    return "    $mul\n    eor     $s.16b, $s.16b, $t.16b\n";
}

# One block: the 24 products into the accumulators.
my $block = <<___;
    ld1     {v0.16b}, [x2], 16
    eor     v0.16b, v0.16b, v12.16b
    movi    v12.16b, 0
    tbl     v0.16b, {v0.16b}, v28.16b       # A, reflected
    ext     v4.16b, v0.16b, v0.16b, 8
    tbl     v1.16b, {v0.16b}, v29.16b       # rot_1 A
    eor     v4.16b, v4.16b, v0.16b          # M = [a0 ^ a1 : a0 ^ a1]
    tbl     v2.16b, {v0.16b}, v30.16b       # rot_2 A
    tbl     v3.16b, {v0.16b}, v31.16b       # rot_3 A
    tbl     v5.16b, {v4.16b}, v29.16b       # rot_1 M
    tbl     v6.16b, {v4.16b}, v30.16b       # rot_2 M
    tbl     v7.16b, {v4.16b}, v31.16b       # rot_3 M
    ld1     {v8.16b, v9.16b}, [x5], 32      # B_0, B_1
___
$block .= acc($SLO[0], 'v0', 'v8', 0, 'v10') . acc($SHI[0], 'v0', 'v8', 1, 'v11');
for my $r (1 .. 3) {
    $block .= acc($SLO[$r], "v$r", 'v8', 0, 'v10') . acc($SHI[$r], "v$r", 'v8', 1, 'v11');
}
$block .= acc($SLO[1], 'v0', 'v9', 0, 'v10') . acc($SHI[1], 'v0', 'v9', 1, 'v11');
$block .= "    ld1     {v8.16b, v9.16b}, [x5], 32      # B_2, B_3\n";
$block .= acc($SLO[2], 'v0', 'v8', 0, 'v10') . acc($SHI[2], 'v0', 'v8', 1, 'v11');
$block .= acc($SLO[3], 'v0', 'v9', 0, 'v10') . acc($SHI[3], 'v0', 'v9', 1, 'v11');
$block .= "    ld1     {v8.16b, v9.16b}, [x5], 32      # B_4, KX\n";
$block .= acc($SLO[4], 'v0', 'v8', 0, 'v10') . acc($SHI[4], 'v0', 'v8', 1, 'v11');
$block .= acc($SMID[0], 'v4', 'v9', 0, 'v10') . acc($SMID[1], 'v4', 'v9', 1, 'v11');
$block .= "    ld1     {v8.16b, v9.16b}, [x5], 32      # KY, KZ\n";
$block .= acc($SMID[2], 'v4', 'v8', 0, 'v10') . acc($SMID[3], 'v4', 'v8', 1, 'v11');
$block .= acc($SMID[4], 'v4', 'v9', 0, 'v10');
$block .= acc($SMID[$_], 'v' . (4 + $_), 'v9', 1, 'v11') for 1 .. 3;

# The combination of one part: S_0 ^= sum_r [S_r.hi ^ W : S_r.lo ^ W] >> 8r.
# Masks in v0-v3 (r = 1..4), zero in v4, temporaries v5, v6.
sub combine {
    my @s = @_;
    my $c = '';
    for my $r (1 .. 4) {
        my ($m, $x) = ('v' . ($r - 1), $s[$r]);
        $c .= <<___;
    and     v5.16b, $x.16b, $m.16b          # W: the wrapped lanes
    eor     $x.16b, $x.16b, v5.16b
    ext     v5.16b, v4.16b, v5.16b, 8       # W to the high word
    eor     $x.16b, $x.16b, v5.16b
    ext     $x.16b, $x.16b, v4.16b, $r      # >> 8r
    eor     $s[0].16b, $s[0].16b, $x.16b
___
    }
    return $c;
}

# t = w * (0xC2 << 56) for w the low word of $x, as [hi : lo]; temps a, b.
sub mulc {
    my ($t, $x, $a, $b) = @_;
    return <<___;
    shl     $a.2d, $x.2d, 63
    shl     $b.2d, $x.2d, 62
    eor     $a.16b, $a.16b, $b.16b
    shl     $b.2d, $x.2d, 57
    eor     $a.16b, $a.16b, $b.16b
    ushr    $t.2d, $x.2d, 1
    ushr    $b.2d, $x.2d, 2
    eor     $t.16b, $t.16b, $b.16b
    ushr    $b.2d, $x.2d, 7
    eor     $t.16b, $t.16b, $b.16b
    zip1    $t.2d, $a.2d, $t.2d
___
}

my $zero_acc = join '', map { "    movi    v$_.16b, 0\n" } 13 .. 27;

my $code = <<___;
.rodata
.align 16
.Lghash_neon_consts:
# Byte reversal (GCM order to reflected), then rot_1, rot_2, rot_3 within
# each 64-bit half (byte k takes byte k - r mod 8).
.byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
___
for my $r (1 .. 3) {
    $code .= '.byte ' . join(', ', map { my $h = $_ >> 3; 8 * $h + (($_ - $r) & 7) } 0 .. 15) . "\n";
}
$code .= "# Wrapped-lane masks for r = 1..4: the low 16r bits.\n";
for my $r (1 .. 4) {
    $code .= '.byte ' . join(', ', map { $_ < 2 * $r ? '0xff' : '0' } 0 .. 15) . "\n";
}
$code .= <<___;

.text
.function gcmi_ghash_aarch64_neon_blocks args=4 public=x0,x1,x2,x3,x4,x5,x6,x7
    cbz     x3, .Lneon_done
    adrl    x7, .Lghash_neon_consts
    ld1     {v28.16b-v31.16b}, [x7]
    add     x7, x7, 64
    ld1     {v12.16b}, [x0]
.Lneon_batch:
    mov     x6, 8
    cmp     x3, 8
    csel    x6, x3, x6, lo                  # n = min(blocks, 8)
    mov     x5, 8
    sub     x5, x5, x6
    add     x5, x1, x5, lsl 7               # K_n
    mov     x4, x6
$zero_acc
.Lneon_block:
$block
    subs    x4, x4, 1
    b.ne    .Lneon_block

    # Combine the accumulators, then Karatsuba and the reduction.
    ld1     {v0.16b-v3.16b}, [x7]
    movi    v4.16b, 0
@{[ combine(@SLO) ]}
@{[ combine(@SHI) ]}
@{[ combine(@SMID) ]}
    # lo = v13, hi = v18, mid = v23 (128 bits each); fold mid in.
    eor     v23.16b, v23.16b, v13.16b
    eor     v23.16b, v23.16b, v18.16b
    ext     v5.16b, v4.16b, v23.16b, 8
    eor     v13.16b, v13.16b, v5.16b
    ext     v5.16b, v23.16b, v4.16b, 8
    eor     v18.16b, v18.16b, v5.16b
    # Montgomery reduction of [hi : lo] by y^128 (two 64-bit steps).
@{[ mulc('v5', 'v13', 'v6', 'v7') ]}
    ext     v13.16b, v13.16b, v13.16b, 8
    eor     v13.16b, v13.16b, v5.16b
@{[ mulc('v5', 'v13', 'v6', 'v7') ]}
    ext     v13.16b, v13.16b, v13.16b, 8
    eor     v13.16b, v13.16b, v5.16b
    eor     v13.16b, v13.16b, v18.16b
    tbl     v12.16b, {v13.16b}, v28.16b     # back to GCM byte order
    subs    x3, x3, x6
    b.ne    .Lneon_batch
    st1     {v12.16b}, [x0]
    # Leave no key material, hash or data in the registers.
    movi    v0.16b, 0
    movi    v1.16b, 0
    movi    v2.16b, 0
    movi    v3.16b, 0
    movi    v4.16b, 0
    movi    v5.16b, 0
    movi    v6.16b, 0
    movi    v7.16b, 0
    movi    v8.16b, 0
    movi    v9.16b, 0
    movi    v10.16b, 0
    movi    v11.16b, 0
    movi    v12.16b, 0
$zero_acc
.Lneon_done:
.endfunction
___

perlasm::driver::finish('aarch64', $code);
