# asm/perlasm/vpclmul_avx2_powers.pm: the powers H'^1 .. H'^n (n = 4, 8
# or 16) of the vpclmul_avx2 GHASH key (its layout: asm/x86_64/
# ghash-vpclmul-avx2-x86_64.pl), made from H' in xmm0, for the two
# functions that make them per message: that kernel's init_for (from the
# GHASH key H) and AES-GCM-SIV's siv_keys_hash (asm/x86_64/
# aes-gcm-vaes-avx2-x86_64.pl, from K_auth, which is H' itself).
#
# Four rounds of multiplies, two powers per ymm register (one per lane):
#     H'^2 = H'^2 (a square)
#     (H'^3, H'^4)   = (H', H'^2) * (H'^2, H'^2)
#     (H'^6, H'^8)   = (H'^3, H'^4)^2,  (H'^5, H'^7) = (H', H'^3) * H'^4
#     (H'^10, H'^12) = (H'^5, H'^6)^2,  (H'^14, H'^16) = (H'^7, H'^8)^2,
#     (H'^9, H'^11)  = (H', H'^3) * H'^8, (H'^13, H'^15) = (H'^5, H'^7) * H'^8
# VPCLMULQDQ bounds this code as it bounds the hash that follows it (on
# Zen 5 one issues every two cycles, a ymm one doing two lanes' work in
# that time), so each product takes as few as it can: a square has no
# middle term (a0*a1 ^ a1*a0 = 0: two multiplies), any other product is
# Karatsuba (three, the middle from the half sums h0 ^ h1), and each
# register's two lanes are reduced together (two more): 36 multiplies for
# sixteen powers where schoolbook products took 48. The lanes are then
# paired as the key stores them (VPERM2I128) and each power stored to its
# entry (16 * (16 - k) for H'^k; no half sums). The field, the product
# (a*b*x^-128, the Montgomery reduction by 0xC2 << 56) and so the powers
# are those of the kernel's init.
#
# Constant time: carry-less multiplies, XORs and constant shuffles on the
# secret powers; the one branch and the stores depend on n (public).
package perlasm::vpclmul_avx2_powers;

use strict;
use warnings;

# reduce_lanes(dst, lo, mid, t): dst = hi:mid:lo reduced in both lanes
# (dst holds hi); lo, mid and t are clobbered. mid undef: a square's.
sub reduce_lanes {
    my ($dst, $lo, $mid, $t) = @_;
    my $s = "    vpclmulqdq $t, $lo, ymm15, 0x10            # phase 1: lo.q0 * 0xC2<<56\n";
    if (defined $mid) {
        $s .= "    vpshufd    $lo, $lo, 0x4e\n";
        $s .= "    vpxor      $mid, $mid, $lo\n";
        $s .= "    vpxor      $mid, $mid, $t\n";
    } else {
        $mid = $lo;
        $s .= "    vpshufd    $mid, $lo, 0x4e\n";
        $s .= "    vpxor      $mid, $mid, $t\n";
    }
    return $s . <<___;
    vpclmulqdq $t, $mid, ymm15, 0x10          # phase 2: mid.q0 * 0xC2<<56
    vpshufd    $mid, $mid, 0x4e
    vpxor      $dst, $dst, $mid
    vpxor      $dst, $dst, $t
___
}

# kmul(dst, a, b, ka, kb, t, u, v): dst = a*b per lane, Karatsuba, from
# the half sums ka, kb (half_lanes); all distinct; t, u, v clobbered.
sub kmul {
    my ($dst, $a, $b, $ka, $kb, $t, $u, $v) = @_;
    return <<___ . reduce_lanes($dst, $t, $u, $v);
    vpclmulqdq $t, $a, $b, 0x00               # lo
    vpclmulqdq $dst, $a, $b, 0x11             # hi
    vpclmulqdq $u, $ka, $kb, 0x00             # (a0^a1)*(b0^b1)
    vpxor      $u, $u, $t
    vpxor      $u, $u, $dst                   # mid
___
}

# square(dst, a, t, v): dst = a*a per lane; t, v clobbered.
sub square {
    my ($dst, $a, $t, $v) = @_;
    return <<___ . reduce_lanes($dst, $t, undef, $v);
    vpclmulqdq $t, $a, $a, 0x00               # lo
    vpclmulqdq $dst, $a, $a, 0x11             # hi; no middle term
___
}

# half_lanes(k, a): k = h0 ^ h1 of each lane of a, in both qwords.
sub half_lanes {
    my ($k, $a) = @_;
    return <<___;
    vpshufd    $k, $a, 0x4e
    vpxor      $k, $k, $a
___
}

# store_pair(key, reg, a): reg holds (H'^a, H'^(a+1)); each to its entry
# (16 - a and 15 - a).
sub store_pair {
    my ($key, $r, $a) = @_;
    (my $x = $r) =~ s/^ymm/xmm/;
    my ($e0, $e1) = (16 * (16 - $a), 16 * (15 - $a));
    return <<___;
    vmovdqu    [$key + $e0], $x
    vextracti128 [$key + $e1], $r, 1
___
}

# powers(key, max, done, poly): H'^1 .. H'^n from H' in xmm0 (upper lane
# zero) into the key at register `key`, n = 4, 8 or 16 as the count in
# register `max` needs (at most 4, 8, or more); jumps to label `done`
# when fewer than sixteen are stored. `poly` is the memory operand of the
# 16-byte reduction constant (1, 0xC2 << 56). Uses ymm0-ymm15.
sub powers {
    my ($key, $max, $done, $poly) = @_;
    return powers_head($key, $poly) . powers_tail($key, $max, $done);
}

# powers_head(key, poly): H'^1 .. H'^4 (straight-line code, no branch;
# uses ymm0-ymm7, ymm13-ymm15). powers_tail(key, max, done): the rest.
sub powers_head {
    my ($key, $poly) = @_;
    return <<___;
    vbroadcasti128 ymm15, $poly
@{[ square('ymm1', 'ymm0', 'ymm2', 'ymm3') ]}    vinserti128 ymm5, ymm0, xmm1, 1        # (H', H'^2)
    vinserti128 ymm6, ymm1, xmm1, 1        # (H'^2, H'^2)
@{[ half_lanes('ymm13', 'ymm5') ]}@{[ half_lanes('ymm14', 'ymm6') ]}@{[ kmul('ymm7', 'ymm5', 'ymm6', 'ymm13', 'ymm14', 'ymm2', 'ymm3', 'ymm4') ]}@{[ store_pair($key, 'ymm5', 1) ]}@{[ store_pair($key, 'ymm7', 3) ]}
___
}

sub powers_tail {
    my ($key, $max, $done) = @_;
    return <<___;
    cmp        $max, 4
    jbe        $done
    vperm2i128 ymm9, ymm5, ymm7, 0x20      # (H', H'^3)
    vpermq     ymm6, ymm7, 0xee             # (H'^4, H'^4)
@{[ half_lanes('ymm13', 'ymm9') ]}@{[ half_lanes('ymm14', 'ymm6') ]}@{[ kmul('ymm10', 'ymm9', 'ymm6', 'ymm13', 'ymm14', 'ymm0', 'ymm1', 'ymm2') ]}@{[ square('ymm8', 'ymm7', 'ymm3', 'ymm4') ]}    vperm2i128 ymm11, ymm10, ymm8, 0x20    # (H'^5, H'^6)
    vperm2i128 ymm12, ymm10, ymm8, 0x31    # (H'^7, H'^8)
@{[ store_pair($key, 'ymm11', 5) ]}@{[ store_pair($key, 'ymm12', 7) ]}    cmp        $max, 8
    jbe        $done
    vpermq     ymm6, ymm12, 0xee            # (H'^8, H'^8)
@{[ half_lanes('ymm14', 'ymm6') ]}@{[ half_lanes('ymm7', 'ymm10') ]}@{[ kmul('ymm0', 'ymm9', 'ymm6', 'ymm13', 'ymm14', 'ymm1', 'ymm2', 'ymm3') ]}@{[ kmul('ymm4', 'ymm10', 'ymm6', 'ymm7', 'ymm14', 'ymm5', 'ymm8', 'ymm13') ]}@{[ square('ymm1', 'ymm11', 'ymm2', 'ymm3') ]}@{[ square('ymm8', 'ymm12', 'ymm2', 'ymm5') ]}    vperm2i128 ymm2, ymm0, ymm1, 0x20      # (H'^9, H'^10)
    vperm2i128 ymm3, ymm0, ymm1, 0x31      # (H'^11, H'^12)
    vperm2i128 ymm5, ymm4, ymm8, 0x20      # (H'^13, H'^14)
    vperm2i128 ymm6, ymm4, ymm8, 0x31      # (H'^15, H'^16)
@{[ store_pair($key, 'ymm2', 9) ]}@{[ store_pair($key, 'ymm3', 11) ]}@{[ store_pair($key, 'ymm5', 13) ]}@{[ store_pair($key, 'ymm6', 15) ]}
___
}

1;
