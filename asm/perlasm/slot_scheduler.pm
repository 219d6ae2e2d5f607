# asm/perlasm/slot_scheduler.pm: a list scheduler for aarch64 kernels that
# interleave two streams: a fixed one (the AES rounds, whose order is kept
# exactly, AESE+AESMC pairs adjacent so the cores that fuse them can) and a
# free one (the GHASH work, the counter stores), whose instructions are
# placed between the fixed ones as their dependencies allow.
#
# Why: on the in-order Cortex-A53/A55 an instruction that needs a result
# not yet computed stalls everything after it, so a dependent instruction
# must sit far enough from its producer; out-of-order cores reorder within
# their window and care little. The free stream is therefore given as a
# plain, correct program (each instruction in an order that computes the
# right thing), and this module moves its instructions into "slots": slot
# i follows fixed unit i. Rules:
#   - an instruction goes into a later slot than every instruction whose
#     result it reads (gap slots later at least: the distance that covers
#     a result's latency; one AESE+AESMC pair is about 5-7 cycles on the
#     in-order cores, more than any latency here);
#   - it goes no earlier than every instruction it must follow because it
#     overwrites what they read or write (same slot allowed, emitted after
#     them), so reusing a register never changes what is computed;
#   - at most `vcap` SIMD instructions (or, with quick_in_vcap => 0, slow
#     SIMD instructions: the quick ones then count against gcap only) and
#     `cap` instructions in all per slot;
#   - "quick" instructions (loads, stores, general-purpose arithmetic, EOR,
#     FMOV: everything but PMULL, EXT, REV64, EOR3, AESE/AESMC, which take
#     as long as an AES round on these cores) only in every `group`-th slot,
#     at most `gcap` of them there: the in-order cores complete
#     instructions in order, so a quick one issued after a slow one waits
#     until it can complete after it, and a group pays that wait once;
#   - among the instructions ready for a slot, those with the longest chain
#     of dependent instructions after them go first.
# The dependencies are worked out from the registers each instruction
# reads and writes (parsed from its text, see `op`); memory is not tracked,
# so the caller keeps loads and stores that touch the same memory in one
# stream or orders them by construction. If the fixed units run out, empty
# slots are added until every instruction is placed. The output is
# deterministic: the same input gives the same code.
package perlasm::slot_scheduler;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(op schedule in_order);

my %STORE = map { $_ => 1 } qw(str stp st1 strb strh stur);
my %NO_DEST = (%STORE, map { $_ => 1 } qw(cmp cmn tst b cbz cbnz));
# Instructions that occupy a SIMD pipe (counted against vcap).
my %SIMD = map { $_ => 1 } qw(pmull pmull2 eor eor3 ext fmov movi aese aesmc
    rev64 trn1 trn2 zip1 zip2 and orr bic dup ins);

# Instructions whose results take as long as an AESE or AESMC on the
# in-order cores (4 to 6 cycles); every other one is "short".
my %LONG = map { $_ => 1 } qw(pmull pmull2 ext eor3 rev64 aese aesmc umov);

# The register a name stands for: v8 for d8, q8, v8.16b, v8.d[1]; x13 for
# w13; undef for anything else.
sub reg_of {
    my ($t) = @_;
    $t = lc $t;
    $t =~ s/^\s+|\s+$//g;
    return "v$2" if $t =~ /^([vqdsbh])(\d+)(\.\w+)?(\[\d+\])?$/;
    return "x$2" if $t =~ /^([xw])(\d+)$/;
    return 'sp' if $t eq 'sp';
    return undef;
}

# op(TEXT): one instruction of the free stream, with the registers it
# writes and reads.
sub op {
    my ($text) = @_;
    my ($mn, $rest) = $text =~ /^\s*(\S+)\s*(.*)$/;
    my @ops = split_ops($rest);
    my (@w, @r);
    for my $i (0 .. $#ops) {
        my $o = $ops[$i];
        if ($o =~ /^\[(.*)\](!?)$/) {
            my ($inner, $wb) = ($1, $2);
            my ($base) = split /\s*,\s*/, $inner;
            push @r, reg_of($base);
            push @w, reg_of($base) if $wb || $i < $#ops;
            next;
        }
        if ($o =~ /^\{(.*)\}$/) {
            my @l = map { reg_of($_) } split /\s*,\s*/, $1;
            if ($STORE{$mn}) { push @r, @l } else { push @w, @l }
            next;
        }
        my $reg = reg_of($o);
        next unless defined $reg;
        my $dest = $i == 0 && !$NO_DEST{$mn};
        $dest ||= $i == 1 && $mn eq 'ldp';    # ldp writes two registers
        if ($dest) {
            push @w, $reg;
            # A lane write or insert keeps the rest of the register.
            push @r, $reg if $o =~ /\[\d+\]$/;
        } else {
            push @r, $reg;
        }
    }
    my $simd = $SIMD{$mn} && !($mn eq 'fmov' && $ops[0] =~ /^[xw]/) ? 1 : 0;
    return { text => $text, w => [grep { defined } @w], r => [grep { defined } @r],
             simd => $simd, short => $LONG{$mn} ? 0 : 1 };
}

sub split_ops {
    my ($s) = @_;
    my @o;
    my ($cur, $depth) = ("", 0);
    for my $ch (split //, $s) {
        $depth++ if $ch eq '[' || $ch eq '{';
        $depth-- if $ch eq ']' || $ch eq '}';
        if ($ch eq ',' && $depth == 0) { push @o, $cur; $cur = ''; next; }
        $cur .= $ch;
    }
    push @o, $cur if $cur =~ /\S/;
    s/^\s+|\s+$//g for @o;
    return @o;
}

# Dependencies of the ops in program order: raw->[j] lists the producers
# op j reads from; order->[j] the ops it must not overtake (it overwrites
# what they read or write).
sub deps {
    my ($ops) = @_;
    my (@raw, @order);
    my @w = map { { map { $_ => 1 } @{ $_->{w} } } } @$ops;
    my @r = map { { map { $_ => 1 } @{ $_->{r} } } } @$ops;
    for my $j (0 .. $#$ops) {
        my (@rw, @or);
        for my $i (0 .. $j - 1) {
            push @rw, $i if grep { $w[$i]{$_} } keys %{ $r[$j] };
            push @or, $i if grep { $w[$i]{$_} || $r[$i]{$_} } keys %{ $w[$j] };
        }
        push @raw, \@rw;
        push @order, \@or;
    }
    return (\@raw, \@order);
}

# schedule(units => [text, ...], ops => [op, ...], vcap => N, cap => N,
# gap => N, group => N, gcap => N, quick_in_vcap => 0|1): the units with
# the ops placed after them (slot i after unit i), as one string.
sub schedule {
    my (%a) = @_;
    my @units = @{ $a{units} };
    my $ops = $a{ops};
    my ($vcap, $cap, $gap) = ($a{vcap} // 2, $a{cap} // 4, $a{gap} // 1);
    my ($group, $gcap) = ($a{group} // 1, $a{gcap} // $a{cap} // 4);
    my $qv = $a{quick_in_vcap} // 1;
    my ($raw, $order) = deps($ops);
    my $n = @$ops;
    # Height: the longest chain of reads after each op.
    my @succ = map { [] } 0 .. $n - 1;
    for my $j (0 .. $n - 1) { push @{ $succ[$_] }, $j for @{ $raw->[$j] }; }
    my @height = (0) x $n;
    for my $i (reverse 0 .. $n - 1) {
        for my $s (@{ $succ[$i] }) {
            $height[$i] = $height[$s] + 1 if $height[$s] + 1 > $height[$i];
        }
    }
    my @slot_of = (undef) x $n;
    my @slots;
    my $left = $n;
    my $s = 0;
    while ($left > 0) {
        my ($v, $all, $short) = (0, 0, 0);
        my $gslot = $s % $group == $group - 1;
        my @here;
        while (1) {
            my @ready = grep {
                my $j = $_;
                !defined $slot_of[$j]
                    && !(grep { !defined $slot_of[$_] || $slot_of[$_] > $s - $gap } @{ $raw->[$j] })
                    && !(grep { !defined $slot_of[$_] } @{ $order->[$j] })
                    && (!$ops->[$j]{short} || ($gslot && $short < $gcap))
                    && (!$ops->[$j]{simd} || ($ops->[$j]{short} && !$qv) || $v < $vcap)
                    && $all < $cap
            } 0 .. $n - 1;
            last unless @ready;
            my ($pick) = sort { $height[$b] <=> $height[$a] || $a <=> $b } @ready;
            $slot_of[$pick] = $s;
            push @here, $pick;
            $v++ if $ops->[$pick]{simd} && (!$ops->[$pick]{short} || $qv);
            $short++ if $ops->[$pick]{short};
            $all++;
            $left--;
        }
        push @slots, [@here];
        $s++;
        die "slot_scheduler: no progress (a dependency cycle?)\n" if $s > 100000;
    }
    my $out = '';
    my $nslots = @slots > @units ? @slots : @units;
    for my $i (0 .. $nslots - 1) {
        $out .= $units[$i] if $i < @units;
        $out .= "    $ops->[$_]{text}\n" for @{ $slots[$i] // [] };
    }
    return $out;
}

# in_order(ops): the ops as written, one per line (for code whose speed
# does not matter).
sub in_order {
    my ($ops) = @_;
    return join '', map { "    $_->{text}\n" } @$ops;
}

1;
