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
# Schedule layout (struct aes_schedule, 64-byte aligned)
# ======================================================
#     bytes[16*r]   round key r, r = 0 .. Nr (FIPS 197 byte order)
#     rounds        Nr, the unsigned at offset 1920 (after the 1920-byte
#                   array), written by set_encrypt_key and read by the
#                   other two functions. The C descriptor asserts the offset.
# Round keys are aligned, so they serve as memory operands of AESENC.
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   aes_x86_64_aesni_set_encrypt_key(s = rdi, key = rsi, key_len = rdx)
#     xmm1        current 4 round-key words (w[i-4..i-1]; AES-256: first half)
#     xmm3        AES-256: second half; AES-192: w4, w5 in the low qword
#     xmm2        SubWord(RotWord(..)) ^ Rcon, broadcast
#     xmm4        prefix-XOR temporary;  xmm0 zero (AES-256)
#     xmm5        the broadcast mask for PSHUFB
#   aes_x86_64_aesni_encrypt_block(s = rdi, in = rsi, out = rdx)
#     xmm0 the state, eax Nr
#   aes_x86_64_aesni_ctr32(s = rdi, in = rsi, out = rdx, blocks = rcx,
#                          ctr = r8)
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

# Offset of `rounds` in struct aes_schedule (crypto/aes/aes_asm.h,
# AES_NI_ROUNDS_OFFSET; asserted in crypto/aes/aes_aesni.c).
my $ROUNDS = 1920;

my $code = '';

# Constants -------------------------------------------------------------------
my @rcon = (0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36);
$code .= <<___;
.rodata
.align 16
.Lrcon:                         # Rcon[i] in each column, i = 1 .. 10
___
$code .= "    .long $_, $_, $_, $_\n" for @rcon;
$code .= <<___;
.Lrot_word3:                    # RotWord(word 3) in every column
    .byte 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12
.Lbcast_word3:                  # word 3 in every column
    .byte 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15
.Lrot_word1:                    # RotWord(word 1) in every column (AES-192)
    .byte 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4
.Lctr_swap:                     # reverses bytes 12..15, keeps 0..11
    .byte 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12
.Linc:                          # i in the swapped counter dword, i = 0 .. 8
___
$code .= "    .long 0, 0, 0, $_\n" for 0 .. 8;

# Key expansion -----------------------------------------------------------------

# prefix_xor(x, t): x = (w0, w0^w1, w0^w1^w2, w0^w1^w2^w3) for x = (w0..w3).
sub prefix_xor {
    my ($x, $t) = @_;
    return <<___;
    movdqa     $t, $x
    pslldq     $t, 4
    pxor       $x, $t
    pslldq     $t, 4
    pxor       $x, $t
    pslldq     $t, 4
    pxor       $x, $t
___
}

# sub_word(dst, src, mask, key): dst = SubBytes of PSHUFB(src, mask) ^ key.
sub sub_word {
    my ($dst, $src, $mask, $key) = @_;
    return <<___;
    movdqa     $dst, $src
    pshufb     $dst, $mask
    aesenclast $dst, $key
___
}

my $k128 = '';
for my $i (1 .. 10) {
    $k128 .= sub_word('xmm2', 'xmm1', 'xmm5', "[.Lrcon + " . 16 * ($i - 1) . "]");
    $k128 .= prefix_xor('xmm1', 'xmm4');
    $k128 .= "    pxor       xmm1, xmm2\n";
    $k128 .= "    movdqa     [rdi + " . 16 * $i . "], xmm1     # rk[$i]\n";
}

my $k256 = '';
for my $i (2 .. 14) {
    if ($i % 2 == 0) {
        $k256 .= sub_word('xmm2', 'xmm3', 'xmm5', "[.Lrcon + " . 16 * ($i / 2 - 1) . "]");
        $k256 .= prefix_xor('xmm1', 'xmm4');
        $k256 .= "    pxor       xmm1, xmm2\n";
        $k256 .= "    movdqa     [rdi + " . 16 * $i . "], xmm1     # rk[$i]\n";
    } else {
        $k256 .= sub_word('xmm2', 'xmm1', '[.Lbcast_word3]', 'xmm0');
        $k256 .= prefix_xor('xmm3', 'xmm4');
        $k256 .= "    pxor       xmm3, xmm2\n";
        $k256 .= "    movdqa     [rdi + " . 16 * $i . "], xmm3     # rk[$i]\n";
    }
}

my $k192 = '';
for my $j (1 .. 8) {
    my $off = 24 * $j;
    $k192 .= sub_word('xmm2', 'xmm3', 'xmm5', "[.Lrcon + " . 16 * ($j - 1) . "]");
    $k192 .= prefix_xor('xmm1', 'xmm4');
    $k192 .= <<___;
    pxor       xmm1, xmm2               # w[6j .. 6j+3]
    pshufd     xmm2, xmm1, 0xff         # w[6j+3] in every column
    movdqa     xmm4, xmm3
    pslldq     xmm4, 4
    pxor       xmm3, xmm4               # low qword: w4, w4^w5
    pxor       xmm3, xmm2               # low qword: w[6j+4], w[6j+5]
    movdqu     [rdi + $off], xmm1
    movq       [rdi + @{[ $off + 16 ]}], xmm3
___
}

$code .= <<___;

.text
.function aes_x86_64_aesni_set_encrypt_key args=3 public=rdi,rsi,rdx   # (struct aes_schedule *s, const uint8_t *key, size_t key_len)
    movdqu     xmm1, [rsi]
    movdqa     [rdi], xmm1              # rk[0]
    cmp        rdx, 24
    je         .Lkey192
    ja         .Lkey256
    movdqa     xmm5, [.Lrot_word3]
$k128
    mov        dword [rdi + $ROUNDS], 10
    jmp        .Lkey_done
.Lkey192:
    movq       xmm3, [rsi + 16]         # w4, w5
    movq       [rdi + 16], xmm3
    movdqa     xmm5, [.Lrot_word1]
$k192
    mov        dword [rdi + $ROUNDS], 12
    jmp        .Lkey_done
.Lkey256:
    movdqu     xmm3, [rsi + 16]
    movdqa     [rdi + 16], xmm3         # rk[1]
    movdqa     xmm5, [.Lrot_word3]
    pxor       xmm0, xmm0
$k256
    mov        dword [rdi + $ROUNDS], 14
.Lkey_done:
    pxor       xmm1, xmm1               # no key material left in registers
    pxor       xmm2, xmm2
    pxor       xmm3, xmm3
    pxor       xmm4, xmm4
.endfunction
___

# Single block ---------------------------------------------------------------------

$code .= <<___;

.function aes_x86_64_aesni_encrypt_block args=3 public=rdi,rsi,rdx,rax   # (const struct aes_schedule *s, const uint8_t in[16], uint8_t out[16])
    mov        eax, [rdi + $ROUNDS]   # public: the round count follows from the key length
    movdqu     xmm0, [rsi]
    pxor       xmm0, [rdi]
@{[ join '', map { "    aesenc     xmm0, [rdi + " . 16 * $_ . "]\n" } 1 .. 9 ]}
    cmp        eax, 10
    je         .Lblock_last
    aesenc     xmm0, [rdi + 160]
    aesenc     xmm0, [rdi + 176]
    cmp        eax, 12
    je         .Lblock_last
    aesenc     xmm0, [rdi + 192]
    aesenc     xmm0, [rdi + 208]
.Lblock_last:
    shl        eax, 4
    aesenclast xmm0, [rdi + rax]
    movdqu     [rdx], xmm0
    pxor       xmm0, xmm0
.endfunction
___

# Counter mode -------------------------------------------------------------------------

my ($key, $in, $out, $blocks, $ctr) = qw(rdi rsi rdx rcx r8);
my @X = map { "xmm$_" } 0 .. 7;

# counters(n): the first n counter blocks, base + i, swapped back, ^ rk[0].
sub counters {
    my ($n) = @_;
    my $s = '';
    for my $i (0 .. $n - 1) {
        $s .= "    movdqa     $X[$i], xmm8\n";
        $s .= "    paddd      $X[$i], [.Linc + " . 16 * $i . "]\n" if $i;
        $s .= "    pshufb     $X[$i], xmm9\n";
        $s .= "    pxor       $X[$i], xmm10\n";
    }
    return $s;
}

# rounds(n, tag): rounds 1 .. Nr-1 on the first n blocks; eax = 16 * Nr.
sub rounds {
    my ($n, $tag) = @_;
    my $one = sub {
        my ($r) = @_;
        my $s = "    movdqa     xmm12, [$key + " . 16 * $r . "]\n";
        $s .= "    aesenc     $X[$_], xmm12\n" for 0 .. $n - 1;
        return $s;
    };
    my $s = join '', map { $one->($_) } 1 .. 9;
    $s .= "    cmp        eax, 160\n    je         .Lctr_${tag}_last\n";
    $s .= $one->(10) . $one->(11);
    $s .= "    cmp        eax, 192\n    je         .Lctr_${tag}_last\n";
    $s .= $one->(12) . $one->(13);
    $s .= ".Lctr_${tag}_last:\n";
    return $s;
}

# The eight-block body: key stream and data combined in the last round.
my $last8 = '';
for my $i (0 .. 7) {
    my $o = 16 * $i;
    $last8 .= <<___;
    movdqu     xmm13, [$in + $o]
    pxor       xmm13, xmm11
    aesenclast $X[$i], xmm13
    movdqu     [$out + $o], $X[$i]
___
}

# tail_store(first, n_max): XOR and store blocks 0 .. n_max-1, stopping
# after block i when i+1 == blocks, for i >= first - 1.
sub tail_store {
    my ($first, $nmax) = @_;
    my $s = '';
    $s .= "    aesenclast $X[$_], xmm11\n" for 0 .. $nmax - 1;
    for my $i (0 .. $nmax - 1) {
        my $o = 16 * $i;
        $s .= <<___;
    movdqu     xmm13, [$in + $o]
    pxor       $X[$i], xmm13
    movdqu     [$out + $o], $X[$i]
___
        if ($i + 1 >= $first && $i < $nmax - 1) {
            $s .= "    cmp        $blocks, " . ($i + 1) . "\n";
            $s .= "    je         .Lctr_done\n";
        }
    }
    return $s;
}

$code .= <<___;

.function aes_x86_64_aesni_ctr32 args=5 public=rdi,rsi,rdx,rcx,r8,r9,rax   # (const struct aes_schedule *s, const uint8_t *in, uint8_t *out, size_t blocks, const uint8_t ctr[16])
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
@{[ counters(8) ]}
    paddd      xmm8, [.Linc + 128]
@{[ rounds(8, 'loop8') ]}
$last8
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
@{[ counters(2) ]}
@{[ rounds(2, 'tail2') ]}
@{[ tail_store(1, 2) ]}
    jmp        .Lctr_done
.Lctr_tail4:
@{[ counters(4) ]}
@{[ rounds(4, 'tail4') ]}
@{[ tail_store(1, 4) ]}
    jmp        .Lctr_done
.Lctr_tail7:
@{[ counters(7) ]}
@{[ rounds(7, 'tail7') ]}
@{[ tail_store(5, 7) ]}
.Lctr_done:
@{[ join '', map { "    pxor       xmm$_, xmm$_\n" } 0 .. 13 ]}
.Lctr_return:
.endfunction
___

perlasm::driver::finish('x86_64', $code);
