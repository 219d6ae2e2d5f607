#!/usr/bin/env perl
# asm/x86/aes-ni-x86.pl: AES with the AES-NI instructions for 32-bit x86,
# the kernel behind the "aesni" descriptor in crypto/aes/aes_aesni.c.
#
# Usage: perl aes-ni-x86.pl FLAVOUR [OUTPUT]  (see asm/perlasm, x86.pm).
#
# Algorithm
# =========
# The algorithm and the schedule layout are asm/x86_64/aes-ni-x86_64.pl's
# (its opening comment explains them), so one descriptor file serves both
# (crypto/aes/aes_aesni.c). The constants, the key expansion, the single
# block and the counter-mode pieces come from perlasm/aesni_common.pm with
# this file's register names. This file differs in:
#   - the register file: eight xmm registers. The counter loop keeps SIX
#     blocks in flight (xmm0-xmm5), enough to cover AESENC's latency of 3-4
#     cycles at a throughput of one or two per cycle; the base counter
#     lives in xmm7 and each round key passes through xmm6. The byte-swap
#     mask, the increments, rk[0] and rk[Nr] are memory operands (L1 loads,
#     which the load ports absorb beside the AES unit's work);
#   - the tail: n = 1..5 blocks compute two (n <= 2) or five key-stream
#     blocks with the same code and store only the n that exist, reading
#     no input past them;
#   - cdecl: arguments come from the stack (below), constants are reached
#     through a pic register.
#
# Register plan (cdecl; perlasm/x86.pm loads the arguments in the order
# edi, esi, edx, ecx, ebx; constants through the pic= register)
# =======================================================================
#   gcmi_aes_x86_aesni_set_encrypt_key(s = edi, key = esi, key_len = edx)
#     pic ebx; xmm1 current round-key words (AES-256: first half), xmm3
#     AES-256 second half / AES-192 w4,w5, xmm2 SubWord(RotWord(..)) ^ Rcon,
#     xmm4 prefix-XOR temporary, xmm0 zero (AES-256), xmm5 broadcast mask
#   gcmi_aes_x86_aesni_encrypt_block(s = edi, out = esi, in = edx)
#     xmm0 the state, eax Nr
#   gcmi_aes_x86_aesni_ctr32(s = edi, out = esi, in = edx, blocks = ecx,
#                       ctr = ebx)
#     xmm0-xmm5 the six blocks in flight, xmm6 rk[r] or data ^ rk[Nr],
#     xmm7 base counter block (counter bytes swapped); eax 16 * Nr (rk[Nr]
#     is [edi + eax]); pic ebp
# No function needs a stack frame, so the caller's stack alignment (4
# bytes is all cdecl promises) does not matter. Every function clears the
# xmm registers that held key material or key stream before it returns.
#
# Secrets and constant time
# =========================
# Secret: the key and round keys, the data and the key stream (the counter
# block is treated like data). They only flow through AESENC/AESENCLAST,
# PXOR, PADDD, PSHUFB with constant masks, PSLLDQ and PSHUFD with constant
# immediates, and loads and stores at addresses made from the caller's
# pointers, the block count and Nr. AES-NI instructions take the same time
# whatever their operands: there are no table lookups. Branches depend only
# on the key length (public), Nr (a function of it) and the block count;
# the secret-register check in perlasm verifies that no other register
# reaches an address or a branch.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::layout;    # $ROUNDS and the other C structure offsets
use perlasm::aesni_common;
use perlasm::siv_copy;

my $code = perlasm::aesni_common::rodata(7);

# Key expansion -----------------------------------------------------------------

$code .= <<___;

.text
.function gcmi_aes_x86_aesni_set_encrypt_key args=3 pic=ebx public=edi,esi,edx,ebx   # (struct aes_schedule *s, const uint8_t *key, size_t key_len)
@{[ perlasm::aesni_common::set_encrypt_key('edi', 'esi', 'edx', $ROUNDS) ]}.endfunction
___

# Single block ---------------------------------------------------------------------

$code .= <<___;

.function gcmi_aes_x86_aesni_encrypt_block args=3 public=edi,esi,edx,eax   # (const struct aes_schedule *s, uint8_t out[16], const uint8_t in[16])
@{[ perlasm::aesni_common::encrypt_block('edi', 'esi', 'edx', 'eax', $ROUNDS) ]}.endfunction
___

# Counter mode -------------------------------------------------------------------------

my ($key, $out, $in, $blocks, $ctr) = qw(edi esi edx ecx ebx);
my $N = 6;    # blocks in flight
# The mask, rk[0] and rk[Nr] are memory operands; round keys and data pass
# through xmm6.
my %r = (X => [map { "xmm$_" } 0 .. 5], key => $key, in => $in, out => $out,
         blocks => $blocks, base => 'xmm7', swap => '[.Lctr_swap]',
         rk0 => "[$key]", rk => 'xmm6', data => 'xmm6',
         rklast => "[$key + eax]");
# The tail loads rk[Nr] into xmm6 once for all its blocks.
my %tail = (%r, rklast => 'xmm6', load_rklast => "    movdqa     xmm6, [$key + eax]\n");
my $counters = sub { perlasm::aesni_common::counters(\%r, @_) };
my $rounds = sub { perlasm::aesni_common::rounds(\%r, @_) };
my $tail_store = sub { perlasm::aesni_common::tail_store(\%tail, @_) };

$code .= <<___;

.function gcmi_aes_x86_aesni_ctr32 args=5 pic=ebp public=edi,esi,edx,ecx,ebx,ebp,eax   # (const struct aes_schedule *s, uint8_t *out, const uint8_t *in, size_t blocks, const uint8_t ctr[16])
    test       $blocks, $blocks
    jz         .Lctr_return
    mov        eax, [$key + $ROUNDS]   # public: the round count follows from the key length
    shl        eax, 4                   # 16 * Nr; rk[Nr] is [key + eax]
    movdqu     xmm7, [$ctr]
    pshufb     xmm7, [.Lctr_swap]       # counter as a little-endian dword 3
    cmp        $blocks, $N
    jb         .Lctr_tail
.Lctr_loop:
@{[ $counters->($N) ]}
    paddd      xmm7, [.Linc + @{[ 16 * $N ]}]
@{[ $rounds->($N, 'loop') ]}
@{[ perlasm::aesni_common::last_rounds(\%r, $N) ]}
    add        $in, @{[ 16 * $N ]}
    add        $out, @{[ 16 * $N ]}
    sub        $blocks, $N
    cmp        $blocks, $N
    jae        .Lctr_loop
    test       $blocks, $blocks
    jz         .Lctr_done
.Lctr_tail:
    cmp        $blocks, 2
    ja         .Lctr_tail5
@{[ $counters->(2) ]}
@{[ $rounds->(2, 'tail2') ]}
@{[ $tail_store->(1, 2) ]}
    jmp        .Lctr_done
.Lctr_tail5:
@{[ $counters->(5) ]}
@{[ $rounds->(5, 'tail5') ]}
@{[ $tail_store->(3, 5) ]}
.Lctr_done:
@{[ join '', map { "    pxor       xmm$_, xmm$_\n" } 0 .. 7 ]}
.Lctr_return:
.endfunction
___

# ctr32le, AES-GCM-SIV's counter mode: the same function with the mask
# that exchanges dwords 0 and 3 (perlasm/siv_copy.pm).
$code .= perlasm::siv_copy::ctr32le($code, 'gcmi_aes_x86_aesni_ctr32');

perlasm::driver::finish('x86', $code);
