#!/usr/bin/env perl
# asm/x86_64/aes-gcm-vaes-avx2-x86_64.pl: fused AES-CTR + GHASH with VAES
# and VPCLMULQDQ on 256-bit (ymm, VEX-encoded) registers, the kernel behind
# the "vaes_avx2" descriptor in crypto/fused/fused_vaes_avx2.c. It meets the
# contract of crypto/fused/fused.h for the pair (aesni, vpclmul_avx2).
#
# Usage: perl aes-gcm-vaes-avx2-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# AES. VAESENC and VAESENCLAST on a ymm register do one AES round on two
# independent blocks, one per 128-bit lane, with the round key in both lanes
# (VBROADCASTI128 of the aesni schedule's 16-byte round key). Sixteen
# blocks are in flight in eight registers: a VAESENC takes about four
# cycles and two can start per cycle, so eight independent chains are what
# keeps the AES units full (with four, the rounds were latency bound).
#
# Counters. As in the aesni kernel, the counter block is kept with the four
# bytes of its 32-bit big-endian counter reversed, so that the counter is a
# little-endian dword and VPADDD adds modulo 2^32 without touching bytes
# 0..11. The base (in the stack frame: no register is left for it) holds
# (ctr + i, ctr + i + 1) in its two lanes; register r of a batch is
# base + 2r in each lane, each lane computing its own counter, so a wrap
# from 0xFFFFFFFF to 0 anywhere in a batch (even between the two lanes of
# one register) is exact. A VPSHUFB swaps the counter bytes back before the
# round-0 key is XORed in. The last round folds the data in:
# AESENCLAST(s, rk[Nr] ^ in) = AESENCLAST(s, rk[Nr]) ^ in, because the
# last AddRoundKey is an XOR.
#
# GHASH. The field arithmetic is the vpclmul_avx2 GHASH kernel's
# (asm/x86_64/ghash-vpclmul-avx2-x86_64.pl explains it): blocks byte-
# reversed into the reflected form, two per ymm register, Karatsuba
# VPCLMULQDQ products lane by lane with the powers of the GHASH key (stored
# as H*x^-1 powers, entry e at byte 16*e being H^(16-e); the key holds
# nothing else, 256 bytes), lo/mid/hi accumulated over a group, lanes
# folded, one Montgomery reduction with the constant 0xC2<<56 per group.
# The Karatsuba half sums h0^h1 of the power pairs are not in the key
# (they would double it). The batches outside a call's loop of stitched
# batches (its first that hashes, the pending batch hashed in a tail's
# rounds, the tails) make each where they use it, in the product
# temporary, which the middle product then frees for the low and high
# ones: for pair j > 0 one VPXOR of the pair with the key's 32 bytes from
# 8 before it (the previous power's high qword, then the pair's low one),
# which leaves h0 ^ h1 in qword 1 of each lane; for pair 0, whose 8 bytes
# before would be outside the key, a VPSHUFD and a VPXOR. When the loop
# runs, they are made once for it and kept in the stack frame, where each
# iteration reads them as the middle product's memory operand: by the
# first batch that hashes (which stores what it makes: open, seal_lagged
# with a pending batch), or else between the first batch and the loop
# (seal, seal_lagged with nothing pending: their first batch runs alone);
# they are wiped when the loop ends. (Made in every group, the extra
# instructions beside the rounds cost 3-5% of a 16 KiB seal on Zen 5; made
# between a hashing first batch and the loop, about 4% of a 512-byte
# open. Schoolbook products instead, four multiplies a pair and no half
# sums, in those batches and the tails: 5-9% slower on streams of 256- to
# 1000-byte updates on Zen 5, where the multiplies bound the kernel: a
# 256-bit VPCLMULQDQ issues about every other cycle there, and the
# vpclmul_avx2 GHASH alone runs at 26 of them per 54 cycles.)
# A group of sixteen blocks X1..X16 gives
#     Y' = (Y ^ X1)*H^16 ^ X2*H^15 ^ ... ^ X16*H
# with the pairs (H^16,H^15) .. (H^2,H^1): the whole table.
#
# Stitching. Each iteration of the main loop runs the middle rounds of the
# next sixteen counter blocks and, spread between their VAESENCs, the
# multiplies of one pair of ciphertext blocks in each of rounds 1..8, the
# lane folds in round 8 and the reduction in round 9 (every key size has
# rounds 1..9).
# The only chain across iterations is Y (the reduction result feeds the
# next group's first block), which is short next to the AES rounds.
# The drivers around the iterations (seal, seal_lagged on whole batches
# with the hash one batch behind, open) are perlasm/fused_driver_x86_64.pm's
# memory_kernel, which explains them. Here seal's iteration hashes the
# previous iteration's sixteen output blocks, re-read from out where they
# were just stored; seal_lagged's first batch hashes lag->pending from
# memory; open's iteration hashes its own sixteen input blocks, all read
# before any output of the iteration is written (in == out works).
# Tail (1..15 blocks, or a whole call of fewer than sixteen): the key
# stream of eight (n <= 8) or sixteen blocks is computed, the n existing
# blocks are XORed and stored in pairs (32 bytes) and one odd block (16
# bytes), never touching memory past them, and they are hashed as one
# aggregated run with H^n .. H^1 (entries 16 - n .. 15: one pointer walks
# the key as another walks the data), pairs in ymm and an odd last block in
# xmm, one reduction. Open hashes the tail before decrypting it.
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   gcmi_aes_gcm_x86_64_vaes_avx2_seal / _open(k = rdi, out = rsi, in = rdx,
#                                         blocks = rcx, ctr = r8, Xi = r9)
#   gcmi_aes_gcm_x86_64_vaes_avx2_seal_lagged(the same, but lag = r9): r12
#     lag->pending, rbx lag->has_pending, r9 (before the common entry)
#     lag->Xi; the rest as in seal.
#     r10 AES schedule (k->aes_key), r11 GHASH key (k->ghash_key),
#     eax Nr, r8 (after the counter is read) address of rk[Nr],
#     rbx, rdi, rbp: GHASH run data pointer, block count, power pointer.
#     ymm0-ymm7   the sixteen AES blocks in flight
#     ymm8        the current round key in both lanes (first the base)
#     ymm9 ymm10 ymm11   GHASH lo, mid, hi accumulators
#     ymm12       a data pair for GHASH (byte-reversed); in the last round,
#                 rk[Nr] ^ data
#     ymm13 ymm14 half-sum and product temporaries (ymm13 the data's,
#                 ymm14 the powers', then the products)
#     ymm15       Y, the running hash, reflected, in the low lane (the high
#                 lane is zero, so XORing ymm15 into a pair adds Y to its
#                 first block only)
#     [rsp]       the counter base (32 bytes)
#     [rbp]       while the loop runs, the half sums of the power pairs
#                 (H^16,H^15) .. (H^2,H^1), 32 bytes each (in qword 1 of
#                 each lane), at the first 32-byte boundary after [rsp+32]
#                 (rbp is set at entry; the tails, after the loop, reuse it)
# The byte-reversal and counter-swap masks are memory operands. The
# function wipes the counter slot, zeroes ymm0-ymm15 and ends with
# VZEROUPPER: no key stream, data, round key, power of H or Y is left in a
# vector register. The zeroing is one zero idiom per register (VPXOR with
# itself, done at register renaming) rather than VZEROALL, which Intel
# cores run as a microcoded sequence (docs/performance.md). On win64
# the translator saves and restores xmm6-xmm15, rbx, rbp, rdi and rsi.
#
# Secrets and constant time
# =========================
# Secret: the round keys, H and its powers, Y, the data and the key stream
# (the counter block is treated like data). They flow only through VAESENC/
# VAESENCLAST, VPCLMULQDQ, VPXOR, VPADDD, VPSHUFB/VPSHUFD with constant
# masks and immediates, VEXTRACTI128 and VBROADCASTI128, none of which has
# an operand-dependent timing, and through loads and stores at addresses
# made from the caller's pointers, the stack pointer, the block count and
# Nr. Branches depend on the block count, on Nr (the key length) and, in
# seal_lagged, on lag->has_pending only: all public. The general-purpose
# registers declared public below hold only pointers, counts, Nr and that
# flag.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::fused_driver_x86_64 qw(spread interleave ctr_loop);    # seal, seal_lagged, open; the stitching; counter mode
use perlasm::layout;                             # $ROUNDS (the AES-GCM-SIV functions)
use perlasm::siv_copy;                           # the AES-GCM-SIV functions' byte order
use perlasm::siv_tag_vex qw(tag_entry xmm_rounds);   # siv_tag_ctr32le's opening
use perlasm::vpclmul_avx2_powers;                # siv_keys_hash's powers of K_auth

my $code = <<___;
.rodata
.align 32
.Lbswap_mask:                   # reverses the bytes of each 128-bit lane
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lctr_swap:                     # reverses bytes 12..15 of each lane
    .byte 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12
    .byte 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12
.Lctr_swap_le:                  # exchanges dwords 0 and 3 of each lane (AES-GCM-SIV)
    .byte 12, 13, 14, 15, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3
    .byte 12, 13, 14, 15, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3
.Linc_lane1:                    # (+0, +1): the base's two lanes
    .long 0, 0, 0, 0, 0, 0, 0, 1
.Linc:                          # +2k in both lanes at 32*k, k = 0 .. 8
___
$code .= "    .long 0, 0, 0, " . 2 * $_ . ", 0, 0, 0, " . 2 * $_ . "\n" for 0 .. 8;
$code .= <<___;
.Lpoly:                         # x^-1 mod P, reflected; high qword 0xC2 << 56
    .quad 0x0000000000000001, 0xc200000000000000
.Lsiv_top:                      # bit 7 of byte 15 (AES-GCM-SIV's counter block 0)
    .quad 0, 0x8000000000000000
.Lsiv_low127:                   # all but that bit (AES-GCM-SIV's tag input)
    .quad 0xffffffffffffffff, 0x7fffffffffffffff
.Lsiv_rot_word3:                # RotWord(word 3) in every column (K_enc's expansion)
    .byte 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12
.Lsiv_bcast_word3:              # word 3 in every column
    .byte 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15
.Lsiv_rcon:                     # Rcon[i] in each column, i = 1 .. 10
___
$code .= "    .long $_, $_, $_, $_\n" for 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36;
$code .= <<___;
.Lsiv_add:                      # i in the first dword, i = 0 .. 5 (the derivation blocks)
___
$code .= "    .long $_, 0, 0, 0\n" for 0 .. 5;

my ($out, $in, $blocks) = qw(rsi rdx rcx);
my ($aes, $gkey, $rklast) = qw(r10 r11 r8);
my ($LO, $MID, $HI, $D, $T0, $T1, $Y) = map { "ymm$_" } 9 .. 15;
my ($lo, $mid, $hi, $d, $t0, $t1, $y) = map { "xmm$_" } 9 .. 15;

# ---------------------------------------------------------------------------
# GHASH pieces (same arithmetic as ghash-vpclmul-avx2-x86_64.pl).

# half_sums(dst, pow, prev): dst = the half sums h0^h1 of the power pair
# at pow (memory), in qword 1 of each lane (and, without prev, qword 0
# too); prev is the address 8 bytes before pow, when that is inside the
# key (one load and one VPXOR instead of a VPSHUFD and a VPXOR).
sub half_sums {
    my ($dst, $p, $prev) = @_;
    return defined $prev ? <<___ : <<___;
    vmovdqu    $dst, $prev
    vpxor      $dst, $dst, $p               # qword 1: h0 ^ h1
___
    vpshufd    $dst, $p, 0x4e
    vpxor      $dst, $dst, $p               # h0 ^ h1
___
}

# The stack slot of power pair j's half sums, while the loop runs: rbp
# (free until the tails) points at the first, 32-byte aligned, so no load
# or store of them crosses a cache line (the frame is only 16-byte
# aligned).
sub half_slot { return "[rbp + " . 32 * $_[0] . "]" }

# mul_acc(first, data, pow, half, lo, mid, hi, t0, t1): Karatsuba products
# of data with the powers at pow (memory), XORed into (or, when first,
# written to) lo/mid/hi; mid is completed by $fixup. The data's half sums
# go to t0. The powers' are the memory operand `half`, or a string of
# half_sums that makes them in t1.
sub mul_acc {
    my ($first, $dd, $p, $k, $l, $m, $h, $u0, $u1) = @_;
    my $s = <<___;
    vpshufd    $u0, $dd, 0x4e
    vpxor      $u0, $u0, $dd                # a0 ^ a1
___
    if ($k !~ /^\[/) {
        $s .= $k;
        $k = $u1;
    }
    if ($first) {
        return $s . <<___;
    vpclmulqdq $m, $u0, $k, 0x10
    vpclmulqdq $l, $dd, $p, 0x00
    vpclmulqdq $h, $dd, $p, 0x11
___
    }
    return $s . <<___;
    vpclmulqdq $u0, $u0, $k, 0x10
    vpxor      $m, $m, $u0
    vpclmulqdq $u1, $dd, $p, 0x00
    vpxor      $l, $l, $u1
    vpclmulqdq $u1, $dd, $p, 0x11
    vpxor      $h, $h, $u1
___
}

my $fold_lanes = <<___;
    vextracti128 $t0, $LO, 1
    vpxor      $lo, $lo, $t0
    vextracti128 $t0, $MID, 1
    vpxor      $mid, $mid, $t0
    vextracti128 $t0, $HI, 1
    vpxor      $hi, $hi, $t0
___
my $fixup = <<___;
    vpxor      $mid, $mid, $lo                 # Karatsuba: mid ^= lo ^ hi
    vpxor      $mid, $mid, $hi
___
my $reduce = <<___;
    vpclmulqdq $t0, $lo, [.Lpoly], 0x10       # phase 1: lo.q0 * 0xC2<<56
    vpshufd    $lo, $lo, 0x4e
    vpxor      $mid, $mid, $lo
    vpxor      $mid, $mid, $t0
    vpclmulqdq $t0, $mid, [.Lpoly], 0x10      # phase 2: mid.q0 * 0xC2<<56
    vpshufd    $mid, $mid, 0x4e
    vpxor      $y, $hi, $mid
    vpxor      $y, $y, $t0                     # Y, high lane zero
___

# ghash_pair(j, src, mode): pair j of a sixteen-block group at src + 32j,
# with powers (H^(16-2j), H^(15-2j)); the first pair absorbs Y. The half
# sums: 'loop', from their stack slot; 'outside', made here; 'fill', made
# here and stored to their slot.
sub ghash_pair {
    my ($j, $src, $mode) = @_;
    my $s = "    vmovdqu    $D, [$src + " . 32 * $j . "]\n"
          . "    vpshufb    $D, $D, [.Lbswap_mask]\n";
    $s .= "    vpxor      $D, $D, $Y\n" if $j == 0;
    my $pow = "[$gkey + " . 32 * $j . "]";
    my $half = half_slot($j);
    if ($mode ne 'loop') {
        $half = half_sums($T1, $pow, $j > 0 ? "[$gkey + " . (32 * $j - 8) . "]" : undef);
        $half .= "    vmovdqu    " . half_slot($j) . ", $T1\n" if $mode eq 'fill';
    }
    $s .= mul_acc($j == 0, $D, $pow, $half, $LO, $MID, $HI, $T0, $T1);
    return $s;
}

# ghash_run(tag): Y = GHASH of rdi (1..16) blocks at rbx with H^rdi .. H^1,
# one reduction. Clobbers rbx, rdi, rbp.
sub ghash_run {
    my ($tag) = @_;
    return <<___;
    mov        rbp, 16
    sub        rbp, rdi
    shl        rbp, 4
    add        rbp, $gkey                      # entry 16 - count
    vpxor      $lo, $lo, $lo
    vpxor      $mid, $mid, $mid
    vpxor      $hi, $hi, $hi
    cmp        rdi, 2
    jb         .L${tag}_one
.L${tag}_pairs:
    vmovdqu    $D, [rbx]
    vpshufb    $D, $D, [.Lbswap_mask]
    vpxor      $D, $D, $Y
    vpxor      $y, $y, $y                      # Y is in; later XORs add nothing
@{[ mul_acc(0, $D, '[rbp]', half_sums($T1, '[rbp]'), $LO, $MID, $HI, $T0, $T1) ]}
    add        rbx, 32
    add        rbp, 32
    sub        rdi, 2
    cmp        rdi, 2
    jae        .L${tag}_pairs
$fold_lanes
    test       rdi, rdi
    jz         .L${tag}_reduce
.L${tag}_one:
    vmovdqu    $d, [rbx]
    vpshufb    $d, $d, [.Lbswap_mask]
    vpxor      $d, $d, $y
@{[ mul_acc(0, $d, '[rbp]', half_sums($t1, '[rbp]'), $lo, $mid, $hi, $t0, $t1) ]}
.L${tag}_reduce:
$fixup
$reduce
___
}

# ---------------------------------------------------------------------------
# AES pieces.

# counters(n): ymm0..n-1 = the next 2n counter blocks ^ rk[0]; base += 2n.
sub counters {
    my ($n) = @_;
    my $s = "    vmovdqu    ymm8, [rsp]\n";
    $s .= "    vpaddd     ymm$_, ymm8, [.Linc + " . 32 * $_ . "]\n" for 1 .. $n - 1;
    $s .= "    vpshufb    ymm0, ymm8, [.Lctr_swap]\n";
    $s .= "    vpaddd     ymm8, ymm8, [.Linc + " . 32 * $n . "]\n";
    $s .= "    vmovdqu    [rsp], ymm8\n";
    $s .= "    vpshufb    ymm$_, ymm$_, [.Lctr_swap]\n" for 1 .. $n - 1;
    $s .= "    vbroadcasti128 ymm8, [$aes]\n";
    $s .= "    vpxor      ymm$_, ymm$_, ymm8\n" for 0 .. $n - 1;
    return $s;
}

sub round {
    my ($n, $r) = @_;
    my $s = "    vbroadcasti128 ymm8, [$aes + " . 16 * $r . "]\n";
    $s .= "    vaesenc    ymm$_, ymm$_, ymm8\n" for 0 .. $n - 1;
    return $s;
}

# rounds(n, tag, hooks): rounds 1 .. Nr-1 on ymm0..n-1 with hooks->{r}
# inside round r (r = 1..9, present for every key size), then ymm8 = rk[Nr].
sub rounds {
    my ($n, $tag, $hooks) = @_;
    my $s = '';
    for my $r (1 .. 9) {
        $s .= $hooks && $hooks->{$r} ? spread(round($n, $r), $hooks->{$r}, 1)
                                     : round($n, $r);
    }
    $s .= "    cmp        eax, 10\n    je         .L${tag}_last\n";
    $s .= round($n, 10) . round($n, 11);
    $s .= "    cmp        eax, 12\n    je         .L${tag}_last\n";
    $s .= round($n, 12) . round($n, 13);
    $s .= ".L${tag}_last:\n    vbroadcasti128 ymm8, [$rklast]\n";
    return $s;
}

# last16: the last round with the data folded in, sixteen blocks stored.
my $last16 = '';
for my $j (0 .. 7) {
    $last16 .= <<___;
    vpxor      $D, ymm8, [$in + @{[ 32 * $j ]}]
    vaesenclast ymm$j, ymm$j, $D
    vmovdqu    [$out + @{[ 32 * $j ]}], ymm$j
___
}

# tail_store(n, tag): ymm0..n-1 hold rounds 1..Nr-1 of 2n blocks and ymm8
# rk[Nr]; XOR and store the first `blocks` (1..2n) of them.
sub tail_store {
    my ($n, $tag) = @_;
    my $s = '';
    $s .= "    vaesenclast ymm$_, ymm$_, ymm8\n" for 0 .. $n - 1;
    for my $j (0 .. $n - 1) {
        my $o = 32 * $j;
        $s .= <<___;
    cmp        $blocks, @{[ 2 * $j + 2 ]}
    jb         .L${tag}_odd$j
    vpxor      ymm$j, ymm$j, [$in + $o]
    vmovdqu    [$out + $o], ymm$j
___
    }
    $s .= "    jmp        .L${tag}_stored\n";
    for my $j (0 .. $n - 1) {
        my $o = 32 * $j;
        $s .= <<___;
.L${tag}_odd$j:
    test       $blocks, 1
    jz         .L${tag}_stored
    vpxor      xmm$j, xmm$j, [$in + $o]
    vmovdqu    [$out + $o], xmm$j
    jmp        .L${tag}_stored
___
    }
    $s .= ".L${tag}_stored:\n";
    return $s;
}

# tail(tag, hooks, two): encrypt the last 1..15 blocks with four or eight
# registers, with optional round hooks (seal hashes its pending batch there);
# with `two`, up to four blocks with two registers (AES-GCM-SIV's counter
# mode, whose tail nothing is stitched into: the two registers' rounds
# are half the four's, and a 1350-byte message's tail is four blocks).
sub tail {
    my ($tag, $hooks, $two) = @_;
    my $narrow2 = !$two ? '' : <<___;
    cmp        $blocks, 4
    ja         .L${tag}_four
@{[ counters(2) ]}
@{[ rounds(2, "${tag}_two", $hooks) ]}
@{[ tail_store(2, "${tag}_two") ]}
    jmp        .L${tag}_end
.L${tag}_four:
___
    return <<___;
    cmp        $blocks, 8
    ja         .L${tag}_wide
$narrow2
@{[ counters(4) ]}
@{[ rounds(4, "${tag}_narrow", $hooks) ]}
@{[ tail_store(4, "${tag}_narrow") ]}
    jmp        .L${tag}_end
.L${tag}_wide:
@{[ counters(8) ]}
@{[ rounds(8, "${tag}_wide", $hooks) ]}
@{[ tail_store(8, "${tag}_wide") ]}
.L${tag}_end:
___
}

# The entry after the driver's (key pointers and Nr): Y and the counter
# base.
# (In parts, for the AES-GCM-SIV functions at the end.)
my $entry_y = <<___;
    vmovdqu    $y, [r9]
    vpshufb    $y, $y, [.Lbswap_mask]       # Y, reflected; high lane zero
___
my $entry_ctr = <<___;
    vbroadcasti128 ymm8, [r8]
    vpshufb    ymm8, ymm8, [.Lctr_swap]
    vpaddd     ymm8, ymm8, [.Linc_lane1]    # (ctr, ctr + 1), counters swapped
    vmovdqu    [rsp], ymm8
    mov        edi, eax
    shl        edi, 4
    lea        $rklast, [$aes + rdi]        # address of rk[Nr]
    lea        rbp, [rsp + 63]
    and        rbp, -32                     # the loop's half sums: 32-byte aligned
___
my $entry = $entry_y . $entry_ctr;

my $exit_y = <<___;
    vpshufb    $y, $y, [.Lbswap_mask]
    vmovdqu    [r9], $y
___
my $exit_wipe = <<___;
    vpxor      xmm0, xmm0, xmm0
    vmovdqu    [rsp], ymm0                  # wipe the counter slot
___
$exit_wipe .= "    vpxor      xmm$_, xmm$_, xmm$_\n" for 0 .. 15;
$exit_wipe .= "    vzeroupper\n";
my $exit = $exit_y . $exit_wipe;

# The round hooks that hash sixteen blocks at `src` during rounds 1..9,
# the half sums as ghash_pair's `mode` says.
sub hash_hooks {
    my ($src, $mode) = @_;
    my %hooks = map { ($_ => ghash_pair($_ - 1, $src, $mode)) } 1 .. 8;
    $hooks{8} .= $fold_lanes . $fixup;
    $hooks{9} = $reduce;
    return \%hooks;
}

# Before the loop: the eight pairs' half sums into the stack frame; after
# it, wiped (ymm8, the round key, is free between batches).
my $setup = '';
for my $j (0 .. 7) {
    my $pow = "[$gkey + " . 32 * $j . "]";
    $setup .= half_sums($T1, $pow, $j > 0 ? "[$gkey + " . (32 * $j - 8) . "]" : undef);
    $setup .= "    vmovdqu    " . half_slot($j) . ", $T1\n";
}
my $teardown = "    vpxor      xmm8, xmm8, xmm8\n";
$teardown .= "    vmovdqu    " . half_slot($_) . ", ymm8\n" for 0 .. 7;

# seal, seal_lagged and open on sixteen-block batches: perlasm/fused_driver_x86_64.pm.
$code .= perlasm::fused_driver_x86_64::memory_kernel(
    { name => 'gcmi_aes_gcm_x86_64_vaes_avx2', batch => 16, vec => 'ymm', frame => 320,
      entry => $entry, exit => $exit, setup => $setup, teardown => $teardown },
    counters => \&counters, rounds => \&rounds, last => $last16, tail => \&tail,
    group_hooks => sub { hash_hooks($_[0], 'loop') }, ghash_run => \&ghash_run,
    outside_hooks => sub { hash_hooks($_[0], 'outside') },
    fill_hooks => sub { hash_hooks($_[0], 'fill') });

# ---------------------------------------------------------------------------
# AES-GCM-SIV (RFC 8452; crypto/siv): two functions in GCM's byte order
# made from the pieces above, then turned into AES-GCM-SIV's by
# perlasm/siv_copy.pm: every shuffle with .Lbswap_mask becomes a move or
# nothing, so the blocks are hashed as they are (POLYVAL on the POLYVAL
# key), and .Lctr_swap becomes .Lctr_swap_le, which moves AES-GCM-SIV's
# little-endian counter from dword 0 to dword 3, where the counter base
# steps it, and back.
#   siv_open(k, out, in, blocks, ctr, S): seal's text: decrypts and folds
#     the plaintext it writes into S (the fused hook of fused.h).
#   siv_ctr32le(s, out, in, blocks, ctr): counter mode alone (aes.h's
#     ctr32le contract on the aesni schedule): the batches of sixteen
#     blocks, then the tail of four or eight registers.
# (POLYVAL alone is the vpclmul_avx2 GHASH backend's polyval_update, the
# same arithmetic.)
my $BYTE_SWAPS = qr/\[\.Lbswap_mask\]/;
my $siv = perlasm::siv_copy::polyval_form($code, 'gcmi_aes_gcm_x86_64_vaes_avx2_seal',
                                          'gcmi_aes_gcm_x86_64_vaes_avx2_siv_open',
                                          $BYTE_SWAPS, 'vmovdqa');

# siv_open_end(k, out, in, blocks, ctr, end): siv_open with the rest of
# an AES-GCM-SIV open around it, in one call (fused.h; end is a struct
# siv_open_end, S at its start where siv_open has it). At entry, after
# siv_open's: the AAD's padded last block hashed into S (when
# end->aad_partial; one block with H^1, one reduction, beside the first
# batch's rounds, which hash nothing), and the partial last block's key
# stream (when end->partial: one xmm chain; at entry it waits for K_enc
# as the first batch does, where at the exit its latency came after
# everything else), that block decrypted, masked and stored back. At the
# exit: that block (when there is one) and the length block hashed as one
# run with (H^2, H^1), or the length block alone with H^1, one
# reduction, and the tag: S ^ nonce, bit 7 of byte 15 cleared, through
# AES under K_enc, written over S. The body is siv_open's text, from a
# second kernel of the same pieces with this entry and exit (its labels
# renamed apart from siv_open's). gcm-ab --siv --open, 1350 bytes, Zen 5:
# 5-6% faster than siv_open and the pair's calls around it; the AAD's
# block and the key stream at entry 3% more. Branches: on the two flags
# (from the lengths) and Nr only.
my $END_PARTIAL = perlasm::layout::c_define('crypto/fused/fused.h', 'SIV_OPEN_END_PARTIAL_OFFSET');
my $END_AAD_PARTIAL = perlasm::layout::c_define('crypto/fused/fused.h', 'SIV_OPEN_END_AAD_PARTIAL_OFFSET');
my $siv_end_ks = <<___;
    mov        rdi, [r9 + $END_AAD_PARTIAL] # public: end->aad_partial: 0 or 1, from the AAD's length alone
    test       rdi, rdi
    jz         .Lsivend_noaad
    vpxor      $d, $y, [r9 + 96]            # S ^ the AAD's padded last block
@{[ mul_acc(1, $d, "[$gkey + 240]", half_sums($t1, "[$gkey + 240]", "[$gkey + 232]"), $lo, $mid, $hi, $t0, $t1) ]}
$fixup
$reduce
.Lsivend_noaad:
    mov        rdi, [r9 + $END_PARTIAL]     # public: end->partial: 0 or 1, from the message's length alone
    test       rdi, rdi
    jz         .Lsivend_noks
    vmovdqu    xmm0, [r9 + 32]              # the partial block's counter block
@{[ xmm_rounds(0, 'sivend_ks', "[$rklast]") ]}    vpxor      xmm0, xmm0, [r9 + 64]        # ^ its ciphertext
    vpand      xmm0, xmm0, [r9 + 48]        # the padding zero
    vmovdqu    [r9 + 64], xmm0              # its plaintext
.Lsivend_noks:
___
my $siv_end = <<___;
    mov        rdi, [r9 + $END_PARTIAL]     # public: end->partial: 0 or 1, from the message's length alone
    test       rdi, rdi
    jz         .Lsivend_one
    vmovdqu    $D, [r9 + 64]                # (the partial block, the length block)
    vpxor      $D, $D, $Y                   # S into the first
@{[ mul_acc(1, $D, "[$gkey + 224]", half_sums($T1, "[$gkey + 224]", "[$gkey + 216]"), $LO, $MID, $HI, $T0, $T1) ]}
$fold_lanes
    jmp        .Lsivend_fix
.Lsivend_one:
    vpxor      $d, $y, [r9 + 80]            # S ^ the length block
@{[ mul_acc(1, $d, "[$gkey + 240]", half_sums($t1, "[$gkey + 240]", "[$gkey + 232]"), $lo, $mid, $hi, $t0, $t1) ]}
.Lsivend_fix:
$fixup
$reduce
    vpxor      xmm0, $y, [r9 + 16]          # S ^ (N || 0^32)
    vpand      xmm0, xmm0, [.Lsiv_low127]   # bit 7 of byte 15 cleared
@{[ xmm_rounds(0, 'sivend_tag', "[$rklast]") ]}    vmovdqu    [r9], xmm0                   # T
___
my $end_gcm = perlasm::fused_driver_x86_64::memory_kernel(
    { name => 'siv_end_in_gcm_order', batch => 16, vec => 'ymm', frame => 320,
      entry => $entry . $siv_end_ks, exit => $siv_end . $exit_wipe, setup => $setup, teardown => $teardown },
    counters => \&counters, rounds => \&rounds, last => $last16, tail => \&tail,
    group_hooks => sub { hash_hooks($_[0], 'loop') }, ghash_run => \&ghash_run,
    outside_hooks => sub { hash_hooks($_[0], 'outside') },
    fill_hooks => sub { hash_hooks($_[0], 'fill') });
my $open_end = perlasm::siv_copy::polyval_form($end_gcm, 'siv_end_in_gcm_order_seal',
                                               'gcmi_aes_gcm_x86_64_vaes_avx2_siv_open_end',
                                               $BYTE_SWAPS, 'vmovdqa');
$open_end =~ s/(\.L\w+)_siv\b/$1_sivend/g;
$siv .= $open_end;

my $ctr_gcm = perlasm::fused_driver_x86_64::ctr_function(
    { batch => 16, frame => 32, exit => $exit_wipe },
    entry => $entry_ctr,
    iteration => counters(8) . rounds(8, 'sivctr_loop') . $last16,
    tail => tail('sivctr_tail', undef, 1));
$siv .= perlasm::siv_copy::ctr32le($ctr_gcm, 'ctr_in_gcm_order',
                                   'gcmi_aes_gcm_x86_64_vaes_avx2_siv_ctr32le');

# siv_tag_ctr32le(s, tag, out, in, blocks, last): AES-GCM-SIV's tag and
# counter mode in one call (fused.h): T = AES(K_enc, tag) over the block
# the caller put at tag (S ^ nonce, top bit cleared), written back; then
# counter mode from T with the top bit set over `blocks` whole blocks, as
# siv_ctr32le, and the 16 bytes at `last` (when not NULL) in place with
# counter block `blocks`. The tag's rounds are one xmm chain; the last
# block's run beside the first batch's (nothing orders them), and the
# counter base is made from the tag in registers: no store and reload
# between the tag and the key stream. The opening and the one-block
# chains are perlasm/siv_tag_vex.pm's; r8 then takes rk[Nr]'s address,
# as in siv_ctr32le.
my $tagctr_gcm = <<___;
.function tagctr_in_gcm_order args=6 frame=32 public=rdi,rsi,rdx,rcx,r8,r9,r10,r11,rax   # (const struct aes_schedule *s, uint8_t tag[16], uint8_t *out, const uint8_t *in, size_t blocks, uint8_t *last)
@{[ tag_entry() ]}    lea        $rklast, [r10 + rdi]         # address of rk[Nr]
    xchg       rax, r9                      # eax = Nr; r9 = tag
@{[ xmm_rounds(0, 'sivtc_tag', "[$rklast]") ]}    vmovdqu    [r9], xmm0                   # T
    vpor       xmm0, xmm0, [.Lsiv_top]      # counter block 0
    test       r11, r11
    jz         .Lsivtc_base
    vmovd      xmm1, ecx
    vpshufb    xmm2, xmm0, [.Lctr_swap]
    vpshufb    xmm1, xmm1, [.Lctr_swap]
    vpaddd     xmm2, xmm2, xmm1
    vpshufb    xmm2, xmm2, [.Lctr_swap]     # counter block `blocks` (mod 2^32)
@{[ xmm_rounds(2, 'sivtc_one', "[$rklast]") ]}    vpxor      xmm2, xmm2, [r11]
    vmovdqu    [r11], xmm2                  # the last block, in place
.Lsivtc_base:
    vinserti128 ymm8, ymm0, xmm0, 1
    vpshufb    ymm8, ymm8, [.Lctr_swap]
    vpaddd     ymm8, ymm8, [.Linc_lane1]    # (ctr, ctr + 1), counters swapped
    vmovdqu    [rsp], ymm8
@{[ ctr_loop({ batch => 16 }, 'sivtc', counters(8) . rounds(8, 'sivtc_loop') . $last16,
             tail('sivtc_tail', undef, 1)) ]}$exit_wipe.endfunction
___
$siv .= perlasm::siv_copy::ctr32le($tagctr_gcm, 'tagctr_in_gcm_order',
                                   'gcmi_aes_gcm_x86_64_vaes_avx2_siv_tag_ctr32le');

# siv_keys_hash(kgk, nonce, hash, enc, max_blocks): AES-GCM-SIV's message
# keys (fused.h) in one call, K_auth never leaving registers. The
# derivation B_i = AES(KGK, LE32(i) || N), i = 0 .. 5, six xmm chains
# side by side; K_auth = B_0[0..7] || B_1[0..7], K_enc the low halves of
# the rest (RFC 8452, section 4). K_auth is the vpclmul_avx2 key's H'
# itself (the POLYVAL block order is that kernel's reflected order, and
# crypto/siv/polyval.c's transform of the key, which the kernel's init
# undoes, is skipped), so its powers H'^1 .. H'^n go straight to `hash`
# as init_for(max_blocks) lays them out (perlasm/vpclmul_avx2_powers.pm).
# K_enc is stored as round keys 0 (and 1) of `enc`, with Nr, and
# expanded there as aes-ni-x86_64.pl expands a key (SubWord(RotWord) by
# VPSHUFB and VAESENCLAST, the linear part as a prefix XOR; AES-256
# alternating two registers), the first two rounds of powers (H'^1 ..
# H'^4) merged into its text line by line, the other powers after it.
# The two chains are independent; merged, both advance from the start
# (gcm-ab, 1350 bytes: 1-3% faster than the powers after the expansion,
# which was 4-7% faster than the powers before it). Every register is
# cleared before returning.
sub vsub_word {
    my ($dst, $src, $mask, $key) = @_;
    return "    vpshufb    $dst, $src, $mask\n    vaesenclast $dst, $dst, $key\n";
}
sub vprefix_xor {                # x = (w0, w0^w1, w0^w1^w2, w0^..^w3)
    my ($x, $t) = @_;
    return "    vpslldq    $t, $x, 4\n    vpxor      $x, $x, $t\n" .
           "    vpslldq    $t, $t, 4\n    vpxor      $x, $x, $t\n" .
           "    vpslldq    $t, $t, 4\n    vpxor      $x, $x, $t\n";
}
my $derive = <<___;
    mov        eax, [rdi + $ROUNDS]         # public: the round count follows from the key length
    vmovq      xmm0, [rsi]
    vpinsrd    xmm0, xmm0, dword [rsi + 8], 2   # N || 0^32
    vpslldq    xmm0, xmm0, 4                # LE32(0) || N
    vmovdqu    xmm6, [rdi]
___
$derive .= "    vpaddd     xmm$_, xmm0, [.Lsiv_add + " . 16 * $_ . "]   # LE32($_) || N\n" for 1 .. 5;
$derive .= "    vpxor      xmm$_, xmm$_, xmm6\n" for 0 .. 5;
for my $r (1 .. 13) {
    $derive .= "    cmp        eax, 10\n    je         .Lsivkh_derive_last\n" if $r == 10;
    $derive .= "    vmovdqu    xmm6, [rdi + " . 16 * $r . "]\n";
    $derive .= "    vaesenc    xmm$_, xmm$_, xmm6\n" for 0 .. 5;
}
$derive .= ".Lsivkh_derive_last:\n    mov        r9d, eax\n    shl        r9d, 4\n    vmovdqu    xmm6, [rdi + r9]\n";
$derive .= "    vaesenclast xmm$_, xmm$_, xmm6\n" for 0 .. 5;
$derive .= <<___;
    vpunpcklqdq xmm0, xmm0, xmm1            # K_auth = B_0[0..7] || B_1[0..7]: H'
    vpunpcklqdq xmm2, xmm2, xmm3            # K_enc = B_2[0..7] || B_3[0..7]
    vpunpcklqdq xmm4, xmm4, xmm5            #   || B_4[0..7] || B_5[0..7] (AES-256)
    vmovdqu    [rcx], xmm2                  # rk[0]
    vmovdqu    [rcx + 16], xmm4             # rk[1] (AES-256; AES-128 overwrites it)
    mov        [rcx + $ROUNDS], eax
___
# K_enc in xmm8 (and xmm9), the masks and the zero key of AES-256's odd
# steps from memory (.Lsiv_add's first entry is zero): registers the
# first two rounds of powers leave alone, so the two are merged line by
# line (interleave(), perlasm/fused_driver_x86_64.pm), both chains
# advancing from the start.
my $k128 = '';
for my $i (1 .. 10) {
    my $rcon = "[.Lsiv_rcon + " . 16 * ($i - 1) . "]";
    $k128 .= vsub_word('xmm10', 'xmm8', '[.Lsiv_rot_word3]', $rcon) . vprefix_xor('xmm8', 'xmm11');
    $k128 .= "    vpxor      xmm8, xmm8, xmm10\n    vmovdqu    [rcx + " . 16 * $i . "], xmm8\n";
}
my $k256 = '';
for my $i (2 .. 14) {
    if ($i % 2 == 0) {
        $k256 .= vsub_word('xmm10', 'xmm9', '[.Lsiv_rot_word3]', "[.Lsiv_rcon + " . 16 * ($i / 2 - 1) . "]");
        $k256 .= vprefix_xor('xmm8', 'xmm11') . "    vpxor      xmm8, xmm8, xmm10\n";
        $k256 .= "    vmovdqu    [rcx + " . 16 * $i . "], xmm8\n";
    } else {
        $k256 .= vsub_word('xmm10', 'xmm8', '[.Lsiv_bcast_word3]', '[.Lsiv_add]') . vprefix_xor('xmm9', 'xmm12');
        $k256 .= "    vpxor      xmm9, xmm9, xmm10\n    vmovdqu    [rcx + " . 16 * $i . "], xmm9\n";
    }
}
my $head = perlasm::vpclmul_avx2_powers::powers_head('rdx', '[.Lpoly]');
$siv .= <<___;

.function gcmi_aes_gcm_x86_64_vaes_avx2_siv_keys_hash args=5 public=rdi,rsi,rdx,rcx,r8,r9,rax   # (const struct aes_schedule *kgk, const uint8_t nonce[12], struct ghash_key *hash, struct aes_schedule *enc, size_t max_blocks)
$derive    vmovdqa    xmm8, xmm2
    vmovdqa    xmm9, xmm4
    cmp        eax, 10
    jne        .Lsivkh_256
@{[ interleave($k128, $head) ]}    jmp        .Lsivkh_done
.Lsivkh_256:
@{[ interleave($k256, $head) ]}.Lsivkh_done:
@{[ perlasm::vpclmul_avx2_powers::powers_tail('rdx', 'r8', '.Lsivkh_powers_done') ]}.Lsivkh_powers_done:
@{[ join '', map { "    vpxor      xmm$_, xmm$_, xmm$_\n" } 0 .. 15 ]}    vzeroupper
.endfunction
___
$code .= $siv;

perlasm::driver::finish('x86_64', $code);
