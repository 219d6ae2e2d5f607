# asm/perlasm/aesni_common.pm: the instruction sequences of the AES-NI
# kernels, asm/x86_64/aes-ni-x86_64.pl and asm/x86/aes-ni-x86.pl: the
# constants, the key expansion (SubWord(RotWord) by PSHUFB and AESENCLAST,
# the prefix XOR, the AES-128/192/256 schedules), the single-block
# encryption and the counter-mode building blocks (counter blocks, rounds,
# the last round with the data folded in, the tail's stores).
#
# The algorithm and the schedule layout are explained in the x86_64
# kernel's opening comment. The kernels differ in pointer registers, in
# how many blocks are in flight and in which values live in xmm registers
# or memory operands, which the generators take as parameters; the
# function frames and the loop structure of the counter mode stay in the
# kernels.
package perlasm::aesni_common;

use strict;
use warnings;

# rodata(ninc): .Lrcon, the PSHUFB masks .Lrot_word3 .Lbcast_word3
# .Lrot_word1 .Lctr_swap .Lctr_swap_le, and .Linc with the increments
# 0 .. ninc-1.
sub rodata {
    my ($ninc) = @_;
    my @rcon = (0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36);
    my $code = <<___;
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
.Lctr_swap_le:                  # exchanges dwords 0 and 3 (ctr32le)
    .byte 12, 13, 14, 15, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3
.Linc:                          # i in the swapped counter dword, i = 0 .. @{[ $ninc - 1 ]}
___
    $code .= "    .long 0, 0, 0, $_\n" for 0 .. $ninc - 1;
    return $code;
}

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

# set_encrypt_key(s, key, key_len, rounds_offset): the body of a
# set_encrypt_key function: rk[0..Nr] and Nr for a 16-, 24- or 32-byte key
# at `key`, into the schedule at `s`. Uses xmm0-xmm5 and clears xmm1-xmm4
# (xmm0 is zero or the caller's, xmm5 a public mask).
sub set_encrypt_key {
    my ($s, $k, $len, $ROUNDS) = @_;

    my $k128 = '';
    for my $i (1 .. 10) {
        $k128 .= sub_word('xmm2', 'xmm1', 'xmm5', "[.Lrcon + " . 16 * ($i - 1) . "]");
        $k128 .= prefix_xor('xmm1', 'xmm4');
        $k128 .= "    pxor       xmm1, xmm2\n";
        $k128 .= "    movdqa     [$s + " . 16 * $i . "], xmm1     # rk[$i]\n";
    }

    my $k256 = '';
    for my $i (2 .. 14) {
        if ($i % 2 == 0) {
            $k256 .= sub_word('xmm2', 'xmm3', 'xmm5', "[.Lrcon + " . 16 * ($i / 2 - 1) . "]");
            $k256 .= prefix_xor('xmm1', 'xmm4');
            $k256 .= "    pxor       xmm1, xmm2\n";
            $k256 .= "    movdqa     [$s + " . 16 * $i . "], xmm1     # rk[$i]\n";
        } else {
            $k256 .= sub_word('xmm2', 'xmm1', '[.Lbcast_word3]', 'xmm0');
            $k256 .= prefix_xor('xmm3', 'xmm4');
            $k256 .= "    pxor       xmm3, xmm2\n";
            $k256 .= "    movdqa     [$s + " . 16 * $i . "], xmm3     # rk[$i]\n";
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
    movdqu     [$s + $off], xmm1
    movq       [$s + @{[ $off + 16 ]}], xmm3
___
    }

    return <<___;
    movdqu     xmm1, [$k]
    movdqa     [$s], xmm1              # rk[0]
    cmp        $len, 24
    je         .Lkey192
    ja         .Lkey256
    movdqa     xmm5, [.Lrot_word3]
$k128
    mov        dword [$s + $ROUNDS], 10
    jmp        .Lkey_done
.Lkey192:
    movq       xmm3, [$k + 16]         # w4, w5
    movq       [$s + 16], xmm3
    movdqa     xmm5, [.Lrot_word1]
$k192
    mov        dword [$s + $ROUNDS], 12
    jmp        .Lkey_done
.Lkey256:
    movdqu     xmm3, [$k + 16]
    movdqa     [$s + 16], xmm3         # rk[1]
    movdqa     xmm5, [.Lrot_word3]
    pxor       xmm0, xmm0
$k256
    mov        dword [$s + $ROUNDS], 14
.Lkey_done:
    pxor       xmm1, xmm1               # no key material left in registers
    pxor       xmm2, xmm2
    pxor       xmm3, xmm3
    pxor       xmm4, xmm4
___
}

# Single block ---------------------------------------------------------------------

# encrypt_block(s, out, in, ax, rounds_offset): the body of an
# encrypt_block function; `ax` is the pointer-width name of eax. Uses xmm0
# (cleared) and eax.
sub encrypt_block {
    my ($s, $out, $in, $ax, $ROUNDS) = @_;
    return <<___;
    mov        eax, [$s + $ROUNDS]   # public: the round count follows from the key length
    movdqu     xmm0, [$in]
    pxor       xmm0, [$s]
@{[ join '', map { "    aesenc     xmm0, [$s + " . 16 * $_ . "]\n" } 1 .. 9 ]}
    cmp        eax, 10
    je         .Lblock_last
    aesenc     xmm0, [$s + 160]
    aesenc     xmm0, [$s + 176]
    cmp        eax, 12
    je         .Lblock_last
    aesenc     xmm0, [$s + 192]
    aesenc     xmm0, [$s + 208]
.Lblock_last:
    shl        eax, 4
    aesenclast xmm0, [$s + $ax]
    movdqu     [$out], xmm0
    pxor       xmm0, xmm0
___
}

# Counter mode -------------------------------------------------------------------------
# r names the registers and operands: X (the block registers), key in out
# blocks (the arguments), base (the counter block, swapped), swap (the
# .Lctr_swap mask), rk0 (round key 0), rk (the temporary for round keys
# 1..Nr-1), data (the temporary for input blocks), rklast (rk[Nr]) and,
# where rk[Nr] is not kept in a register, load_rklast (its load).

# counters(r, n): the first n counter blocks, base + i, swapped back, ^ rk[0].
sub counters {
    my ($r, $n) = @_;
    my @X = @{ $r->{X} };
    my $s = '';
    for my $i (0 .. $n - 1) {
        $s .= "    movdqa     $X[$i], $r->{base}\n";
        $s .= "    paddd      $X[$i], [.Linc + " . 16 * $i . "]\n" if $i;
        $s .= "    pshufb     $X[$i], $r->{swap}\n";
        $s .= "    pxor       $X[$i], $r->{rk0}\n";
    }
    return $s;
}

# rounds(r, n, tag): rounds 1 .. Nr-1 on the first n blocks; eax = 16 * Nr.
sub rounds {
    my ($r, $n, $tag) = @_;
    my @X = @{ $r->{X} };
    my ($key, $rk) = @$r{qw(key rk)};
    my $one = sub {
        my ($i) = @_;
        my $s = "    movdqa     $rk, [$key + " . 16 * $i . "]\n";
        $s .= "    aesenc     $X[$_], $rk\n" for 0 .. $n - 1;
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

# last_rounds(r, n): the bulk body's last round on n blocks, key stream and
# data combined: AESENCLAST(s, rk[Nr] ^ in), stored to out.
sub last_rounds {
    my ($r, $n) = @_;
    my @X = @{ $r->{X} };
    my ($in, $out, $data, $rklast) = @$r{qw(in out data rklast)};
    my $s = '';
    for my $i (0 .. $n - 1) {
        my $o = 16 * $i;
        $s .= <<___;
    movdqu     $data, [$in + $o]
    pxor       $data, $rklast
    aesenclast $X[$i], $data
    movdqu     [$out + $o], $X[$i]
___
    }
    return $s;
}

# tail_store(r, first, n_max): last round, XOR and store blocks
# 0 .. n_max-1, stopping after block i when i+1 == blocks, for
# i >= first - 1.
sub tail_store {
    my ($r, $first, $nmax) = @_;
    my @X = @{ $r->{X} };
    my ($in, $out, $blocks, $data, $rklast) = @$r{qw(in out blocks data rklast)};
    my $s = $r->{load_rklast} // '';
    $s .= "    aesenclast $X[$_], $rklast\n" for 0 .. $nmax - 1;
    for my $i (0 .. $nmax - 1) {
        my $o = 16 * $i;
        $s .= <<___;
    movdqu     $data, [$in + $o]
    pxor       $X[$i], $data
    movdqu     [$out + $o], $X[$i]
___
        if ($i + 1 >= $first && $i < $nmax - 1) {
            $s .= "    cmp        $blocks, " . ($i + 1) . "\n";
            $s .= "    je         .Lctr_done\n";
        }
    }
    return $s;
}

1;
