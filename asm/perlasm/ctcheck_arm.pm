# asm/perlasm/ctcheck_arm.pm: the secret-register check for 32-bit ARM
# kernels (A32 and T32 from one source; the sibling of ctcheck_x86.pm and
# ctcheck_aarch64.pm: same promise, ARM rules).
#
# What it proves
# ==============
# Every core register a function declares public
# (`.function NAME args=N public=r0,r1,...`) holds only public values for
# the whole function: argument pointers, lengths, loop counters and values
# derived from those alone. sp is always public. Every other core register,
# every NEON register (q0-q15, d0-d31, s0-s31, lanes), the flags when set
# from any of those, and every byte loaded from memory may be secret. The
# check refuses, instruction by instruction:
#
#   address   a memory operand whose base or index register is not public,
#             and a post-index register (vld1.8 {d0}, [r0], r5) that is not;
#   leak      an instruction that writes a public register while reading
#             anything not public: a move from NEON to a core register
#             (vmov r0, d0[1]; vmov r0, r1, d0; vmrs), a load into it, or
#             arithmetic with a secret register;
#   flags     a conditional branch (beq, bne ...) or any conditionally
#             executed instruction (addeq, moveq ...; in Thumb-2 the IT
#             block the backend adds) on flags last set by an instruction
#             that read anything not public (cmp, cmn, tst, teq, and every
#             S-suffixed instruction: adds, subs, ands ...); after a label a
#             conditional needs a flag-setting instruction of its own first
#             (the flags may come from a branch);
#   jump      blx through a register that is not public (bx is the
#             epilogue's alone);
#   timing    the core multiplies and divides (mul, mla, mls, umull, smull,
#             umlal, smlal, udiv, sdiv) on anything not public. Division is
#             data-dependent everywhere; the multiplies are fixed-latency on
#             the Cortex-A7/A9/A15/A53/A72 cores but terminate early on
#             ARM9/ARM11-class and Cortex-M3 cores, which this library also
#             targets (the C code's ARMv5 build). No kernel needs one on a
#             secret: GHASH uses VMULL.P64 / VMULL.P8, fixed-latency NEON
#             instructions.
#
# `# public: REASON` on an instruction exempts it from every rule, and
# `perl KERNEL.pl ct-report` lists every annotation (driver.pm).
package perlasm::ctcheck_arm;

use strict;
use warnings;

my %FLAG_WRITERS = map { $_ => 1 } qw(cmp cmn tst teq);
# First operand read, not written.
my %NO_WRITE = map { $_ => 1 } qw(cmp cmn tst teq b blx);
# First operand written and also read.
my %READ_WRITE = map { $_ => 1 } qw(movt bfi bfc mla umlal smlal);
my %TIMING = map { $_ => 1 } qw(mul mla mls umull smull umlal smlal udiv sdiv);
# Core multiplies writing two registers.
my %TWO_DEST = map { $_ => 1 } qw(umull smull umlal smlal);

sub is_store { return $_[0] =~ /^(str|strb|strh|strd)$/ }
sub is_load  { return $_[0] =~ /^(ldr|ldrb|ldrh|ldrsb|ldrsh|ldrd)$/ }

# Checks one function. $ops_of->($st) returns the parsed operands
# (perlasm/armv4.pm's parser): hashes with type 'gpr' (parent rN), 'vreg',
# 'list' (regs => [...]), 'mem' (base, index, writeback), 'imm', 'sym',
# 'shift' (reg when the shift amount is a register). $decode->($mnemonic)
# splits a mnemonic into base, s (the S suffix), cond and neon. Dies with
# the first violation.
sub check {
    my (%a) = @_;
    my ($body, $ops_of, $public, $decode) = @a{qw(body ops public decode)};
    my %pub = (%$public, r13 => 1);
    my $flags = 'none';
    my $flags_from = '';
    for my $st (@$body) {
        if ($st->{kind} eq 'label') { $flags = 'none'; next; }
        next unless $st->{kind} eq 'insn';
        my $mn = $st->{mnemonic};
        my @ops = $ops_of->($st);
        my $d = $decode->($mn);
        my $b = $d->{base};
        my $annotated = defined $st->{public_reason};
        my $fail = sub {
            my ($rule, $msg) = @_;
            die "secret-register check ($rule), $st->{where}: $msg\n";
        };
        my $is_pub = sub {
            my ($op) = @_;
            my $t = $op->{type};
            return 1 if $t =~ /^(imm|sym)$/;
            return defined $op->{reg} ? ($pub{ $op->{reg} } ? 1 : 0) : 1
                if $t eq 'shift';
            return 0 if $t eq 'mem' || $t eq 'vreg';
            return (grep { $_->{type} ne 'gpr' || !$pub{ $_->{parent} } }
                    @{ $op->{regs} }) ? 0 : 1 if $t eq 'list';
            return $pub{ $op->{parent} } ? 1 : 0;
        };
        my $name = sub {
            my ($op) = @_;
            return 'memory' if $op->{type} eq 'mem';
            return $op->{text};
        };

        # address: base and index public; a post-index register too.
        my $seen_mem = 0;
        for my $op (@ops) {
            if ($op->{type} eq 'mem') {
                for my $r (grep { defined } @$op{qw(base index)}) {
                    next if $pub{$r} || $annotated;
                    $fail->('address', "memory operand uses '$r', which is "
                            . "not declared public");
                }
                $seen_mem = 1;
                next;
            }
            next unless $seen_mem && $op->{type} eq 'gpr';
            $fail->('address', "post-index register '$op->{text}' is not public")
                unless $pub{ $op->{parent} } || $annotated;
        }

        # Reads and writes.
        my (@reads, @writes);
        if ($d->{neon}) {
            if ($b =~ /^vst/) {
                @reads = @ops;
            } elsif ($b =~ /^vld/) {
                my @before;
                for my $op (@ops) { last if $op->{type} eq 'mem'; push @before, $op; }
                @writes = @before;
                @reads = grep { my $o = $_; !grep { $_ == $o } @before } @ops;
            } elsif ($b eq 'vmov' && @ops == 3 && $ops[0]{type} eq 'gpr'
                     && $ops[1]{type} eq 'gpr') {
                @writes = @ops[0, 1];        # vmov r0, r1, d0
                @reads = ($ops[2]);
            } elsif ($b =~ /^(vpush|vpop|vstm|vldm)/) {
                $fail->('address', "$b is the prologue's");
            } elsif (@ops) {
                @writes = ($ops[0]);
                # Accumulating and lane-inserting forms also read the
                # destination; treating every NEON destination as read is
                # safe (NEON registers are never public).
                @reads = @ops;
            }
        } elsif (is_store($b)) {
            @reads = @ops;
        } elsif (is_load($b)) {
            my @before;
            for my $op (@ops) { last if $op->{type} eq 'mem'; push @before, $op; }
            @writes = @before;
            @reads = grep { my $o = $_; !grep { $_ == $o } @before } @ops;
        } elsif (@ops) {
            if ($NO_WRITE{$b}) {
                @reads = @ops;
            } elsif ($TWO_DEST{$b}) {
                @writes = @ops[0, 1];
                @reads = @ops[2 .. $#ops];
                push @reads, @ops[0, 1] if $READ_WRITE{$b};
            } else {
                @writes = ($ops[0]);
                @reads = @ops[1 .. $#ops];
                push @reads, $ops[0] if $READ_WRITE{$b};
            }
        }
        # A conditional instruction keeps the old value when the condition
        # fails, so it also reads its destination.
        push @reads, @writes if $d->{cond} ne '';
        my @secret_reads = grep { !$is_pub->($_) } @reads;
        @writes = map { $_->{type} eq 'list' ? @{ $_->{regs} } : $_ } @writes;

        # jump
        if ($b eq 'blx' && !$annotated) {
            $fail->('jump', "blx through $ops[0]{text}, which is not public")
                unless $ops[0]{type} eq 'gpr' && $pub{ $ops[0]{parent} };
        }
        # flags: conditional branches and conditional execution.
        if ($d->{cond} ne '' && !$annotated) {
            my $what = $b eq 'b' ? "branch $mn" : "conditionally executed $mn";
            $fail->('flags', "$what uses flags set by '$flags_from' from "
                    . "values that are not public") if $flags eq 'secret';
            $fail->('flags', "$what uses flags that no instruction since the "
                    . "last label has set (they may come from a branch)")
                if $flags eq 'none';
        }
        # timing
        if ($TIMING{$b} && @secret_reads && !$annotated) {
            $fail->('timing', "$mn on " . join(', ', map { $name->($_) } @secret_reads)
                    . ": no kernel multiplies or divides secrets in core "
                    . "registers");
        }
        # leak
        for my $w (@writes) {
            next unless $w->{type} eq 'gpr' && $pub{ $w->{parent} };
            next if $annotated || !@secret_reads;
            $fail->('leak', "writes public register '$w->{text}' from "
                    . join(', ', map { $name->($_) } @secret_reads)
                    . ", which may be secret");
        }
        # vmrs APSR_nzcv, fpscr would set the flags from NEON state.
        if ($b eq 'vmrs' && !$annotated) {
            $fail->('leak', "vmrs moves NEON/VFP state into core registers or "
                    . "the flags");
        }
        if ($FLAG_WRITERS{$b} || $d->{s}) {
            my $secret = (@secret_reads && !$annotated)
                         || ($d->{cond} ne '' && $flags eq 'secret');
            $flags = $secret ? 'secret' : 'public';
            $flags_from = "$mn " . join(', ', @{ $st->{operands} });
        }
    }
}

1;
