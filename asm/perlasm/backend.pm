# asm/perlasm/backend.pm: what every backend of libgcm's assembly translator
# shares (see driver.pm for the dialect and the backend interface).
#
# perlasm::x86_64, perlasm::aarch64 and perlasm::armv4 inherit from this
# package (perlasm::x86 through perlasm::x86_64). It holds the parts of the
# interface whose logic does not depend on the architecture, written once:
#   - the dialect's rules for names (local_name(): a private label is
#     .Lname; global_name(): a symbol is a C identifier), the backend
#     spelling them for its object format (local_prefix(),
#     global_spelling()), and symbol() and label() built on them;
#   - the two comment lines that open every output file (banner());
#   - the GNU as forms of comments, .p2align and data (every aarch64 and
#     armv4 flavour; x86_64.pm uses them for its GNU as flavours and
#     overrides them for NASM);
#   - the frame of the secret-register check (check_secrets(): secrets=none
#     skips it; each public= register is checked and named by the
#     backend's public_register(), and its run_secret_check() runs the
#     architecture's checker);
#   - the parsed operands of a body's instruction (statement_operands(),
#     through the backend's parse_op());
#   - the rendering of a function's body (render_body(): instructions,
#     labels, comments, blank lines, .align, each with its trailing comment).
# A backend provides the driver's other calls (flavours, new, header,
# footer, section, function) and what this package asks of it:
# local_prefix, global_spelling, parse_op, render_insn, public_register and
# run_secret_check.
package perlasm::backend;

use strict;
use warnings;
use perlasm::driver;

# Names -----------------------------------------------------------------------
# A `.L` label, private to the object file, in the flavour's local-label
# form: local_prefix() followed by the name after `.L`.
sub local_name {
    my ($self, $name) = @_;
    die "'$name' is not a .L label\n" unless $name =~ /^\.L(\w+)$/;
    return $self->local_prefix . $1;
}

# A global symbol as the flavour spells it (global_spelling(): a leading
# underscore on Mach-O, say).
sub global_name {
    my ($self, $name) = @_;
    die "bad symbol name '$name'\n" unless $name =~ /^[A-Za-z_]\w*$/;
    return $self->global_spelling($name);
}

sub symbol {
    my ($self, $name) = @_;
    return $name =~ /^\.L/ ? $self->local_name($name) : $self->global_name($name);
}

sub label {
    my ($self, $name) = @_;
    return $self->symbol($name) . ':';
}

# The two comment lines that open every output file (in the backend's
# comment syntax).
sub banner {
    my ($self, $source) = @_;
    return ($self->comment("Generated from $source by asm/perlasm (flavour "
                           . "$self->{flavour}). Do not edit:"),
            $self->comment('change the .pl file instead.'));
}

# GNU as directives ----------------------------------------------------------------
# C-style comments: the build may run the output through the C preprocessor
# (.S), which would take `# if ...` or `# include ...` for a directive.
sub comment {
    my ($self, $text) = @_;
    $text =~ s{\*/}{* /}g;
    return "/* $text */";
}

sub align {
    my ($self, $n) = @_;
    my $log = 0;
    $log++ while (1 << $log) < $n;
    return "\t.p2align\t$log";
}

sub data {
    my ($self, $width, $values) = @_;
    my %d = (1 => '.byte', 2 => '.short', 4 => '.long', 8 => '.quad');
    return "\t$d{$width}\t" . join(', ', @$values);
}

# Functions -----------------------------------------------------------------------
# The secret-register check over one function (the driver calls it before
# function()). public_register(REG) returns the parent of the register a
# public= entry names, or dies if it cannot be declared public;
# run_secret_check(opts, body, public, ops_of) runs the architecture's
# checker with that set of parents and the operand parser.
sub check_secrets {
    my ($self, $name, $opts, $body) = @_;
    return if defined $opts->{secrets};    # secrets=none: test code
    my %public;
    $public{ $self->public_register($_) } = 1 for @{ $opts->{public} };
    my $ops_of = sub { return $self->statement_operands($_[0]) };
    $self->run_secret_check($opts, $body, \%public, $ops_of);
}

# The parsed operands of one instruction statement; dies with its place.
sub statement_operands {
    my ($self, $st) = @_;
    my @ops = eval { map { $self->parse_op($_) } @{ $st->{operands} } };
    die "$st->{where}: $@" if $@;
    return @ops;
}

# The body's lines: instructions (statements with their parsed operands,
# {ops}), labels, comments, blank lines, .align (the only directive the
# driver lets into a function).
sub render_body {
    my ($self, $items) = @_;
    my @out;
    for my $st (@$items) {
        my $k = $st->{kind};
        my $line;
        if ($k eq 'insn') {
            $line = eval { $self->render_insn($st->{mnemonic}, $st->{ops}) };
            die "$st->{where}: $@" if $@;
        } elsif ($k eq 'label') {
            $line = $self->label($st->{name});
        } elsif ($k eq 'comment') {
            $line = $self->comment($st->{comment});
        } elsif ($k eq 'blank') {
            $line = '';
        } elsif ($k eq 'directive') {
            $line = $self->align(perlasm::driver::parse_number($st->{args}));
        }
        $line .= ' ' . $self->comment($st->{comment})
            if defined $st->{comment} && $k ne 'comment';
        push @out, $line;
    }
    return @out;
}

1;
