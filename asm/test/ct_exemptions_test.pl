#!/usr/bin/env perl
# asm/test/ct_exemptions_test.pl: asm/ct_exemptions.pl refuses what it
# promises to refuse (ctest asm.ct_exemptions_negative).
#
# A scratch asm tree (SCRATCH_DIR/asm: a copy of asm/perlasm and two
# planted kernels, one x86_64, one aarch64) gets its list from
# `ct_exemptions.pl update`; then each case edits a kernel or the list and
# runs `ct_exemptions.pl check` as the test does. A new exemption, a changed
# reason, another copy of an exemption, an exemption gone, a new
# secrets=none function and a listed entry of a file that does not exist
# must each fail, with the offending entry and the way to update the list in
# the output, and leave the list as it was; harmless edits (lines added
# elsewhere, other spacing, functions reordered) must pass, so the check is
# not simply failing on any change. Usage: perl ct_exemptions_test.pl
# SCRATCH_DIR
use strict;
use warnings;
use FindBin;
use File::Copy qw(copy);
use File::Path qw(make_path remove_tree);

my $asm_src = "$FindBin::Bin/..";
my $tool = "$asm_src/ct_exemptions.pl";
my $dir = shift @ARGV or die "usage: $0 SCRATCH_DIR\n";
my $asm = "$dir/asm";
remove_tree($asm);
make_path("$asm/perlasm", "$asm/x86_64", "$asm/aarch64", "$asm/test");
for my $pm (glob("$asm_src/perlasm/*.pm")) {
    copy($pm, "$asm/perlasm/") or die "copy $pm: $!\n";
}
my $list = "$asm/ct_exemptions.txt";

sub kernel {
    my ($arch, $functions) = @_;
    return "use FindBin;\nuse lib \"\$FindBin::Bin/..\";\nuse perlasm::driver;\n"
         . "my \$code = <<'CODE';\n.text\n$functions"
         . "CODE\nperlasm::driver::finish('$arch', \$code);\n";
}

# The planted kernels as first listed. x86_64: a round count loaded twice
# under the same reason (one entry, count 2); aarch64: a length loaded from
# a structure, the kind of load ARM's trace check cannot see.
my $x86_f1 = <<'___';
.function planted_one args=2 public=rdi,rsi,rax
    mov     eax, [rdi + 240]     # public: the round count
    cmp     eax, 10
    je      .Lone_done
    mov     eax, [rdi + 240]     # public: the round count
.Lone_done:
.endfunction
___
my $x86_f2 = <<'___';
.function planted_two args=2 public=rdi,rsi,rcx
    mov     rcx, [rsi + 8]       # public: a length in the argument structure
    movdqu  xmm0, [rdi]
.endfunction
___
my $a64_f = <<'___';
.function planted_a64 args=2 public=x0,x1,x9
    ldr     x9, [x1, 16]         # public: the block count in the argument structure
    ldr     q0, [x0]
.endfunction
___
my %orig = (
    'x86_64/planted-x86_64.pl'   => kernel('x86_64', $x86_f1 . $x86_f2),
    'aarch64/planted-aarch64.pl' => kernel('aarch64', $a64_f),
    # Not a kernel: asm/test/ is never scanned.
    'test/not-scanned.pl'        => "die 'asm/test is scanned';\n",
);

sub write_file {
    my ($path, $text) = @_;
    open(my $fh, '>', $path) or die "$path: $!\n";
    print $fh $text;
    close($fh) or die "$path: $!\n";
}
sub read_file {
    my ($path) = @_;
    open(my $fh, '<', $path) or die "$path: $!\n";
    local $/;
    return scalar <$fh>;
}
sub restore { write_file("$asm/$_", $orig{$_}) for keys %orig }

sub run {
    my ($mode) = @_;
    my $out = `"$^X" "$tool" $mode --asm "$asm" --list "$list" 2>&1`;
    return ($? >> 8, $out);
}

my ($pass, $fail) = (0, 0);
sub report {
    my ($ok, $name, $detail) = @_;
    print(($ok ? 'ok' : 'FAIL') . "   $name" . ($ok ? '' : ": $detail") . "\n");
    $ok ? $pass++ : $fail++;
}

# The list the cases start from, and what it must hold.
restore();
my ($rc, $out) = run('update');
report($rc == 0, 'update writes the list', $out);
my $listed = -e $list ? read_file($list) : '';
my @want = (
    '2 | x86_64/planted-x86_64.pl | planted_one | mov eax, [rdi + 240] | the round count',
    '1 | x86_64/planted-x86_64.pl | planted_two | mov rcx, [rsi + 8] | a length in the argument structure',
    '1 | aarch64/planted-aarch64.pl | planted_a64 | ldr x9, [x1, 16] | the block count in the argument structure',
);
my @entries = grep { !/^#/ && /\S/ } split /\n/, $listed;
report(@entries == @want && !grep({ my $w = $_; !grep { $_ eq $w } @entries } @want),
       'the list holds each exemption once, with its count',
       "got:\n$listed");

# [name, edit (file => new text, or LIST => new list), expected output
# (undef: must pass)]
my $x86 = 'x86_64/planted-x86_64.pl';
my $a64 = 'aarch64/planted-aarch64.pl';
my @cases = (
    ['unchanged sources', {}, undef],
    ['harmless edits: lines elsewhere, spacing, function order',
     { $x86 => kernel('x86_64', "# a new comment\n" . $x86_f2 . "\n"
                      . ($x86_f1 =~ s/mov     eax, \[rdi \+ 240\]/mov eax,   [rdi + 240]/r)
                      =~ s/cmp     eax, 10/cmp eax, 10\n    add rsi, 16/r) },
     undef],
    ['new exemption (x86_64)',
     { $x86 => kernel('x86_64', $x86_f1 . ($x86_f2 =~ s/(    movdqu)/    mov     rsi, [rsi + 16]   # public: another pointer\n$1/r)) },
     qr/^\+ 1 \| x86_64\/planted-x86_64\.pl \| planted_two \| mov rsi, \[rsi \+ 16\] \| another pointer$/m],
    ['new exemption (aarch64)',
     { $a64 => kernel('aarch64', $a64_f =~ s/(    ldr     q0)/    ldr     x0, [x1]   # public: the data pointer\n$1/r) },
     qr/^\+ 1 \| aarch64\/planted-aarch64\.pl \| planted_a64 \| ldr x0, \[x1\] \| the data pointer$/m],
    ['changed reason',
     { $a64 => kernel('aarch64', $a64_f =~ s/the block count in the argument structure/trust me/r) },
     qr/^\+ 1 \| aarch64\/planted-aarch64\.pl \| planted_a64 \| ldr x9, \[x1, 16\] \| trust me\n.*^- 1 \| aarch64\/planted-aarch64\.pl \| planted_a64 \| ldr x9, \[x1, 16\] \| the block count in the argument structure\n.*the reason differs/ms],
    ['another copy of a listed exemption',
     { $x86 => kernel('x86_64', $x86_f1 . ($x86_f2 =~ s/(    movdqu)/    mov     rcx, [rsi + 8]       # public: a length in the argument structure\n$1/r)) },
     qr/^\+ 2 \| x86_64\/planted-x86_64\.pl \| planted_two \| mov rcx.*^- 1 \| x86_64\/planted-x86_64\.pl \| planted_two \| mov rcx.*2 in the sources, 1 on the list/ms],
    ['exemption moved to another function',
     { $x86 => kernel('x86_64', ($x86_f1 =~ s/planted_one/planted_three/r) . $x86_f2) },
     qr/^\+ 2 \| x86_64\/planted-x86_64\.pl \| planted_three \|.*^- 2 \| x86_64\/planted-x86_64\.pl \| planted_one \|/ms],
    ['exemption gone',
     { $x86 => kernel('x86_64', $x86_f1) },
     qr/no longer in the sources:\n- 1 \| x86_64\/planted-x86_64\.pl \| planted_two \|/],
    ['new secrets=none function',
     { $a64 => kernel('aarch64', $a64_f . ".function planted_none args=1 secrets=none\n    ldr     x0, [x0]\n.endfunction\n") },
     qr/^\+ 1 \| aarch64\/planted-aarch64\.pl \| planted_none \| secrets=none \|/m],
    ['listed kernel that does not exist',
     { LIST => sub { $_[0] . "1 | x86_64/gone-x86_64.pl | gone | mov eax, [rdi] | a length\n" } },
     qr/^- 1 \| x86_64\/gone-x86_64\.pl \| gone \|/m],
    ['malformed list line',
     { LIST => sub { $_[0] . "x86_64/planted-x86_64.pl: mov eax -- oops\n" } },
     qr/expected COUNT \| FILE/],
    ['kernel failing the check itself',
     { $a64 => kernel('aarch64', $a64_f =~ s/   # public: the block count in the argument structure//r) },
     qr/secret-register check \(leak\).*fix the kernels first/s],
);

for my $c (@cases) {
    my ($name, $edit, $want) = @$c;
    restore();
    write_file($list, $listed);
    for my $f (keys %$edit) {
        if ($f eq 'LIST') { write_file($list, $edit->{$f}->($listed)) }
        else              { write_file("$asm/$f", $edit->{$f}) }
    }
    my $before = read_file($list);
    my ($rc, $out) = run('check');
    my $same = read_file($list) eq $before;
    if (!defined $want) {
        report($rc == 0 && $same, "$name: passes", "status $rc:\n$out");
        next;
    }
    my $hint = $name =~ /malformed|failing/ || $out =~ /ct_exemptions\.pl update/;
    report($rc != 0 && $same && $out =~ $want && $hint, "$name: refused",
           "wanted status != 0, $want, the update hint and the list untouched; "
           . "got status $rc" . ($same ? '' : ', list rewritten') . ":\n$out");
}
print "$pass passed, $fail failed\n";
exit($fail ? 1 : 0);
