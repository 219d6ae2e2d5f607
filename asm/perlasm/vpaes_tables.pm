# asm/perlasm/vpaes_tables.pm: the constant tables of the vector-permute
# AES kernels (asm/x86_64/aes-vpaes-x86_64.pl, asm/x86/aes-vpaes-x86.pl),
# shared so that both architectures use one derivation.
#
# Everything here is computed from the field arithmetic described in the
# x86_64 kernel's opening comment (the GF(16) tower, phi, the inversion's
# output tables, the ShiftRows-conjugated MixColumns masks); none is typed
# in. Loading the module runs its own model of the kernels (table lookups
# with PSHUFB's rules included) over all 256 S-box inputs and the FIPS 197
# appendix C vectors for the three key sizes, and dies on a mismatch, so a
# broken table cannot reach a build.
#
# rodata() returns the tables in the translator's dialect, for a kernel's
# .rodata: .Lnib .Linv .Lcdiv .Lin_lo .Lin_hi .Ls1u .Ls1v .Ls2u .Ls2v .Lsou
# .Lsov .Lk63 .Lctr_swap .Lctr_swap_le .Lone .Lrcon, and 64-byte aligned .Lmasks: per
# m = 0..3, four 16-byte masks R_1, R_3 (in frame m), SR^m and SR^-m; then
# the whole-register key expansion's .Lks_rotword .Lks_word3 .Lks_t63
# .Lks_out_lo .Lks_out_hi .Lks_rcon63.
package perlasm::vpaes_tables;

use strict;
use warnings;

# ============================================================================
# Part 1: the tables, derived from the field arithmetic.
# ============================================================================

# GF(2^8) of AES: bytes modulo x^8 + x^4 + x^3 + x + 1.
sub aes_mul {
    my ($a, $b) = @_;
    my $r = 0;
    for (1 .. 8) {
        $r ^= $a if $b & 1;
        $a = ($a << 1) ^ (($a & 0x80) ? 0x11b : 0);
        $b >>= 1;
    }
    return $r;
}

sub aes_inv {    # x^254, so 0 maps to 0
    my ($x) = @_;
    my ($r, $sq, $e) = (1, $x, 254);
    while ($e) {
        $r = aes_mul($r, $sq) if $e & 1;
        $sq = aes_mul($sq, $sq);
        $e >>= 1;
    }
    return $r;
}

# Linear part of the S-box's affine map (FIPS 197 5.1.1): bit n of the
# result is b_n ^ b_(n+4) ^ b_(n+5) ^ b_(n+6) ^ b_(n+7), indices mod 8.
sub aes_lin {
    my ($b) = @_;
    my $r = 0;
    for my $n (0 .. 7) {
        my $bit = 0;
        $bit ^= ($b >> (($n + $_) % 8)) & 1 for (0, 4, 5, 6, 7);
        $r |= $bit << $n;
    }
    return $r;
}

sub aes_sbox { return aes_lin(aes_inv($_[0])) ^ 0x63 }

# GF(16) = GF(2)[x] / (x^4 + x + 1).
sub g16_mul {
    my ($a, $b) = @_;
    my $r = 0;
    for (1 .. 4) {
        $r ^= $a if $b & 1;
        $a = ($a << 1) ^ (($a & 8) ? 0x13 : 0);
        $b >>= 1;
    }
    return $r;
}

sub g16_inv {    # 0 maps to 0
    my ($x) = @_;
    for my $y (1 .. 15) { return $y if g16_mul($x, $y) == 1 }
    return 0;
}

sub g16_trace {    # y + y^2 + y^4 + y^8, 0 or 1
    my ($y) = @_;
    my ($t, $p) = (0, $y);
    for (1 .. 4) { $t ^= $p; $p = g16_mul($p, $p) }
    return $t;
}

# The tower GF(16)[t] / (t^2 + t + 1/c); a byte (i << 4) | k is i*(c*t) + k.
my $C;
for my $c (2 .. 15) {
    if (g16_trace(g16_inv($c)) == 1) { $C = $c; last }
}
my $IC = g16_inv($C);
my $IC2 = g16_mul($IC, $IC);

sub tower_mul {
    my ($x, $y) = @_;
    my ($a, $b) = (g16_mul($C, $x >> 4), $x & 15);    # x = a*t + b
    my ($d, $e) = (g16_mul($C, $y >> 4), $y & 15);    # y = d*t + e
    my $ad = g16_mul($a, $d);
    # (a t + b)(d t + e) with t^2 = t + 1/c
    my $tco = $ad ^ g16_mul($a, $e) ^ g16_mul($b, $d);
    my $one = g16_mul($b, $e) ^ g16_mul($ad, $IC);
    return (g16_mul($IC, $tco) << 4) | $one;
}

# phi(x^m) = r^m for the first root r of x^8 + x^4 + x^3 + x + 1 in the
# tower; phi is then a field isomorphism, linear on bits.
my @PHI;
for my $r (2 .. 255) {
    my @pow = (1);
    push @pow, tower_mul($pow[-1], $r) for 1 .. 8;
    if (($pow[8] ^ $pow[4] ^ $pow[3] ^ $pow[1] ^ $pow[0]) == 0) {
        @PHI = @pow[0 .. 7];
        last;
    }
}
die "no root of the AES polynomial in the tower\n" unless @PHI == 8;

sub linear_map {
    my ($cols, $x) = @_;
    my $r = 0;
    for my $m (0 .. 7) { $r ^= $cols->[$m] if ($x >> $m) & 1 }
    return $r;
}
sub phi { return linear_map(\@PHI, $_[0]) }
my @PHI_INV;
{
    my %back;
    $back{ phi($_) } = $_ for 0 .. 255;
    die "phi is not a bijection\n" unless keys %back == 256;
    @PHI_INV = map { $back{ 1 << $_ } } 0 .. 7;
}
sub phi_inv { return linear_map(\@PHI_INV, $_[0]) }

# PSHUFB on one byte: an index with bit 7 set reads 0.
sub lookup { my ($t, $ix) = @_; return ($ix & 0x80) ? 0 : $t->[$ix & 15] }

my @INV  = map { $_ ? g16_inv($_) : 0x80 } 0 .. 15;              # 1/n
my @CDIV = map { $_ ? g16_mul($C, g16_inv($_)) : 0x80 } 0 .. 15;  # c/n

# The kernel's inversion on one tower byte: returns (io, jo).
sub model_inversion {
    my ($y) = @_;
    my ($i, $k) = ($y >> 4, $y & 15);
    my $j = $i ^ $k;
    my $ak = lookup(\@CDIV, $k);
    my $iak = lookup(\@INV, $i) ^ $ak;
    my $jak = lookup(\@INV, $j) ^ $ak;
    return (lookup(\@INV, $iak) ^ $j, lookup(\@INV, $jak) ^ $i);
}

# Output tables (U, V) with U[io] ^ V[jo] = f(1/y) for a linear f on the
# AES field: 1/y = (p*(1/c + 1/c^2) + q/c^2)*(c*t) + p, p = 1/io, q = 1/jo.
sub output_tables {
    my ($f) = @_;
    my $inv_y = sub {
        my ($p, $q) = @_;
        return phi_inv(((g16_mul($p, $IC ^ $IC2) ^ g16_mul($q, $IC2)) << 4) | $p);
    };
    my @u = map { $f->($inv_y->(g16_inv($_), 0)) } 0 .. 15;
    my @v = map { $f->($inv_y->(0, g16_inv($_))) } 0 .. 15;
    return (\@u, \@v);
}
my ($S1U, $S1V) = output_tables(sub { phi(aes_lin($_[0])) });             # S
my ($S2U, $S2V) = output_tables(sub { phi(aes_mul(2, aes_lin($_[0]))) });  # 2S
my ($SOU, $SOV) = output_tables(sub { aes_lin($_[0]) });    # last round
my @IN_LO = map { phi($_) } 0 .. 15;
my @IN_HI = map { phi($_ << 4) } 0 .. 15;

# Byte permutations as PSHUFB masks: out[n] = in[mask[n]].
sub permute { my ($v, $m) = @_; return [ map { $v->[ $m->[$_] ] } 0 .. 15 ] }
sub then { my ($m1, $m2) = @_; return [ map { $m1->[ $m2->[$_] ] } 0 .. 15 ] }
sub inverse { my ($m) = @_; my @r; $r[ $m->[$_] ] = $_ for 0 .. 15; return \@r }
# Byte 4*col + row. ShiftRows: row r of column c takes row r of column c+r.
my $SR = [ map { my ($r, $c) = ($_ % 4, int($_ / 4)); $r + 4 * (($c + $r) % 4) } 0 .. 15 ];
sub rotate_rows {
    my ($k) = @_;
    return [ map { my ($r, $c) = ($_ % 4, int($_ / 4)); ($r + $k) % 4 + 4 * $c } 0 .. 15 ];
}
# Per m = 0..3: R_1 and R_3 conjugated by SR^m, SR^m itself (output of the
# last round) and SR^-m (storing round keys).
my @MASKS;
{
    my $p = [ 0 .. 15 ];
    for my $m (0 .. 3) {
        my $pi = inverse($p);
        push @MASKS, [ then(then($p, rotate_rows(1)), $pi),
                       then(then($p, rotate_rows(3)), $pi), $p, $pi ];
        $p = then($p, $SR);
    }
}

# Self-check 1: the S-box, all 256 inputs, through the kernel's steps.
for my $x (0 .. 255) {
    my ($io, $jo) = model_inversion(phi($x));
    my $s = lookup($SOU, $io) ^ lookup($SOV, $jo) ^ 0x63;
    die sprintf("S-box model wrong at %02x\n", $x) if $s != aes_sbox($x);
}

# Self-check 2: whole encryptions through a model of the kernel (key
# schedule as stored, the round with its masks, the last round).
sub model_expand_key {
    my @key = @_;
    my $nk = @key / 4;
    my $nr = $nk + 6;
    my @w = map { [ @key[ 4 * $_ .. 4 * $_ + 3 ] ] } 0 .. $nk - 1;
    my $rcon = 1;
    for my $i ($nk .. 4 * ($nr + 1) - 1) {
        my @t = @{ $w[ $i - 1 ] };
        if ($i % $nk == 0) {
            @t = map { aes_sbox($_) } @t[ 1, 2, 3, 0 ];
            $t[0] ^= $rcon;
            $rcon = aes_mul($rcon, 2);
        } elsif ($nk == 8 && $i % $nk == 4) {
            @t = map { aes_sbox($_) } @t;
        }
        push @w, [ map { $w[ $i - $nk ][$_] ^ $t[$_] } 0 .. 3 ];
    }
    my @rk = map { my $r = $_; [ map { @{ $w[ 4 * $r + $_ ] } } 0 .. 3 ] } 0 .. $nr;
    my @stored = ($rk[0]);
    push @stored, permute([ map { phi($_ ^ 0x63) } @{ $rk[$_] } ], $MASKS[ $_ % 4 ][3])
        for 1 .. $nr - 1;
    push @stored, permute([ map { $_ ^ 0x63 } @{ $rk[$nr] } ], $MASKS[ $nr % 4 ][3]);
    return @stored;
}

sub model_encrypt {
    my ($keyhex, $inhex) = @_;
    my @rk = model_expand_key(map { hex } $keyhex =~ /(..)/g);
    my @in = map { hex } $inhex =~ /(..)/g;
    my $nr = $#rk;
    my $y = [ map { phi($in[$_] ^ $rk[0][$_]) } 0 .. 15 ];
    for my $r (1 .. $nr - 1) {
        my ($r1, $r3) = @{ $MASKS[ $r % 4 ] }[ 0, 1 ];
        my (@a, @b);
        for my $n (0 .. 15) {
            my ($io, $jo) = model_inversion($y->[$n]);
            $a[$n] = lookup($S1U, $io) ^ lookup($S1V, $jo);
            $b[$n] = lookup($S2U, $io) ^ lookup($S2V, $jo);
        }
        my $ra = permute(\@a, $r1);
        my @d = map { $b[$_] ^ $ra->[$_] } 0 .. 15;
        my ($rd, $a3) = (permute(\@d, $r1), permute(\@a, $r3));
        $y = [ map { $d[$_] ^ $rd->[$_] ^ $a3->[$_] ^ $rk[$r][$_] } 0 .. 15 ];
    }
    my @t;
    for my $n (0 .. 15) {
        my ($io, $jo) = model_inversion($y->[$n]);
        $t[$n] = lookup($SOU, $io) ^ lookup($SOV, $jo) ^ $rk[$nr][$n];
    }
    return join '', map { sprintf '%02x', $_ } @{ permute(\@t, $MASKS[ $nr % 4 ][2]) };
}

# FIPS 197 appendix C.1, C.2, C.3.
for my $kat (['000102030405060708090a0b0c0d0e0f', '69c4e0d86a7b0430d8cdb78070b4c55a'],
             ['000102030405060708090a0b0c0d0e0f1011121314151617',
              'dda97ca4864cdfe06eaf70a0ec0d7191'],
             ['000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
              '8ea2b7ca516745bfeafc49904b496089']) {
    my $got = model_encrypt($kat->[0], '00112233445566778899aabbccddeeff');
    die "model of the kernel fails FIPS 197 for key $kat->[0]: $got\n"
        if $got ne $kat->[1];
}

sub bytes_line { return '    .byte ' . join(', ', map { sprintf '0x%02x', $_ } @_) . "\n" }

sub rodata {
    my $code = <<___;
.rodata
.align 64
.Lnib:                          # low-nibble mask
@{[ bytes_line((0x0f) x 16) ]}.Linv:                          # 1/n in GF(16), 0x80 for n = 0
@{[ bytes_line(@INV) ]}.Lcdiv:                         # c/n, 0x80 for n = 0
@{[ bytes_line(@CDIV) ]}.Lin_lo:                        # phi(n)
@{[ bytes_line(@IN_LO) ]}.Lin_hi:                        # phi(n << 4)
@{[ bytes_line(@IN_HI) ]}.Ls1u:                          # phi(L(1/y)) = S1U[io] ^ S1V[jo]
@{[ bytes_line(@$S1U) ]}.Ls1v:
@{[ bytes_line(@$S1V) ]}.Ls2u:                          # phi(2 L(1/y)) = S2U[io] ^ S2V[jo]
@{[ bytes_line(@$S2U) ]}.Ls2v:
@{[ bytes_line(@$S2V) ]}.Lsou:                          # L(1/y) = SOU[io] ^ SOV[jo], ordinary basis
@{[ bytes_line(@$SOU) ]}.Lsov:
@{[ bytes_line(@$SOV) ]}.Lk63:                          # the S-box constant
@{[ bytes_line((0x63) x 16) ]}.Lctr_swap:                     # reverses bytes 12..15, keeps 0..11
@{[ bytes_line(0 .. 11, 15, 14, 13, 12) ]}.Lctr_swap_le:                  # exchanges dwords 0 and 3 (ctr32le)
@{[ bytes_line(12 .. 15, 4 .. 11, 0 .. 3) ]}.Lone:                          # 1 in the reversed counter dword
    .long 0, 0, 0, 1
.Lrcon:
@{[ bytes_line(0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36, (0) x 6) ]}
.align 64
.Lmasks:                        # per m = 0..3: R_1, R_3 in frame m, SR^m, SR^-m
___
for my $m (0 .. 3) {
    $code .= bytes_line(@$_) for @{ $MASKS[$m] };
}
    # The whole-register key expansion's masks and constants (tower
    # basis): RotWord of word 3 broadcast, word 3 broadcast, phi(0x63) in
    # every byte, phi^-1 of a low and of a high nibble, and per Rcon value
    # the dwords phi(0x63 ^ Rcon, 0x63, 0x63, 0x63) (FIPS 197's Rcon, one
    # byte a round).
    $code .= ".align 16\n.Lks_rotword:\n" . bytes_line((13, 14, 15, 12) x 4)
           . ".Lks_word3:\n" . bytes_line((12 .. 15) x 4)
           . ".Lks_t63:\n" . bytes_line((phi(0x63)) x 16)
           . ".Lks_out_lo:\n" . bytes_line(map { phi_inv($_) } 0 .. 15)
           . ".Lks_out_hi:\n" . bytes_line(map { phi_inv($_ << 4) } 0 .. 15)
           . ".Lks_rcon63:\n";
    my $rcon = 1;
    for (1 .. 10) {
        $code .= bytes_line((phi(0x63 ^ $rcon), (phi(0x63)) x 3) x 4);
        $rcon = ($rcon << 1) ^ ($rcon & 0x80 ? 0x11b : 0);
    }
    return $code;
}

1;
