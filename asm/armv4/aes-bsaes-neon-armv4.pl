#!/usr/bin/env perl
# asm/armv4/aes-bsaes-neon-armv4.pl: bitsliced AES on NEON for 32-bit ARM
# cores without the AES instructions (Cortex-A7/A8/A9/A15), the kernel
# behind the "bsaes_neon" descriptor in crypto/aes/aes_bsaes_neon.c.
#
# Usage: perl aes-bsaes-neon-armv4.pl FLAVOUR [OUTPUT]  (see asm/perlasm;
# FLAVOUR linux32 for A32 code, linux32-thumb2 for T32).
#
# Algorithm
# =========
# Bitslicing (Kasper and Schwabe, CHES 2009): eight blocks are held as
# eight 128-bit bit planes, plane i (register q<i>) holding bit i of every
# byte of every block:
#     bit 8k + b of plane i = bit i of byte k of block b,
# byte k = 4c + r being state row r, column c. So a plane's byte k gathers
# the eight blocks' bits of state byte k, a 32-bit lane of a plane is one
# state column and byte r inside the lane one row. This is the layout of
# the project's C bitsliced AES (crypto/aes/aes_bitsliced_rounds.h, whose
# opening comment derives the rounds) with NBLK = 8 blocks, so the rounds
# here are that algorithm on NEON registers:
#   - SubBytes is a 135-gate circuit (103 XOR, 32 AND; the affine
#     constant 0x63 is folded into round keys 1..Nr at key set-up) made
#     to run in the sixteen q registers (its derivation is at $SBOX
#     below), evaluated on whole planes with VEOR and VAND (sbox_check()
#     runs the gate list on all 256 inputs against the S-box when the .pl
#     runs);
#   - ShiftRows is never executed ("fixslicing"): after round j the stored
#     state is SR^-j of the true one and MixColumns of round j uses "next
#     row, j columns further": per plane
#         r = rot_cols(rot_rows1(x), j),  t = x ^ r,
#         out = xtime(t) ^ r ^ rot_cols(rot_rows2(t), 2j),
#     with xtime a renaming of planes plus three XORs with plane 7;
#     rot_rows1 rotates every 32-bit lane by 8 bits, rot_rows2 by 16
#     (VREV32.16), rot_cols(x, n) the register by 4n bytes; each of
#     rot_cols(rot_rows1(x), j) and rot_cols(rot_rows2(t), 2) (j odd) is
#     one fixed byte permutation, made by VTBL.8: the index vector
#     (.Lbsaes_perm) loaded into the destination, each d half looked up in
#     the source's d half it comes from (j even; for j = 2 and for the
#     rot_rows2 one the halves swap) or in the whole source (j odd, a
#     two-register table). VTBL takes as long as VSHR or VSLI on the
#     Cortex-A9 and runs on Swift's permute pipe, beside the VEOR/VAND
#     pipe that bounds the kernel there; after the last round SR^Nr
#     (identity for Nr = 12, SR^2 for 10 and 14: rows 1 and 3 take the
#     bytes two columns on, VEXT.8 + VBIT with a row mask) restores it;
#   - blocks enter and leave the planes by an 8x8 bit transposition in
#     every byte position (three SWAPMOVE stages of four pairs with a
#     0x55/0x33/0x0f byte mask m, whose complement is m << n: VSHR.U64 and
#     VSHL.U64 by n, then VBIT and VBIF under m; the nibble stage, n = 4,
#     as VMOV, VSLI.8 and VSRI.8); it is its own inverse, so the same code
#     packs and unpacks.
# The round keys are converted to this form at key set-up (the
# descriptor, in C): round key j is SR^-j(K_j) with 0x63 folded in for
# j >= 1, every byte of plane i 0x00 or 0xff (the bit of the key byte,
# broadcast to the eight blocks), 128 bytes per round key.
#
# Registers: the circuit is written here in single-assignment form (a
# whole round: S-box, then MixColumns output by output, each followed by
# its AddRoundKey), an order that never needs more than the sixteen q
# registers; schedule() reorders it (greedily: the operation whose height,
# the longest chain of operations after it, is the greatest, so long as
# the rest of the round, in the written order, still fits in sixteen
# registers after it), and a small register allocator in this file
# (allocate(): a free register, the one released the longest ago) places
# every value in q0-q15. There is no spill code: schedule() and allocate()
# stop the build if a round would need a seventeenth register. A round's
# eight outputs stay where the allocator leaves them and the next round
# starts from there: rounds 1, 2 and 3 of the unrolled loop take their
# inputs from the previous round's registers, round 0 (the loop's last)
# and the last round end in q0-q7 (an output gets its register when that
# is free, else a VMOV at the end); the loop's exits after rounds 2, 3 and
# 0 move the planes to where round 1 leaves them, where the last round
# starts. perlasm/slot_scheduler.pm then reorders the round's
# instructions, whatever registers they use staying as allocated, so that
# no instruction reads a result made less than three NEON instructions
# earlier where the dependencies allow (the in-order NEON pipeline of the
# Cortex-A9 waits otherwise). All of it runs when the .pl is translated;
# the result is fixed code.
#
# Counter mode (ctr32): eight counter blocks per pass; the 32-bit
# big-endian counter word is kept byte-reversed in r6 (host order): block
# b takes rev(c + b) in its last word, the other 12 bytes come from the
# caller's counter block: the frame holds eight copies of it (written
# once), a pass stores the eight words (STR) and loads the eight blocks
# (VLD1), so the counter wraps modulo 2^32 without carrying into byte 11. A pass makes eight blocks of key stream; a last pass of 1..7 blocks
# uses as many. The caller's counter block is read completely before
# anything is written, so ctr may be the same buffer as out (the
# descriptor's encrypt_block is ctr32 over one zero block with the
# plaintext block as the counter); in == out works, each block is read
# before it is written.
#
# Schedule layout (struct aes_schedule): the planes start at offset 256
# ($PLANES, after the round-key bytes the other kernels use and `rounds`),
# and planes[128*j + 16*i] is plane i of round key j (j = 0 .. Nr; 15 * 128
# = 1920 bytes); Nr is the 32-bit word at offset 240 ($ROUNDS;
# crypto/aes/aes.h asserts both offsets). The loads carry no alignment
# qualifier, as for any key in memory the caller placed.
#
# Register plan (AAPCS: r4-r11 and d8-d15 are saved by the prologue when
# touched)
# ====================================================================
#   gcmi_aes_armv4_bsaes_neon_ctr32(s = r0, out = r1, in = r2, blocks = r3,
#                              ctr = r4)
#     q0-q15   the eight planes and the allocator's temporaries in a round
#              (plane i in q<i> where the loop starts and after the last
#              round); before packing and after unpacking, block b in q<b>;
#              the transposition's mask (q8) and temporaries (q9-q12); the
#              input blocks (q8-q15)
#     r5       Nr; r8 rounds left; r12 round-key pointer; r10 the address
#              of a counter block; r11 .Lbsaes_perm, r4 the
#              round's VTBL index in it (r4 holds ctr only until it is read)
#     r6       counter (host order), r7 temporary
#     frame    [sp, 16*b] the eight counter blocks (nothing is spilled)
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# The key, the round keys, the data and the key stream are secret; they
# live only in NEON registers and memory (the round keys; no round value
# is ever stored; the counter blocks in the frame are wiped before
# returning). The counter (r6, r7) is derived from the nonce, public in
# GCM, but is not declared public: it only feeds REV, ADD and STR into
# the frame. Every address is an argument pointer (r0-r2, r4), the
# round-key pointer r12, sp plus a constant or r10 (sp plus a constant),
# or r11/r4 (the address of the constant VTBL indices, plus a constant);
# every branch depends on Nr or the block count. Nr is loaded from the
# schedule under a `# public:` annotation: it follows from the key length,
# which is public. The whole AES is AND/XOR, shifts, VEXT/VREV and VTBL
# with constant indices (a register permutation, no memory access): no
# memory table, no data-dependent timing. The secret-register check
# (perlasm/ctcheck_arm.pm) proves the rest from the public= lists.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::layout;    # $ROUNDS, $PLANES and the other C structure offsets
use perlasm::slot_scheduler;

# The S-box circuit (135 gates: 103 XOR, 32 AND), written for the sixteen
# q registers: no point of it needs more than 16 values at once (the
# round's inputs included), so a round runs without spilling. u0 is the
# most significant bit (plane 7), u7 the least (plane 0); out<i> is plane
# i. It inverts in the tower GF((2^4)^2) whose basis Boyar and Peralta's
# circuit uses (their GF(2^4) inversion, t25 .. t40, is taken unchanged);
# the rest is derived here from that structure so that few values live:
#   - an input x of GF(2^8) is a pair of GF(2^4) elements X, W; each is
#     held as four planes, X as (y6, u7, y1, y7) and W as (y3, y4, y5, y2),
#     the planes (a1, a0) and (b1, b0) of its two GF(2^2) halves (the "top":
#     16 XOR from u0 .. u7, which also make the four linear terms y20, y19,
#     y21, y18 of the norm below);
#   - a product of two GF(2^4) elements takes nine ANDs, Karatsuba over
#     GF(2^2) twice: triple A (a1, a0 and a1 + a0) against the other
#     factor's a-half, triple B (b1, b0, b1 + b0) against its b-half, triple
#     C (a1 + b1, a0 + b0 and the sum of all four) against its sum; with
#     zA, zB the GF(2^2) products of A and B (two planes each, three ANDs)
#     and z8, z6, z7 C's three ANDs, the product is (zA + e, zB + e) with
#     e = (z6 + z7, z6 + z8);
#   - the norm d = X*W + (linear terms), four planes (t21 .. t24): the
#     nine ANDs of X*W accumulated into the linear terms triple by triple,
#     each triple's sums made just before its ANDs (25 XOR, 9 AND);
#   - D = d^-1 in GF(2^4) (16 gates), D's a- and b-halves t37, t33 and
#     t40, t29;
#   - x^-1 is (D*X, D*W) in this basis: each product is made in place, X's
#     four registers becoming D*X's (20 XOR, 9 AND): triple C first, as it
#     needs X's sums, into two temporaries e1, e0; then A and B, two planes
#     by two each, written over a1, a0 and b1, b0; then e added. D's sums
#     are made again for each product, one XOR each, so that X, W and D
#     take 12 registers and the product the other four; of X's sums only
#     a1 + b1 (y10) is kept from the norm, the one value the inversion
#     (at most 7 registers in this order) leaves room for. D*W likewise
#     (17 XOR, 9 AND), but its e is left for the output map: nothing needs
#     the registers after it;
#   - the outputs, the S-box's bits (without 0x63), are 14 XORs of D*X's
#     four planes and D*W's six values.
# At most 16 values are live (in the norm's triple C and in the products:
# 8 + 4 + 4), where the orders found of Boyar and Peralta's 113-gate
# circuit (which this one replaces) needed 25. sbox_check() runs the gate
# list on all 256 inputs against the S-box, and schedule() checks every
# round's registers, when the .pl runs.
my $SBOX = <<'___';
w0=u1^u7 y1=u2^w0 y4=u3^y1 y5=u6^y1 y2=u0^y1 w1=u0^u5 y3=y5^w1 w2=u2^u4
y21=w1^w2 y18=u6^y21 y7=y2^y18 w3=y4^y18 w4=u1^w3 y20=u7^w3 y6=u5^w4
y19=y2^w4 y15=y6^u7 y12=y3^y4 t2=y15&y12 t3=y3&y6 t4=t3^t2 d0a=y20^t4
t5=y4&u7 t6=t5^t2 d1a=y19^t6 y16=y1^y7 y13=y5^y2 t7=y16&y13 t8=y5&y1
t9=t8^t7 d2a=y21^t9 t10=y2&y7 t11=t10^t7 d3a=y18^t11 y10=y1^y6 y8=y5^y3
t15=y10&y8 d1b=d1a^t15 d3b=d3a^t15 y11=y7^u7 y9=y2^y4 y14=y8^y9
t12=y11&y9 y17=y10^y11 t13=y17&y14 t14=t13^t12 t21=d0a^t14 t23=d2a^t14
d1c=d1b^t12 d3c=d3b^t12 t25=t21^d1c t26=t21&t23 t27=d3c^t26 t28=t25&t27
t29=t28^d1c t31=d1c^t26 t30=t23^d3c t32=t31&t30 t33=t32^d3c t34=t23^t33
t35=t27^t33 t36=d3c&t35 t37=t36^t34 t38=t27^t36 t39=t29&t38 t40=t25^t39
xk1=t40^t37 xz8=y10&xk1 xc2=y7^u7 xc3=y10^xc2 xk2=t29^t33 xz6=xc2&xk2
xk3=xk2^t37 xk4=xk3^t40 xz7=xc3&xk4 xe0=xz8^xz6 xe1=xz6^xz7 xxa=y6^u7
xka=t37^t33 xz0=xxa&xka xp1=y6&t37 xp2=u7&t33 xq1=xp1^xz0 xq2=xp2^xz0
xA1=xq1^xe1 xA0=xq2^xe0 xxb=y1^y7 xkb=t40^t29 xz3=xxb&xkb xp4=y1&t40
xp5=y7&t29 xq4=xp4^xz3 xq5=xp5^xz3 xB1=xq4^xe1 xB0=xq5^xe0 wc1=y5^y3
wk1=t40^t37 wz8=wc1&wk1 wc2=y2^y4 wc3=wc1^wc2 wk2=t29^t33 wz6=wc2&wk2
wk3=wk2^t37 wk4=wk3^t40 wz7=wc3&wk4 we0=wz8^wz6 we1=wz6^wz7 wxa=y3^y4
wka=t37^t33 wz0=wxa&wka wp1=y3&t37 wp2=y4&t33 wq1=wp1^wz0 wq2=wp2^wz0
wxb=y5^y2 wkb=t40^t29 wz3=wxb&wkb wp4=y5&t40 wp5=y2&t29 wq4=wp4^wz3
wq5=wp5^wz3 l0=wq1^we1 out6=xA1^l0 out7=xB1^l0 out4=xA1^out7 l1=xA0^wq5
out5=we0^l1 l2=xA0^xB0 out3=out4^l2 l3=wq2^l1 out2=out7^l3 l4=wq4^l2
out0=we1^l4 l5=xA0^xB1 out1=out0^l5
___

# Checks, when the .pl runs, that the gate list computes the AES S-box
# without its affine constant 0x63 (which round keys 1..Nr carry): all 256
# inputs through the gates, against the S-box computed here from its
# definition (the inverse in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1, 0
# for 0, then the affine map without the constant). A wrong gate stops the
# build.
sub sbox_check {
    my ($text) = @_;
    my @g = map { [ /^(\w+)=(\w+)([\^&])(\w+)$/ ] } split ' ', $text;
    my $gmul = sub {
        my ($a, $b) = @_;
        my $r = 0;
        for (0 .. 7) {
            $r ^= $a if $b & 1;
            $b >>= 1;
            $a = (($a << 1) ^ ($a & 0x80 ? 0x1b : 0)) & 0xff;
        }
        return $r;
    };
    for my $x (0 .. 255) {
        my ($inv) = $x ? grep { $gmul->($x, $_) == 1 } 1 .. 255 : (0);
        my $want = 0;
        for my $i (0 .. 7) {
            my $bit = 0;
            $bit ^= ($inv >> (($i + $_) % 8)) & 1 for 0, 4, 5, 6, 7;
            $want |= $bit << $i;
        }
        my %v = map { ("u$_" => ($x >> (7 - $_)) & 1) } 0 .. 7;   # u0 the MSB
        for (@g) {
            my ($d, $a, $op, $b) = @$_;
            die "sbox: $a or $b used before it is defined\n" unless defined $v{$a} && defined $v{$b};
            $v{$d} = $op eq '^' ? $v{$a} ^ $v{$b} : $v{$a} & $v{$b};
        }
        my $got = 0;
        $got |= $v{"out$_"} << $_ for 0 .. 7;
        die sprintf("sbox: %02x gives %02x, not S(%02x) ^ 0x63 = %02x\n", $x, $got, $x, $want)
            if $got != $want;
    }
}
sbox_check($SBOX);

# Single-assignment programs: [op, dst, src...] with op one of xor, and,
# rrc0..rrc3 (rot_cols(rot_rows1(x), j) for j mod 4 = 0..3), rr2
# (rot_rows2), rr2c (rot_cols(rot_rows2(x), 2)), ldk (the next round-key
# plane, from r12 with post-increment).

# SubBytes of planes "$in<i>" into "$out<i>"; circuit values get $tag.
sub sbox_prog {
    my ($in, $out, $tag) = @_;
    my @p;
    my $name = sub {
        my ($v) = @_;
        return $in . (7 - $1) if $v =~ /^u(\d)$/;
        return $out . $1 if $v =~ /^out(\d)$/;
        return "$tag$v";
    };
    for my $g (split ' ', $SBOX) {
        my ($d, $a, $op, $b) = $g =~ /^(\w+)=(\w+)([\^&])(\w+)$/ or die "bad gate $g";
        push @p, [$op eq '^' ? 'xor' : 'and', $name->($d), $name->($a), $name->($b)];
    }
    return @p;
}

# MixColumns of round j (mod 4) of planes "$in<i>" into "$out<i>", each
# output plane followed by its AddRoundKey (the key planes load in order).
# Output by output, so few values are live at once: out_i needs t_{i-1}
# (xtime), t7, r_i and rot2(t_i).
sub mix_ark_prog {
    my ($in, $out, $j) = @_;
    my @p;
    my $rt = sub {       # r_i and t_i
        my ($i) = @_;
        push @p, ['rrc' . ($j % 4), "mx_r$i", "$in$i"];
        push @p, ['xor', "mx_t$i", "$in$i", "mx_r$i"];
    };
    # out_i = xtime(t)_i ^ r_i ^ rot2(t)_i; t7 feeds planes 0, 1, 3, 4.
    my %xt = (0 => ['mx_t7'], 1 => ['mx_t0', 'mx_t7'], 2 => ['mx_t1'],
              3 => ['mx_t2', 'mx_t7'], 4 => ['mx_t3', 'mx_t7'], 5 => ['mx_t4'],
              6 => ['mx_t5'], 7 => ['mx_t6']);
    $rt->(7);
    for my $i (0 .. 7) {
        $rt->($i) if $i < 7;
        my $rot2 = "mx_b$i";
        push @p, [$j % 2 ? 'rr2c' : 'rr2', $rot2, "mx_t$i"];
        my @terms = ("mx_r$i", $rot2, @{ $xt{$i} });
        my $acc = shift @terms;
        for my $k (0 .. $#terms) {
            my $d = "mx_s${i}_$k";
            push @p, ['xor', $d, $acc, $terms[$k]];
            $acc = $d;
        }
        push @p, ['ldk', "rk$i"], ['xor', "$out$i", $acc, "rk$i"];
    }
    return @p;
}

# AddRoundKey of planes "$in<i>" into "$out<i>".
sub ark_prog {
    my ($in, $out) = @_;
    return map { (['ldk', "rk$_"], ['xor', "$out$_", "$in$_", "rk$_"]) } 0 .. 7;
}

# Register allocation, in q0-q15 and nowhere else: there is no spill
# code; a program that would need a seventeenth register stops the build
# (schedule() orders every round within sixteen, and this checks it
# again). Values of "$in<i>" start in $inperm->[i]; "$out<i>" end in
# $outperm->[i] when it is given (a cycle goes through a free register),
# else where they are made. Returns the code and the output registers.
sub allocate {
    my ($prog, $in, $out, $inperm, $outperm) = @_;
    my @outputs = map { "$out$_" } 0 .. 7;
    my %target;
    if ($outperm) { $target{ $outputs[$_] } = $outperm->[$_] for 0 .. 7; }
    my %reserved = map { $_ => 1 } values %target;
    my $n = @$prog;
    my %uses;
    for my $i (0 .. $n - 1) {
        my (undef, undef, @s) = @{ $prog->[$i] };
        push @{ $uses{$_} }, $i for @s;
    }
    push @{ $uses{$_} }, $n for @outputs;
    my (%reg, @holder);
    my @freed = (0) x 16;
    my $clock = 1;
    for my $i (0 .. 7) { my $q = $inperm->[$i]; $reg{"$in$i"} = $q; $holder[$q] = "$in$i"; }
    my $last_use = sub { my ($v) = @_; return $uses{$v} ? $uses{$v}[-1] : -1 };
    # Every instruction is recorded with the registers it writes and
    # reads, so that the slot scheduler can reorder them afterwards.
    my @ops;
    my $emit = sub {
        my ($text, $w, $r) = @_;
        push @ops, { text => $text, w => $w, r => $r, simd => $text =~ /^v/ ? 1 : 0, short => 0 };
    };
    my $get_reg = sub {
        my ($pos, $want) = @_;
        # An output's own register when it is free; otherwise the free
        # register released longest ago (reusing a register soon would tie
        # the scheduler's hands: it keeps every reuse after the last read),
        # the outputs' registers last.
        my @free = grep { !defined $holder[$_] } 0 .. 15;
        die "allocator: all sixteen q registers are live at operation $pos"
            . " (this kernel has no spill code)\n" unless @free;
        return $want if defined $want && grep { $_ == $want } @free;
        my ($f) = sort { ($reserved{$a} // 0) <=> ($reserved{$b} // 0)
                         || $freed[$a] <=> $freed[$b] || $a <=> $b } @free;
        return $f;
    };
    my $release = sub {
        my ($v) = @_;
        if (exists $reg{$v}) {
            $freed[ $reg{$v} ] = $clock++;
            $holder[ $reg{$v} ] = undef;
            delete $reg{$v};
        }
    };
    for my $i (0 .. $n - 1) {
        my ($op, $d, @s) = @{ $prog->[$i] };
        for my $v (@s) {
            die "allocator: '$v' used before it is defined\n" unless exists $reg{$v};
        }
        my @src = map { $reg{$_} } @s;
        my %srcs = map { $_ => 1 } @s;
        my @dying = grep { $last_use->($_) == $i } sort keys %srcs;
        my $q;
        if ($op =~ /^rr(c\d|2c)$/) {     # VTBL: the index in the destination
            $q = $get_reg->($i);
            $release->($_) for @dying;
        } else {
            $release->($_) for @dying;
            $q = $get_reg->($i, $target{$d});
        }
        $reg{$d} = $q;
        $holder[$q] = $d;
        my @sq = map { "q$_" } @src;
        if ($op eq 'xor') {
            $emit->("veor    q$q, q$src[0], q$src[1]", ["q$q"], \@sq);
        } elsif ($op eq 'and') {
            $emit->("vand    q$q, q$src[0], q$src[1]", ["q$q"], \@sq);
        } elsif ($op =~ /^rr(c\d|2c)$/) {
            # A byte permutation by VTBL: the index vector loaded into the
            # destination, then each half looked up in one d half of the
            # source (the permutation keeps d halves together, or swaps
            # them) or in both (a 2-register table).
            my ($dl, $dh, $sl, $sh) = (2 * $q, 2 * $q + 1, 2 * $src[0], 2 * $src[0] + 1);
            my ($ptr, $two, $swap) = $op eq 'rr2c' ? ('r11', 0, 1)
                                   : ('r4', $op =~ /[13]$/ ? 1 : 0, $op eq 'rrc2');
            ($sl, $sh) = ($sh, $sl) if $swap;
            $emit->("vld1.64 {d$dl-d$dh}, [$ptr]", ["q$q"], [$ptr]);
            for my $h ([$dl, $sl], [$dh, $sh]) {
                my $tbl = $two ? "{d" . (2 * $src[0]) . "-d" . (2 * $src[0] + 1) . "}"
                               : "{d$h->[1]}";
                $emit->("vtbl.8  d$h->[0], $tbl, d$h->[0]", ["q$q"], ["q$q", @sq]);
            }
        } elsif ($op eq 'rr2') {
            $emit->("vrev32.16 q$q, q$src[0]", ["q$q"], \@sq);
        } elsif ($op eq 'ldk') {
            $emit->("vld1.64 {d" . (2 * $q) . "-d" . (2 * $q + 1) . "}, [r12]!", ["q$q", 'r12'], ['r12']);
        } else {
            die "allocator: unknown op $op\n";
        }
        $release->($d) if $last_use->($d) < 0 && !grep { $_ eq $d } @outputs;
    }
    return (\@ops, [ map { $reg{$_} } @outputs ]) unless $outperm;
    my @pending = grep { $reg{ $outputs[$_] } != $outperm->[$_] } 0 .. 7;
    while (@pending) {
        my $moved = 0;
        for my $i (@pending) {
            my $t = $outperm->[$i];
            next if defined $holder[$t];
            my $v = $outputs[$i];
            $emit->("vmov    q$t, q$reg{$v}", ["q$t"], ["q$reg{$v}"]);
            $holder[ $reg{$v} ] = undef;
            $reg{$v} = $t;
            $holder[$t] = $v;
            $moved = 1;
        }
        @pending = grep { $reg{ $outputs[$_] } != $outperm->[$_] } @pending;
        next if $moved || !@pending;
        my $t = $outperm->[ $pending[0] ];
        my $w = $holder[$t];
        my ($free) = grep { !defined $holder[$_] } 0 .. 15;
        $emit->("vmov    q$free, q$t", ["q$free"], ["q$t"]);
        $holder[$free] = $w;
        $reg{$w} = $free;
        $holder[$t] = undef;
    }
    return (\@ops, $outperm);
}

# The registers an operation needs beside those of the values live before
# it, as allocate() takes them: a VTBL permutation's destination is a new
# register (the index is loaded into it while the source lives), every
# other result may take the register of a source whose life it ends.
sub regs_after {
    my ($live, $op, $dying) = @_;
    return $op =~ /^rr(c\d|2c)$/ ? $live + 1 : $live - $dying + 1;
}

# The most registers a program needs in the order given, from the values
# live at its start (%$live0, value => 1) and the uses left of each value
# (%$left; a value without uses, a round output, lives to the end).
sub pressure {
    my ($prog, $live0, $left) = @_;
    my %left = %$left;
    my $live = keys %$live0;
    my $peak = $live;
    for my $o (@$prog) {
        my ($op, undef, @s) = @$o;
        my %u;
        $u{$_}++ for @s;
        my $dying = grep { $left{$_} == $u{$_} } keys %u;
        my $need = regs_after($live, $op, $dying);
        $peak = $need if $need > $peak;
        $left{$_} -= $u{$_} for keys %u;
        $live += 1 - $dying;
    }
    return $peak;
}

# Reorders a program (a valid topological order that needs at most 16
# registers) for parallelism without ever needing more than 16: among the
# operations whose inputs exist, the one with the greatest height (the
# longest chain of operations that depend on it, to the round's end) goes
# first, the earliest on a tie; but only if the operations left, in their
# given order, still fit in the sixteen registers after it (the given
# order is the fallback, so the search never gets stuck). (Adding the
# lives an operation ends to its height, as the order did when the rounds
# spilled, models 3% slower on the Cortex-A9 here.) The key-plane loads
# keep their order (they post-increment r12).
sub schedule {
    my (@prog) = @_;
    my (%def, @h, %remaining);
    for my $i (0 .. $#prog) {
        my (undef, $d, @s) = @{ $prog[$i] };
        $def{$d} = $i;
        $remaining{$_}++ for @s;
    }
    for my $i (reverse 0 .. $#prog) {
        my (undef, undef, @s) = @{ $prog[$i] };
        $h[$i] //= 0;
        for my $v (grep { exists $def{$_} } @s) {
            $h[ $def{$v} ] = $h[$i] + 1 if ($h[ $def{$v} ] // 0) < $h[$i] + 1;
        }
    }
    my %defined = map { $_ => 1 } grep { !exists $def{$_} } keys %remaining;
    my %live = %defined;
    die "schedule: the given order needs more than 16 registers\n"
        if pressure(\@prog, \%live, \%remaining) > 16;
    my @todo = (0 .. $#prog);
    my @out;
    while (@todo) {
        my @cand;
        my $seen_ldk = 0;
        for my $k (0 .. $#todo) {
            my ($op, undef, @s) = @{ $prog[ $todo[$k] ] };
            if ($op eq 'ldk') { next if $seen_ldk++; }
            next if grep { !$defined{$_} } @s;
            push @cand, [$k, $h[ $todo[$k] ]];
        }
        # The highest first, the earliest on a tie (a stable sort).
        @cand = sort { $b->[1] <=> $a->[1] } @cand;
        my $pick;
        for my $c (@cand) {
            my $k = $c->[0];
            # This operation, then the rest in the given order.
            my @rest = map { $prog[$_] } @todo[ grep { $_ != $k } 0 .. $#todo ];
            next if pressure([ $prog[ $todo[$k] ], @rest ], \%live, \%remaining) > 16;
            $pick = $k;
            last;
        }
        die "schedule: no operation fits in 16 registers\n" unless defined $pick;
        my ($best) = splice @todo, $pick, 1;
        my (undef, $d, @s) = @{ $prog[$best] };
        $remaining{$_}-- for @s;
        delete $live{$_} for grep { $remaining{$_} == 0 } @s;
        $defined{$d} = 1;
        $live{$d} = 1;
        push @out, $prog[$best];
    }
    return @out;
}

# The code of one round's program, its input planes in the registers
# @$inperm, its outputs in @$outperm (or where the allocator leaves them
# without $outperm); returns the code and the output registers.
sub round_code {
    my ($inperm, $outperm, @prog) = @_;
    @prog = schedule(@prog);
    my ($ops, $perm) = allocate(\@prog, 'p', 'o', $inperm, $outperm);
    # One NEON instruction per slot (an issue cycle), a result read three
    # slots after it is made (the Cortex-A9's NEON latency).
    return (perlasm::slot_scheduler::schedule(units => [], ops => $ops, vcap => 1,
        cap => 2, gap => 3, group => 1), $perm);
}

# Moves of eight planes from the registers @$from to @$to (every other q
# register free): a cycle goes through a free register.
sub perm_moves {
    my ($from, $to) = @_;
    my @at = @$from;
    my $c = '';
    my %busy = map { $_ => 1 } @at;
    my @pending = grep { $at[$_] != $to->[$_] } 0 .. 7;
    while (@pending) {
        my $moved = 0;
        for my $i (@pending) {
            next if $busy{ $to->[$i] };
            $c .= "    vmov    q$to->[$i], q$at[$i]\n";
            delete $busy{ $at[$i] };
            $busy{ $at[$i] = $to->[$i] } = 1;
            $moved = 1;
        }
        @pending = grep { $at[$_] != $to->[$_] } @pending;
        next if $moved || !@pending;
        my ($free) = grep { !$busy{$_} } 0 .. 15;
        my $i = $pending[0];
        $c .= "    vmov    q$free, q$at[$i]\n";
        delete $busy{ $at[$i] };
        $busy{ $at[$i] = $free } = 1;
    }
    return $c;
}

# One full round j: SubBytes, MixColumns, AddRoundKey; r4 points to the
# VTBL index of the round's row rotation (.Lbsaes_perm + 16, 32 or 48).
sub full_round {
    my ($j, $inperm, $outperm) = @_;
    my $off = 16 * (1 + ($j % 2 ? ($j % 4 + 1) / 2 : 0));
    my ($c, $perm) = round_code($inperm, $outperm,
        sbox_prog('p', 'sb', "s_"), mix_ark_prog('sb', 'o', $j));
    return ("    add     r4, r11, $off\n" . $c, $perm);
}

# The 8x8 bit transposition of q0-q7 in every byte position. One SWAPMOVE
# of (a, b) by n bits under the mask m (q8), whose complement is m << n:
#     b = (b & ~m) | ((a >> n) & m),  a = (a & m) | ((b << n) & ~m)
# (VSHR.U64, VSHL.U64, VBIT, VBIF), two pairs at a time so that no result
# is read by the next instruction; for n = 4 the shift-and-insert
# instructions do the masking (three instructions a pair, no mask).
sub transpose {
    my $c = '';
    for my $stage ([0x55, 1, [0, 1], [2, 3], [4, 5], [6, 7]],
                   [0x33, 2, [0, 2], [1, 3], [4, 6], [5, 7]],
                   [0x0f, 4, [0, 4], [1, 5], [2, 6], [3, 7]]) {
        my ($m, $n, @pairs) = @$stage;
        if ($n == 4) {
            # Nibbles: b = (b & 0xf0) | (a >> 4) is VSRI.8 and
            # a = (a & 0x0f) | (b << 4) VSLI.8, from a copy of a.
            while (my @two = splice @pairs, 0, 2) {
                $c .= "    vmov    q" . (9 + 2 * $_) . ", q$two[$_][0]\n" for 0, 1;
                $c .= "    vsli.8  q$two[$_][0], q$two[$_][1], 4\n" for 0, 1;
                $c .= "    vsri.8  q$two[$_][1], q" . (9 + 2 * $_) . ", 4\n" for 0, 1;
            }
            next;
        }
        $c .= sprintf("    vmov.i8 q8, 0x%02x\n", $m);
        while (my @two = splice @pairs, 0, 2) {
            my @t = ([9, 10], [11, 12]);
            for my $k (0, 1) {
                my ($a, $b) = @{ $two[$k] };
                $c .= "    vshr.u64 q$t[$k][0], q$a, $n\n    vshl.u64 q$t[$k][1], q$b, $n\n";
            }
            for my $k (0, 1) {
                my ($a, $b) = @{ $two[$k] };
                $c .= "    vbit    q$b, q$t[$k][0], q8\n    vbif    q$a, q$t[$k][1], q8\n";
            }
        }
    }
    return $c;
}

# Counter blocks into q0-q7: their last words (rev(r6 + b)) stored into
# the frame's eight copies of the caller's counter block (the whole frame,
# from sp), then the eight blocks loaded (no NEON arithmetic: on
# Swift-class cores the NEON ALU pipe is the bottleneck, the load pipe is
# not).
sub counters {
    my $c = '';
    for my $b (0 .. 7) {
        $c .= $b ? "    add     r7, r6, $b\n" : "    mov     r7, r6\n";
        $c .= "    rev     r7, r7\n    str     r7, [sp, " . (16 * $b + 12) . "]\n";
    }
    $c .= "    add     r6, r6, 8\n    mov     r10, sp\n";
    $c .= "    vld1.8  {d" . (4 * $_) . "-d" . (4 * $_ + 3) . "}, [r10]!\n" for 0 .. 3;
    return $c;
}

# The planes stay where a round's allocation leaves them: rounds 1, 2 and
# 3 of the loop start from the registers the previous one ended in, round
# 0 (the loop's last) ends in q0-q7, where the loop starts. The last round
# starts from round 1's registers (the exit for AES-128 and AES-256); the
# other exits move the planes there first.
my @id = (0 .. 7);
my ($round1, $p1) = full_round(1, \@id);
my ($round2, $p2) = full_round(2, $p1);
my ($round3, $p3) = full_round(3, $p2);
my ($round0) = full_round(0, $p3, \@id);
my ($last) = round_code($p1, \@id, sbox_prog('p', 'sb', "s_"), ark_prog('sb', 'o'));
my ($first_ark) = round_code(\@id, \@id, ark_prog('p', 'o'));
my %fix = (2 => perm_moves($p2, $p1), 3 => perm_moves($p3, $p1), 0 => perm_moves(\@id, $p1));
my $frame = 128;          # the frame: the eight counter blocks only

my $wipe = "    vmov.i8 q8, 0\n";
for my $s (0 .. 7) {
    $wipe .= "    vstr    d16, [sp, " . (16 * $s) . "]\n    vstr    d17, [sp, " . (16 * $s + 8) . "]\n";
}

my $code = <<___;
.arch armv7-a
.fpu neon

.rodata
.align 4
# VTBL indices of MixColumns' byte permutations (byte 4c + r of a plane is
# row r of column c): (c, r) <- (c + 2, r + 2), halves swapped; then
# (c, r) <- (c + j, r + 1) for j = 0 or 2 (halves kept or swapped), 1, 3.
.Lbsaes_perm:
.byte 2, 3, 0, 1, 6, 7, 4, 5, 2, 3, 0, 1, 6, 7, 4, 5
.byte 1, 2, 3, 0, 5, 6, 7, 4, 1, 2, 3, 0, 5, 6, 7, 4
.byte 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0
.byte 13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8

.text
.function gcmi_aes_armv4_bsaes_neon_ctr32 args=5 frame=$frame public=r0,r1,r2,r3,r4,r5,r8,r10,r11,r12
    cmp     r3, 0
    beq     .Lctr_done
    adrl    r11, .Lbsaes_perm
    ldr     r5, [r0, $ROUNDS]      # public: Nr follows from the key length
    vld1.8  {d16-d17}, [r4]
    mov     r10, sp
@{[join '', map { "    vst1.8  {d16-d17}, [r10]!\n" } 0 .. 7]}    ldr     r6, [r4, 12]
    rev     r6, r6

.Lctr_pass:
@{[counters()]}
@{[transpose()]}
    add     r12, r0, $PLANES        # the planes of round key 0
$first_ark
    sub     r8, r5, 1
.Lctr_rounds:
$round1
    subs    r8, r8, 1
    beq     .Lctr_last
$round2
    subs    r8, r8, 1
    beq     .Lctr_fix2
$round3
    subs    r8, r8, 1
    beq     .Lctr_fix3
$round0
    subs    r8, r8, 1
    bne     .Lctr_rounds
$fix{0}    b       .Lctr_last
.Lctr_fix2:
$fix{2}    b       .Lctr_last
.Lctr_fix3:
$fix{3}.Lctr_last:
$last
    tst     r5, 2
    beq     .Lctr_unpack
    # Nr = 10 or 14: SR^2, rows 1 and 3 take the bytes two columns on.
    vmov.i16 q8, 0xff00
@{[join '', map { "    vext.8  q9, q$_, q$_, 8\n    vbit    q$_, q9, q8\n" } 0 .. 7]}
.Lctr_unpack:
@{[transpose()]}
    cmp     r3, 8
    blo     .Lctr_tail
    vld1.8  {d16-d19}, [r2]!
    vld1.8  {d20-d23}, [r2]!
    vld1.8  {d24-d27}, [r2]!
    vld1.8  {d28-d31}, [r2]!
@{[join '', map { "    veor    q$_, q$_, q" . ($_ + 8) . "\n" } 0 .. 7]}
    vst1.8  {d0-d3}, [r1]!
    vst1.8  {d4-d7}, [r1]!
    vst1.8  {d8-d11}, [r1]!
    vst1.8  {d12-d15}, [r1]!
    subs    r3, r3, 8
    bne     .Lctr_pass
    b       .Lctr_wipe

.Lctr_tail:
@{[join '', map { "    vld1.8  {d16-d17}, [r2]!\n    veor    q8, q8, q$_\n    vst1.8  {d16-d17}, [r1]!\n    subs    r3, r3, 1\n    beq     .Lctr_wipe\n" } 0 .. 6]}
.Lctr_wipe:
$wipe
.Lctr_done:
.endfunction
___

perlasm::driver::finish('armv4', $code);
