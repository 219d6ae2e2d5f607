#!/usr/bin/env perl
# asm/x86/aes-ni-x86.pl: AES with the AES-NI instructions for 32-bit x86,
# the kernel behind the "aesni" descriptor in crypto/aes/aes_aesni.c.
#
# Usage: perl aes-ni-x86.pl FLAVOUR [OUTPUT]  (see asm/perlasm, x86.pm).
#
# Algorithm
# =========
# The same as asm/x86_64/aes-ni-x86_64.pl, whose opening comment explains it
# at length; in short:
#   - a block is s = in ^ rk[0], AESENC with rk[1..Nr-1], AESENCLAST with
#     rk[Nr] (FIPS 197; Intel AES-NI white paper), Nr = 10, 12 or 14;
#   - the key expansion (FIPS 197 5.2) replaces AESKEYGENASSIST by PSHUFB
#     (RotWord of the last word broadcast to every column) and AESENCLAST
#     with Rcon in every column, which yields SubWord(RotWord(w)) ^ Rcon in
#     every column; the linear part is a prefix XOR by PSLLDQ 4 and PXOR.
#     AES-192 stores 24 bytes per step (MOVDQU + MOVQ) so the round keys come
#     out contiguous;
#   - counter mode keeps the counter block with bytes 12..15 reversed, so
#     its 32-bit big-endian counter is a little-endian dword that PADDD
#     increments modulo 2^32 without touching bytes 0..11; the last round
#     folds in the data, AESENCLAST(s, rk[Nr] ^ in) = AESENCLAST(s, rk[Nr]) ^ in.
# What differs on 32-bit x86 is the register file: eight xmm registers. The
# counter loop keeps SIX blocks in flight (xmm0-xmm5), enough to cover
# AESENC's latency of 3-4 cycles at a throughput of one or two per cycle;
# the base counter lives in xmm7 and each round key passes through xmm6.
# The byte-swap mask, the increments and rk[0] are memory operands (L1
# loads, which the load ports absorb beside the AES unit's work). A tail of
# n = 1..5 blocks computes two (n <= 2) or five key-stream blocks with the
# same code and stores only the n that exist, reading no input past them.
#
# Schedule layout: identical to the x86_64 kernel's, so one descriptor file
# serves both (crypto/aes/aes_aesni.c):
#     bytes[16*r]   round key r, r = 0 .. Nr (FIPS 197 byte order)
#     rounds        Nr, the unsigned at offset 1920, written by
#                   set_encrypt_key and read by the other two functions.
# Round keys are 16-byte aligned (the schedule is 64-byte aligned), so they
# serve as memory operands of AESENC and PXOR.
#
# Register plan (cdecl; perlasm/x86.pm loads the arguments in the order
# edi, esi, edx, ecx, ebx; constants through the pic= register)
# =======================================================================
#   aes_x86_aesni_set_encrypt_key(s = edi, key = esi, key_len = edx)
#     pic ebx; xmm1 current round-key words (AES-256: first half), xmm3
#     AES-256 second half / AES-192 w4,w5, xmm2 SubWord(RotWord(..)) ^ Rcon,
#     xmm4 prefix-XOR temporary, xmm0 zero (AES-256), xmm5 broadcast mask
#   aes_x86_aesni_encrypt_block(s = edi, in = esi, out = edx)
#     xmm0 the state, eax Nr
#   aes_x86_aesni_ctr32(s = edi, in = esi, out = edx, blocks = ecx,
#                       ctr = ebx)
#     xmm0-xmm5 the six blocks in flight, xmm6 rk[r] or data ^ rk[Nr],
#     xmm7 base counter block (counter bytes swapped); eax 16 * Nr (rk[Nr]
#     is [edi + eax]); pic ebp
# No function needs a stack frame, so the caller's stack alignment (4
# bytes is all cdecl promises) does not matter. Every function clears the
# xmm registers that held key material or key stream before it returns.
#
# Secrets and constant time
# =========================
# Secret: the key and round keys, the data and the key stream (the counter
# block is treated like data). They only flow through AESENC/AESENCLAST,
# PXOR, PADDD, PSHUFB with constant masks, PSLLDQ and PSHUFD with constant
# immediates, and loads and stores at addresses made from the caller's
# pointers, the block count and Nr. AES-NI instructions take the same time
# whatever their operands: there are no table lookups. Branches depend only
# on the key length (public), Nr (a function of it) and the block count;
# the secret-register check in perlasm verifies that no other register
# reaches an address or a branch.
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
.Linc:                          # i in the swapped counter dword, i = 0 .. 6
___
$code .= "    .long 0, 0, 0, $_\n" for 0 .. 6;

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
    $k128 .= "    movdqa     [edi + " . 16 * $i . "], xmm1     # rk[$i]\n";
}

my $k256 = '';
for my $i (2 .. 14) {
    if ($i % 2 == 0) {
        $k256 .= sub_word('xmm2', 'xmm3', 'xmm5', "[.Lrcon + " . 16 * ($i / 2 - 1) . "]");
        $k256 .= prefix_xor('xmm1', 'xmm4');
        $k256 .= "    pxor       xmm1, xmm2\n";
        $k256 .= "    movdqa     [edi + " . 16 * $i . "], xmm1     # rk[$i]\n";
    } else {
        $k256 .= sub_word('xmm2', 'xmm1', '[.Lbcast_word3]', 'xmm0');
        $k256 .= prefix_xor('xmm3', 'xmm4');
        $k256 .= "    pxor       xmm3, xmm2\n";
        $k256 .= "    movdqa     [edi + " . 16 * $i . "], xmm3     # rk[$i]\n";
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
    movdqu     [edi + $off], xmm1
    movq       [edi + @{[ $off + 16 ]}], xmm3
___
}

$code .= <<___;

.text
.function aes_x86_aesni_set_encrypt_key args=3 pic=ebx public=edi,esi,edx,ebx   # (struct aes_schedule *s, const uint8_t *key, size_t key_len)
    movdqu     xmm1, [esi]
    movdqa     [edi], xmm1              # rk[0]
    cmp        edx, 24
    je         .Lkey192
    ja         .Lkey256
    movdqa     xmm5, [.Lrot_word3]
$k128
    mov        dword [edi + $ROUNDS], 10
    jmp        .Lkey_done
.Lkey192:
    movq       xmm3, [esi + 16]         # w4, w5
    movq       [edi + 16], xmm3
    movdqa     xmm5, [.Lrot_word1]
$k192
    mov        dword [edi + $ROUNDS], 12
    jmp        .Lkey_done
.Lkey256:
    movdqu     xmm3, [esi + 16]
    movdqa     [edi + 16], xmm3         # rk[1]
    movdqa     xmm5, [.Lrot_word3]
    pxor       xmm0, xmm0
$k256
    mov        dword [edi + $ROUNDS], 14
.Lkey_done:
    pxor       xmm1, xmm1               # no key material left in registers
    pxor       xmm2, xmm2
    pxor       xmm3, xmm3
    pxor       xmm4, xmm4
.endfunction
___

# Single block ---------------------------------------------------------------------

$code .= <<___;

.function aes_x86_aesni_encrypt_block args=3 public=edi,esi,edx,eax   # (const struct aes_schedule *s, const uint8_t in[16], uint8_t out[16])
    mov        eax, [edi + $ROUNDS]   # public: the round count follows from the key length
    movdqu     xmm0, [esi]
    pxor       xmm0, [edi]
@{[ join '', map { "    aesenc     xmm0, [edi + " . 16 * $_ . "]\n" } 1 .. 9 ]}
    cmp        eax, 10
    je         .Lblock_last
    aesenc     xmm0, [edi + 160]
    aesenc     xmm0, [edi + 176]
    cmp        eax, 12
    je         .Lblock_last
    aesenc     xmm0, [edi + 192]
    aesenc     xmm0, [edi + 208]
.Lblock_last:
    shl        eax, 4
    aesenclast xmm0, [edi + eax]
    movdqu     [edx], xmm0
    pxor       xmm0, xmm0
.endfunction
___

# Counter mode -------------------------------------------------------------------------

my ($key, $in, $out, $blocks, $ctr) = qw(edi esi edx ecx ebx);
my @X = map { "xmm$_" } 0 .. 5;
my $N = 6;    # blocks in flight

# counters(n): the first n counter blocks, base + i, swapped back, ^ rk[0].
sub counters {
    my ($n) = @_;
    my $s = '';
    for my $i (0 .. $n - 1) {
        $s .= "    movdqa     $X[$i], xmm7\n";
        $s .= "    paddd      $X[$i], [.Linc + " . 16 * $i . "]\n" if $i;
        $s .= "    pshufb     $X[$i], [.Lctr_swap]\n";
        $s .= "    pxor       $X[$i], [$key]\n";
    }
    return $s;
}

# rounds(n, tag): rounds 1 .. Nr-1 on the first n blocks; eax = 16 * Nr.
sub rounds {
    my ($n, $tag) = @_;
    my $one = sub {
        my ($r) = @_;
        my $s = "    movdqa     xmm6, [$key + " . 16 * $r . "]\n";
        $s .= "    aesenc     $X[$_], xmm6\n" for 0 .. $n - 1;
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

# The six-block body: key stream and data combined in the last round.
my $lastN = '';
for my $i (0 .. $N - 1) {
    my $o = 16 * $i;
    $lastN .= <<___;
    movdqu     xmm6, [$in + $o]
    pxor       xmm6, [$key + eax]
    aesenclast $X[$i], xmm6
    movdqu     [$out + $o], $X[$i]
___
}

# tail_store(first, n_max): last round, XOR and store blocks 0 .. n_max-1,
# stopping after block i when i+1 == blocks, for i >= first - 1.
sub tail_store {
    my ($first, $nmax) = @_;
    my $s = "    movdqa     xmm6, [$key + eax]\n";
    $s .= "    aesenclast $X[$_], xmm6\n" for 0 .. $nmax - 1;
    for my $i (0 .. $nmax - 1) {
        my $o = 16 * $i;
        $s .= <<___;
    movdqu     xmm6, [$in + $o]
    pxor       $X[$i], xmm6
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

.function aes_x86_aesni_ctr32 args=5 pic=ebp public=edi,esi,edx,ecx,ebx,ebp,eax   # (const struct aes_schedule *s, const uint8_t *in, uint8_t *out, size_t blocks, const uint8_t ctr[16])
    test       $blocks, $blocks
    jz         .Lctr_return
    mov        eax, [$key + $ROUNDS]   # public: the round count follows from the key length
    shl        eax, 4                   # 16 * Nr; rk[Nr] is [key + eax]
    movdqu     xmm7, [$ctr]
    pshufb     xmm7, [.Lctr_swap]       # counter as a little-endian dword 3
    cmp        $blocks, $N
    jb         .Lctr_tail
.Lctr_loop:
@{[ counters($N) ]}
    paddd      xmm7, [.Linc + @{[ 16 * $N ]}]
@{[ rounds($N, 'loop') ]}
$lastN
    add        $in, @{[ 16 * $N ]}
    add        $out, @{[ 16 * $N ]}
    sub        $blocks, $N
    cmp        $blocks, $N
    jae        .Lctr_loop
    test       $blocks, $blocks
    jz         .Lctr_done
.Lctr_tail:
    cmp        $blocks, 2
    ja         .Lctr_tail5
@{[ counters(2) ]}
@{[ rounds(2, 'tail2') ]}
@{[ tail_store(1, 2) ]}
    jmp        .Lctr_done
.Lctr_tail5:
@{[ counters(5) ]}
@{[ rounds(5, 'tail5') ]}
@{[ tail_store(3, 5) ]}
.Lctr_done:
@{[ join '', map { "    pxor       xmm$_, xmm$_\n" } 0 .. 7 ]}
.Lctr_return:
.endfunction
___

perlasm::driver::finish('x86', $code);
