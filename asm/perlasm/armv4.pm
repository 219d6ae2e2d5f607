# asm/perlasm/armv4.pm: the 32-bit ARM backend of libgcm's assembly
# translator (see driver.pm for the dialect and the backend interface; a
# sibling of x86_64.pm, x86.pm and aarch64.pm, and inherits what all
# backends share from backend.pm).
#
# Source syntax
# =============
# Kernels write ARM unified assembler language (UAL) as the Arm
# Architecture Reference Manual prints it, so that one source assembles
# both as A32 and as T32 (Thumb-2): destination first; core registers
# r0-r12, sp, lr (and the aliases ip = r12, fp = r11); NEON registers q0-q15,
# d0-d31 (lanes d0[1]), s0-s31; register lists {d0-d3}, {d0, d1},
# {d0[], d1[]}; memory [rN], [rN, imm], [rN, rM], [rN, rM, lsl 2],
# [rN:128] (NEON alignment), with `!` for writeback, or post-indexed
# [rN], imm / [rN], rM. Data types follow the mnemonic (vld1.8, vmull.p64,
# aese.8). Immediates are written without `#` (the driver reads `#` as a
# comment); the backend puts it back, as aarch64.pm does.
#
# Conditional execution: a core instruction may carry a condition suffix
# (UAL order: adds, addseq, bne). In the Thumb-2 flavour the backend puts
# the IT instruction before every conditional non-branch instruction, so
# the source does not change between the two. (The secret-register check
# refuses a condition on flags set from secrets, see ctcheck_arm.pm.)
#
# Directives beyond the driver's: `.arch NAME` and `.fpu NAME` at the top
# level, per kernel (e.g. `.arch armv8-a` + `.fpu crypto-neon-fp-armv8`
# for the Cryptographic Extension in AArch32, `.arch armv7-a` + `.fpu neon`
# for NEON). After an `.arch` newer than ARMv7 the backend adds
# `.object_arch armv7`: the kernels check the CPU at run time, so the
# object must not claim that the whole library needs ARMv8.
#
# One pseudo-instruction:
#   adrl rN, .Lsym        rN = address of .Lsym, PC-relative (adr). The
#                         `.rodata` of a 32-bit ARM kernel is emitted into
#                         .text (with a comment saying so) so adr reaches
#                         it: no relocation, no GOT, position independent.
#
# Flavours
# ========
#   linux32         GNU as for ELF (Linux, Android, the BSDs), A32 code.
#   linux32-thumb2  the same source as T32 (Thumb-2) code; symbols get
#                   .thumb_func, so callers interwork (bit 0 set).
# Both put .syntax unified first and .note.GNU-stack last; functions are
# .globl + .hidden with .type/.size and ARM EHABI unwind annotations
# (.fnstart/.save/.vsave/.pad/.fnend).
#
# Functions and AAPCS
# ===================
# Arguments arrive in r0-r3, then on the stack; r0-r3, r12 and q0-q3,
# q8-q15 (d0-d7, d16-d31) may be clobbered; r4-r11 and d8-d15 (q4-q7,
# s16-s31) are callee-saved; sp is 8-byte aligned at every public
# interface. `.function NAME args=N [frame=B]` scans the body and emits a
# prologue that
#   - pushes every r4-r11 the body touches (plus lr when that count is
#     odd, to keep sp 8-byte aligned) and vpushes every d8-d15 touched
#     (in any of its names: q4 is d8 and d9, s17 is half of d8);
#   - loads arguments 5 and up from the caller's stack into r4, r5, ...
#     (so a kernel with args=5 finds its fifth argument in r4);
#   - reserves `frame` bytes of scratch at [sp] (rounded up to 8).
# `.endfunction` emits the mirror-image epilogue and `bx lr`. The body may
# not write sp, lr or pc, use r9 (the platform register on some systems),
# push/pop, call (bl, blx), return or use ldm/stm: the frame is fixed after
# the prologue. Test code that handles no secrets (`secrets=none`, the ABI
# trampoline) may call with blx through a register, which the prologue
# then accounts for by saving lr.
package perlasm::armv4;

use strict;
use warnings;
use perlasm::driver;
use perlasm::ctcheck_arm;
use perlasm::backend;
our @ISA = ('perlasm::backend');

my %FLAVOURS = (
    'linux32'        => { isa => 'arm' },
    'linux32-thumb2' => { isa => 'thumb' },
);

sub flavours { return sort keys %FLAVOURS }

sub new {
    my ($class, $flavour) = @_;
    return bless { %{ $FLAVOURS{$flavour} }, flavour => $flavour }, $class;
}

# Names ----------------------------------------------------------------------
# The flavour's spelling of names (perlasm::backend's local_name and
# global_name check a name against the dialect's rules, then ask these).
sub local_prefix { return '.L' }
sub global_spelling { return $_[1] }

# Mnemonics --------------------------------------------------------------------
our %COND = map { $_ => 1 } qw(eq ne cs hs cc lo mi pl vs vc hi ls ge lt gt le al);
# Core (non-NEON) instructions the kernels may use, and which of them take
# the S suffix. Anything else that is not a NEON or crypto instruction is
# refused, so the condition suffix is always decoded correctly.
my @CORE_S = qw(and eor sub rsb add adc sbc rsc orr mov bic mvn lsl lsr asr
                ror mul mla umull smull umlal smlal);
my @CORE = (@CORE_S, qw(tst teq cmp cmn mls ldr str ldrb strb ldrh strh
    ldrsb ldrsh ldrd strd b bl bx blx rev rev16 uxtb uxth sxtb sxth ubfx sbfx
    bfi bfc clz movw movt udiv sdiv nop adr adrl push pop ldm stm ldmia stmia
    ldmdb stmdb cbz cbnz it ite itt));
my %CORE_S = map { $_ => 1 } @CORE_S;
my @CORE_BY_LENGTH = sort { length($b) <=> length($a) || $a cmp $b } @CORE;

# Splits a mnemonic into { base, s, cond, dt, neon }. NEON and crypto
# instructions (v..., aes..., sha...) are never conditional here.
sub decode_mnemonic {
    my ($mn) = @_;
    if ($mn =~ /^(v[a-z0-9]+|aes[a-z]+|sha[a-z0-9]+)((?:\.[a-z0-9]+)*)$/) {
        return { base => $1, dt => $2, s => 0, cond => '', neon => 1 };
    }
    die "'$mn': data types (.8, .i32 ...) belong to NEON instructions\n"
        if $mn =~ /\./;
    for my $b (@CORE_BY_LENGTH) {
        next unless substr($mn, 0, length $b) eq $b;
        my $rest = substr($mn, length $b);
        my $s = 0;
        if ($CORE_S{$b} && $rest =~ s/^s//) { $s = 1; }
        next unless $rest eq '' || $COND{$rest};
        return { base => $b, s => $s, cond => ($rest eq 'al' ? '' : $rest),
                 dt => '', neon => 0 };
    }
    die "unknown instruction '$mn' (perlasm/armv4.pm knows the core "
        . "instructions it lists and NEON/crypto instructions)\n";
}

# Operands --------------------------------------------------------------------
my %SHIFT = map { $_ => 1 } qw(lsl lsr asr ror rrx);
my %ALIAS = (sp => 'r13', lr => 'r14', pc => 'r15', ip => 'r12', fp => 'r11',
             sl => 'r10', sb => 'r9');

sub gpr {
    my ($t) = @_;
    return { type => 'gpr', parent => $ALIAS{$t}, text => $t } if $ALIAS{$t};
    return { type => 'gpr', parent => "r$1", text => $t }
        if $t =~ /^r(\d+)$/ && $1 <= 15;
    return undef;
}

# A NEON register: `dregs` lists the 64-bit registers it overlaps.
sub vreg {
    my ($t) = @_;
    if ($t =~ /^q(\d+)$/ && $1 <= 15) {
        return { type => 'vreg', dregs => ['d' . 2 * $1, 'd' . (2 * $1 + 1)], text => $t };
    }
    if ($t =~ /^d(\d+)(\[\d*\])?$/ && $1 <= 31) {
        return { type => 'vreg', dregs => ["d$1"], text => $t };
    }
    if ($t =~ /^s(\d+)(\[\d*\])?$/ && $1 <= 31) {
        return { type => 'vreg', dregs => ['d' . int($1 / 2)], text => $t };
    }
    return undef;
}

sub number { return $_[0] =~ /^-?(0x[0-9a-f]+|\d+)$/i; }

sub parse_operand {
    my ($text) = @_;
    my $t = lc $text;
    $t =~ s/^\s+|\s+$//g;
    if ($t =~ /^\[(.*)\](!?)$/) {
        my ($inner, $wb) = ($1, $2);
        my @parts = perlasm::driver::split_operands($inner);
        my ($breg, $align) = $parts[0] =~ /^(\w+)(?::(\d+))?$/;
        my $base = defined $breg ? gpr($breg) : undef;
        die "memory base '$parts[0]' is not a core register\n" unless $base;
        my %m = (type => 'mem', base => $base->{parent}, writeback => $wb ? 1 : 0,
                 parts => [$parts[0]]);
        for my $p (@parts[1 .. $#parts]) {
            if (number($p)) { push @{ $m{parts} }, "#$p"; next; }
            if ($p =~ /^-?(\w+)$/ && (my $g = gpr($1))) {
                die "two index registers\n" if defined $m{index};
                $m{index} = $g->{parent};
                push @{ $m{parts} }, $p;
                next;
            }
            if ($p =~ /^(\w+)(?:\s+(\d+))?$/ && $SHIFT{$1}) {
                push @{ $m{parts} }, defined $2 ? "$1 #$2" : $1;
                next;
            }
            die "cannot parse '$p' in a memory operand\n";
        }
        return \%m;
    }
    if ($t =~ /^\{(.*)\}$/) {
        my $inner = $1;
        my (@regs, $core);
        for my $p (split /\s*,\s*/, $inner) {
            if ($p =~ /^([dqr])(\d+)\s*-\s*([dqr])(\d+)$/ && $1 eq $3) {
                for my $n ($2 .. $4) {
                    my $r = $1 eq 'r' ? gpr("r$n") : vreg("$1$n");
                    push @regs, $r;
                }
            } elsif ($p =~ /^(d\d+)\[\d*\]$/ || vreg($p)) {
                my $v = vreg($p);
                push @regs, $v;
            } elsif (my $g = gpr($p)) {
                push @regs, $g;
            } else {
                die "'$p' in a register list is not a register\n";
            }
        }
        return { type => 'list', regs => \@regs, text => $text =~ s/^\s+|\s+$//gr };
    }
    if (my $g = gpr($t)) { return $g }
    if (my $v = vreg($t)) { return $v }
    return { type => 'imm', text => "#$t" } if number($t);
    return { type => 'imm', text => "#$1" } if $t =~ /^#(.*)$/;
    if ($t =~ /^(\w+)\s+(\d+)$/ && $SHIFT{$1}) {
        return { type => 'shift', text => "$1 #$2" };
    }
    if ($t =~ /^(\w+)\s+(r\d+|ip|fp)$/ && $SHIFT{$1}) {
        my $g = gpr($2);
        return { type => 'shift', text => "$1 $2", reg => $g->{parent} };
    }
    return { type => 'shift', text => $t } if $t eq 'rrx';
    return { type => 'sym', name => $text =~ s/^\s+|\s+$//gr, text => $text }
        if $text =~ /^\s*\.?[A-Za-z_]\w*\s*$/;
    die "cannot parse operand '$text'\n";
}

sub render_operand {
    my ($self, $op) = @_;
    my $t = $op->{type};
    return $self->symbol($op->{name}) if $t eq 'sym';
    if ($t eq 'mem') {
        return '[' . join(', ', @{ $op->{parts} }) . ']' . ($op->{writeback} ? '!' : '');
    }
    return $op->{text};
}

sub render_insn {
    my ($self, $mn, $ops) = @_;
    my $d = decode_mnemonic($mn);
    if ($d->{base} eq 'adrl') {
        die "adrl wants a register and a label\n"
            unless @$ops == 2 && $ops->[0]{type} eq 'gpr' && $ops->[1]{type} eq 'sym';
        return "\tadr\t$ops->[0]{text}, " . $self->symbol($ops->[1]{name});
    }
    my $line = @$ops ? "\t$mn\t" . join(', ', map { $self->render_operand($_) } @$ops)
                     : "\t$mn";
    # Thumb-2: a conditional instruction other than a branch needs an IT.
    if ($self->{isa} eq 'thumb' && $d->{cond} ne '' && $d->{base} ne 'b') {
        $line = "\tit\t$d->{cond}\n$line";
    }
    return $line;
}

# Simple directives ---------------------------------------------------------------
sub header {
    my ($self, $source) = @_;
    return join("\n",
        $self->banner($source),
        "\t.syntax\tunified",
        $self->{isa} eq 'thumb' ? "\t.thumb" : "\t.arm", '');
}

sub arch_directive_ok { return $_[1] =~ /^\.(arch|fpu)$/ }

sub arch_directive {
    my ($self, $name, $args) = @_;
    die "$name wants a name\n" unless $args =~ /^[\w.+-]+$/;
    my $r = "\t$name\t$args";
    # The object keeps claiming ARMv7: the kernels check the CPU themselves.
    $r .= "\n\t.object_arch\tarmv7" if $name eq '.arch' && $args =~ /^armv8/;
    # .arch resets the instruction set state on some assemblers.
    $r .= "\n\t" . ($self->{isa} eq 'thumb' ? '.thumb' : '.arm') if $name eq '.arch';
    return $r;
}

sub section {
    my ($self, $name) = @_;
    return "\t.text" if $name eq 'text';
    return "\t.text\t" . $self->comment('constants: in .text, so adr reaches them '
                                        . 'position-independently');
}

# Functions ---------------------------------------------------------------------
# The operand parser as a method, for perlasm::backend (statement_operands).
sub parse_op { my ($self, $text) = @_; return parse_operand($text) }

# The secret-register check (perlasm/ctcheck_arm.pm), for perlasm::backend's
# check_secrets.
sub public_register {
    my ($self, $r) = @_;
    my $g = gpr($r);
    die "public=$r: only core registers (r0-r12) can be declared public\n"
        unless $g && $g->{parent} =~ /^r(\d+)$/ && $1 <= 12;
    return $g->{parent};
}

sub run_secret_check {
    my ($self, $opts, $body, $public, $ops_of) = @_;
    perlasm::ctcheck_arm::check(body => $body, ops => $ops_of, public => $public,
                                decode => \&decode_mnemonic);
}

sub reg_list_text {
    my (@regs) = @_;
    return '{' . join(', ', @regs) . '}';
}

# Consecutive d registers as ranges for vpush/vpop: (d8-d9, d12).
sub d_ranges {
    my (@n) = @_;
    my @r;
    for my $n (@n) {
        if (@r && $r[-1][1] == $n - 1) { $r[-1][1] = $n } else { push @r, [$n, $n] }
    }
    return map { $_->[0] == $_->[1] ? "d$_->[0]" : "d$_->[0]-d$_->[1]" } @r;
}

sub function {
    my ($self, $name, $opts, $body) = @_;
    my $sym = $self->global_name($name);
    die "pic= is for 32-bit x86 (perlasm/x86.pm)\n" if defined $opts->{pic};
    my $test = defined $opts->{secrets};
    my $stack_args = $opts->{args} > 4 ? $opts->{args} - 4 : 0;
    die "more than 8 arguments are not supported\n" if $opts->{args} > 8;

    my (%used, @items, $calls);
    $used{"r$_"} = 1 for 4 .. 3 + $stack_args;
    for my $st (@$body) {
        if ($st->{kind} ne 'insn') { push @items, $st; next; }
        my @ops = $self->statement_operands($st);
        my $mn = $st->{mnemonic};
        my $d = eval { decode_mnemonic($mn) };
        die "$st->{where}: $@" if $@;
        my $b = $d->{base};
        die "$st->{where}: '$_->{name}' is not a register, number or label\n"
            for grep { $_->{type} eq 'sym' && $b !~ /^(b|adr|adrl)$/ } @ops;
        die "$st->{where}: $mn is not allowed in a body (the prologue and "
            . "epilogue own the stack and the link register)\n"
            if $b =~ /^(push|pop|ldm|stm|ldmia|stmia|ldmdb|stmdb|bl|bx)$/
               || ($b eq 'blx' && !$test);
        die "$st->{where}: cbz/cbnz exist only in Thumb; write cmp + beq/bne\n"
            if $b =~ /^cbn?z$/;
        die "$st->{where}: write the condition on the instruction; the "
            . "backend adds IT blocks for Thumb-2\n" if $b =~ /^it/;
        $calls = 1 if $b eq 'blx';
        my @regs = map { $_->{type} eq 'list' ? @{ $_->{regs} } : $_ } @ops;
        for my $op (@regs) {
            if ($op->{type} eq 'gpr') {
                $used{ $op->{parent} } = 1;
            } elsif ($op->{type} eq 'vreg') {
                $used{$_} = 1 for @{ $op->{dregs} };
            } elsif ($op->{type} eq 'mem') {
                $used{ $op->{base} } = 1;
                $used{ $op->{index} } = 1 if defined $op->{index};
                die "$st->{where}: changes sp by writeback; use frame= instead\n"
                    if $op->{base} eq 'r13' && ($op->{writeback} || $op != $ops[-1]);
                # ($op != $ops[-1]: a post-index operand follows, which
                # also moves the base.)
            } elsif ($op->{type} eq 'shift' && defined $op->{reg}) {
                $used{ $op->{reg} } = 1;
            }
        }
        die "$st->{where}: r9 is the platform register on some systems; "
            . "kernels leave it alone\n" if $used{r9} && !$test;
        my $writes_first = !$d->{neon}
            && $b !~ /^(str|strb|strh|strd|tst|teq|cmp|cmn|b|blx)$/;
        if (@ops && $ops[0]{type} eq 'gpr' && $writes_first
            && ($ops[0]{parent} =~ /^r1[35]$/ || ($ops[0]{parent} eq 'r14' && !$test))) {
            die "$st->{where}: writes $ops[0]{text}; the prologue and epilogue "
                . "own sp, lr and pc\n";
        }
        if (!$d->{neon} && $b =~ /^(ldr|ldrd)$/ && grep { $_->{type} eq 'gpr'
                && $_->{parent} eq 'r15' } @ops) {
            die "$st->{where}: loads pc\n";
        }
        if ($d->{neon} && $b eq 'vmov' && @ops >= 1 && $ops[0]{type} eq 'gpr'
            && $ops[0]{parent} =~ /^r1[345]$/) {
            die "$st->{where}: writes $ops[0]{text}\n";
        }
        push @items, { %$st, ops => \@ops };
    }
    die "lr belongs to the prologue\n" if $used{r14} && !$test;

    my @gprs = grep { $used{"r$_"} } 4 .. 11;
    push @gprs, 14 if $calls || $test;
    # An even count keeps sp 8-byte aligned: lr, or else r12 (scratch,
    # so restoring it is harmless), fills the gap.
    if (@gprs % 2) {
        push @gprs, (grep { $_ == 14 } @gprs) ? 12 : 14;
        @gprs = sort { $a <=> $b } @gprs;
    }
    my @dregs = grep { $used{"d$_"} } 8 .. 15;
    my $frame = ($opts->{frame} + 7) & ~7;
    my $pushed = 4 * @gprs + 8 * @dregs;

    my @out = ("\t.globl\t$sym", "\t.hidden\t$sym", "\t.type\t$sym,%function");
    push @out, $self->align(16);
    push @out, "\t.thumb_func" if $self->{isa} eq 'thumb';
    push @out, $self->comment($opts->{comment}) if defined $opts->{comment};
    push @out, "$sym:", "\t.fnstart";
    my (@pro, @epi);
    if (@gprs) {
        my $l = reg_list_text(map { $_ == 14 ? 'lr' : "r$_" } @gprs);
        push @pro, "\tpush\t$l", "\t.save\t$l";
        unshift @epi, "\tpop\t$l";
    }
    if (@dregs) {
        my $l = reg_list_text(d_ranges(@dregs));
        push @pro, "\tvpush\t$l", "\t.vsave\t$l";
        unshift @epi, "\tvpop\t$l";
    }
    if ($frame) {
        push @pro, "\tsub\tsp, sp, #$frame", "\t.pad\t#$frame";
        unshift @epi, "\tadd\tsp, sp, #$frame";
    }
    for my $i (0 .. $stack_args - 1) {
        my $off = $pushed + $frame + 4 * $i;
        push @pro, "\tldr\tr" . (4 + $i) . ", [sp, #$off]\t"
                   . $self->comment('argument ' . (5 + $i));
    }
    push @out, @pro;

    push @out, $self->render_body(\@items);
    push @out, @epi, "\tbx\tlr", "\t.fnend";
    push @out, "\t.size\t$sym, .-$sym";
    return join("\n", @out);
}

sub footer {
    my ($self) = @_;
    return "\t.section\t.note.GNU-stack,\"\",%progbits";
}

1;
