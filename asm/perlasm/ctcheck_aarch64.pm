# asm/perlasm/ctcheck_aarch64.pm: the secret-register check for aarch64
# kernels (the sibling of ctcheck_x86.pm; same promise, A64 rules).
#
# What it proves
# ==============
# Every general-purpose register a function declares public
# (`.function NAME args=N public=x0,x1,...`; w0 and x0 are one register)
# holds only public values for the whole function: argument pointers,
# lengths, loop counters and values derived from those alone. sp, xzr and
# wzr are always public. Every other general-purpose register, every SIMD
# register (v0-v31 in any of its names: q, d, s, h, b, vN.T, vN.T[i]), the
# flags when set from any of those, and every byte loaded from memory may be
# secret. The check refuses, instruction by instruction:
#
#   address   a memory operand whose base or index register is not public
#             (the post-index register of `ld1 {..}, [x0], x9` too: it
#             moves the base);
#   leak      an instruction that writes a public register while reading
#             anything not public: a move from a SIMD register (umov, fmov,
#             mov xN, vN.d[i], smov), a load (ldr, ldp, ...) into it, or
#             arithmetic with a secret register;
#   flags     a conditional branch (b.cond), conditional select or set
#             (csel, csinc, csinv, csneg, cset, csetm, cinc, cinv, cneg,
#             fcsel) or conditional compare (ccmp, ccmn) on flags last set
#             by an instruction that read anything not public; after a
#             label a conditional needs a flag-setting instruction of its
#             own first (the flags may come from a branch);
#   branch    cbz, cbnz, tbz, tbnz on a register that is not public;
#   jump      br, blr (and their authenticated forms) through a register
#             that is not public;
#   timing    udiv, sdiv, and the general-purpose multiplies (mul, madd,
#             msub, mneg, smull, umull, smulh, umulh, smaddl, umaddl, ...)
#             on anything not public. Division is data-dependent on every
#             common core; the multiplies are fixed-latency on the
#             Cortex-A and Neoverse cores, but Arm promises that only under
#             FEAT_DIT, and no kernel here needs one on a secret: GHASH uses
#             PMULL/PMULL2, which are constant time (fixed-latency SIMD
#             instructions on every core that has them, and in the DIT list).
#
# The same annotation as on x86 declares an exception: a comment
# `# public: REASON` on the instruction exempts it from every rule, and
# `perl KERNEL.pl ct-report` lists every annotation.
package perlasm::ctcheck_aarch64;

use strict;
use warnings;

my %FLAG_WRITERS = map { $_ => 1 } qw(cmp cmn tst adds subs ands bics adcs
    sbcs negs ngcs ccmp ccmn fcmp fcmpe);
my %FLAG_USERS = map { $_ => 1 } qw(csel csinc csinv csneg cset csetm cinc
    cinv cneg fcsel ccmp ccmn);
# First operand read, not written.
my %NO_WRITE = map { $_ => 1 } qw(cmp cmn tst ccmp ccmn fcmp fcmpe
    cbz cbnz tbz tbnz br blr braa brab blraa blrab prfm b bl);
# First operand written and also read.
my %READ_WRITE = map { $_ => 1 } qw(movk bfi bfxil bfm ins);
my %TIMING = map { $_ => 1 } qw(udiv sdiv mul madd msub mneg smull umull
    smulh umulh smaddl umaddl smsubl umsubl smnegl umnegl);

sub is_store { return $_[0] =~ /^(st[1-4r]|stur|stp|stnp|str[bh]?|stlr|stxr|stlxr)/ }

# Checks one function. $ops_of->($st) returns the parsed operands
# (perlasm/aarch64.pm's parser): hashes with type 'gpr' (parent xN, sp or
# xzr), 'vreg' (parent vN), 'list' (regs => [vreg ...]), 'mem' (base,
# index, writeback), 'imm', 'sym', 'cond', 'shift'. Dies with the first
# violation.
sub check {
    my (%a) = @_;
    my ($body, $ops_of, $public) = @a{qw(body ops public)};
    my %pub = (%$public, sp => 1, xzr => 1);
    my $flags = 'none';
    my $flags_from = '';
    for my $st (@$body) {
        if ($st->{kind} eq 'label') { $flags = 'none'; next; }
        next unless $st->{kind} eq 'insn';
        my $mn = $st->{mnemonic};
        my @ops = $ops_of->($st);
        my $annotated = defined $st->{public_reason};
        my $fail = sub {
            my ($rule, $msg) = @_;
            die "secret-register check ($rule), $st->{where}: $msg\n";
        };
        my $is_pub = sub {
            my ($op) = @_;
            my $t = $op->{type};
            return 1 if $t =~ /^(imm|sym|cond|shift)$/;
            return 0 if $t eq 'mem' || $t eq 'vreg' || $t eq 'list';
            return $pub{ $op->{parent} } ? 1 : 0;
        };
        my $name = sub {
            my ($op) = @_;
            return 'memory' if $op->{type} eq 'mem';
            return $op->{text};
        };

        # Memory operands: base and index public.
        for my $op (@ops) {
            next unless $op->{type} eq 'mem';
            for my $r (grep { defined } @$op{qw(base index)}) {
                next if $pub{$r} || $annotated;
                $fail->('address', "memory operand uses '$r', which is not "
                        . "declared public");
            }
        }
        # A post-index register (after the memory operand) moves the base.
        my $seen_mem = 0;
        for my $op (@ops) {
            if ($op->{type} eq 'mem') { $seen_mem = 1; next; }
            next unless $seen_mem && $op->{type} eq 'gpr';
            $fail->('address', "post-index register '$op->{text}' is not public")
                unless $pub{ $op->{parent} } || $annotated;
        }

        # Reads and writes.
        my (@reads, @writes);
        if (is_store($mn)) {
            @reads = @ops;
        } elsif ($mn =~ /^(ld[1-4]r?|ldr|ldur|ldp|ldnp|ldar|ldxr|ldaxr|ldrs?[bhw]|ldurs?[bhw]|ldpsw)$/) {
            # ldp writes two registers; everything before the address is a
            # destination (a post-index register after it is read).
            my @before;
            for my $op (@ops) { last if $op->{type} eq 'mem'; push @before, $op; }
            @writes = @before;
            @reads = grep { my $o = $_; !grep { $_ == $o } @before } @ops;
            # A lane load (ld1 {v0.s}[1], [x0]) keeps the other lanes; only
            # SIMD registers, so it does not matter here.
        } elsif (@ops) {
            push @writes, $ops[0] unless $NO_WRITE{$mn} || $mn =~ /^b\./;
            push @reads, $ops[0] if $NO_WRITE{$mn} || $READ_WRITE{$mn}
                                    || $mn =~ /^b\./;
            push @reads, @ops[1 .. $#ops];
        }
        # Conditional instructions read the flags.
        my $uses_flags = $mn =~ /^b\./ || $FLAG_USERS{$mn};
        my @secret_reads = grep { !$is_pub->($_) } @reads;
        # The list registers a load writes are SIMD, never public.
        @writes = map { $_->{type} eq 'list' ? @{ $_->{regs} } : $_ } @writes;

        # jump
        if ($mn =~ /^(br|blr|braa|brab|blraa|blrab|braaz|brabz|blraaz|blrabz)$/) {
            $fail->('jump', "$mn through $ops[0]{text}, which is not public")
                unless $annotated || ($ops[0]{type} eq 'gpr' && $pub{ $ops[0]{parent} });
        }
        # branch on a register
        if ($mn =~ /^(cbz|cbnz|tbz|tbnz)$/ && !$annotated) {
            $fail->('branch', "$mn on '$ops[0]{text}', which is not public")
                unless $ops[0]{type} eq 'gpr' && $pub{ $ops[0]{parent} };
        }
        # flags
        if ($uses_flags && !$annotated) {
            $fail->('flags', "$mn uses flags set by '$flags_from' from values "
                    . "that are not public") if $flags eq 'secret';
            $fail->('flags', "$mn uses flags that no instruction since the "
                    . "last label has set (they may come from a branch)")
                if $flags eq 'none';
        }
        # timing
        if ($TIMING{$mn} && @secret_reads && !$annotated) {
            $fail->('timing', "$mn on " . join(', ', map { $name->($_) } @secret_reads)
                    . ": no kernel multiplies or divides secrets in "
                    . "general-purpose registers");
        }
        # leak
        for my $w (@writes) {
            next unless $w->{type} eq 'gpr' && $pub{ $w->{parent} };
            next if $w->{parent} eq 'xzr' || $annotated;
            next unless @secret_reads;
            $fail->('leak', "writes public register '$w->{text}' from "
                    . join(', ', map { $name->($_) } @secret_reads)
                    . ", which may be secret");
        }
        if ($FLAG_WRITERS{$mn}) {
            # ccmp/ccmn also read the old flags: secret stays secret.
            my $secret = (@secret_reads && !$annotated)
                         || ($FLAG_USERS{$mn} && $flags eq 'secret');
            $flags = $secret ? 'secret' : 'public';
            $flags_from = "$mn " . join(', ', @{ $st->{operands} });
        }
    }
}

1;
