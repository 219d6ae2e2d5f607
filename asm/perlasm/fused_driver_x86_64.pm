# asm/perlasm/fused_driver_x86_64.pm: the drivers of the x86_64 fused
# AES-GCM kernels (asm/x86_64/aes-gcm-aesni-avx-x86_64.pl,
# aes-gcm-vaes-avx2-x86_64.pl, aes-gcm-vaes-avx512-x86_64.pl): the three
# functions of the contract of crypto/fused/fused.h, seal, seal_lagged and
# open, with their frames, their entry, the batch loops, the choice
# between a tail and no tail, and the exit. What runs inside a batch (the
# counter blocks, the AES rounds with the GHASH multiplies stitched in,
# the tails) stays in each kernel, which hands it to the drivers as text.
#
# The drivers
# ===========
# Every kernel runs batches of `batch` blocks (eight or sixteen) and
# stitches the GHASH of one batch into the AES rounds of another; the
# only difference in the drivers is where the blocks to hash come from.
#   seal: ciphertext exists only after the rounds, so the first batch is
#         encrypted alone and each further batch hashes the one before;
#         the last batch is hashed during the rounds of the tail, or alone
#         when there is no tail. Then the tail's own ciphertext is hashed
#         (tail_hash), unless the kernel's tail hashes it itself.
#   seal_lagged: seal on whole batches (blocks a positive multiple of
#         batch) with the hash one batch behind (struct fused_lag in
#         crypto/fused/fused.h): the previous call's last batch, left
#         unhashed in lag->pending, is hashed during the first batch's
#         rounds when there is one, and this call's last batch is stored
#         there, straight from the registers that hold it, instead of
#         hashed. So on a stream of short calls no batch's rounds or
#         multiplies run alone once something is pending. A kernel either
#         stitches the pending batch into its first batch (first_pending:
#         the loop is then entered after a stored batch) or loads it into
#         the registers its iterations hash (load_pending: the loop is
#         then entered before its first batch).
#   open: the ciphertext is the input, so each batch hashes its own input
#         blocks during its rounds, all read before any output of the
#         batch is written (in == out works); the tail is hashed before it
#         is decrypted (tail_hash) or during its rounds.
#
# The kernel
# ==========
# A kernel is described by a hash:
#   name    the functions' prefix (NAME_seal, NAME_seal_lagged, NAME_open)
#   batch   blocks per iteration
#   vec     the register kind that holds a batch ('xmm', 'ymm', 'zmm'),
#           batch blocks in registers 0 .. n-1 of that kind after the last
#           round (seal_lagged stores them from there)
#   frame   bytes of stack frame, if any
#   public  general-purpose registers besides the arguments and the
#           entry's that the loops and tails use for public values only
#           (perlasm/ctcheck_x86.pm); lagged_public for seal_lagged, by
#           default the same
#   entry   what the entry does after the key pointers and Nr are loaded
#           (r10 = k->aes_key, r11 = k->ghash_key, eax = Nr): Y from r9,
#           the counter, the keys the kernel keeps in registers
#   setup, teardown  optional: per-call data that only the loop of
#           batches reads (the loop is entered only after setup, or after
#           a first batch that made the data itself, and teardown wipes it
#           when the loop ends); the batches outside the loop do without
#   exit    Y back to r9 and the wiping of every vector register
#   sse     1 for a kernel in the legacy SSE encoding (no VEX anywhere):
#           the drivers' own vector instructions are SSE too
# seal_function(), seal_lagged_function() and open_function() take it
# with the pieces of code each function runs; memory_kernel() builds all
# three for the kernels that hash from memory with a run of 1..batch
# blocks (ghash_run). spread() is the one piece of the iterations the
# kernels share: how a round's VAESENCs and a hook's multiplies interleave.
# Registers are the System V ones (the translator maps win64 arguments):
# out = rsi, in = rdx, blocks = rcx; r9 is Xi (lag in seal_lagged, then
# r12 lag->pending, rbx lag->has_pending, r9 lag->Xi).
package perlasm::fused_driver_x86_64;

use strict;
use warnings;
use perlasm::layout;    # $K_AES_KEY, $K_GHASH_KEY, $ROUNDS, $LAG_*
use perlasm::siv_copy;  # extract(): a function renamed, its labels suffixed
use Exporter qw(import);

our @EXPORT_OK = qw(spread interleave ctr_loop);    # for the kernels' rounds and counter mode

my ($OUT, $IN, $BLOCKS) = qw(rsi rdx rcx);
my @ARGS = qw(rdi rsi rdx rcx r8 r9 r10 r11 rax);   # arguments, key pointers, Nr
my %WIDTH = (xmm => 16, ymm => 32, zmm => 64);
my %WORD = (8 => 'eight', 16 => 'sixteen');
my $PROTO = 'const struct fused_keys *k, uint8_t *out, const uint8_t *in, '
          . 'size_t blocks, const uint8_t ctr[16]';

# spread(round, hook, lead): the kernels' stitching of one round: the
# round's first `lead` lines (a key load, say) as they are, then its
# VAESENCs with the hook's instructions spread evenly between them, the
# same number after each (the last ones fewer), so that the decoder hands
# the scheduler a mix of AES rounds and carry-less multiplies rather than a
# burst of each. The two streams use disjoint registers; each keeps its own
# order.
sub spread {
    my ($round, $hook, $lead) = @_;
    my @h = grep { /\S/ } split /\n/, $hook;
    my @a = grep { /\S/ } split /\n/, $round;
    my $s = join '', map { "$_\n" } splice @a, 0, $lead // 0;
    my $per = int((@h + @a - 1) / @a);
    for my $x (@a) {
        $s .= "$x\n";
        for (1 .. $per) { $s .= shift(@h) . "\n" if @h; }
    }
    return $s;
}

# interleave(a, b): the instruction lines of a and b (no labels, no
# branches) merged, b's spread evenly between a's, each text in its own
# order. Two independent chains written one after the other wait on each
# other in the core's queues; merged, both advance from the start. (The
# AES-GCM-SIV per-message kernels: K_enc's expansion beside the powers of
# K_auth.)
sub interleave {
    my ($a, $b) = @_;
    my @a = grep { /\S/ } split /\n/, $a;
    my @b = grep { /\S/ } split /\n/, $b;
    return $a unless @b;
    my ($s, $j) = ('', 0);
    for my $i (0 .. $#a) {
        $s .= "$a[$i]\n";
        my $want = int(($i + 1) * @b / @a);
        $s .= $b[$j++] . "\n" while $j < $want;
    }
    return $s;
}

# function(k, suffix, public, last argument): the .function line.
sub function {
    my ($k, $suffix, $public, $last) = @_;
    my $frame = defined $k->{frame} ? " frame=$k->{frame}" : '';
    return ".function $k->{name}_$suffix args=6$frame public="
         . join(',', @ARGS, @$public) . "   # ($PROTO, $last)\n";
}

# The common entry: the key pointers and Nr, then the kernel's own.
sub entry {
    my ($k) = @_;
    return <<___ . $k->{entry};
    mov        r10, [rdi + $K_AES_KEY]     # public: a pointer in struct fused_keys
    mov        r11, [rdi + $K_GHASH_KEY]  # public: a pointer in struct fused_keys
    mov        eax, [r10 + $ROUNDS]        # public: the round count follows from the key length
___
}

# step(k): in, out and the count past one batch.
sub step {
    my ($k) = @_;
    my $bytes = 16 * $k->{batch};
    return <<___;
    add        $IN, $bytes
    add        $OUT, $bytes
    sub        $BLOCKS, $k->{batch}
___
}

# seal_function(k, first, loop, pending, pending_tail, tail, [tail_hash], note):
# (with k->{setup}, the loop is entered through setup and left through
# teardown)
#   first         the first batch, alone
#   loop          a batch with the previous batch's hash stitched in
#   pending       the previous batch's hash alone (no tail)
#   pending_tail  the tail (1..batch-1 blocks) with the previous batch's
#                 hash in its rounds
#   tail          the tail of a call of fewer than batch blocks
#   tail_hash     the hash of the tail's ciphertext, after either tail
#                 (absent when the tails hash it themselves)
#   note          where the loop finds the batch it hashes, for the comment
sub seal_function {
    my ($k, %c) = @_;
    my $b = $k->{batch};
    my $step = step($k);
    my $after_tail = defined $c{tail_hash} ? 'tail_hash' : 'done';
    my $s = "\n" . function($k, 'seal', $k->{public}, 'uint8_t Xi[16]')
          . entry($k) . <<___;

    cmp        $BLOCKS, $b
    jb         .Lseal_tail
$c{first}
___
    $s .= defined $k->{setup} ? <<___ : <<___;
$step    cmp        $BLOCKS, $b
    jb         .Lseal_pending
$k->{setup}
.Lseal_loop:                                # $WORD{$b} ciphertext blocks $c{note}
$c{loop}
$step    cmp        $BLOCKS, $b
    jae        .Lseal_loop
$k->{teardown}
___
$step.Lseal_loop:                                # $WORD{$b} ciphertext blocks $c{note}
    cmp        $BLOCKS, $b
    jb         .Lseal_pending
$c{loop}
$step    jmp        .Lseal_loop
___
    $s .= <<___;
.Lseal_pending:
    test       $BLOCKS, $BLOCKS
    jnz        .Lseal_pending_tail
$c{pending}
    jmp        .Lseal_done
.Lseal_pending_tail:                        # 1..@{[ $b - 1 ]} left: the tail's rounds hash the last batch
$c{pending_tail}
    jmp        .Lseal_$after_tail
.Lseal_tail:                                # 1..@{[ $b - 1 ]} blocks in all
$c{tail}
___
    $s .= ".Lseal_tail_hash:\n$c{tail_hash}\n" if defined $c{tail_hash};
    return $s . ".Lseal_done:\n$k->{exit}\n.endfunction\n";
}

# pending_store(k): the last batch, from its registers to lag->pending
# (r12), unaligned: VMOVDQU (VMOVDQU64 for zmm, EVEX only), or MOVDQU for
# a kernel in the legacy SSE encoding (k->{sse}).
sub pending_store {
    my ($k) = @_;
    my $n = 16 * $k->{batch} / $WIDTH{$k->{vec}};
    my $mov = $k->{sse} ? 'movdqu    ' : $k->{vec} eq 'zmm' ? 'vmovdqu64 ' : 'vmovdqu   ';
    return join '', map { "    $mov [r12 + " . $WIDTH{$k->{vec}} * $_ . "], $k->{vec}$_\n" }
                    0 .. $n - 1;
}

# seal_lagged_function(k, first_pending | load_pending, [first_pending_fill],
#                      first_alone, loop):
#   first_pending  the first batch with lag->pending (at r12) hashed in its
#                  rounds; or
#   load_pending   lag->pending loaded into the registers loop hashes
#   first_pending_fill  with k->{setup}: first_pending that also makes
#                  setup's data, for a call of three batches or more
#                  (whose loop then goes without setup)
#   loop_outside   with k->{setup}: a batch like loop that does without
#                  setup's data, the second of a call of two (where making
#                  the data would cost more than it saves)
#   first_alone    the first batch, alone (nothing pending)
#   loop           a batch with the previous batch's hash stitched in
sub seal_lagged_function {
    my ($k, %c) = @_;
    die "seal_lagged_function: first_pending or load_pending\n"
        unless defined($c{first_pending}) != defined($c{load_pending});
    my $n = 16 * $k->{batch} / $WIDTH{$k->{vec}};
    my $regs = "$k->{vec}0.." . ($n - 1);
    my $step = step($k);
    my @public = @{ $k->{lagged_public} // $k->{public} };
    push @public, 'rbx' unless grep { $_ eq 'rbx' } @public;
    my $s = "\n" . function($k, 'seal_lagged', [@public, 'r12'],
                            'const struct fused_lag *lag') . <<___ . entry($k);
    mov        r12, [r9 + $LAG_PENDING]     # public: a pointer in struct fused_lag
    mov        rbx, [r9 + $LAG_HAS_PENDING] # public: has_pending: 0 or 1, from the stream's lengths alone
    mov        r9, [r9 + $LAG_XI]           # public: a pointer in struct fused_lag
___
    if (defined $k->{setup}) {
        die "seal_lagged_function: setup needs first_pending, first_pending_fill and loop_outside\n"
            unless defined $c{first_pending} && defined $c{first_pending_fill}
                && defined $c{loop_outside};
        my $b3 = 3 * $k->{batch};
        $s .= <<___;

    test       rbx, rbx
    jz         .Llag_first_alone
    cmp        $BLOCKS, $b3
    jae        .Llag_first_fill
$c{first_pending}
$step    jz         .Llag_done                  # one batch: it is the pending one
$c{loop_outside}
$step    jmp        .Llag_done                  # two batches
.Llag_first_fill:
$c{first_pending_fill}
$step    jmp        .Llag_loop
.Llag_first_alone:
$c{first_alone}
$step    jz         .Llag_done
$k->{setup}
.Llag_loop:                                 # $regs: the batch just stored at out
$c{loop}
$step    jnz        .Llag_loop
$k->{teardown}
___
        $s .= ".Llag_done:                                 # the last batch: pending, unhashed\n";
        $s .= pending_store($k);
        return $s . "$k->{exit}\n.endfunction\n";
    }
    my $loop = defined $c{first_pending} ? 'lag_next' : 'lag_loop';
    $s .= <<___;

    test       rbx, rbx
    jz         .Llag_first_alone
@{[ $c{first_pending} // $c{load_pending} ]}
    jmp        .L$loop
.Llag_first_alone:
$c{first_alone}
___
    if (defined $c{first_pending}) {
        $s .= <<___;
.Llag_next:                                 # $regs: the batch just stored at out
$step    jz         .Llag_done
$c{loop}
    jmp        .Llag_next
___
    } else {
        $s .= <<___;
$step.Llag_loop:                                 # $regs: the batch just stored (if any)
    test       $BLOCKS, $BLOCKS
    jz         .Llag_done
$c{loop}
$step    jmp        .Llag_loop
___
    }
    $s .= ".Llag_done:                                 # the last batch: pending, unhashed\n";
    return $s . pending_store($k) . "$k->{exit}\n.endfunction\n";
}

# open_function(k, [first, first_fill], loop, [tail_hash], tail):
#   first      with k->{setup}: the first batch of a call whose loop does
#              not run (fewer than two batches)
#   first_fill with k->{setup}: the first batch of a call whose loop runs,
#              which also makes setup's data
#   loop       a batch with its own input's hash stitched in
#   tail_hash  the hash of the tail's input (absent when the tail hashes
#              it during its rounds)
#   tail       the tail, 1..batch-1 blocks
sub open_function {
    my ($k, %c) = @_;
    my $b = $k->{batch};
    my $note = defined $c{tail_hash} ? 'hash, then decrypt' : 'hashed during their rounds';
    my $s = "\n" . function($k, 'open', $k->{public}, 'uint8_t Xi[16]')
          . entry($k);
    if (defined $k->{setup}) {
        die "open_function: setup needs first and first_fill\n"
            unless defined $c{first} && defined $c{first_fill};
        my ($step, $b2) = (step($k), 2 * $b);
        $s .= <<___;

    cmp        $BLOCKS, $b
    jb         .Lopen_tail
    cmp        $BLOCKS, $b2
    jae        .Lopen_first_fill
$c{first}
$step    jmp        .Lopen_tail
.Lopen_first_fill:
$c{first_fill}
$step.Lopen_loop:
$c{loop}
$step    cmp        $BLOCKS, $b
    jae        .Lopen_loop
$k->{teardown}
___
    } else {
        $s .= <<___;

.Lopen_loop:
    cmp        $BLOCKS, $b
    jb         .Lopen_tail
$c{loop}
@{[ step($k) ]}    jmp        .Lopen_loop
___
    }
    $s .= <<___;
.Lopen_tail:                                # 0..@{[ $b - 1 ]} left: $note
    test       $BLOCKS, $BLOCKS
    jz         .Lopen_done
___
    $s .= "$c{tail_hash}\n" if defined $c{tail_hash};
    return $s . "$c{tail}\n.Lopen_done:\n$k->{exit}\n.endfunction\n";
}

# memory_kernel(k, counters, rounds, last, tail, group_hooks, ghash_run,
#               [outside_hooks, fill_hooks]):
# the .text of all three functions for a kernel that hashes from memory,
# from its pieces:
#   counters(n)             the next n registers of counter blocks ^ rk[0]
#   rounds(n, tag, hooks)   rounds 1 .. Nr-1 on them, with the round hooks
#                           if given, then rk[Nr] loaded
#   last                    the last round of a batch with the data folded
#                           in, the batch stored (text)
#   tail(tag, hooks)        the tail, with the round hooks if given
#   group_hooks(src)        the round hooks that hash the batch at src
#                           (a base register or `register - offset`)
#   ghash_run(tag)          Y = the hash of rdi (1..batch) blocks at rbx,
#                           clobbering rbx, rdi and rbp (so those are
#                           declared public)
#   outside_hooks(src)      with k->{setup}: group_hooks for the batches
#                           outside the loop (seal's pending tail,
#                           seal_lagged's and open's first), which do
#                           without setup's data
#   fill_hooks(src)         with k->{setup}: outside_hooks that also make
#                           setup's data (the first batch of a seal_lagged
#                           or open whose loop runs)
#   oneshot(tag), oneshot_end(tag)
#                           optional: the text that seal_oneshot and
#                           open_oneshot (fused.h) run after the entry and
#                           before the exit, r9 being struct fused_oneshot
#                           (the AAD block into Y and the two mask blocks;
#                           the partial block and the length block into
#                           Y); with them the kernel has those two
#                           functions too: seal and open between them
# A batch is counters, rounds and last on the registers of one batch; with
# hashing, the round hooks of the batch at src are stitched in. The
# previous batch of seal is at out - 16*batch, re-read from where it was
# just stored.
sub memory_kernel {
    my ($k, %p) = @_;
    $k = { %$k, public => [qw(rbx rbp)] };
    my $n = 16 * $k->{batch} / $WIDTH{$k->{vec}};
    my $prev = "$OUT - " . 16 * $k->{batch};
    my $alone = sub {
        my ($tag) = @_;
        return join "\n", $p{counters}->($n), $p{rounds}->($n, $tag), $p{last};
    };
    my $stitched = sub {
        my ($tag, $src, $hooks) = @_;
        $hooks //= $p{group_hooks};
        return $p{counters}->($n) . $p{rounds}->($n, $tag, $hooks->($src)) . $p{last};
    };
    my $outside = defined $k->{setup} ? $p{outside_hooks} : $p{group_hooks};
    my $run = sub {
        my ($tag, $load, $count) = @_;
        return "    $load\n    mov        rdi, $count\n" . $p{ghash_run}->($tag);
    };
    my %seal = (
        note         => "pending at out - " . 16 * $k->{batch},
        first        => $alone->('seal_first'),
        loop         => $stitched->('seal_loop', $prev),
        pending      => $run->('seal_pending', "lea        rbx, [$prev]            # no tail: hash the last batch alone", $k->{batch}),
        pending_tail => $p{tail}->('seal_ptail', $outside->($prev)),
        tail         => $p{tail}->('seal_tail'),
        tail_hash    => $run->('seal_tail_hash', "mov        rbx, $OUT", $BLOCKS));
    my %open = (
        (defined $k->{setup}
             ? (first      => $stitched->('open_first', $IN, $outside),
                first_fill => $stitched->('open_fill', $IN, $p{fill_hooks})) : ()),
        loop      => $stitched->('open_loop', $IN),
        tail_hash => $run->('open_tail_hash', "mov        rbx, $IN", $BLOCKS),
        tail      => $p{tail}->('open_tail'));
    my $s = "\n.text" . seal_function($k, %seal)
    . seal_lagged_function($k,
        first_pending => $stitched->('lag_first', 'r12', $outside),
        (defined $k->{setup}
             ? (first_pending_fill => $stitched->('lag_fill', 'r12', $p{fill_hooks}),
                loop_outside       => $stitched->('lag_second', $prev, $outside)) : ()),
        first_alone   => $alone->('lag_alone'),
        loop          => $stitched->('lag_loop', $prev))
    . open_function($k, %open);
    return $s unless defined $p{oneshot};
    # seal_oneshot and open_oneshot: seal and open with the kernel's
    # oneshot(tag) text after the entry (r9 is then struct fused_oneshot,
    # whose Xi is where seal's r9 points), renamed, their labels suffixed.
    for my $op (['seal', \&seal_function, \%seal], ['open', \&open_function, \%open]) {
        my ($fn, $make, $pieces) = @$op;
        my $ko = { %$k, entry => $k->{entry} . $p{oneshot}->("${fn}_os"),
                   exit => $p{oneshot_end}->("${fn}_os_end") . $k->{exit} };
        my $f = perlasm::siv_copy::extract($make->($ko, %$pieces), "$k->{name}_$fn",
                                           "$k->{name}_${fn}_oneshot", '_os');
        $f =~ s/uint8_t Xi\[16\]\)$/struct fused_oneshot *m)/m or die "memory_kernel: no prototype\n";
        $s .= "\n$f";
    }
    return $s;
}

# ctr_loop(k, tag, iteration, tail): the loop of counter mode over whole
# batches: `iteration` for each k->{batch} blocks (in, out and the count
# stepped past them), then `tail` for the 1 .. batch-1 blocks left, if
# any; labels .L<tag>_loop, _tail and _done (the last ends the text).
# ctr_function's loop and the AES-GCM-SIV kernels' siv_tag_ctr32le, whose
# entries differ.
sub ctr_loop {
    my ($k, $tag, $iteration, $tail) = @_;
    return <<___;
.L${tag}_loop:
    cmp        $BLOCKS, $k->{batch}
    jb         .L${tag}_tail
$iteration
@{[ step($k) ]}    jmp        .L${tag}_loop
.L${tag}_tail:                              # 0..@{[ $k->{batch} - 1 ]} left
    test       $BLOCKS, $BLOCKS
    jz         .L${tag}_done
$tail
.L${tag}_done:
___
}

# ctr_function(k, entry, iteration, tail, [public]): the x86_64 counter
# mode alone (aes.h's ctr32 contract on the aesni schedule) that an
# AES-GCM-SIV kernel is made from (perlasm/siv_copy.pm turns it into
# ctr32le), a function named ctr_in_gcm_order(s, out, in, blocks, ctr):
# the schedule in r10 and Nr in eax, the kernel's entry (its counter base
# and keys), then whole batches of k->{batch} blocks by `iteration`, then
# the 1 .. batch-1 blocks left by `tail`, and the kernel's exit wipe.
sub ctr_function {
    my ($k, %c) = @_;
    my $frame = defined $k->{frame} ? " frame=$k->{frame}" : '';
    my $public = join ',', qw(rdi rsi rdx rcx r8 r10 rax), @{ $c{public} // [] };
    return <<___;
.function ctr_in_gcm_order args=5$frame public=$public   # (const struct aes_schedule *s, uint8_t *out, const uint8_t *in, size_t blocks, const uint8_t ctr[16])
    test       $BLOCKS, $BLOCKS
    jz         .Lsivctr_return
    mov        r10, rdi                     # the schedule, where the pieces read it
    mov        eax, [r10 + $ROUNDS]         # public: the round count follows from the key length
$c{entry}@{[ ctr_loop($k, 'sivctr', $c{iteration}, $c{tail}) ]}$k->{exit}.Lsivctr_return:
.endfunction
___
}

1;
