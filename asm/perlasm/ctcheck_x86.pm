# asm/perlasm/ctcheck_x86.pm: the secret-register check for x86 kernels.
#
# What it proves
# ==============
# A kernel is constant-time when no secret (key, H, key stream, data)
# decides a memory address, a branch, a conditional move or select, or the
# operands of an instruction whose time depends on them. In assembly that
# property is local to the registers: every general-purpose register the
# kernel declares public (`.function NAME args=N public=rdi,rsi,...`)
# holds only public values (argument pointers, lengths, loop counters,
# values derived from those alone) for the whole function; every other
# general-purpose register, every vector and mask register, every flag set
# from one of them, and every byte loaded from memory may be secret. The
# check then refuses, instruction by instruction:
#
#   address   a memory operand whose base or index is not public;
#   leak      an instruction that writes a public register while reading
#             anything not public (a move from a vector register, a load
#             from memory, arithmetic with a secret register);
#   flags     a conditional branch, conditional move or set-on-condition
#             whose flags were last set by an instruction that read
#             anything not public; after a label, where flags may come from
#             a jump, a conditional needs a flag-setting instruction of its
#             own first;
#   jump      a call or jump through a register that is not public, or
#             through memory;
#   timing    DIV and IDIV (whose latency depends on their operands on
#             every common x86 core) on anything not public;
#   mask      a masked load or store (an AVX-512 instruction with a memory
#             operand and a {k1}..{k7} decoration) whose opmask register is
#             not public: the mask decides which bytes are touched, and
#             masked-off lanes of a store are not written at all.
#
# Opmask registers (k1..k7) may be declared public like general-purpose
# registers, and the same "leak" rule then keeps them public: a public
# opmask register only ever receives values made from public ones (KMOVD
# from a public general-purpose register, KSHIFTRD of a public mask, ...).
#
# Public registers are declared per function and never change within it,
# so the result does not depend on the order in which loops run: a value
# that is secret anywhere in the function may not live in a public
# register anywhere in it. The stack pointer is always public.
#
# Exceptions: a value the algorithm makes public (a round count stored in
# the key schedule, say) is loaded with an annotation, a comment of the form
#     mov eax, [rdi + 240]   # public: the round count is public
# The annotated instruction is exempt from every rule above, and every
# annotation is listed by `perl KERNEL.pl ct-report`, so a reviewer reads all
# of them in one place.
#
# The check runs for every kernel and every flavour as part of the
# translation; a kernel without `public=` does not build.
package perlasm::ctcheck_x86;

use strict;
use warnings;

# Instructions that write the flags. Everything else (mov, lea, the SSE and
# AVX data instructions, shlx/shrx/sarx/rorx, ...) leaves them alone.
my %FLAG_WRITERS = map { $_ => 1 } qw(
    add sub adc sbb and or xor cmp test inc dec neg
    shl shr sar sal rol ror rcl rcr shld shrd
    bt bts btr btc bsf bsr lzcnt tzcnt popcnt
    mul imul div idiv andn bextr blsi blsmsk blsr bzhi adcx adox
    cmpxchg xadd
    ptest vptest comiss comisd ucomiss ucomisd vcomiss vcomisd vucomiss
    vucomisd kortestb kortestw kortestd kortestq ktestb ktestw ktestd ktestq
);

# Instructions whose first operand is read but not written.
my %NO_WRITE = map { $_ => 1 } qw(cmp test bt ptest vptest comiss comisd
    ucomiss ucomisd vcomiss vcomisd vucomiss vucomisd);

# Instructions whose first operand is written without being read.
my %WRITE_ONLY = map { $_ => 1 } qw(
    mov movzx movsx movsxd movd movq lea pextrb pextrw pextrd pextrq
    vpextrb vpextrw vpextrd vpextrq pmovmskb vpmovmskb movmskps movmskpd
    vmovmskps vmovmskpd vmovd vmovq kmovb kmovw kmovd kmovq
    lzcnt tzcnt popcnt bsf bsr andn bextr blsi blsmsk blsr bzhi
    shlx shrx sarx rorx pdep pext
);

# Instructions with implicit operands: [registers read, registers written].
my %IMPLICIT = (
    mul  => [[qw(rax)], [qw(rax rdx)]],
    div  => [[qw(rax rdx)], [qw(rax rdx)]],
    idiv => [[qw(rax rdx)], [qw(rax rdx)]],
    cqo  => [[qw(rax)], [qw(rdx)]],
    cdq  => [[qw(rax)], [qw(rdx)]],
    # Values the processor reports about itself are public.
    cpuid  => [[qw(rax rcx)], [qw(rax rbx rcx rdx)]],
    xgetbv => [[qw(rcx)], [qw(rax rdx)]],
    rdtsc  => [[], [qw(rax rdx)]],
);

my %GPR = map { $_ => 1 } qw(rax rbx rcx rdx rsi rdi rbp rsp),
                          map { "r$_" } 8 .. 15;
# 32-bit x86 (perlasm/x86.pm) names its registers' parents eax .. esp.
$GPR{$_} = 1 for qw(eax ebx ecx edx esi edi ebp esp);
my %NAME32 = (rax => 'eax', rbx => 'ebx', rcx => 'ecx', rdx => 'edx',
              rsp => 'esp');

sub is_gpr { return $GPR{ $_[0] } ? 1 : 0 }
# AVX-512 opmask registers; k0 cannot mask (its encoding means "no mask").
sub is_mask { return $_[0] =~ /^k[1-7]$/ ? 1 : 0 }

# Checks one function. $ops_of->($st) returns the parsed operands of an
# instruction statement (the architecture module's own parser); $public is
# the set of public register parents; annotated statements carry
# {public_reason}. With bits => 32 (perlasm/x86.pm) register parents are
# the 32-bit names (eax, ..., esp) and so are the implicit operands below.
# Dies with the first violation.
sub check {
    my (%a) = @_;
    my ($body, $ops_of, $public) = @a{qw(body ops public)};
    my $b32 = ($a{bits} // 64) == 32;
    my $rn = sub { return $b32 ? ($NAME32{ $_[0] } // $_[0]) : $_[0] };
    my $sp = $rn->('rsp');
    my $cx = $rn->('rcx');
    my %pub = (%$public, $sp => 1);
    my $flags = 'none';    # 'public', 'secret' or 'none' (unknown here)
    my $flags_from = '';
    for my $st (@$body) {
        if ($st->{kind} eq 'label') { $flags = 'none'; next; }
        next unless $st->{kind} eq 'insn';
        my $mn = $st->{mnemonic};
        my @ops = $ops_of->($st);
        my $fail = sub {
            my ($rule, $msg) = @_;
            die "secret-register check ($rule), $st->{where}: $msg\n";
        };
        my $is_pub = sub {
            my ($op) = @_;
            return 1 if $op->{type} eq 'imm' || $op->{type} eq 'sym';
            return 0 if $op->{type} eq 'mem';    # loaded bytes
            return $pub{ $op->{parent} } ? 1 : 0;
        };
        my $name = sub {
            my ($op) = @_;
            return $op->{type} eq 'mem' ? 'memory' : $op->{name};
        };
        my $annotated = defined $st->{public_reason};

        # What the instruction reads and writes.
        my (@reads, @writes);
        my $first = $ops[0];
        my $lea = $mn eq 'lea';
        my $imp = $IMPLICIT{$mn};
        $imp = $IMPLICIT{mul} if $mn =~ /^i?mul$/ && @ops == 1;
        $imp = undef if $mn eq 'mul' && @ops != 1;
        if ($mn eq 'xchg' || $mn eq 'xadd') {
            @reads = @writes = @ops;
        } elsif (@ops) {
            # The destination is read too unless the instruction only
            # writes it (reading too much only makes the check stricter).
            # One-operand multiply and divide only read their operand.
            push @writes, $first
                unless $NO_WRITE{$mn} || $mn =~ /^(j|call$|loop)/ || $imp;
            push @reads, $first unless $WRITE_ONLY{$mn};
            push @reads, @ops[1 .. $#ops];
        }
        if ($imp) {
            my $trusted = $mn =~ /^(cpuid|xgetbv|rdtsc)$/;
            push @reads, map { { type => 'reg', name => $_, parent => $_ } }
                         map { $rn->($_) } @{ $imp->[0] };
            push @writes, map { { type => 'reg', name => $_, parent => $_,
                                  trusted => $trusted } }
                          map { $rn->($_) } @{ $imp->[1] };
        }

        # address: every base and index register is public. (LEA computes
        # an address without loading, but its result is an address too.)
        for my $op (@ops) {
            next unless $op->{type} eq 'mem';
            for my $r (grep { defined } @$op{qw(base index)}) {
                next if $pub{$r} || $annotated;
                $fail->('address', "memory operand uses '$r', which is not "
                        . "declared public");
            }
        }
        # mask: a masked memory access uses a public opmask register.
        if (grep { $_->{type} eq 'mem' } @ops) {
            for my $k (map { grep { /^k/ } @{ $_->{deco} // [] } } @ops) {
                next if $pub{$k} || $annotated;
                $fail->('mask', "masked memory access uses '$k', which is "
                        . "not declared public");
            }
        }
        # For LEA the memory operand stands for its registers.
        @reads = map {
            $lea && $_->{type} eq 'mem'
                ? (map { { type => 'reg', name => $_, parent => $_ } }
                   grep { defined } @$_{qw(base index)})
                : $_
        } @reads;
        my @secret_reads = grep { !$is_pub->($_) } @reads;

        # jump: indirect transfers go through public registers only.
        if (($mn eq 'call' || $mn eq 'jmp') && @ops == 1 && $first->{type} ne 'sym') {
            $fail->('jump', "$mn through " . $name->($first) . ", which is not public")
                unless $annotated || $first->{type} eq 'reg' && $pub{ $first->{parent} };
            next;
        }
        # LOOP and JRCXZ branch on rcx (ecx) itself.
        if ($mn =~ /^(loop[a-z]*|jrcxz|jecxz)$/ && !$pub{$cx} && !$annotated) {
            $fail->('flags', "$mn branches on $cx, which is not public");
        }
        # flags: conditionals only on flags computed from public values.
        if ($mn =~ /^(j(?!mp$|rcxz$|ecxz$)[a-z]+|cmov[a-z]+|set[a-z]+)$/ && !$annotated) {
            if ($flags eq 'secret') {
                $fail->('flags', "$mn uses flags set by '$flags_from' from "
                        . "values that are not public");
            }
            if ($flags eq 'none') {
                $fail->('flags', "$mn uses flags that no instruction since "
                        . "the last label has set (they may come from a jump)");
            }
        }
        # timing: no division of secrets.
        if ($mn =~ /^i?div$/ && @secret_reads && !$annotated) {
            $fail->('timing', "$mn on " . join(', ', map { $name->($_) } @secret_reads)
                    . ": its latency depends on its operands");
        }
        # leak: a public register only ever receives public values.
        for my $w (@writes) {
            next unless $w->{type} eq 'reg' && $pub{ $w->{parent} }
                && (is_gpr($w->{parent}) || is_mask($w->{parent}));
            next if $w->{trusted} || $annotated;
            next unless @secret_reads;
            $fail->('leak', "writes public register '$w->{name}' from "
                    . join(', ', map { $name->($_) } @secret_reads)
                    . ", which may be secret");
        }
        if ($FLAG_WRITERS{$mn} || $mn =~ /^i?mul$/) {
            $flags = (@secret_reads && !$annotated) ? 'secret' : 'public';
            $flags_from = "$mn " . join(', ', @{ $st->{operands} });
        }
    }
}

1;
