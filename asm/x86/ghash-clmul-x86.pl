#!/usr/bin/env perl
# asm/x86/ghash-clmul-x86.pl: GHASH with PCLMULQDQ for 32-bit x86, the
# kernel behind the "clmul" descriptor in crypto/ghash/ghash_clmul.c.
#
# Usage: perl ghash-clmul-x86.pl FLAVOUR [OUTPUT]  (see asm/perlasm, x86.pm).
#
# Algorithm
# =========
# The same as asm/x86_64/ghash-clmul-x86_64.pl, whose opening comment
# derives it; in short: blocks are byte-reversed with PSHUFB into GCM's
# reflected form; a 128x128 carry-less product takes three PCLMULQDQ
# (Karatsuba: lo = a0*b0, hi = a1*b1, mid = (a0^a1)*(b0^b1) ^ lo ^ hi);
# init stores H' = H * x^-1 mod P (a shift left by one and a masked XOR of
# 0xC2000000_00000000_00000000_00000001) so that the integer product of the
# reflected values needs no shift; the 256-bit product is reduced modulo
# P = x^128 + x^7 + x^2 + x + 1 in two Montgomery-style phases, each
#     low128 = swap64(low128) ^ clmul(lowest limb, 0xC2 << 56)
# and the result is high128 ^ low128.
#
# Aggregation with eight xmm registers. The bulk loop still hashes EIGHT
# blocks per reduction,
#     Y' = (Y ^ X1)*H^8 ^ X2*H^7 ^ ... ^ X8*H,
# summing the unreduced lo, hi and mid parts: only the running hash (xmm0),
# the three accumulators (xmm1-xmm3), one block's three product
# temporaries (xmm4-xmm6) and the byte-reversal mask (xmm7) are live, and
# the powers of H are memory operands of PCLMULQDQ. (The x86_64 kernel
# alternates two temporary sets; here out-of-order renaming does that.)
# A tail of 1..7 blocks is aggregated the same way with H^n .. H^1.
#
# Key layout: identical to the x86_64 kernel's (struct ghash_key, 64-byte
# aligned, 256 of 1024 bytes used), so one descriptor file serves both:
#     [16*(i-1)]         H'^i in reflected form, i = 1..8
#     [128 + 16*(i-1)]   both halves = high ^ low half of H'^i (Karatsuba)
#
# Register plan (cdecl; perlasm/x86.pm loads the arguments in the order
# edi, esi, edx, ecx; constants through the pic= register)
# =====================================================================
#   ghash_x86_clmul_blocks(Xi = edi, key = esi, in = edx, blocks = ecx)
#     xmm0 Y (reflected), xmm1 xmm2 xmm3 lo, hi, mid accumulators,
#     xmm4-xmm6 one block's temporaries, xmm7 byte-reversal mask;
#     eax, ebp tail: byte offset and address of the highest power used;
#     pic ebx
#   ghash_x86_clmul_init(key = edi, H = esi)
#     xmm0 current power, xmm1-xmm3 product parts, xmm4 H'^1, xmm5 its
#     Karatsuba half-sum, xmm6 reduction temporary; ecx loop count, eax
#     store address; pic ebx
# No stack frame: any caller alignment works (cdecl promises 4 bytes).
#
# Secrets and constant time
# =========================
# Secret: H and its powers (key material), Y, and the data. They only flow
# through PCLMULQDQ, PXOR/PAND/POR, PSHUFB with a constant mask,
# PSHUFD/PSLLDQ/PSRLDQ with constant immediates and shifts by constants;
# PCLMULQDQ's latency does not depend on its operands. Branches depend only
# on the block count, addresses only on the pointers and the block count
# (the tail's first power of H follows from the number of blocks left,
# which is public). The reduction of H*x^-1 at init uses a mask made by an
# arithmetic shift, not a branch. The secret-register check in perlasm
# verifies that no other register reaches an address or a branch.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

my $code = '';

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

# block(first, data, hmem, kmem): one block's Karatsuba products with the
# power of H at `hmem` (its half-sum at `kmem`), accumulated into
# xmm1 (lo), xmm2 (hi), xmm3 (mid). The first block of a group also absorbs
# Y and starts the accumulators.
sub block {
    my ($first, $data, $hmem, $kmem) = @_;
    my ($t0, $t1, $t2, $lo, $hi, $mid) = map { "xmm$_" } 4, 5, 6, 1, 2, 3;
    my $s = <<___;
    movdqu    $t0, $data
    pshufb    $t0, xmm7
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
.function ghash_x86_clmul_init args=2 pic=ebx public=edi,esi,ecx,eax,ebx   # (struct ghash_key *key, const uint8_t H[16])
    movdqu    xmm0, [esi]
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
    movdqa    [edi], xmm4
    movdqa    [edi + 128], xmm5
    mov       eax, edi
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
    add       eax, 16
    movdqa    [eax], xmm0               # H'^i
    movdqa    [eax + 128], xmm1
    dec       ecx
    jnz       .Linit_loop
@{[ join '', map { "    pxor      xmm$_, xmm$_\n" } 0 .. 6 ]}
.endfunction
___

# blocks: Xi = (...((Xi ^ X1) H ^ X2) H ...) H over `blocks` blocks.
my ($Xi, $key, $in, $blocks) = qw(edi esi edx ecx);

my $eight = '';
for my $j (0 .. 7) {
    my $p = 8 - $j;    # block j is multiplied by H^(8-j)
    $eight .= block($j == 0, "[$in + " . 16 * $j . "]",
                    "[$key + " . 16 * ($p - 1) . "]",
                    "[$key + " . (128 + 16 * ($p - 1)) . "]");
}

$code .= <<___;

.function ghash_x86_clmul_blocks args=4 pic=ebx public=edi,esi,edx,ecx,ebp,eax,ebx   # (uint8_t Xi[16], const struct ghash_key *key, const uint8_t *in, size_t blocks)
    movdqa    xmm7, [.Lbswap_mask]
    movdqu    xmm0, [$Xi]
    pshufb    xmm0, xmm7                # Y, reflected
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
    mov       eax, $blocks              # 1..7 blocks: powers H^n .. H^1
    shl       eax, 4
    lea       ebp, [$key + eax - 16]
@{[ block(1, "[$in]", '[ebp]', '[ebp + 128]') ]}
    add       $in, 16
    sub       ebp, 16
    dec       $blocks
    jz        .Lblocks_tail_reduce
.Lblocks_tail_loop:
@{[ block(0, "[$in]", '[ebp]', '[ebp + 128]') ]}
    add       $in, 16
    sub       ebp, 16
    dec       $blocks
    jnz       .Lblocks_tail_loop
.Lblocks_tail_reduce:
@{[ reduce('xmm1', 'xmm2', 'xmm3', 'xmm4') ]}
    movdqa    xmm0, xmm2
.Lblocks_done:
    pshufb    xmm0, xmm7
    movdqu    [$Xi], xmm0
@{[ join '', map { "    pxor      xmm$_, xmm$_\n" } 0 .. 6 ]}
.endfunction
___

perlasm::driver::finish('x86', $code);
