# asm/perlasm/x86.pm: the 32-bit x86 backend of libgcm's assembly translator
# (see driver.pm for the dialect and the backend interface).
#
# Source syntax
# =============
# As for x86_64 (perlasm/x86_64.pm, "Source syntax"): Intel operand order,
# bare register names, [base + index*scale + disp] with optional size
# keywords, branch targets by label. The registers are the 32-bit ones only:
# eax ebx ecx edx esi edi ebp esp (and their 16- and 8-bit parts ax .. sp,
# al ah .. dl dh) and xmm0-xmm7 (ymm0-ymm7); a 64-bit name, r8-r15 or
# xmm8-xmm15 is an error. The x86_64 backend's instruction renderer (AT&T
# operand order and size suffixes, NASM spelling) is shared: this module is
# a subclass that replaces what differs, the registers, addressing of
# constants, the names of symbols and the calling convention.
#
# Constants: there is no RIP-relative addressing on 32-bit x86. A function
# that reads constants declares a register for them,
#     .function NAME args=N pic=REG public=...
# and then writes [.Lconst], [.Lconst + 16] or [.Lconst + ecx*16] exactly
# as on x86_64. In the elf flavour the prologue sets REG to the address of
# a label just after a call to a get-PC thunk (`mov REG, [esp]; ret`, one
# per register, at the end of the file; a thunk keeps call and ret paired,
# which the return-stack predictor and CET shadow stacks both want), and
# each such operand is rendered as `.Lconst - anchor(REG)`, so the object
# has no text relocations. In the win32 flavour code is not position
# independent on Windows anyway (the loader applies base relocations): the
# operand is the absolute address and REG is left alone. In both, REG is
# public and the body may not write it.
#
# Flavours
# ========
#   elf     GNU as, AT&T syntax, System V i386 ABI (cdecl). Global entries
#           start with endbr32 (CET indirect-branch tracking); the object
#           carries .note.GNU-stack and a .note.gnu.property saying it is
#           IBT and shadow-stack compatible; .type/.size, .hidden and
#           .cfi_* for the prologue and epilogue.
#   win32   NASM for `nasm -f win32` (COFF): cdecl names with a leading
#           underscore; the object declares @feat.00 = 1, which tells the
#           linker it registers no exception handlers (none of these
#           functions has one), so /SAFESEH links accept it.
#
# Functions and the calling convention (cdecl)
# ============================================
# Arguments are on the stack: argument i (from 0) at [esp + 4 + 4*i] on
# entry; eax, ecx, edx and all xmm registers may be clobbered; ebx, esi,
# edi and ebp are callee-saved; the stack is only guaranteed 4-byte aligned
# (the i386 psABI's later 16-byte rule is not what every caller keeps, and
# Windows never promised it), so no kernel may assume more. DF is clear on
# entry and must be on exit; no kernel sets it.
#
# `.function NAME args=N [frame=B] [pic=REG]` emits a prologue that
#   - pushes every callee-saved register the body touches (or that receives
#     an argument), in the order ebp, ebx, esi, edi;
#   - loads the N arguments (at most 6) into registers in a fixed order,
#         edi, esi, edx, ecx, ebx, ebp
#     the System V x86_64 order (rdi, rsi, rdx, rcx) with 32-bit names and
#     then the two callee-saved registers left, so a kernel ported from
#     x86_64 keeps the register plan of its first four arguments and eax is
#     always free;
#   - with frame=B, reserves B bytes of scratch at [esp], aligned to 16
#     bytes whatever the caller's alignment: the entry esp is kept in the
#     four bytes at [esp + B] (the epilogue reloads esp from there), so the
#     body must not overwrite them. The CFI describes the frame exactly
#     (a DWARF expression reads the saved esp);
#   - with pic=REG, loads REG as described above.
# `.endfunction` emits the mirror image and `ret`. The body may not push,
# pop, ret or write esp (the frame is fixed after the prologue, which keeps
# the CFI exact everywhere); test code declared secrets=none may write esp
# (the ABI trampolines must place a callee's arguments), and its CFI is
# then only exact outside those stretches.
package perlasm::x86;

use strict;
use warnings;
use perlasm::driver;
use perlasm::ctcheck_x86;
use perlasm::x86_64;
our @ISA = ('perlasm::x86_64');

my %FLAVOURS = (
    'elf'   => { syntax => 'att',  obj => 'elf' },
    'win32' => { syntax => 'nasm', obj => 'coff' },
);

sub flavours { return sort keys %FLAVOURS }

# Registers: name -> [32-bit parent, size in bytes].
my %REG;
for my $r (['eax', 'ax', 'al', 'ah'], ['ebx', 'bx', 'bl', 'bh'],
           ['ecx', 'cx', 'cl', 'ch'], ['edx', 'dx', 'dl', 'dh'],
           ['esi', 'si'], ['edi', 'di'], ['ebp', 'bp'], ['esp', 'sp']) {
    my ($d, $w, $b, $h) = @$r;
    $REG{$d} = [$d, 4];
    $REG{$w} = [$d, 2];
    $REG{$b} = [$d, 1] if defined $b;
    $REG{$h} = [$d, 1] if defined $h;
}
for my $i (0 .. 7) {
    $REG{"xmm$i"} = ["xmm$i", 16];
    $REG{"ymm$i"} = ["xmm$i", 32];
}

my @ARGS = qw(edi esi edx ecx ebx ebp);
my @CALLEE_SAVED = qw(ebp ebx esi edi);
my %SIZE_KEYWORD = (byte => 1, word => 2, dword => 4, qword => 8,
                    oword => 16, xmmword => 16, yword => 32, ymmword => 32);

sub new {
    my ($class, $flavour) = @_;
    my $self = { %{ $FLAVOURS{$flavour} }, flavour => $flavour,
                 section => '', suffix => '', thunks => {} };
    return bless $self, $class;
}

# cdecl names (perlasm::backend's global_name checks them; local labels
# are spelled as in perlasm::x86_64).
sub global_spelling {
    my ($self, $name) = @_;
    return $self->{obj} eq 'coff' ? "_$name" : $name;
}

# Operands ----------------------------------------------------------------------
# The same shapes as perlasm::x86_64::parse_operand, over 32-bit registers;
# a label may be combined with an index register (it is reached through
# the function's pic= register).
sub parse_operand {
    my ($text) = @_;
    my $t = lc $text;
    $t =~ s/^\s+|\s+$//g;
    return { type => 'reg', name => $t, parent => $REG{$t}[0],
             size => $REG{$t}[1] } if exists $REG{$t};
    die "'$t' is not a 32-bit x86 register\n"
        if $t =~ /^(r\w+|[xy]mm(8|9|1\d)|sil|dil|bpl|spl)$/;
    my $num = perlasm::driver::parse_number($t);
    return { type => 'imm', value => $num, text => $text =~ s/^\s+|\s+$//gr }
        if defined $num;
    if ($t =~ /^(?:(\w+)\s+)?(?:ptr\s+)?\[(.*)\]$/) {
        my $kw = $1;
        my $m = { type => 'mem', disp => 0 };
        if (defined $kw) {
            die "unknown size keyword '$kw'\n" unless exists $SIZE_KEYWORD{$kw};
            $m->{size} = $SIZE_KEYWORD{$kw};
        }
        # Labels are matched in the original spelling (case matters).
        my $inner = ($text =~ /\[(.*)\]/)[0] =~ s/\s+//gr;
        my @terms = $inner =~ /([+-]?[^+-]+)/g;
        die "empty memory operand\n" unless @terms;
        for my $orig (@terms) {
            my $term = lc $orig;
            my $sign = $term =~ s/^([+-])// ? $1 : '+';
            $orig =~ s/^[+-]//;
            if (exists $REG{$term} && $REG{$term}[1] == 4) {
                die "register subtracted in address\n" if $sign eq '-';
                if (!defined $m->{base}) { $m->{base} = $term }
                elsif (!defined $m->{index}) { $m->{index} = $term; $m->{scale} = 1 }
                else { die "too many registers in address\n" }
            } elsif ($term =~ /^(\w+)\*([1248])$/ && exists $REG{$1}
                     || $term =~ /^([1248])\*(\w+)$/ && exists $REG{$2}) {
                my ($r, $s) = $term =~ /^(\w+)\*(\d)$/ && exists $REG{$1}
                              ? ($1, $2) : ($term =~ /^(\d)\*(\w+)$/)[1, 0];
                die "register subtracted in address\n" if $sign eq '-';
                die "two index registers\n" if defined $m->{index};
                die "'$r' cannot be an index\n"
                    if $r eq 'esp' || $REG{$r}[1] != 4;
                $m->{index} = $r;
                $m->{scale} = $s;
            } elsif (defined(my $v = perlasm::driver::parse_number($term))) {
                $m->{disp} += $sign eq '-' ? -$v : $v;
            } elsif ($orig =~ /^(\.L\w+)$/) {
                die "label subtracted in address\n" if $sign eq '-';
                die "two labels in address\n" if defined $m->{label};
                $m->{label} = $1;
            } else {
                die "cannot parse address term '$term'\n";
            }
        }
        if (defined $m->{label}) {
            # [.Lc + reg] is [.Lc + reg*1]: the pic= register is the base.
            if (defined $m->{base} && !defined $m->{index}) {
                ($m->{index}, $m->{scale}) = (delete $m->{base}, 1);
            }
            die "a constant's address takes one register at most (the pic= "
                . "register is the base)\n" if defined $m->{base};
        } elsif (!defined $m->{base} && !defined $m->{index}) {
            die "absolute addresses are not position independent\n";
        }
        return $m;
    }
    my $s = $text =~ s/^\s+|\s+$//gr;
    return { type => 'sym', name => $s } if $s =~ /^(\.L)?[A-Za-z_]\w*$/;
    die "cannot parse operand '$text'\n";
}

sub render_operand {
    my ($self, $op, $indirect) = @_;
    return $self->SUPER::render_operand($op, $indirect)
        unless $op->{type} eq 'mem' && defined $op->{label};
    my $d = $op->{disp};
    my $lab = $self->local_name($op->{label});
    $lab .= sprintf('%+d', $d) if $d;
    if ($self->gas) {
        my $pic = $self->{pic} or die "a constant's address needs pic=REG\n";
        my $s = ($indirect ? '*' : '') . "$lab-$pic->{anchor}(%$pic->{reg}";
        $s .= ",%$op->{index},$op->{scale}" if defined $op->{index};
        return "$s)";
    }
    die "a constant's address needs pic=REG\n" unless $self->{pic};
    my %nasm_size = (1 => 'byte', 2 => 'word', 4 => 'dword', 8 => 'qword',
                     16 => 'oword', 32 => 'yword');
    my $s = defined $op->{size} ? "$nasm_size{$op->{size}} " : '';
    $s .= "[$lab";
    $s .= "+$op->{index}*$op->{scale}" if defined $op->{index};
    return "$s]";
}

# perlasm::x86_64's insn_text, the secret-register check (perlasm::backend's
# check_secrets with perlasm::x86_64's public_register) and the helpers of
# function reach this file's operands and registers through these.
sub parse_op { my ($self, $text) = @_; return parse_operand($text) }
sub register_info { my ($self, $r) = @_; return $REG{$r} }
sub register_kind { return '32-bit x86 ' }

# Sections and the file -------------------------------------------------------------
# (header and section are perlasm::x86_64's: ELF and COFF alike.)
sub nasm_preamble {
    my ($self) = @_;
    return ('bits 32',
            $self->comment('SAFESEH: this object registers no exception handlers'),
            '$@feat.00 equ 1');
}

sub footer {
    my ($self) = @_;
    my @out;
    if (%{ $self->{thunks} }) {
        push @out, $self->section('text');
        for my $r (sort keys %{ $self->{thunks} }) {
            push @out, $self->comment("get-PC thunk: $r = the return address"),
                       $self->align(16), $self->local_name($self->{thunks}{$r}) . ':';
            push @out, "\t.cfi_startproc" if $self->gas;
            push @out, $self->insn_text("mov $r, [esp]"), $self->insn_text('ret');
            push @out, "\t.cfi_endproc" if $self->gas;
        }
    }
    if ($self->{obj} eq 'elf') {
        push @out,
            "\t.section\t.note.GNU-stack,\"\",\@progbits",
            $self->comment('GNU property note: IBT and SHSTK compatible'),
            "\t.section\t.note.gnu.property,\"a\",\@note",
            "\t.p2align\t2",
            "\t.long\t4, 12, 5\t" . $self->comment('namesz, descsz, NT_GNU_PROPERTY_TYPE_0'),
            "\t.asciz\t\"GNU\"",
            "\t.long\t0xc0000002, 4, 3\t" . $self->comment('X86_FEATURE_1_AND: IBT | SHSTK'),
            "\t.p2align\t2";
    }
    return join("\n", @out);
}

# Functions -------------------------------------------------------------------------
# The secret-register check is perlasm::x86_64's, with these two additions.
sub check_public {
    my ($self, $opts, $public) = @_;
    if (defined $opts->{pic}) {
        die "pic=$opts->{pic} must also be declared public\n"
            unless $public->{ $opts->{pic} };
    }
}
sub ctcheck_options { return (bits => 32) }

# LEB128 encodings for the CFI expression.
sub uleb {
    my ($v) = @_;
    my @b;
    do { my $x = $v & 0x7f; $v >>= 7; push @b, $x | ($v ? 0x80 : 0) } while ($v);
    return @b;
}
sub sleb {
    my ($v) = @_;
    my @b;
    while (1) {
        my $x = $v & 0x7f;
        $v >>= 7;    # arithmetic for the small values used here
        if (($v == 0 && !($x & 0x40)) || ($v == -1 && ($x & 0x40))) {
            push @b, $x;
            last;
        }
        push @b, $x | 0x80;
    }
    return @b;
}

sub function {
    my ($self, $name, $opts, $body) = @_;
    my $gas = $self->gas;
    my $test = defined $opts->{secrets};
    my $sym = $self->global_name($name);
    my $nargs = $opts->{args};
    die "more than 6 arguments are not supported\n" if $nargs > 6;
    my $pic = $opts->{pic};
    if (defined $pic) {
        die "pic=$pic is not a 32-bit general-purpose register\n"
            unless exists $REG{$pic} && $REG{$pic}[1] == 4 && $pic ne 'esp';
        die "pic=$pic would overwrite an argument\n"
            if grep { $_ eq $pic } @ARGS[0 .. $nargs - 1];
    }

    my (%used, @items);
    $used{$_} = 1 for @ARGS[0 .. $nargs - 1];
    $used{$pic} = 1 if defined $pic;
    for my $st (@$body) {
        if ($st->{kind} ne 'insn') { push @items, $st; next; }
        my @ops = $self->parse_statement(
            $st, qr/^(push|pop|ret|enter|leave|pushf|popf|pushfd|popfd|pushad|popad)$/);
        my $mn = $st->{mnemonic};
        my $dst = @ops && $ops[0]{type} eq 'reg' ? $ops[0]{parent} : '';
        die "$st->{where}: writes esp; use frame= instead\n"
            if $dst eq 'esp' && $mn !~ /^(cmp|test)$/ && !$test;
        die "$st->{where}: writes the pic= register $pic\n"
            if defined $pic && $dst eq $pic && $mn !~ /^(cmp|test)$/;
        for my $op (@ops) {
            $used{ $op->{parent} } = 1 if $op->{type} eq 'reg';
            if ($op->{type} eq 'mem') {
                $used{ $op->{base} } = 1 if defined $op->{base};
                $used{ $op->{index} } = 1 if defined $op->{index};
            }
        }
        push @items, { %$st, ops => \@ops };
    }

    my @saves = grep { $used{$_} } @CALLEE_SAVED;
    my $frame = ($opts->{frame} + 15) & ~15;
    my $cfa = 4 + 4 * @saves;    # entry esp + 4 - esp, after the pushes

    my @out = $self->function_entry($sym, $opts, 'endbr32');
    my $L = sub { my $n = shift; return $self->local_name(".L${name}_$n") };
    my $off = 4;
    for my $r (@saves) {
        push @out, $self->insn_text("push $r");
        push @out, "\t.cfi_adjust_cfa_offset\t4", "\t.cfi_rel_offset\t%$r, 0" if $gas;
        $off += 4;
    }
    push @out, $self->comment('cdecl arguments to ' . join(', ', @ARGS[0 .. $nargs - 1]))
        if $nargs;
    for my $i (0 .. $nargs - 1) {
        push @out, $self->insn_text("mov $ARGS[$i], [esp + " . ($off + 4 * $i) . "]");
    }
    if ($frame) {
        push @out, $self->comment("$frame-byte frame, 16-byte aligned; entry esp at [esp + $frame]");
        push @out, $self->insn_text('mov eax, esp');
        push @out, "\t.cfi_def_cfa_register\t%eax" if $gas;
        push @out, $self->insn_text('sub esp, ' . ($frame + 4));
        push @out, $self->insn_text('and esp, -16');
        push @out, $self->insn_text("mov [esp + $frame], eax");
        if ($gas) {
            # CFA = [esp + frame] + cfa: DW_CFA_def_cfa_expression
            # (DW_OP_breg4 frame, DW_OP_deref, DW_OP_plus_uconst cfa).
            my @e = (0x74, sleb($frame), 0x06, 0x23, uleb($cfa));
            push @out, "\t.cfi_escape\t" . join(', ', map { sprintf '0x%02x', $_ }
                                                  0x0f, scalar(@e), @e);
        }
    }
    if (defined $pic) {
        if ($self->{obj} eq 'elf') {
            my $thunk = $self->{thunks}{$pic} //= ".Lx86_get_pc_$pic";
            my $anchor = $L->('pic');
            push @out, $self->comment("$pic = $anchor, through which constants are reached");
            push @out, "\tcall\t" . $self->local_name($thunk), "$anchor:";
            $self->{pic} = { reg => $pic, anchor => $anchor };
        } else {
            $self->{pic} = { reg => $pic };
        }
    }

    push @out, $self->render_body(\@items);
    delete $self->{pic};

    if ($frame) {
        push @out, $self->insn_text("mov esp, [esp + $frame]");
        push @out, "\t.cfi_def_cfa\t%esp, $cfa" if $gas;
    }
    for my $r (reverse @saves) {
        push @out, $self->insn_text("pop $r");
        push @out, "\t.cfi_adjust_cfa_offset\t-4", "\t.cfi_restore\t%$r" if $gas;
    }
    push @out, $self->insn_text('ret');
    if ($gas) {
        push @out, "\t.cfi_endproc", "\t.size\t$sym, .-$sym";
    }
    return join("\n", @out);
}

1;
