#!/usr/bin/env perl
# asm/x86_64/aes-ni-x86_64.pl: AES with the AES-NI instructions, the kernel
# behind the "aesni" descriptor in crypto/aes/aes_aesni.c.
#
# Usage: perl aes-ni-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# AESENC performs one full AES round (ShiftRows, SubBytes, MixColumns,
# AddRoundKey) on a 16-byte state held in an xmm register, in the byte
# order of FIPS 197 (byte i of the block is byte i of the register);
# AESENCLAST is the final round without MixColumns. Encryption is
#     s = in ^ rk[0];  s = AESENC(s, rk[r]) for r = 1 .. Nr-1;
#     out = AESENCLAST(s, rk[Nr])
# with Nr = 10, 12 or 14 (Intel AES-NI white paper, Gueron; FIPS 197).
#
# Key expansion (FIPS 197 section 5.2) without AESKEYGENASSIST. The one
# non-linear step of the schedule is SubWord(RotWord(w)) ^ Rcon. PSHUFB
# with a constant mask copies RotWord(w) into all four columns of a
# register; AESENCLAST of that register with a round key holding Rcon in
# every column then gives SubWord(RotWord(w)) ^ Rcon in every column:
# ShiftRows only moves bytes between columns, which are all equal, so it
# changes nothing, and SubBytes is SubWord applied to each column. AES-256's
# extra SubWord (no rotation, no Rcon) is the same with a plain broadcast
# and a zero key. This was chosen over AESKEYGENASSIST because it runs on
# the same fast AES unit as AESENC on every core (AESKEYGENASSIST is
# microcoded, about ten cycles, on several AMD and Intel cores), and the
# Rcon comes from a table instead of an immediate, so the code is the same
# for every step. The linear part, w[i] = w[i-Nk] ^ w[i-1] across a
# register, is a prefix XOR: x ^= x << 32 three times (PSLLDQ by 4 bytes).
#     AES-128: one register of 4 words, 10 steps.
#     AES-256: two registers alternate: the first takes
#              SubWord(RotWord(last word of the second)) ^ Rcon, the second
#              takes SubWord(last word of the first).
#     AES-192: 6 words per step, in a register (w0..w3) and the low half of
#              another (w4, w5). Each step stores 24 bytes with MOVDQU+MOVQ
#              at offset 24*step, so the round keys come out contiguous;
#              eight steps write 216 bytes, of which 208 are round keys
#              0..12 (the last 8 are harmless, inside the schedule).
#
# Counter mode (ctr32). Eight blocks are in flight, so every AES unit is
# busy: AESENC has a latency of 3-4 cycles and a throughput of one or two
# per cycle, so a single chain of rounds would leave the units idle most of
# the time. The counter block is kept with the bytes of its 32-bit
# big-endian counter reversed (PSHUFB with a mask that swaps bytes 12..15
# and keeps 0..11), so that its counter is a little-endian dword: PADDD
# with i in that dword adds i modulo 2^32 and cannot carry into byte 11.
# Each of the eight blocks is made in registers as
#     swap(base + i) ^ rk[0]
# and base advances by 8 per iteration. The final round folds in the data:
#     AESENCLAST(s, rk[Nr] ^ in) = AESENCLAST(s, rk[Nr]) ^ in,
# because the last AddRoundKey is an XOR. A tail of n = 1..7 blocks
# computes two (n <= 2), four (n <= 4) or seven key-stream blocks with the
# same code (a few blocks cost no more time than one: the rounds are latency
# bound, so only the AES units' spare throughput is spent), then XORs and
# stores only the n blocks that exist, reading no input past them. Two
# blocks is what the mode engine asks for on a one-block message (the tag
# mask and the key stream). in == out works: each block is read before it is written.
#
# ctr32le (AES-GCM-SIV's counter mode, RFC 8452: a little-endian 32-bit
# counter in bytes 0..3) is the same function with one constant changed
# (perlasm/siv_copy.pm): its PSHUFB mask exchanges dwords 0 and 3 instead
# of reversing bytes 12..15, which puts the counter, already
# little-endian, in dword 3 where PADDD steps it, and the same mask puts
# it back.
#
# Schedule layout (struct aes_schedule, 16-byte aligned, 256 bytes)
# ================================================================
#     bytes[16*r]   round key r, r = 0 .. Nr (FIPS 197 byte order)
#     rounds        Nr, the unsigned at offset 240 ($ROUNDS, after the
#                   240-byte array), written by set_encrypt_key and read by
#                   the other two functions. crypto/aes/aes.h asserts the
#                   offset.
# Round keys are aligned, so they serve as memory operands of AESENC.
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   gcmi_aes_x86_64_aesni_set_encrypt_key(s = rdi, key = rsi, key_len = rdx)
#     xmm1        current 4 round-key words (w[i-4..i-1]; AES-256: first half)
#     xmm3        AES-256: second half; AES-192: w4, w5 in the low qword
#     xmm2        SubWord(RotWord(..)) ^ Rcon, broadcast
#     xmm4        prefix-XOR temporary;  xmm0 zero (AES-256)
#     xmm5        the broadcast mask for PSHUFB
#   gcmi_aes_x86_64_aesni_encrypt_block(s = rdi, out = rsi, in = rdx)
#     xmm0 the state, eax Nr
#   gcmi_aes_x86_64_aesni_ctr32(s = rdi, out = rsi, in = rdx, blocks = rcx,
#                          ctr = r8), and gcmi_aes_x86_64_aesni_ctr32le
#     xmm0-xmm7   the eight blocks in flight
#     xmm8        base counter block, counter bytes swapped
#     xmm9        the counter byte-swap mask
#     xmm10       rk[0];  xmm11 rk[Nr];  xmm12 rk[r] of the current round
#     xmm13       data block ^ rk[Nr]
#     rax         16 * Nr;  r9 address of rk[Nr]
# Every function clears the xmm registers that held key material or key
# stream before it returns. On win64 the translator saves and restores
# xmm6-xmm13 (ctr32) and rdi and rsi.
#
# The instruction sequences are generated by perlasm/aesni_common.pm
# (shared with the 32-bit x86 kernel) from this file's register names.
#
# Secrets and constant time
# =========================
# Secret: the key and round keys, the data and the key stream (the counter
# block is usually public, but is treated like data). They only flow through
# AESENC/AESENCLAST, PXOR, PADDD, PSHUFB with constant masks, PSLLDQ and
# PSHUFD with constant immediates, and loads and stores at addresses made
# from the caller's pointers, the block count and Nr. AES-NI instructions
# take the same time whatever their operands: there are no table lookups.
# Branches depend only on the key length (public), Nr (a function of it)
# and the block count.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::layout;    # $ROUNDS and the other C structure offsets
use perlasm::aesni_common;
use perlasm::siv_copy;

my $code = perlasm::aesni_common::rodata(9);

# Key expansion -----------------------------------------------------------------

$code .= <<___;

.text
.function gcmi_aes_x86_64_aesni_set_encrypt_key args=3 public=rdi,rsi,rdx   # (struct aes_schedule *s, const uint8_t *key, size_t key_len)
@{[ perlasm::aesni_common::set_encrypt_key('rdi', 'rsi', 'rdx', $ROUNDS) ]}.endfunction
___

# Single block ---------------------------------------------------------------------

$code .= <<___;

.function gcmi_aes_x86_64_aesni_encrypt_block args=3 public=rdi,rsi,rdx,rax   # (const struct aes_schedule *s, uint8_t out[16], const uint8_t in[16])
@{[ perlasm::aesni_common::encrypt_block('rdi', 'rsi', 'rdx', 'rax', $ROUNDS) ]}.endfunction
___

# Counter mode -------------------------------------------------------------------------

my ($key, $out, $in, $blocks, $ctr) = qw(rdi rsi rdx rcx r8);
my %r = (X => [map { "xmm$_" } 0 .. 7], key => $key, in => $in, out => $out,
         blocks => $blocks, base => 'xmm8', swap => 'xmm9', rk0 => 'xmm10',
         rk => 'xmm12', data => 'xmm13', rklast => 'xmm11');
my $counters = sub { perlasm::aesni_common::counters(\%r, @_) };
my $rounds = sub { perlasm::aesni_common::rounds(\%r, @_) };
my $tail_store = sub { perlasm::aesni_common::tail_store(\%r, @_) };

$code .= <<___;

.function gcmi_aes_x86_64_aesni_ctr32 args=5 public=rdi,rsi,rdx,rcx,r8,r9,rax   # (const struct aes_schedule *s, uint8_t *out, const uint8_t *in, size_t blocks, const uint8_t ctr[16])
    test       $blocks, $blocks
    jz         .Lctr_return
    mov        eax, [$key + $ROUNDS]   # public: the round count follows from the key length
    shl        eax, 4                   # 16 * Nr
    lea        r9, [$key + rax]
    movdqa     xmm9, [.Lctr_swap]
    movdqu     xmm8, [$ctr]
    pshufb     xmm8, xmm9               # counter as a little-endian dword 3
    movdqa     xmm10, [$key]
    movdqa     xmm11, [r9]
    cmp        $blocks, 8
    jb         .Lctr_tail
.Lctr_loop8:
@{[ $counters->(8) ]}
    paddd      xmm8, [.Linc + 128]
@{[ $rounds->(8, 'loop8') ]}
@{[ perlasm::aesni_common::last_rounds(\%r, 8) ]}
    add        $in, 128
    add        $out, 128
    sub        $blocks, 8
    cmp        $blocks, 8
    jae        .Lctr_loop8
    test       $blocks, $blocks
    jz         .Lctr_done
.Lctr_tail:
    cmp        $blocks, 4
    ja         .Lctr_tail7
    cmp        $blocks, 2
    ja         .Lctr_tail4
@{[ $counters->(2) ]}
@{[ $rounds->(2, 'tail2') ]}
@{[ $tail_store->(1, 2) ]}
    jmp        .Lctr_done
.Lctr_tail4:
@{[ $counters->(4) ]}
@{[ $rounds->(4, 'tail4') ]}
@{[ $tail_store->(1, 4) ]}
    jmp        .Lctr_done
.Lctr_tail7:
@{[ $counters->(7) ]}
@{[ $rounds->(7, 'tail7') ]}
@{[ $tail_store->(5, 7) ]}
.Lctr_done:
@{[ join '', map { "    pxor       xmm$_, xmm$_\n" } 0 .. 13 ]}
.Lctr_return:
.endfunction
___
$code .= perlasm::siv_copy::ctr32le($code, 'gcmi_aes_x86_64_aesni_ctr32');

perlasm::driver::finish('x86_64', $code);
