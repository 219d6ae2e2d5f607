#!/usr/bin/env perl
# asm/x86_64/aes-gcm-aesni-sse-x86_64.pl: fused AES-CTR + GHASH with AES-NI
# and PCLMULQDQ in the legacy SSE encoding on xmm registers, the kernel
# behind the "aesni_sse" descriptor in crypto/fused/fused_aesni_sse.c. It
# meets the contract of crypto/fused/fused.h for the pair (aesni, clmul)
# on the CPUs that have AES-NI and PCLMULQDQ but no AVX: Westmere, and the
# Atom-class cores (Silvermont, Goldmont, Tremont). Where AVX exists the
# VEX twin (aes-gcm-aesni-avx-x86_64.pl, "aesni_avx") is listed first.
#
# Usage: perl aes-gcm-aesni-sse-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Both kernels are written once, by perlasm/aes_gcm_aesni_xmm.pm, in
# three-operand form; this file is its legacy SSE encoding (SSE2, SSSE3's
# PSHUFB, AES-NI and PCLMULQDQ only: no VEX prefix, no AVX state).
#
# Algorithm
# =========
# The stitched design of Gueron and Krasnov: the AES rounds of one batch of
# counter blocks and the carry-less multiplies of a batch of ciphertext run
# in one instruction stream, so the AES unit and the multiplier, which are
# separate ports, work at the same time. Without it such a CPU runs counter
# mode and then GHASH over the same data, each unit idle half the time.
#
# AES. Eight counter blocks are in flight in eight registers (AESENC's
# latency is 4 to 6 cycles on these cores, so eight independent chains keep
# the unit busy). The round key of each round is loaded once into a
# register and used by the eight AESENCs.
#
# Counters. The counter block is kept with the four bytes of its 32-bit
# big-endian counter reversed, so that the counter is a little-endian dword
# and PADDD adds modulo 2^32 without touching bytes 0..11. The base (in the
# stack frame) holds ctr + i for the next block i; block r of a batch is
# base + r, each computed by its own PADDD from the base, so a wrap from
# 0xFFFFFFFF to 0 anywhere in a batch is exact. A PSHUFB swaps the counter
# bytes back before rk[0] is XORed in. The last round folds the data in:
# AESENCLAST(s, rk[Nr] ^ in) = AESENCLAST(s, rk[Nr]) ^ in, because the
# last AddRoundKey is an XOR.
#
# GHASH. The field arithmetic and the key are the clmul GHASH kernel's
# (asm/x86_64/ghash-clmul-x86_64.pl explains them): blocks byte-reversed
# into the reflected form, Karatsuba PCLMULQDQ products with the powers
# H'^1..H'^8 that the clmul key already holds (entry i at byte 16*(i-1),
# its Karatsuba half sum at 128 + 16*(i-1)), lo/mid/hi accumulated
# unreduced over a group, one Montgomery reduction with the constant
# 0xC2<<56 per group. A group of eight blocks X1..X8 gives
#     Y' = (Y ^ X1)*H^8 ^ X2*H^7 ^ ... ^ X8*H
# so the kernel needs nothing beyond the clmul key (no init of its own).
#
# Stitching. Each iteration of the main loop runs the rounds of the next
# eight counter blocks and, spread between their AESENCs, the multiplies of
# one ciphertext block in each of rounds 1..8 and the reduction in round 9
# (every key size has rounds 1..9). The only chain across iterations is Y.
# The drivers (seal; seal_lagged on whole batches with the hash one batch
# behind; open) are perlasm/fused_driver_x86_64.pm's memory_kernel: seal
# hashes the previous iteration's eight output blocks, re-read from out;
# seal_lagged's first batch hashes lag->pending; open hashes its own eight
# input blocks, all read before any output of the iteration is written
# (in == out works). Tail (1..7 blocks): the key stream of two, four or
# eight blocks, only the existing blocks read and written, hashed as one
# aggregated run with H^n .. H^1 and one reduction (open: before
# decrypting them).
#
# Two operands. Each VEX form dst = a OP b of the AVX kernel becomes OP
# dst, b when dst is a and MOVDQA dst, a first otherwise; the pieces write
# their results over operands that are dead (the reduction's products over
# the limbs they consume, a block's last product over the block), so the
# copies are only those of the counter blocks (one per block, from the
# base) and of the first block of a group. Legacy SSE memory operands must
# be 16-byte aligned, so the only memory operands of vector instructions
# are the constants, the stack frame and the clmul key's powers (16-byte
# aligned in every key, crypto/gcm/key.c); the data, the counter block, Xi
# and lag->pending are loaded with MOVDQU (the data into xmm12, XORed into
# rk[Nr] or into the key stream), and the round keys with MOVDQU into xmm8.
# The copies need no register beyond the AVX kernel's plan.
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   gcmi_aes_gcm_x86_64_aesni_sse_seal / _open(k = rdi, out = rsi, in = rdx,
#                                         blocks = rcx, ctr = r8, Xi = r9)
#   gcmi_aes_gcm_x86_64_aesni_sse_seal_lagged(the same, but lag = r9): r12
#     lag->pending, rbx lag->has_pending, r9 (before the common entry)
#     lag->Xi; the rest as in seal.
#     r10 AES schedule (k->aes_key), r11 GHASH key (k->ghash_key),
#     eax Nr, r8 (after the counter is read) address of rk[Nr],
#     rbx, rdi, rbp: GHASH run data pointer, block count, power pointer.
#     xmm0-xmm7   the eight AES blocks in flight
#     xmm8        the current round key (first the counter base)
#     xmm9 xmm10 xmm11   GHASH lo, mid, hi accumulators
#     xmm12       a data block: for GHASH (byte-reversed), or in the last
#                 round rk[Nr] ^ data, or data XORed into a tail's key stream
#     xmm13 xmm14 half-sum and product temporaries
#     xmm15       Y, the running hash, reflected
#     [rsp]       the counter base (16 bytes)
# The byte-reversal and counter-swap masks, the counter increments and the
# reduction constant are memory operands. The function wipes the counter
# slot and zeroes xmm0-xmm15 (one PXOR zero idiom each): no key stream,
# data, round key, power of H or Y is left in a vector register. No VEX
# instruction runs, so no VZEROUPPER is needed (and none is emitted: on a
# CPU without AVX it would fault). On win64 the translator saves and
# restores xmm6-xmm15, rbx, rbp, rdi and rsi.
#
# Secrets and constant time
# =========================
# Secret: the round keys, H and its powers, Y, the data and the key stream
# (the counter block is treated like data). They flow only through AESENC/
# AESENCLAST, PCLMULQDQ, PXOR, PADDD, MOVDQA/MOVDQU, PSHUFB with constant
# masks and PSHUFD with a constant immediate, none of which has an
# operand-dependent timing, and through loads and stores at addresses made
# from the caller's pointers, the stack pointer, the block count and Nr.
# Branches depend on the block count, on Nr (the key length) and, in
# seal_lagged, on lag->has_pending only: all public. The general-purpose
# registers declared public hold only pointers, counts, Nr and that flag
# (the translator's secret-register check, perlasm/ctcheck_x86.pm, proves
# it for every function).
#
# AES-GCM-SIV (fused.h's siv_open): seal's text in RFC 8452's byte order
# (perlasm/siv_copy.pm: each in-place PSHUFB with the byte-reversal mask
# dropped, .Lctr_swap made .Lctr_swap_le), decrypting and hashing the
# plaintext in one pass.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::aes_gcm_aesni_xmm;    # the kernel, in either encoding

perlasm::driver::finish('x86_64',
    perlasm::aes_gcm_aesni_xmm::kernel('sse', 'gcmi_aes_gcm_x86_64_aesni_sse'));
