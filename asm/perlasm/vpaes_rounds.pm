# asm/perlasm/vpaes_rounds.pm: the round bodies of the vector-permute AES
# kernels (asm/x86_64/aes-vpaes-x86_64.pl, asm/x86/aes-vpaes-x86.pl): the
# change to the tower basis, the GF(16) inversion (with five registers, or
# four and two stack slots), a middle round, the last round, the SubWord
# S-box of the key schedule, and the line-by-line interleaving of several
# blocks' streams. The tables they read are perlasm/vpaes_tables.pm's; the
# algorithm is explained in the x86_64 kernel's opening comment.
#
# The kernels differ in the registers and operands the bodies use, which a
# configuration hash passed to new() names:
#   consts   the three xmm registers holding .Lnib, .Linv and .Lcdiv for
#            "wide" blocks
#   rkey     the operand of the current round key (e.g. [rdi + rax])
#   r1 r3 sr the operands, with their trailing padding, of the round's
#            masks R_1, R_3 and SR^(Nr mod 4) (e.g. "[r11 + r10]         ")
#   ax mreg  encrypt_core's round counter (eax, by its pointer-width name)
#            and the register of the mask offset
# A block is a hash:
#   r     its registers; r->[0] holds the state
#   wide  1: five registers, the constants in `consts`;
#         0: four registers and two 16-byte stack slots `spill`, the
#            constants read from memory
package perlasm::vpaes_rounds;

use strict;
use warnings;

sub new {
    my ($class, %cfg) = @_;
    return bless {%cfg}, $class;
}

sub consts {
    my ($self, $blk) = @_;
    return $blk->{wide} ? @{ $self->{consts} }
                        : ('[.Lnib]', '[.Linv]', '[.Lcdiv]');
}

# A GF(2)-linear map of each byte of a in place, by two lookups: the
# table `lo` at the low nibble XOR the table `hi` at the high one (b, c
# temporaries; nib the low-nibble mask).
sub nibble_map {
    my ($a, $b, $c, $nib, $lo, $hi) = @_;
    return (
        "movdqa  $b, $a",
        "psrld   $b, 4",
        "pand    $a, $nib",
        "pand    $b, $nib",
        "movdqa  $c, [$lo]",
        "pshufb  $c, $a",
        "movdqa  $a, [$hi]",
        "pshufb  $a, $b",
        "pxor    $a, $c",
    );
}

# phi of a byte vector (ordinary basis in, tower basis out), in r0.
sub to_tower {
    my ($self, $blk) = @_;
    my ($a, $b, $c) = @{ $blk->{r} };
    my ($nib) = $self->consts($blk);
    return nibble_map($a, $b, $c, $nib, '.Lin_lo', '.Lin_hi');
}

# The GF(16) inversion of the state in r0. Returns the lines and the
# registers left holding io and jo.
sub inversion {
    my ($self, $blk) = @_;
    my ($nib, $inv, $cdiv) = $self->consts($blk);
    my @split = (
        "psrld   REG_B, 4",
        "pand    REG_A, $nib               # k",
        "pand    REG_B, $nib               # i",
    );
    # The first steps are the same in both forms: the nibbles, c/k, j, 1/i.
    my ($a, $b, $c, $d, $e) = @{ $blk->{r} };
    my @head = ("movdqa  $b, $a", @split,
        "movdqa  $c, $cdiv",
        "pshufb  $c, $a                  # c/k",
        "pxor    $a, $b                  # j = i ^ k",
        "movdqa  $d, $inv",
        "pshufb  $d, $b                  # 1/i",
    );
    if ($blk->{wide}) {
        my @l = (@head,
            "pxor    $d, $c                  # iak = 1/i + c/k",
            "movdqa  $e, $inv",
            "pshufb  $e, $a                  # 1/j",
            "pxor    $c, $e                  # jak = 1/j + c/k",
            "movdqa  $e, $inv",
            "pshufb  $e, $d                  # 1/iak",
            "pxor    $e, $a                  # io = 1/iak + j",
            "movdqa  $d, $inv",
            "pshufb  $d, $c                  # 1/jak",
            "pxor    $d, $b                  # jo = 1/jak + i",
        );
        s/REG_A/$a/, s/REG_B/$b/ for @l;
        return (\@l, $e, $d);
    }
    # Four registers: c/k and j wait in the block's stack slots.
    my ($sk, $sj) = @{ $blk->{spill} };
    my @l = (@head,
        "movdqa  $sk, $c",
        "pxor    $d, $c                  # iak = 1/i + c/k",
        "movdqa  $c, $inv",
        "pshufb  $c, $a                  # 1/j",
        "movdqa  $sj, $a",
        "pxor    $c, $sk                 # jak = 1/j + c/k",
        "movdqa  $a, $inv",
        "pshufb  $a, $d                  # 1/iak",
        "pxor    $a, $sj                 # io = 1/iak + j",
        "movdqa  $d, $inv",
        "pshufb  $d, $c                  # 1/jak",
        "pxor    $d, $b                  # jo = 1/jak + i",
    );
    s/REG_A/$a/, s/REG_B/$b/ for @l;
    return (\@l, $a, $d);
}

# A middle round: SubBytes, MixColumns in frame m (masks r1, r3), round
# key rkey. The state ends in r0 again.
sub middle_round {
    my ($self, $blk) = @_;
    my ($inv, $io, $jo) = $self->inversion($blk);
    my ($a) = @{ $blk->{r} };
    my ($r1, $r3, $key) = @$self{qw(r1 r3 rkey)};
    # Two registers besides io and jo; with four, one of them is io's.
    my ($x, $y) = grep { $_ ne $io && $_ ne $jo } @{ $blk->{r} }[ 1 .. $#{ $blk->{r} } ];
    my @l = (@$inv,
        "movdqa  $x, [.Ls1u]",
        "pshufb  $x, $io",
        "movdqa  $y, [.Ls1v]",
        "pshufb  $y, $jo",
        "pxor    $x, $y                  # A = S-box output (no 0x63)",
        "movdqa  $y, [.Ls2u]",
        "pshufb  $y, $io",
        # io is dead: 2A goes to the state register (io's, or a free one).
        "movdqa  $a, [.Ls2v]",
        "pshufb  $a, $jo",
        "pxor    $a, $y                  # 2A",
        "movdqa  $y, $x",
        "pshufb  $y, ${r1}# R_1 A",
        "pxor    $a, $y                  # D = 2A ^ R_1 A",
        "pshufb  $x, ${r3}# R_3 A",
        "pxor    $x, $key",
        "pxor    $x, $a                  # D ^ R_3 A ^ key",
        "pshufb  $a, ${r1}# R_1 D",
        "pxor    $a, $x",
    );
    return @l;
}

# The last round: S-box to the ordinary basis, key, SR^Nr; ends in r0.
sub last_round {
    my ($self, $blk) = @_;
    my ($inv, $io, $jo) = $self->inversion($blk);
    my ($a) = @{ $blk->{r} };
    my ($x) = grep { $_ ne $io && $_ ne $jo && $_ ne $a } @{ $blk->{r} };
    return (@$inv,
        "movdqa  $x, [.Lsou]",
        "pshufb  $x, $io",
        "movdqa  $a, [.Lsov]",
        "pshufb  $a, $jo",
        "pxor    $a, $x",
        "pxor    $a, $self->{rkey}",
        "pshufb  $a, $self->{sr}# SR^(Nr mod 4)",
    );
}

# Interleaves the streams of several blocks.
sub zip {
    my @streams = @_;
    my $out = '';
    my $n = 0;
    $n = @$_ > $n ? @$_ : $n for @streams;
    for my $i (0 .. $n - 1) {
        for my $s (@streams) { $out .= "    $s->[$i]\n" if $i < @$s }
    }
    return $out;
}

# The S-box for SubWord: ordinary basis in and out, on r0 of a wide block
# whose registers are xmm0-xmm4 (xmm1-xmm4 used).
sub subword {
    my ($self, $blk) = @_;
    my ($sw_inv, $sw_io, $sw_jo) = $self->inversion($blk);
    return zip([ $self->to_tower($blk), @$sw_inv ]) . <<___;
    movdqa  xmm0, [.Lsou]
    pshufb  xmm0, $sw_io
    movdqa  xmm1, [.Lsov]
    pshufb  xmm1, $sw_jo
    pxor    xmm0, xmm1
___
}

# The whole-register key expansion's two steps (the x86_64 kernel's
# opening comment, "Key expansion"), on the one-block registers $blk
# (xmm0-4, wide).
#   ks_next(blk, prev, base, pick, const, acc, tmp): base = smear(base) ^
#     const ^ pick(S(prev)) in the tower basis. S runs on xmm0 (loaded from
#     prev); the smear runs in acc (base itself, or a register base is
#     loaded into and stored back from) with tmp; prev may be base.
#   ks_store(key, last, t, ptr, mask): round key r (tower basis, in `key`)
#     stored at [ptr] as SR^-r(phi(K ^ 0x63)), or for the last as
#     SR^-r(K ^ 0x63) (phi^-1 by two lookups); `mask` the operand of
#     SR^-r (.Lmasks + edx + 48, edx = 64 * (r mod 4)); ptr and edx move
#     on to round r + 1. t: three temporaries and the operands of
#     phi(0x63) and of the low-nibble mask.
sub ks_next {
    my ($self, $blk, $prev, $base, $pick, $const, $acc, $tmp) = @_;
    my ($inv, $io, $jo) = $self->inversion($blk);
    my ($x, $y) = grep { $_ ne $io && $_ ne $jo } @{ $blk->{r} }[ 1 .. 4 ];
    my $s = "    movdqa  $blk->{r}[0], $prev\n" . join('', map { "    $_\n" } @$inv);
    $s .= "    movdqa  $acc, $base\n" if $acc ne $base;
    $s .= <<___;
    movdqa  $tmp, $acc
    pslldq  $tmp, 4
    pxor    $acc, $tmp
    movdqa  $tmp, $acc
    pslldq  $tmp, 8
    pxor    $acc, $tmp
    pxor    $acc, $const
    movdqa  $x, [.Ls1u]
    pshufb  $x, $io
    movdqa  $y, [.Ls1v]
    pshufb  $y, $jo
    pxor    $x, $y                  # phi(L(1/y))
    pshufb  $x, $pick
    pxor    $acc, $x
___
    $s .= "    movdqa  $base, $acc\n" if $acc ne $base;
    return $s;
}
sub ks_store {
    my ($self, $key, $last, $t, $ptr, $mask) = @_;
    my ($a, $b, $c, $t63, $nib) = @$t;
    my $s = "    movdqa  $a, $key\n";
    if ($last) {    # phi^-1, then 0x63
        $s .= join('', map { "    $_\n" }
                   nibble_map($a, $b, $c, $nib, '.Lks_out_lo', '.Lks_out_hi'),
                   "pxor    $a, [.Lk63]");
    } else {
        $s .= "    pxor    $a, $t63\n";
    }
    return $s . <<___;
    pshufb  $a, $mask
    movdqa  [$ptr], $a
    add     $ptr, 16
    add     edx, 64
    and     edx, 255
___
}

# load_constants(): the wide blocks' constants into their registers.
sub load_constants {
    my ($self) = @_;
    my ($nib, $inv, $cdiv) = @{ $self->{consts} };
    return <<___;
    movdqa  $nib, [.Lnib]
    movdqa  $inv, [.Linv]
    movdqa  $cdiv, [.Lcdiv]
___
}

# encrypt_core(cmp, blocks): the rounds for the given blocks; each state
# holds input ^ K_0 in the ordinary basis and ends as the cipher output.
# The round counter is eax (its pointer-width name `ax` in the
# configuration), the mask offset 64 * (round mod 4) is `mreg`; `cmp` is
# the line that compares the counter with 16 * Nr.
my $core_id = 0;
sub encrypt_core {
    my ($self, $cmp, @blocks) = @_;
    my ($ax, $m) = @$self{qw(ax mreg)};
    my $id = $core_id++;
    my $s = zip(map { [ $self->to_tower($_) ] } @blocks);
    $s .= <<___;
    mov     eax, 16
    mov     $m, 64
.Lrounds_$id:
___
    $s .= zip(map { [ $self->middle_round($_) ] } @blocks);
    $s .= <<___;
    add     $ax, 16
    add     $m, 64
    and     $m, 255
$cmp    jb      .Lrounds_$id
___
    $s .= zip(map { [ $self->last_round($_) ] } @blocks);
    return $s;
}

# clear(regs): PXOR each register with itself.
sub clear { return join '', map { "    pxor    $_, $_\n" } @_ }

1;
