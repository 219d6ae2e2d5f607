#!/usr/bin/env perl
# asm/aarch64/aes-gcm-armv8-pmull-aarch64.pl: fused AES-CTR + GHASH with the
# Armv8 Cryptographic Extension (AESE/AESMC and PMULL/PMULL2), the kernel
# behind the "armv8_pmull" descriptor in crypto/fused/fused_armv8_pmull.c.
# It meets the contract of crypto/fused/fused.h for the pair (armv8, pmull).
#
# Usage: perl aes-gcm-armv8-pmull-aarch64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# One instruction stream carries the AES rounds of eight counter blocks and
# the carry-less multiplies of eight GHASH blocks, so the AES pipe and the
# PMULL pipe (separate on the Cortex-A57/A72 and Neoverse cores; on the
# in-order Cortex-A53 the dual issue pairs them) work at the same time and
# the data is read from memory once per pass.
#
# AES. As in asm/aarch64/aes-armv8-aarch64.pl (its comment explains the
# round structure): AESE folds AddRoundKey, AESMC follows on the same
# register (the pair fuses on the A57/A72/N1), rk[0..Nr] live in
# v(30-Nr)..v30 for the whole call, so the extra rounds of AES-192/256
# (v16..v19) come first and every key size ends with the nine AESE+AESMC
# rounds with v20..v28, AESE with v29 and EOR with v30.
#
# Counters. The 32-bit big-endian counter word is kept in host order in w11;
# block i of a batch gets rev(w11 + i) inserted as word 3 of a copy of the
# caller's counter block (v31), so the counter wraps modulo 2^32 and never
# carries into byte 11, wherever in a batch the wrap falls.
#
# GHASH. The field arithmetic and the key are the pmull GHASH kernel's
# (asm/aarch64/ghash-pmull-aarch64.pl explains them): blocks byte-reversed
# into the reflected form (REV64, EXT #8), products with the powers
# K_k = H^k * x^-1 that the pmull key already holds (K_k at byte 16*(k-1);
# the Karatsuba half sums of K_{2j+1}, K_{2j+2} in the two lanes at
# 128 + 16*j), Karatsuba with three PMULLs a block, lo/mid/hi accumulated
# unreduced over eight blocks and one Montgomery reduction (constant
# 0xC2 << 56) per eight:
#     Y' = (Y ^ X0) H^8 ^ X1 H^7 ^ ... ^ X7 H
# The kernel keeps nothing of its own (the descriptor's init is NULL).
#
# Interleaving. Round r = 0..7 of the nine common AESE+AESMC rounds
# carries, spread between its eight AES pairs, the load, byte reversal and
# three multiplies of GHASH block r; round 8 carries the reduction. The
# GHASH instructions use only v8-v15 and the AES ones only v0-v7 and
# v16-v30, so the two streams are independent and either order is the
# same computation.
#   seal: ciphertext exists only after the rounds, so an iteration hashes
#         the previous iteration's eight output blocks, re-read from out
#         where they were just stored. The first batch is encrypted alone;
#         the last one is hashed alone after the loop.
#   open: the ciphertext is the input, so an iteration hashes its own eight
#         input blocks during its rounds and reads them again for the XOR;
#         both reads come before the batch's stores, so in == out works.
# Tail (1..7 blocks after the batches, or a whole call of fewer than
# eight): one block at a time, AES rounds interleaved with that block's
# GHASH (one multiply by K_1 and a reduction); open hashes the block it
# read before it stores the plaintext, seal hashes the ciphertext it
# stored.
#
# Register plan (AAPCS64)
# =======================
#   gcmi_aes_gcm_aarch64_armv8_pmull_seal / _open(k = x0, out = x1, in = x2,
#                                            blocks = x3, ctr = x4, Xi = x5)
#     x6 AES schedule (k->aes_key; walks over the round keys at set-up),
#     x7 GHASH key (k->ghash_key), x8 the GHASH data pointer of the batch,
#     w9 Nr, x10 the reduction constant's address,
#     w11 counter (host order), w12 temporary.
#     v0-v7   the eight AES blocks in flight (then the output)
#     v8      Y, the running hash, reflected
#     v9 v10 v11  GHASH lo, hi, mid accumulators
#     v12     a GHASH data block (reversed; then its half sum); after the
#             reduction, with v13-v15, the input blocks for the XOR
#     v13     product temporary (in the reduction: the EXT temporary)
#     v14 v15 K_k and its Karatsuba half (in the reduction: the constant
#             and zero)
#     v16-v30 rk[0..Nr] (as in the armv8 AES kernel), v31 the caller's
#             counter block
#   v8-v15 are callee-saved (low halves): the translator's prologue saves
#   d8-d15.
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# Secret: the round keys, H and its powers, Y, the data and the key
# stream; the counter block is treated like data. They live only in SIMD
# registers and memory and pass only through AESE/AESMC, PMULL/PMULL2
# (fixed latency on every core that has them; both in FEAT_DIT's list),
# EOR, EXT, REV64, MOVI and lane inserts. w11 and w12 (the counter, from
# the nonce) only feed REV and INS and are not declared public. Every
# address is an argument pointer (x1, x2, x4, x5), a pointer loaded from
# struct fused_keys (x6, x7: loaded under a `# public:` annotation, they
# are addresses, not key material), x8 (a copy of x1 or x2) or the
# constants pointer (x10), advanced by constants; every branch depends on
# the block count (x3) or on Nr (w9, loaded under a `# public:`
# annotation: it follows from the key length, which is public). The
# secret-register check (perlasm/ctcheck_aarch64.pm) proves the rest from
# the public= lists.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::layout;    # $ROUNDS and the other C structure offsets
use perlasm::armv8_aes_common;

# Offset of the Karatsuba half sums in the pmull GHASH key.
my $HALVES = 128;

# ---------------------------------------------------------------------------
# GHASH pieces: lists of instructions (one string each).

# One block at [x8] (post-incremented) times K_k, accumulated into
# v9 (lo), v10 (hi), v11 (mid); $first writes them and XORs Y in first.
sub ghash_block {
    my ($k, $first) = @_;
    my $kk = $HALVES + 16 * int(($k - 1) / 2);
    my $lane = ($k - 1) % 2;
    my @c = (
        "ld1     {v12.16b}, [x8], 16",
        "ldr     q14, [x7, " . 16 * ($k - 1) . "]",
        "ldr     q15, [x7, $kk]",
        "rev64   v12.16b, v12.16b",
        "ext     v12.16b, v12.16b, v12.16b, 8",
    );
    push @c, "eor     v12.16b, v12.16b, v8.16b" if $first;
    my $kmul = $lane ? "pmull2  %s.1q, v12.2d, v15.2d" : "pmull   %s.1q, v12.1d, v15.1d";
    if ($first) {
        push @c,
            "pmull   v9.1q, v12.1d, v14.1d",
            "pmull2  v10.1q, v12.2d, v14.2d",
            "ext     v13.16b, v12.16b, v12.16b, 8",
            "eor     v12.16b, v12.16b, v13.16b",
            sprintf($kmul, 'v11');
    } else {
        push @c,
            "pmull   v13.1q, v12.1d, v14.1d",
            "eor     v9.16b, v9.16b, v13.16b",
            "pmull2  v13.1q, v12.2d, v14.2d",
            "eor     v10.16b, v10.16b, v13.16b",
            "ext     v13.16b, v12.16b, v12.16b, 8",
            "eor     v12.16b, v12.16b, v13.16b",
            sprintf($kmul, 'v13'),
            "eor     v11.16b, v11.16b, v13.16b";
    }
    return @c;
}

# [hi:mid:lo] = v10:v11:v9 -> Y (v8): fold mid in, Montgomery-reduce.
sub ghash_reduce {
    return (
        "ldr     q14, [x10]",
        "movi    v15.16b, 0",
        "eor     v11.16b, v11.16b, v9.16b",
        "eor     v11.16b, v11.16b, v10.16b",
        "ext     v13.16b, v15.16b, v11.16b, 8",
        "eor     v9.16b, v9.16b, v13.16b",
        "ext     v13.16b, v11.16b, v15.16b, 8",
        "eor     v10.16b, v10.16b, v13.16b",
        "pmull   v13.1q, v9.1d, v14.1d",
        "ext     v9.16b, v9.16b, v9.16b, 8",
        "eor     v9.16b, v9.16b, v13.16b",
        "pmull   v13.1q, v9.1d, v14.1d",
        "ext     v9.16b, v9.16b, v9.16b, 8",
        "eor     v9.16b, v9.16b, v13.16b",
        "eor     v8.16b, v10.16b, v9.16b",
    );
}

# The GHASH of $n blocks from [x8] (powers H^n .. H^1), as rounds:
# a list of $n + 1 instruction lists (block r in round r, the reduction
# last).
sub ghash_rounds {
    my ($n) = @_;
    my @r = map { [ ghash_block($n - $_, $_ == 0) ] } 0 .. $n - 1;
    push @r, [ ghash_reduce() ];
    return @r;
}

# ---------------------------------------------------------------------------
# AES pieces.

# counters(n): perlasm/armv8_aes_common.pm.
*counters = \&perlasm::armv8_aes_common::counters;

# Spreads the instructions of @$g between the units of @$a (each a string
# of one or more instructions), keeping the order within each list.
sub interleave {
    my ($a, $g) = @_;
    my @g = @$g;
    my $slots = @$a;
    my $s = '';
    for my $i (0 .. $slots - 1) {
        $s .= $a->[$i];
        my $take = int((@g + $slots - $i - 1) / ($slots - $i));
        $s .= "    $_\n" for splice(@g, 0, $take);
    }
    $s .= "    $_\n" for @g;
    return $s;
}

# The AES rounds of blocks v0 .. v(n-1) (n = 0: none) with the GHASH
# rounds @g (lists of instructions) carried by the nine common rounds;
# GHASH work beyond them follows. $tag makes the labels unique.
sub rounds {
    my ($n, $tag, @g) = @_;
    my $c = '';
    if ($n) {
        $c .= "    cmp     w9, 12\n    b.lt    .Lr10_$tag\n    b.eq    .Lr12_$tag\n";
        my $plain = sub {
            my ($k) = @_;
            return join '', map { "    aese    v$_.16b, v$k.16b\n    aesmc   v$_.16b, v$_.16b\n" } 0 .. $n - 1;
        };
        $c .= $plain->($_) for 16, 17;
        $c .= ".Lr12_$tag:\n";
        $c .= $plain->($_) for 18, 19;
        $c .= ".Lr10_$tag:\n";
    }
    for my $r (0 .. 8) {
        my $k = 20 + $r;
        my @units = map { "    aese    v$_.16b, v$k.16b\n    aesmc   v$_.16b, v$_.16b\n" } 0 .. $n - 1;
        my $g = $r < @g ? $g[$r] : [];
        if (@units) {
            $c .= interleave(\@units, $g);
        } else {
            $c .= "    $_\n" for @$g;
        }
    }
    for my $r (9 .. $#g) {
        $c .= "    $_\n" for @{ $g[$r] };
    }
    if ($n) {
        $c .= "    aese    v$_.16b, v29.16b\n" for 0 .. $n - 1;
        $c .= "    eor     v$_.16b, v$_.16b, v30.16b\n" for 0 .. $n - 1;
    }
    return $c;
}

# out[0..7] = in[0..7] ^ v0..v7: both input loads before any store.
sub xor_store8 {
    return <<___;
    ld1     {v12.16b-v15.16b}, [x2], 64
    eor     v0.16b, v0.16b, v12.16b
    eor     v1.16b, v1.16b, v13.16b
    eor     v2.16b, v2.16b, v14.16b
    eor     v3.16b, v3.16b, v15.16b
    ld1     {v12.16b-v15.16b}, [x2], 64
    eor     v4.16b, v4.16b, v12.16b
    eor     v5.16b, v5.16b, v13.16b
    eor     v6.16b, v6.16b, v14.16b
    eor     v7.16b, v7.16b, v15.16b
    st1     {v0.16b-v3.16b}, [x1], 64
    st1     {v4.16b-v7.16b}, [x1], 64
___
}

sub reverse16 {
    my ($v) = @_;
    return "    rev64   $v.16b, $v.16b\n    ext     $v.16b, $v.16b, $v.16b, 8\n";
}

# Loads the keys, the counter and Y.
sub setup {
    my ($dir) = @_;
    return <<___;
    ldr     x6, [x0, $K_AES_KEY]    # public: the AES schedule's address
    ldr     x7, [x0, $K_GHASH_KEY]  # public: the GHASH key's address
    ldr     w9, [x6, $ROUNDS]       # public: Nr follows from the key length
    adrl    x10, .Laes_gcm_armv8_pmull_poly
    # rk[0..Nr] into v(30-Nr) .. v30.
    cmp     w9, 12
    b.lt    .L${dir}_keys10
    b.eq    .L${dir}_keys12
    ld1     {v16.16b, v17.16b}, [x6], 32
.L${dir}_keys12:
    ld1     {v18.16b, v19.16b}, [x6], 32
.L${dir}_keys10:
    ld1     {v20.16b-v23.16b}, [x6], 64
    ld1     {v24.16b-v27.16b}, [x6], 64
    ld1     {v28.16b-v30.16b}, [x6]
    ld1     {v31.16b}, [x4]
    ldr     w11, [x4, 12]
    rev     w11, w11
    ld1     {v8.16b}, [x5]
@{[reverse16('v8')]}
___
}

sub finish {
    my ($dir) = @_;
    return <<___;
.L${dir}_store:
@{[reverse16('v8')]}
    st1     {v8.16b}, [x5]
.L${dir}_done:
___
}

my $code = <<___;
.rodata
.align 16
.Laes_gcm_armv8_pmull_poly:
.quad 0xc200000000000000, 0xc200000000000000   # the reduction constant

.text
.function gcmi_aes_gcm_aarch64_armv8_pmull_seal args=6 public=x0,x1,x2,x3,x4,x5,x6,x7,x8,x9,x10
    cbz     x3, .Lseal_done
@{[setup('seal')]}
    cmp     x3, 8
    b.lo    .Lseal_tail
    # The first batch: AES only.
@{[counters(8)]}
@{[rounds(8, 'seal_first')]}
@{[xor_store8()]}
    sub     x3, x3, 8
.Lseal_loop8:
    cmp     x3, 8
    b.lo    .Lseal_last
    # This batch's AES with the previous batch's GHASH.
    sub     x8, x1, 128
@{[counters(8)]}
@{[rounds(8, 'seal8', ghash_rounds(8))]}
@{[xor_store8()]}
    sub     x3, x3, 8
    b       .Lseal_loop8
.Lseal_last:
    # The last batch's GHASH, alone.
    sub     x8, x1, 128
@{[rounds(0, 'seal_last', ghash_rounds(8))]}
.Lseal_tail:
    cbz     x3, .Lseal_store
@{[counters(1)]}
@{[rounds(1, 'seal1')]}
    ld1     {v12.16b}, [x2], 16
    eor     v0.16b, v0.16b, v12.16b
    st1     {v0.16b}, [x1], 16
    sub     x8, x1, 16
@{[rounds(0, 'seal1_ghash', ghash_rounds(1))]}
    sub     x3, x3, 1
    b       .Lseal_tail
@{[finish('seal')]}
.endfunction

.function gcmi_aes_gcm_aarch64_armv8_pmull_open args=6 public=x0,x1,x2,x3,x4,x5,x6,x7,x8,x9,x10
    cbz     x3, .Lopen_done
@{[setup('open')]}
.Lopen_loop8:
    cmp     x3, 8
    b.lo    .Lopen_tail
    # This batch's AES with its own input's GHASH (read before any store).
    mov     x8, x2
@{[counters(8)]}
@{[rounds(8, 'open8', ghash_rounds(8))]}
@{[xor_store8()]}
    sub     x3, x3, 8
    b       .Lopen_loop8
.Lopen_tail:
    cbz     x3, .Lopen_store
    mov     x8, x2
@{[counters(1)]}
@{[rounds(1, 'open1', ghash_rounds(1))]}
    ld1     {v12.16b}, [x2], 16
    eor     v0.16b, v0.16b, v12.16b
    st1     {v0.16b}, [x1], 16
    sub     x3, x3, 1
    b       .Lopen_tail
@{[finish('open')]}
.endfunction
___

perlasm::driver::finish('aarch64', $code);
