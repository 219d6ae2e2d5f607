# asm/perlasm/driver.pm: the architecture-neutral half of libgcm's assembly
# translator.
#
# Design
# ======
# A kernel (asm/<arch>/NAME.pl) is a Perl program that builds assembly source
# text in a small dialect and hands it to this driver, which translates it for
# one output flavour. Perl is only the macro language: loops, registers held
# in variables, subroutines that expand to instruction sequences. What the
# kernel builds reads like the instruction-set manual:
#
#     use perlasm::driver;
#     my $code = <<___;
#     .text
#     .function ghash_example args=2
#         movdqu  xmm0, [rsi]          # comments survive translation
#         movdqu  [rdi], xmm0
#     .endfunction
#     ___
#     perlasm::driver::finish('x86_64', $code);
#
# and is run by the build as  `perl NAME.pl FLAVOUR OUTPUT`.
#
# The dialect (common to all architectures)
# -----------------------------------------
#   - One statement per line. `#` starts a comment, kept in the output.
#     A comment `# public: REASON` on an instruction declares an exception
#     to the secret-register check (a value the algorithm makes public);
#     `perl KERNEL.pl ct-report` lists every one.
#   - `name:` defines a label. Names starting with `.L` are private to the
#     object file and are respelled in each flavour's local-label form.
#   - Directives the driver knows, and no others:
#       .text  .rodata                       switch section
#       .align N                             align to N bytes (a power of 2)
#       .byte/.short/.long/.quad v, ...      data, 1/2/4/8 bytes per value
#       .function NAME args=N [frame=B] public=REG,...
#                                            start of a global function; public=
#                                            lists the general-purpose registers
#                                            that never hold a secret, for the
#                                            secret-register check (perlasm/
#                                            ctcheck_x86.pm); test code that
#                                            handles no secrets says secrets=none
#                                            [pic=REG]: 32-bit x86 only (see
#                                            perlasm/x86.pm): REG addresses
#                                            the constants
#       .endfunction                         its end (epilogue and return)
#   - Everything else is an instruction: a mnemonic and comma-separated
#     operands in the architecture's manual syntax (Intel order on x86).
#
# A kernel never writes a prologue, an epilogue or a `ret`: `.function` and
# `.endfunction` expand into whatever the target ABI needs. Because the
# driver hands the architecture module a whole function at once, the module
# can scan the body and save exactly the callee-saved registers it touches.
#
# The architecture module ("backend")
# -----------------------------------
# perlasm/<arch>.pm is a package `perlasm::<arch>` with
#   flavours()                     names accepted on the command line
#   new($flavour)                  backend object for one flavour
#   $b->comment($text)             a comment line
#   $b->header($source), $b->footer()   start and end of the output
#   $b->section($name)             'text' or 'rodata'
#   $b->align($bytes)
#   $b->data($width, \@values)     $width in bytes: 1, 2, 4 or 8
#   $b->label($name)
#   $b->check_secrets($name, \%opts, \@statements)
#                                  the secret-register check of a function
#   $b->function($name, \%opts, \@statements)   a whole function
#   $b->arch_directive_ok($name), $b->arch_directive($name, $args)
#                                  optional: top-level directives of its own
# where a statement is a hash { kind => 'insn'|'label'|'comment'|'blank'|
# 'directive' (.align, the only one allowed in a function), where => its
# place in the source, and mnemonic/operands, name, comment or name/args }.
# The backends are x86_64.pm (with x86.pm, 32-bit x86, as its subclass),
# aarch64.pm and armv4.pm; what they share (names and labels, the GNU as
# comment, .p2align and data, the secret-register check's frame, the
# rendering of a function's body) is written once in perlasm/backend.pm,
# which they inherit from. Every kernel shares this driver and this dialect.
#
# Errors stop the translation with the offending source line and no output
# file (the output is written to a temporary name and renamed at the end), so
# a broken kernel fails the build instead of leaving half a file behind.
package perlasm::driver;

use strict;
use warnings;
use File::Basename qw(basename);

# Splits "a, [b + c], d" into operands, keeping commas inside brackets
# (and inside braces: an aarch64 register list {v0.16b, v1.16b}).
sub split_operands {
    my ($s) = @_;
    my @ops;
    my $depth = 0;
    my $cur   = '';
    for my $ch (split //, $s) {
        if    ($ch eq '[' || $ch eq '{') { $depth++ }
        elsif ($ch eq ']' || $ch eq '}') { $depth-- }
        if ($ch eq ',' && $depth == 0) {
            push @ops, $cur;
            $cur = '';
            next;
        }
        $cur .= $ch;
    }
    push @ops, $cur if $cur =~ /\S/ || @ops;
    s/^\s+|\s+$//g for @ops;
    die "unbalanced brackets\n" if $depth != 0;
    die "empty operand\n" if grep { $_ eq '' } @ops;
    return @ops;
}

# Parses a number as written in a kernel: decimal, 0x hex, optional sign.
sub parse_number {
    no warnings qw(portable overflow);
    my ($s) = @_;
    return undef unless defined $s && $s =~ /^\s*(-?)(0x[0-9a-f]+|\d+)\s*$/i;
    my ($neg, $digits) = ($1, $2);
    my $v = $digits =~ /^0x/i ? hex($digits) : $digits + 0;
    return $neg ? -$v : $v;
}

# Turns the kernel's text into statements; groups functions.
sub parse {
    my ($text) = @_;
    my @top;          # top-level items, in order
    my $func;         # function being collected, if any
    my $n = 0;
    for my $line (split /\n/, $text) {
        $n++;
        my $where = "source line $n: '$line'";
        my $body = $line;
        my $comment;
        if ($body =~ s/#(.*)$//) { $comment = $1; $comment =~ s/^\s+|\s+$//g; }
        $body =~ s/^\s+|\s+$//g;
        my $st;
        if ($body eq '') {
            $st = defined $comment ? { kind => 'comment', comment => $comment }
                                   : { kind => 'blank' };
        } elsif ($body =~ /^([.\w\$]+):$/) {
            $st = { kind => 'label', name => $1 };
        } elsif ($body =~ /^\.function\s+(\w+)\s*(.*)$/) {
            die "$where: nested .function\n" if $func;
            my ($name, $rest) = ($1, $2);
            my %opts = (args => undef, frame => 0, public => undef,
                        secrets => undef, pic => undef);
            for my $kv (split /\s+/, $rest) {
                die "$where: expected key=value, got '$kv'\n"
                    unless $kv =~ /^(\w+)=(\S+)$/;
                die "$where: unknown .function option '$1'\n"
                    unless exists $opts{$1};
                if ($1 eq 'public') {
                    $opts{public} = [split /,/, lc $2];
                    next;
                }
                if ($1 eq 'pic') {
                    # The register through which a 32-bit x86 kernel
                    # reaches its constants (the backend checks it).
                    $opts{pic} = lc $2;
                    next;
                }
                if ($1 eq 'secrets') {
                    # Test code only: a function that handles no secrets at
                    # all (the ABI trampolines); listed by ct-report.
                    die "$where: secrets= only takes 'none'\n" unless $2 eq 'none';
                    $opts{secrets} = 'none';
                    next;
                }
                my $v = parse_number($2);
                die "$where: '$1' wants a number\n" unless defined $v && $v >= 0;
                $opts{$1} = $v;
            }
            die "$where: .function needs args=N\n" unless defined $opts{args};
            die "$where: .function needs public=REG,... (the registers that "
                . "never hold secrets; see the secret-register check)\n"
                unless defined $opts{public} || defined $opts{secrets};
            die "$where: public= and secrets=none exclude each other\n"
                if defined $opts{public} && defined $opts{secrets};
            $func = { kind => 'function', name => $name, opts => \%opts,
                      body => [], where => $where };
            $opts{comment} = $comment if defined $comment;
            next;
        } elsif ($body =~ /^\.endfunction$/) {
            die "$where: .endfunction without .function\n" unless $func;
            push @top, $func;
            undef $func;
            next;
        } elsif ($body =~ /^(\.\w+)\s*(.*)$/) {
            my ($dir, $args) = ($1, $2);
            $st = { kind => 'directive', name => $dir, args => $args };
        } elsif ($body =~ /^([a-z][a-z0-9]*(?:\.[a-z0-9]+)*)(?![\w.])\s*(.*)$/i) {
            # (a dotted mnemonic is an aarch64 conditional branch, b.eq, or
            # a 32-bit ARM NEON data type: vld1.8, vmull.p64)
            my ($mn, $rest) = (lc $1, $2);
            my @ops = eval { split_operands($rest) };
            die "$where: $@" if $@;
            $st = { kind => 'insn', mnemonic => $mn, operands => \@ops };
        } else {
            die "$where: cannot parse\n";
        }
        $st->{where} = $where;
        $st->{comment} //= $comment if defined $comment && $st->{kind} ne 'comment';
        # `# public: REASON` on an instruction: a declared exception to the
        # secret-register check.
        if ($st->{kind} eq 'insn' && defined $comment && $comment =~ /^public:\s*(.*)$/) {
            die "$where: a 'public:' annotation needs a reason\n" if $1 eq '';
            $st->{public_reason} = $1;
        }
        if ($func) {
            die "$where: directives are not allowed inside a function\n"
                if $st->{kind} eq 'directive' && $st->{name} !~ /^\.(align)$/;
            push @{ $func->{body} }, $st;
        } else {
            push @top, $st;
        }
    }
    die "missing .endfunction for $func->{name}\n" if $func;
    return @top;
}

# Renders the whole file for one flavour.
sub translate {
    my ($backend, $source, $text) = @_;
    my @out = ($backend->header($source));
    my $section;
    for my $st (parse($text)) {
        my $k = $st->{kind};
        my $r;
        eval {
            if ($k eq 'blank') {
                $r = '';
            } elsif ($k eq 'comment') {
                $r = $backend->comment($st->{comment});
            } elsif ($k eq 'label') {
                $r = $backend->label($st->{name});
            } elsif ($k eq 'function') {
                die "function outside .text\n" unless ($section // '') eq 'text';
                $backend->check_secrets($st->{name}, $st->{opts}, $st->{body});
                $r = $backend->function($st->{name}, $st->{opts}, $st->{body});
            } elsif ($k eq 'directive') {
                $r = directive($backend, $st, \$section);
            } elsif ($k eq 'insn') {
                die "instruction outside a function\n";
            }
            1;
        } or die($k eq 'function' ? "in .function $st->{name}: $@"
                                   : "$st->{where}: $@");
        if (defined $st->{comment} && $k ne 'comment' && $k ne 'function') {
            $r .= ' ' . $backend->comment($st->{comment});
        }
        push @out, $r;
    }
    push @out, $backend->footer();
    return join("\n", @out) . "\n";
}

sub directive {
    my ($backend, $st, $section) = @_;
    my ($name, $args) = ($st->{name}, $st->{args});
    if ($name eq '.text' || $name eq '.rodata') {
        die "$name takes no arguments\n" if $args ne '';
        $$section = substr($name, 1);
        return $backend->section($$section);
    }
    if ($name eq '.align') {
        my $n = parse_number($args);
        die ".align wants a power of two\n"
            unless defined $n && $n > 0 && ($n & ($n - 1)) == 0;
        return $backend->align($n);
    }
    my %width = ('.byte' => 1, '.short' => 2, '.long' => 4, '.quad' => 8);
    if (exists $width{$name}) {
        my $w = $width{$name};
        my @v;
        for my $a (split /\s*,\s*/, $args) {
            my $x = parse_number($a);
            die "bad number '$a' in $name\n" unless defined $x;
            # 64-bit values written in hex keep their spelling (Perl would
            # round them through a double otherwise).
            push @v, ($a =~ /^\s*0x/i ? lc($a =~ s/^\s+|\s+$//gr) : $x);
        }
        die "$name needs values\n" unless @v;
        return $backend->data($w, \@v);
    }
    # Architecture directives a backend knows (armv4.pm: .arch, .fpu).
    return $backend->arch_directive($name, $args)
        if $backend->can('arch_directive') && $backend->arch_directive_ok($name);
    die "unknown directive $name\n";
}

# The secret-register check's declared exceptions, one line each, for a
# reviewer: "KERNEL FUNCTION: INSTRUCTION -- REASON". The check itself runs
# too, so the report is only printed for a kernel that passes it.
sub ct_report {
    my ($backend, $source, $code) = @_;
    my @lines;
    for my $st (parse($code)) {
        next unless $st->{kind} eq 'function';
        if (defined $st->{opts}{secrets}) {
            push @lines, "$source $st->{name}: handles no secrets (test code; "
                         . "the check does not apply)";
            next;
        }
        eval { $backend->check_secrets($st->{name}, $st->{opts}, $st->{body}); 1 }
            or die "in .function $st->{name}: $@";
        my @pub = @{ $st->{opts}{public} };
        push @lines, "$source $st->{name}: public registers: @pub";
        for my $i (grep { defined $_->{public_reason} } @{ $st->{body} }) {
            my $insn = "$i->{mnemonic} " . join(', ', @{ $i->{operands} });
            push @lines, "$source $st->{name}: $insn -- $i->{public_reason}";
        }
    }
    return join("\n", @lines) . "\n";
}

# Entry point for kernels: perlasm::driver::finish($arch, $code).
# Reads FLAVOUR [OUTPUT] from @ARGV; without OUTPUT writes to stdout.
# FLAVOUR `ct-report` prints the secret-register check's declared
# exceptions instead of assembly (see ct_report).
sub finish {
    my ($arch, $code) = @_;
    my $module = "perlasm::$arch";
    eval "require $module; 1" or die "no backend for $arch: $@";
    my ($flavour, $output) = @ARGV;
    my @known = $module->flavours();
    die "usage: $0 FLAVOUR [OUTPUT]   (FLAVOUR: @known ct-report)\n"
        unless defined $flavour && grep { $_ eq $flavour } @known, 'ct-report';
    my $text;
    my $source = basename($0);
    eval {
        if ($flavour eq 'ct-report') {
            $text = ct_report($module->new($known[0]), $source, $code);
        } else {
            $text = translate($module->new($flavour), $source, $code);
        }
        1;
    } or die "$source: $@";    # errors name the kernel's file
    if (defined $output) {
        my $tmp = "$output.tmp$$";
        open(my $fh, '>', $tmp) or die "$tmp: $!\n";
        print $fh $text or die "$tmp: $!\n";
        close($fh) or die "$tmp: $!\n";
        rename($tmp, $output) or die "rename $tmp: $!\n";
    } else {
        print $text;
    }
}

1;
