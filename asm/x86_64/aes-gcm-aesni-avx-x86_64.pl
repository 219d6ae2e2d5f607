#!/usr/bin/env perl
# asm/x86_64/aes-gcm-aesni-avx-x86_64.pl: fused AES-CTR + GHASH with AES-NI
# and PCLMULQDQ in the VEX (AVX) encoding on xmm registers, the kernel
# behind the "aesni_avx" descriptor in crypto/fused/fused_aesni_avx.c. It
# meets the contract of crypto/fused/fused.h for the pair (aesni, clmul):
# the CPUs with AES-NI, PCLMULQDQ and AVX but no VAES/VPCLMULQDQ (Sandy
# Bridge to Broadwell, Zen 1 and 2), and any CPU where those are hidden.
#
# Usage: perl aes-gcm-aesni-avx-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# The instructions are perlasm/aes_gcm_aesni_xmm.pm's, which writes this
# kernel and its legacy-SSE twin (aes-gcm-aesni-sse-x86_64.pl, "aesni_sse",
# for the CPUs without AVX) from one text; this file is the VEX encoding of
# it.
#
# Algorithm
# =========
# The stitched design of Gueron and Krasnov: the AES rounds of one batch of
# counter blocks and the carry-less multiplies of a batch of ciphertext run
# in one instruction stream, so the AES unit and the multiplier, which are
# separate ports, work at the same time. The VEX encoding gives
# three-operand forms (no register copies) and unaligned memory operands.
#
# AES. Eight counter blocks are in flight in eight registers: AESENC has a
# latency of 4 (Zen) to 7 (Sandy Bridge) cycles and issues one or two per
# cycle, so eight independent chains keep the unit busy. The round key of
# each round is loaded once into a register and used by the eight
# VAESENCs.
#
# Counters. As in the aesni kernel (asm/x86_64/aes-ni-x86_64.pl), the
# counter block is kept with the four bytes of its 32-bit big-endian
# counter reversed, so that the counter is a little-endian dword and VPADDD
# adds modulo 2^32 without touching bytes 0..11. The base (in the stack
# frame: no register is left for it) holds ctr + i for the next block i;
# block r of a batch is base + r, each computed by its own VPADDD from the
# base, so a wrap from 0xFFFFFFFF to 0 anywhere in a batch is exact. A
# VPSHUFB swaps the counter bytes back before rk[0] is XORed in. The last
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
# next eight counter blocks and, spread between their VAESENCs, the
# multiplies of one ciphertext block in each of rounds 1..8 and the
# reduction in round 9 (every key size has rounds 1..9). The only chain
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
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   gcmi_aes_gcm_x86_64_aesni_avx_seal / _open(k = rdi, out = rsi, in = rdx,
#                                         blocks = rcx, ctr = r8, Xi = r9)
#   gcmi_aes_gcm_x86_64_aesni_avx_seal_lagged(the same, but lag = r9): r12
#     lag->pending, rbx lag->has_pending, r9 (before the common entry)
#     lag->Xi; the rest as in seal.
#     r10 AES schedule (k->aes_key), r11 GHASH key (k->ghash_key),
#     eax Nr, r8 (after the counter is read) address of rk[Nr],
#     rbx, rdi, rbp: GHASH run data pointer, block count, power pointer.
#     xmm0-xmm7   the eight AES blocks in flight
#     xmm8        the current round key (first the counter base)
#     xmm9 xmm10 xmm11   GHASH lo, mid, hi accumulators
#     xmm12       a data block for GHASH (byte-reversed); in the last
#                 round, rk[Nr] ^ data
#     xmm13 xmm14 half-sum and product temporaries
#     xmm15       Y, the running hash, reflected
#     [rsp]       the counter base (16 bytes)
# The byte-reversal and counter-swap masks, the counter increments and the
# reduction constant are memory operands. The function wipes the counter
# slot, zeroes xmm0-xmm15 and ends with VZEROUPPER: no key stream, data,
# round key, power of H or Y is left in a vector register, and the upper
# halves of the ymm registers are clean (the ABI test checks XINUSE). The
# zeroing is one zero idiom per register (VPXOR with itself, done at
# register renaming) rather than VZEROALL, which Intel cores run as a
# microcoded sequence (a stream of 16-block calls measured slower with
# it; docs/performance.md). On win64 the translator saves and restores
# xmm6-xmm15, rbx, rbp, rdi and rsi.
#
# Secrets and constant time
# =========================
# Secret: the round keys, H and its powers, Y, the data and the key stream
# (the counter block is treated like data). They flow only through VAESENC/
# VAESENCLAST, VPCLMULQDQ (the VEX form of PCLMULQDQ on xmm), VPXOR,
# VPADDD, VPSHUFB with constant masks and VPSHUFD with a constant
# immediate, none of which has an operand-dependent timing, and through
# loads and stores at addresses made from the caller's pointers, the stack
# pointer, the block count and Nr. Branches depend on the block count, on
# Nr (the key length) and, in seal_lagged, on lag->has_pending only: all
# public. The general-purpose registers declared public below hold only
# pointers, counts, Nr and that flag.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::aes_gcm_aesni_xmm;    # the kernel, in either encoding

# seal, seal_lagged and open (perlasm/fused_driver_x86_64.pm's drivers) and
# AES-GCM-SIV's siv_open(k, out, in, blocks, ctr, S): seal's text turned
# into AES-GCM-SIV's byte order by perlasm/siv_copy.pm, which decrypts and
# folds the plaintext it writes into S (the fused hook of fused.h).
# Counter mode alone and POLYVAL alone are the aesni and clmul backends'
# ctr32le and polyval_update.
perlasm::driver::finish('x86_64',
    perlasm::aes_gcm_aesni_xmm::kernel('avx', 'gcmi_aes_gcm_x86_64_aesni_avx'));
