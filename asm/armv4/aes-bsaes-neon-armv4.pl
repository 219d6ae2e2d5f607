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
#   - SubBytes is the Boyar-Peralta circuit (113 gates; the four XNORs of
#     the affine constant 0x63 are folded into round keys 1..Nr at key
#     set-up), evaluated on whole planes with VEOR and VAND;
#   - ShiftRows is never executed ("fixslicing"): after round j the stored
#     state is SR^-j of the true one and MixColumns of round j uses "next
#     row, j columns further": per plane
#         r = rot_cols(rot_rows1(x), j),  t = x ^ r,
#         out = xtime(t) ^ r ^ rot_cols(rot_rows2(t), 2j),
#     with xtime a renaming of planes plus three XORs with plane 7;
#     rot_rows1 is a rotation of every 32-bit lane by 8 bits (VSHR.U32 +
#     VSLI.32), rot_rows2 by 16 (VREV32.16), rot_cols(x, n) a rotation of
#     the register by 4n bytes (VEXT.8); after the last round SR^Nr
#     (identity for Nr = 12, SR^2 for 10 and 14: rows 1 and 3 take the
#     bytes two columns on, VEXT.8 + VBIT with a row mask) restores it;
#   - blocks enter and leave the planes by an 8x8 bit transposition in
#     every byte position (three SWAPMOVE stages of four pairs: VSHR.U64,
#     VEOR, VAND with a 0x55/0x33/0x0f byte mask, VEOR, VSHL.U64, VEOR);
#     it is its own inverse, so the same code packs and unpacks.
# The round keys are converted to this form at key set-up (the
# descriptor, in C): round key j is SR^-j(K_j) with 0x63 folded in for
# j >= 1, every byte of plane i 0x00 or 0xff (the bit of the key byte,
# broadcast to the eight blocks), 128 bytes per round key.
#
# The 113 gates need more than the 16 q registers: the circuit is written
# here in single-assignment form (a whole round: S-box, then MixColumns
# output by output, each followed by its AddRoundKey); schedule() reorders
# it to keep fewer values live (greedily, the operation that ends the most
# lives first), and a small register allocator in this file (allocate(),
# furthest-next-use eviction, a free register taken the longest after it
# was released) places every value in q0-q15, spilling to fixed slots of
# the stack frame (one VST1/VLD1 of a q register at r10 = sp + constant)
# and finally moving the round's eight outputs back into q0-q7, where
# every round starts. perlasm/slot_scheduler.pm then reorders the round's
# instructions, whatever registers they use staying as allocated, so that
# no instruction reads a result made less than three NEON instructions
# earlier where the dependencies allow (the in-order NEON pipeline of the
# Cortex-A9 waits otherwise); the spills keep their order through r10.
# All of it runs when the .pl is translated; the result is fixed code.
#
# Counter mode (ctr32): eight counter blocks per pass; the 32-bit
# big-endian counter word is kept byte-reversed in r6 (host order): block
# b takes rev(c + b) in its last word (VMOV.32 into lane 1 of its high d
# half), the other 12 bytes come from the caller's counter block (kept in
# the frame), so the counter wraps modulo 2^32 without carrying into byte
# 11. A pass makes eight blocks of key stream; a last pass of 1..7 blocks
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
#     q0-q7    the eight planes (between rounds plane i in q<i>); before
#              packing and after unpacking, block b in q<b>
#     q8-q15   the allocator's temporaries in a round; the transposition's
#              mask (q8) and temporary (q9); the input blocks
#     r5       Nr; r8 rounds left; r12 round-key pointer; r10 the address
#              of a spill slot
#     r6       counter (host order), r7 temporary
#     frame    [sp, 16*k] spill slots, then the caller's counter block
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# The key, the round keys, the data, the key stream and every spilled
# value are secret; they live only in NEON registers and memory (the spill
# slots, overwritten with zeros before returning). The counter (r6, r7) is
# derived from the nonce, public in GCM, but is not declared public: it
# only feeds REV, ADD and VMOV into NEON. Every address is an argument
# pointer (r0-r2, r4), the round-key pointer r12, sp plus a constant or r10
# (sp plus a constant);
# every branch depends on Nr or the block count. Nr is loaded from the
# schedule under a `# public:` annotation: it follows from the key length,
# which is public. The whole AES is AND/XOR, shifts, VEXT/VREV by constant
# amounts: no table, no data-dependent timing. The secret-register check
# (perlasm/ctcheck_arm.pm) proves the rest from the public= lists.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::layout;    # $ROUNDS, $PLANES and the other C structure offsets
use perlasm::slot_scheduler;

# The Boyar-Peralta S-box circuit without its XNORs (the same gates as
# sub_bytes() in crypto/aes/aes_bitsliced_rounds.h): u0 is the most
# significant bit (plane 7), u7 the least (plane 0); out<i> is plane i.
my $SBOX = <<'___';
t1=u0^u3 t2=u0^u5 t3=u0^u6 t4=u3^u5 t5=u4^u6 t6=t1^t5 t7=u1^u2 t8=u7^t6
t9=u7^t7 t10=t6^t7 t11=u1^u5 t12=u2^u5 t13=t3^t4 t14=t6^t11 t15=t5^t11
t16=t5^t12 t17=t9^t16 t18=u3^u7 t19=t7^t18 t20=t1^t19 t21=u6^u7
t22=t7^t21 t23=t2^t22 t24=t2^t10 t25=t20^t17 t26=t3^t16 t27=t1^t12
m1=t13&t6 m2=t23&t8 m3=t14^m1 m4=t19&u7 m5=m4^m1 m6=t3&t16 m7=t22&t9
m8=t26^m6 m9=t20&t17 m10=m9^m6 m11=t1&t15 m12=t4&t27 m13=m12^m11
m14=t2&t10 m15=m14^m11 m16=m3^m2 m17=m5^t24 m18=m8^m7 m19=m10^m15
m20=m16^m13 m21=m17^m15 m22=m18^m13 m23=m19^t25 m24=m22^m23 m25=m22&m20
m26=m21^m25 m27=m20^m21 m28=m23^m25 m29=m28&m27 m30=m26&m24 m31=m20&m23
m32=m27&m31 m33=m27^m25 m34=m21&m22 m35=m24&m34 m36=m24^m25 m37=m21^m29
m38=m32^m33 m39=m23^m30 m40=m35^m36 m41=m38^m40 m42=m37^m39 m43=m37^m38
m44=m39^m40 m45=m42^m41 m46=m44&t6 m47=m40&t8 m48=m39&u7 m49=m43&t16
m50=m38&t9 m51=m37&t17 m52=m42&t15 m53=m45&t27 m54=m41&t10 m55=m44&t13
m56=m40&t23 m57=m39&t19 m58=m43&t3 m59=m38&t22 m60=m37&t20 m61=m42&t1
m62=m45&t4 m63=m41&t2 l0=m61^m62 l1=m50^m56 l2=m46^m48 l3=m47^m55
l4=m54^m58 l5=m49^m61 l6=m62^l5 l7=m46^l3 l8=m51^m59 l9=m52^m53
l10=m53^l4 l11=m60^l2 l12=m48^m51 l13=m50^l0 l14=m52^m61 l15=m55^l1
l16=m56^l0 l17=m57^l1 l18=m58^l8 l19=m63^l4 l20=l0^l1 l21=l1^l7
l22=l3^l12 l23=l18^l2 l24=l15^l9 l25=l6^l10 l26=l7^l9 l27=l8^l10
l28=l11^l14 l29=l11^l17
out7=l6^l24 out6=l16^l26 out5=l19^l28 out4=l6^l21 out3=l20^l22
out2=l25^l29 out1=l13^l27 out0=l6^l23
___

# Single-assignment programs: [op, dst, src...] with op one of xor, and,
# rr1 (rot_rows1), rr2 (rot_rows2), rc1/rc2/rc3 (rot_cols by 1..3), ldk
# (the next round-key plane, from r12 with post-increment).

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
        if ($j % 4) {
            push @p, ['rr1', "mx_a$i", "$in$i"], ['rc' . ($j % 4), "mx_r$i", "mx_a$i"];
        } else {
            push @p, ['rr1', "mx_r$i", "$in$i"];
        }
        push @p, ['xor', "mx_t$i", "$in$i", "mx_r$i"];
    };
    # out_i = xtime(t)_i ^ r_i ^ rot2(t)_i; t7 feeds planes 0, 1, 3, 4.
    my %xt = (0 => ['mx_t7'], 1 => ['mx_t0', 'mx_t7'], 2 => ['mx_t1'],
              3 => ['mx_t2', 'mx_t7'], 4 => ['mx_t3', 'mx_t7'], 5 => ['mx_t4'],
              6 => ['mx_t5'], 7 => ['mx_t6']);
    $rt->(7);
    for my $i (0 .. 7) {
        $rt->($i) if $i < 7;
        push @p, ['rr2', "mx_b$i", "mx_t$i"];
        my $rot2 = "mx_b$i";
        if ($j % 2) {
            push @p, ['rc2', "mx_c$i", "mx_b$i"];
            $rot2 = "mx_c$i";
        }
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
    my ($prog, $in, $out) = @_;
    my @outputs = map { "$out$_" } 0 .. 7;
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
    for my $q (0 .. 7) { $reg{"$in$q"} = $q; $holder[$q] = "$in$q"; }
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
        my ($pos, $protect) = @_;
        # The free register released longest ago: reusing a register soon
        # would tie the scheduler's hands (sched() keeps every reuse after
        # the last read).
        my @free = grep { !defined $holder[$_] } 0 .. 15;
        if (@free) {
            my ($f) = sort { $freed[$a] <=> $freed[$b] || $a <=> $b } @free;
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
        if ($op eq 'rr1') {         # VSLI reads its destination: no alias
            $q = $get_reg->($i, \%protect);
            $release->($_) for @dying;
        } else {
            $release->($_) for @dying;
            my %keep = %protect;
            delete $keep{$_} for @dying;
            $q = $get_reg->($i, \%keep);
        }
        $reg{$d} = $q;
        $holder[$q] = $d;
        my @sq = map { "q$_" } @src;
        if ($op eq 'xor') {
            $emit->("veor    q$q, q$src[0], q$src[1]", ["q$q"], \@sq);
        } elsif ($op eq 'and') {
            $emit->("vand    q$q, q$src[0], q$src[1]", ["q$q"], \@sq);
        } elsif ($op eq 'rr1') {
            $emit->("vshr.u32 q$q, q$src[0], 8", ["q$q"], \@sq);
            $emit->("vsli.32 q$q, q$src[0], 24", ["q$q"], ["q$q", @sq]);
        } elsif ($op eq 'rr2') {
            $emit->("vrev32.16 q$q, q$src[0]", ["q$q"], \@sq);
        } elsif ($op =~ /^rc([123])$/) {
            $emit->("vext.8  q$q, q$src[0], q$src[0], " . (4 * $1), ["q$q"], \@sq);
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
    # The outputs into q0-q7: registers first (a cycle goes through a free
    # register), then the spilled ones.
    my @pending = grep { exists $reg{ $outputs[$_] } && $reg{ $outputs[$_] } != $_ } 0 .. 7;
    while (@pending) {
        my $moved = 0;
        for my $t (@pending) {
            next if defined $holder[$t];
            my $v = $outputs[$t];
            $emit->("vmov    q$t, q$reg{$v}", ["q$t"], ["q$reg{$v}"]);
            $holder[ $reg{$v} ] = undef;
            $reg{$v} = $t;
            $holder[$t] = $v;
            $moved = 1;
        }
        @pending = grep { $reg{ $outputs[$_] } != $_ } @pending;
        next if $moved || !@pending;
        my $t = $pending[0];
        my $w = $holder[$t];
        my ($free) = grep { !defined $holder[$_] } 0 .. 15;
        $emit->("vmov    q$free, q$t", ["q$free"], ["q$t"]);
        $holder[$free] = $w;
        $reg{$w} = $free;
        $holder[$t] = undef;
    }
    for my $t (0 .. 7) {
        my $v = $outputs[$t];
        next if exists $reg{$v};
        die "allocator: output '$v' is lost\n" unless exists $slot{$v};
        die "allocator: q$t is busy\n" if defined $holder[$t];
        $load->($t, $slot{$v});
    }
    return (\@ops, $nslots);
}

# Reorders a program (a valid topological order) to keep fewer values
# live: among the operations whose inputs exist, the one that ends the most
# values' lives goes first, then the earliest; the key-plane loads keep
# their order (they post-increment r12).
sub schedule {
    my (@prog) = @_;
    my (%remaining, %defined);
    for my $op (@prog) {
        my (undef, undef, @s) = @$op;
        $remaining{$_}++ for @s;
    }
    $defined{$_} = 1 for grep { !/^(s_|mx_|rk|sb|o)/ } keys %remaining;
    my @out;
    my @todo = @prog;
    while (@todo) {
        my ($best, $bestk);
        my $seen_ldk = 0;
        for my $i (0 .. $#todo) {
            my ($op, undef, @s) = @{ $todo[$i] };
            if ($op eq 'ldk') { next if $seen_ldk++; }
            next if grep { !$defined{$_} } @s;
            my %u;
            $u{$_}++ for @s;
            my $k = grep { $remaining{$_} == $u{$_} } keys %u;
            if (!defined $best || $k > $bestk) { ($best, $bestk) = ($i, $k); }
        }
        my ($op) = splice @todo, $best, 1;
        my (undef, $d, @s) = @$op;
        $remaining{$_}-- for @s;
        $defined{$d} = 1;
        push @out, $op;
    }
    return @out;
}

my $max_slots = 0;
sub round_code {
    my (@prog) = @_;
    @prog = schedule(@prog) if $ENV{BSAES_SCHED} // 1;
    my ($ops, $ns) = allocate(\@prog, 'p', 'o');
    $max_slots = $ns if $ns > $max_slots;
    # One NEON instruction per slot (an issue cycle), a result read three
    # slots after it is made (the Cortex-A9's NEON latency).
    return perlasm::slot_scheduler::schedule(units => [], ops => $ops, vcap => 1,
        cap => 2, gap => 3, group => 1);
}

# One full round j: SubBytes, MixColumns, AddRoundKey.
sub full_round {
    my ($j) = @_;
    return round_code(sbox_prog('p', 'sb', "s_"), mix_ark_prog('sb', 'o', $j));
}

# The 8x8 bit transposition of q0-q7 in every byte position.
sub transpose {
    my $c = '';
    for my $stage ([0x55, 1, [0, 1], [2, 3], [4, 5], [6, 7]],
                   [0x33, 2, [0, 2], [1, 3], [4, 6], [5, 7]],
                   [0x0f, 4, [0, 4], [1, 5], [2, 6], [3, 7]]) {
        my ($m, $n, @pairs) = @$stage;
        $c .= sprintf("    vmov.i8 q8, 0x%02x\n", $m);
        for my $pr (@pairs) {
            my ($a, $b) = @$pr;
            $c .= <<___;
    vshr.u64 q9, q$a, $n
    veor    q9, q9, q$b
    vand    q9, q9, q8
    veor    q$b, q$b, q9
    vshl.u64 q9, q9, $n
    veor    q$a, q$a, q9
___
        }
    }
    return $c;
}

# Counter blocks into q0-q7 from the frame's counter block and r6.
sub counters {
    my ($ctr_off) = @_;
    my $c = "    vldr    d16, [sp, $ctr_off]\n    vldr    d17, [sp, " . ($ctr_off + 8) . "]\n";
    for my $b (0 .. 7) {
        my $hi = 'd' . (2 * $b + 1);
        $c .= $b ? "    add     r7, r6, $b\n" : "    mov     r7, r6\n";
        $c .= "    rev     r7, r7\n    vmov    q$b, q8\n    vmov.32 ${hi}[1], r7\n";
    }
    $c .= "    add     r6, r6, 8\n";
    return $c;
}

my $round1 = full_round(1);
my $round2 = full_round(2);
my $round3 = full_round(3);
my $round0 = full_round(0);
my $last = round_code(sbox_prog('p', 'sb', "s_"), ark_prog('sb', 'o'));
my $first_ark = round_code(ark_prog('p', 'o'));
my $ctr_off = 16 * $max_slots;
my $frame = $ctr_off + 16;

my $wipe = "    vmov.i8 q8, 0\n";
for my $s (0 .. $max_slots) {
    $wipe .= "    vstr    d16, [sp, " . (16 * $s) . "]\n    vstr    d17, [sp, " . (16 * $s + 8) . "]\n";
}

my $code = <<___;
.arch armv7-a
.fpu neon

.text
.function gcmi_aes_armv4_bsaes_neon_ctr32 args=5 frame=$frame public=r0,r1,r2,r3,r4,r5,r8,r10,r12
    cmp     r3, 0
    beq     .Lctr_done
    ldr     r5, [r0, $ROUNDS]      # public: Nr follows from the key length
    vld1.8  {d16-d17}, [r4]
    vstr    d16, [sp, $ctr_off]
    vstr    d17, [sp, @{[$ctr_off + 8]}]
    ldr     r6, [r4, 12]
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
    beq     .Lctr_last
$round3
    subs    r8, r8, 1
    beq     .Lctr_last
$round0
    subs    r8, r8, 1
    bne     .Lctr_rounds
.Lctr_last:
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
