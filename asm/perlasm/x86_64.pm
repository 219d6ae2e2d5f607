# asm/perlasm/x86_64.pm: the x86_64 backend of libgcm's assembly translator
# (see driver.pm for the dialect and the backend interface; what all
# backends share is in backend.pm, which this one inherits from).
#
# Source syntax
# =============
# Kernels write instructions as the Intel SDM prints them: Intel operand
# order (destination first), bare register names, immediates as plain
# numbers, memory as [base + index*scale + disp] with an optional size
# keyword (byte word dword qword oword/xmmword yword/ymmword) where the
# operand size is not implied by a register operand. A memory operand naming
# a `.L` label, [.Lconst] or [.Lconst + 16], is RIP-relative: generated code
# is always position independent. Branch targets are label names.
# Vector registers are xmm0-31, ymm0-31 and zmm0-31 (16-31 need EVEX, i.e.
# AVX-512), opmask registers k0-k7; an AVX-512 destination may carry the
# decorations {k1}..{k7} and {z} as the SDM writes them
# (`vmovdqu8 zmm1{k2}{z}, [rsi]`, `vmovdqu8 [rdi]{k2}, zmm1`), and memory
# takes the size keywords zword/zmmword for 64 bytes. VEX and EVEX
# instructions keep Intel operand order (destination, sources, immediate
# last); AT&T output reverses them as GNU as expects.
#
# Flavours
# ========
#   elf        GNU as, AT&T syntax, System V ABI. Global entries start with
#              endbr64 (CET indirect-branch tracking); the object carries
#              .note.GNU-stack (no executable stack) and a
#              .note.gnu.property saying it is IBT and shadow-stack
#              compatible; .type/.size and .cfi_* for the prologue and
#              epilogue. Functions are .hidden: they are internal to libgcm.
#   macosx     GNU as syntax for Mach-O (what clang assembles on macOS):
#              `_` before global names, __TEXT,__text / __TEXT,__const,
#              .private_extern, .cfi_*, no .type/.size/.note.
#   nasm       NASM for win64 (COFF): Microsoft x64 ABI, .pdata/.xdata
#              unwind tables for every function.
#   elf-msabi  For tests only: the Microsoft x64 calling convention in an
#              ELF object, names suffixed `_msabi`, so Linux tests can run
#              the win64 prologue and epilogue through a trampoline (and
#              compilers' __attribute__((ms_abi))).
# The flavour fixes three independent things: the syntax (AT&T for GNU as,
# Intel for NASM), the object format (directives, symbol and label
# spelling), and the calling convention (System V or Microsoft x64).
#
# Functions and ABIs
# ==================
# Kernels are written against the System V ABI: arguments arrive in rdi,
# rsi, rdx, rcx, r8, r9; rax, rcx, rdx, rsi, rdi, r8-r11 and all xmm
# registers may be clobbered. `.function NAME args=N [frame=B]` scans the
# function's body and emits a prologue that
#   - pushes every callee-saved register the body touches (rbx, rbp,
#     r12-r15; on win64 also rdi and rsi, always, since a kernel uses them
#     for its arguments);
#   - on win64 saves every xmm6-xmm15 the body touches (as xmm or ymm) with
#     movaps into the frame;
#   - reserves `frame` bytes of scratch at [rsp], 16-byte aligned whenever
#     the function uses any stack (frame or xmm saves);
#   - on win64 moves arguments from rcx, rdx, r8, r9 (and the stack for the
#     5th and 6th) to rdi, rsi, rdx, rcx, r8, r9, in an order that never
#     overwrites a register before it is read.
# `.endfunction` emits the mirror-image epilogue and `ret`. The body may not
# push, pop, ret, or write rsp: the frame is fixed after the prologue, which
# keeps the .cfi_* and win64 unwind descriptions exact everywhere in the
# body. Registers are found by name (eax counts as rax, xmm6, ymm6 and zmm6
# as xmm6; VZEROALL as all of xmm0-15), so a kernel cannot forget to save
# one.
#
# Microsoft x64 checklist (what the nasm flavour guarantees, per the
# Microsoft "x64 calling convention" and "x64 exception handling" documents)
#   [x] rbx, rbp, rdi, rsi, r12-r15, xmm6-xmm15 are non-volatile: saved and
#       restored when touched (rdi, rsi always).
#   [x] rsp is 16-byte aligned in the body of any function that uses stack;
#       the caller's 32-byte shadow space (home area) above the return
#       address is left alone, and stack arguments 5 and 6 are read from
#       [entry rsp + 40] and [entry rsp + 48].
#   [x] Every function has a RUNTIME_FUNCTION entry in .pdata and an
#       UNWIND_INFO in .xdata with one unwind code per prologue instruction
#       (UWOP_PUSH_NONVOL, UWOP_ALLOC_SMALL/LARGE, UWOP_SAVE_XMM128), listed
#       in reverse prologue order with the offset of the end of each
#       instruction, so debuggers and exceptions can walk through any
#       instruction of the function.
#   [x] The epilogue has the shape the unwinder recognises: xmm restores
#       (still inside the body as far as the unwinder is concerned), then
#       `add rsp, A`, pops of non-volatile registers, `ret`.
#   [x] Upper halves of ymm6-ymm15 (and of zmm6-15) are volatile: only the
#       low 128 bits are saved. xmm16-31 (EVEX) are volatile.
#   [x] A function whose body names any ymm or zmm register gets a
#       VZEROUPPER in its epilogue (unless its body already ends in
#       VZEROUPPER or VZEROALL), in every flavour and ABI: the upper state
#       is clean on return (test/abi_test.cc checks it with XGETBV(1)).
#       VZEROUPPER does not reset zmm16-31 (the Hi16_ZMM state): a kernel
#       that uses them must clear them itself before it ends.
# Direction flag: both ABIs require DF clear on entry and exit; no kernel
# sets it.
package perlasm::x86_64;

use strict;
use warnings;
use perlasm::driver;
use perlasm::ctcheck_x86;
use perlasm::backend;
our @ISA = ('perlasm::backend');

my %FLAVOURS = (
    'elf'       => { syntax => 'att',  obj => 'elf',   abi => 'sysv' },
    'macosx'    => { syntax => 'att',  obj => 'macho', abi => 'sysv' },
    'nasm'      => { syntax => 'nasm', obj => 'coff',  abi => 'win64' },
    'elf-msabi' => { syntax => 'att',  obj => 'elf',   abi => 'win64',
                     suffix => '_msabi' },
);

sub flavours { return sort keys %FLAVOURS }

# Registers -----------------------------------------------------------------
# name -> [64-bit parent, size in bytes]
my %REG;
{
    my @legacy = (['rax', 'eax', 'ax', 'al'], ['rbx', 'ebx', 'bx', 'bl'],
                  ['rcx', 'ecx', 'cx', 'cl'], ['rdx', 'edx', 'dx', 'dl'],
                  ['rsi', 'esi', 'si', 'sil'], ['rdi', 'edi', 'di', 'dil'],
                  ['rbp', 'ebp', 'bp', 'bpl'], ['rsp', 'esp', 'sp', 'spl']);
    for my $r (@legacy) {
        my ($q, $d, $w, $b) = @$r;
        $REG{$q} = [$q, 8]; $REG{$d} = [$q, 4];
        $REG{$w} = [$q, 2]; $REG{$b} = [$q, 1];
    }
    $REG{$_->[0]} = [$_->[1], 1] for (['ah', 'rax'], ['bh', 'rbx'],
                                      ['ch', 'rcx'], ['dh', 'rdx']);
    for my $i (8 .. 15) {
        $REG{"r$i"} = ["r$i", 8]; $REG{"r${i}d"} = ["r$i", 4];
        $REG{"r${i}w"} = ["r$i", 2]; $REG{"r${i}b"} = ["r$i", 1];
    }
    # Vector registers: xmm, ymm and zmm N all count as xmmN, the part
    # win64 saves for N = 6..15 (xmm16-31 and every upper part are
    # volatile in both ABIs).
    for my $i (0 .. 31) {
        $REG{"xmm$i"} = ["xmm$i", 16];
        $REG{"ymm$i"} = ["xmm$i", 32];
        $REG{"zmm$i"} = ["xmm$i", 64];
    }
    # AVX-512 opmask registers (volatile in both ABIs).
    $REG{"k$_"} = ["k$_", 8] for 0 .. 7;
}

# Unwind register numbers (Microsoft x64 UNWIND_CODE OpInfo).
my %WIN64_REGNUM = (rax => 0, rcx => 1, rdx => 2, rbx => 3, rsp => 4,
                    rbp => 5, rsi => 6, rdi => 7,
                    map { ("r$_" => $_) } 8 .. 15);

my @SYSV_ARGS = qw(rdi rsi rdx rcx r8 r9);
my @WIN64_ARGS = qw(rcx rdx r8 r9);
my @CALLEE_SAVED_GP = qw(rbx rbp r12 r13 r14 r15);

my %SIZE_KEYWORD = (byte => 1, word => 2, dword => 4, qword => 8,
                    oword => 16, xmmword => 16, yword => 32, ymmword => 32,
                    zword => 64, zmmword => 64);
my %NASM_SIZE = (1 => 'byte', 2 => 'word', 4 => 'dword', 8 => 'qword',
                 16 => 'oword', 32 => 'yword', 64 => 'zword');
my %ATT_SUFFIX = (1 => 'b', 2 => 'w', 4 => 'l', 8 => 'q');

sub new {
    my ($class, $flavour) = @_;
    my $self = { %{ $FLAVOURS{$flavour} }, flavour => $flavour,
                 unwind => [], section => '' };
    $self->{suffix} //= '';
    return bless $self, $class;
}

sub gas { return $_[0]{syntax} eq 'att' }

# Names -----------------------------------------------------------------------
# The flavour's spelling of names (perlasm::backend's local_name and
# global_name check a name against the dialect's rules, then ask these).
sub local_prefix {
    my ($self) = @_;
    return '.L' if $self->{obj} eq 'elf';
    return 'L'  if $self->{obj} eq 'macho';
    return 'L$';
}

sub global_spelling {
    my ($self, $name) = @_;
    my $n = $name . $self->{suffix};
    return $self->{obj} eq 'macho' ? "_$n" : $n;
}

# Operands --------------------------------------------------------------------
sub parse_operand {
    my ($text) = @_;
    # AVX-512 decorations after a destination: {k1}..{k7} (merge masking)
    # and {z} (zero masking), as in `vmovdqu8 zmm0{k1}{z}, [rsi]`.
    my @deco;
    while ($text =~ s/\{\s*(\w+)\s*\}\s*$//) {
        my $d = lc $1;
        die "unknown operand decoration '{$d}'\n" unless $d =~ /^(k[1-7]|z)$/;
        unshift @deco, $d;
    }
    if (@deco) {
        my $op = parse_operand($text);
        die "decorations need a register or memory operand\n"
            unless $op->{type} eq 'reg' || $op->{type} eq 'mem';
        die "{z} needs a mask register\n"
            if (grep { $_ eq 'z' } @deco) && !(grep { /^k/ } @deco);
        $op->{deco} = \@deco;
        return $op;
    }
    my $t = lc $text;
    $t =~ s/^\s+|\s+$//g;
    return { type => 'reg', name => $t, parent => $REG{$t}[0],
             size => $REG{$t}[1] } if exists $REG{$t};
    my $num = perlasm::driver::parse_number($t);
    return { type => 'imm', value => $num, text => $text =~ s/^\s+|\s+$//gr }
        if defined $num;
    if ($t =~ /^(?:(\w+)\s+)?(?:ptr\s+)?\[(.*)\]$/) {
        my ($kw, $inner) = ($1, $2);
        my $m = { type => 'mem', disp => 0 };
        if (defined $kw) {
            die "unknown size keyword '$kw'\n" unless exists $SIZE_KEYWORD{$kw};
            $m->{size} = $SIZE_KEYWORD{$kw};
        }
        $inner =~ s/\s+//g;
        $inner =~ s/^rel//;    # [rel .Lfoo] is accepted, but it is implied
        my @terms = $inner =~ /([+-]?[^+-]+)/g;
        die "empty memory operand\n" unless @terms;
        # Labels are matched in the original spelling (case matters).
        my @orig = ($text =~ /\[(.*)\]/)[0] =~ s/\s+//gr =~ s/^rel//r
                   =~ /([+-]?[^+-]+)/g;
        for my $i (0 .. $#terms) {
            my $term = $terms[$i];
            my $sign = $term =~ s/^([+-])// ? $1 : '+';
            if (exists $REG{$term} && $REG{$term}[1] == 8
                && $REG{$term}[0] =~ /^r/) {
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
                die "rsp cannot be an index\n" if $r eq 'rsp';
                die "'$r' cannot be an index\n" unless $REG{$r}[1] == 8
                                                    && $REG{$r}[0] =~ /^r/;
                $m->{index} = $r;
                $m->{scale} = $s;
            } elsif (defined(my $v = perlasm::driver::parse_number($term))) {
                $m->{disp} += $sign eq '-' ? -$v : $v;
            } elsif ($orig[$i] =~ /^[+]?(\.L\w+)$/) {
                die "label subtracted in address\n" if $sign eq '-';
                die "two labels in address\n" if defined $m->{label};
                $m->{label} = $1;
            } else {
                die "cannot parse address term '$term'\n";
            }
        }
        if (defined $m->{label}) {
            die "RIP-relative address with registers\n"
                if defined $m->{base} || defined $m->{index};
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
    my $s = $self->render_plain_operand($op, $indirect);
    for my $d (@{ $op->{deco} // [] }) {
        $s .= '{' . ($self->gas && $d ne 'z' ? "%$d" : $d) . '}';
    }
    return $s;
}

sub render_plain_operand {
    my ($self, $op, $indirect) = @_;
    my $gas = $self->gas;
    my $t = $op->{type};
    if ($t eq 'reg') {
        return ($indirect ? '*' : '') . ($gas ? "%$op->{name}" : $op->{name});
    }
    if ($t eq 'imm') {
        return $gas ? "\$$op->{text}" : $op->{text};
    }
    if ($t eq 'sym') {
        return $self->symbol($op->{name});
    }
    # memory
    my $d = $op->{disp};
    if ($gas) {
        my $s = $indirect ? '*' : '';
        if (defined $op->{label}) {
            $s .= $self->local_name($op->{label});
            $s .= sprintf('%+d', $d) if $d;
            return "$s(%rip)";
        }
        $s .= $d if $d;
        $s .= '(';
        $s .= "%$op->{base}" if defined $op->{base};
        $s .= ",%$op->{index},$op->{scale}" if defined $op->{index};
        return "$s)";
    }
    my $s = defined $op->{size} ? "$NASM_SIZE{$op->{size}} " : '';
    if (defined $op->{label}) {
        $s .= '[rel ' . $self->local_name($op->{label});
        $s .= sprintf('%+d', $d) if $d;
        return "$s]";
    }
    my @parts;
    push @parts, $op->{base} if defined $op->{base};
    push @parts, "$op->{index}*$op->{scale}" if defined $op->{index};
    my $addr = join('+', @parts);
    $addr .= sprintf('%+d', $d) if $d;
    return "$s\[$addr\]";
}

# Intel mnemonics that AT&T spells differently.
my %ATT_RENAME = (cqo => 'cqto', cdq => 'cltd', cdqe => 'cltq', cwde => 'cwtl',
                  movsxd => 'movslq');

sub render_insn {
    my ($self, $mn, $ops) = @_;
    my @ops = @$ops;
    my $indirect = ($mn eq 'call' || $mn eq 'jmp') && @ops == 1
                   && $ops[0]{type} ne 'sym';
    my @rendered = map { $self->render_operand($_, $indirect) } @ops;
    if (!$self->gas) {
        return "\t$mn" . (@rendered ? "\t" . join(', ', @rendered) : '');
    }
    my $att = $ATT_RENAME{$mn} // $mn;
    if ($mn eq 'movzx' || $mn eq 'movsx') {
        my ($dst, $src) = @ops;
        my $ss = $src->{size} or die "$mn needs a sized source\n";
        $att = ($mn eq 'movzx' ? 'movz' : 'movs') . $ATT_SUFFIX{$ss}
               . $ATT_SUFFIX{$dst->{size}};
    } elsif (!grep { $_->{type} eq 'reg' } @ops) {
        # No register fixes the operand size: take it from the memory
        # operand's size keyword (mov qword [rsp], 0 -> movq $0, (%rsp)).
        my ($mem) = grep { $_->{type} eq 'mem' } @ops;
        if ($mem && !$indirect) {
            die "$mn: memory operand needs a size keyword\n"
                unless defined $mem->{size};
            my $sfx = $ATT_SUFFIX{$mem->{size}};
            $att .= $sfx if defined $sfx;
        }
    }
    return "\t$att" . (@rendered ? "\t" . join(', ', reverse @rendered) : '');
}

# The operand parser and register table of this architecture, as methods,
# so that the code below (and perlasm::backend's statement_operands) serves
# perlasm/x86.pm too: it overrides these.
sub parse_op { my ($self, $text) = @_; return parse_operand($text) }
sub register_info { my ($self, $r) = @_; return $REG{$r} }   # [parent, size]
sub register_kind { return '' }    # as in "is not a register"

# Builds one instruction from dialect text (also used for the prologue).
sub insn_text {
    my ($self, $text) = @_;
    my ($mn, $rest) = $text =~ /^\s*(\w+)\s*(.*)$/;
    my @ops = map { $self->parse_op($_) } perlasm::driver::split_operands($rest);
    return $self->render_insn(lc $mn, \@ops);
}

# Simple directives -------------------------------------------------------------
# GNU as output gets perlasm::backend's comments, .p2align and data; NASM
# output its own.
sub comment {
    my ($self, $text) = @_;
    return "; $text" unless $self->gas;
    return $self->SUPER::comment($text);
}

sub header {
    my ($self, $source) = @_;
    my @h = $self->banner($source);
    push @h, $self->nasm_preamble if !$self->gas;
    return join("\n", @h, '');
}

# The lines after the header comment in NASM output.
sub nasm_preamble { return ('default rel', 'bits 64') }

sub section {
    my ($self, $name) = @_;
    $self->{section} = $name;
    my $obj = $self->{obj};
    if ($obj eq 'elf') {
        return $name eq 'text' ? "\t.text" : "\t.section\t.rodata,\"a\",\@progbits";
    }
    if ($obj eq 'macho') {
        return $name eq 'text' ? "\t.section\t__TEXT,__text,regular,pure_instructions"
                               : "\t.section\t__TEXT,__const";
    }
    return $name eq 'text' ? 'section .text code align=64'
                           : 'section .rdata rdata align=64';
}

sub align {
    my ($self, $n) = @_;
    return $self->SUPER::align($n) if $self->gas;
    return $self->{section} eq 'text' ? "\talign\t$n" : "\talign\t$n, db 0";
}

sub data {
    my ($self, $width, $values) = @_;
    return $self->SUPER::data($width, $values) if $self->gas;
    my %d = (1 => 'db', 2 => 'dw', 4 => 'dd', 8 => 'dq');
    return "\t$d{$width}\t" . join(', ', @$values);
}

# Functions -----------------------------------------------------------------------
# The secret-register check (perlasm/ctcheck_x86.pm) over one function,
# for perlasm::backend's check_secrets. check_public(opts, public) lets a
# subclass check more of the options against the public set;
# ctcheck_options adds to the check's arguments.
sub check_public { }
sub ctcheck_options { return () }
sub public_register {
    my ($self, $r) = @_;
    my $info = $self->register_info($r);
    die "public=$r is not a " . $self->register_kind . "register\n"
        unless defined $info;
    die "public=$r: only general-purpose and opmask registers "
        . "can be declared public\n"
        unless perlasm::ctcheck_x86::is_gpr($info->[0])
            || perlasm::ctcheck_x86::is_mask($info->[0]);
    return $info->[0];
}

sub run_secret_check {
    my ($self, $opts, $body, $public, $ops_of) = @_;
    $self->check_public($opts, $public);
    perlasm::ctcheck_x86::check(body => $body, ops => $ops_of,
                                public => $public, $self->ctcheck_options);
}

# parse_statement(st, forbidden): the operands of a body's instruction,
# checked: a bare name only as a branch target (anywhere else it is a typo,
# an unknown register, say, not a symbol), and none of the mnemonics that
# match `forbidden` (the prologue and epilogue own the stack).
sub parse_statement {
    my ($self, $st, $forbidden) = @_;
    my @ops = $self->statement_operands($st);
    my $mn = $st->{mnemonic};
    die "$st->{where}: '$_->{name}' is not a register, number or address\n"
        for grep { $_->{type} eq 'sym' && $mn !~ /^(j[a-z]+|call|loop[a-z]*)$/ } @ops;
    die "$st->{where}: $mn is not allowed in a body (the prologue and "
        . "epilogue own the stack)\n"
        if $mn =~ $forbidden;
    return @ops;
}

# function_entry(sym, opts, endbr): the lines that open a function, up to
# and including its first instruction, ENDBR32 or ENDBR64 on ELF.
sub function_entry {
    my ($self, $sym, $opts, $endbr) = @_;
    my @out;
    if ($self->{obj} eq 'elf') {
        push @out, "\t.globl\t$sym", "\t.hidden\t$sym", "\t.type\t$sym,\@function";
    } elsif ($self->{obj} eq 'macho') {
        push @out, "\t.globl\t$sym", "\t.private_extern\t$sym";
    } else {
        push @out, "global $sym";
    }
    push @out, $self->align(16);
    push @out, $self->comment($opts->{comment}) if defined $opts->{comment};
    push @out, "$sym:";
    push @out, "\t.cfi_startproc" if $self->gas;
    push @out, "\t$endbr" if $self->{obj} eq 'elf';
    return @out;
}

sub function {
    my ($self, $name, $opts, $body) = @_;
    my $win64 = $self->{abi} eq 'win64';
    my $gas = $self->gas;
    my $sym = $self->global_name($name);
    my $nargs = $opts->{args};
    die "more than 6 arguments are not supported\n" if $nargs > 6;
    die "pic= is for 32-bit x86 (perlasm/x86.pm)\n" if defined $opts->{pic};

    # Parse the body, and find the registers it touches, and whether it
    # touches the upper parts of vector registers (ymm or zmm names).
    my (%used, @items, $wide, $last_mn);
    for my $st (@$body) {
        if ($st->{kind} ne 'insn') { push @items, $st; next; }
        my @ops = $self->parse_statement(
            $st, qr/^(push|pop|ret|enter|leave|pushf|popf|pushfq|popfq)$/);
        my $mn = $st->{mnemonic};
        die "$st->{where}: writes rsp; use frame= instead\n"
            if @ops && $ops[0]{type} eq 'reg' && $ops[0]{parent} eq 'rsp'
               && $mn !~ /^(cmp|test)$/;
        for my $op (@ops) {
            $used{ $op->{parent} } = 1 if $op->{type} eq 'reg';
            $wide = 1 if $op->{type} eq 'reg' && $op->{size} >= 32
                         && $op->{parent} =~ /^xmm/;
            if ($op->{type} eq 'mem') {
                $used{ $op->{base} } = 1 if defined $op->{base};
                $used{ $op->{index} } = 1 if defined $op->{index};
            }
        }
        # VZEROALL writes all of ymm0-15: on win64 xmm6-15 must be saved.
        if ($mn eq 'vzeroall') { $used{"xmm$_"} = 1 for 0 .. 15; $wide = 1; }
        push @items, { %$st, ops => \@ops };
        $last_mn = $mn;
    }

    my @saves = grep { $used{$_} } @CALLEE_SAVED_GP;
    unshift @saves, qw(rdi rsi) if $win64;
    my @xmm_saves = $win64 ? grep { $used{"xmm$_"} } 6 .. 15 : ();
    my $frame = ($opts->{frame} + 15) & ~15;
    my $alloc = $frame + 16 * @xmm_saves;
    $alloc += 8 if $alloc && @saves % 2 == 0;    # entry rsp is 8 mod 16

    my @out = $self->function_entry($sym, $opts, 'endbr64');
    my $L = sub { my $n = shift; return $self->local_name(".L${name}_$n") };

    # Prologue. Each step records its unwind operation; on win64 a label
    # after each instruction gives the unwinder its code offset.
    my @unwind;
    my $cfa = 8;
    my $step = 0;
    my $emit = sub {
        my ($text, $uw, @cfi) = @_;
        push @out, $self->insn_text($text);
        push @out, @cfi if $gas;
        if ($self->{obj} eq 'coff') {
            my $lab = $L->('p' . $step++);
            push @out, "$lab:";
            push @unwind, { %$uw, at => $lab };
        }
    };
    for my $r (@saves) {
        $cfa += 8;
        $emit->("push $r", { op => 'push', reg => $r },
                "\t.cfi_adjust_cfa_offset\t8", "\t.cfi_rel_offset\t%$r, 0");
    }
    if ($alloc) {
        $emit->("sub rsp, $alloc", { op => 'alloc', size => $alloc },
                "\t.cfi_adjust_cfa_offset\t$alloc");
    }
    for my $i (0 .. $#xmm_saves) {
        my $off = $frame + 16 * $i;
        my $x = $xmm_saves[$i];
        $emit->("movaps [rsp + $off], xmm$x",
                { op => 'xmm', reg => $x, offset => $off });
    }
    if ($self->{obj} eq 'coff') {
        push @{ $self->{unwind} }, { sym => $sym, start => $sym,
                                     end => $L->('end'), codes => \@unwind,
                                     prologue_end => @unwind ? $unwind[-1]{at} : $sym,
                                     info => $L->('unwind') };
    }
    if ($win64) {
        my @moves;
        for my $i (0 .. $nargs - 1) {
            if ($i < 4) {
                push @moves, "mov $SYSV_ARGS[$i], $WIN64_ARGS[$i]";
            } else {
                my $off = $alloc + 8 * @saves + 8 + 32 + 8 * ($i - 4);
                push @moves, "mov $SYSV_ARGS[$i], [rsp + $off]";
            }
        }
        push @out, $self->comment('Microsoft x64 arguments to System V registers')
            if @moves;
        push @out, map { $self->insn_text($_) } @moves;
    }

    # Body.
    push @out, $self->render_body(\@items);

    # Epilogue, the prologue in reverse. A function that wrote ymm or zmm
    # registers leaves the upper state clean (VZEROUPPER) before returning,
    # so its caller's SSE code pays no transition penalty and the upper
    # halves are zero, as both ABIs expect; the kernel need not remember.
    # A body that ends in VZEROALL or VZEROUPPER itself gets no second one.
    if ($wide && !(defined $last_mn && $last_mn =~ /^vzero(all|upper)$/)) {
        push @out, $self->insn_text('vzeroupper');
    }
    for my $i (0 .. $#xmm_saves) {
        my $off = $frame + 16 * $i;
        push @out, $self->insn_text("movaps xmm$xmm_saves[$i], [rsp + $off]");
    }
    if ($alloc) {
        push @out, $self->insn_text("add rsp, $alloc");
        push @out, "\t.cfi_adjust_cfa_offset\t-$alloc" if $gas;
    }
    for my $r (reverse @saves) {
        push @out, $self->insn_text("pop $r");
        push @out, "\t.cfi_adjust_cfa_offset\t-8", "\t.cfi_restore\t%$r" if $gas;
    }
    push @out, $self->insn_text('ret');
    if ($gas) {
        push @out, "\t.cfi_endproc";
        push @out, "\t.size\t$sym, .-$sym" if $self->{obj} eq 'elf';
    } else {
        push @out, $L->('end') . ':';
    }
    return join("\n", @out);
}

# win64 unwind tables: UNWIND_INFO (version 1, no handler, no frame
# register) with its codes in reverse prologue order, and one
# RUNTIME_FUNCTION {begin, end, unwind info} per function, all as RVAs.
sub unwind_tables {
    my ($self) = @_;
    my @fns = @{ $self->{unwind} };
    return () unless @fns;
    my @out = ('', 'section .pdata rdata align=4');
    for my $f (@fns) {
        push @out, "\tdd\t$f->{start} wrt ..imagebase",
                   "\tdd\t$f->{end} wrt ..imagebase",
                   "\tdd\t$f->{info} wrt ..imagebase";
    }
    push @out, '', 'section .xdata rdata align=8';
    for my $f (@fns) {
        my @slots;    # each: [text of the 2-byte slot]
        for my $c (reverse @{ $f->{codes} }) {
            my $at = "$c->{at} - $f->{start}";
            if ($c->{op} eq 'push') {
                push @slots, "db\t$at, " . (0 | ($WIN64_REGNUM{ $c->{reg} } << 4))
                    . "\t; UWOP_PUSH_NONVOL $c->{reg}";
            } elsif ($c->{op} eq 'alloc') {
                my $n = $c->{size};
                if ($n <= 128) {
                    push @slots, "db\t$at, " . (2 | ((($n - 8) / 8) << 4))
                        . "\t; UWOP_ALLOC_SMALL $n";
                } elsif ($n <= 512 * 1024 - 8) {
                    push @slots, "db\t$at, 1\t; UWOP_ALLOC_LARGE $n", "dw\t" . ($n / 8);
                } else {
                    push @slots, "db\t$at, " . (1 | (1 << 4)) . "\t; UWOP_ALLOC_LARGE $n",
                                 "dw\t" . ($n & 0xffff), "dw\t" . ($n >> 16);
                }
            } elsif ($c->{op} eq 'xmm') {
                push @slots, "db\t$at, " . (8 | ($c->{reg} << 4))
                    . "\t; UWOP_SAVE_XMM128 xmm$c->{reg} at rsp+$c->{offset}",
                    "dw\t" . ($c->{offset} / 16);
            }
        }
        my $count = @slots;
        die "too many unwind codes\n" if $count > 255;
        push @slots, "dw\t0\t; padding to an even number of slots" if $count % 2;
        push @out, "\talign\t4, db 0", "$f->{info}:",
                   "\tdb\t1, $f->{prologue_end} - $f->{start}, $count, 0"
                   . "\t; version 1, prologue size, codes, no frame register",
                   map { "\t$_" } @slots;
    }
    return @out;
}

sub footer {
    my ($self) = @_;
    my $obj = $self->{obj};
    if ($obj eq 'elf') {
        return join("\n",
            "\t.section\t.note.GNU-stack,\"\",\@progbits",
            $self->comment('GNU property note: IBT and SHSTK compatible'),
            "\t.section\t.note.gnu.property,\"a\",\@note",
            "\t.p2align\t3",
            "\t.long\t4, 16, 5\t" . $self->comment('namesz, descsz, NT_GNU_PROPERTY_TYPE_0'),
            "\t.asciz\t\"GNU\"",
            "\t.long\t0xc0000002, 4, 3\t" . $self->comment('X86_FEATURE_1_AND: IBT | SHSTK'),
            "\t.p2align\t3");
    }
    if ($obj eq 'macho') {
        return "\t.subsections_via_symbols";
    }
    return join("\n", $self->unwind_tables());
}

1;
