#!/usr/bin/env perl
# asm/x86_64/aes-gcm-aesni-avx-x86_64.pl: fused AES-CTR + GHASH with AES-NI
# and PCLMULQDQ in the VEX (AVX) encoding on xmm registers, the kernel
# behind the "aesni_avx" descriptor in crypto/fused/fused_aesni_avx.c. It
# meets the contract of crypto/fused/fused.h for the pair (aesni, clmul):
# the CPUs with AES-NI, PCLMULQDQ and AVX but no VAES/VPCLMULQDQ (Sandy
# Bridge to Broadwell, Zen 1 and 2), and any CPU where those are hidden.
#
# Usage: perl aes-gcm-aesni-avx-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# The stitched design of Gueron and Krasnov: the AES rounds of one batch of
# counter blocks and the carry-less multiplies of a batch of ciphertext run
# in one instruction stream, so the AES unit and the multiplier, which are
# separate ports, work at the same time. The VEX encoding gives
# three-operand forms (no register copies) and unaligned memory operands.
#
# AES. Eight counter blocks are in flight in eight registers: AESENC has a
# latency of 4 (Zen) to 7 (Sandy Bridge) cycles and issues one or two per
# cycle, so eight independent chains keep the unit busy. The round key of
# each round is loaded once into a register and used by the eight
# VAESENCs.
#
# Counters. As in the aesni kernel (asm/x86_64/aes-ni-x86_64.pl), the
# counter block is kept with the four bytes of its 32-bit big-endian
# counter reversed, so that the counter is a little-endian dword and VPADDD
# adds modulo 2^32 without touching bytes 0..11. The base (in the stack
# frame: no register is left for it) holds ctr + i for the next block i;
# block r of a batch is base + r, each computed by its own VPADDD from the
# base, so a wrap from 0xFFFFFFFF to 0 anywhere in a batch is exact. A
# VPSHUFB swaps the counter bytes back before rk[0] is XORed in. The last
# round folds the data in: AESENCLAST(s, rk[Nr] ^ in) =
# AESENCLAST(s, rk[Nr]) ^ in, because the last AddRoundKey is an XOR.
#
# GHASH. The field arithmetic and the key are the clmul GHASH kernel's
# (asm/x86_64/ghash-clmul-x86_64.pl explains them): blocks byte-reversed
# into the reflected form, Karatsuba PCLMULQDQ products with the powers
# H'^1..H'^8 that the clmul key already holds (H' = H*x^-1; entry i at
# byte 16*(i-1), its Karatsuba half sum, in both qwords, at
# 128 + 16*(i-1)), lo/mid/hi accumulated unreduced over a group, one
# Montgomery reduction with the constant 0xC2<<56 per group. A group of
# eight blocks X1..X8 gives
#     Y' = (Y ^ X1)*H^8 ^ X2*H^7 ^ ... ^ X8*H
# so the kernel needs nothing beyond the clmul key (no init of its own).
#
# Stitching. Each iteration of the main loop runs the middle rounds of the
# next eight counter blocks and, spread between their VAESENCs, the
# multiplies of one ciphertext block in each of rounds 1..8 and the
# reduction in round 9 (every key size has rounds 1..9). The only chain
# across iterations is Y (the reduction result feeds the next group's first
# block), which is short next to the AES rounds.
# The drivers around the iterations (seal, seal_lagged on whole batches
# with the hash one batch behind, open) are perlasm/fused_driver_x86_64.pm's
# memory_kernel, which explains them. Here seal's iteration hashes the
# previous iteration's eight output blocks, re-read from out where they
# were just stored; seal_lagged's first batch hashes lag->pending from
# memory; open's iteration hashes its own eight input blocks, all read
# before any output of the iteration is written (in == out works).
# Tail (1..7 blocks, or a whole call of fewer than eight): the key stream
# of two, four or eight blocks is computed, the n existing blocks are XORed
# and stored, never touching memory past them, and they are hashed as one
# aggregated run with H^n .. H^1 (one pointer walks the key down as another
# walks the data up), one reduction. Open hashes the tail before decrypting
# it.
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   gcmi_aes_gcm_x86_64_aesni_avx_seal / _open(k = rdi, out = rsi, in = rdx,
#                                         blocks = rcx, ctr = r8, Xi = r9)
#   gcmi_aes_gcm_x86_64_aesni_avx_seal_lagged(the same, but lag = r9): r12
#     lag->pending, rbx lag->has_pending, r9 (before the common entry)
#     lag->Xi; the rest as in seal.
#     r10 AES schedule (k->aes_key), r11 GHASH key (k->ghash_key),
#     eax Nr, r8 (after the counter is read) address of rk[Nr],
#     rbx, rdi, rbp: GHASH run data pointer, block count, power pointer.
#     xmm0-xmm7   the eight AES blocks in flight
#     xmm8        the current round key (first the counter base)
#     xmm9 xmm10 xmm11   GHASH lo, mid, hi accumulators
#     xmm12       a data block for GHASH (byte-reversed); in the last
#                 round, rk[Nr] ^ data
#     xmm13 xmm14 half-sum and product temporaries
#     xmm15       Y, the running hash, reflected
#     [rsp]       the counter base (16 bytes)
# The byte-reversal and counter-swap masks, the counter increments and the
# reduction constant are memory operands. The function wipes the counter
# slot, zeroes xmm0-xmm15 and ends with VZEROUPPER: no key stream, data,
# round key, power of H or Y is left in a vector register, and the upper
# halves of the ymm registers are clean (the ABI test checks XINUSE). The
# zeroing is one zero idiom per register (VPXOR with itself, done at
# register renaming) rather than VZEROALL, which Intel cores run as a
# microcoded sequence (a stream of 16-block calls measured slower with
# it; docs/performance.md). On win64 the translator saves and restores
# xmm6-xmm15, rbx, rbp, rdi and rsi.
#
# Secrets and constant time
# =========================
# Secret: the round keys, H and its powers, Y, the data and the key stream
# (the counter block is treated like data). They flow only through VAESENC/
# VAESENCLAST, VPCLMULQDQ (the VEX form of PCLMULQDQ on xmm), VPXOR,
# VPADDD, VPSHUFB with constant masks and VPSHUFD with a constant
# immediate, none of which has an operand-dependent timing, and through
# loads and stores at addresses made from the caller's pointers, the stack
# pointer, the block count and Nr. Branches depend on the block count, on
# Nr (the key length) and, in seal_lagged, on lag->has_pending only: all
# public. The general-purpose registers declared public below hold only
# pointers, counts, Nr and that flag.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::fused_driver_x86_64 qw(spread);    # seal, seal_lagged, open; the stitching
use perlasm::siv_copy;                           # the AES-GCM-SIV function's byte order

# Offset of the Karatsuba half sums in the clmul GHASH key.
my $HALVES = 128;

my $code = <<___;
.rodata
.align 16
.Lbswap_mask:                   # reverses the 16 bytes
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lctr_swap:                     # reverses bytes 12..15
    .byte 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12
.Lctr_swap_le:                  # exchanges dwords 0 and 3 (AES-GCM-SIV)
    .byte 12, 13, 14, 15, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3
.Lpoly:                         # x^-1 mod P, reflected; high qword 0xC2 << 56
    .quad 0x0000000000000001, 0xc200000000000000
.Linc:                          # +k in the swapped counter dword at 16*k, k = 0 .. 8
___
$code .= "    .long 0, 0, 0, $_\n" for 0 .. 8;

my ($out, $in, $blocks) = qw(rsi rdx rcx);
my ($aes, $gkey, $rklast) = qw(r10 r11 r8);
my ($lo, $mid, $hi, $d, $t0, $t1, $y) = map { "xmm$_" } 9 .. 15;

# ---------------------------------------------------------------------------
# GHASH pieces (same arithmetic as ghash-clmul-x86_64.pl).

# mul_acc(first, data, pow, half): Karatsuba products of data with pow (and
# pow's half sum at `half`), XORed into (or, when first, written to)
# lo/mid/hi; mid is completed by $fixup.
sub mul_acc {
    my ($first, $dd, $p, $k) = @_;
    my $s = <<___;
    vpshufd    $t0, $dd, 0x4e
    vpxor      $t0, $t0, $dd                # a0 ^ a1
___
    if ($first) {
        return $s . <<___;
    vpclmulqdq $lo, $dd, $p, 0x00
    vpclmulqdq $hi, $dd, $p, 0x11
    vpclmulqdq $mid, $t0, $k, 0x00
___
    }
    return $s . <<___;
    vpclmulqdq $t1, $dd, $p, 0x00
    vpxor      $lo, $lo, $t1
    vpclmulqdq $t1, $dd, $p, 0x11
    vpxor      $hi, $hi, $t1
    vpclmulqdq $t0, $t0, $k, 0x00
    vpxor      $mid, $mid, $t0
___
}

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
    vpxor      $y, $y, $t0                     # Y
___

# ghash_block(j, src): block j of an eight-block group at src + 16j, with
# the power H^(8-j); the first block absorbs Y.
sub ghash_block {
    my ($j, $src) = @_;
    my $e = 16 * (7 - $j);
    my $s = "    vmovdqu    $d, [$src + " . 16 * $j . "]\n"
          . "    vpshufb    $d, $d, [.Lbswap_mask]\n";
    $s .= "    vpxor      $d, $d, $y\n" if $j == 0;
    $s .= mul_acc($j == 0, $d, "[$gkey + $e]", "[$gkey + " . ($HALVES + $e) . "]");
    return $s;
}

# ghash_run(tag): Y = GHASH of rdi (1..8) blocks at rbx with H^rdi .. H^1,
# one reduction. Clobbers rbx, rdi, rbp.
sub ghash_run {
    my ($tag) = @_;
    return <<___;
    mov        rbp, rdi
    shl        rbp, 4
    lea        rbp, [$gkey + rbp - 16]         # H^count, at 16 * (count - 1)
    vpxor      $lo, $lo, $lo
    vpxor      $mid, $mid, $mid
    vpxor      $hi, $hi, $hi
.L${tag}_block:
    vmovdqu    $d, [rbx]
    vpshufb    $d, $d, [.Lbswap_mask]
    vpxor      $d, $d, $y
    vpxor      $y, $y, $y                      # Y is in; later XORs add nothing
@{[ mul_acc(0, $d, '[rbp]', "[rbp + $HALVES]") ]}
    add        rbx, 16
    sub        rbp, 16
    sub        rdi, 1
    jnz        .L${tag}_block
$fixup
$reduce
___
}

# ---------------------------------------------------------------------------
# AES pieces.

# counters(n): xmm0..n-1 = the next n counter blocks ^ rk[0]; base += n.
sub counters {
    my ($n) = @_;
    my $s = "    vmovdqa    xmm8, [rsp]\n";
    $s .= "    vpaddd     xmm$_, xmm8, [.Linc + " . 16 * $_ . "]\n" for 1 .. $n - 1;
    $s .= "    vpshufb    xmm0, xmm8, [.Lctr_swap]\n";
    $s .= "    vpaddd     xmm8, xmm8, [.Linc + " . 16 * $n . "]\n";
    $s .= "    vmovdqa    [rsp], xmm8\n";
    $s .= "    vpshufb    xmm$_, xmm$_, [.Lctr_swap]\n" for 1 .. $n - 1;
    $s .= "    vmovdqu    xmm8, [$aes]\n";
    $s .= "    vpxor      xmm$_, xmm$_, xmm8\n" for 0 .. $n - 1;
    return $s;
}

sub round {
    my ($n, $r) = @_;
    my $s = "    vmovdqu    xmm8, [$aes + " . 16 * $r . "]\n";
    $s .= "    vaesenc    xmm$_, xmm$_, xmm8\n" for 0 .. $n - 1;
    return $s;
}

# rounds(n, tag, hooks): rounds 1 .. Nr-1 on xmm0..n-1 with hooks->{r}
# inside round r (r = 1..9, present for every key size), then xmm8 = rk[Nr].
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
    $s .= ".L${tag}_last:\n    vmovdqu    xmm8, [$rklast]\n";
    return $s;
}

# last8: the last round with the data folded in, eight blocks stored.
my $last8 = '';
for my $j (0 .. 7) {
    $last8 .= <<___;
    vpxor      $d, xmm8, [$in + @{[ 16 * $j ]}]
    vaesenclast xmm$j, xmm$j, $d
    vmovdqu    [$out + @{[ 16 * $j ]}], xmm$j
___
}

# tail_store(n, tag): xmm0..n-1 hold rounds 1..Nr-1 of n blocks and xmm8
# rk[Nr]; XOR and store the first `blocks` (1..n) of them.
sub tail_store {
    my ($n, $tag) = @_;
    my $s = '';
    $s .= "    vaesenclast xmm$_, xmm$_, xmm8\n" for 0 .. $n - 1;
    for my $j (0 .. $n - 1) {
        my $o = 16 * $j;
        $s .= "    cmp        $blocks, $j\n    jbe        .L${tag}_stored\n"
            if $j > 0;
        $s .= <<___;
    vpxor      xmm$j, xmm$j, [$in + $o]
    vmovdqu    [$out + $o], xmm$j
___
    }
    $s .= ".L${tag}_stored:\n";
    return $s;
}

# tail(tag, hooks): encrypt the last 1..7 blocks with two, four or eight
# registers, with optional round hooks (seal hashes its pending batch
# there; the hooks fit any of the three widths).
sub tail {
    my ($tag, $hooks) = @_;
    return <<___;
    cmp        $blocks, 4
    ja         .L${tag}_8
    cmp        $blocks, 2
    ja         .L${tag}_4
@{[ counters(2) ]}
@{[ rounds(2, "${tag}_2", $hooks) ]}
@{[ tail_store(2, "${tag}_2") ]}
    jmp        .L${tag}_end
.L${tag}_4:
@{[ counters(4) ]}
@{[ rounds(4, "${tag}_4", $hooks) ]}
@{[ tail_store(4, "${tag}_4") ]}
    jmp        .L${tag}_end
.L${tag}_8:
@{[ counters(8) ]}
@{[ rounds(8, "${tag}_8", $hooks) ]}
@{[ tail_store(8, "${tag}_8") ]}
.L${tag}_end:
___
}

# The entry after the driver's (key pointers and Nr): Y and the counter
# base.
my $entry = <<___;
    vmovdqu    $y, [r9]
    vpshufb    $y, $y, [.Lbswap_mask]       # Y, reflected
    vmovdqu    xmm8, [r8]
    vpshufb    xmm8, xmm8, [.Lctr_swap]     # counter bytes swapped
    vmovdqa    [rsp], xmm8
    mov        edi, eax
    shl        edi, 4
    lea        $rklast, [$aes + rdi]        # address of rk[Nr]
___

my $exit = <<___;
    vpshufb    $y, $y, [.Lbswap_mask]
    vmovdqu    [r9], $y
    vpxor      xmm0, xmm0, xmm0
    vmovdqa    [rsp], xmm0                  # wipe the counter slot
___
$exit .= "    vpxor      xmm$_, xmm$_, xmm$_\n" for 0 .. 15;
$exit .= "    vzeroupper\n";

# The round hooks that hash eight blocks at `src` during rounds 1..9.
sub group_hooks {
    my ($src) = @_;
    my %hooks = map { ($_ => ghash_block($_ - 1, $src)) } 1 .. 8;
    $hooks{8} .= $fixup;
    $hooks{9} = $reduce;
    return \%hooks;
}

# seal, seal_lagged and open on eight-block batches: perlasm/fused_driver_x86_64.pm.
$code .= perlasm::fused_driver_x86_64::memory_kernel(
    { name => 'gcmi_aes_gcm_x86_64_aesni_avx', batch => 8, vec => 'xmm', frame => 16,
      entry => $entry, exit => $exit }, counters => \&counters, rounds => \&rounds,
    last => $last8, tail => \&tail, group_hooks => \&group_hooks, ghash_run => \&ghash_run);

# AES-GCM-SIV (RFC 8452; crypto/siv): siv_open(k, out, in, blocks, ctr, S)
# is seal's text turned into AES-GCM-SIV's byte order by
# perlasm/siv_copy.pm: every shuffle with .Lbswap_mask becomes a move or
# nothing, so the blocks are hashed as they are (POLYVAL on the POLYVAL
# key), and .Lctr_swap becomes .Lctr_swap_le, which moves the little-endian
# counter from dword 0 to dword 3, where the counter base steps it, and
# back. It decrypts and folds the plaintext it writes into S (the fused
# hook of fused.h). Counter mode alone and POLYVAL alone are the aesni
# and clmul backends' ctr32le and polyval_update.
$code .= perlasm::siv_copy::polyval_form($code, 'gcmi_aes_gcm_x86_64_aesni_avx_seal',
                                         'gcmi_aes_gcm_x86_64_aesni_avx_siv_open',
                                         qr/\[\.Lbswap_mask\]/, 'vmovdqa');

perlasm::driver::finish('x86_64', $code);
