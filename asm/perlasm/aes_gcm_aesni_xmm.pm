# asm/perlasm/aes_gcm_aesni_xmm.pm: the stitched AES-NI + PCLMULQDQ kernel
# on xmm registers, written once for its two encodings:
#   avx  asm/x86_64/aes-gcm-aesni-avx-x86_64.pl ("aesni_avx"): VEX, three
#        operands, memory operands at any alignment;
#   sse  asm/x86_64/aes-gcm-aesni-sse-x86_64.pl ("aesni_sse"): the legacy
#        SSE encoding, two operands, for the CPUs with AES-NI and
#        PCLMULQDQ but no AVX (Westmere, Silvermont to Tremont).
# Both meet the contract of crypto/fused/fused.h for the pair (aesni,
# clmul). This module holds the instructions and the one description of
# the algorithm, the register plan and the constant-time argument below,
# so the two kernels cannot drift apart; each .pl file says only what its
# encoding changes.
#
# Algorithm
# =========
# The stitched design of Gueron and Krasnov: the AES rounds of one batch of
# counter blocks and the carry-less multiplies of a batch of ciphertext run
# in one instruction stream, so the AES unit and the multiplier, which are
# separate ports, work at the same time. Without it a CPU runs counter mode
# and then GHASH over the same data, each unit idle half the time.
#
# AES. Eight counter blocks are in flight in eight registers: AESENC has a
# latency of 4 (Zen) to 7 (Sandy Bridge) cycles and issues one or two per
# cycle, so eight independent chains keep the unit busy. The round key of
# each round is loaded once into a register and used by the eight AESENCs.
#
# Counters. As in the aesni kernel (asm/x86_64/aes-ni-x86_64.pl), the
# counter block is kept with the four bytes of its 32-bit big-endian
# counter reversed, so that the counter is a little-endian dword and PADDD
# adds modulo 2^32 without touching bytes 0..11. The base (in the stack
# frame: no register is left for it) holds ctr + i for the next block i;
# block r of a batch is base + r, each computed by its own PADDD from the
# base, so a wrap from 0xFFFFFFFF to 0 anywhere in a batch is exact. A
# PSHUFB swaps the counter bytes back before rk[0] is XORed in. The last
# round folds the data in: AESENCLAST(s, rk[Nr] ^ in) =
# AESENCLAST(s, rk[Nr]) ^ in, because the last AddRoundKey is an XOR.
#
# GHASH. The field arithmetic and the key are the clmul GHASH kernel's
# (asm/x86_64/ghash-clmul-x86_64.pl explains them): blocks byte-reversed
# into the reflected form, Karatsuba PCLMULQDQ products with the powers
# H'^1..H'^8 that the clmul key already holds (H' = H*x^-1; entry i at
# byte 16*(i-1), its Karatsuba half sum, in both qwords, at
# 128 + 16*(i-1)), lo/mid/hi accumulated unreduced over a group, one
# Montgomery reduction with the constant 0xC2<<56 per group. A group of
# eight blocks X1..X8 gives
#     Y' = (Y ^ X1)*H^8 ^ X2*H^7 ^ ... ^ X8*H
# so the kernel needs nothing beyond the clmul key (no init of its own).
#
# Stitching. Each iteration of the main loop runs the middle rounds of the
# next eight counter blocks and, spread between their AESENCs, the
# multiplies of one ciphertext block in each of rounds 1..8 and the
# reduction in round 9 (every key size has rounds 1..9). Every function
# has two bodies, chosen once per call by the round count: AES-128's and
# AES-192's, and AES-256's, whose batches spread the nine over its
# thirteen middle rounds (rounds(), with_aes256_body() below). The only chain
# across iterations is Y (the reduction result feeds the next group's first
# block), which is short next to the AES rounds.
# The drivers around the iterations (seal, seal_lagged on whole batches
# with the hash one batch behind, open) are perlasm/fused_driver_x86_64.pm's
# memory_kernel, which explains them. Here seal's iteration hashes the
# previous iteration's eight output blocks, re-read from out where they
# were just stored; seal_lagged's first batch hashes lag->pending from
# memory; open's iteration hashes its own eight input blocks, all read
# before any output of the iteration is written (in == out works).
# Tail (1..7 blocks, or a whole call of fewer than eight): the key stream
# of two, four or eight blocks is computed, the n existing blocks are XORed
# and stored, never touching memory past them, and they are hashed as one
# aggregated run with H^n .. H^1 (one pointer walks the key down as another
# walks the data up), one reduction. Open hashes the tail before decrypting
# it.
#
# AES-GCM-SIV (fused.h's siv_open(k, out, in, blocks, ctr, S)): seal's
# text turned into RFC 8452's byte order by perlasm/siv_copy.pm (each
# in-place PSHUFB with the byte-reversal mask dropped, .Lctr_swap made
# .Lctr_swap_le), which decrypts and folds the plaintext it writes into S
# in one pass. Counter mode alone and POLYVAL alone are the aesni and
# clmul backends' ctr32le and polyval_update.
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   <prefix>_seal / _open(k = rdi, out = rsi, in = rdx, blocks = rcx,
#                         ctr = r8, Xi = r9)
#   <prefix>_seal_lagged(the same, but lag = r9): r12 lag->pending, rbx
#     lag->has_pending, r9 (before the common entry) lag->Xi; the rest as
#     in seal.
#     r10 AES schedule (k->aes_key), r11 GHASH key (k->ghash_key),
#     eax Nr, r8 (after the counter is read) address of rk[Nr],
#     rbx, rdi, rbp: GHASH run data pointer, block count, power pointer.
#     xmm0-xmm7   the eight AES blocks in flight
#     xmm8        the current round key (first the counter base)
#     xmm9 xmm10 xmm11   GHASH lo, mid, hi accumulators
#     xmm12       a data block: for GHASH (byte-reversed), or in the last
#                 round rk[Nr] ^ data, or (sse) data XORed into a tail's
#                 key stream
#     xmm13 xmm14 half-sum and product temporaries
#     xmm15       Y, the running hash, reflected
#     [rsp]       the counter base (16 bytes)
# The byte-reversal and counter-swap masks, the counter increments and the
# reduction constant are memory operands. The function wipes the counter
# slot and zeroes xmm0-xmm15 (one zero idiom each): no key stream, data,
# round key, power of H or Y is left in a vector register (each .pl file
# says how its encoding leaves the AVX state). On win64 the translator
# saves and restores xmm6-xmm15, rbx, rbp, rdi and rsi.
#
# Secrets and constant time
# =========================
# Secret: the round keys, H and its powers, Y, the data and the key stream
# (the counter block is treated like data). They flow only through AESENC/
# AESENCLAST, PCLMULQDQ, PXOR, PADDD, MOVDQA/MOVDQU, PSHUFB with constant
# masks and PSHUFD with a constant immediate (or their VEX forms), none of
# which has an operand-dependent timing, and through loads and stores at
# addresses made from the caller's pointers, the stack pointer, the block
# count and Nr. Branches depend on the block count, on Nr (the key length)
# and, in seal_lagged, on lag->has_pending only: all public. The
# general-purpose registers declared public hold only pointers, counts, Nr
# and that flag (the translator's secret-register check,
# perlasm/ctcheck_x86.pm, proves it for every function).
#
# How one text serves both encodings
# ==================================
# Every vector instruction is written in its three-operand form
# dst = a OP b through vop() below. The avx encoding emits it as it is
# (VPXOR dst, a, b). The sse encoding emits OP dst, b when dst is a, and
# otherwise MOVDQA dst, a first, so the pieces choose dst = a wherever the
# value in a is dead, which costs the VEX form nothing (the reduction
# writes its product over the limb it consumed, the last product of a
# block over the block). Two rules keep the SSE form legal:
#   - a legacy SSE memory operand must be 16-byte aligned. Only the
#     constants (rodata, .align 16), the stack frame (16-byte aligned by
#     the translator) and the clmul GHASH key (16-byte aligned in every key,
#     crypto/gcm/key.c) are used as operands of a vector instruction: vop()
#     refuses any other base in the sse encoding. The caller's data, the
#     counter block, Xi and lag->pending are read with MOVDQU (data_xor(),
#     xor_data()), and the round keys with MOVDQU into xmm8, as before;
#   - no extra register is needed: each MOVDQA copies into the register
#     the VEX form writes.
# The sse encoding touches no AVX state, so its exit has no VZEROUPPER.
package perlasm::aes_gcm_aesni_xmm;

use strict;
use warnings;
use perlasm::fused_driver_x86_64 qw(spread);    # seal, seal_lagged, open; the stitching
use perlasm::siv_copy;                           # the AES-GCM-SIV function's byte order
use perlasm::layout;                             # $OS_*: struct fused_oneshot

# Offset of the Karatsuba half sums in the clmul GHASH key.
my $HALVES = 128;

my ($out, $in, $blocks) = qw(rsi rdx rcx);
my ($aes, $gkey, $rklast) = qw(r10 r11 r8);
my ($lo, $mid, $hi, $d, $t0, $t1, $y) = map { "xmm$_" } 9 .. 15;

# The encoding of the kernel being built: 1 for VEX, 0 for legacy SSE.
my $VEX;

# ---------------------------------------------------------------------------
# Instructions in either encoding.

# ins(mnemonic, operands..., ['# comment']): one line.
sub ins {
    my ($mn, @ops) = @_;
    my $c = @ops && $ops[-1] =~ /^#/ ? '    ' . pop(@ops) : '';
    return sprintf("    %-10s %s%s\n", $mn, join(', ', @ops), $c);
}

# The memory operands a legacy SSE instruction may take: 16-byte aligned.
sub check_aligned {
    my ($op) = @_;
    return if $op !~ /^\[/ || $op =~ /^\[(?:\.L\w+|rsp|$gkey|rbp)\b/;
    die "aes_gcm_aesni_xmm: $op may be unaligned: load it with MOVDQU first\n";
}

# vop(mnemonic, dst, a, b, [imm], ['# comment']): dst = a OP b.
sub vop {
    my ($mn, $dst, $a, $b, @rest) = @_;
    return ins("v$mn", $dst, $a, $b, @rest) if $VEX;
    check_aligned($b);
    return ins($mn, $dst, $b, @rest) if $dst eq $a;
    die "aes_gcm_aesni_xmm: $mn $dst, $a, $b would read $dst after writing it\n"
        if $dst eq $b;
    return ins('movdqa', $dst, $a) . ins($mn, $dst, $b, @rest);
}

# mov(kind, dst, src, ['# comment']): MOVDQU (kind 'u') or MOVDQA ('a').
sub mov {
    my ($kind, @ops) = @_;
    check_aligned($_) for $kind eq 'a' && !$VEX ? @ops : ();
    return ins(($VEX ? 'v' : '') . "movdq$kind", @ops);
}

# pshufd(dst, src, imm, ['# comment']): two operands in both encodings.
sub pshufd { return ins(($VEX ? 'v' : '') . 'pshufd', @_) }

# data_xor(dst, reg, mem): dst = reg ^ mem, mem at any alignment; dst is
# not reg.
sub data_xor {
    my ($dst, $r, $m) = @_;
    return ins('vpxor', $dst, $r, $m) if $VEX;
    return ins('movdqu', $dst, $m) . ins('pxor', $dst, $r);
}

# xor_data(dst, mem, tmp): dst ^= mem, mem at any alignment (through tmp
# in the sse encoding).
sub xor_data {
    my ($dst, $m, $tmp) = @_;
    return ins('vpxor', $dst, $dst, $m) if $VEX;
    return ins('movdqu', $tmp, $m) . ins('pxor', $dst, $tmp);
}

sub zero { my ($r) = @_; return vop('pxor', $r, $r, $r) }

# ---------------------------------------------------------------------------
# GHASH pieces (same arithmetic as ghash-clmul-x86_64.pl).

# mul_acc(first, data, pow, half): Karatsuba products of data with pow (and
# pow's half sum at `half`), XORed into (or, when first, written to)
# lo/mid/hi; mid is completed by fixup(). Clobbers data.
sub mul_acc {
    my ($first, $dd, $p, $k) = @_;
    my $s = pshufd($t0, $dd, '0x4e')
          . vop('pxor', $t0, $t0, $dd, '# a0 ^ a1');
    return $s . vop('pclmulqdq', $lo, $dd, $p, '0x00')
              . vop('pclmulqdq', $hi, $dd, $p, '0x11')
              . vop('pclmulqdq', $mid, $t0, $k, '0x00')
        if $first;
    return $s . vop('pclmulqdq', $t1, $dd, $p, '0x00')
              . vop('pxor', $lo, $lo, $t1)
              . vop('pclmulqdq', $dd, $dd, $p, '0x11')    # the block's last use
              . vop('pxor', $hi, $hi, $dd)
              . vop('pclmulqdq', $t0, $t0, $k, '0x00')
              . vop('pxor', $mid, $mid, $t0);
}

sub fixup {
    return vop('pxor', $mid, $mid, $lo, '# Karatsuba: mid ^= lo ^ hi')
         . vop('pxor', $mid, $mid, $hi);
}

# reduce(): Y from lo/mid/hi, the two-phase Montgomery reduction with
# 0xC2<<56; each product is written over the limb it consumed.
sub reduce {
    return pshufd($t0, $lo, '0x4e', '# phase 1: lo swapped, lo.q0 * 0xC2<<56')
         . vop('pclmulqdq', $lo, $lo, '[.Lpoly]', '0x10')
         . vop('pxor', $mid, $mid, $t0)
         . vop('pxor', $mid, $mid, $lo)
         . pshufd($y, $mid, '0x4e', '# phase 2: mid swapped, mid.q0 * 0xC2<<56')
         . vop('pclmulqdq', $mid, $mid, '[.Lpoly]', '0x10')
         . vop('pxor', $y, $y, $hi)
         . vop('pxor', $y, $y, $mid, '# Y');
}

# ghash_block(j, src): block j of an eight-block group at src + 16j, with
# the power H^(8-j); the first block absorbs Y.
sub ghash_block {
    my ($j, $src) = @_;
    my $e = 16 * (7 - $j);
    my $s = mov('u', $d, "[$src + " . 16 * $j . "]")
          . vop('pshufb', $d, $d, '[.Lbswap_mask]');
    $s .= vop('pxor', $d, $d, $y) if $j == 0;
    return $s . mul_acc($j == 0, $d, "[$gkey + $e]", "[$gkey + " . ($HALVES + $e) . "]");
}

# ghash_run(tag): Y = GHASH of rdi (1..8) blocks at rbx with H^rdi .. H^1,
# one reduction. Clobbers rbx, rdi, rbp.
sub ghash_run {
    my ($tag) = @_;
    return <<___ . zero($lo) . zero($mid) . zero($hi) . <<___
    mov        rbp, rdi
    shl        rbp, 4
    lea        rbp, [$gkey + rbp - 16]         # H^count, at 16 * (count - 1)
___
.L${tag}_block:
@{[ mov('u', $d, '[rbx]') . vop('pshufb', $d, $d, '[.Lbswap_mask]')
  . vop('pxor', $d, $d, $y) . zero($y) ]}    # Y is in; later XORs add nothing
@{[ mul_acc(0, $d, '[rbp]', "[rbp + $HALVES]") ]}
    add        rbx, 16
    sub        rbp, 16
    sub        rdi, 1
    jnz        .L${tag}_block
@{[ fixup() . reduce() ]}
___
}

# ---------------------------------------------------------------------------
# AES pieces.

# counters(n): xmm0..n-1 = the next n counter blocks ^ rk[0]; base += n.
sub counters {
    my ($n) = @_;
    my $s = mov('a', 'xmm8', '[rsp]');
    $s .= vop('paddd', "xmm$_", 'xmm8', '[.Linc + ' . 16 * $_ . ']') for 1 .. $n - 1;
    $s .= vop('pshufb', 'xmm0', 'xmm8', '[.Lctr_swap]');
    $s .= vop('paddd', 'xmm8', 'xmm8', '[.Linc + ' . 16 * $n . ']');
    $s .= mov('a', '[rsp]', 'xmm8');
    $s .= vop('pshufb', "xmm$_", "xmm$_", '[.Lctr_swap]') for 1 .. $n - 1;
    $s .= mov('u', 'xmm8', "[$aes]");
    $s .= vop('pxor', "xmm$_", "xmm$_", 'xmm8') for 0 .. $n - 1;
    return $s;
}

sub round {
    my ($n, $r) = @_;
    my $s = mov('u', 'xmm8', "[$aes + " . 16 * $r . ']');
    $s .= vop('aesenc', "xmm$_", "xmm$_", 'xmm8') for 0 .. $n - 1;
    return $s;
}

# rounds(n, tag, hooks, body): rounds 1 .. Nr-1 on xmm0..n-1 with
# hooks->{h} inside round h, then xmm8 = rk[Nr], for one of the two bodies
# every function has (with_aes256_body below). body 'nr' is AES-128's and
# AES-192's: the round count is tested after round 9. body 'aes256' is
# AES-256's: no test, and a whole batch with hashing (n = 8 with hooks) has
# the nine hooks spread over its thirteen middle rounds (hook h inside
# round 1 + (h - 1) * 12 / 8, rounded: hooked_rounds); with the hashing in
# rounds 1..9 only, rounds 10..13 ran AES alone, and the batches measured
# 3% slower on a Zen 1 core, where AESENC and PCLMULQDQ share pipes. The
# narrower tails and the one-shot entry's two blocks keep their hooks in
# the first rounds, whose results the batches after them wait for.
sub rounds {
    my ($n, $tag, $hooks, $body) = @_;
    if ($body eq 'aes256') {
        my $last = $hooks && $n == 8 ? 13 : 9;    # the rounds the hooks spread over
        return hooked_rounds($n, $last, $hooks)
             . join('', map { round($n, $_) } $last + 1 .. 13)
             . mov('u', 'xmm8', "[$rklast]");
    }
    die "aes_gcm_aesni_xmm: body nr or aes256, not $body\n" unless $body eq 'nr';
    return hooked_rounds($n, 9, $hooks)
         . "    cmp        eax, 10\n    je         .L${tag}_last\n"
         . round($n, 10) . round($n, 11)
         . ".L${tag}_last:\n" . mov('u', 'xmm8', "[$rklast]");
}

# hooked_rounds(n, last, hooks): rounds 1 .. last, hook h (1..9) inside
# round 1 + (h - 1) * (last - 1) / 8, rounded: rounds 1..9 for last = 9;
# 1, 3, 4, 6, 7, 9, 10, 12, 13 for last = 13 (which measured 1% faster
# than 1, 2, 4, ..., 13 and 2% faster than ending in round 12).
sub hooked_rounds {
    my ($n, $last, $hooks) = @_;
    my %at;
    if ($hooks) {
        $at{1 + int(($_ - 1) * ($last - 1) / 8 + 0.5)} = $hooks->{$_}
            for grep { $hooks->{$_} } 1 .. 9;
    }
    return join '', map { $at{$_} ? spread(round($n, $_), $at{$_}, 1) : round($n, $_) } 1 .. $last;
}

# last8(): the last round with the data folded in, eight blocks stored.
sub last8 {
    my $s = '';
    for my $j (0 .. 7) {
        $s .= data_xor($d, 'xmm8', "[$in + " . 16 * $j . ']')
            . vop('aesenclast', "xmm$j", "xmm$j", $d)
            . mov('u', "[$out + " . 16 * $j . ']', "xmm$j");
    }
    return $s;
}

# tail_store(n, tag): xmm0..n-1 hold rounds 1..Nr-1 of n blocks and xmm8
# rk[Nr]; XOR and store the first `blocks` (1..n) of them.
sub tail_store {
    my ($n, $tag) = @_;
    my $s = '';
    $s .= vop('aesenclast', "xmm$_", "xmm$_", 'xmm8') for 0 .. $n - 1;
    for my $j (0 .. $n - 1) {
        my $o = 16 * $j;
        $s .= "    cmp        $blocks, $j\n    jbe        .L${tag}_stored\n"
            if $j > 0;
        $s .= xor_data("xmm$j", "[$in + $o]", $d) . mov('u', "[$out + $o]", "xmm$j");
    }
    $s .= ".L${tag}_stored:\n";
    return $s;
}

# tail(tag, hooks, body): encrypt the last 1..7 blocks with two, four
# or eight registers, with optional round hooks (seal hashes its pending
# batch there; the hooks fit any of the three widths); body as for
# rounds().
sub tail {
    my ($tag, $hooks, $body) = @_;
    return <<___;
    cmp        $blocks, 4
    ja         .L${tag}_8
    cmp        $blocks, 2
    ja         .L${tag}_4
@{[ counters(2) ]}
@{[ rounds(2, "${tag}_2", $hooks, $body) ]}
@{[ tail_store(2, "${tag}_2") ]}
    jmp        .L${tag}_end
.L${tag}_4:
@{[ counters(4) ]}
@{[ rounds(4, "${tag}_4", $hooks, $body) ]}
@{[ tail_store(4, "${tag}_4") ]}
    jmp        .L${tag}_end
.L${tag}_8:
@{[ counters(8) ]}
@{[ rounds(8, "${tag}_8", $hooks, $body) ]}
@{[ tail_store(8, "${tag}_8") ]}
.L${tag}_end:
___
}

# The entry after the driver's (key pointers and Nr): Y and the counter
# base.
sub entry {
    return mov('u', $y, '[r9]')
         . vop('pshufb', $y, $y, '[.Lbswap_mask]', '# Y, reflected')
         . mov('u', 'xmm8', '[r8]')
         . vop('pshufb', 'xmm8', 'xmm8', '[.Lctr_swap]', '# counter bytes swapped')
         . mov('a', '[rsp]', 'xmm8') . <<___;
    mov        edi, eax
    shl        edi, 4
    lea        $rklast, [$aes + rdi]        # address of rk[Nr]
___
}

# oneshot(tag, body): what seal_oneshot and open_oneshot (fused.h, struct
# fused_oneshot at r9) do after the entry, before the blocks, in either
# body: the AES of the two counter blocks m->ctr into m->ks, and
# Y = (Y ^ m->aad) * H (the AAD block, one multiply and one reduction) as
# round hooks, the stages in rounds 1..3 the way group_hooks places a
# group's. The chains are independent of each other and of the batches
# after them, so the core runs them beside the first batch's rounds. The two blocks need no
# counter swap: they are AES of the given blocks, nothing is added to
# them.
sub oneshot {
    my ($tag, $body) = @_;
    my %hooks = (
        1 => mov('u', $d, "[r9 + $OS_AAD]")
           . vop('pshufb', $d, $d, '[.Lbswap_mask]')
           . vop('pxor', $d, $d, $y)
           . mul_acc(1, $d, "[$gkey]", "[$gkey + $HALVES]"),
        2 => fixup(),
        3 => reduce());
    return mov('u', 'xmm0', "[r9 + $OS_CTR]")
         . mov('u', 'xmm1', "[r9 + " . ($OS_CTR + 16) . "]")
         . mov('u', 'xmm8', "[$aes]")
         . vop('pxor', 'xmm0', 'xmm0', 'xmm8')
         . vop('pxor', 'xmm1', 'xmm1', 'xmm8')
         . rounds(2, "${tag}_masks", \%hooks, $body)
         . vop('aesenclast', 'xmm0', 'xmm0', 'xmm8')
         . vop('aesenclast', 'xmm1', 'xmm1', 'xmm8')
         . mov('u', "[r9 + $OS_KS]", 'xmm0')
         . mov('u', "[r9 + " . ($OS_KS + 16) . "]", 'xmm1');
}

# oneshot_end(tag): what seal_oneshot and open_oneshot do after the
# blocks, before the exit: the partial block's key stream K (m->ks[1],
# from oneshot) gives the hashed block T = m->tail ^ (K & m->hmask) and
# the output m->ks[1] = K ^ m->tail; then Y takes T and the length block
# as one aggregated run (H^2, H^1, one reduction), or the length block
# alone when m->end is 1.
sub oneshot_end {
    my ($tag) = @_;
    my ($k, $tl, $t, $l) = map { "xmm$_" } 0 .. 3;
    return mov('u', $k, "[r9 + " . ($OS_KS + 16) . "]")
         . mov('u', $tl, "[r9 + $OS_TAIL]")
         . mov('u', $t, "[r9 + $OS_HMASK]")
         . vop('pand', $t, $t, $k)
         . vop('pxor', $k, $k, $tl, '# the partial block\'s output')
         . mov('u', "[r9 + " . ($OS_KS + 16) . "]", $k)
         . vop('pxor', $t, $t, $tl, '# T: the ciphertext\'s partial block')
         . mov('u', $l, "[r9 + $OS_LENGTHS]")
         . vop('pshufb', $l, $l, '[.Lbswap_mask]') . <<___
    mov        rbx, [r9 + $OS_END]           # public: 1 or 2, from the message's length alone
    cmp        rbx, 1
    je         .L${tag}_lengths
@{[ vop('pshufb', $d, $t, '[.Lbswap_mask]')
  . vop('pxor', $d, $d, $y)
  . mul_acc(1, $d, "[$gkey + 16]", "[$gkey + " . ($HALVES + 16) . "]")
  . mul_acc(0, $l, "[$gkey]", "[$gkey + $HALVES]") ]}
    jmp        .L${tag}_reduce
.L${tag}_lengths:
@{[ vop('pxor', $l, $l, $y)
  . mul_acc(1, $l, "[$gkey]", "[$gkey + $HALVES]") ]}
.L${tag}_reduce:
@{[ fixup() . reduce() ]}
___
}

# The exit: Y back to Xi, the counter slot and every vector register
# wiped (one zero idiom per register), and in VEX the upper halves clean.
sub exit_wipe {
    my $s = vop('pshufb', $y, $y, '[.Lbswap_mask]')
          . mov('u', '[r9]', $y)
          . zero('xmm0')
          . mov('a', '[rsp]', 'xmm0', '# wipe the counter slot');
    $s .= zero("xmm$_") for 0 .. 15;
    $s .= "    vzeroupper\n" if $VEX;
    return $s;
}

# The round hooks that hash eight blocks at `src` during rounds 1..9.
sub group_hooks {
    my ($src) = @_;
    my %hooks = map { ($_ => ghash_block($_ - 1, $src)) } 1 .. 8;
    $hooks{8} .= fixup();
    $hooks{9} = reduce();
    return \%hooks;
}

# with_aes256_body(nr, aes256, fn): the function fn with two bodies after
# its entry: nr's (AES-128 and AES-192) and, after one test of the round
# count per call, aes256's (its labels suffixed _aes256); each body ends in
# its own exit. A test of the round count in every batch instead (the
# first form of AES-256's batches, in the one-shot functions only) made
# the streams' calls of two batches 7-10% slower on Zen 1 for whichever
# key size took the branch, in seal, seal_lagged and open. With one test
# per call the streams get AES-256's batches too (3% faster on Zen 1 from
# 1 KiB calls; docs/performance.md), and every function is built the same
# way, at the cost of a second copy of each (the avx kernel's text 42 ->
# 74 KB; a call runs one copy).
sub with_aes256_body {
    my ($nr, $aes256, $fn) = @_;
    my $f = perlasm::siv_copy::extract($nr, $fn, $fn, '');
    my $g = perlasm::siv_copy::extract($aes256, $fn, $fn, '_aes256');
    my $entry = entry();
    my ($fi, $gi) = (index($f, $entry), index($g, $entry));
    die "with_aes256_body: $fn has no entry\n" if $fi < 0 || $gi < 0;
    $fi += length $entry;
    $gi += length $entry;
    $g = substr($g, $gi);
    $g =~ s/^\.endfunction\n\z//m or die "with_aes256_body: $fn has no end\n";
    my $end = rindex($f, ".endfunction\n");
    return substr($f, 0, $fi)
         . "    cmp        eax, 14\n    je         .L${fn}_aes256\n"
         . substr($f, $fi, $end - $fi)
         . "    jmp        .L${fn}_return\n.L${fn}_aes256:\n$g.L${fn}_return:\n.endfunction\n";
}

# kernel(encoding, name): the whole kernel's text for encoding 'avx' or
# 'sse': constants, seal, seal_lagged, open and the one-shot pair (the
# driver's, each with two bodies), and the AES-GCM-SIV open made from
# seal (perlasm/siv_copy.pm: every shuffle with .Lbswap_mask becomes a
# move or nothing, so the blocks are hashed as they are, POLYVAL on the
# POLYVAL key, and .Lctr_swap becomes .Lctr_swap_le, which moves the
# little-endian counter from dword 0 to dword 3, where the counter base
# steps it, and back).
sub kernel {
    my ($encoding, $name) = @_;
    die "aes_gcm_aesni_xmm: encoding avx or sse, not $encoding\n"
        unless $encoding =~ /^(avx|sse)$/;
    $VEX = $encoding eq 'avx';
    my $code = <<___;
.rodata
.align 16
.Lbswap_mask:                   # reverses the 16 bytes
    .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
.Lctr_swap:                     # reverses bytes 12..15
    .byte 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 14, 13, 12
.Lctr_swap_le:                  # exchanges dwords 0 and 3 (AES-GCM-SIV)
    .byte 12, 13, 14, 15, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3
.Lpoly:                         # x^-1 mod P, reflected; high qword 0xC2 << 56
    .quad 0x0000000000000001, 0xc200000000000000
.Linc:                          # +k in the swapped counter dword at 16*k, k = 0 .. 8
___
    $code .= "    .long 0, 0, 0, $_\n" for 0 .. 8;

    # seal, seal_lagged and open on eight-block batches, and seal_oneshot
    # and open_oneshot, each with two bodies (with_aes256_body below).
    my @kernel = (
        { name => $name, batch => 8, vec => 'xmm', frame => 16, sse => !$VEX,
          entry => entry(), exit => exit_wipe() },
        counters => \&counters, last => last8(), group_hooks => \&group_hooks,
        ghash_run => \&ghash_run);
    my %text;
    for my $body ('nr', 'aes256') {
        $text{$body} = perlasm::fused_driver_x86_64::memory_kernel(@kernel,
            rounds  => sub { my ($n, $tag, $hooks) = @_; rounds($n, $tag, $hooks, $body) },
            tail    => sub { my ($tag, $hooks) = @_; tail($tag, $hooks, $body) },
            oneshot => sub { my ($tag) = @_; oneshot($tag, $body) },
            oneshot_end => \&oneshot_end);
    }
    $code .= "\n.text";
    $code .= "\n" . with_aes256_body($text{nr}, $text{aes256}, "${name}_$_")
        for qw(seal seal_lagged open seal_oneshot open_oneshot);

    $code .= perlasm::siv_copy::polyval_form($code, "${name}_seal", "${name}_siv_open",
                                             qr/\[\.Lbswap_mask\]/,
                                             $VEX ? 'vmovdqa' : 'movdqa');
    return $code;
}

1;
