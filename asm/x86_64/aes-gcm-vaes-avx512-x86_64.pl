#!/usr/bin/env perl
# asm/x86_64/aes-gcm-vaes-avx512-x86_64.pl: fused AES-CTR + GHASH with VAES
# and VPCLMULQDQ on 512-bit (zmm, EVEX-encoded) registers, the kernel behind
# the "vaes_avx512" descriptor in crypto/fused/fused_vaes_avx512.c. It meets
# the contract of crypto/fused/fused.h for the pair (aesni, vpclmul_avx2):
# it reads the aesni key schedule and the powers of H that the vpclmul_avx2
# GHASH backend stores, and keeps nothing of its own.
#
# Usage: perl aes-gcm-vaes-avx512-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# AES. A zmm register holds four blocks, one per 128-bit lane, and VAESENC
# on it does one AES round on all four with the round key broadcast to
# every lane. Sixteen blocks are in flight in four registers. AVX-512 has
# 32 vector registers, so rk[0], rk[Nr] and the keys of the last nine
# middle rounds (rk[Nr-9] .. rk[Nr-1], rounds every key size has) are
# broadcast once per call into registers of their own; the two or four
# early rounds of AES-192 and AES-256 broadcast their keys from the
# schedule as they go (a load each, which costs no vector unit).
#
# Counters. The counter block is kept byte-reversed, so that its 32-bit
# big-endian counter is the first dword of the lane, little-endian, and
# VPADDD adds to it modulo 2^32 without touching the other twelve bytes.
# A register (zmm13) holds ctr + i .. ctr + i + 3 for the next block i,
# one per lane; each batch register is a VPSHUFB of it (the same
# byte-reversal mask GHASH uses) followed by a VPADDD of 4 in every lane,
# so every lane computes its own counter and a wrap from 0xFFFFFFFF to 0
# anywhere in a batch (even inside one register) is exact. Then rk[0] is
# XORed in. The last round folds the data in: AESENCLAST(s, rk[Nr] ^ in)
# = AESENCLAST(s, rk[Nr]) ^ in, since the last AddRoundKey is an XOR.
#
# GHASH. Blocks are byte-reversed into the reflected form the vpclmul_avx2
# key uses (asm/x86_64/ghash-vpclmul-avx2-x86_64.pl explains it): entry e
# of the key, at byte 16*e, is H'^(16-e), where H' = H*x^-1, so one 64-byte
# load at 64*j gives the powers (H'^(16-4j), .., H'^(13-4j)) that blocks
# 4j .. 4j+3 of a sixteen-block group are multiplied by:
#     Y' = (Y ^ X1)*H^16 ^ X2*H^15 ^ ... ^ X16*H
# The four registers of powers are loaded once per call. Each lane's
# 128x128-bit product is formed schoolbook, with four VPCLMULQDQ (lo =
# a0*b0, hi = a1*b1, and the two middle products), summed over the group
# into three values lo, mid, hi, three terms per VPTERNLOGQ. (Karatsuba
# saves one multiply per lane but costs a shuffle and XORs; with 512-bit
# registers the schoolbook form is fewer instructions, and it needs no
# half sums.) The sixteen unreduced products are then reduced lane by
# lane, which is linear, so reducing before adding the lanes gives the
# same sum: the Montgomery reduction of the clmul kernel with the
# constant 0xC2<<56, in two phases,
#     lo' = lo.q0 * c;  mid ^= swap(lo) ^ lo';
#     mid' = mid.q0 * c;  Y = hi ^ swap(mid) ^ mid'
# and the four lanes of Y are XORed together (two extracts). The low and
# middle products come first, so that phase 1 runs beside the high ones.
#
# Stitching. Each iteration of the main loop runs the rounds of the next
# sixteen counter blocks and, shared out evenly between their VAESENCs,
# the GHASH of sixteen ciphertext blocks held in zmm4..zmm7. The main
# loops have a copy per key size, so that the multiplies sit beside every
# middle round whatever the key length (one-off batches, such as the
# tail, put them beside the last nine). The only chain across iterations
# is Y, which is short next to the AES rounds.
# The drivers around the iterations (seal, seal_lagged on whole batches
# with the hash one batch behind, open) are perlasm/fused_driver_x86_64.pm's,
# which explains them. Here an iteration hashes the sixteen blocks in
# zmm4..zmm7: seal's last round leaves its ciphertext there, byte-reversed
# (no reload from memory), seal_lagged loads lag->pending there before its
# first batch, and open loads its own input there first, so nothing is
# written before it is read (in == out works).
# Tail (1..15 blocks, or a whole call of fewer than sixteen): the key
# stream of eight (n <= 8) or sixteen blocks is computed in two or four
# registers. Opmask registers select the n blocks that exist, two bits
# (two qwords) per block: loads are masked with zeroing and stores are
# masked, so no byte outside the caller's n blocks is read or written
# (masked-off lanes never fault), and lanes past the data are zero. They
# are hashed as one aggregated run with H^n .. H^1, the powers loaded from
# the key with the pointer at entry 16 - n into the power registers, with
# the same masks, so lane i of register j meets H^(n - 4j - i) and no byte
# past H^1, the key's last 16 of 256, is read (lanes past the data are
# zero in both). Open hashes the tail's input during the tail's rounds;
# seal hashes the tail's ciphertext after them, and after the hash of the
# previous batch that its rounds may carry (which still needs the power
# registers' sixteen powers).
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   gcmi_aes_gcm_x86_64_vaes_avx512_seal / _open(k = rdi, out = rsi, in = rdx,
#                                           blocks = rcx, ctr = r8, Xi = r9)
#   gcmi_aes_gcm_x86_64_vaes_avx512_seal_lagged(the same, but lag = r9): r12
#     lag->pending, rbx lag->has_pending, r9 (before the common entry)
#     lag->Xi; the rest as in seal.
#     r10 AES schedule (k->aes_key), r11 GHASH key (k->ghash_key),
#     eax Nr; rdi points at rk[Nr-9] while the keys are loaded; in the
#     tail, r8 and rdi make the masks, then rdi points at the first power
#     used.
#     zmm0-zmm3    the sixteen AES blocks in flight
#     zmm4-zmm7    sixteen blocks to hash, byte-reversed (then the high
#                  products)
#     zmm8         Y, the running hash, reflected, in the low lane (the
#                  upper lanes zero, so XORing it into a register of
#                  blocks adds Y to the first block only); once Y is in,
#                  the lo accumulator
#     zmm9 zmm10   the mid and hi accumulators
#     zmm11 zmm12  products and other temporaries
#     zmm13        the counter register (ctr + i .. ctr + i + 3,
#                  byte-reversed)
#     zmm14        +4 in every lane's counter dword
#     zmm15        rk[Nr]
#     zmm16        rk[0]
#     zmm17-zmm25  rk[Nr-9] .. rk[Nr-1]
#     zmm26        the key of an early round (AES-192, AES-256)
#     zmm27-zmm30  the powers H^16 .. H^1, four per register (in a tail,
#                  then H^n .. H^1 and zeros)
#     zmm31        the byte-reversal mask
#     k1-k4        the tail's lane masks (public: made from the count)
# The reduction constant and the counter lanes' offsets are constants in
# memory. The function keeps no stack frame. Before it returns it zeroes
# zmm0-zmm31 and ends with VZEROUPPER: no key stream, data, round key,
# power of H or Y is left in a vector register, and the upper halves of
# the ymm registers are clean (the ABI test checks XINUSE). The zeroing is
# one zero idiom per register (VPXOR, or VPXORD for zmm16-zmm31, with
# itself on the xmm name, which clears the whole zmm register, done at
# register renaming) rather than VZEROALL, which Intel cores run as a
# microcoded sequence (and which leaves zmm16-zmm31 alone). On win64 the
# translator saves and restores xmm6-xmm15, rdi and rsi.
#
# Secrets and constant time
# =========================
# Secret: the round keys, H and its powers, Y, the data and the key stream
# (the counter block is treated like data). They flow only through VAESENC/
# VAESENCLAST, VPCLMULQDQ, VPXORQ, VPTERNLOGQ, VPADDD, VPSHUFB/VPSHUFD with
# constant masks and immediates, VEXTRACTI64X4/VEXTRACTI32X4 and
# VBROADCASTI32X4, none of which has an operand-dependent timing, and
# through loads and stores at addresses made from the caller's pointers,
# the block count and Nr, masked by opmask registers made from the block
# count alone. Branches depend on the block count, on Nr (the key length)
# and, in seal_lagged, on lag->has_pending only: all public. The
# general-purpose registers declared public below hold only pointers,
# counts, masks of counts, Nr and that flag.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::ghash_clmul_common;                # h_prime
use perlasm::siv_runs qw(runs_entry first_run skip_empty_runs);      # walking struct siv_polyval_runs
use perlasm::fused_driver_x86_64 qw(spread ctr_loop);    # seal, seal_lagged, open; the stitching; counter mode
use perlasm::layout;                             # $ROUNDS (the AES-GCM-SIV functions)
use perlasm::siv_copy;                           # the AES-GCM-SIV functions' byte order
use perlasm::siv_tag_vex qw(tag_entry xmm_rounds);   # siv_tag_ctr32le's opening

my $code = <<___;
.rodata
.align 64
.Lpoly:                         # x^-1 mod P, reflected; high qword 0xC2 << 56
___
$code .= "    .quad 0x0000000000000001, 0xc200000000000000\n" for 0 .. 3;
$code .= <<___;
.Lctr_lanes:                    # +0, +1, +2, +3 in the counter dword of the lanes
    .long 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0
.Linc4:                         # +4 in the counter dword
    .long 4, 0, 0, 0
.Lbswap_mask:                   # reverses the 16 bytes of a lane
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lsiv_top:                      # bit 7 of byte 15 (AES-GCM-SIV's counter block 0)
    .quad 0, 0x8000000000000000
.Lsiv_low127:                   # all but that bit (AES-GCM-SIV's tag input)
    .quad 0xffffffffffffffff, 0x7fffffffffffffff
___

my ($out, $in, $blocks) = qw(rsi rdx rcx);
my ($aes, $gkey) = qw(r10 r11);
my ($LO, $MID, $HI, $T0, $T1, $CTR, $INC, $RKLAST) = map { "zmm$_" } 8 .. 15;
my $y = 'xmm8';                            # Y lives in lo's register
my $RK0 = 'zmm16';
sub mid { return 'zmm' . (17 + $_[0]) }    # rk[Nr-9+i], i = 0 .. 8
my $RKEARLY = 'zmm26';
sub power { return 'zmm' . (27 + $_[0]) }  # H^(16-4j) .. H^(13-4j)
my $BSWAP = 'zmm31';
sub data { return 'zmm' . (4 + $_[0]) }    # the j-th register to hash

# ---------------------------------------------------------------------------
# GHASH pieces.

# sum_products(dst, products): dst = the XOR of the carry-less products
# [data, power, immediate], in order: the first written to dst, then two
# at a time through the temporaries and one VPTERNLOGQ, an odd last one
# with VPXORQ.
sub sum_products {
    my ($dst, @prods) = @_;
    my $clmul = sub { "    vpclmulqdq $_[0], $_[1][0], $_[1][1], $_[1][2]\n" };
    my $s = $clmul->($dst, shift @prods);
    while (@prods >= 2) {
        my ($x, $z) = splice @prods, 0, 2;
        $s .= $clmul->($T0, $x) . $clmul->($T1, $z);
        $s .= "    vpternlogq $dst, $T0, $T1, 0x96\n";
    }
    $s .= $clmul->($T0, $prods[0]) . "    vpxorq     $dst, $dst, $T0\n" if @prods;
    return $s;
}

# ghash_steps(nreg): Y = GHASH of data registers 0 .. nreg-1 (2 or 4)
# with the powers in power registers 0 .. nreg-1. Register 0 first
# absorbs Y (kept in lo's register) into its first block. The products
# come in the order that
# lets the reduction start early: the low products and their sum first,
# then the middle ones, then phase 1 of the reduction on lo while the high
# products (written over the data registers, which are not needed after
# them) are formed, then phase 2, then the fold of the four lanes.
# Within the low and the middle sums, register 0's products come last:
# they are the only ones that wait for the previous group's Y, so the
# multiplier starts on the other registers' while Y is still being
# reduced (AES-128 seal at 16 KiB 4.5% faster, Zen 5, gcm-ab).
sub ghash_steps {
    # One argument: the powers are always the power registers' (a caller
    # that still passes where in memory they are wants load_powers first).
    die "ghash_steps: one argument, the register count\n" unless @_ == 1;
    my ($nreg) = @_;
    die "ghash_steps: 2 or 4 registers\n" unless $nreg == 2 || $nreg == 4;
    my @p = map { power($_) } 0 .. $nreg - 1;
    my @d = map { data($_) } 0 .. $nreg - 1;
    my $s = "    vpxorq     $d[0], $d[0], $LO                     # Y (in lo) into the first block\n";
    # lo = sum of a0*b0; mid = sum of a0*b1 ^ a1*b0
    my @order = ((1 .. $nreg - 1), 0);
    $s .= sum_products($LO, map { [$d[$_], $p[$_], '0x00'] } @order);
    $s .= sum_products($MID, map { ([$d[$_], $p[$_], '0x01'], [$d[$_], $p[$_], '0x10']) }
                                 @order);
    # phase 1 of the reduction, beside the high products
    $s .= <<___;
    vpclmulqdq $T0, $LO, [.Lpoly], 0x10       # phase 1: lo.q0 * 0xC2<<56
    vpshufd    $LO, $LO, 0x4e
___
    $s .= "    vpclmulqdq $d[$_], $d[$_], $p[$_], 0x11\n" for 0 .. $nreg - 1;
    $s .= "    vpternlogq $MID, $LO, $T0, 0x96\n";
    # hi = sum of a1*b1
    $s .= "    vpternlogq $d[0], $d[1], $d[2], 0x96\n" if $nreg == 4;
    $s .= "    vpxorq     $HI, $d[0], $d[$nreg - 1]\n";
    $s .= <<___;
    vpclmulqdq $T0, $MID, [.Lpoly], 0x10      # phase 2: mid.q0 * 0xC2<<56
    vpshufd    $MID, $MID, 0x4e
    vpternlogq $HI, $MID, $T0, 0x96            # Y, one per lane
    vextracti64x4 ymm11, $HI, 1
    vpxorq     ymm10, ymm10, ymm11
    vextracti32x4 xmm11, ymm10, 1
    vpxorq     $y, xmm10, xmm11                # Y, upper lanes zero
___
    return $s;
}

# The GHASH of a stitched iteration: the instructions of ghash_steps, in
# order, as a list that the rounds share out (rounds, keyed_rounds).
sub hooks {
    return [ grep { /\S/ } map { split /\n/ } ghash_steps(@_) ];
}

# share(lines, k): the lines in order, cut into k runs of (nearly) equal
# length, one per round.
sub share {
    my ($lines, $k) = @_;
    my @runs = ('') x $k;
    $runs[int($_ * $k / @$lines)] .= "$lines->[$_]\n" for 0 .. $#$lines;
    return @runs;
}

# ---------------------------------------------------------------------------
# AES pieces.

# counters(n): zmm0..n-1 = the next 4n counter blocks ^ rk[0]; the counter
# register advances by 4 per register.
sub counters {
    my ($n) = @_;
    my $s = '';
    for my $j (0 .. $n - 1) {
        $s .= "    vpshufb    zmm$j, $CTR, $BSWAP\n";
        $s .= "    vpaddd     $CTR, $CTR, $INC\n";
    }
    $s .= "    vpxorq     zmm$_, zmm$_, $RK0\n" for 0 .. $n - 1;
    return $s;
}

sub round {
    my ($n, $key) = @_;
    return join '', map { "    vaesenc    zmm$_, zmm$_, $key\n" } 0 .. $n - 1;
}

# The round key rk[r] of an early round (r = 1 .. Nr-10: AES-192 and
# AES-256 only), broadcast into its register for the round that uses it.
sub early_key {
    my ($r) = @_;
    return "    vbroadcasti32x4 $RKEARLY, [$aes + " . 16 * $r . "]\n";
}

# rounds(n, tag, hooks): rounds 1 .. Nr-1 on zmm0..n-1 for any key size:
# the first Nr-10 (AES-192, AES-256) alone, then the last nine, which
# every key size has, with the hook lines (if any) shared out over them.
sub rounds {
    my ($n, $tag, $hooks) = @_;
    my @runs = $hooks ? share($hooks, 9) : ('') x 9;
    my $s = "    cmp        eax, 10\n    je         .L${tag}_main\n";
    $s .= early_key($_) . round($n, $RKEARLY) for 1, 2;
    $s .= "    cmp        eax, 12\n    je         .L${tag}_main\n";
    $s .= early_key($_) . round($n, $RKEARLY) for 3, 4;
    $s .= ".L${tag}_main:\n";
    $s .= spread(round($n, mid($_)), $runs[$_]) for 0 .. 8;
    return $s;
}

# keyed_rounds(nr, hooks): rounds 1 .. nr-1 on zmm0..3 for one key size,
# with the hook lines shared out over all of them: the main loops take a
# copy per key size (keyed_iteration), so that AES-192 and AES-256 have
# carry-less multiplies beside every round, not beside the last nine only
# (AES-256 seal 2-4% faster at 16 KiB than with the nine, measured).
sub keyed_rounds {
    my ($nr, $hooks) = @_;
    my @runs = share($hooks, $nr - 1);
    my $s = '';
    for my $r (1 .. $nr - 1) {
        if ($r <= $nr - 10) {
            $s .= early_key($r) . spread(round(4, $RKEARLY), $runs[$r - 1]);
        } else {
            $s .= spread(round(4, mid($r - ($nr - 9))), $runs[$r - 1]);
        }
    }
    return $s;
}

# last(n, seal): the last round with the data folded in, 4n blocks stored;
# sealing also leaves the ciphertext byte-reversed in the data registers,
# to be hashed by the next iteration.
sub last_round {
    my ($n, $seal) = @_;
    my $s = '';
    for my $j (0 .. $n - 1) {
        my $t = $j % 2 ? $T1 : $T0;
        $s .= <<___;
    vpxorq     $t, $RKLAST, [$in + @{[ 64 * $j ]}]
    vaesenclast zmm$j, zmm$j, $t
    vmovdqu64  [$out + @{[ 64 * $j ]}], zmm$j
___
    }
    $s .= "    vpshufb    " . data($_) . ", zmm$_, $BSWAP\n" for $seal ? (0 .. $n - 1) : ();
    return $s;
}

# iteration(tag, seal): one batch of sixteen blocks, alone.
sub iteration {
    my ($tag, $seal) = @_;
    return counters(4) . rounds(4, $tag) . last_round(4, $seal);
}

# keyed_iteration(tag, seal, hooks): one batch of sixteen blocks with the
# hook lines stitched in, a copy per key size chosen by Nr.
sub keyed_iteration {
    my ($tag, $seal, $hooks) = @_;
    my $s = <<___;
    cmp        eax, 12
    je         .L${tag}_192
    ja         .L${tag}_256
___
    for my $nr (10, 12, 14) {
        my $bits = { 10 => 128, 12 => 192, 14 => 256 }->{$nr};
        $s .= ".L${tag}_$bits:\n" if $nr > 10;
        $s .= counters(4) . keyed_rounds($nr, $hooks) . last_round(4, $seal);
        $s .= "    jmp        .L${tag}_done\n" if $nr < 14;
    }
    return $s . ".L${tag}_done:\n";
}

# load_data(n, src, masked): data registers 0..n-1 = the blocks at src,
# byte-reversed; masked by k1.. (lanes past the data zero) when asked.
sub load_data {
    my ($n, $src, $masked) = @_;
    my $s = '';
    for my $j (0 .. $n - 1) {
        my $dst = data($j) . ($masked ? '{k' . ($j + 1) . '}{z}' : '');
        $s .= "    vmovdqu64  $dst, [$src + " . 64 * $j . "]\n";
        $s .= "    vpshufb    " . data($j) . ", " . data($j) . ", $BSWAP\n";
    }
    return $s;
}

# tail_masks: k1..k4 select the first `blocks` (1..15) blocks of sixteen,
# two qword bits each; rdi = the power entry 16 - blocks.
my $lane_masks = <<___;
    lea        rdi, [$blocks + $blocks]
    xor        r8d, r8d
    bts        r8, rdi
    dec        r8                              # (1 << 2n) - 1
    kmovd      k1, r8d
    kshiftrd   k2, k1, 8
    kshiftrd   k3, k1, 16
    kshiftrd   k4, k1, 24
___
my $tail_masks = $lane_masks . <<___;
    mov        rdi, 16
    sub        rdi, $blocks
    shl        rdi, 4
    add        rdi, $gkey                      # H^n, entry 16 - n
___

# load_powers(n): power registers 0..n-1 = the tail's powers H^n .. H^1 at
# rdi, masked like its data (lanes past the data zero, and not read).
sub load_powers {
    my ($n) = @_;
    return join '', map { "    vmovdqu64  " . power($_) . "{k" . ($_ + 1) . "}{z}, [rdi + " . 64 * $_ . "]\n" } 0 .. $n - 1;
}

# tail_crypt(n, tag, seal, hooks): the last `blocks` blocks (at most 4n)
# through n registers of key stream, with optional round hooks; loads and
# stores masked. Sealing then leaves the ciphertext, byte-reversed and
# zero past the data, in the data registers.
sub tail_crypt {
    my ($n, $tag, $seal, $hooks) = @_;
    my $s = counters($n) . rounds($n, $tag, $hooks);
    for my $j (0 .. $n - 1) {
        my $k = 'k' . ($j + 1);
        $s .= <<___;
    vmovdqu64  $T0\{$k\}{z}, [$in + @{[ 64 * $j ]}]
    vaesenclast zmm$j, zmm$j, $RKLAST
    vpxorq     zmm$j\{$k\}{z}, zmm$j, $T0
    vmovdqu64  [$out + @{[ 64 * $j ]}]{$k}, zmm$j
___
    }
    $s .= "    vpshufb    " . data($_) . ", zmm$_, $BSWAP\n" for $seal ? (0 .. $n - 1) : ();
    return $s;
}

# tail(tag, seal, hooks): 1..15 blocks, with two registers (n <= 8) or
# four. Sealing, the hooks (if any) hash the previous batch during the
# rounds and the tail's ciphertext is hashed after them; opening, the
# tail's input is loaded and hashed during the rounds.
sub tail {
    my ($tag, $seal, $hooks) = @_;
    my $s = $tail_masks . "    cmp        $blocks, 8\n    ja         .L${tag}_wide\n";
    for my $n (2, 4) {
        my $t = $n == 2 ? "${tag}_narrow" : "${tag}_wide";
        $s .= ".L${tag}_wide:\n" if $n == 4;
        if ($seal) {
            $s .= tail_crypt($n, $t, 1, $hooks);
            $s .= load_powers($n);
            $s .= join '', ghash_steps($n);
        } else {
            $s .= load_data($n, $in, 1);
            $s .= load_powers($n);
            $s .= tail_crypt($n, $t, 0, hooks($n));
        }
        $s .= "    jmp        .L${tag}_end\n" if $n == 2;
    }
    return $s . ".L${tag}_end:\n";
}

# The entry after the driver's (key pointers and Nr): the round keys, the
# powers of H, constants, Y and the counter register.
# (In parts, for the AES-GCM-SIV functions at the end, which need some.)
my $entry_masks = <<___;
    vbroadcasti32x4 $BSWAP, [.Lbswap_mask]
___
my $entry_inc = <<___;
    vbroadcasti32x4 $INC, [.Linc4]
___
my $entry_y = <<___;
    vmovdqu    $y, [r9]
    vpshufb    $y, $y, xmm31                # Y, reflected; upper lanes zero
___
my $entry_ctr = <<___;
    vbroadcasti32x4 $CTR, [r8]
    vpshufb    $CTR, $CTR, $BSWAP
    vpaddd     $CTR, $CTR, [.Lctr_lanes]    # ctr .. ctr + 3, byte-reversed
___
my $entry_keys = <<___;
    mov        edi, eax
    shl        edi, 4
    lea        rdi, [$aes + rdi - 144]      # rk[Nr-9]
    vbroadcasti32x4 $RK0, [$aes]
    vbroadcasti32x4 $RKLAST, [rdi + 144]    # rk[Nr]
___
$entry_keys .= "    vbroadcasti32x4 " . mid($_) . ", [rdi + " . 16 * $_ . "]\n" for 0 .. 8;
my $entry_powers = '';
$entry_powers .= "    vmovdqu64  " . power($_) . ", [$gkey + " . 64 * $_ . "]\n" for 0 .. 3;
my $entry = $entry_masks . $entry_inc . $entry_y . $entry_ctr . $entry_keys . $entry_powers;

my $exit_y = <<___;
    vpshufb    $y, $y, xmm31
    vmovdqu    [r9], $y
___
my $exit_wipe = '';
$exit_wipe .= "    vpxor      xmm$_, xmm$_, xmm$_\n" for 0 .. 15;
$exit_wipe .= "    vpxord     xmm$_, xmm$_, xmm$_\n" for 16 .. 31;   # EVEX only
$exit_wipe .= "    vzeroupper\n";
my $exit = $exit_y . $exit_wipe;

# ---------------------------------------------------------------------------
# seal, seal_lagged and open: the drivers of perlasm/fused_driver_x86_64.pm
# around the pieces above. The batch to hash is in zmm4..zmm7: seal's last
# round leaves its ciphertext there, seal_lagged loads lag->pending there,
# open loads its input there; the tails hash their own blocks.

my %kernel = (name => 'gcmi_aes_gcm_x86_64_vaes_avx512', batch => 16, vec => 'zmm',
              public => [qw(k1 k2 k3 k4)], lagged_public => [],
              entry => $entry, exit => $exit);

$code .= "\n.text" . perlasm::fused_driver_x86_64::seal_function(\%kernel,
    note         => 'to hash in zmm4..7',
    first        => iteration('seal_first', 1),
    loop         => keyed_iteration('seal_loop', 1, hooks(4)),
    pending      => join('', ghash_steps(4)),
    pending_tail => tail('seal_ptail', 1, hooks(4)),
    tail         => tail('seal_tail', 1));

$code .= perlasm::fused_driver_x86_64::seal_lagged_function(\%kernel,
    load_pending => load_data(4, 'r12', 0),
    first_alone  => iteration('lag_alone', 1),
    loop         => keyed_iteration('lag_loop', 1, hooks(4)));

$code .= perlasm::fused_driver_x86_64::open_function(\%kernel,
    loop => join("\n", load_data(4, $in, 0), keyed_iteration('open_loop', 0, hooks(4))),
    tail => tail('open_tail', 0));

# ---------------------------------------------------------------------------
# AES-GCM-SIV (RFC 8452; crypto/siv): three functions in GCM's byte order
# made from the pieces above, then turned into AES-GCM-SIV's by
# perlasm/siv_copy.pm, which makes every shuffle with the byte-reversal
# mask (zmm31, xmm31) a move or nothing. Dropped, that reversal leaves
# the counter block as it is, its little-endian counter in dword 0 where
# VPADDD steps it, and the blocks to hash as they are, which is POLYVAL
# on the POLYVAL key.
#   siv_open(k, out, in, blocks, ctr, S): seal's text: decrypts and folds
#     the plaintext it writes into S (the fused hook of fused.h).
#   siv_ctr32le(s, out, in, blocks, ctr): counter mode alone (aes.h's
#     ctr32le contract on the aesni schedule): the batches of sixteen
#     blocks, then a tail of two or four registers, masked.
#   siv_polyval(S, key, in, blocks): POLYVAL alone (ghash.h's
#     polyval_update contract on the vpclmul_avx2 key), written directly
#     in POLYVAL's order further down (pv_group explains its groups).
#   siv_polyval_runs(S, key, runs): the same over the four runs of
#     struct siv_polyval_runs (fused.h) in order, with one entry: a whole
#     message's POLYVAL input in one call.
my $BYTE_SWAPS = qr/(?:zmm31|xmm31)/;
my $siv = perlasm::siv_copy::polyval_form($code, 'gcmi_aes_gcm_x86_64_vaes_avx512_seal',
                                          'gcmi_aes_gcm_x86_64_vaes_avx512_siv_open',
                                          $BYTE_SWAPS, 'vmovdqa64');

my $ctr_gcm = perlasm::fused_driver_x86_64::ctr_function(
    { batch => 16, exit => $exit_wipe },
    public => [qw(k1 k2 k3 k4)],
    entry => $entry_inc . $entry_ctr . $entry_keys,
    iteration => iteration('sivctr_loop', 0),
    tail => $lane_masks . "    cmp        $blocks, 8\n    ja         .Lsivctr_wide\n"
          . tail_crypt(2, 'sivctr_narrow', 0) . "    jmp        .Lsivctr_done\n.Lsivctr_wide:\n"
          . tail_crypt(4, 'sivctr_wide', 0));
$siv .= perlasm::siv_copy::polyval_form($ctr_gcm, 'ctr_in_gcm_order',
                                        'gcmi_aes_gcm_x86_64_vaes_avx512_siv_ctr32le',
                                        $BYTE_SWAPS, 'vmovdqa64');

# siv_tag_ctr32le(s, tag, out, in, blocks, last): AES-GCM-SIV's tag and
# counter mode in one call (fused.h), as the vaes_avx2 kernel's: T =
# AES(K_enc, tag) in one xmm chain, written back; the padded last block
# (`last`, when not NULL) with counter block `blocks`; then the counter
# register made from T in registers and siv_ctr32le's batches and masked
# tail. The tag and last-block code is written in AES-GCM-SIV's order
# already (no shuffle by the mask there for polyval_form to drop). The
# opening and the one-block chains are perlasm/siv_tag_vex.pm's.
my $tagctr_tail = <<___;
$lane_masks    cmp        $blocks, 8
    ja         .Lsivtc_wide
@{[ tail_crypt(2, 'sivtc_narrow', 0) ]}    jmp        .Lsivtc_done
.Lsivtc_wide:
@{[ tail_crypt(4, 'sivtc_wide', 0) ]}
___
my $tagctr_gcm = <<___;
.function tagctr_in_gcm_order args=6 public=rdi,rsi,rdx,rcx,r8,r9,r10,r11,rax,k1,k2,k3,k4   # (const struct aes_schedule *s, uint8_t tag[16], uint8_t *out, const uint8_t *in, size_t blocks, uint8_t *last)
@{[ tag_entry() ]}    xchg       rax, r9                      # eax = Nr; r9 = tag
@{[ xmm_rounds(0, 'sivtc_tag', '[r10 + rdi]') ]}    vmovdqu    [r9], xmm0                   # T
    vpor       xmm0, xmm0, [.Lsiv_top]      # counter block 0
    test       r11, r11
    jz         .Lsivtc_base
    vmovd      xmm1, ecx
    vpaddd     xmm2, xmm0, xmm1             # counter block `blocks` (mod 2^32)
@{[ xmm_rounds(2, 'sivtc_one', '[r10 + rdi]') ]}    vpxor      xmm2, xmm2, [r11]
    vmovdqu    [r11], xmm2                  # the last block, in place
.Lsivtc_base:
    vshufi32x4 $CTR, zmm0, zmm0, 0
    vpaddd     $CTR, $CTR, [.Lctr_lanes]    # counter blocks 0 .. 3
$entry_inc$entry_keys@{[ ctr_loop({ batch => 16 }, 'sivtc', iteration('sivtc_loop', 0), $tagctr_tail) ]}$exit_wipe.endfunction
___
$siv .= perlasm::siv_copy::polyval_form($tagctr_gcm, 'tagctr_in_gcm_order',
                                        'gcmi_aes_gcm_x86_64_vaes_avx512_siv_tag_ctr32le',
                                        $BYTE_SWAPS, 'vmovdqa64');

# siv_polyval and siv_polyval_runs: POLYVAL alone, written in POLYVAL's
# byte order directly (no byte reversal to drop). The multiplies bound
# it (on Zen 5 a 512-bit VPCLMULQDQ issues about once a cycle, and the
# chain through S is shorter than a group's multiplies), so a group of
# blocks takes Karatsuba's three per lane instead of ghash_steps' four,
#     lo = a0*h0, hi = a1*h1, mid = (a0^a1)*(h0^h1) ^ lo ^ hi,
# with the powers' half sums h0^h1 made once per call for the sixteen
# (zmm16..zmm19) and per tail for its own, and the lanes of lo, mid and
# hi folded before one reduction in xmm (two multiplies, not two per
# register). A group of k blocks is Y' = (Y ^ X1)*H^k ^ ... ^ Xk*H; a
# run of n < 16 blocks at the end is one group of k = n with H^n .. H^1
# loaded, masked like its blocks, into zmm20..zmm23, so the sixteen
# powers stay in zmm27..zmm30 for the next run.
my $YS = 'xmm26';                             # Y, the running S
sub xname { (my $x = $_[0]) =~ s/^zmm/xmm/; return $x }
sub yname { (my $x = $_[0]) =~ s/^zmm/ymm/; return $x }

# half_sum(dst, src): dst = src ^ swap64(src) per lane (h0^h1 in both qwords).
sub half_sum {
    my ($dst, $src) = @_;
    return "    vpshufd    $dst, $src, 0x4e\n    vpxorq     $dst, $dst, $src\n";
}

# pv_group(powers, halves): S = POLYVAL step over data(0 .. n-1) (n = 2
# or 4 registers) with those powers and their half sums.
sub pv_group {
    my ($p, $h) = @_;
    my $n = @$p;
    my ($t, $u) = ('zmm24', 'zmm25');
    my $s = '';
    for my $j (0 .. $n - 1) {
        my $d = data($j);
        $s .= "    vpshufd    $t, $d, 0x4e\n    vpxorq     $t, $t, $d          # a0 ^ a1\n";
        if ($j == 0) {
            $s .= "    vpclmulqdq $MID, $t, $h->[0], 0x00\n"
                . "    vpclmulqdq $LO, $d, $p->[0], 0x00\n"
                . "    vpclmulqdq $HI, $d, $p->[0], 0x11\n";
        } else {
            $s .= "    vpclmulqdq $t, $t, $h->[$j], 0x00\n"
                . "    vpclmulqdq $T0, $d, $p->[$j], 0x00\n"
                . "    vpclmulqdq $T1, $d, $p->[$j], 0x11\n"
                . "    vpxorq     $MID, $MID, $t\n"
                . "    vpxorq     $LO, $LO, $T0\n"
                . "    vpxorq     $HI, $HI, $T1\n";
        }
    }
    # the lanes folded: lo, mid, hi in xmm
    for my $r ($LO, $MID, $HI) {
        $s .= "    vextracti64x4 " . yname($u) . ", $r, 1\n    vpxorq     " . yname($r) . ", " . yname($r) . ", " . yname($u) . "\n"
            . "    vextracti32x4 " . xname($u) . ", " . yname($r) . ", 1\n    vpxorq     " . xname($r) . ", " . xname($r) . ", " . xname($u) . "\n";
    }
    my ($lo, $mid, $hi, $t0, $t1) = map { xname($_) } ($LO, $MID, $HI, $T0, $T1);
    my ($tx, $ux, $p0, $h0) = (xname($t), xname($u), xname($p->[0]), xname($h->[0]));
    $s .= <<___;
    vpshufd    $ux, $YS, 0x4e               # S * H^k (Karatsuba), the chain
    vpxorq     $ux, $ux, $YS                # s0 ^ s1
    vpclmulqdq $tx, $YS, $p0, 0x00
    vpclmulqdq $t1, $YS, $p0, 0x11
    vpclmulqdq $ux, $ux, $h0, 0x00
    vpxorq     $lo, $lo, $tx
    vpxorq     $hi, $hi, $t1
    vpclmulqdq $t0, $lo, [.Lpoly], 0x10    # phase 1: lo.q0 * 0xC2<<56
    vpternlogq $mid, $lo, $hi, 0x96        # Karatsuba: mid ^= lo ^ hi
    vpshufd    $lo, $lo, 0x4e
    vpxorq     $mid, $mid, $ux
    vpternlogq $mid, $lo, $t0, 0x96
    vpclmulqdq $t0, $mid, [.Lpoly], 0x10   # phase 2: mid.q0 * 0xC2<<56
    vpshufd    $mid, $mid, 0x4e
    vpxorq     $hi, $hi, $mid
    vpxorq     $YS, $hi, $t0                # S (upper lanes zero)
___
    return $s;
}

# pv_load(n, masked): data registers 0..n-1 = the blocks at rdx, masked
# by k1.. when asked (lanes past the data zero).
sub pv_load {
    my ($n, $masked) = @_;
    return join '', map {
        "    vmovdqu64  " . data($_) . ($masked ? '{k' . ($_ + 1) . '}{z}' : '')
        . ", [$in + " . 64 * $_ . "]\n" } 0 .. $n - 1;
}

# pv_run(tag): S over the rcx blocks at rdx (any count, 0 included):
# groups of sixteen, then one group of the 1..15 left.
sub pv_run {
    my ($tag) = @_;
    my @tp = map { "zmm$_" } 20 .. 23;    # the tail's powers
    my @th = map { "zmm$_" } 0 .. 3;      # and their half sums
    my $tail_powers = sub {
        my ($n) = @_;
        join '', map { "    vmovdqu64  $tp[$_]\{k" . ($_ + 1) . "}{z}, [rdi + " . 64 * $_ . "]\n"
                       . half_sum($th[$_], $tp[$_]) } 0 .. $n - 1;
    };
    my @lp = map { power($_) } 0 .. 3;
    my @lh = map { "zmm$_" } 16 .. 19;
    return <<___;
.L${tag}_loop:
    cmp        $blocks, 16
    jb         .L${tag}_tail
@{[ pv_load(4, 0) ]}@{[ pv_group(\@lp, \@lh) ]}    add        $in, 256
    sub        $blocks, 16
    jmp        .L${tag}_loop
.L${tag}_tail:                               # 0..15 left
    test       $blocks, $blocks
    jz         .L${tag}_done
$tail_masks    cmp        $blocks, 8
    ja         .L${tag}_wide
@{[ pv_load(2, 1) ]}@{[ $tail_powers->(2) ]}@{[ pv_group([@tp[0, 1]], [@th[0, 1]]) ]}    jmp        .L${tag}_done
.L${tag}_wide:
@{[ pv_load(4, 1) ]}@{[ $tail_powers->(4) ]}@{[ pv_group(\@tp, \@th) ]}.L${tag}_done:
___
}

# For siv_polyval_runs: the tail's registers and power loads of pv_run,
# and the step to the next non-empty run (rsi > 0 says there is one).
my @tp = map { "zmm$_" } 20 .. 23;
my @th = map { "zmm$_" } 0 .. 3;
my $tail_powers = sub {
    my ($n) = @_;
    join '', map { "    vmovdqu64  $tp[$_]\{k" . ($_ + 1) . "}{z}, [rdi + " . 64 * $_ . "]\n"
                   . half_sum($th[$_], $tp[$_]) } 0 .. $n - 1;
};

my $pv_entry = "    vmovdqu64  $YS, [r9]\n" . $entry_powers
    . join '', map { half_sum('zmm' . (16 + $_), power($_)) } 0 .. 3;
my $pv_exit = "    vmovdqu64  [r9], $YS\n" . $exit_wipe;

$siv .= <<___;

.function gcmi_aes_gcm_x86_64_vaes_avx512_siv_polyval args=4 public=rdi,rsi,rdx,rcx,r8,r9,r11,k1,k2,k3,k4   # (uint8_t S[16], const struct ghash_key *key, const uint8_t *in, size_t blocks)
    test       $blocks, $blocks
    jz         .Lsivpv_return
    mov        r9, rdi                      # S (rdi makes the tail's masks)
    mov        $gkey, rsi
$pv_entry@{[ pv_run('sivpv') ]}$pv_exit.Lsivpv_return:
.endfunction

.function gcmi_aes_gcm_x86_64_vaes_avx512_siv_polyval_runs args=3 public=rdi,rsi,rdx,rcx,r8,r9,r10,r11,rax,rbx,r12,r13,k1,k2,k3,k4   # (uint8_t S[16], const struct ghash_key *key, const struct siv_polyval_runs *runs)
    mov        r9, rdi                      # S
    mov        $gkey, rsi
@{[ runs_entry('rdx', 'rsi', '.Lsivrun_return') ]}$pv_entry@{[ first_run($in, $blocks) ]}    lea        rax, [rsi - 1]
    and        eax, 15
    inc        eax                          # the first group: N mod 16, or 16
.Lsivrun_group:                             # rsi blocks left in all, rax in this group
@{[ skip_empty_runs('sivrun_skip', $in, $blocks) ]}    cmp        eax, 16
    jne        .Lsivrun_gather
    cmp        $blocks, 16
    jb         .Lsivrun_gather
@{[ pv_load(4, 0) ]}@{[ pv_group([map { power($_) } 0 .. 3], [map { "zmm$_" } 16 .. 19]) ]}    add        $in, 256
    sub        $blocks, 16
    jmp        .Lsivrun_next
.Lsivrun_gather:                            # the group's blocks from one run or several
@{[ join '', map { "    vpxor      xmm$_, xmm$_, xmm$_\n" } 4 .. 7 ]}    xor        edi, edi                     # lanes filled so far
.Lsivrun_piece:
@{[ skip_empty_runs('sivrun_pskip', $in, $blocks) ]}    lea        rbx, [rdi + $blocks]
    cmp        rbx, rax
    cmova      rbx, rax                     # filled after this piece
    lea        r8, [rbx + rbx]
    xor        r12d, r12d
    bts        r12, r8
    dec        r12                          # qwords below rbx
    lea        r8, [rdi + rdi]
    xor        r13d, r13d
    bts        r13, r8
    dec        r13                          # qwords below rdi
    not        r13
    and        r12, r13                     # this piece's lanes
    kmovd      k1, r12d
    kshiftrd   k2, k1, 8
    kshiftrd   k3, k1, 16
    kshiftrd   k4, k1, 24
    mov        r8, rdi
    shl        r8, 4
    neg        r8
    add        r8, $in                      # where lane 0 would be
@{[ join '', map { "    vmovdqu64  " . data($_) . "{k" . ($_ + 1) . "}, [r8 + " . 64 * $_ . "]\n" } 0 .. 3 ]}    mov        r8, rbx
    sub        r8, rdi                      # blocks taken
    sub        $blocks, r8
    shl        r8, 4
    add        $in, r8
    mov        rdi, rbx
    cmp        rdi, rax
    jb         .Lsivrun_piece
    lea        r8, [rax + rax]
    xor        r12d, r12d
    bts        r12, r8
    dec        r12
    kmovd      k1, r12d                     # the group's lanes
    kshiftrd   k2, k1, 8
    kshiftrd   k3, k1, 16
    kshiftrd   k4, k1, 24
    mov        rdi, 16
    sub        rdi, rax
    shl        rdi, 4
    add        rdi, $gkey                   # H^k, entry 16 - k
    cmp        eax, 8
    ja         .Lsivrun_wide
@{[ $tail_powers->(2) ]}@{[ pv_group([@tp[0, 1]], [@th[0, 1]]) ]}    jmp        .Lsivrun_gathered
.Lsivrun_wide:
@{[ $tail_powers->(4) ]}@{[ pv_group(\@tp, \@th) ]}.Lsivrun_gathered:
.Lsivrun_next:
    sub        rsi, rax
    mov        eax, 16
    jnz        .Lsivrun_group
$pv_exit.Lsivrun_return:
.endfunction
___

# siv_hash_init(key, H, max_blocks): the powers H'^1 .. H'^16 that the
# functions above read (entries 0..15 of the vpclmul_avx2 key, H'^(16-e)
# at 16*e: all of its 256 bytes), in four rounds of multiplies instead
# of fifteen in a row: H'^2 = H'*H'; (H'^3, H'^4) = (H', H'^2)*H'^2 in two
# lanes; H'^5..H'^8 = (H'^1..H'^4)*H'^4 in four; H'^9..H'^16 =
# (H'^1..H'^8)*H'^8 in two registers of four. Each product is the
# schoolbook one of ghash_steps, reduced lane by lane. With max_blocks
# (public, >= 1) of at most 4 or 8 it stops after H'^4 or H'^8: calls of
# up to max_blocks blocks read no higher power (a run of n blocks starts
# at entry 16 - n). H' = H*x^-1 as the vpclmul_avx2 init makes it.
sub mul_lanes {
    my ($dst, $a, $b, $t, $u, $v) = @_;    # dst = a*b per lane; t, u, v temporaries
    return <<___;
    vpclmulqdq $t, $a, $b, 0x00               # lo
    vpclmulqdq $u, $a, $b, 0x01
    vpclmulqdq $v, $a, $b, 0x10
    vpxorq     $u, $u, $v                     # mid
    vpclmulqdq $dst, $a, $b, 0x11             # hi
    vpclmulqdq $v, $t, [.Lpoly], 0x10         # phase 1: lo.q0 * 0xC2<<56
    vpshufd    $t, $t, 0x4e
    vpternlogq $u, $t, $v, 0x96
    vpclmulqdq $v, $u, [.Lpoly], 0x10         # phase 2: mid.q0 * 0xC2<<56
    vpshufd    $u, $u, 0x4e
    vpternlogq $dst, $u, $v, 0x96
___
}
$siv .= <<___;

.function gcmi_aes_gcm_x86_64_vaes_avx512_siv_hash_init args=3 public=rdi,rsi,rdx   # (struct ghash_key *key, const uint8_t H[16], size_t max_blocks)
@{[ perlasm::ghash_clmul_common::h_prime('rsi', 1) ]}@{[ mul_lanes('xmm1', 'xmm0', 'xmm0', 'xmm2', 'xmm3', 'xmm4') ]}    vinserti128 ymm5, ymm0, xmm1, 1        # (H', H'^2)
    vinserti128 ymm6, ymm1, xmm1, 1        # (H'^2, H'^2)
@{[ mul_lanes('ymm7', 'ymm5', 'ymm6', 'ymm2', 'ymm3', 'ymm4') ]}    vinserti64x4 zmm5, zmm5, ymm7, 1       # H'^1 .. H'^4
    vshufi64x2 zmm6, zmm5, zmm5, 0x1b       # lanes reversed: entries 12..15
    vmovdqu64  [rdi + 192], zmm6
    cmp        rdx, 4
    jbe        .Lsivhi_done
    vshufi64x2 zmm6, zmm5, zmm5, 0xff       # H'^4 in every lane
@{[ mul_lanes('zmm7', 'zmm5', 'zmm6', 'zmm2', 'zmm3', 'zmm4') ]}    vshufi64x2 zmm6, zmm7, zmm7, 0x1b       # H'^8 .. H'^5: entries 8..11
    vmovdqu64  [rdi + 128], zmm6
    cmp        rdx, 8
    jbe        .Lsivhi_done
    vshufi64x2 zmm6, zmm7, zmm7, 0xff       # H'^8 in every lane
@{[ mul_lanes('zmm8', 'zmm5', 'zmm6', 'zmm2', 'zmm3', 'zmm4') ]}@{[ mul_lanes('zmm9', 'zmm7', 'zmm6', 'zmm10', 'zmm11', 'zmm12') ]}    vshufi64x2 zmm8, zmm8, zmm8, 0x1b       # H'^12 .. H'^9: entries 4..7
    vshufi64x2 zmm9, zmm9, zmm9, 0x1b       # H'^16 .. H'^13: entries 0..3
    vmovdqu64  [rdi + 64], zmm8
    vmovdqu64  [rdi], zmm9
.Lsivhi_done:
@{[ join '', map { "    vpxor      xmm$_, xmm$_, xmm$_\n" } 0 .. 12 ]}    vzeroupper
.endfunction
___
$code .= $siv;

perlasm::driver::finish('x86_64', $code);
