#!/usr/bin/env perl
# asm/armv4/ghash-neon-armv4.pl: GHASH on plain NEON (ARMv7-A, no crypto
# extension: Cortex-A7/A8/A9/A15), the kernel behind the "neon" descriptor
# in crypto/ghash/ghash_neon_armv4.c (which also builds its key). Its
# 64x64-bit carry-less products are built from VMULL.P8 (8 x 8 -> 16-bit
# polynomial multiplies, eight lanes at once), after Camara, Gouvea, Lopez
# and Dahab, "Fast software polynomial multiplication on ARM processors
# using the NEON engine" (CD-ARES 2013).
#
# Usage: perl ghash-neon-armv4.pl FLAVOUR [OUTPUT]  (see asm/perlasm;
# FLAVOUR linux32 for A32 code, linux32-thumb2 for T32).
#
# Algorithm
# =========
# Field arithmetic, key powers and aggregation are those of the pmull32
# kernel (asm/armv4/ghash-pmull32-armv4.pl, whose opening comment derives
# them): bit-reflected blocks, K_k = H^k * x^-1 for k = 1..4, Karatsuba
# (three 64x64 products a block: lo = a0 b0, hi = a1 b1, mid =
# (a0 ^ a1)(b0 ^ b1)), four blocks per reduction,
#     X' = (X ^ B0) K_4 ^ B1 K_3 ^ B2 K_2 ^ B3 K_1,
# and a two-step Montgomery reduction modulo g'(y) = y^128 + y^127 +
# y^126 + y^121 + 1. What differs is how the 64x64 products are made and
# summed.
#
# 64x64 from eight VMULL.P8. With a = sum a_i y^(8i), b = sum b_j y^(8j)
# (bytes a_i, b_j; byte m of a d register is bits 8m..8m+7), a b is the sum
# of the 64 byte products a_i b_j placed at 8(i + j). Let r_j(b) be b's
# bytes rotated down by j (byte m takes b_(m+j mod 8): VEXT.8 b, b, #j).
# Then P_j = VMULL.P8(a, r_j(b)) has a_m b_(m+j mod 8) in its 16-bit lane
# m, and P_0 .. P_7 hold each of the 64 products once. Lane m of P_j
# belongs at bit 16m + 8j, except the wrapped lanes (m >= 8 - j), which
# belong 64 bits lower. For k = 1, 2, 3 the products of P_(8-k) are those
# of offset -k; rotating P_(8-k) down by k lanes (VEXT.8 #2k of the
# 128-bit register) puts the pair a_(m+k) b_m in lane m beside P_k's
# a_m b_(m+k), with the same placement rule, wrapped lanes (now the top
# k) included. So, with L_k = P_k ^ r(P_(8-k)) and M the top 2k bytes of
# its high half (an AND with a byte mask),
#     L_k.hi ^= M, L_k.lo ^= M, contribution_k = L_k << 8k  (128 bits)
# where the shift is a VEXT.8 rotation of L_k by k bytes: its top k bytes
# are zero once M has moved. P_4 holds both orders of offset 4 (lanes m
# and m + 4 belong at the same place): contribution_4 =
# (P_4.lo ^ P_4.hi) << 32. P_0 is in place. Only the a side is a
# variable; the key side, r_0(b) .. r_7(b) for each of the three
# Karatsuba words of each power, is precomputed in the key, so a 64x64
# product is eight VMULL.P8, with no VEXT at all.
#
# Sums before combining. Every step after the VMULL.P8s (the fix-up and
# shift above, Karatsuba's recombination, the sum over blocks) is
# GF(2)-linear. So the kernel works one Karatsuba part at a time (mid,
# then lo, then hi): for the four blocks of a batch it only adds each P_j
# into an accumulator S_j (q8..q15, S_j = sum over the blocks of a_i's word
# against r_j of the matching word of K_(4-i)), and then combines S_0..S_7
# into the part's 128-bit product once: three fix-ups and shifts and one
# P_4 step per part per batch instead of per block. Per block and part
# that leaves 8 VMULL.P8 and 8 VEOR. Six more q registers would be
# needed to keep the batch's block words for the three parts: the mid
# part (the first) reverses blocks 1..3 and stores them in the frame, and
# the lo and hi parts load the word they need from there. The fix-up
# masks and the reduction's shift counts are loaded from a constant block
# (loads issue beside the NEON pipe). The parts' products go into the
# 256-bit [w3:w2:w1:w0] as
# they are finished (w0 = lo.lo, w1 = lo.hi ^ mid'.lo, w2 = hi.lo ^
# mid'.hi, w3 = hi.hi, mid' = mid ^ lo ^ hi), which the reduction
# takes.
#
# The reduction multiplies by c = y^63 + y^62 + y^57 (0xC2 << 56): with
# shifts, w * c = (w << 63 ^ w << 62 ^ w << 57) (low 64 bits) and
# (w >> 1 ^ w >> 2 ^ w >> 7) (high 64 bits): with w in both halves of a q
# register, three VSHL.U64 by the count pairs (63, -1), (62, -2), (57, -7)
# (a negative count shifts right) and two VEORs give both halves.
#
# Orientation: a block is loaded as it is (VLD1.64) and byte-reversed in
# each 64-bit half (VREV64.8); the halves are not swapped, the code names
# them instead: the even d register holds a1 (the high word of the
# reflected block), the odd one a0. The running hash stays in q0 in the
# same orientation, so X ^ B0 is one VEOR.
#
# Schedule
# ========
# Each batch is written out as a plain program (its instructions in an
# order that computes the right thing) and reordered by schedule() below
# when the .pl is translated: a list scheduler for the in-order NEON
# pipeline of the Cortex-A9 (one NEON data-processing instruction a cycle,
# VEXT two; loads and core instructions beside them). An instruction is
# placed once its operands are ready (VMULL.P8's result five cycles after
# it issues, most others two or three), never before an instruction whose
# registers it overwrites, and among the ready ones the one with the
# longest latency-weighted chain after it goes first. Registers are fixed
# in the plain program with enough in rotation that the products of
# successive blocks overlap: the products go to q4..q7 in turn, so four
# VMULL.P8 are in flight while the VEORs of earlier ones issue, and the
# key words are loaded into q3 just after the two products that read
# the previous pair; the combination of one part (four independent
# chains) overlaps the loads and first products of the next. Memory is
# not tracked but for the frame slots, whose store and loads carry a
# "# w=slotN" / "# r=slotN" note. Out-of-order cores (Swift,
# Cortex-A15/A57) take the same code.
#
# Key layout (struct ghash_key, 768 bytes, written by the C init)
# ===============================================================
#     bytes[256 * t + 64 * (4 - k) + 8 * j] = r_j(w) (a little-endian
#     64-bit word), w = b0 ^ b1 (t = 0), b0 (t = 1) or b1 (t = 2) of
#     K_k = b1:b0, j = 0..7, k = 1..4: a part's words for K_4 .. K_1 in a
#     row, two rotations per VLD1.
#
# Register plan (AAPCS; the prologue saves the r4-r8, r10, r11 and
# d8-d15 used)
# ===================================================================
#   gcmi_ghash_armv4_neon_blocks(Xi = r0, key = r1, in = r2, blocks = r3)
#     q0       the running hash (d0 = its high word, d1 the low one); in a
#              batch X ^ B0, d1 then w0 after the lo part; (w0, w0) in
#              the reduction
#     q1       d2 = the mid operand of block 0, then the mid product, then
#              w1, w2 (partial, then whole: d2, d3)
#     q2       the block being multiplied (its word in the lo and hi
#              parts); a part's combined product
#     q3       key words (two rotations)
#     q4-q7    products on their way into the accumulators
#     q8-q15   S_0 .. S_7; the reduction's temporaries and shift counts
#     r4, r5   key pointers (blocks in turn), r6, r7 frame addresses,
#              r8 the block's address, r10-r12 the three masks (r10 the
#              constant block)
#     frame    [sp, 16 * (i - 1)]: block i (1..3) reversed
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# H, its powers, the running hash and the data are secret and only ever in
# NEON registers and memory (the frame's reversed blocks are overwritten
# with zeros before returning); they pass through VMULL.P8 (a fixed-latency
# NEON instruction: its timing does not depend on the values), VEOR, VAND,
# VEXT, VREV64 and shifts, no table. Addresses are the argument pointers,
# the constant block's (ADR) and sp, plus constants; branches depend only
# on the block count. No
# core register ever holds a secret (the check: public= lists every one
# the kernel uses).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

# ---------------------------------------------------------------------------
# The schedule: a list scheduler for the Cortex-A9's in-order NEON pipeline.

# Registers an operand names, at d-register granularity (q<n> is d<2n> and
# d<2n+1>); core registers as r<n>.
sub regs_of {
    my ($o) = @_;
    $o =~ s/^\s+|\s+$//g;
    return ("d" . 2 * $1, "d" . (2 * $1 + 1)) if $o =~ /^q(\d+)$/;
    return ($o) if $o =~ /^(d\d+|r\d+)$/;
    if ($o =~ /^\{(.*)\}$/) {
        my @r;
        for my $p (split /\s*,\s*/, $1) {
            if ($p =~ /^d(\d+)-d(\d+)$/) { push @r, map { "d$_" } $1 .. $2 }
            else { push @r, regs_of($p) }
        }
        return @r;
    }
    return ();
}

# One instruction: what it writes and reads, its issue cost on the NEON
# pipe and the class of its result's latency.
sub insn {
    my ($text) = @_;
    my ($mn, $rest) = $text =~ /^\s*(\S+)\s*(.*)$/;
    # A "# w=NAME" or "# r=NAME" note: the instruction writes or reads the
    # memory NAME (a frame slot), a dependency like a register's.
    my (@mw, @mr);
    if ($rest =~ s/\s*#\s*(.*)$//) {
        for my $note (split ' ', $1) {
            push @mw, "m:$1" if $note =~ /^w=(\S+)$/;
            push @mr, "m:$1" if $note =~ /^r=(\S+)$/;
        }
    }
    my @ops;
    my ($cur, $depth) = ('', 0);
    for my $ch (split //, $rest) {
        $depth++ if $ch eq '[' || $ch eq '{';
        $depth-- if $ch eq ']' || $ch eq '}';
        if ($ch eq ',' && $depth == 0) { push @ops, $cur; $cur = ''; next; }
        $cur .= $ch;
    }
    push @ops, $cur if $cur =~ /\S/;
    s/^\s+|\s+$//g for @ops;
    my (@w, @r);
    for my $i (0 .. $#ops) {
        my $o = $ops[$i];
        if ($o =~ /^\[(r\d+)(?::\d+)?\](!?)$/) {
            push @r, $1;
            push @w, $1 if $2 || $i < $#ops;
            next;
        }
        my @x = regs_of($o);
        if ($i == 0 && $mn !~ /^(vst1|cmp|b)/) {
            push @w, @x;
        } else {
            push @r, @x;
        }
    }
    push @w, @mw;
    push @r, @mr;
    my $neon = $mn =~ /^v/ && $mn !~ /^(vld1|vst1)/;
    my $cost = $mn =~ /^vext/ ? 2 : $neon ? 1 : 0;
    my $lat = $mn =~ /^vmull/ ? 5 : $mn =~ /^vext/ ? 3 : $mn =~ /^vld1/ ? 1
            : $mn =~ /^v/ ? 2 : 1;
    my $late = $mn =~ /^(vext|vsh|vst1)/ ? 1 : 0;    # reads its operands a cycle earlier
    return { text => $text, w => \@w, r => \@r, cost => $cost, lat => $lat,
             late => $late, neon => $neon };
}

# Orders the instructions (a correct program as written) for the in-order
# pipe: each cycle issues at most one NEON data-processing instruction (a
# VEXT holds the pipe two cycles) and two instructions in all; an
# instruction issues once its operands are ready (the producer's latency,
# one more for the consumers that read early: VEXT, shifts, stores)
# and never before an earlier instruction whose registers it overwrites
# or whose result it overwrites; among the ready ones the one with the
# longest latency-weighted chain after it goes first.
sub schedule {
    my @in = map { insn($_) } @_;
    my $n = @in;
    my (@pred, @succ);
    my (%lastw, %readers);
    for my $j (0 .. $n - 1) {
        my %p;
        for my $r (@{ $in[$j]{r} }) {
            $p{ $lastw{$r} } = 'raw' if defined $lastw{$r};
        }
        for my $w (@{ $in[$j]{w} }) {
            $p{ $lastw{$w} } //= 'order' if defined $lastw{$w};
            $p{$_} //= 'order' for @{ $readers{$w} // [] };
        }
        delete $p{$j};
        $pred[$j] = \%p;
        push @{ $succ[$_] }, $j for keys %p;
        for my $r (@{ $in[$j]{r} }) { push @{ $readers{$r} }, $j; }
        for my $w (@{ $in[$j]{w} }) { $lastw{$w} = $j; $readers{$w} = []; }
    }
    my @height = (0) x $n;
    for my $i (reverse 0 .. $n - 1) {
        for my $s (@{ $succ[$i] // [] }) {
            my $d = $pred[$s]{$i} eq 'raw' ? $in[$i]{lat} + $in[$s]{late} : 0;
            my $h = $height[$s] + $d;
            $height[$i] = $h if $h > $height[$i];
        }
        $height[$i] += $in[$i]{cost};
    }
    my @done = (0) x $n;    # issued
    my @ready_at;
    my $left = $n;
    my ($cycle, $busy_until) = (0, 0);
    my @out;
    while ($left) {
        my $issued = 0;
        while ($issued < 2) {
            my $best;
            for my $j (0 .. $n - 1) {
                next if $done[$j];
                my $ok = 1;
                for my $p (keys %{ $pred[$j] }) {
                    if (!$done[$p]) { $ok = 0; last; }
                    if ($pred[$j]{$p} eq 'raw' && $ready_at[$p] + $in[$j]{late} > $cycle) { $ok = 0; last; }
                }
                next unless $ok;
                next if $in[$j]{cost} && $busy_until > $cycle;
                $best = $j if !defined $best || $height[$j] > $height[$best];
            }
            last unless defined $best;
            $done[$best] = 1;
            $left--;
            $issued++;
            $ready_at[$best] = $cycle + $in[$best]{lat};
            $busy_until = $cycle + $in[$best]{cost} if $in[$best]{cost};
            push @out, $in[$best]{text};
        }
        $cycle++;
    }
    return join '', map { "    $_\n" } @out;
}

# ---------------------------------------------------------------------------
# The kernel.

sub dl { my ($q) = @_; $q =~ /^q(\d+)$/ or die; return 'd' . 2 * $1; }
sub dh { my ($q) = @_; $q =~ /^q(\d+)$/ or die; return 'd' . (2 * $1 + 1); }
sub S { return 'q' . (8 + $_[0]); }    # the accumulator of P_j


# The accumulators S_0..S_7 of one part, combined into the 128-bit
# product in $D (the fix-up, shift and P_4 step of the opening comment).
sub combine {
    my ($D) = @_;
    my @o = ('veor    d24, d24, d25', 'vshr.u64 d25, d24, 32', 'vshl.i64 d24, d24, 32',
             "veor    $D, q8, q12");
    for my $k (1 .. 3) {
        my ($s, $t) = (S($k), S(8 - $k));
        my ($m, $sl, $sh) = (dl($t), dl($s), dh($s));
        push @o, "vext.8  $t, $t, $t, " . 2 * $k,
                 "veor    $s, $s, $t",
                 "vld1.64 {$m}, [r" . (9 + $k) . ']',
                 "vand    $m, $sh, $m",
                 "veor    $sh, $sh, $m",
                 "veor    $sl, $sl, $m",
                 "vext.8  $s, $s, $s, " . (16 - $k),
                 "veor    $D, $D, $s";
    }
    return @o;
}

# The reduction of [w3:w2:w1:w0] = [d5:d3:d2:d1] into q0 (see "The
# reduction" above): w * c for both steps by three VSHL.U64 with the
# shift counts (63, -1), (62, -2), (57, -7) (negative: a right shift)
# from q13-q15 on (w, w), giving (low, high) 64 bits of the product.
sub reduce {
    my @o = ('add     r4, r10, 32', 'vld1.64 {d26-d29}, [r4]!', 'vld1.64 {d30-d31}, [r4]',
             'vmov    d0, d1');
    my $mulc = sub {
        my ($w) = @_;
        return ("vshl.u64 q8, $w, q13", "vshl.u64 q9, $w, q14", "vshl.u64 q10, $w, q15",
                'veor    q8, q8, q9', 'veor    q8, q8, q10');
    };
    push @o, $mulc->('q0'), 'veor    d22, d2, d16', 'veor    d23, d2, d16', 'veor    d1, d1, d17';
    push @o, $mulc->('q11'), 'veor    d1, d1, d16', 'veor    d22, d22, d17';
    push @o, 'veor    d1, d3, d1', 'veor    d0, d5, d22';
    return @o;
}

# One batch of $n blocks (1..4) at r2 into the hash in q0, in program
# order (schedule() reorders it).
sub batch {
    my ($n) = @_;
    my @o = ('vld1.64 {d4, d5}, [r2]', 'vrev64.8 q2, q2', 'veor    q0, q0, q2');
    my @temps = ('q4', 'q5', 'q6', 'q7');
    my @keys = ('q3');
    my ($tn, $kn, $pn) = (0, 0, 0);
    for my $part (0 .. 2) {                       # mid, lo, hi
        my @order = $part == 0 ? ((1 .. $n - 1), 0) : (0 .. $n - 1);
        my $first = 1;
        for my $i (@order) {
            my $a;
            if ($i == 0) {
                if ($part == 0) { push @o, 'veor    d2, d0, d1'; $a = 'd2'; }
                else { $a = $part == 1 ? 'd1' : 'd0'; }
            } elsif ($part == 0) {
                # Reversed once; kept in the frame for the other parts.
                my $sr = 'r' . (6 + $i % 2);
                push @o, 'add     r8, r2, ' . 16 * $i, 'vld1.64 {d4, d5}, [r8]', 'vrev64.8 q2, q2',
                         "add     $sr, sp, " . 16 * ($i - 1), "vst1.64 {d4, d5}, [$sr]    # w=slot$i",
                         'veor    d4, d4, d5';
                $a = 'd4';
            } else {
                my $sr = 'r' . (6 + $i % 2);
                $a = $part == 1 ? 'd5' : 'd4';
                push @o, "add     $sr, sp, " . (16 * ($i - 1) + ($part == 1 ? 8 : 0)),
                         "vld1.64 {$a}, [$sr]    # r=slot$i";
            }
            my $kr = 'r' . (4 + $pn++ % 2);
            push @o, "add     $kr, r1, " . (256 * $part + 64 * (4 - ($n - $i)));
            for my $pair (0 .. 3) {
                my $k = $keys[$kn++ % @keys];
                push @o, 'vld1.64 {' . dl($k) . ', ' . dh($k) . "}, [$kr]!";
                for my $h (0, 1) {
                    my ($j, $kd) = (2 * $pair + $h, $h ? dh($k) : dl($k));
                    if ($first) {
                        push @o, 'vmull.p8 ' . S($j) . ", $a, $kd";
                    } else {
                        my $t = $temps[$tn++ % @temps];
                        push @o, "vmull.p8 $t, $a, $kd", 'veor    ' . S($j) . ', ' . S($j) . ", $t";
                    }
                }
            }
            $first = 0;
        }
        push @o, combine($part == 0 ? 'q1' : 'q2');
        push @o, 'veor    q1, q1, q2', 'veor    d2, d2, d5', 'vmov    d1, d4' if $part == 1;
    }
    push @o, 'veor    d2, d2, d4', 'veor    d3, d3, d4', 'veor    d3, d3, d5';
    push @o, reduce();
    return @o;
}

my $sched = ($ENV{GHASH_NEON_SCHED} // 1) ? \&schedule : sub { join '', map { "    $_\n" } @_ };

my $code = <<___;
.arch armv7-a
.fpu neon

.rodata
.align 4
.Lghash_neon_consts:
.quad 0xffff000000000000, 0xffffffff00000000    # the fix-up masks, k = 1, 2, 3
.quad 0xffffffffffff0000, 0
.quad 63, -1, 62, -2, 57, -7                    # the reduction's shift counts

.text
.function gcmi_ghash_armv4_neon_blocks args=4 frame=48 public=r0,r1,r2,r3,r4,r5,r6,r7,r8,r10,r11,r12
    cmp     r3, 0
    beq     .Lblocks_done
    adrl    r10, .Lghash_neon_consts
    add     r11, r10, 8
    add     r12, r10, 16
    vld1.64 {d0, d1}, [r0]
    vrev64.8 q0, q0

.Lblocks_loop4:
    cmp     r3, 4
    blo     .Lblocks_tail
@{[ $sched->(batch(4)) ]}
    add     r2, r2, 64
    sub     r3, r3, 4
    b       .Lblocks_loop4

.Lblocks_tail:
    cmp     r3, 0
    beq     .Lblocks_store
@{[ $sched->(batch(1)) ]}
    add     r2, r2, 16
    sub     r3, r3, 1
    b       .Lblocks_tail
.Lblocks_store:
    vrev64.8 q0, q0
    vst1.64 {d0, d1}, [r0]
    vmov.i8 q2, 0                   # wipe the frame's reversed blocks
    mov     r6, sp
    vst1.64 {d4, d5}, [r6]!
    vst1.64 {d4, d5}, [r6]!
    vst1.64 {d4, d5}, [r6]
.Lblocks_done:
.endfunction
___

perlasm::driver::finish('armv4', $code);
