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
# (VBROADCASTI128 of the aesni schedule's 16-byte round key). Eight blocks
# are in flight in four registers, the natural batch for sixteen ymm
# registers: with their rounds interleaved with the GHASH multiplies below,
# the AES and carry-less-multiply units are both kept busy.
#
# Counters. As in the aesni kernel, the counter block is kept with the four
# bytes of its 32-bit big-endian counter reversed, so that the counter is a
# little-endian dword and VPADDD adds modulo 2^32 without touching bytes
# 0..11. The base register holds (ctr + i, ctr + i + 1) in its two lanes;
# the four registers of a batch are base + (0, 2, 4, 6) in each lane, each
# lane computing its own counter, so a wrap from 0xFFFFFFFF to 0 anywhere in
# a batch (even between the two lanes of one register) is exact. A final
# VPSHUFB swaps the counter bytes back before the round-0 key is XORed in.
# The last round folds the data in, AESENCLAST(s, rk[Nr] ^ in) =
# AESENCLAST(s, rk[Nr]) ^ in, because the last AddRoundKey is an XOR.
#
# GHASH. The field arithmetic is the vpclmul_avx2 GHASH kernel's
# (asm/x86_64/ghash-vpclmul-avx2-x86_64.pl explains it): blocks byte-
# reversed into the reflected form, two per ymm register, Karatsuba
# VPCLMULQDQ products lane by lane with powers H^m of the GHASH key (stored
# as H*x^-1 powers, entry e at byte 16*e being H^(16-e), its half sum at
# 256 + 16*e), lo/mid/hi
# accumulated over a group, lanes folded, one Montgomery reduction with the
# constant 0xC2<<56 per group. A group of eight blocks X1..X8 gives
#     Y' = (Y ^ X1)*H^8 ^ X2*H^7 ^ ... ^ X8*H
# with the pairs (H^8,H^7) .. (H^2,H^1), entries 8..15.
#
# Stitching. Each iteration of the main loop runs the nine middle rounds
# of the next eight counter blocks and, between them, the multiplies of one
# pair of ciphertext blocks after each of rounds 1..4, the lane folds after
# round 5 and the two reduction phases after rounds 6 and 7. The only chain
# across iterations is Y (the reduction result feeds the next group's first
# block), which is short next to the AES rounds.
#   seal: ciphertext exists only after the rounds, so an iteration hashes
#         the previous iteration's eight output blocks (re-read from out,
#         where they were just stored). The first batch is encrypted
#         alone; the last batch is hashed with the tail.
#   open: the ciphertext is the input, so an iteration hashes its own eight
#         input blocks during the rounds, and they are read before any
#         output of the iteration is written: in == out works.
# Tail (1..7 blocks, or a whole call of fewer than eight): the key stream
# of eight blocks is computed (a few blocks cost no more time than one),
# the n existing blocks are XORed and stored in pairs (32 bytes) and one
# odd block (16 bytes), never touching memory past them. The GHASH of the
# tail (and, in seal, of the pending last batch: 8 + n <= 15 blocks,
# contiguous in out) is one aggregated run with H^count .. H^1 (powers
# 16 - count .. 15 of the key: one pointer walks the key as one walks the
# data), pairs in ymm and an odd last block in xmm, and one reduction. In
# open the tail is hashed before it is decrypted.
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   aes_gcm_x86_64_vaes_avx2_seal / _open(k = rdi, out = rsi, in = rdx,
#                                         blocks = rcx, ctr = r8, Xi = r9)
#     r10 AES schedule (k->aes_key), r11 GHASH key (k->ghash_key),
#     eax Nr, r8 (after the counter is read) address of rk[Nr],
#     rbx, rdi, rbp: tail GHASH data pointer, block count, power pointer.
#     ymm0-ymm3   the eight AES blocks in flight
#     ymm4        the current round key, in both lanes
#     ymm5        the counter base (ctr + i, ctr + i + 1), counter bytes swapped
#     ymm6 ymm7 ymm8   GHASH lo, mid, hi accumulators
#     ymm9        a data pair for GHASH (byte-reversed); in the last round,
#                 rk[Nr] ^ data
#     ymm10 ymm11 half-sum and product temporaries
#     ymm12       per-lane byte-reversal mask;  ymm13 counter byte swap
#     ymm14       Y, the running hash, reflected, in the low lane (the high
#                 lane is zero, so XORing ymm14 into a pair adds Y to its
#                 first block only)
# The function ends with VZEROALL: no key stream, data, round key, power of
# H or Y is left in any vector register. On win64 the translator saves and
# restores xmm6-xmm15, rbx, rbp, rdi and rsi.
#
# Secrets and constant time
# =========================
# Secret: the round keys, H and its powers, Y, the data and the key stream
# (the counter block is treated like data). They flow only through VAESENC/
# VAESENCLAST, VPCLMULQDQ, VPXOR, VPADDD, VPSHUFB/VPSHUFD with constant
# masks and immediates, VEXTRACTI128 and VBROADCASTI128, none of which has
# an operand-dependent timing, and through loads and stores at addresses
# made from the caller's pointers, the block count and Nr. Branches depend
# on the block count and on Nr (the key length) only: both public.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

# Offsets in struct fused_keys (crypto/fused/fused.h; asserted in
# crypto/fused/fused_vaes_avx2.c) and struct aes_schedule.
my $K_AES_KEY = 8;
my $K_GHASH_KEY = 24;
my $ROUNDS = 1920;

my $code = <<___;
.rodata
.align 32
.Lbswap_mask:                   # reverses the bytes of each 128-bit lane
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lctr_swap:                     # reverses bytes 12..15 of each lane
    .byte 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12
    .byte 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12
.Linc_lane1:                    # (+0, +1): the base's two lanes
    .long 0, 0, 0, 0, 0, 0, 0, 1
.Linc2:
    .long 0, 0, 0, 2, 0, 0, 0, 2
.Linc4:
    .long 0, 0, 0, 4, 0, 0, 0, 4
.Linc6:
    .long 0, 0, 0, 6, 0, 0, 0, 6
.Linc8:
    .long 0, 0, 0, 8, 0, 0, 0, 8
.Lpoly:                         # x^-1 mod P, reflected; high qword 0xC2 << 56
    .quad 0x0000000000000001, 0xc200000000000000
___

my ($out, $in, $blocks) = qw(rsi rdx rcx);
my ($aes, $gkey, $rklast) = qw(r10 r11 r8);

# ---------------------------------------------------------------------------
# GHASH pieces (same arithmetic as ghash-vpclmul-avx2-x86_64.pl).

# mul_acc(first, data, pow, half, lo, mid, hi, t0, t1): Karatsuba
# products of data with pow (and pow's half sums at `half`), XORed into
# (or, when first, written to) lo/mid/hi; mid is completed by $fixup.
sub mul_acc {
    my ($first, $d, $p, $k, $lo, $mid, $hi, $t0, $t1) = @_;
    my $s = <<___;
    vpshufd    $t0, $d, 0x4e
    vpxor      $t0, $t0, $d                 # q0: a0 ^ a1
___
    if ($first) {
        return $s . <<___;
    vpclmulqdq $lo, $d, $p, 0x00
    vpclmulqdq $hi, $d, $p, 0x11
    vpclmulqdq $mid, $t0, $k, 0x00
___
    }
    return $s . <<___;
    vpclmulqdq $t1, $d, $p, 0x00
    vpxor      $lo, $lo, $t1
    vpclmulqdq $t1, $d, $p, 0x11
    vpxor      $hi, $hi, $t1
    vpclmulqdq $t0, $t0, $k, 0x00
    vpxor      $mid, $mid, $t0
___
}

my $fold_lanes = <<___;
    vextracti128 xmm10, ymm6, 1
    vpxor      xmm6, xmm6, xmm10
    vextracti128 xmm10, ymm7, 1
    vpxor      xmm7, xmm7, xmm10
    vextracti128 xmm10, ymm8, 1
    vpxor      xmm8, xmm8, xmm10
___
my $fixup = <<___;
    vpxor      xmm7, xmm7, xmm6                # Karatsuba: mid ^= lo ^ hi
    vpxor      xmm7, xmm7, xmm8
___
my $fold = $fold_lanes . $fixup;
my $reduce1 = <<___;
    vpclmulqdq xmm10, xmm6, [.Lpoly], 0x10  # phase 1: lo.q0 * 0xC2<<56
    vpshufd    xmm6, xmm6, 0x4e
    vpxor      xmm7, xmm7, xmm6
    vpxor      xmm7, xmm7, xmm10
___
my $reduce2 = <<___;
    vpclmulqdq xmm10, xmm7, [.Lpoly], 0x10  # phase 2: mid.q0 * 0xC2<<56
    vpshufd    xmm7, xmm7, 0x4e
    vpxor      xmm14, xmm8, xmm7
    vpxor      xmm14, xmm14, xmm10             # Y, high lane zero
___

# ghash_pair(j, src): pair j of an eight-block group at src + 32j, with
# powers (H^(8-2j), H^(7-2j)); the first pair absorbs Y.
sub ghash_pair {
    my ($j, $src) = @_;
    my $s = "    vmovdqu    ymm9, [$src]\n    vpshufb    ymm9, ymm9, ymm12\n";
    $s .= "    vpxor      ymm9, ymm9, ymm14\n" if $j == 0;
    $s .= mul_acc($j == 0, 'ymm9', "[$gkey + " . (128 + 32 * $j) . "]",
                  "[$gkey + " . (384 + 32 * $j) . "]",
                  'ymm6', 'ymm7', 'ymm8', 'ymm10', 'ymm11');
    return $s;
}

# ghash_run(tag): Y = GHASH of rdi (1..15) blocks at rbx with H^rdi .. H^1,
# one reduction. Clobbers rbx, rdi, rbp.
sub ghash_run {
    my ($tag) = @_;
    return <<___;
    mov        rbp, 16
    sub        rbp, rdi
    shl        rbp, 4
    add        rbp, $gkey                      # entry 16 - count
    vpxor      xmm6, xmm6, xmm6
    vpxor      xmm7, xmm7, xmm7
    vpxor      xmm8, xmm8, xmm8
    cmp        rdi, 2
    jb         .L${tag}_one
.L${tag}_pairs:
    vmovdqu    ymm9, [rbx]
    vpshufb    ymm9, ymm9, ymm12
    vpxor      ymm9, ymm9, ymm14
    vpxor      xmm14, xmm14, xmm14             # Y is in; later XORs add nothing
@{[ mul_acc(0, 'ymm9', '[rbp]', '[rbp + 256]', 'ymm6', 'ymm7', 'ymm8', 'ymm10', 'ymm11') ]}
    add        rbx, 32
    add        rbp, 32
    sub        rdi, 2
    cmp        rdi, 2
    jae        .L${tag}_pairs
$fold_lanes
    test       rdi, rdi
    jz         .L${tag}_reduce
.L${tag}_one:
    vmovdqu    xmm9, [rbx]
    vpshufb    xmm9, xmm9, xmm12
    vpxor      xmm9, xmm9, xmm14
@{[ mul_acc(0, 'xmm9', '[rbp]', '[rbp + 256]', 'xmm6', 'xmm7', 'xmm8', 'xmm10', 'xmm11') ]}
.L${tag}_reduce:
$fixup
$reduce1
$reduce2
___
}

# ---------------------------------------------------------------------------
# AES pieces.

# counters: ymm0-3 = the next eight counter blocks ^ rk[0]; base += 8.
my $counters = <<___;
    vbroadcasti128 ymm4, [$aes]
    vpaddd     ymm1, ymm5, [.Linc2]
    vpaddd     ymm2, ymm5, [.Linc4]
    vpaddd     ymm3, ymm5, [.Linc6]
    vpshufb    ymm0, ymm5, ymm13
    vpaddd     ymm5, ymm5, [.Linc8]
    vpshufb    ymm1, ymm1, ymm13
    vpshufb    ymm2, ymm2, ymm13
    vpshufb    ymm3, ymm3, ymm13
    vpxor      ymm0, ymm0, ymm4
    vpxor      ymm1, ymm1, ymm4
    vpxor      ymm2, ymm2, ymm4
    vpxor      ymm3, ymm3, ymm4
___

sub round {
    my ($r) = @_;
    my $s = "    vbroadcasti128 ymm4, [$aes + " . 16 * $r . "]\n";
    $s .= "    vaesenc    ymm$_, ymm$_, ymm4\n" for 0 .. 3;
    return $s;
}

# rounds(tag, hooks): rounds 1 .. Nr-1 with hooks->{r} after round r
# (r = 1..9, present for every key size), then ymm4 = rk[Nr].
sub rounds {
    my ($tag, $hooks) = @_;
    my $s = '';
    for my $r (1 .. 9) {
        $s .= round($r);
        $s .= $hooks->{$r} if $hooks && $hooks->{$r};
    }
    $s .= "    cmp        eax, 10\n    je         .L${tag}_last\n";
    $s .= round(10) . round(11);
    $s .= "    cmp        eax, 12\n    je         .L${tag}_last\n";
    $s .= round(12) . round(13);
    $s .= ".L${tag}_last:\n    vbroadcasti128 ymm4, [$rklast]\n";
    return $s;
}

# last8: the last round with the data folded in, eight blocks stored.
my $last8 = '';
for my $j (0 .. 3) {
    $last8 .= <<___;
    vpxor      ymm9, ymm4, [$in + @{[ 32 * $j ]}]
    vaesenclast ymm$j, ymm$j, ymm9
    vmovdqu    [$out + @{[ 32 * $j ]}], ymm$j
___
}

# tail_store(tag): ymm0-3 hold the rounds 1..Nr-1 of eight blocks and ymm4
# rk[Nr]; XOR and store the first `blocks` (1..7) of them.
sub tail_store {
    my ($tag) = @_;
    my $s = '';
    $s .= "    vaesenclast ymm$_, ymm$_, ymm4\n" for 0 .. 3;
    for my $j (0 .. 3) {
        my $o = 32 * $j;
        $s .= <<___;
    cmp        $blocks, @{[ 2 * $j + 2 ]}
    jb         .L${tag}_odd$j
    vpxor      ymm$j, ymm$j, [$in + $o]
    vmovdqu    [$out + $o], ymm$j
___
    }
    for my $j (0 .. 3) {
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

# Common entry: pointers, Nr, masks, Y and the counter base.
my $entry = <<___;
    mov        $aes, [rdi + $K_AES_KEY]
    mov        $gkey, [rdi + $K_GHASH_KEY]
    mov        eax, [$aes + $ROUNDS]
    vmovdqa    ymm12, [.Lbswap_mask]
    vmovdqa    ymm13, [.Lctr_swap]
    vmovdqu    xmm14, [r9]
    vpshufb    xmm14, xmm14, xmm12          # Y, reflected; high lane zero
    vbroadcasti128 ymm5, [r8]
    vpshufb    ymm5, ymm5, ymm13
    vpaddd     ymm5, ymm5, [.Linc_lane1]    # (ctr, ctr + 1), counters swapped
    mov        edi, eax
    shl        edi, 4
    lea        $rklast, [$aes + rdi]        # address of rk[Nr]
___

my $exit = <<___;
    vpshufb    xmm14, xmm14, xmm12
    vmovdqu    [r9], xmm14
    vzeroall
___

# Stitched iteration: GHASH of eight blocks at `src` inside the rounds.
sub stitched {
    my ($tag, $src) = @_;
    my %hooks = (
        1 => ghash_pair(0, "$src + 0"),
        2 => ghash_pair(1, "$src + 32"),
        3 => ghash_pair(2, "$src + 64"),
        4 => ghash_pair(3, "$src + 96"),
        5 => $fold,
        6 => $reduce1,
        7 => $reduce2,
    );
    return $counters . rounds($tag, \%hooks) . $last8;
}

# ---------------------------------------------------------------------------
# seal

$code .= <<___;

.text
.function aes_gcm_x86_64_vaes_avx2_seal args=6   # (const struct fused_keys *k, uint8_t *out, const uint8_t *in, size_t blocks, const uint8_t ctr[16], uint8_t Xi[16])
$entry
    cmp        $blocks, 8
    jb         .Lseal_tail_alone
$counters
@{[ rounds('seal_first') ]}
$last8
    add        $in, 128
    add        $out, 128
    sub        $blocks, 8
.Lseal_loop:                                # eight ciphertext blocks pending at out - 128
    cmp        $blocks, 8
    jb         .Lseal_tail_pending
@{[ stitched('seal_loop', "$out - 128") ]}
    add        $in, 128
    add        $out, 128
    sub        $blocks, 8
    jmp        .Lseal_loop
.Lseal_tail_pending:                        # 8 pending + 0..7 left
    lea        rbx, [$out - 128]
    lea        rdi, [$blocks + 8]
    test       $blocks, $blocks
    jz         .Lseal_hash
    jmp        .Lseal_tail
.Lseal_tail_alone:                          # 1..7 blocks in all
    mov        rbx, $out
    mov        rdi, $blocks
.Lseal_tail:
$counters
@{[ rounds('seal_tail') ]}
@{[ tail_store('seal_tail') ]}
.Lseal_hash:
@{[ ghash_run('seal_hash') ]}
$exit
.endfunction
___

# ---------------------------------------------------------------------------
# open

$code .= <<___;

.function aes_gcm_x86_64_vaes_avx2_open args=6   # (const struct fused_keys *k, uint8_t *out, const uint8_t *in, size_t blocks, const uint8_t ctr[16], uint8_t Xi[16])
$entry
.Lopen_loop:
    cmp        $blocks, 8
    jb         .Lopen_tail
@{[ stitched('open_loop', $in) ]}
    add        $in, 128
    add        $out, 128
    sub        $blocks, 8
    jmp        .Lopen_loop
.Lopen_tail:                                # 0..7 left: hash, then decrypt
    test       $blocks, $blocks
    jz         .Lopen_done
    mov        rbx, $in
    mov        rdi, $blocks
@{[ ghash_run('open_hash') ]}
$counters
@{[ rounds('open_tail') ]}
@{[ tail_store('open_tail') ]}
.Lopen_done:
$exit
.endfunction
___

perlasm::driver::finish('x86_64', $code);
