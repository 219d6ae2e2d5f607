#!/usr/bin/env perl
# asm/aarch64/aes-gcm-armv8-pmull-aarch64.pl: fused AES-CTR + GHASH with the
# Armv8 Cryptographic Extension (AESE/AESMC and PMULL/PMULL2), the kernel
# behind the "armv8_pmull" descriptor in crypto/fused/fused_armv8_pmull.c.
# It meets the contract of crypto/fused/fused.h for the pair (armv8, pmull).
# perlasm/aes_gcm_armv8.pm writes it out (eor3 => 0), and with eor3 => 1
# its variant for cores with FEAT_SHA3,
# asm/aarch64/aes-gcm-armv8-pmull-eor3-aarch64.pl.
#
# Usage: perl aes-gcm-armv8-pmull-aarch64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# One loop carries the AES rounds of eight counter blocks and the GHASH of
# eight blocks, so the AES and PMULL instructions of the two streams issue
# side by side and the data is read from memory once per pass.
#
# AES. AESE folds AddRoundKey, AESMC follows on the same register (the pair
# stays adjacent so the cores that fuse it can: Cortex-A57 and later, and
# LLVM tunes the A53/A55 for it too). rk[Nr-10..Nr] live in v20..v30 for the
# whole call; the first Nr-10 round keys of AES-192/256 are read from the
# schedule into v18/v19 in each batch (loads are cheap, registers are not).
#
# Counters. The stack frame holds eight counter blocks: the caller's bytes
# 0..11 and a big-endian 32-bit counter each. A batch loads its eight
# counter blocks with LDR q (no lane inserts, no SIMD work) and stores the
# next batch's eight counter words (ADD, REV, STR in general-purpose
# registers), so a load never waits for a store just made. The counter
# (w11, host order) wraps modulo 2^32 and never carries into byte 11.
#
# GHASH. Field arithmetic and key are the pmull GHASH kernel's
# (asm/aarch64/ghash-pmull-aarch64.pl explains them): K_k = H^k * x^-1,
# products of bit-reflected values, Karatsuba with three PMULLs a block,
# lo/hi/mid summed over eight blocks and one Montgomery reduction with the
# constant c = 0xC2 << 56 per eight:
#     Y' = (Y ^ X0) H^8 ^ X1 H^7 ^ ... ^ X7 H
# One byte reversal per block: REV64 alone leaves the two halves of the
# reflected block R swapped, D = [R.hi, R.lo], and the key's copy of K_k
# with its halves swapped ([K.hi, K.lo] at 256 + 16 (k-1)) pairs them again:
# PMULL2(D, Ksw) = R.lo K.lo, PMULL(D, Ksw) = R.hi K.hi. Blocks go in
# pairs (a, b) = (2i, 2i+1), whose Karatsuba operands R.lo ^ R.hi come out
# of one TRN1, one TRN2 and one EOR as [b's, a's], multiplied (PMULL,
# PMULL2) by the key's 16 bytes of half sums of K_kb, K_ka (kb odd, ka =
# kb + 1). Y is kept reflected in v9 and XORed into block 0 with its halves
# swapped. A pair's products are summed before they join the accumulators
# (shorter chains of dependent EORs).
#
# Reduction. With lo = [L1:L0], hi = [H1:H0] and mid the Karatsuba sum
# (64-bit words), the product is w3:w2:w1:w0 = H1 : H0^M1 : L1^M0 : L0 with
# M = mid ^ lo ^ hi. Montgomery division by y^128 clears w0, then w1: with
# T = w0 c, w1 ^= T.lo and w2 ^= T.hi ^ w0; with T' = w1 c, w2 ^= T'.lo and
# w3 ^= T'.hi ^ w1; the result is w3:w2. In 128-bit operations:
#     T = PMULL(lo, c);  V = mid ^ lo ^ hi ^ T ^ swap(lo)   (V = [w2^H0 : w1])
#     T' = PMULL(V, c);  Y = hi ^ T' ^ swap(V)
# two PMULLs, two EXTs and six EORs (three EOR3 in the variant).
#
# Schedule. A batch's AESE+AESMC pairs are emitted in a fixed order (round
# by round, blocks 0..7); the GHASH, counter and input-loading
# instructions are written as a plain, correct program and placed between
# the pairs by perlasm/slot_scheduler.pm (its comment has the rules): a
# result is read at least one pair after it is made, instructions whose
# results are quick (loads, stores, general-purpose arithmetic, EOR) go in
# groups after every third pair, because the in-order Cortex-A53/A55
# complete instructions in order and a quick one after a slow one waits
# for it. Out-of-order cores do not care where they sit.
#   seal: ciphertext exists only after the rounds, so a batch hashes the
#         previous batch's eight output blocks, re-read from out. The first
#         batch is encrypted alone; the last one is hashed alone after the
#         loop.
#   open: the ciphertext is the input, so a batch hashes its own eight
#         input blocks and loads them again for the XOR; every load of a
#         batch's input comes before its stores, so in == out works.
# Tail (1..7 blocks after the batches, or a whole call of fewer than
# eight): one block at a time (counter block from stack slot 0 with its
# last word inserted); open hashes the block it read before it stores the
# plaintext, seal hashes the ciphertext it stored.
#
# Register plan (AAPCS64)
# =======================
#   gcmi_aes_gcm_aarch64_armv8_pmull_seal / _open(k = x0, out = x1, in = x2,
#                                            blocks = x3, ctr = x4, Xi = x5)
#     x6 AES schedule (k->aes_key), x7 GHASH key (k->ghash_key), x8 the
#     GHASH data of the batch, w9 Nr, x10 set-up address, then the address
#     of c; w11 counter (host order), w12 counter word being stored;
#     [sp, 0..127] the eight counter blocks.
#     v0-v7   the eight AES blocks in flight (then the output)
#     v8 v9 v10  GHASH lo, hi, mid accumulators; v9 holds Y between batches
#     v11 v12 the pair of blocks in flight (v11 then holds the pair's
#             half sums of K), v13 v14 their Karatsuba operands (then the
#             mid products), v15 v17 the swapped K_ka, K_kb (then the hi
#             products), v16 v31 the lo products (block 0's products go
#             straight into v8-v10); then the reduction's temporaries;
#             then the eight input blocks of the XOR (v11-v16, v18, v19)
#     v18 v19 rk[0..3] of AES-192/256, then inputs
#     v20-v30 rk[Nr-10..Nr]
#   v8-v15 are callee-saved (low halves): the translator's prologue saves
#   d8-d15.
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# Secret: the round keys, H and its powers, Y, the data and the key stream.
# They live only in SIMD registers and memory and pass only through
# AESE/AESMC, PMULL/PMULL2 (fixed latency on every core that has them;
# both in FEAT_DIT's list), EOR, EXT, REV64 and loads and stores at public
# addresses. The counter (from the nonce) is public in GCM; it passes
# through w11, w12 and the stack frame. Every address is an argument
# pointer (x1, x2, x4, x5), a pointer loaded from struct fused_keys (x6,
# x7: loaded under a `# public:` annotation, they are addresses, not key
# material), x8 (a copy of x1 - 128 or x2), sp, or x10, advanced by
# constants; every branch depends on the block count (x3) or on Nr (w9,
# loaded under a `# public:` annotation: it follows from the key length,
# which is public). The secret-register check (perlasm/ctcheck_aarch64.pm)
# proves the rest from the public= lists.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::aes_gcm_armv8;
use perlasm::siv_copy;

my $code = perlasm::aes_gcm_armv8::kernel(
    eor3 => 0, name => 'gcmi_aes_gcm_aarch64_armv8_pmull');
# siv_open, AES-GCM-SIV's open (RFC 8452; fused.h): seal with AES-GCM-SIV's
# counter and POLYVAL's byte order (perlasm/siv_copy.pm): it decrypts, and
# hashes the plaintext it writes.
$code .= perlasm::siv_copy::a64_siv_open($code, 'gcmi_aes_gcm_aarch64_armv8_pmull_seal',
                                         'gcmi_aes_gcm_aarch64_armv8_pmull_siv_open');
perlasm::driver::finish('aarch64', $code);
