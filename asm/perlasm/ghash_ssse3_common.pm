# asm/perlasm/ghash_ssse3_common.pm: the instruction sequences of the SSSE3
# (PSHUFB table look-up) GHASH kernels, asm/x86_64/ghash-ssse3-x86_64.pl and
# asm/x86/ghash-ssse3-x86.pl, which differ only in their register file and
# calling convention.
#
# The algorithm (Shoup's 4-bit tables stored transposed, Horner over the 16
# byte rows, one reduction per pair of blocks) is derived in the x86_64
# kernel's opening comment. Each generator takes a hash of register names,
# so that a kernel chooses where values live:
#     key                     the struct ghash_key pointer
#     Xi in blocks            the hash pointer, the data pointer, the count
#     Y alo ahi               the running hash and the 256-bit accumulator
#     hi1 lo1 hi2 lo2         nibbles of the two blocks of a pair
#     t0 t1                   look-up temporaries (t1 may be Y's register:
#                             Y is dead during a product)
#     m0f bswap               the 0x0f mask and the byte-reversal mask, as
#                             registers or memory operands
# The reduction's temporaries are hi1 lo1 hi2 lo2 t0.
package perlasm::ghash_ssse3_common;

use strict;
use warnings;
use perlasm::layout ();

# POLYVAL calls of at most this many blocks hash one block at a time with
# the H rows alone (crypto/ghash/ghash_ssse3.c, where init_for then builds
# no H^2 rows). GHASH calls keep their pairs: GCM's keys are made once.
my $SINGLE_MAX = perlasm::layout::c_define('crypto/ghash/ghash_ssse3.c',
                                           'SSSE3_SINGLE_MAX');

# rodata(): the byte-reversal mask and the nibble mask, .Lbswap_mask and
# .Llow_nibbles (16-byte aligned).
sub rodata {
    return <<___;
.rodata
.align 16
.Lbswap_mask:
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Llow_nibbles:
    .byte 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15
___
}

# nibbles(r, v, hi, lo): split the bytes of v into hi = v >> 4, lo = v & 15
# (per byte). v is clobbered (it becomes hi when v eq hi).
sub nibbles {
    my ($r, $v, $hi, $lo) = @_;
    my $m0f = $r->{m0f};
    my $s = '';
    $s .= "    movdqa    $lo, $v\n";
    $s .= "    psrlw     $v, 4\n";
    $s .= "    pand      $lo, $m0f\n";
    $s .= "    pand      $v, $m0f\n";
    $s .= "    movdqa    $hi, $v\n" if $v ne $hi;
    return $s;
}

# lookups(r, b, [table offset, HI, LO] ...): W_b summed over the given
# (block, table set) pairs, left in t0.
sub lookups {
    my ($r, $b, @sets) = @_;
    my ($key, $t0, $t1) = @$r{qw(key t0 t1)};
    my $s = '';
    my $first = 1;
    for my $set (@sets) {
        my ($off, $hi, $lo) = @$set;
        my $row = $off + 32 * $b;
        if ($first) {
            $s .= "    movdqa    $t0, [$key + $row]\n";
            $s .= "    pshufb    $t0, $hi\n";
            $first = 0;
        } else {
            $s .= "    movdqa    $t1, [$key + $row]\n";
            $s .= "    pshufb    $t1, $hi\n";
            $s .= "    pxor      $t0, $t1\n";
        }
        $s .= "    movdqa    $t1, [$key + " . ($row + 16) . "]\n";
        $s .= "    pshufb    $t1, $lo\n";
        $s .= "    pxor      $t0, $t1\n";
    }
    return $s;
}

# multiply(r, sets): ACC = sum over rows b = 15..0 of (ACC << 8) ^ W_b.
# With a second accumulator (alo2, ahi2 in r; the x86_64 kernel has the
# registers) the rows run as two independent Horner chains, 15..8 into
# ACC and 7..0 into the second, and ACC = (ACC << 64) ^ ACC2 at the end:
# the chain of dependent shifts and xors is half as long, and the
# look-ups of both halves run beside it.
sub horner {
    my ($r, $lo, $hi, $top, $bottom, @sets) = @_;
    my $t0 = $r->{t0};
    my $s = lookups($r, $top, @sets);
    $s .= "    movdqa    $lo, $t0                 # row $top\n";
    $s .= "    pxor      $hi, $hi\n";
    for (my $b = $top - 1; $b >= $bottom; $b--) {
        $s .= lookups($r, $b, @sets);
        $s .= "    palignr   $hi, $lo, 15            # row $b: ACC <<= 8\n";
        $s .= "    pslldq    $lo, 1\n";
        $s .= "    pxor      $lo, $t0\n";
    }
    return $s;
}

sub multiply {
    my ($r, @sets) = @_;
    my ($alo, $ahi, $alo2, $ahi2) = @$r{qw(alo ahi alo2 ahi2)};
    return horner($r, $alo, $ahi, 15, 0, @sets) if !defined $alo2;
    return horner($r, $alo, $ahi, 15, 8, @sets)
         . horner($r, $alo2, $ahi2, 7, 0, @sets) . <<___;
    palignr   $ahi, $alo, 8             # ACC = (ACC << 64) ^ ACC2
    pslldq    $alo, 8
    pxor      $ahi, $ahi2
    pxor      $alo, $alo2
___
}

# reduce(r): Y = ahi ^ alo * (1 + x + x^2 + x^7) mod P (see the x86_64
# kernel's header). Clobbers alo, ahi, hi1, lo1, hi2, lo2 and t0.
sub reduce {
    my ($r) = @_;
    my ($Y, $alo, $ahi) = @$r{qw(Y alo ahi)};
    my ($c, $d, $e, $f, $g) = @$r{qw(hi1 lo1 hi2 lo2 t0)};
    return <<___;
    movdqa    $c, $alo                # C = V<<63 ^ V<<62 ^ V<<57 (lanes)
    movdqa    $d, $alo
    movdqa    $e, $alo
    psllq     $c, 63
    psllq     $d, 62
    psllq     $e, 57
    pxor      $c, $d
    pxor      $c, $e
    movdqa    $d, $c
    pslldq    $d, 8                   # F: what fell past x^127
    psrldq    $c, 8                   # high lane's carries into the low lane
    pxor      $alo, $d                # D = V ^ F
    pxor      $ahi, $c
    movdqa    $e, $alo
    movdqa    $f, $alo
    movdqa    $g, $alo
    psrlq     $e, 1
    psrlq     $f, 2
    psrlq     $g, 7
    pxor      $ahi, $alo
    pxor      $e, $f
    pxor      $ahi, $g
    pxor      $ahi, $e
    movdqa    $Y, $ahi
___
}

# blocks(r, opt): the body of a blocks function, from loading Xi to storing
# it back: pairs of blocks, then an odd last one. Labels .L<p>_single,
# .L<p>_loop2 and .L<p>_done are defined here, <p> the option `prefix`
# (default "ssse3"); the caller emits the count test (to .L<p>_return)
# before and anything else after. Options:
#   prefix        the labels' prefix
#   polyval       1: no byte reversals, of the blocks or of Y (POLYVAL on the
#                 POLYVAL key, ghash.h's polyval_update: RFC 8452, appendix A),
#                 and a call of at most SSSE3_SINGLE_MAX blocks hashes them
#                 one at a time with the H rows alone, so a key whose H^2
#                 rows were never written serves it (ghash_ssse3.c's init_for)
sub blocks {
    my ($r, %opt) = @_;
    my $p = $opt{prefix} // 'ssse3';
    my $upto = $opt{polyval} ? $SINGLE_MAX : 0;
    my ($Xi, $in, $blocks, $Y, $bswap) = @$r{qw(Xi in blocks Y bswap)};
    my ($hi1, $lo1, $hi2, $lo2) = @$r{qw(hi1 lo1 hi2 lo2)};
    my $pair = multiply($r, [512, $hi1, $lo1], [0, $hi2, $lo2]);
    my $single = multiply($r, [0, $hi1, $lo1]);
    my $reduce = reduce($r);
    my $swap = sub { $opt{polyval} ? '' : "    pshufb    $_[0], $bswap\n" };
    my $singles = $upto > 0 ? <<___ : '';
    cmp       $blocks, $upto
    jbe       .L${p}_single
___
    my $again = $upto > 0 ? <<___ : '';
    add       $in, 16
    sub       $blocks, 1
    jnz       .L${p}_single
___
    return <<___;
    movdqu    $Y, [$Xi]
@{[ $swap->($Y) ]}${singles}    cmp       $blocks, 2
    jb        .L${p}_single
.L${p}_loop2:                          # Y = (Y ^ X1) H^2 ^ X2 H
    movdqu    $hi1, [$in]
    movdqu    $hi2, [$in + 16]
@{[ $swap->($hi1) . $swap->($hi2) ]}    pxor      $hi1, $Y
@{[ nibbles($r, $hi1, $hi1, $lo1) ]}
@{[ nibbles($r, $hi2, $hi2, $lo2) ]}
$pair
$reduce
    add       $in, 32
    sub       $blocks, 2
    cmp       $blocks, 2
    jae       .L${p}_loop2
    test      $blocks, $blocks
    jz        .L${p}_done
.L${p}_single:                         # Y = (Y ^ X) H
    movdqu    $hi1, [$in]
@{[ $swap->($hi1) ]}    pxor      $hi1, $Y
@{[ nibbles($r, $hi1, $hi1, $lo1) ]}
$single
$reduce
${again}.L${p}_done:
@{[ $swap->($Y) ]}    movdqu    [$Xi], $Y
___
}

1;
