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
#   - SubBytes is Boyar and Peralta's 113-gate circuit (81 XOR, 32 AND;
#     the four XNORs of the affine constant 0x63 are folded into round
#     keys 1..Nr at key set-up), evaluated on whole planes with VEOR and
#     VAND (sbox_check() runs the gate list on all 256 inputs against the
#     S-box when the .pl runs);
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
#     VSHL.U64 by n, then VBIT and VBIF under m); it is its own inverse, so
#     the same code packs and unpacks.
# The round keys are converted to this form at key set-up (the
# descriptor, in C): round key j is SR^-j(K_j) with 0x63 folded in for
# j >= 1, every byte of plane i 0x00 or 0xff (the bit of the key byte,
# broadcast to the eight blocks), 128 bytes per round key.
#
# The 113 gates need more than the 16 q registers: the circuit is written
# here in single-assignment form (a whole round: S-box, then MixColumns
# output by output, each followed by its AddRoundKey); schedule() reorders
# it (greedily: the operation whose height, the longest chain of
# operations after it, plus the number of lives it ends is the greatest),
# and a small register allocator in this file (allocate(), furthest-next-
# use eviction, a free register taken the longest after it was released)
# places every value in q0-q15, spilling to fixed slots of the stack frame
# (one VST1/VLD1 of a q register at r10 = sp + constant). A round's eight
# outputs stay where the allocator leaves them and the next round starts
# from there: rounds 1, 2 and 3 of the unrolled loop take their inputs
# from the previous round's registers, round 0 (the loop's last) and the
# last round end in q0-q7 (an output gets its register when that is
# free, else a VMOV at the end); the loop's exits after rounds 2, 3 and 0
# move the planes to where round 1 leaves them, where the last round
# starts. perlasm/slot_scheduler.pm then reorders the round's
# instructions, whatever registers they use staying as allocated, so that
# no instruction reads a result made less than three NEON instructions
# earlier where the dependencies allow (the in-order NEON pipeline of the
# Cortex-A9 waits otherwise); the spills keep their order through r10.
# Why the spills stay: the best gate orders a beam search found keep 25
# values live at once; making ten of the bottom AND layer's top-layer
# inputs a second time (one VEOR each from eight kept ones) brings that
# to 17, still not 16, and the ten VEORs and the orders that keep few
# values live cost more on the Swift and A57 models than the spills do
# (the figures are in docs/armv4.md).
# All of it runs when the .pl is translated; the result is fixed code.
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
#              of a spill slot or counter block; r11 .Lbsaes_perm, r4 the
#              round's VTBL index in it (r4 holds ctr only until it is read)
#     r6       counter (host order), r7 temporary
#     frame    [sp, 16*k] spill slots, then eight counter blocks
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# The key, the round keys, the data, the key stream and every spilled
# value are secret; they live only in NEON registers and memory (the spill
# slots, overwritten with zeros before returning; the counter blocks are
# wiped too). The counter (r6, r7) is derived from the nonce, public in
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

# Boyar and Peralta's 113-gate S-box circuit (23 XORs in the top linear
# layer, 32 ANDs and 30 XORs in the middle, 28 gates at the bottom; their
# SLP_AES_113 gate list, here without its four XNORs): u0 is the most
# significant bit (plane 7), u7 the least (plane 0); out<i> is plane i.
# Its middle (from y to z) is that of the 128-gate depth-16 circuit in
# crypto/aes/aes_bitsliced_rounds.h; its top and bottom layers take 15
# gates fewer at a greater depth.
my $SBOX = <<'___';
y14=u3^u5 y13=u0^u6 y9=u0^u3 y8=u0^u5 t0=u1^u2 y1=t0^u7 y4=y1^u3
y12=y13^y14 y2=y1^u0 y5=y1^u6 y3=y5^y8 t1=u4^y12 y15=t1^u5 y20=t1^u1
y6=y15^u7 y10=y15^t0 y11=y20^y9 y7=u7^y11 y17=y10^y11 y19=y10^y8
y16=t0^y11 y21=y13^y16 y18=u0^y16
t2=y12&y15 t3=y3&y6 t4=t3^t2 t5=y4&u7 t6=t5^t2 t7=y13&y16 t8=y5&y1
t9=t8^t7 t10=y2&y7 t11=t10^t7 t12=y9&y11 t13=y14&y17 t14=t13^t12
t15=y8&y10 t16=t15^t12 t17=t4^t14 t18=t6^t16 t19=t9^t14 t20=t11^t16
t21=t17^y20 t22=t18^y19 t23=t19^y21 t24=t20^y18 t25=t21^t22 t26=t21&t23
t27=t24^t26 t28=t25&t27 t29=t28^t22 t30=t23^t24 t31=t22^t26 t32=t31&t30
t33=t32^t24 t34=t23^t33 t35=t27^t33 t36=t24&t35 t37=t36^t34 t38=t27^t36
t39=t29&t38 t40=t25^t39 t41=t40^t37 t42=t29^t33 t43=t29^t40 t44=t33^t37
t45=t42^t41 z0=t44&y15 z1=t37&y6 z2=t33&u7 z3=t43&y16 z4=t40&y1
z5=t29&y7 z6=t42&y11 z7=t45&y17 z8=t41&y10 z9=t44&y12 z10=t37&y3
z11=t33&y4 z12=t43&y13 z13=t40&y5 z14=t29&y2 z15=t42&y9 z16=t45&y14
z17=t41&y8
tc1=z15^z16 tc2=z10^tc1 tc3=z9^tc2 tc4=z0^z2 tc5=z1^z0 tc6=z3^z4
tc7=z12^tc4 tc8=z7^tc6 tc9=z8^tc7 tc10=tc8^tc9 tc11=tc6^tc5 tc12=z3^z5
tc13=z13^tc1 tc14=tc4^tc12 out4=tc3^tc11 tc16=z6^tc8 tc17=z14^tc10
tc18=tc13^tc14 out0=z12^tc18 tc20=z15^tc16 tc21=tc2^z11 out7=tc3^tc16
out1=tc10^tc18 out3=tc14^out4 out6=out4^tc16 tc26=tc17^tc20
out5=tc26^z17 out2=tc21^tc17
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

# Register allocation. Values of "$in<i>" start in q<i>; "$out<i>" end in
# q<i>. Returns the code and the number of spill slots used.
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
    my (%reg, @holder, %slot, @free_slots);
    my @freed = (0) x 16;
    my $clock = 1;
    my $nslots = 0;
    my $code = '';
    for my $i (0 .. 7) { my $q = $inperm->[$i]; $reg{"$in$i"} = $q; $holder[$q] = "$in$i"; }
    my $next_use = sub {
        my ($v, $pos) = @_;
        for my $u (@{ $uses{$v} || [] }) { return $u if $u >= $pos }
        return 1e9;
    };
    my $last_use = sub { my ($v) = @_; return $uses{$v} ? $uses{$v}[-1] : -1 };
    # Every instruction is recorded with the registers it writes and
    # reads, so that sched() can reorder them afterwards; a spill's
    # address goes through r10, which keeps the spills in order.
    my @ops;
    my $emit = sub {
        my ($text, $w, $r) = @_;
        push @ops, { text => $text, w => $w, r => $r, simd => $text =~ /^v/ ? 1 : 0, short => 0 };
    };
    my $store = sub {
        my ($q, $s) = @_;
        my ($lo, $hi) = (2 * $q, 2 * $q + 1);
        $emit->("add     r10, sp, " . (16 * $s), ['r10'], ['sp']);
        $emit->("vst1.64 {d$lo-d$hi}, [r10]", [], ['r10', "q$q"]);
    };
    my $load = sub {
        my ($q, $s) = @_;
        my ($lo, $hi) = (2 * $q, 2 * $q + 1);
        $emit->("add     r10, sp, " . (16 * $s), ['r10'], ['sp']);
        $emit->("vld1.64 {d$lo-d$hi}, [r10]", ["q$q"], ['r10']);
    };
    my $get_reg = sub {
        my ($pos, $protect, $want) = @_;
        # An output's own register when it is free; otherwise the free
        # register released longest ago (reusing a register soon would tie
        # the scheduler's hands: it keeps every reuse after the last read),
        # the outputs' registers last.
        my @free = grep { !defined $holder[$_] } 0 .. 15;
        return $want if defined $want && grep { $_ == $want } @free;
        if (@free) {
            my ($f) = sort { ($reserved{$a} // 0) <=> ($reserved{$b} // 0)
                             || $freed[$a] <=> $freed[$b] || $a <=> $b } @free;
            return $f;
        }
        my ($best, $bestd);
        for my $q (0 .. 15) {
            my $v = $holder[$q];
            next if $protect->{$v};
            my $d = $next_use->($v, $pos);
            $d += 0.5 if exists $slot{$v};    # a clean copy: no store needed
            if (!defined $best || $d > $bestd) { ($best, $bestd) = ($q, $d); }
        }
        die "allocator: nothing to evict at $pos\n" unless defined $best;
        my $v = $holder[$best];
        unless (exists $slot{$v}) {
            $slot{$v} = @free_slots ? shift @free_slots : $nslots++;
            $store->($best, $slot{$v});
        }
        delete $reg{$v};
        $holder[$best] = undef;
        return $best;
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
        my %protect = map { $_ => 1 } @s;
        for my $v (@s) {
            next if exists $reg{$v};
            die "allocator: '$v' used before it is defined\n" unless exists $slot{$v};
            my $q = $get_reg->($i, \%protect);
            $load->($q, $slot{$v});
            $reg{$v} = $q;
            $holder[$q] = $v;
        }
        my @src = map { $reg{$_} } @s;
        my @dying = grep { $last_use->($_) == $i } sort keys %protect;
        my $q;
        if ($op =~ /^rr(c\d|2c)$/) {     # VTBL: the index in the destination
            $q = $get_reg->($i, \%protect);
            $release->($_) for @dying;
        } else {
            $release->($_) for @dying;
            my %keep = %protect;
            delete $keep{$_} for @dying;
            $q = $get_reg->($i, \%keep, $target{$d});
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
        for my $v (@dying) {
            push @free_slots, delete $slot{$v} if exists $slot{$v};
        }
        $release->($d) if $last_use->($d) < 0 && !grep { $_ eq $d } @outputs;
    }
    # Without $outperm the outputs stay where they are (a spilled one is
    # loaded into a free register) and their registers are returned.
    # Otherwise they go to $outperm: registers first (a cycle goes through
    # a free register), then the spilled ones.
    if (!$outperm) {
        for my $v (@outputs) {
            next if exists $reg{$v};
            my $q = $get_reg->($n, { map { $_ => 1 } @outputs });
            $load->($q, $slot{$v});
            $reg{$v} = $q;
            $holder[$q] = $v;
        }
        return (\@ops, $nslots, [ map { $reg{$_} } @outputs ]);
    }
    my @pending = grep { exists $reg{ $outputs[$_] } && $reg{ $outputs[$_] } != $outperm->[$_] } 0 .. 7;
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
    for my $i (0 .. 7) {
        my ($v, $t) = ($outputs[$i], $outperm->[$i]);
        next if exists $reg{$v};
        die "allocator: output '$v' is lost\n" unless exists $slot{$v};
        die "allocator: q$t is busy\n" if defined $holder[$t];
        $load->($t, $slot{$v});
    }
    return (\@ops, $nslots, $outperm);
    return (\@ops, $nslots);
}

# Reorders a program (a valid topological order) for both parallelism and
# few live values: among the operations whose inputs exist, the one with
# the greatest score goes first (the earliest on a tie), its score being
# its height (the longest chain of operations that depend on it, to the
# round's end) plus the number of values whose lives it ends. Height alone
# keeps more values live than the 16 registers hold (spills); the lives
# alone make a round one long chain (the cores wait for results). The
# key-plane loads keep their order (they post-increment r12).
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
    my @todo = (0 .. $#prog);
    my @out;
    while (@todo) {
        my ($best, $bestk, $bests);
        my $seen_ldk = 0;
        for my $k (0 .. $#todo) {
            my ($op, undef, @s) = @{ $prog[ $todo[$k] ] };
            if ($op eq 'ldk') { next if $seen_ldk++; }
            next if grep { !$defined{$_} } @s;
            my %u;
            $u{$_}++ for @s;
            my $score = $h[ $todo[$k] ] + grep { $remaining{$_} == $u{$_} } keys %u;
            ($best, $bestk, $bests) = ($todo[$k], $k, $score) if !defined $best || $score > $bests;
        }
        splice @todo, $bestk, 1;
        my (undef, $d, @s) = @{ $prog[$best] };
        $remaining{$_}-- for @s;
        $defined{$d} = 1;
        push @out, $prog[$best];
    }
    return @out;
}

my $max_slots = 0;
# The code of one round's program, its input planes in the registers
# @$inperm, its outputs in @$outperm (or where the allocator leaves them
# without $outperm); returns the code and the output registers.
sub round_code {
    my ($inperm, $outperm, @prog) = @_;
    @prog = schedule(@prog) if $ENV{BSAES_SCHED} // 1;
    my ($ops, $ns, $perm) = allocate(\@prog, 'p', 'o', $inperm, $outperm);
    $max_slots = $ns if $ns > $max_slots;
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
# is read by the next instruction.
sub transpose {
    my $c = '';
    for my $stage ([0x55, 1, [0, 1], [2, 3], [4, 5], [6, 7]],
                   [0x33, 2, [0, 2], [1, 3], [4, 6], [5, 7]],
                   [0x0f, 4, [0, 4], [1, 5], [2, 6], [3, 7]]) {
        my ($m, $n, @pairs) = @$stage;
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
# the frame's eight copies of the caller's counter block, then the eight
# blocks loaded (no NEON arithmetic: on Swift-class cores the NEON ALU pipe
# is the bottleneck, the load pipe is not).
sub counters {
    my ($ctr_off) = @_;
    my $c = '';
    for my $b (0 .. 7) {
        $c .= $b ? "    add     r7, r6, $b\n" : "    mov     r7, r6\n";
        $c .= "    rev     r7, r7\n    str     r7, [sp, " . ($ctr_off + 16 * $b + 12) . "]\n";
    }
    $c .= "    add     r6, r6, 8\n    add     r10, sp, $ctr_off\n";
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
my $ctr_off = 16 * $max_slots;
my $frame = $ctr_off + 128;

my $wipe = "    vmov.i8 q8, 0\n";
for my $s (0 .. $max_slots + 7) {
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
    add     r10, sp, $ctr_off
@{[join '', map { "    vst1.8  {d16-d17}, [r10]!\n" } 0 .. 7]}    ldr     r6, [r4, 12]
    rev     r6, r6

.Lctr_pass:
@{[counters($ctr_off)]}
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
