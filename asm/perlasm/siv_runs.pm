# asm/perlasm/siv_runs.pm: how the x86_64 POLYVAL kernels with a
# siv_polyval_runs function (asm/x86_64/aes-gcm-vaes-avx512-x86_64.pl and
# asm/x86_64/ghash-vpclmul-avx2-x86_64.pl) walk struct siv_polyval_runs
# (crypto/fused/fused.h): four run addresses, then, 32 bytes on
# (SIV_POLYVAL_RUNS_BLOCKS_OFFSET, which fused.h asserts), four block
# counts. A kernel keeps the current run's slot in r10 and the run's
# address and block count in registers of its choice.
#
# Constant time: the walk reads the caller's struct at addresses made from
# its pointer and the run index, and branches on block counts: all public.
package perlasm::siv_runs;

use strict;
use warnings;

use Exporter qw(import);
our @EXPORT_OK = qw(skip_empty_runs);

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
    mov        $blocks, [r10 + 32]          # public: a run's block count (runs->blocks[r])
    jmp        .L${tag}
.L${tag}_have:
___
}

1;
