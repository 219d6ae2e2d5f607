#!/usr/bin/env perl
# asm/x86_64/ghash-vpclmul-avx2-x86_64.pl: GHASH with 256-bit VPCLMULQDQ
# (VEX-encoded, AVX2 registers), the kernel behind the "vpclmul_avx2"
# descriptor in crypto/ghash/ghash_vpclmul_avx2.c. Its key is also what the
# fused kernel asm/x86_64/aes-gcm-vaes-avx2-x86_64.pl reads.
#
# Usage: perl ghash-vpclmul-avx2-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# The field, the reflected form and the H*x^-1 trick are those of the clmul
# kernel (asm/x86_64/ghash-clmul-x86_64.pl explains them): after a byte
# reversal a block is a 128-bit integer whose bit k is the coefficient of
# x^(127-k), init stores H' = H*x^-1, and the 256-bit carry-less product of
# a reflected block with a stored power is then congruent to the field
# product with that power of H.
#
# Two blocks per register. A ymm register holds two blocks, one per
# 128-bit lane; VPCLMULQDQ with a ymm destination does the same 64x64-bit
# multiply in both lanes, VPSHUFB reverses bytes within each lane. A pair of
# data blocks (X_j in lane 0, X_j+1 in lane 1) is multiplied lane by lane
# with a pair of powers (H^(m+1) in lane 0, H^m in lane 1) by Karatsuba,
# three multiplies per lane:
#     lo  = a0*h0                  (imm 0x00)
#     hi  = a1*h1                  (imm 0x11)
#     mid = (a0^a1)*(h0^h1)        (imm 0x00 on the half sums)
#     a*h = hi<<128 ^ (mid ^ lo ^ hi)<<64 ^ lo
# The half sums cost a VPSHUFD and a VPXOR each, which run beside the
# multiplies: the data's a0^a1 per pair, the powers' h0^h1 once per call
# for the sixteen-block loop (into ymm8..ymm15) and per pair in a shorter
# run. They are not stored with the key, which so holds the sixteen powers
# only: 256 bytes, what a key on this backend costs. On the Zen 4 this was
# tuned on, a 256-bit VPCLMULQDQ costs about as much issue time as four
# VAESENC and does not overlap them well, so the multiply count bounds this
# kernel and the fused one: three per block pair instead of the schoolbook
# four. Because the "mid ^ lo ^ hi" fix-up is linear, it is done once per
# group, after the sums.
#
# Aggregation: 16 blocks per reduction,
#     Y' = (Y ^ X1)*H^16 ^ X2*H^15 ^ ... ^ X16*H
# The lo, mid and hi parts of all 16 products are XORed into three ymm
# accumulators; at the end the two lanes are folded together (XOR of the
# upper lane into the lower) and one reduction follows. A remaining run of
# n < 16 blocks is aggregated the same way with H^n .. H^1, in pairs, then
# one single block in an xmm register when n is odd; a run of fewer than
# four blocks in all goes one block at a time in xmm registers (see
# $short_run below). A single block takes the schoolbook four multiplies
# (a0*h1 and a1*h0 for the middle), which need no half sums and chain
# less; the pairs' middle sums are completed before singles add to them.
#
# Reduction. With T = hi*2^128 ^ mid*2^64 ^ lo (64-bit limbs T0..T3), the
# clmul kernel's two Montgomery phases (each clears the lowest limb t by
# adding t*P', which amounts to "swap the two qwords of the low 128 bits and
# XOR clmul(t, 0xC2<<56)") can start before mid is merged, because mid only
# occupies limbs 1 and 2:
#     mid ^= swap64(lo) ^ clmul(lo.q0, 0xC2<<56)      phase 1, limbs 1..2
#     Y    = hi ^ swap64(mid) ^ clmul(mid.q0, 0xC2<<56)  phase 2, limbs 2..3
# which equals the clmul kernel's result (the same limbs are XORed
# together; only the order differs) and saves the shifts that place mid.
#
# Key layout (struct ghash_key, 16-byte aligned, 256 bytes):
#     [16*e]        H'^(16-e), e = 0..15, reflected (H'^16 first, H'^1 last)
# A 32-byte load at 16*e is the pair (H'^(16-e), H'^(15-e)) for two
# consecutive blocks; a run of n blocks starts at e = 16 - n. The fused
# kernels (aes-gcm-vaes-avx2 and -avx512) read the same powers.
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   gcmi_ghash_x86_64_vpclmul_avx2_blocks(Xi = rdi, key = rsi, in = rdx,
#                                    blocks = rcx), and
#   gcmi_ghash_x86_64_vpclmul_avx2_polyval (the same without the swaps)
#     ymm0        Y (upper lane zero); XORed into the first block of a
#                 group, then zeroed so later XORs are no-ops
#     ymm1 ymm2 ymm3   lo, mid, hi accumulators
#     ymm4        the data pair, byte-reversed
#     ymm5 ymm6   half-sum and product temporaries
#     ymm7        per-lane byte-reversal mask
#     ymm8-ymm15  the half sums of the eight power pairs (sixteen-block
#                 loop); in a shorter run, ymm8 a power pair's half sum
#     r8          address of the first power of a short run; rax its count
#   gcmi_ghash_x86_64_vpclmul_avx2_polyval_runs(S = rdi, key = rsi,
#     runs = rdx): POLYVAL over a message's runs in groups of sixteen
#     across them (AES-GCM-SIV; the vaes_avx2 fused descriptor's
#     siv_polyval_runs); its registers are listed above the function
#   gcmi_ghash_x86_64_vpclmul_avx2_init(key = rdi, H = rsi)
#     xmm0 current power, xmm1 H', xmm5 its half sum, xmm2-xmm4 products,
#     xmm6 temporary
# Every register that held H, a power, Y or data is cleared before return
# (a VEX XOR of each xmm clears its whole ymm; the translator's VZEROUPPER
# follows). On win64 the translator saves and restores the callee-saved
# xmm6-xmm15 the kernel touches (and rdi, rsi).
#
# Secrets and constant time
# =========================
# Secret: H and its powers, Y and the data. They only flow through
# VPCLMULQDQ, VPXOR/VPAND, VPSHUFB/VPSHUFD with constant masks, shifts by
# constants and VEXTRACTI128; VPCLMULQDQ's timing does not depend on its
# operands. Branches and addresses depend only on the pointers and the block
# count. The conditional reduction of H*x^-1 at init is a mask from an
# arithmetic shift, not a branch.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::ghash_clmul_common;                # h_prime
use perlasm::vpclmul_avx2_powers;               # init_for's powers
use perlasm::siv_runs qw(runs_entry first_run skip_empty_runs);      # walking struct siv_polyval_runs

my $code = <<___;
.rodata
.align 32
.Lbswap_mask:                   # reverses the bytes of each 128-bit lane
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lpoly:                         # x^-1 mod P, reflected; high qword 0xC2 << 56
    .quad 0x0000000000000001, 0xc200000000000000
___

# mul_acc(first, data, pow, half, lo, mid, hi, t0, t1): the Karatsuba
# products of `data` (register) with `pow` (register or memory) and its
# half sum `half` (register, half_sum), XORed into lo/mid/hi, or written there when
# `first`. mid collects (a0^a1)*(h0^h1) only; fixup() completes it. Works
# on xmm or ymm names alike; data is kept, t0 and t1 are clobbered.
sub mul_acc {
    my ($first, $d, $p, $k, $lo, $mid, $hi, $t0, $t1) = @_;
    my $s = <<___;
    vpshufd    $t0, $d, 0x4e
    vpxor      $t0, $t0, $d                 # q0: a0 ^ a1
___
    if ($first) {
        return $s . <<___;
    vpclmulqdq $lo, $d, $p, 0x00            # a0 * h0
    vpclmulqdq $hi, $d, $p, 0x11            # a1 * h1
    vpclmulqdq $mid, $t0, $k, 0x00          # (a0^a1) * (h0^h1)
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

# half_sum(dst, pow): dst = the Karatsuba half sums h0^h1 of the power
# (pair) at `pow` (memory), in both qwords of each lane.
sub half_sum {
    my ($dst, $p) = @_;
    return <<___;
    vpshufd    $dst, $p, 0x4e
    vpxor      $dst, $dst, $p               # q0, q1: h0 ^ h1
___
}

# schoolbook_acc(data, pow, lo, mid, hi, t0, t1): the four products of
# `data` with `pow` (memory) XORed into lo, mid (completed: a0*h1 ^ a1*h0)
# and hi; for single blocks, where no half sum is worth making.
sub schoolbook_acc {
    my ($d, $p, $lo, $mid, $hi, $t0, $t1) = @_;
    return <<___;
    vpclmulqdq $t0, $d, $p, 0x00
    vpxor      $lo, $lo, $t0
    vpclmulqdq $t1, $d, $p, 0x11
    vpxor      $hi, $hi, $t1
    vpclmulqdq $t0, $d, $p, 0x01
    vpxor      $mid, $mid, $t0
    vpclmulqdq $t1, $d, $p, 0x10
    vpxor      $mid, $mid, $t1
___
}

# fixup(lo, mid, hi): mid = (a0^a1)(h0^h1) ^ lo ^ hi = a0*h1 ^ a1*h0.
sub fixup {
    my ($lo, $mid, $hi) = @_;
    return <<___;
    vpxor      $mid, $mid, $lo
    vpxor      $mid, $mid, $hi
___
}

# reduce(y, lo, mid, hi, t): y = (hi:mid:lo) reduced, all xmm names; lo,
# mid and t are clobbered (y may be hi).
sub reduce {
    my ($y, $lo, $mid, $hi, $t) = @_;
    return <<___;
    vpclmulqdq $t, $lo, [.Lpoly], 0x10      # phase 1: lo.q0 * 0xC2<<56
    vpshufd    $lo, $lo, 0x4e
    vpxor      $mid, $mid, $lo
    vpxor      $mid, $mid, $t
    vpclmulqdq $t, $mid, [.Lpoly], 0x10     # phase 2: mid.q0 * 0xC2<<56
    vpshufd    $mid, $mid, 0x4e
    vpxor      $y, $hi, $mid
    vpxor      $y, $y, $t
___
}

# fold(x, y): x (xmm) = low lane ^ high lane of y (the ymm of the same number).
sub fold {
    my ($n, $t) = @_;
    return <<___;
    vextracti128 xmm$t, ymm$n, 1
    vpxor      xmm$n, xmm$n, xmm$t
___
}

# clear(list): zero the whole ymm registers of the list.
sub clear { return join '', map { "    vpxor      xmm$_, xmm$_, xmm$_\n" } @_ }

# init: H' = H*x^-1, then H'^2 .. H'^16.
$code .= <<___;

.text
.function gcmi_ghash_x86_64_vpclmul_avx2_init args=2 public=rdi,rsi,rcx,rax   # (struct ghash_key *key, const uint8_t H[16])
@{[ perlasm::ghash_clmul_common::h_prime('rsi', 1) ]}    vmovdqa    xmm1, xmm0
    vpshufd    xmm5, xmm0, 0x4e
    vpxor      xmm5, xmm5, xmm0             # H' half sum, both qwords
    vmovdqu    [rdi + 240], xmm0            # entry 15: H'^1
    lea        rax, [rdi + 224]
    mov        ecx, 15
.Linit_loop:                                # xmm0 = xmm0 * H', fifteen times
@{[ mul_acc(1, 'xmm0', 'xmm1', 'xmm5', 'xmm2', 'xmm3', 'xmm4', 'xmm6', 'xmm6') ]}
@{[ fixup('xmm2', 'xmm3', 'xmm4') ]}
@{[ reduce('xmm0', 'xmm2', 'xmm3', 'xmm4', 'xmm6') ]}
    vmovdqu    [rax], xmm0                  # H'^(16 - e) at entry e
    sub        rax, 16
    dec        ecx
    jnz        .Linit_loop
@{[ clear(0 .. 6) ]}
.endfunction
___

# init_for (AES-GCM-SIV, which makes a key per message; max_blocks in rdx,
# at least 1, public): only the powers that calls of at most max_blocks
# blocks read, H'^1 .. H'^n for n = 4, 8 or 16 (a run of n blocks starts
# at entry 16 - n), in four rounds of multiplies rather than init's
# fifteen in a row (perlasm/vpclmul_avx2_powers.pm explains them; 36
# VPCLMULQDQ for sixteen powers). The arithmetic is init's: the same
# field, the same H', the same reduction.
$code .= <<___;

.function gcmi_ghash_x86_64_vpclmul_avx2_init_for args=3 public=rdi,rsi,rdx   # (struct ghash_key *key, const uint8_t H[16], size_t max_blocks)
@{[ perlasm::ghash_clmul_common::h_prime('rsi', 1) ]}@{[ perlasm::vpclmul_avx2_powers::powers('rdi', 'rdx', '.Linit_for_done', '[.Lpoly]') ]}.Linit_for_done:
@{[ clear(0 .. 15) ]}
.endfunction
___

# blocks: Xi = (...((Xi ^ X1) H ^ X2) H ...) H over `blocks` blocks.
my ($Xi, $key, $in, $blocks) = qw(rdi rsi rdx rcx);
# Runs shorter than this many blocks (a short message's AAD, data and
# length block) take 16-byte loads and xmm multiplies one block at a time:
# a 32-byte load of two blocks the caller has just written with separate
# 16-byte stores cannot be forwarded from the store buffer and waits for
# them to reach the cache, and the lane folds add latency a short run
# cannot hide. Measured on Zen 4 (gcm-cycles, 16-byte seal, 3 blocks).
my $short_run = 4;

# The half sums of the eight power pairs, for the sixteen-block loop.
my $halves = join '', map { half_sum('ymm' . (8 + $_), "[$key + " . 32 * $_ . "]") } 0 .. 7;

my $sixteen = '';
for my $j (0 .. 7) {
    $sixteen .= "    vmovdqu    ymm4, [$in + " . 32 * $j . "]\n";
    $sixteen .= "    vpshufb    ymm4, ymm4, ymm7\n";
    $sixteen .= "    vpxor      ymm4, ymm4, ymm0\n" if $j == 0;
    $sixteen .= mul_acc($j == 0, 'ymm4', "[$key + " . 32 * $j . "]",
                        'ymm' . (8 + $j), 'ymm1', 'ymm2', 'ymm3', 'ymm5', 'ymm6');
}

my $blocks_fn = <<___;

.function gcmi_ghash_x86_64_vpclmul_avx2_blocks args=4 public=rdi,rsi,rdx,rcx,r8,rax   # (uint8_t Xi[16], const struct ghash_key *key, const uint8_t *in, size_t blocks)
    test       $blocks, $blocks
    jz         .Lblocks_return
    vmovdqa    ymm7, [.Lbswap_mask]
    vmovdqu    xmm0, [$Xi]
    vpshufb    xmm0, xmm0, xmm7             # Y, reflected; upper lane zero
    cmp        $blocks, 16
    jb         .Lblocks_tail
$halves
.Lblocks_loop16:
$sixteen
@{[ fold(1, 5) ]}
@{[ fold(2, 5) ]}
@{[ fold(3, 5) ]}
@{[ fixup('xmm1', 'xmm2', 'xmm3') ]}
@{[ reduce('xmm0', 'xmm1', 'xmm2', 'xmm3', 'xmm5') ]}
    add        $in, 256
    sub        $blocks, 16
    cmp        $blocks, 16
    jae        .Lblocks_loop16
    test       $blocks, $blocks
    jz         .Lblocks_done
@{[ clear(9 .. 15) ]}
.Lblocks_tail:                              # 1..15 blocks: H^n .. H^1
    mov        rax, 16
    sub        rax, $blocks
    shl        rax, 4
    lea        r8, [$key + rax]             # entry 16 - n
    vpxor      xmm1, xmm1, xmm1
    vpxor      xmm2, xmm2, xmm2
    vpxor      xmm3, xmm3, xmm3
    cmp        $blocks, $short_run
    jb         .Lblocks_tail_singles
.Lblocks_tail_pairs:
    vmovdqu    ymm4, [$in]
    vpshufb    ymm4, ymm4, ymm7
    vpxor      ymm4, ymm4, ymm0
    vpxor      xmm0, xmm0, xmm0             # Y is in; later XORs add nothing
@{[ half_sum('ymm8', '[r8]') ]}
@{[ mul_acc(0, 'ymm4', '[r8]', 'ymm8', 'ymm1', 'ymm2', 'ymm3', 'ymm5', 'ymm6') ]}
    add        $in, 32
    add        r8, 32
    sub        $blocks, 2
    cmp        $blocks, 2
    jae        .Lblocks_tail_pairs
@{[ fold(1, 5) ]}
@{[ fold(2, 5) ]}
@{[ fold(3, 5) ]}
@{[ fixup('xmm1', 'xmm2', 'xmm3') ]}
    test       $blocks, $blocks
    jz         .Lblocks_tail_reduce
.Lblocks_tail_singles:                      # a short run, or the odd block
    vmovdqu    xmm4, [$in]
    vpshufb    xmm4, xmm4, xmm7
    vpxor      xmm4, xmm4, xmm0
    vpxor      xmm0, xmm0, xmm0             # Y is in; later XORs add nothing
@{[ schoolbook_acc('xmm4', '[r8]', 'xmm1', 'xmm2', 'xmm3', 'xmm5', 'xmm6') ]}
    add        $in, 16
    add        r8, 16
    dec        $blocks
    jnz        .Lblocks_tail_singles
.Lblocks_tail_reduce:
@{[ reduce('xmm0', 'xmm1', 'xmm2', 'xmm3', 'xmm5') ]}
.Lblocks_done:
    vpshufb    xmm0, xmm0, xmm7
    vmovdqu    [$Xi], xmm0
@{[ clear(0 .. 6, 8) ]}
.Lblocks_return:
.endfunction
___
$code .= $blocks_fn;

# polyval: the blocks function without its byte swaps, for AES-GCM-SIV
# (RFC 8452). This kernel's reflected form is the byte reversal of a GCM
# block, which is a POLYVAL block as it is (RFC 8452, appendix A;
# crypto/siv/polyval.c), so on a key init made from
# mulX_GHASH(ByteReverse(h)) the same code without the mask load and
# without every VPSHUFB by it computes POLYVAL with key h, S loaded and
# stored as it is.
(my $polyval_fn = $blocks_fn) =~ s/^ +vmovdqa +ymm7, \[\.Lbswap_mask\]\n//m
    or die "the blocks function no longer loads its mask into ymm7\n";
my $swaps = ($polyval_fn =~ s/^ +vpshufb +([xy])mm(\d+), \1mm\2, \1mm7\b.*\n//mg);
die "the blocks function has no byte swaps by ymm7\n" unless $swaps;
$polyval_fn =~ /[xy]mm7\b/ and die "ymm7 is still used after removing the swaps\n";
$polyval_fn =~ s/\.Lblocks_/.Lpolyval_/g;
$polyval_fn =~ s/gcmi_ghash_x86_64_vpclmul_avx2_blocks\b/gcmi_ghash_x86_64_vpclmul_avx2_polyval/;
$code .= $polyval_fn;

# polyval_runs(S, key, runs): POLYVAL over the four runs of struct
# siv_polyval_runs (crypto/fused/fused.h) in order, in one call, as one
# stream of N blocks cut into groups of sixteen (the first N mod 16, or
# sixteen), one reduction per group, whichever runs a group's blocks come
# from: AES-GCM-SIV hashes a whole message with it (the AAD, the data,
# the padded last block and the length block), in ceil(N/16) reductions
# instead of one or two per piece. A group's blocks are multiplied by
# H^k .. H^1 (k its size) in order, so a piece of c blocks that starts
# o blocks into the group takes the powers from entry 16 - k + o: no
# block is moved, each piece runs the pairs-then-odd-block code of the
# tail above from its own pointer. A group of sixteen from one run takes
# the loop's code with the half sums of the eight power pairs, made once
# at entry. An odd block is multiplied in xmm (its power loaded alone, so
# nothing past the key's last entry is read) and added to the ymm sums,
# whose upper lane it leaves alone. The key must hold all sixteen powers
# (init, or init_for with max_blocks of at least 16).
# Registers: r9 S's address, r10 the current run's slot, rdx and rcx its
# pointer and blocks left, rax the blocks left in all, rbx the group's
# size, rdi the blocks of it taken so far, r11 the piece's count, r8 its
# first power; ymm as in polyval (ymm7 the pairs' half sums, or the odd
# block's power).
my $sixteen_pv = '';
for my $j (0 .. 7) {
    $sixteen_pv .= "    vmovdqu    ymm4, [$in + " . 32 * $j . "]\n";
    $sixteen_pv .= "    vpxor      ymm4, ymm4, ymm0\n" if $j == 0;
    $sixteen_pv .= mul_acc($j == 0, 'ymm4', "[$key + " . 32 * $j . "]",
                           'ymm' . (8 + $j), 'ymm1', 'ymm2', 'ymm3', 'ymm5', 'ymm6');
}
my $group_end = join '', fold(1, 5), fold(2, 5), fold(3, 5), fixup('xmm1', 'xmm2', 'xmm3'),
                         reduce('xmm0', 'xmm1', 'xmm2', 'xmm3', 'xmm5');
$code .= <<___;

.function gcmi_ghash_x86_64_vpclmul_avx2_polyval_runs args=3 public=rdi,rsi,rdx,rcx,r8,r9,r10,r11,rax,rbx   # (uint8_t S[16], const struct ghash_key *key, const struct siv_polyval_runs *runs)
    mov        r9, rdi                      # S
@{[ runs_entry('rdx', 'rax', '.Lruns_return') ]}    vmovdqu    xmm0, [r9]                   # S; upper lane zero
$halves
@{[ first_run($in, $blocks) ]}    lea        rbx, [rax - 1]
    and        ebx, 15
    inc        ebx                          # the first group: N mod 16, or 16
.Lruns_group:
@{[ skip_empty_runs('runs_skip', $in, $blocks) ]}    cmp        ebx, 16
    jne        .Lruns_gather
    cmp        $blocks, 16
    jb         .Lruns_gather
$sixteen_pv
    add        $in, 256
    sub        $blocks, 16
    jmp        .Lruns_reduce
.Lruns_gather:                              # the group's pieces, from one run or several
    vpxor      xmm1, xmm1, xmm1
    vpxor      xmm2, xmm2, xmm2
    vpxor      xmm3, xmm3, xmm3
    xor        edi, edi
.Lruns_piece:
@{[ skip_empty_runs('runs_pskip', $in, $blocks) ]}    mov        r11, rbx
    sub        r11, rdi
    cmp        r11, $blocks
    cmova      r11, $blocks                 # this piece's blocks
    mov        r8, 16
    sub        r8, rbx
    add        r8, rdi
    shl        r8, 4
    add        r8, $key                     # its first power: entry 16 - k + o
    add        rdi, r11
    sub        $blocks, r11
    cmp        r11, 2
    jb         .Lruns_odd
.Lruns_pairs:
    vmovdqu    ymm4, [$in]
    vpxor      ymm4, ymm4, ymm0
    vpxor      xmm0, xmm0, xmm0             # S is in; later XORs add nothing
@{[ half_sum('ymm7', '[r8]') ]}
@{[ mul_acc(0, 'ymm4', '[r8]', 'ymm7', 'ymm1', 'ymm2', 'ymm3', 'ymm5', 'ymm6') ]}
    add        $in, 32
    add        r8, 32
    sub        r11, 2
    cmp        r11, 2
    jae        .Lruns_pairs
.Lruns_odd:
    test       r11, r11
    jz         .Lruns_piece_done
    vmovdqu    xmm4, [$in]
    vpxor      ymm4, ymm4, ymm0
    vpxor      xmm0, xmm0, xmm0             # S is in; later XORs add nothing
    vmovdqu    xmm7, [r8]                   # its power alone
    vpshufd    xmm5, xmm4, 0x4e
    vpxor      xmm5, xmm5, xmm4             # a0 ^ a1
    vpclmulqdq xmm6, xmm4, xmm7, 0x00
    vpxor      ymm1, ymm1, ymm6
    vpclmulqdq xmm6, xmm4, xmm7, 0x11
    vpxor      ymm3, ymm3, ymm6
    vpshufd    xmm4, xmm7, 0x4e
    vpxor      xmm7, xmm7, xmm4             # h0 ^ h1
    vpclmulqdq xmm5, xmm5, xmm7, 0x00
    vpxor      ymm2, ymm2, ymm5
    add        $in, 16
.Lruns_piece_done:
    cmp        rdi, rbx
    jb         .Lruns_piece
.Lruns_reduce:
$group_end
    sub        rax, rbx
    mov        ebx, 16
    jnz        .Lruns_group
    vmovdqu    [r9], xmm0
@{[ clear(0 .. 15) ]}
.Lruns_return:
.endfunction
___

perlasm::driver::finish('x86_64', $code);
