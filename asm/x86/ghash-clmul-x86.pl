#!/usr/bin/env perl
# asm/x86/ghash-clmul-x86.pl: GHASH with PCLMULQDQ for 32-bit x86, the
# kernel behind the "clmul" descriptor in crypto/ghash/ghash_clmul.c.
#
# Usage: perl ghash-clmul-x86.pl FLAVOUR [OUTPUT]  (see asm/perlasm, x86.pm).
#
# Algorithm
# =========
# The same as asm/x86_64/ghash-clmul-x86_64.pl, whose opening comment
# derives it; in short: blocks are byte-reversed with PSHUFB into GCM's
# reflected form; a 128x128 carry-less product takes three PCLMULQDQ
# (Karatsuba: lo = a0*b0, hi = a1*b1, mid = (a0^a1)*(b0^b1) ^ lo ^ hi);
# init stores H' = H * x^-1 mod P (a shift left by one and a masked XOR of
# 0xC2000000_00000000_00000000_00000001) so that the integer product of the
# reflected values needs no shift; the 256-bit product is reduced modulo
# P = x^128 + x^7 + x^2 + x + 1 in two Montgomery-style phases, each
#     low128 = swap64(low128) ^ clmul(lowest limb, 0xC2 << 56)
# and the result is high128 ^ low128.
#
# Aggregation with eight xmm registers. The bulk loop still hashes EIGHT
# blocks per reduction,
#     Y' = (Y ^ X1)*H^8 ^ X2*H^7 ^ ... ^ X8*H,
# summing the unreduced lo, hi and mid parts: only the running hash (xmm0),
# the three accumulators (xmm1-xmm3), one block's three product
# temporaries (xmm4-xmm6) and the byte-reversal mask (xmm7) are live, and
# the powers of H are memory operands of PCLMULQDQ. (The x86_64 kernel
# alternates two temporary sets; here out-of-order renaming does that.)
# A tail of 1..7 blocks is aggregated the same way with H^n .. H^1.
#
# Key layout: identical to the x86_64 kernel's (struct ghash_key, H'^1..8
# and their Karatsuba half-sums), so one descriptor file serves both. The
# instruction sequences (constants, init, block products, reduction, the
# blocks loop) come from perlasm/ghash_clmul_common.pm with this file's
# register names.
#
# Register plan (cdecl; perlasm/x86.pm loads the arguments in the order
# edi, esi, edx, ecx; constants through the pic= register)
# =====================================================================
#   gcmi_ghash_x86_clmul_blocks(Xi = edi, key = esi, in = edx, blocks = ecx)
#     xmm0 Y (reflected), xmm1 xmm2 xmm3 lo, hi, mid accumulators,
#     xmm4-xmm6 one block's temporaries, xmm7 byte-reversal mask;
#     eax, ebp tail: byte offset and address of the highest power used;
#     pic ebx
#   gcmi_ghash_x86_clmul_init(key = edi, H = esi)
#     xmm0 current power, xmm1-xmm3 product parts, xmm4 H'^1, xmm5 its
#     Karatsuba half-sum, xmm6 reduction temporary; ecx loop count, eax
#     store address; pic ebx
# No stack frame: any caller alignment works (cdecl promises 4 bytes).
#
# Secrets and constant time
# =========================
# Secret: H and its powers (key material), Y, and the data. They only flow
# through PCLMULQDQ, PXOR/PAND/POR, PSHUFB with a constant mask,
# PSHUFD/PSLLDQ/PSRLDQ with constant immediates and shifts by constants;
# PCLMULQDQ's latency does not depend on its operands. Branches depend only
# on the block count, addresses only on the pointers and the block count
# (the tail's first power of H follows from the number of blocks left,
# which is public). The reduction of H*x^-1 at init uses a mask made by an
# arithmetic shift, not a branch. The secret-register check in perlasm
# verifies that no other register reaches an address or a branch.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::ghash_clmul_common;

my $code = perlasm::ghash_clmul_common::rodata();
my $clear = join '', map { "    pxor      xmm$_, xmm$_\n" } 0 .. 6;

# init: H' = H*x^-1, then H'^2..H'^8 and the Karatsuba half-sums.
$code .= <<___;

.text
.function gcmi_ghash_x86_clmul_init args=2 pic=ebx public=edi,esi,ecx,eax,ebx   # (struct ghash_key *key, const uint8_t H[16])
@{[ perlasm::ghash_clmul_common::init('edi', 'esi', 'eax') ]}$clear
.endfunction
___

# blocks: Xi = (...((Xi ^ X1) H ^ X2) H ...) H over `blocks` blocks. One
# set of block temporaries: eight xmm registers leave no room for two.
my @T = ('xmm4', 'xmm5', 'xmm6');
my %r = (Xi => 'edi', key => 'esi', in => 'edx', blocks => 'ecx',
         off => 'eax', ptr => 'ebp', bswap => 'xmm7', T => [\@T, \@T]);

$code .= <<___;

.function gcmi_ghash_x86_clmul_blocks args=4 pic=ebx public=edi,esi,edx,ecx,ebp,eax,ebx   # (uint8_t Xi[16], const struct ghash_key *key, const uint8_t *in, size_t blocks)
@{[ perlasm::ghash_clmul_common::blocks(\%r) ]}$clear
.endfunction
___

# polyval: the same without the byte swaps, for AES-GCM-SIV (RFC 8452);
# perlasm/ghash_clmul_common.pm's blocks() says why that is POLYVAL.
$code .= <<___;

.function gcmi_ghash_x86_clmul_polyval args=4 pic=ebx public=edi,esi,edx,ecx,ebp,eax,ebx   # (uint8_t S[16], const struct ghash_key *key, const uint8_t *in, size_t blocks)
@{[ perlasm::ghash_clmul_common::blocks({ %r, polyval => 1 }) ]}$clear
.endfunction
___

perlasm::driver::finish('x86', $code);
