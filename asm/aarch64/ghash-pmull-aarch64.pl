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
# summing lo, hi and mid of the eight products and reducing once. The
# loop reverses a block with REV64 alone, which leaves its two halves
# swapped, and multiplies it by the key's copy of K_k with swapped halves
# (PMULL2 then gives the low product, PMULL the high one); the Karatsuba
# operand is the block XOR itself rotated by 8 bytes.
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
#     bytes[16*(k-1)]          R_{K_k} with its halves swapped, k = 1..8
#                              (two little-endian 64-bit words: high half,
#                              low half): the multiplier of a block
#                              reversed by REV64 alone (its halves swapped
#                              too); K_k's low half is at 16*(k-1) + 8
#     bytes[128 + 16*j]        (K_{2j+1}.lo ^ K_{2j+1}.hi,
#                               K_{2j+2}.lo ^ K_{2j+2}.hi), j = 0..3
# 192 bytes (PMULL_KEY_BYTES in crypto/ghash/ghash_pmull.c): nothing is
# stored that no kernel reads.
#
# Register plan (AAPCS64)
# =======================
#   gcmi_ghash_aarch64_pmull_init(key = x0, H = x1)
#     v0 K_1, v1 K_k, v28 the reduction constant, v29 zero, v30 fix-up
#     constant, v2-v7 temporaries
#   gcmi_ghash_aarch64_pmull_blocks(Xi = x0, key = x1, in = x2, blocks = x3)
#     the register plan of the batch loop is given above `block_ops`
#     below (v8-v15 are callee-saved: the prologue saves d8-d15); the
#     tail of 1..7 blocks uses the same registers, one block and one
#     reduction at a time.
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
use perlasm::siv_copy;

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

# --- The blocks loop -------------------------------------------------------
# Eight blocks per batch. Blocks 1..7 need nothing from the batch before,
# so a batch is emitted as the reduction of the previous batch's sums, the
# products of blocks 1..7, then block 0 (which needs Y from that
# reduction); perlasm/slot_scheduler.pm interleaves the independent streams
# so that, on the in-order Cortex-A53/A55, no instruction issues right
# after the one whose result it reads. The sums of consecutive batches
# alternate between two register sets (one is reduced while the other
# fills), hence the loop of two batches.
#   v0        Y (reflected)
#   v1-v3 / v4-v6  the sums lo, hi, mid of batch A / batch B
#   v7 v8     the reduction's temporaries
#   v9-v17    three blocks in flight: D (the block; then the hi product),
#             M (its Karatsuba operand; then the mid product), P (the lo
#             product)
#   v18       spare
#   v19-v26   K_1..K_8 with their halves swapped (key + 0)
#   v27-v30   the half sums of K_{2j+1}, K_{2j+2} (key + 128)
#   v31       the reduction constant c in lane 0
use perlasm::slot_scheduler qw(op schedule in_order);

our $ACC_A = ['v1', 'v2', 'v3'];
our $ACC_B = ['v4', 'v5', 'v6'];
my @BSET = (['v9', 'v10', 'v11'], ['v12', 'v13', 'v14'], ['v15', 'v16', 'v17']);

# Block b of the batch at [x2] times K_k, into the sums @$acc ($first: the
# products are the sums). $t picks the register set.
sub block_ops {
    my ($b, $k, $acc, $first, $t) = @_;
    my ($lo, $hi, $mid) = @$acc;
    my ($D, $M, $P) = $first ? ($hi, $mid, $lo) : @{ $BSET[$t] };
    my $ksw = 'v' . (18 + $k);
    my $kmid = 'v' . (27 + int(($k - 1) / 2));
    my $kmul = ($k - 1) % 2 ? "pmull2  $M.1q, $M.2d, $kmid.2d" : "pmull   $M.1q, $M.1d, $kmid.1d";
    (my $Dq = $D) =~ s/^v/q/;
    my @o = (op("ldr     $Dq, [x2, @{[16 * $b]}]"), op("rev64   $D.16b, $D.16b"));
    # REV64 leaves the halves of the reflected block swapped: so is Y here.
    push @o, op("ext     $M.16b, v0.16b, v0.16b, 8"), op("eor     $D.16b, $D.16b, $M.16b")
        if $b == 0;
    push @o, op("ext     $M.16b, $D.16b, $D.16b, 8"), op("eor     $M.16b, $M.16b, $D.16b"),
             op("pmull2  $P.1q, $D.2d, $ksw.2d"), op("pmull   $D.1q, $D.1d, $ksw.1d"),
             op($kmul);
    push @o, op("eor     $lo.16b, $lo.16b, $P.16b"), op("eor     $hi.16b, $hi.16b, $D.16b"),
             op("eor     $mid.16b, $mid.16b, $M.16b") unless $first;
    return @o;
}

# The sums @$acc reduced into Y (v0): Montgomery reduction by y^128 in two
# 64-bit steps, the Karatsuba fold merged in (perlasm/aes_gcm_armv8.pm
# and the fused kernel's comment derive it):
#     T  = lo.0 * c;  V = mid ^ lo ^ hi ^ T ^ swap(lo)
#     T' = V.0 * c;   Y = hi ^ T' ^ swap(V)
sub reduce_ops {
    my ($acc) = @_;
    my ($lo, $hi, $mid) = @$acc;
    return (op("pmull   v7.1q, $lo.1d, v31.1d"), op("ext     v8.16b, $lo.16b, $lo.16b, 8"),
            op("eor     $mid.16b, $mid.16b, $hi.16b"), op("eor     v8.16b, v8.16b, $lo.16b"),
            op("eor     $mid.16b, $mid.16b, v7.16b"), op("eor     $mid.16b, $mid.16b, v8.16b"),
            op("pmull   v7.1q, $mid.1d, v31.1d"), op("ext     v8.16b, $mid.16b, $mid.16b, 8"),
            op("eor     v7.16b, v7.16b, v8.16b"), op("eor     v0.16b, $hi.16b, v7.16b"));
}

# One batch of eight into @$acc, reducing @$pending (undef: nothing) first.
sub batch {
    my ($pending, $acc) = @_;
    my @o = $pending ? reduce_ops($pending) : ();
    my $t = 0;
    push @o, block_ops($_, 8 - $_, $acc, $_ == 1, $t++ % 3) for 1 .. 7;
    push @o, block_ops(0, 8, $acc, 0, $t % 3);
    push @o, op("add     x2, x2, 128");
    # One SIMD instruction per slot (an issue cycle of the in-order
    # cores), a result read 4 slots after it is made, the quick
    # instructions (EOR, loads) grouped.
    return schedule(units => [], ops => \@o, vcap => 1, cap => 12, gap => 4,
                    group => 4, gcap => 8, quick_in_vcap => 0);
}

my $code = <<___;
.rodata
.align 16
.Lghash_pmull_consts:
.quad 0xc200000000000000, 0xc200000000000000   # reduction constant
.quad 0x1, 0xc200000000000000                  # y^128 mod g' (the x^-1 fix-up)

.text
.function gcmi_ghash_aarch64_pmull_init args=2 public=x0,x1,x9,x11
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
    # the key's first 16 bytes.
    ext     v31.16b, v0.16b, v0.16b, 8
    mov     x11, x0
    st1     {v31.16b}, [x11], 16
    eor     v31.16b, v31.16b, v0.16b
    mov     v1.16b, v0.16b
    # Each power's Karatsuba half goes to the key as it is made (8 bytes
    # each, so K_{2j+1} and K_{2j+2} share the 16 bytes at 128 + 16 j).
    add     x9, x0, 128
    st1     {v31.d}[0], [x9], 8
    mov     x1, 7
.Linit_loop:
@{[mul('v1', 'v1', 'v0', 'v31', 0, 'v4', 'v5', 'v6', 'v28', 'v29', 'v7')]}
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
    ldr     q31, [x9]
    # The swapped K_1..K_8 into v19..v26, the half sums into v27..v30.
    ld1     {v19.16b-v22.16b}, [x1], 64
    ld1     {v23.16b-v26.16b}, [x1], 64
    ld1     {v27.16b-v30.16b}, [x1]
    cmp     x3, 8
    b.lo    .Lblocks_tail
    # The first batch: nothing to reduce yet.
@{[batch(undef, $ACC_A)]}
    sub     x3, x3, 8
.Lblocks_loop16:
    cmp     x3, 8
    b.lo    .Lblocks_drain_a
    # Reduce batch A into Y beside batch B's blocks 1..7, then block 0.
@{[batch($ACC_A, $ACC_B)]}
    sub     x3, x3, 8
    cmp     x3, 8
    b.lo    .Lblocks_drain_b
@{[batch($ACC_B, $ACC_A)]}
    sub     x3, x3, 8
    b       .Lblocks_loop16
.Lblocks_drain_b:
@{[in_order([reduce_ops($ACC_B)])]}
    b       .Lblocks_tail
.Lblocks_drain_a:
@{[in_order([reduce_ops($ACC_A)])]}
.Lblocks_tail:
    cbz     x3, .Lblocks_store
@{[in_order([block_ops(0, 1, $ACC_A, 1), reduce_ops($ACC_A)])]}
    add     x2, x2, 16
    sub     x3, x3, 1
    b       .Lblocks_tail
.Lblocks_store:
@{[reverse16('v0')]}
    st1     {v0.16b}, [x0]
.Lblocks_done:
.endfunction
___

# polyval, AES-GCM-SIV's POLYVAL (RFC 8452): blocks in the other byte
# order (perlasm/siv_copy.pm). The reflected form is the byte reversal of
# a GCM block, which is a POLYVAL block as it is (RFC 8452, appendix A;
# crypto/siv/polyval.c): on a key init made from the POLYVAL key's GHASH
# key, S is taken and stored as it is and each block has its halves
# swapped (EXT #8) where a GCM block is reversed by REV64 alone.
$code .= perlasm::siv_copy::a64_polyval($code, 'gcmi_ghash_aarch64_pmull_blocks',
                                        'gcmi_ghash_aarch64_pmull_polyval');

perlasm::driver::finish('aarch64', $code);
