#!/usr/bin/env perl
# asm/x86/ghash-ssse3-x86.pl: constant-time GHASH with SSSE3 (PSHUFB) for
# 32-bit x86, the kernel behind the "ssse3" descriptor in
# crypto/ghash/ghash_ssse3.c. For CPUs without PCLMULQDQ.
#
# Usage: perl ghash-ssse3-x86.pl FLAVOUR [OUTPUT]  (see asm/perlasm, x86.pm).
#
# Algorithm
# =========
# The same as asm/x86_64/ghash-ssse3-x86_64.pl, whose opening comment
# derives it: Shoup's 4-bit tables of multiples of G = H * x^-8 (and of
# H^2 * x^-8), stored transposed by the C init so that one PSHUFB with the
# secret nibbles as indices reads sixteen table entries from a register;
# row by row (Horner over the 16 byte positions, PALIGNR/PSLLDQ by one
# byte) the products of two blocks, (Y ^ X1) H^2 and X2 H, are summed into
# one 256-bit accumulator; one reduction per pair folds the part of degree
# >= 128 back with x^128 = x^7 + x^2 + x + 1 (shifts on 64-bit lanes).
#
# POLYVAL (gcmi_ghash_x86_ssse3_polyval, ghash.h's polyval_update) is the
# same without the byte reversals, hashing a call of at most
# SSSE3_SINGLE_MAX blocks one block at a time with the H tables alone, as
# on x86_64 (whose comment says why).
#
# What differs on 32-bit x86 is the register file: eight xmm registers
# instead of the eleven the x86_64 kernel keeps live. The byte-reversal
# mask and the 0x0f nibble mask become memory operands (aligned constants,
# L1 loads), and during the multiplication the running hash register
# (xmm0), dead once Y has been folded into the first block, serves as the
# second look-up temporary.
#
# The key layout (struct ghash_key, written by the C init) is the x86_64
# kernel's, so one descriptor file serves both; the instruction sequences
# (nibble split, table look-ups, Horner rows, reduction, the blocks loop)
# come from perlasm/ghash_ssse3_common.pm with this file's register names.
#
# Register plan (cdecl; perlasm/x86.pm loads the arguments in the order
# edi, esi, edx, ecx; constants through the pic= register)
# =====================================================================
#   gcmi_ghash_x86_ssse3_blocks(Xi = edi, key = esi, in = edx, blocks = ecx)
#   gcmi_ghash_x86_ssse3_polyval(the same)
#     xmm0          Y, the running hash, reflected; during a product the
#                   second look-up temporary
#     xmm1 xmm2     ACC: alo (degree >= 128 part), ahi
#     xmm3 xmm4     HI, LO nibbles of Y ^ X1 (pair) or Y ^ X (single)
#     xmm5 xmm6     HI, LO nibbles of X2 (pair)
#     xmm7          first look-up temporary; reduction temporaries xmm3-7
#     ebx           pic
# No stack frame: any caller alignment works (cdecl promises 4 bytes).
#
# Secrets and constant time
# =========================
# Secret: H (the tables), Y and the data. They only flow through PSHUFB (as
# the table register and as indices: PSHUFB's timing does not depend on
# either operand), PXOR/PAND, byte shifts and bit shifts by constant counts,
# PALIGNR with a constant immediate. Table rows are loaded from addresses
# that depend only on the key pointer and the row number, a constant of the
# unrolled code. Branches depend only on the block count; the
# secret-register check in perlasm verifies that no other register reaches
# an address or a branch.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::ghash_ssse3_common;

my %r = (
    Xi => 'edi', key => 'esi', in => 'edx', blocks => 'ecx',
    Y => 'xmm0', alo => 'xmm1', ahi => 'xmm2',
    hi1 => 'xmm3', lo1 => 'xmm4', hi2 => 'xmm5', lo2 => 'xmm6',
    t0 => 'xmm7', t1 => 'xmm0',         # t1 is Y's register: Y is dead during a product
    m0f => '[.Llow_nibbles]', bswap => '[.Lbswap_mask]',
);

my $code = perlasm::ghash_ssse3_common::rodata();
for my $f ([ 'blocks', 'ssse3', 0 ], [ 'polyval', 'ssse3_pv', 1 ]) {
    my ($name, $p, $polyval) = @$f;
    my $what = $polyval ? 'POLYVAL (ghash.h polyval_update)' : 'GHASH';
    $code .= <<___;

.text
.function gcmi_ghash_x86_ssse3_$name args=4 pic=ebx public=edi,esi,edx,ecx,ebx   # (uint8_t Xi[16], const struct ghash_key *key, const uint8_t *in, size_t blocks): $what
    test      $r{blocks}, $r{blocks}
    jz        .L${p}_return
___
    $code .= perlasm::ghash_ssse3_common::blocks(\%r, prefix => $p,
        polyval => $polyval);
    $code .= <<___;
@{[ join '', map { "    pxor      xmm$_, xmm$_\n" } 0 .. 7 ]}
.L${p}_return:
.endfunction
___
}

perlasm::driver::finish('x86', $code);
