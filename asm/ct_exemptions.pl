#!/usr/bin/env perl
# asm/ct_exemptions.pl: the reviewed list of exemptions from the perlasm
# secret-register check (asm/ct_exemptions.txt) against the kernels.
#
# Why
# ===
# The secret-register check (asm/perlasm/ctcheck_*.pm) lets an instruction
# through when its line says `# public: REASON`, and a function declared
# `secrets=none` (test code) is not checked at all. Such an exemption is
# only as good as its reason, and for the AVX-512/VAES/VPCLMULQDQ kernels
# (which neither valgrind nor the qemu trace check can run) and for
# secret-indexed loads on ARM (the trace check sees branches, not
# addresses) nothing else would catch a wrong one. So every exemption is
# reviewed once and committed in asm/ct_exemptions.txt, and the test
# asm.ct_exemptions fails on any exemption in the sources that is not on
# that list exactly (new, or with another reason, or repeated more often)
# and on any listed one that no longer exists.
#
# What is compared
# ================
# Every asm/<dir>/*.pl but asm/test/ (the kernels of every architecture,
# the ABI trampolines and the translator's own test kernels), whatever the
# build is for: the check runs on the perlasm source, so no assembler or
# cross compiler is needed, and the list is the same on every build. Each
# kernel is run as `perl KERNEL.pl ct-report` (asm/perlasm/driver.pm),
# which also runs the check itself, and each exemption becomes the entry
#     COUNT | DIR/FILE.pl | FUNCTION | INSTRUCTION | REASON
# INSTRUCTION is the instruction as the translator parsed it (after the
# kernel's Perl has expanded it, so an offset reads 240, not $ROUNDS),
# with runs of blanks made one; COUNT says how many identical exemptions
# (same instruction, same reason) one function has, so a second copy of an
# exemption is a change too. No line numbers: an edit elsewhere in a file
# changes no entry, while moving an exemption to another function, or
# changing its instruction or its reason, does. A `secrets=none` function is
# the entry `1 | FILE | FUNCTION | secrets=none | ...`.
#
# Usage
# =====
#   perl ct_exemptions.pl check  [--asm DIR] [--list FILE]   the test
#   perl ct_exemptions.pl update [--asm DIR] [--list FILE]   after review
# DIR defaults to the directory holding this script, FILE to
# DIR/ct_exemptions.txt. `check` never writes anything; `update` (also the
# CMake target asm_ct_exemptions_update) rewrites the list from the
# sources, and is for after a person has read every changed entry.
use strict;
use warnings;
use FindBin;
use File::Basename qw(basename);
use File::Glob qw(bsd_glob);

my $mode = shift @ARGV // '';
my ($asm, $list) = ($FindBin::Bin, undef);
while (@ARGV) {
    my $opt = shift @ARGV;
    if    ($opt eq '--asm'  && @ARGV) { $asm  = shift @ARGV }
    elsif ($opt eq '--list' && @ARGV) { $list = shift @ARGV }
    else { $mode = '' }
}
die "usage: $0 check|update [--asm DIR] [--list FILE]\n"
    unless $mode eq 'check' || $mode eq 'update';
$list //= "$asm/ct_exemptions.txt";

my $SECRETS_NONE = 'handles no secrets: test code, the check does not apply';

sub squash { my ($s) = @_; $s =~ s/\s+/ /g; $s =~ s/^ | $//g; return $s }

# One entry's identity: everything but the count.
sub key_of { return join(' | ', map { squash($_) } @_) }

# The exemptions in the sources: key -> count.
sub scan {
    my ($dir) = @_;
    my %found;
    my @kernels = sort grep { !m{/test/[^/]*$} } bsd_glob("$dir/*/*.pl");
    die "$dir: no kernels found (asm/<dir>/*.pl)\n" unless @kernels;
    my @failed;
    for my $pl (@kernels) {
        my ($file) = $pl =~ m{([^/]+/[^/]+)$};    # DIR/FILE.pl
        # The list form runs perl without a shell; the kernel's own
        # messages (a failed check) go to our stderr.
        open(my $fh, '-|', $^X, $pl, 'ct-report') or die "$pl: $!\n";
        my @lines = <$fh>;
        close($fh);
        if ($? != 0) {
            push @failed, $file;
            next;
        }
        for (@lines) {
            chomp;
            next if $_ eq '';
            my ($src, $func, $rest) = /^(\S+) (\S+): (.*)$/
                or die "$file: unexpected ct-report line '$_'\n";
            next if $rest =~ /^public registers: /;
            my $key;
            if ($rest =~ /^handles no secrets/) {
                $key = key_of($file, $func, 'secrets=none', $SECRETS_NONE);
            } elsif ($rest =~ /^(.*?) -- (.*)$/) {
                $key = key_of($file, $func, $1, $2);
            } else {
                die "$file: unexpected ct-report line '$_'\n";
            }
            $found{$key}++;
        }
    }
    die "the secret-register check fails in: @failed (see above); fix the "
        . "kernels first\n" if @failed;
    return \%found;
}

# The committed list: key -> count. `#` lines and blank lines are comments.
sub read_list {
    my ($file) = @_;
    my %listed;
    open(my $fh, '<', $file) or die "$file: $! (run `$0 update` to create it)\n";
    my $n = 0;
    while (my $line = <$fh>) {
        $n++;
        chomp $line;
        next if $line =~ /^\s*(#|$)/;
        my ($count, @f) = split /\s\|\s/, $line, 5;
        die "$file:$n: expected COUNT | FILE | FUNCTION | INSTRUCTION | REASON\n"
            unless @f == 4 && $count =~ /^\s*([1-9]\d*)\s*$/;
        my $key = key_of(@f);
        die "$file:$n: listed twice: $key\n" if exists $listed{$key};
        $listed{$key} = $1;
    }
    close $fh;
    return \%listed;
}

sub entry { my ($count, $key) = @_; return "$count | $key" }

my $found = scan($asm);

if ($mode eq 'update') {
    my $tmp = "$list.tmp$$";
    open(my $fh, '>', $tmp) or die "$tmp: $!\n";
    print $fh <<'___';
# asm/ct_exemptions.txt: every reviewed exemption from the perlasm
# secret-register check, one line each:
#     COUNT | FILE | FUNCTION | INSTRUCTION | REASON
# (a `# public: REASON` annotation on INSTRUCTION, COUNT times in FUNCTION,
# or a whole function declared secrets=none). The test asm.ct_exemptions
# fails when the kernels' exemptions differ from this list. Each entry was
# read by a reviewer, who checked that REASON really makes the operand
# public (a length, a pointer, a count, a constant); after reviewing a
# change, regenerate with `perl asm/ct_exemptions.pl update` (or the CMake
# target asm_ct_exemptions_update). Generated: write reasons in the kernels.
___
    print $fh entry($found->{$_}, $_), "\n" for sort keys %$found;
    close($fh) or die "$tmp: $!\n";
    rename($tmp, $list) or die "rename $tmp: $!\n";
    my $n = 0;
    $n += $_ for values %$found;
    print "wrote $list: ", scalar(keys %$found), " entries, $n exemptions\n";
    exit 0;
}

my $listed = read_list($list);
my (@added, @removed, @notes);
for my $key (sort keys %$found) {
    my ($have, $want) = ($found->{$key}, $listed->{$key} // 0);
    next if $have == $want;
    push @added, entry($have, $key);
    push @removed, entry($want, $key) if $want;
    push @notes, "$key: $have in the sources, $want on the list" if $want;
}
for my $key (sort keys %$listed) {
    push @removed, entry($listed->{$key}, $key) unless exists $found->{$key};
}
# The same instruction in the same function with another reason: say so.
my (%src_reason, %list_reason);
for ([\@added, \%src_reason], [\@removed, \%list_reason]) {
    my ($entries, $reasons) = @$_;
    for my $e (@$entries) {
        my (undef, $file, $func, $insn, $reason) = split / \| /, $e, 5;
        push @{ $reasons->{"$file | $func | $insn"} }, $reason;
    }
}
for my $w (sort keys %src_reason) {
    my %old = map { $_ => 1 } @{ $list_reason{$w} // [] };
    my @new = grep { !$old{$_} } @{ $src_reason{$w} };
    next unless @new && %old;
    push @notes, "$w: the reason differs: the list says "
                 . join(' / ', map { "'$_'" } sort keys %old) . ", the source says "
                 . join(' / ', map { "'$_'" } @new);
}

my $total = 0;
$total += $_ for values %$found;
if (!@added && !@removed) {
    print "ct_exemptions: the kernels' ", $total, " exemptions (",
          scalar(keys %$found), " entries) match ", basename($list), "\n";
    exit 0;
}
print "ct_exemptions: the kernels' exemptions from the secret-register check "
    . "differ from the reviewed list ", basename($list), ".\n";
if (@added) {
    print "\nIn the sources but not on the list (a new exemption, a changed "
        . "reason or instruction, or another copy):\n";
    print "+ $_\n" for @added;
}
if (@removed) {
    print "\nOn the list but no longer in the sources:\n";
    print "- $_\n" for @removed;
}
if (@notes) {
    print "\n";
    print "note: $_\n" for @notes;
}
print <<"___";

An exemption switches the check off for its instruction: its reason must
make the operand public (a length, a pointer, a loop counter, a constant),
and nothing else tests that for the AVX-512/VAES kernels or for addresses
on ARM. After a reviewer has read every + line above in its kernel, update
the list and commit it with the change:
    perl asm/ct_exemptions.pl update       (or: cmake --build BUILD --target asm_ct_exemptions_update)
___
exit 1;
