#!/usr/bin/env perl
# asm/x86_64/ghash-clmul-x86_64.pl: GHASH with PCLMULQDQ, the kernel behind
# the "clmul" descriptor in crypto/ghash/ghash_clmul.c.
#
# Usage: perl ghash-clmul-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# GHASH works in GF(2^128) = GF(2)[x] / P, P = x^128 + x^7 + x^2 + x + 1, with
# GCM's reflected bit order: the most significant bit of byte 0 of a block
# is the coefficient of x^0. After PSHUFB reverses the 16 bytes, the block
# is a 128-bit little-endian integer v whose bit k is the coefficient of
# x^(127-k): the "reflected" form, which this kernel keeps throughout
# (Gueron, RWC 2013; Gueron and Kounavis, Intel white paper).
#
# Products. PCLMULQDQ multiplies two 64-bit halves carry-lessly. A 128x128
# product a*b uses Karatsuba (three multiplications instead of four):
#     lo = a0*b0,  hi = a1*b1,  mid = (a0^a1)*(b0^b1) ^ lo ^ hi
#     a*b = hi<<128 ^ mid<<64 ^ lo                     (256 bits)
# The (b0^b1) halves of every power of H are precomputed at init.
#
# Reflection and H*x^-1. For reflected operands the 256-bit carry-less
# product of the integers is the reflection of the true product *times x*
# (bit k of the integer product is the coefficient of x^(255-k) of x*A*B).
# Instead of shifting every product right by one bit, init stores
# H' = H * x^-1 mod P, so that the integer product of A and H' is a 256-bit
# value congruent to A*H. In the reflected form, multiplying by x^-1 is an
# integer shift left by one; the bit shifted out (the x^0 coefficient of H)
# is replaced by x^-1 = x^127 + x^6 + x + 1 mod P, the 128-bit constant
# 0xC2000000_00000000_00000000_00000001 (bits 127, 126, 121 and 0). That
# conditional XOR uses a mask made by an arithmetic shift, not a branch.
#
# Reduction (Montgomery style, two phases). Read the 256-bit product T as
# a polynomial in y = x^-1 whose coefficient of y^k is integer bit k. The
# modulus becomes P'(y) = y^128 + y^127 + y^126 + y^121 + 1, and the wanted
# result is T * y^-128 mod P': the high 128 bits of T + Q*P' for the Q that
# clears the low 128 bits. Because P' = 1 mod y^64, each 64-bit phase takes
# Q = the lowest 64-bit limb t of what is left, and adding t*P' at that
# position amounts to
#     low128 = swap64(low128) ^ clmul(t, 0xC200000000000000)
# (swap64 exchanges the two 64-bit halves: it drops the cleared limb, moves
# the next limb down and adds t*y^128 on top; y^127+y^126+y^121 shifted down
# by 64 is the constant 0xC2 << 56). After two phases the result is
#     high128(T) ^ low128.
# The same 0xC2.. qword is the upper half of the H*x^-1 constant, so one
# 16-byte constant serves both.
#
# Aggregation. init stores H'^1..H'^8 (each the field product computed with
# the multiplication above, which keeps the x^-1 factor exactly once). The
# bulk loop hashes eight blocks per reduction:
#     Y' = (Y ^ X1)*H^8 ^ X2*H^7 ^ ... ^ X8*H
# summing the unreduced lo, hi and mid parts and reducing once. Fewer than
# eight remaining blocks are aggregated the same way with H^n..H^1.
#
# Key layout (struct ghash_key, 64-byte aligned, 256 of 1024 bytes used):
#     [16*(i-1)]         H'^i in reflected form, i = 1..8
#     [128 + 16*(i-1)]   both halves = high ^ low half of H'^i (Karatsuba)
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   ghash_x86_64_clmul_blocks(Xi = rdi, key = rsi, in = rdx, blocks = rcx)
#     xmm0          Y, the running hash, reflected
#     xmm1 xmm2 xmm3   lo, hi, mid accumulators of the current group
#     xmm4-xmm9     per-block temporaries (two sets, alternating blocks, so
#                   consecutive blocks do not share a register)
#     xmm10         byte-reversal mask for PSHUFB
#     rax, r8       tail: byte offset and address of the highest power used
#   ghash_x86_64_clmul_init(key = rdi, H = rsi)
#     xmm0 current power, xmm1-xmm3 product parts, xmm4 H'^1,
#     xmm5 its Karatsuba half-sum, xmm6 reduction temporary; ecx, rax loop.
# On win64 the translator saves and restores xmm6-xmm10 (blocks) or xmm6
# (init), and rdi and rsi.
#
# Secrets and constant time
# =========================
# Secret: H and its powers (key material), Y, and the data. They only ever
# flow through PCLMULQDQ, PXOR/PAND/POR, PSHUFB with a constant mask,
# PSHUFD/PSLLDQ/PSRLDQ with constant immediates and shifts by constants;
# PCLMULQDQ's latency does not depend on its operands. No secret is used as
# a branch condition or in an address: branches depend only on the block
# count, and addresses only on the pointers and the block count (the tail
# picks its starting power of H from the number of blocks left, which is
# public). The secret-dependent reduction of H*x^-1 at init is a mask, not
# a branch.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

my $code = '';

# The byte-reversal mask and the reduction constant.
$code .= <<___;
.rodata
.align 16
.Lbswap_mask:
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lpoly:                         # x^-1 mod P, reflected; high qword is 0xC2 << 56
    .quad 0x0000000000000001, 0xc200000000000000
___

# reduce(lo, hi, mid, tmp): the Karatsuba fix-up and the two-phase
# reduction of hi:lo (+ mid<<64). The result is left in `hi`; lo, mid and
# tmp are clobbered.
sub reduce {
    my ($lo, $hi, $mid, $t) = @_;
    return <<___;
    pxor      $mid, $lo                 # mid = (a0^a1)(b0^b1) ^ lo ^ hi
    pxor      $mid, $hi
    movdqa    $t, $mid
    psrldq    $mid, 8
    pslldq    $t, 8
    pxor      $hi, $mid                 # hi:lo is now the 256-bit product
    pxor      $lo, $t
    movdqa    $t, $lo                   # phase 1: clear the lowest limb
    pclmulqdq $t, [.Lpoly], 0x10        #   t0 * 0xC2<<56
    pshufd    $lo, $lo, 0x4e            #   swap64
    pxor      $lo, $t
    movdqa    $t, $lo                   # phase 2: clear the next limb
    pclmulqdq $t, [.Lpoly], 0x10
    pshufd    $lo, $lo, 0x4e
    pxor      $lo, $t
    pxor      $hi, $lo                  # result = high half ^ folded low half
___
}

# block(first, data, hmem, kmem, t0, t1, t2, lo, hi, mid): one block's
# Karatsuba products with the power of H at `hmem` (and its half-sum at
# `kmem`), accumulated into lo/hi/mid. The first block of a group also
# absorbs Y and starts the accumulators.
sub block {
    my ($first, $data, $hmem, $kmem, $t0, $t1, $t2, $lo, $hi, $mid) = @_;
    my $s = <<___;
    movdqu    $t0, $data
    pshufb    $t0, xmm10
___
    $s .= "    pxor      $t0, xmm0                 # Y ^ first block\n" if $first;
    $s .= <<___;
    pshufd    $t1, $t0, 0x4e
    pxor      $t1, $t0                  # low half: a0 ^ a1
    movdqa    $t2, $t0
    pclmulqdq $t0, $hmem, 0x00          # a0 * h0
    pclmulqdq $t2, $hmem, 0x11          # a1 * h1
    pclmulqdq $t1, $kmem, 0x00          # (a0^a1) * (h0^h1)
___
    if ($first) {
        $s .= <<___;
    movdqa    $lo, $t0
    movdqa    $hi, $t2
    movdqa    $mid, $t1
___
    } else {
        $s .= <<___;
    pxor      $lo, $t0
    pxor      $hi, $t2
    pxor      $mid, $t1
___
    }
    return $s;
}

# init: H' = H*x^-1, then H'^2..H'^8 and the Karatsuba half-sums.
$code .= <<___;

.text
.function ghash_x86_64_clmul_init args=2 public=rdi,rsi,rcx,rax   # (struct ghash_key *key, const uint8_t H[16])
    movdqu    xmm0, [rsi]
    pshufb    xmm0, [.Lbswap_mask]      # H, reflected
    pshufd    xmm1, xmm0, 0xff
    psrad     xmm1, 31                  # all ones iff bit 127 (x^0 of H) is set
    pand      xmm1, [.Lpoly]
    movdqa    xmm2, xmm0
    psllq     xmm0, 1                   # 128-bit shift left by one:
    psrlq     xmm2, 63                  #   bit 63 carries into bit 64,
    pslldq    xmm2, 8                   #   bit 127 leaves
    por       xmm0, xmm2
    pxor      xmm0, xmm1                # H' = H * x^-1 mod P
    movdqa    xmm4, xmm0
    pshufd    xmm5, xmm0, 0x4e
    pxor      xmm5, xmm0                # both halves: h0 ^ h1
    movdqa    [rdi], xmm4
    movdqa    [rdi + 128], xmm5
    mov       rax, rdi
    mov       ecx, 7
.Linit_loop:                            # xmm0 = xmm0 * H', seven times
    pshufd    xmm3, xmm0, 0x4e
    pxor      xmm3, xmm0
    movdqa    xmm2, xmm0
    pclmulqdq xmm0, xmm4, 0x00
    pclmulqdq xmm2, xmm4, 0x11
    pclmulqdq xmm3, xmm5, 0x00
@{[ reduce('xmm0', 'xmm2', 'xmm3', 'xmm6') ]}
    movdqa    xmm0, xmm2
    pshufd    xmm1, xmm0, 0x4e
    pxor      xmm1, xmm0
    add       rax, 16
    movdqa    [rax], xmm0               # H'^i
    movdqa    [rax + 128], xmm1
    dec       ecx
    jnz       .Linit_loop
.endfunction
___

# blocks: Xi = (...((Xi ^ X1) H ^ X2) H ...) H over `blocks` blocks.
my ($Xi, $key, $in, $blocks) = qw(rdi rsi rdx rcx);
my @T = (['xmm4', 'xmm5', 'xmm6'], ['xmm7', 'xmm8', 'xmm9']);

my $eight = '';
for my $j (0 .. 7) {
    my $p = 8 - $j;    # block j is multiplied by H^(8-j)
    $eight .= block($j == 0, "[$in + " . 16 * $j . "]",
                    "[$key + " . 16 * ($p - 1) . "]",
                    "[$key + " . (128 + 16 * ($p - 1)) . "]",
                    @{ $T[$j % 2] }, 'xmm1', 'xmm2', 'xmm3');
}

$code .= <<___;

.function ghash_x86_64_clmul_blocks args=4 public=rdi,rsi,rdx,rcx,r8,rax   # (uint8_t Xi[16], const struct ghash_key *key, const uint8_t *in, size_t blocks)
    movdqa    xmm10, [.Lbswap_mask]
    movdqu    xmm0, [$Xi]
    pshufb    xmm0, xmm10               # Y, reflected
    cmp       $blocks, 8
    jb        .Lblocks_tail
.Lblocks_loop8:
$eight
@{[ reduce('xmm1', 'xmm2', 'xmm3', 'xmm4') ]}
    movdqa    xmm0, xmm2
    add       $in, 128
    sub       $blocks, 8
    cmp       $blocks, 8
    jae       .Lblocks_loop8
.Lblocks_tail:
    test      $blocks, $blocks
    jz        .Lblocks_done
    mov       rax, $blocks              # 1..7 blocks: powers H^n .. H^1
    shl       rax, 4
    lea       r8, [$key + rax - 16]
@{[ block(1, "[$in]", '[r8]', '[r8 + 128]', @{ $T[0] }, 'xmm1', 'xmm2', 'xmm3') ]}
    add       $in, 16
    sub       r8, 16
    dec       $blocks
    jz        .Lblocks_tail_reduce
.Lblocks_tail_loop:
@{[ block(0, "[$in]", '[r8]', '[r8 + 128]', @{ $T[1] }, 'xmm1', 'xmm2', 'xmm3') ]}
    add       $in, 16
    sub       r8, 16
    dec       $blocks
    jnz       .Lblocks_tail_loop
.Lblocks_tail_reduce:
@{[ reduce('xmm1', 'xmm2', 'xmm3', 'xmm4') ]}
    movdqa    xmm0, xmm2
.Lblocks_done:
    pshufb    xmm0, xmm10
    movdqu    [$Xi], xmm0
.endfunction
___

perlasm::driver::finish('x86_64', $code);
