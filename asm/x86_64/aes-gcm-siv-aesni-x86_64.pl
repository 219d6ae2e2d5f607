#!/usr/bin/env perl
# asm/x86_64/aes-gcm-siv-aesni-x86_64.pl: AES-GCM-SIV's per-message work
# (RFC 8452) with AES-NI and PCLMULQDQ on xmm registers, in the legacy SSE
# encoding: the optional hooks siv_keys, siv_seal_short and siv_open_short
# of crypto/fused/fused.h, which every fused descriptor whose AES backend is
# "aesni" (aesni_sse, aesni_avx, vaes_avx2, vaes_avx512) points at.
#
# Usage: perl aes-gcm-siv-aesni-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Why a kernel of its own
# =======================
# AES-GCM-SIV makes two keys per message from the key-generating key (KGK)
# and the nonce: on short messages that set-up, done through the backends'
# general hooks (a counter-mode call for the derivation, a key expansion,
# a GHASH key of powers of H in memory, a POLYVAL call, a block for the tag
# and another counter-mode call), cost more than the message. Here one call
# does a message's keys (siv_keys), or a whole short message (the short
# seal and open), with every intermediate value in registers or in this
# function's own stack frame.
#
# Algorithm
# =========
# Derivation. B_i = AES(KGK, LE32(i) || N) for i = 0..5, six blocks in
# flight (AES-128 needs four; the two more cost no time: the rounds are
# latency bound, and the AES unit has the throughput to spare). The first
# block is the nonce loaded into bytes 4..15 (MOVQ, PINSRD, PSLLDQ); block
# i adds i to its first dword with PADDD. K_auth is the low halves of B_0
# and B_1 (PUNPCKLQDQ), K_enc those of B_2, B_3 (and B_4, B_5 for AES-256).
# The KGK schedule is the aesni backend's (crypto/aes/aes_aesni.c): round
# keys from byte 0, the round count Nr (10 or 14) at $ROUNDS, which also
# says K_enc's size (RFC 8452: both keys have the KGK's length).
#
# K_enc expansion. asm/x86_64/aes-ni-x86_64.pl's (its opening comment
# explains it): SubWord(RotWord(w)) ^ Rcon by PSHUFB and AESENCLAST, the
# linear part as a prefix XOR of shifted copies, AES-256 alternating two
# registers. Written to the aesni schedule layout (siv_keys) or to this
# function's frame (the short functions). The expansion is one chain of
# dependent instructions; the short functions interleave the computation
# of the POLYVAL powers below with it, instruction by instruction
# (interleave()), so both chains advance from the start. (Written one
# after the other, the powers' waiting multiplies filled the core's
# queues ahead of the expansion: 4-6% slower on 16-128 bytes.)
#
# POLYVAL without reflection. A POLYVAL block as loaded (bit i of the
# 128-bit little-endian integer = the coefficient of x^i) is already the
# polynomial PCLMULQDQ multiplies: the carry-less product of two blocks is
# their product in GF(2)[x]. POLYVAL's step is dot(a, b) = a * b * x^-128
# modulo x^128 + x^127 + x^126 + x^121 + 1, which is the clmul GHASH
# kernel's Montgomery reduction (asm/x86_64/ghash-clmul-x86_64.pl derives
# it: two folds of the lowest 64 bits with 0xC2 << 56, then the high half
# XORed in). So K_auth serves as H as it is, with no byte reversal and no
# multiplication by x: the key transform of crypto/siv/polyval.c is for
# GHASH backends only. The powers are Montgomery powers: H^2 = dot(H, H),
# H^3 = dot(H^2, H), H^4 = dot(H^2, H^2), and then
#     S' = dot((S ^ X_1), H^4) ^ dot(X_2, H^3) ^ dot(X_3, H^2) ^ dot(X_4, H)
# with the four products summed unreduced and reduced once (the reduction
# is linear), four blocks per reduction, a tail of 1..3 blocks with
# H^r .. H^1. Products are schoolbook (four PCLMULQDQ, no Karatsuba half
# sums to precompute): on short inputs latency counts, not multiplies.
# Inputs of at least 16 blocks (the kernels take up to FUSED_SIV_KERNEL_MAX
# bytes, crypto/fused/fused.h) also get H^5..H^8 = dot(H^4, H..H^4) and
# the Karatsuba half sums h0 ^ h1 of H..H^8, in the frame, and a bulk loop
# of eight blocks per reduction with three PCLMULQDQ per block
# (a0*h0, a1*h1, (a0^a1)*(h0^h1); the middle term fixed up by XORing the
# other two in before the reduction), as the clmul GHASH kernel's. Shorter
# inputs do not pay for those powers: measured, computing them on every
# message cost 10-15% at 16 bytes, PCLMULQDQ issuing once every two
# cycles on the cores measured; and Karatsuba with Horner's rule on the
# short inputs lost to this schoolbook aggregation (its longer chain of
# dependent multiplies mattered more than the multiplies it saved).
#
# Tag and counter mode. T = AES(K_enc, (S ^ (N || 0^32)) with bit 7 of
# byte 15 cleared); counter block 0 is T with that bit set, and block i adds
# i to its first dword modulo 2^32 (RFC 8452's little-endian counter), a
# PADDD with no byte swap. Key stream is made for 8, 4, 2 or 1 blocks at a
# time (by the number left, public) and XORed into the blocks in place,
# storing only the blocks that exist.
#
# Functions (System V names; the translator maps win64 arguments)
# ==============================================================
#   gcmi_aes_gcm_siv_x86_64_aesni_keys(kgk = rdi, nonce = rsi, auth = rdx,
#                                      enc = rcx)
#     writes K_auth (16 bytes) to auth and K_enc's aesni schedule (round
#     keys and Nr) to enc.
#   gcmi_aes_gcm_siv_x86_64_aesni_seal_short(kgk = rdi, nonce = rsi,
#                                      hb = rdx, aad_blocks = rcx,
#                                      len = r8, io = r9)
#     the message in three pieces (crypto/fused/fused.h's struct
#     siv_short_io): aad_blocks blocks of zero-padded AAD at hb, the
#     len / 16 whole blocks of plaintext at io->in, and at io->end the
#     padded last block (when len % 16 is not 0) and the length block.
#     Writes T to io->tag, the whole blocks' ciphertext to io->out, and
#     encrypts the padded last block at io->end in place. Pieces laid out
#     one after the other in hb are hashed as one run.
#   gcmi_aes_gcm_siv_x86_64_aesni_open_short(the same)
#     the same pieces of ciphertext, io->tag the received tag: decrypts
#     the whole blocks from io->in to io->out and the padded last block
#     in place, zeroing its bytes past len % 16, hashes the plaintext's
#     pieces (the whole blocks at io->out) and writes the tag they call
#     for over io->tag.
# Registers:
#     xmm0-xmm5    derivation blocks; then the counter-mode blocks
#                  (xmm0-xmm7), the POLYVAL products and accumulators
#     xmm2, xmm4   K_enc during the expansion (xmm1 xmm3 xmm5 xmm6 temps)
#     xmm8         counter base;  xmm9 round key;  xmm10 a data block
#     xmm11-xmm14  H, H^2, H^3, H^4 (Montgomery powers of K_auth)
#     xmm15        S, the running POLYVAL value; then the tag
#     eax          Nr, then 16 * Nr;  r10 c;  r11 blocks left
#     rsi          (counter mode's whole blocks) io->out
#     rdi          (after the derivation) the block pointer of a loop
#     [rsp]        K_enc's round keys (the short functions, 240 bytes);
#     [rsp + 240]  H..H^8 and their half sums, 32 bytes each (inputs of
#                  16 blocks and more)
#     [rsp + 496]  the open's nonce address while rsi is io->out
#
# Secrets and constant time
# =========================
# Secret: the KGK's round keys, the nonce-derived blocks, K_auth and its
# powers, K_enc and its round keys, S, the tag (of open: the expected one),
# the key stream and the data. They flow only through AESENC/AESENCLAST,
# PCLMULQDQ, PXOR/PAND/POR, PADDD, PSHUFB/PSHUFD/PUNPCKLQDQ/PINSRD with
# constant selectors, byte shifts by constants and moves, none of whose
# timing depends on its operands; loads and stores go to addresses made
# from the caller's pointers, the stack pointer, the block counts and
# len % 16. Branches depend on Nr (a function of the key length) and on
# the lengths only. The general-purpose registers declared public hold
# only those (perlasm/ctcheck_x86.pm proves it for every function). Every
# function zeroes xmm0-xmm15 before returning, and the short functions
# overwrite K_enc's round keys and the powers of H in their frame.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::layout;    # $ROUNDS
use perlasm::aesni_common;
use perlasm::fused_driver_x86_64 qw(interleave);    # K_enc's expansion beside other work

# struct siv_short_io (crypto/fused/fused.h): the tag, in, out and end.
my $SIV_IO_TAG = perlasm::layout::c_define('crypto/fused/fused.h', 'SIV_SHORT_IO_TAG_OFFSET');
my $SIV_IO_IN = perlasm::layout::c_define('crypto/fused/fused.h', 'SIV_SHORT_IO_IN_OFFSET');
my $SIV_IO_OUT = perlasm::layout::c_define('crypto/fused/fused.h', 'SIV_SHORT_IO_OUT_OFFSET');
my $SIV_IO_END = perlasm::layout::c_define('crypto/fused/fused.h', 'SIV_SHORT_IO_END_OFFSET');

my $code = perlasm::aesni_common::rodata(1);
$code .= <<___;
.align 16
.Lsiv_poly:                     # x^-1 mod P reflected: the high qword 0xC2 << 56
    .quad 0x0000000000000001, 0xc200000000000000
.Lsiv_clear_top:                # clears bit 7 of byte 15
    .byte 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
    .byte 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f
.Lsiv_top:                      # sets it
    .quad 0, 0x8000000000000000
.Lsiv_pad:                      # 16 bytes 0xff then 16 zeros: a prefix mask
    .quad -1, -1, 0, 0
.Lsiv_add:                      # i in the first dword, i = 0 .. 8
___
$code .= "    .long $_, 0, 0, 0\n" for 0 .. 8;

# ---------------------------------------------------------------------------
# Pieces.

# derive(): B_0..B_5 under the KGK (rdi) for the nonce at rsi; then
# xmm0 = K_auth, xmm2 = K_enc's first 16 bytes, xmm4 = its second 16
# (AES-256). eax = Nr. Uses xmm0-xmm6.
sub derive {
    my $s = <<___;
    mov        eax, [rdi + $ROUNDS]     # public: the round count follows from the key length
    movq       xmm0, [rsi]
    pinsrd     xmm0, dword [rsi + 8], 2       # N || 0^32
    pslldq     xmm0, 4                  # LE32(0) || N
    movdqu     xmm6, [rdi]
___
    for my $i (1 .. 5) {
        $s .= "    movdqa     xmm$i, xmm0\n";
        $s .= "    paddd      xmm$i, [.Lsiv_add + " . 16 * $i . "]   # LE32($i) || N\n";
    }
    $s .= "    pxor       xmm$_, xmm6\n" for 0 .. 5;
    my $round = sub {
        my ($r) = @_;
        my $t = "    movdqu     xmm6, [rdi + " . 16 * $r . "]\n";
        $t .= "    aesenc     xmm$_, xmm6\n" for 0 .. 5;
        return $t;
    };
    $s .= $round->($_) for 1 .. 9;
    $s .= "    cmp        eax, 10\n    je         .LX_derive_last\n";
    $s .= $round->($_) for 10 .. 13;
    $s .= <<___;
.LX_derive_last:
    mov        r11d, eax
    shl        r11d, 4
    movdqu     xmm6, [rdi + r11]
___
    $s .= "    aesenclast xmm$_, xmm6\n" for 0 .. 5;
    $s .= <<___;
    punpcklqdq xmm0, xmm1               # K_auth = B_0[0..7] || B_1[0..7]
    punpcklqdq xmm2, xmm3               # K_enc = B_2[0..7] || B_3[0..7]
    punpcklqdq xmm4, xmm5               #   || B_4[0..7] || B_5[0..7] (AES-256)
___
    return $s;
}

# interleave(a, b): perlasm/fused_driver_x86_64.pm's (b's lines spread
# evenly between a's).

# expand(base, tag[, side]): K_enc (xmm2, and xmm4 for AES-256) expanded
# into round keys 0..Nr at [base] (eax = Nr), with the straight-line code
# `side` interleaved (see interleave). Uses xmm1 xmm3 xmm5 xmm6.
sub expand {
    my ($b, $tag, $side) = @_;
    $side //= '';
    my $rcon = sub { "[.Lrcon + " . 16 * ($_[0] - 1) . "]" };
    my $s = <<___;
    movdqu     [$b], xmm2               # rk[0]
    cmp        eax, 10
    jne        .LX_${tag}_256
___
    my $k128 = '';
    for my $i (1 .. 10) {
        $k128 .= perlasm::aesni_common::sub_word('xmm3', 'xmm2', '[.Lrot_word3]', $rcon->($i));
        $k128 .= perlasm::aesni_common::prefix_xor('xmm2', 'xmm5');
        $k128 .= "    pxor       xmm2, xmm3\n";
        $k128 .= "    movdqu     [$b + " . 16 * $i . "], xmm2     # rk[$i]\n";
    }
    $s .= interleave($k128, $side);
    $s .= <<___;
    jmp        .LX_${tag}_done
.LX_${tag}_256:
    movdqu     [$b + 16], xmm4          # rk[1]
    pxor       xmm6, xmm6
___
    my $k256 = '';
    for my $i (2 .. 14) {
        if ($i % 2 == 0) {
            $k256 .= perlasm::aesni_common::sub_word('xmm3', 'xmm4', '[.Lrot_word3]', $rcon->($i / 2));
            $k256 .= perlasm::aesni_common::prefix_xor('xmm2', 'xmm5');
            $k256 .= "    pxor       xmm2, xmm3\n";
            $k256 .= "    movdqu     [$b + " . 16 * $i . "], xmm2     # rk[$i]\n";
        } else {
            $k256 .= perlasm::aesni_common::sub_word('xmm3', 'xmm2', '[.Lbcast_word3]', 'xmm6');
            $k256 .= perlasm::aesni_common::prefix_xor('xmm4', 'xmm1');
            $k256 .= "    pxor       xmm4, xmm3\n";
            $k256 .= "    movdqu     [$b + " . 16 * $i . "], xmm4     # rk[$i]\n";
        }
    }
    $s .= interleave($k256, $side);
    $s .= ".LX_${tag}_done:\n";
    return $s;
}

# reduce(lo, mid, hi, t): hi = (hi:lo + mid << 64) * x^-128 mod P, the
# Montgomery reduction (lo, mid, t clobbered).
sub reduce {
    my ($lo, $mid, $hi, $t) = @_;
    return <<___;
    movdqa     $t, $mid
    psrldq     $mid, 8
    pslldq     $t, 8
    pxor       $hi, $mid
    pxor       $lo, $t                  # hi:lo, the 256-bit product
    movdqa     $t, $lo
    pclmulqdq  $t, [.Lsiv_poly], 0x10   # fold the lowest 64 bits
    pshufd     $lo, $lo, 0x4e
    pxor       $lo, $t
    movdqa     $t, $lo
    pclmulqdq  $t, [.Lsiv_poly], 0x10   # and the next 64
    pshufd     $lo, $lo, 0x4e
    pxor       $lo, $t
    pxor       $hi, $lo
___
}

# product(first, a, h, lo, mid, hi, t0, t1): the four partial products of
# a (kept) and h, started (first) or accumulated into lo, mid, hi.
sub product {
    my ($first, $a, $h, $lo, $mid, $hi, $t0, $t1) = @_;
    if ($first) {
        return <<___;
    movdqa     $lo, $a
    pclmulqdq  $lo, $h, 0x00
    movdqa     $hi, $a
    pclmulqdq  $hi, $h, 0x11
    movdqa     $mid, $a
    pclmulqdq  $mid, $h, 0x01
    movdqa     $t0, $a
    pclmulqdq  $t0, $h, 0x10
    pxor       $mid, $t0
___
    }
    return <<___;
    movdqa     $t0, $a
    pclmulqdq  $t0, $h, 0x00
    pxor       $lo, $t0
    movdqa     $t1, $a
    pclmulqdq  $t1, $h, 0x11
    pxor       $hi, $t1
    movdqa     $t0, $a
    pclmulqdq  $t0, $h, 0x01
    pxor       $mid, $t0
    movdqa     $t1, $a
    pclmulqdq  $t1, $h, 0x10
    pxor       $mid, $t1
___
}

# powers(): xmm11 = H = K_auth (from xmm0), xmm12..xmm14 = H^2..H^4.
# Uses xmm7-xmm10 and xmm15.
sub powers {
    my $dot = sub {
        my ($dst, $a, $b) = @_;
        return product(1, $a, $b, 'xmm7', 'xmm8', $dst, 'xmm9', 'xmm10') .
               reduce('xmm7', 'xmm8', $dst, 'xmm15');
    };
    return "    movdqa     xmm11, xmm0\n" . $dot->('xmm12', 'xmm11', 'xmm11') .
           $dot->('xmm13', 'xmm12', 'xmm11') . $dot->('xmm14', 'xmm12', 'xmm12');
}

# Long inputs (at least $BIG blocks) also get H..H^8 and their Karatsuba
# half sums h0 ^ h1 in the frame after K_enc's round keys, for a bulk
# loop of eight blocks per reduction with three multiplies per block; the
# shorter ones do not pay for the four more powers.
my $BIG = 16;
my $PW = 240;
sub pw8 { return "[rsp + " . ($PW + 32 * ($_[0] - 1)) . "]" }
sub pk8 { return "[rsp + " . ($PW + 32 * ($_[0] - 1) + 16) . "]" }
# Then the open's nonce address (public) while counter mode takes rsi.
my $NONCE_SLOT = $PW + 32 * 8;
my $FRAME = $NONCE_SLOT + 16;

# powers8(): powers() and then H^5..H^8 = H^4 * (H..H^4), and H..H^8 with
# their half sums stored at pw8/pk8. Straight-line, for expand().
sub powers8 {
    my $s = powers();
    my $store = sub {
        my ($k, $r) = @_;
        return <<___;
    pshufd     xmm9, $r, 0x4e
    pxor       xmm9, $r
    movdqa     @{[ pw8($k) ]}, $r
    movdqa     @{[ pk8($k) ]}, xmm9
___
    };
    $s .= $store->($_, 'xmm' . (10 + $_)) for 1 .. 4;
    for my $k (5 .. 8) {
        $s .= product(1, 'xmm14', 'xmm' . (6 + $k), 'xmm7', 'xmm8', 'xmm10', 'xmm9', '');
        $s .= reduce('xmm7', 'xmm8', 'xmm10', 'xmm15');
        $s .= $store->($k, 'xmm10');
    }
    return $s;
}

# kproduct(first, a, k): block a (clobbered) times H^k from the frame,
# Karatsuba: a0*h0, a1*h1, (a0^a1)*(h0^h1) into xmm5, xmm7, xmm6 (lo, hi,
# mid). Uses xmm1, xmm2.
sub kproduct {
    my ($first, $a, $k) = @_;
    my $s = <<___;
    pshufd     xmm1, $a, 0x4e
    pxor       xmm1, $a
    pclmulqdq  xmm1, @{[ pk8($k) ]}, 0x00
___
    if ($first) {
        return $s . <<___;
    movdqa     xmm5, $a
    pclmulqdq  xmm5, @{[ pw8($k) ]}, 0x00
    movdqa     xmm7, $a
    pclmulqdq  xmm7, @{[ pw8($k) ]}, 0x11
    movdqa     xmm6, xmm1
___
    }
    return $s . <<___;
    movdqa     xmm2, $a
    pclmulqdq  xmm2, @{[ pw8($k) ]}, 0x00
    pclmulqdq  $a, @{[ pw8($k) ]}, 0x11
    pxor       xmm5, xmm2
    pxor       xmm7, $a
    pxor       xmm6, xmm1
___
}

# polyval(tag, setup, bulk): S (xmm15) updated with the r11 blocks at
# rdi, which `setup` loads: with at least $BIG blocks and `bulk` set,
# eight per reduction (Karatsuba, powers from the frame) while eight are
# left; then four per reduction (schoolbook, powers in registers), and a
# tail of 1..3. A run of fewer than $BIG blocks never reads the frame's
# powers, so a message of fewer than $BIG blocks in all (which has none)
# may hash any of its runs with bulk set. `tag` names the labels (one
# function may hash several runs). Uses rdi, r11, xmm0-xmm7.
sub polyval {
    my ($tag, $setup, $bulk) = @_;
    my $eight = '';
    for my $j (0 .. 7) {
        $eight .= "    movdqu     xmm0, [rdi + " . 16 * $j . "]\n";
        $eight .= "    pxor       xmm0, xmm15\n" if $j == 0;
        $eight .= kproduct($j == 0, 'xmm0', 8 - $j);
    }
    my $loop8 = !$bulk ? '' : <<___;
    cmp        r11, $BIG
    jb         .LX_${tag}_four
.LX_${tag}_loop8:
$eight    pxor       xmm6, xmm5               # Karatsuba: mid ^= lo ^ hi
    pxor       xmm6, xmm7
@{[ reduce('xmm5', 'xmm6', 'xmm7', 'xmm3') ]}    movdqa     xmm15, xmm7
    add        rdi, 128
    sub        r11, 8
    cmp        r11, 8
    jae        .LX_${tag}_loop8
.LX_${tag}_four:
___
    my $group = sub {
        my ($k) = @_;    # k blocks at [rdi], the first with S, H^k .. H^1
        my $s = '';
        for my $j (0 .. $k - 1) {
            $s .= "    movdqu     xmm0, [rdi + " . 16 * $j . "]\n";
            $s .= "    pxor       xmm0, xmm15\n" if $j == 0;
            $s .= product($j == 0, 'xmm0', 'xmm' . (11 + $k - 1 - $j),
                          'xmm5', 'xmm6', 'xmm7', 'xmm1', 'xmm2');
        }
        $s .= reduce('xmm5', 'xmm6', 'xmm7', 'xmm3');
        $s .= "    movdqa     xmm15, xmm7\n";
        return $s;
    };
    return <<___;
$setup$loop8    cmp        r11, 4
    jb         .LX_${tag}_tail
.LX_${tag}_loop4:
@{[ $group->(4) ]}
    add        rdi, 64
    sub        r11, 4
    cmp        r11, 4
    jae        .LX_${tag}_loop4
.LX_${tag}_tail:
    cmp        r11, 2
    ja         .LX_${tag}_tail3
    je         .LX_${tag}_tail2
    test       r11, r11
    jz         .LX_${tag}_done
@{[ $group->(1) ]}
    jmp        .LX_${tag}_done
.LX_${tag}_tail2:
@{[ $group->(2) ]}
    jmp        .LX_${tag}_done
.LX_${tag}_tail3:
@{[ $group->(3) ]}
.LX_${tag}_done:
___
}

# ksrounds(n, tag): rounds 0..Nr of K_enc (frame, eax = 16 * Nr) on xmm0 ..
# xmm(n-1). Uses xmm9.
sub ksrounds {
    my ($n, $tag) = @_;
    my $s = "    movdqa     xmm9, [rsp]\n";
    $s .= "    pxor       xmm$_, xmm9\n" for 0 .. $n - 1;
    my $round = sub {
        my $t = "    movdqa     xmm9, [rsp + " . 16 * $_[0] . "]\n";
        $t .= "    aesenc     xmm$_, xmm9\n" for 0 .. $n - 1;
        return $t;
    };
    $s .= $round->($_) for 1 .. 9;
    $s .= "    cmp        eax, 160\n    je         .LX_${tag}_last\n";
    $s .= $round->($_) for 10 .. 13;
    $s .= ".LX_${tag}_last:\n    movdqa     xmm9, [rsp + rax]\n";
    $s .= "    aesenclast xmm$_, xmm9\n" for 0 .. $n - 1;
    return $s;
}

# tag(): xmm15 = AES(K_enc, (S ^ (N || 0^32)) with the top bit cleared).
sub tag {
    return <<___;
    movq       xmm0, [rsi]
    pinsrd     xmm0, dword [rsi + 8], 2       # N || 0^32
    pxor       xmm15, xmm0
    pand       xmm15, [.Lsiv_clear_top]
    pxor       xmm15, [rsp]
@{[ join '', map { "    aesenc     xmm15, [rsp + " . 16 * $_ . "]\n" } 1 .. 9 ]}
    cmp        eax, 160
    je         .LX_tag_last
@{[ join '', map { "    aesenc     xmm15, [rsp + " . 16 * $_ . "]\n" } 10 .. 13 ]}
.LX_tag_last:
    aesenclast xmm15, [rsp + rax]
___
}

# ctr(setup, dst): the r11 blocks at rdi XORed with the key stream from
# the counter block at xmm8 and written to dst (rdi itself: in place; or
# another register, which moves on with rdi), both of which `setup`
# loads. Each block is read before it is written. Uses rdi, r11, dst,
# xmm0-xmm10.
sub ctr {
    my ($setup, $dst) = @_;
    my $width = sub {
        my ($w) = @_;
        my $s = '';
        for my $i (0 .. $w - 1) {
            $s .= "    movdqa     xmm$i, xmm8\n";
            $s .= "    paddd      xmm$i, [.Lsiv_add + " . 16 * $i . "]\n" if $i;
        }
        $s .= ksrounds($w, "ctr$w");
        for my $i (0 .. $w - 1) {
            $s .= "    movdqu     xmm10, [rdi + " . 16 * $i . "]\n";
            $s .= "    pxor       xmm$i, xmm10\n";
            $s .= "    movdqu     [$dst + " . 16 * $i . "], xmm$i\n";
            if ($i >= $w / 2 && $i < $w - 1) {
                $s .= "    cmp        r11, " . ($i + 1) . "\n";
                $s .= "    je         .LX_ctr_done\n";
            }
        }
        return $s;
    };
    my $advance = $dst eq 'rdi' ? '' : "    add        $dst, 128\n";
    return <<___;
$setup.LX_ctr_next:
    cmp        r11, 4
    ja         .LX_ctr_8
    cmp        r11, 2
    ja         .LX_ctr_4
    je         .LX_ctr_2
    test       r11, r11
    jz         .LX_ctr_done
@{[ $width->(1) ]}
    jmp        .LX_ctr_done
.LX_ctr_2:
@{[ $width->(2) ]}
    jmp        .LX_ctr_done
.LX_ctr_4:
@{[ $width->(4) ]}
    jmp        .LX_ctr_done
.LX_ctr_8:
@{[ $width->(8) ]}
    paddd      xmm8, [.Lsiv_add + 128]
    add        rdi, 128
$advance    sub        r11, 8
    jnz        .LX_ctr_next
.LX_ctr_done:
___
}

# The short functions' common start: c (r10), K_auth's powers, K_enc in
# the frame, 16 * Nr in eax.
sub short_start {
    return <<___;
    lea        r10, [r8 + 15]
    shr        r10, 4                   # c, the data blocks
@{[ derive() ]}
    lea        r11, [rcx + r10 + 1]     # blocks of POLYVAL input
    cmp        r11, $BIG
    jae        .LX_short_big
@{[ expand('rsp', 'short_key', powers()) ]}
    jmp        .LX_short_keyed
.LX_short_big:
@{[ expand('rsp', 'short_bigkey', powers8()) ]}
.LX_short_keyed:
    shl        eax, 4                   # 16 * Nr
___
}

# The short functions' end: the frame's round keys and every xmm register
# cleared.
sub short_end {
    my $s = "    pxor       xmm0, xmm0\n";
    $s .= "    movdqa     [rsp + " . 16 * $_ . "], xmm0\n" for 0 .. 14;
    $s .= "    lea        r11, [rcx + r10 + 1]\n";
    $s .= "    cmp        r11, $BIG\n    jb         .LX_short_wiped\n";
    $s .= "    movdqa     [rsp + " . ($PW + 16 * $_) . "], xmm0\n" for 0 .. 15;
    $s .= ".LX_short_wiped:\n";
    $s .= "    pxor       xmm$_, xmm$_\n" for 1 .. 15;
    return $s;
}

# local(name, text): the function's labels made its own (the pieces'
# .LX_ labels appear once per function that uses them).
sub local_labels {
    my ($name, $text) = @_;
    $text =~ s/\.LX_/.L${name}_/g;
    return $text;
}

$code .= ".text\n";
$code .= local_labels('keys', <<___);

.function gcmi_aes_gcm_siv_x86_64_aesni_keys args=4 public=rdi,rsi,rdx,rcx,rax,r11   # (const struct aes_schedule *kgk, const uint8_t nonce[12], uint8_t auth[16], struct aes_schedule *enc)
@{[ derive() ]}
    movdqu     [rdx], xmm0              # K_auth
@{[ expand('rcx', 'keys') ]}
    mov        [rcx + $ROUNDS], eax
@{[ join '', map { "    pxor       xmm$_, xmm$_\n" } 0 .. 6 ]}.endfunction
___

# runs(field): S (xmm15) = POLYVAL of a message in three pieces (struct
# siv_short_io): the AAD's blocks at hb, the dw whole blocks at
# io->field (the seal's plaintext, in; the open's, out), and at io->end
# the padded last block, if any, and the length block. Three runs, or
# one run from hb when the caller laid the whole message out there
# (io->field = hb + 16 * aad_blocks and io->end = io->field + 16 * dw):
# the runs' seams cost a reduction each, which short messages notice.
# Only the one run and the whole blocks can reach $BIG blocks (the AAD
# is at most SIV_SHORT_AAD = 64 bytes, the end two blocks), so only they
# get the eight-block loop; the four-block loop takes any count.
sub runs {
    my ($field) = @_;
    return <<___
    pxor       xmm15, xmm15
    lea        rdi, [rdx + rcx * 8]
    lea        rdi, [rdi + rcx * 8]     # hb + 16 * aad_blocks
    mov        r11, [r9 + $field]   # public: a pointer in struct siv_short_io
    cmp        rdi, r11
    jne        .LX_runs
    mov        r11, r8
    and        r11, -16                 # 16 * dw
    add        rdi, r11
    mov        r11, [r9 + $SIV_IO_END]  # public: a pointer in struct siv_short_io
    cmp        rdi, r11
    jne        .LX_runs
___
    . polyval('one', <<___, 1)
    mov        rdi, rdx                 # the whole message, laid out in hb
    lea        r11, [rcx + r10 + 1]
___
    . "    jmp        .LX_hashed\n.LX_runs:\n"
    . polyval('aad', <<___, 0)
    mov        rdi, rdx                 # the AAD's blocks (at most 4: no bulk loop)
    mov        r11, rcx
___
    . polyval('data', <<___, 1)
    mov        rdi, [r9 + $field]   # public: a pointer in struct siv_short_io (the whole blocks)
    mov        r11, r8
    shr        r11, 4
___
    . polyval('end', <<___, 0)
    mov        rdi, [r9 + $SIV_IO_END]  # public: a pointer in struct siv_short_io (the rest)
    mov        r11, r8
    shr        r11, 4
    neg        r11
    lea        r11, [r10 + r11 + 1]     # c - dw + 1
___
    . ".LX_hashed:\n";
}

# last_block(mask): the padded last block at io->end, when len % 16 is
# not 0, XORed in place with the key stream of counter block dw (xmm8 is
# counter block 0); `mask` set: its bytes past len % 16 zeroed too (open:
# the plaintext's padding, for the hash). Uses rdi, r11, xmm0, xmm1,
# xmm9, xmm10.
sub last_block {
    my ($mask) = @_;
    my $m = !$mask ? '' : <<___;
    mov        r11, r8
    and        r11, 15
    neg        r11
    lea        rdi, [.Lsiv_pad]
    movdqu     xmm1, [rdi + r11 + 16]   # len % 16 bytes of 0xff, then zeros
___
    my $and = !$mask ? '' : "    pand       xmm0, xmm1\n";
    return <<___;
    test       r8, 15
    jz         .LX_last_done            # no partial block
    mov        r11, r8
    shr        r11, 4
    movd       xmm0, r11d
    paddd      xmm0, xmm8               # counter block dw
@{[ ksrounds(1, 'last') ]}
$m    mov        rdi, [r9 + $SIV_IO_END]  # public: a pointer in struct siv_short_io
    movdqu     xmm10, [rdi]
    pxor       xmm0, xmm10
$and    movdqu     [rdi], xmm0              # the padded last block
.LX_last_done:
___
}

# The whole blocks from io->in to io->out (rsi).
my $whole_ctr = ctr(<<___, 'rsi');
    mov        rdi, [r9 + $SIV_IO_IN]   # public: a pointer in struct siv_short_io
    mov        rsi, [r9 + $SIV_IO_OUT]  # public: a pointer in struct siv_short_io
    mov        r11, r8
    shr        r11, 4                   # dw
___

# seal: POLYVAL over the plaintext's pieces, the tag, the padded last
# block encrypted in place, the whole blocks from in to out.
$code .= local_labels('seal', <<___);

.function gcmi_aes_gcm_siv_x86_64_aesni_seal_short args=6 frame=$FRAME public=rdi,rsi,rdx,rcx,r8,r9,r10,r11,rax   # (const struct aes_schedule *kgk, const uint8_t nonce[12], uint8_t *hb, size_t aad_blocks, size_t len, struct siv_short_io *io)
@{[ short_start() ]}
@{[ runs($SIV_IO_IN) ]}
@{[ tag() ]}
    movdqu     [r9 + $SIV_IO_TAG], xmm15   # T
    por        xmm15, [.Lsiv_top]
    movdqa     xmm8, xmm15              # counter block 0
@{[ last_block(0) ]}
$whole_ctr
@{[ short_end() ]}.endfunction
___

# open: counter mode from the received tag first (the padded last block
# in place, its padding zeroed again; the whole blocks from in to out),
# then POLYVAL over the plaintext's pieces and the tag it calls for. The
# counter mode takes rsi, so the nonce's address waits in the frame.
$code .= local_labels('open', <<___);

.function gcmi_aes_gcm_siv_x86_64_aesni_open_short args=6 frame=$FRAME public=rdi,rsi,rdx,rcx,r8,r9,r10,r11,rax   # (const struct aes_schedule *kgk, const uint8_t nonce[12], uint8_t *hb, size_t aad_blocks, size_t len, struct siv_short_io *io)
@{[ short_start() ]}
    movdqu     xmm8, [r9 + $SIV_IO_TAG]
    por        xmm8, [.Lsiv_top]        # counter block 0, from the received tag
@{[ last_block(1) ]}
    mov        [rsp + $NONCE_SLOT], rsi
$whole_ctr
    mov        rsi, [rsp + $NONCE_SLOT] # public: the nonce's address, kept above
@{[ runs($SIV_IO_OUT) ]}
@{[ tag() ]}
    movdqu     [r9 + $SIV_IO_TAG], xmm15   # the expected tag
@{[ short_end() ]}.endfunction
___

perlasm::driver::finish('x86_64', $code);
