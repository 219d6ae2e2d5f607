# asm/perlasm/siv_runs.pm: how the x86_64 POLYVAL kernels with a
# siv_polyval_runs function (asm/x86_64/aes-gcm-vaes-avx512-x86_64.pl and
# asm/x86_64/ghash-vpclmul-avx2-x86_64.pl) walk struct siv_polyval_runs
# (crypto/fused/fused.h): four run addresses, then four block counts at
# SIV_POLYVAL_RUNS_BLOCKS_OFFSET, read from fused.h (its one home,
# asserted there) as perlasm/layout.pm reads its offsets. A kernel keeps
# the current run's slot in r10 and the run's address and block count in
# registers of its choice; the walk is written here once:
#   runs_entry(runs, total, done): r10 at the first slot, `total` the
#     blocks of all four runs, to `done` when there are none;
#   first_run(in, blocks): the first run's address and block count;
#   skip_empty_runs(tag, in, blocks): on to the next run with blocks.
#
# Constant time: the walk reads the caller's struct at addresses made from
# its pointer and the run index, and branches on block counts: all public.
package perlasm::siv_runs;

use strict;
use warnings;

use Exporter qw(import);
use perlasm::layout ();
our @EXPORT_OK = qw(runs_entry first_run skip_empty_runs);

# Where the block counts start in struct siv_polyval_runs.
my $BLOCKS = perlasm::layout::c_define('crypto/fused/fused.h',
                                       'SIV_POLYVAL_RUNS_BLOCKS_OFFSET');

# runs_entry(runs, total, done): the entry every kernel shares. r10 takes
# the struct's address from `runs`; `total` (a 64-bit register other than
# r10) the sum of the four counts; a message of no blocks jumps to `done`.
sub runs_entry {
    my ($runs, $total, $done) = @_;
    my $code = "    mov        r10, $runs                     # runs: the current run's slot\n";
    for my $r (0 .. 3) {
        my $op = $r == 0 ? 'mov ' : 'add ';
        my $at = $BLOCKS + 8 * $r;
        $code .= "    $op       $total, [r10 + $at]              # public: a run's block count (runs->blocks[$r])\n";
    }
    return $code . "    test       $total, $total\n    jz         $done\n";
}

# first_run(in, blocks): the first run's address and block count.
sub first_run {
    my ($in, $blocks) = @_;
    return <<___;
    mov        $in, [r10]                   # public: a run's address (runs->in[0])
    mov        $blocks, [r10 + $BLOCKS]          # public: a run's block count (runs->blocks[0])
___
}

# skip_empty_runs(tag, in, blocks): at label .L<tag>, while the current
# run (address in `in`, count in `blocks`) is empty, steps r10 to the next
# slot and loads that run; falls through at .L<tag>_have with a run of at
# least one block. The caller knows one is left (the total is not zero).
sub skip_empty_runs {
    my ($tag, $in, $blocks) = @_;
    return <<___;
.L${tag}:
    test       $blocks, $blocks
    jnz        .L${tag}_have
    add        r10, 8
    mov        $in, [r10]                   # public: a run's address (runs->in[r])
    mov        $blocks, [r10 + $BLOCKS]          # public: a run's block count (runs->blocks[r])
    jmp        .L${tag}
.L${tag}_have:
___
}

1;
