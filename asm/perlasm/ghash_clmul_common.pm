# asm/perlasm/ghash_clmul_common.pm: the instruction sequences of the
# PCLMULQDQ GHASH kernels, asm/x86_64/ghash-clmul-x86_64.pl and
# asm/x86/ghash-clmul-x86.pl: the constants, the Karatsuba product of one
# block, the two-phase reduction, the init (H' = H * x^-1 and its powers)
# and the eight-block aggregated blocks loop.
#
# The mathematics is derived in the x86_64 kernel's opening comment. The
# kernels differ only in register names (pointer width, which xmm registers
# exist), which the generators take as parameters; the choice of registers
# and the function frames stay in the kernels.
package perlasm::ghash_clmul_common;

use strict;
use warnings;

# rodata(): the byte-reversal mask .Lbswap_mask and the reduction constant
# .Lpoly (x^-1 mod P, reflected).
sub rodata {
    return <<___;
.rodata
.align 16
.Lbswap_mask:
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lpoly:                         # x^-1 mod P, reflected; high qword is 0xC2 << 56
    .quad 0x0000000000000001, 0xc200000000000000
___
}

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

# block(first, data, hmem, kmem, [t0, t1, t2], bswap): one block's
# Karatsuba products with the power of H at `hmem` (and its half-sum at
# `kmem`), accumulated into xmm1 (lo), xmm2 (hi), xmm3 (mid). The first
# block of a group also absorbs Y (xmm0) and starts the accumulators.
# With bswap undef the block is taken as it is (POLYVAL, below).
sub block {
    my ($first, $data, $hmem, $kmem, $tmp, $bswap) = @_;
    my ($t0, $t1, $t2) = @$tmp;
    my ($lo, $hi, $mid) = qw(xmm1 xmm2 xmm3);
    my $s = "    movdqu    $t0, $data\n";
    $s .= "    pshufb    $t0, $bswap\n" if defined $bswap;
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

# init(key, H, ptr): the body of an init function: H' = H*x^-1, then
# H'^2..H'^8 and the Karatsuba half-sums, stored at key. Uses xmm0-xmm6,
# ecx as the loop count and `ptr` as the store address.
# h_prime(H[, vex]): xmm0 = H' = H * x^-1 mod P, reflected, from the 16
# bytes at H; xmm1 and xmm2 are clobbered. With vex, in the VEX encoding
# (three operands), for the kernels that use it (vpclmul_avx2, and the
# AES-GCM-SIV powers of vaes_avx512).
sub h_prime {
    my ($H, $vex) = @_;
    return <<___ unless $vex;
    movdqu    xmm0, [$H]
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
___
    return <<___;
    vmovdqu    xmm0, [$H]
    vpshufb    xmm0, xmm0, [.Lbswap_mask]   # H, reflected
    vpshufd    xmm1, xmm0, 0xff
    vpsrad     xmm1, xmm1, 31               # all ones iff x^0 of H is set
    vpand      xmm1, xmm1, [.Lpoly]
    vpsrlq     xmm2, xmm0, 63
    vpslldq    xmm2, xmm2, 8                # bit 63 carries into bit 64
    vpsllq     xmm0, xmm0, 1
    vpor       xmm0, xmm0, xmm2
    vpxor      xmm0, xmm0, xmm1             # H' = H * x^-1 mod P
___
}

sub init {
    my ($key, $H, $ptr) = @_;
    return h_prime($H) . <<___;
    movdqa    xmm4, xmm0
    pshufd    xmm5, xmm0, 0x4e
    pxor      xmm5, xmm0                # both halves: h0 ^ h1
    movdqa    [$key], xmm4
    movdqa    [$key + 128], xmm5
    mov       $ptr, $key
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
    add       $ptr, 16
    movdqa    [$ptr], xmm0               # H'^i
    movdqa    [$ptr + 128], xmm1
    dec       ecx
    jnz       .Linit_loop
___
}

# blocks(r): the body of a blocks function, Xi = (...((Xi ^ X1) H ^ X2) H
# ...) H over `blocks` blocks, from loading the mask to storing Xi. r names
# the registers: Xi key in blocks (the arguments), off and ptr (the tail's
# byte offset and address of the highest power used), bswap (the xmm
# register for the byte-reversal mask) and T, two sets of three xmm
# temporaries used by alternate blocks (they may be the same set).
#
# With r->{polyval} set, the same body without any byte reversal: POLYVAL
# (RFC 8452) on a key init made from mulX_GHASH(ByteReverse(h)). The
# kernel's reflected form is the byte reversal of a GCM block, which is a
# POLYVAL block as it is (RFC 8452, appendix A; crypto/siv/polyval.c), so
# the blocks and Xi (then S) are loaded and stored unswapped; everything
# else is unchanged. Its labels are .Lpolyval_* instead of .Lblocks_*.
sub blocks {
    my ($r) = @_;
    my ($Xi, $key, $in, $blocks, $off, $ptr, $bswap, $T) =
        @$r{qw(Xi key in blocks off ptr bswap T)};
    my $L = '.Lblocks';
    if ($r->{polyval}) {
        $bswap = undef;
        $L = '.Lpolyval';
    }
    my $eight = '';
    for my $j (0 .. 7) {
        my $p = 8 - $j;    # block j is multiplied by H^(8-j)
        $eight .= block($j == 0, "[$in + " . 16 * $j . "]",
                        "[$key + " . 16 * ($p - 1) . "]",
                        "[$key + " . (128 + 16 * ($p - 1)) . "]",
                        $T->[$j % 2], $bswap);
    }
    my ($load, $store) = ('', '');
    if (defined $bswap) {
        my $pad = ' ' x (5 - length $bswap);
        $load = "    movdqa    $bswap, [.Lbswap_mask]\n" .
                "    movdqu    xmm0, [$Xi]\n" .
                "    pshufb    xmm0, $bswap$pad          # Y, reflected\n";
        $store = "    pshufb    xmm0, $bswap\n";
    } else {
        $load = "    movdqu    xmm0, [$Xi]               # S, as it is\n";
    }
    my $body = <<___;
$load    cmp       $blocks, 8
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
    mov       $off, $blocks              # 1..7 blocks: powers H^n .. H^1
    shl       $off, 4
    lea       $ptr, [$key + $off - 16]
@{[ block(1, "[$in]", "[$ptr]", "[$ptr + 128]", $T->[0], $bswap) ]}
    add       $in, 16
    sub       $ptr, 16
    dec       $blocks
    jz        .Lblocks_tail_reduce
.Lblocks_tail_loop:
@{[ block(0, "[$in]", "[$ptr]", "[$ptr + 128]", $T->[1], $bswap) ]}
    add       $in, 16
    sub       $ptr, 16
    dec       $blocks
    jnz       .Lblocks_tail_loop
.Lblocks_tail_reduce:
@{[ reduce('xmm1', 'xmm2', 'xmm3', 'xmm4') ]}
    movdqa    xmm0, xmm2
.Lblocks_done:
$store    movdqu    [$Xi], xmm0
___
    $body =~ s/\.Lblocks_/$L\_/g;
    return $body;
}

1;
