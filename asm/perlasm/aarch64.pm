# asm/perlasm/aarch64.pm: the aarch64 (A64) backend of libgcm's assembly
# translator (see driver.pm for the dialect and the backend interface; this
# is a sibling of x86_64.pm and x86.pm, and inherits what all backends share
# from backend.pm).
#
# Source syntax
# =============
# Kernels write A64 as the Arm Architecture Reference Manual prints it
# (the GNU as / LLVM syntax): destination first, `#` before immediates,
# general-purpose registers x0-x30 / w0-w30, sp, xzr, wzr; SIMD registers
# as vN.<T> (v0.16b, v1.2d, v3.4s), lanes vN.<T>[i], or scalar qN/dN/sN;
# register lists {v0.16b-v3.16b} or {v0.16b, v1.16b}; memory [xN],
# [xN, #imm], [xN, #imm]! (pre-index), [xN], #imm or [xN], xM
# (post-index), [xN, xM, lsl #3]. Branch targets are label names.
# The driver reads `#` as the start of a comment, so kernels write
# immediates without it (`add x0, x0, 16`, `ext v0.16b, v1.16b, v2.16b, 12`,
# `[x0, 240]`, `lsl 3`); the backend puts the `#` back. A bare number in an
# operand position is an immediate.
#
# One pseudo-instruction:
#   adrl xN, .Lsym        xN = address of .Lsym, position independently
#                         (ELF: adrp + add :lo12:; Mach-O: @PAGE/@PAGEOFF),
#                         so constants may live in .rodata, anywhere.
#
# Flavours
# ========
#   linux64   GNU as for ELF (Linux, Android, the BSDs). Functions are
#             .globl + .hidden with .type/.size and .cfi_*; every global
#             entry starts with `bti c` (written `hint #34`, so assemblers
#             without BTI support accept it, and a no-op before Armv8.5);
#             a function that saves x30 signs it with paciasp/autiasp
#             (`hint #25` / `hint #29`). The object carries .note.GNU-stack
#             and a .note.gnu.property with GNU_PROPERTY_AARCH64_FEATURE_1_AND
#             = BTI | PAC, so a process built with -mbranch-protection=standard
#             keeps BTI enforcement when it links libgcm.
#   ios64, macos64
#             Mach-O for Apple's assembler (clang): `_` before global names,
#             `L` local labels, .private_extern, no .type/.size/.note;
#             adrp with @PAGE / add with @PAGEOFF.
#
# Functions and AAPCS64
# =====================
# Arguments arrive in x0-x7; x0-x18 (x18 is the platform register: never
# touched) and v0-v7, v16-v31 may be clobbered; x19-x28, x29 (frame
# pointer), x30 (link register) and the low 64 bits (d8-d15) of v8-v15 are
# callee-saved. `.function NAME args=N [frame=B]` scans the body and emits a
# prologue that
#   - saves every x19-x28 and d8-d15 the body touches (in any of its names:
#     w20, v9.16b, q9, d9, a list {v8.16b-v11.16b} ...), with x29/x30 as a
#     frame record (x29 then points to it, so frame-pointer unwinding works),
#     whenever anything is saved or a frame is asked for;
#   - reserves `frame` bytes of scratch at [sp] (16-byte aligned);
#   - describes all of it with .cfi_* (ELF and Mach-O).
# `.endfunction` emits the mirror-image epilogue and `ret`. The body may
# not write sp, use x18, ret, bl/blr, or change sp by writeback: the frame
# is fixed after the prologue. Test code that handles no secrets
# (`secrets=none`, the ABI trampoline) may call (blr) and load x29: the
# frame record then always saves x29 and x30.
package perlasm::aarch64;

use strict;
use warnings;
use perlasm::driver;
use perlasm::ctcheck_aarch64;
use perlasm::backend;
our @ISA = ('perlasm::backend');

my %FLAVOURS = (
    'linux64' => { obj => 'elf' },
    'ios64'   => { obj => 'macho' },
    'macos64' => { obj => 'macho' },
);

sub flavours { return sort keys %FLAVOURS }

sub new {
    my ($class, $flavour) = @_;
    return bless { %{ $FLAVOURS{$flavour} }, flavour => $flavour }, $class;
}

# Names ----------------------------------------------------------------------
# The flavour's spelling of names (perlasm::backend's local_name and
# global_name check a name against the dialect's rules, then ask these).
sub local_prefix { return $_[0]{obj} eq 'elf' ? '.L' : 'L' }

sub global_spelling {
    my ($self, $name) = @_;
    return $self->{obj} eq 'macho' ? "_$name" : $name;
}

# Operands --------------------------------------------------------------------
my %COND = map { $_ => 1 } qw(eq ne cs hs cc lo mi pl vs vc hi ls ge lt gt le al nv);
my %SHIFT = map { $_ => 1 } qw(lsl lsr asr ror uxtb uxth uxtw uxtx sxtb sxth
                               sxtw sxtx msl);

sub gpr {
    my ($t) = @_;
    return { type => 'gpr', parent => 'sp', text => $t } if $t =~ /^w?sp$/;
    return { type => 'gpr', parent => 'xzr', text => $t } if $t =~ /^[xw]zr$/;
    return { type => 'gpr', parent => "x$2", text => $t }
        if $t =~ /^([xw])(\d+)$/ && $2 <= 30;
    return undef;
}

sub vreg {
    my ($t) = @_;
    return { type => 'vreg', parent => "v$2", text => $t }
        if $t =~ /^(v)(\d+)(\.\d*[bhsdq])?(\[\d+\])?$/ && $2 <= 31;
    return { type => 'vreg', parent => "v$2", text => $t }
        if $t =~ /^([qdshb])(\d+)$/ && $2 <= 31;
    return undef;
}

sub number {
    my ($t) = @_;
    return $t =~ /^-?(0x[0-9a-f]+|\d+)$/i;
}

sub parse_operand {
    my ($text) = @_;
    my $t = lc $text;
    $t =~ s/^\s+|\s+$//g;
    if ($t =~ /^\[(.*)\](!?)$/) {
        my ($inner, $wb) = ($1, $2);
        my @parts = perlasm::driver::split_operands($inner);
        my $base = gpr($parts[0]);
        die "memory base '$parts[0]' is not a 64-bit register\n"
            unless $base && $parts[0] =~ /^(x\d+|sp)$/;
        my %m = (type => 'mem', base => $base->{parent}, writeback => $wb ? 1 : 0,
                 parts => [$parts[0]]);
        for my $p (@parts[1 .. $#parts]) {
            if (number($p)) { push @{ $m{parts} }, "#$p"; next; }
            if ($p =~ /^:lo12:(\.?\w+)$/) { $m{lo12} = $1; push @{ $m{parts} }, $p; next; }
            if (my $g = gpr($p)) {
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
    if ($t =~ /^\{(.*)\}(\[\d+\])?$/) {
        my ($inner, $lane) = ($1, $2);
        my @regs;
        for my $p (split /\s*,\s*/, $inner) {
            if ($p =~ /^(v(\d+)(\.\d*[bhsd]))\s*-\s*v(\d+)(\.\d*[bhsd])$/) {
                my ($lo, $hi) = ($2, $4);
                $hi += 32 if $hi < $lo;
                push @regs, vreg('v' . ($_ % 32) . $3) for $lo .. $hi;
            } else {
                my $v = vreg($p);
                die "'$p' in a register list is not a SIMD register\n" unless $v;
                push @regs, $v;
            }
        }
        return { type => 'list', regs => \@regs, text => $text };
    }
    if (my $g = gpr($t)) { return $g }
    if (my $v = vreg($t)) { return $v }
    return { type => 'imm', text => "#$t" } if number($t);
    return { type => 'imm', text => "#$1" } if $t =~ /^#(.*)$/;
    return { type => 'cond', text => $t } if $COND{$t};
    if ($t =~ /^(\w+)\s+(\d+)$/ && $SHIFT{$1}) {
        return { type => 'shift', text => "$1 #$2" };
    }
    return { type => 'shift', text => $t } if $SHIFT{$t};
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
    if ($t eq 'list') {
        return '{' . join(', ', map { $_->{text} } @{ $op->{regs} }) . '}'
            . ($op->{text} =~ /(\[\d+\])\s*$/ ? $1 : '');
    }
    return $op->{text};
}

sub render_insn {
    my ($self, $mn, $ops) = @_;
    if ($mn eq 'adrl') {
        die "adrl wants a register and a label\n"
            unless @$ops == 2 && $ops->[0]{type} eq 'gpr' && $ops->[1]{type} eq 'sym';
        my $r = $ops->[0]{text};
        my $s = $self->symbol($ops->[1]{name});
        return $self->{obj} eq 'elf'
            ? "\tadrp\t$r, $s\n\tadd\t$r, $r, :lo12:$s"
            : "\tadrp\t$r, $s\@PAGE\n\tadd\t$r, $r, $s\@PAGEOFF";
    }
    return "\t$mn" unless @$ops;
    return "\t$mn\t" . join(', ', map { $self->render_operand($_) } @$ops);
}

sub insn_text {
    my ($self, $line) = @_;
    my ($mn, $rest) = $line =~ /^\s*(\S+)\s*(.*)$/;
    my @ops = $rest eq '' ? () : map { parse_operand($_) }
                                 perlasm::driver::split_operands($rest);
    return $self->render_insn(lc $mn, \@ops);
}

# Simple directives ---------------------------------------------------------------
sub header {
    my ($self, $source) = @_;
    return join("\n",
        $self->banner($source),
        # The kernels check the CPU at run time; the assembler must accept
        # the Cryptographic Extension (and EOR3, FEAT_SHA3) whatever -march
        # the build uses. ELF objects for aarch64 record no architecture
        # level, so this claims nothing about the library.
        "\t.arch\tarmv8.2-a+crypto+sha3", '');
}

sub section {
    my ($self, $name) = @_;
    if ($self->{obj} eq 'elf') {
        return $name eq 'text' ? "\t.text" : "\t.section\t.rodata,\"a\",\@progbits";
    }
    return $name eq 'text' ? "\t.section\t__TEXT,__text,regular,pure_instructions"
                           : "\t.section\t__TEXT,__const";
}

# Functions ---------------------------------------------------------------------
# The operand parser as a method, for perlasm::backend (statement_operands).
sub parse_op { my ($self, $text) = @_; return parse_operand($text) }

# The secret-register check (perlasm/ctcheck_aarch64.pm), for
# perlasm::backend's check_secrets.
sub public_register {
    my ($self, $r) = @_;
    my $g = gpr($r);
    die "public=$r: only general-purpose registers (x0-x30, w0-w30) "
        . "can be declared public\n" unless $g && $g->{parent} =~ /^x\d+$/;
    return $g->{parent};
}

sub run_secret_check {
    my ($self, $opts, $body, $public, $ops_of) = @_;
    perlasm::ctcheck_aarch64::check(body => $body, ops => $ops_of,
                                    public => $public);
}

sub function {
    my ($self, $name, $opts, $body) = @_;
    my $elf = $self->{obj} eq 'elf';
    my $sym = $self->global_name($name);
    die "more than 8 arguments are not supported\n" if $opts->{args} > 8;
    die "pic= is for 32-bit x86 (perlasm/x86.pm)\n" if defined $opts->{pic};

    my (%used, @items, $calls);
    for my $st (@$body) {
        if ($st->{kind} ne 'insn') { push @items, $st; next; }
        my @ops = $self->statement_operands($st);
        my $mn = $st->{mnemonic};
        die "$st->{where}: '$_->{name}' is not a register, number or label\n"
            for grep { $_->{type} eq 'sym'
                       && $mn !~ /^(b|b\.\w+|cbn?z|tbn?z|adr|adrp|adrl)$/ } @ops;
        # Test code (secrets=none: the ABI trampoline) may call out: the
        # frame record keeps x30, and it may load x29 for the callee to keep.
        my $test = defined $opts->{secrets};
        die "$st->{where}: $mn is not allowed in a body (the prologue and "
            . "epilogue own the stack and the link register)\n"
            if $mn =~ /^(ret|reta[ab]|eret)$/
               || (!$test && $mn =~ /^(bl|blr|blra\w*)$/);
        $calls = 1 if $mn =~ /^(bl|blr)$/;
        my @regs = map { $_->{type} eq 'list' ? @{ $_->{regs} } : $_ } @ops;
        for my $op (@regs) {
            if ($op->{type} eq 'gpr' || $op->{type} eq 'vreg') {
                $used{ $op->{parent} } = 1;
            } elsif ($op->{type} eq 'mem') {
                $used{ $op->{base} } = 1;
                $used{ $op->{index} } = 1 if defined $op->{index};
                die "$st->{where}: changes sp by writeback; use frame= instead\n"
                    if $op->{base} eq 'sp' && $op->{writeback};
            }
        }
        die "$st->{where}: x18 is the platform register; kernels leave it alone\n"
            if $used{x18};
        if (@ops && $ops[0]{type} eq 'gpr' && $ops[0]{parent} eq 'sp'
            && !perlasm::ctcheck_aarch64::is_store($mn) && $mn !~ /^(cmp|cmn|tst)$/) {
            die "$st->{where}: writes sp; use frame= instead\n";
        }
        # A post-indexed sp base also moves sp.
        my $after_mem = 0;
        for my $op (@ops) {
            if ($op->{type} eq 'mem') { $after_mem = $op->{base} eq 'sp'; next; }
            die "$st->{where}: changes sp by writeback; use frame= instead\n"
                if $after_mem;
        }
        push @items, { %$st, ops => \@ops };
    }
    die "x30 belongs to the prologue\n" if $used{x30};
    die "x29 belongs to the prologue (only test code, secrets=none, may "
        . "load it)\n" if $used{x29} && !defined $opts->{secrets};

    my @gprs = grep { $used{"x$_"} } 19 .. 28;
    my @dregs = grep { $used{"v$_"} } 8 .. 15;
    my $frame = ($opts->{frame} + 15) & ~15;
    my $record = (@gprs || @dregs || $frame || $calls || $used{x29}) ? 1 : 0;
    my $gsize = 8 * @gprs;
    my $dsize = 8 * @dregs;
    my $saves = (16 + $gsize + $dsize + 15) & ~15;
    my $total = $record ? $frame + $saves : 0;

    my @out;
    if ($elf) {
        push @out, "\t.globl\t$sym", "\t.hidden\t$sym", "\t.type\t$sym,\%function";
    } else {
        push @out, "\t.globl\t$sym", "\t.private_extern\t$sym";
    }
    push @out, $self->align(16);
    push @out, $self->comment($opts->{comment}) if defined $opts->{comment};
    push @out, "$sym:", "\t.cfi_startproc";
    push @out, "\thint\t#34\t" . $self->comment('bti c') if $elf;

    # Prologue: [sp, frame) scratch; at sp+frame the frame record {x29, x30},
    # then the x19-x28 saves, then the d8-d15 saves.
    my (@pro, @epi);
    if ($record) {
        push @pro, "\thint\t#25\t" . $self->comment('paciasp: sign the return address')
            if $elf;
        push @pro, "\t.cfi_negate_ra_state" if $elf;
        die "frame too large\n" if $total > 4095;
        push @pro, "\tsub\tsp, sp, #$total", "\t.cfi_def_cfa_offset\t$total";
        push @pro, "\tstp\tx29, x30, [sp, #$frame]",
                   "\t.cfi_offset\tx29, " . ($frame - $total),
                   "\t.cfi_offset\tx30, " . ($frame + 8 - $total);
        push @pro, "\tadd\tx29, sp, #$frame";
        # Pairs of the same kind only (stp cannot mix x and d registers): an
        # odd x register is stored alone.
        my @groups = ([map { ["x$_", "x$_"] } @gprs], [map { ["d$_", "d$_"] } @dregs]);
        my @pairs;
        for my $g (@groups) {
            push @pairs, [splice(@$g, 0, 2)] while @$g;
        }
        my $off = $frame + 16;
        for my $p (@pairs) {
            my @pair = @$p;
            if (@pair == 2) {
                push @pro, "\tstp\t$pair[0][0], $pair[1][0], [sp, #$off]";
                unshift @epi, "\tldp\t$pair[0][0], $pair[1][0], [sp, #$off]";
            } else {
                push @pro, "\tstr\t$pair[0][0], [sp, #$off]";
                unshift @epi, "\tldr\t$pair[0][0], [sp, #$off]";
            }
            for my $i (0 .. $#pair) {
                my $o = $off + 8 * $i - $total;
                # DWARF numbers d8-d15 as v8-v15 (64 + n).
                my $dw = $pair[$i][1] =~ /^d(\d+)$/ ? 64 + $1 : $pair[$i][1];
                push @pro, "\t.cfi_offset\t$dw, $o";
            }
            $off += 8 * @pair;
        }
        push @epi, "\tldp\tx29, x30, [sp, #$frame]", "\tadd\tsp, sp, #$total";
        push @epi, "\thint\t#29\t" . $self->comment('autiasp') if $elf;
    }
    push @out, @pro;

    push @out, $self->render_body(\@items);
    push @out, @epi, "\tret", "\t.cfi_endproc";
    push @out, "\t.size\t$sym, .-$sym" if $elf;
    return join("\n", @out);
}

sub footer {
    my ($self) = @_;
    return "\t.subsections_via_symbols" if $self->{obj} eq 'macho';
    return join("\n",
        "\t.section\t.note.GNU-stack,\"\",\@progbits",
        $self->comment('GNU property note: BTI and PAC compatible'),
        "\t.section\t.note.gnu.property,\"a\",\@note",
        "\t.p2align\t3",
        "\t.long\t4, 16, 5\t" . $self->comment('namesz, descsz, NT_GNU_PROPERTY_TYPE_0'),
        "\t.asciz\t\"GNU\"",
        "\t.long\t0xc0000000, 4, 3\t"
            . $self->comment('GNU_PROPERTY_AARCH64_FEATURE_1_AND: BTI | PAC'),
        "\t.long\t0\t" . $self->comment('padding to 8 bytes'),
        "\t.p2align\t3");
}

1;
