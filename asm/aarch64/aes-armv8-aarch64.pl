#!/usr/bin/env perl
# asm/aarch64/aes-armv8-aarch64.pl: AES with the Armv8 Cryptographic
# Extension (FEAT_AES), the kernel behind the "armv8" descriptor in
# crypto/aes/aes_armv8.c.
#
# Usage: perl aes-armv8-aarch64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# AESE v, k computes SubBytes(ShiftRows(v ^ k)) and AESMC v, v computes
# MixColumns(v) (Arm ARM, "AESE", "AESMC"); the state is the 16-byte block
# in FIPS 197 byte order (byte i of the block is byte i of the register).
# The AddRoundKey of round r is folded into the AESE of round r + 1, so
# with round keys rk[0..Nr]:
#     s = in;  s = AESMC(AESE(s, rk[r])) for r = 0 .. Nr-2;
#     s = AESE(s, rk[Nr-1]);  out = s ^ rk[Nr]
# Nr = 10, 12 or 14. Cores from the Cortex-A57/A72 on fuse an AESE with
# the AESMC that immediately follows it on the same register, so the pairs
# are always written adjacently.
#
# Key expansion (FIPS 197 section 5.2). The non-linear step,
# SubWord(RotWord(w)) ^ Rcon, uses AESE with a zero key: TBL with a constant
# index vector copies RotWord(w) (or, for AES-256's second half, w itself)
# into all four columns; ShiftRows then only permutes equal bytes, so AESE
# yields SubWord in every column; Rcon is XORed in from a table (LD1R
# broadcasts it). The linear part, w[i] = w[i-Nk] ^ w[i-1] across a
# register, is a prefix XOR: three times x ^= (x shifted up one word), with
# EXT against a zero register.
#     AES-128: one register of 4 words, 10 steps.
#     AES-192: six words per step, a register (4 words) and the low half of
#              another (2 words); each step stores 24 bytes, so the round
#              keys come out contiguous; 8 steps write 216 bytes (13 round
#              keys and 8 harmless bytes inside the schedule).
#     AES-256: two registers alternate, 7 steps; the last skips the second
#              half.
#
# Counter mode (ctr32). Eight blocks in flight: AESE+AESMC has a latency of
# 3 (A53) to 2 (A72, N1, fused) cycles and the cores issue one (A53, A72)
# or two (N1) per cycle, so one chain would leave the unit idle. The
# 32-bit big-endian counter word is kept byte-reversed in a general-purpose
# register (w11): block i of a batch takes rev(c + i) in its last word, the
# other 12 bytes come from the caller's counter block unchanged, so the
# counter wraps modulo 2^32 without carrying into byte 11. The round keys
# all live in registers for the whole call: rk[0..Nr] in v(30-Nr)..v30, so
# whatever Nr is, the last 11 rounds use v20..v30 and AES-192/256 prepend
# v18, v19 (and v16, v17). A tail of 1..7 blocks goes one block at a time
# with the same keys. in == out works: each block is read before it is
# written.
#
# Schedule layout (struct aes_schedule): bytes[16*r] is round key r (FIPS
# 197 byte order), and Nr is the unsigned at offset 240 ($ROUNDS), after
# fifteen round keys, written by set_encrypt_key (the same layout as the x86
# aesni kernels; crypto/aes/aes.h asserts the offset).
#
# Register plan (AAPCS64)
# =======================
#   gcmi_aes_aarch64_armv8_set_encrypt_key(s = x0, key = x1, key_len = x2)
#     v0 (v1)  the current round-key words; v2 SubWord(..) ^ Rcon
#     v3       Rcon / temporary; v4-v6 the TBL index vectors; v7 zero
#     w3       step counter; x9 Rcon pointer; x10 constants pointer
#   gcmi_aes_aarch64_armv8_encrypt_block(s = x0, out = x1, in = x2)
#     v0 state, v1 round key, w3 rounds
#   gcmi_aes_aarch64_armv8_ctr32(s = x0, out = x1, in = x2, blocks = x3, ctr = x4)
#     v0-v7 blocks, v8-v15 input (callee-saved: the prologue saves d8-d15),
#     v16-v30 round keys, v31 the caller's counter block,
#     w9 Nr, x10 key pointer, w11 counter (host order), w12 temporary
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# The key, the round keys, the data and the key stream are secret; they
# live only in SIMD registers and memory. The counter (w11, w12) is derived
# from the nonce, public in GCM, but is not declared public: it only feeds
# REV and INS. Every address is an argument pointer (x0-x2, x4) or the
# constants pointer (x9, x10), advanced by constants; every branch depends
# on key_len, Nr or the block count. Nr is loaded from the schedule under a
# `# public:` annotation: it follows from the key length, which is public.
# The secret-register check (perlasm/ctcheck_aarch64.pm) proves the rest
# from the public= lists.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::siv_copy;
use perlasm::layout;    # $ROUNDS and the other C structure offsets
use perlasm::armv8_aes_common;


# Prefix XOR of the four words of $x (zero register v7, temporary $t).
sub prefix_xor {
    my ($x, $t) = @_;
    return <<___;
    ext     $t.16b, v7.16b, $x.16b, 12
    eor     $x.16b, $x.16b, $t.16b
    ext     $t.16b, v7.16b, $t.16b, 12
    eor     $x.16b, $x.16b, $t.16b
    ext     $t.16b, v7.16b, $t.16b, 12
    eor     $x.16b, $x.16b, $t.16b
___
}

# The AES rounds on blocks v0 .. v(n-1) with the keys in v16..v30; $tag
# makes the labels unique.
sub rounds {
    my ($n, $tag) = @_;
    my $c = <<___;
    cmp     w9, 12
    b.lt    .Lr10_$tag
    b.eq    .Lr12_$tag
___
    my $one = sub {
        my ($k) = @_;
        my $s = '';
        $s .= "    aese    v$_.16b, v$k.16b\n    aesmc   v$_.16b, v$_.16b\n" for 0 .. $n - 1;
        return $s;
    };
    $c .= $one->($_) for 16, 17;
    $c .= ".Lr12_$tag:\n";
    $c .= $one->($_) for 18, 19;
    $c .= ".Lr10_$tag:\n";
    $c .= $one->($_) for 20 .. 28;
    $c .= "    aese    v$_.16b, v29.16b\n" for 0 .. $n - 1;
    $c .= "    eor     v$_.16b, v$_.16b, v30.16b\n" for 0 .. $n - 1;
    return $c;
}

# counters(n): perlasm/armv8_aes_common.pm.
*counters = \&perlasm::armv8_aes_common::counters;

my $code = <<___;
.rodata
.align 16
# TBL indices: RotWord of word 3 in every column; RotWord of word 1 in
# every column (AES-192); word 3 unrotated in every column (AES-256).
.Laes_armv8_masks:
.byte 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12
.byte 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4
.byte 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15
.Laes_armv8_rcon:
.long 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36

.text
.function gcmi_aes_aarch64_armv8_set_encrypt_key args=3 public=x0,x1,x2,x3,x9,x10
    lsr     w3, w2, 2
    add     w3, w3, 6              # Nr = key_len / 4 + 6
    str     w3, [x0, $ROUNDS]
    adrl    x9, .Laes_armv8_rcon
    adrl    x10, .Laes_armv8_masks
    ld1     {v4.16b-v6.16b}, [x10]
    movi    v7.16b, 0
    cmp     x2, 24
    b.eq    .Lkey192
    b.hi    .Lkey256

    ld1     {v0.16b}, [x1]
    st1     {v0.16b}, [x0], 16
    mov     w3, 10
.Lkey128_loop:
    tbl     v2.16b, {v0.16b}, v4.16b
    aese    v2.16b, v7.16b
    ld1r    {v3.4s}, [x9], 4
    eor     v2.16b, v2.16b, v3.16b
@{[prefix_xor('v0', 'v3')]}
    eor     v0.16b, v0.16b, v2.16b
    st1     {v0.16b}, [x0], 16
    subs    w3, w3, 1
    b.ne    .Lkey128_loop
    b       .Lkey_done

.Lkey192:
    ld1     {v0.16b}, [x1], 16
    ld1     {v1.8b}, [x1]
    st1     {v0.16b}, [x0], 16
    st1     {v1.8b}, [x0], 8
    mov     w3, 8
.Lkey192_loop:
    tbl     v2.16b, {v1.16b}, v5.16b
    aese    v2.16b, v7.16b
    ld1r    {v3.4s}, [x9], 4
    eor     v2.16b, v2.16b, v3.16b
@{[prefix_xor('v0', 'v3')]}
    eor     v0.16b, v0.16b, v2.16b
    # w4, w5: lane 0 ^= w3', lane 1 ^= lane 0 ^ w3'.
    dup     v2.4s, v0.s[3]
    ext     v3.16b, v7.16b, v1.16b, 12
    eor     v1.16b, v1.16b, v3.16b
    eor     v1.16b, v1.16b, v2.16b
    st1     {v0.16b}, [x0], 16
    st1     {v1.8b}, [x0], 8
    subs    w3, w3, 1
    b.ne    .Lkey192_loop
    b       .Lkey_done

.Lkey256:
    ld1     {v0.16b, v1.16b}, [x1]
    st1     {v0.16b, v1.16b}, [x0], 32
    mov     w3, 7
.Lkey256_loop:
    tbl     v2.16b, {v1.16b}, v4.16b
    aese    v2.16b, v7.16b
    ld1r    {v3.4s}, [x9], 4
    eor     v2.16b, v2.16b, v3.16b
@{[prefix_xor('v0', 'v3')]}
    eor     v0.16b, v0.16b, v2.16b
    st1     {v0.16b}, [x0], 16
    subs    w3, w3, 1
    b.eq    .Lkey_done
    tbl     v2.16b, {v0.16b}, v6.16b
    aese    v2.16b, v7.16b
@{[prefix_xor('v1', 'v3')]}
    eor     v1.16b, v1.16b, v2.16b
    st1     {v1.16b}, [x0], 16
    b       .Lkey256_loop
.Lkey_done:
.endfunction

.function gcmi_aes_aarch64_armv8_encrypt_block args=3 public=x0,x2,x1,x3
    ldr     w3, [x0, $ROUNDS]      # public: Nr follows from the key length
    ld1     {v0.16b}, [x2]
    ld1     {v1.16b}, [x0], 16
    sub     w3, w3, 1
.Lblock_loop:
    aese    v0.16b, v1.16b
    aesmc   v0.16b, v0.16b
    ld1     {v1.16b}, [x0], 16
    subs    w3, w3, 1
    b.ne    .Lblock_loop
    aese    v0.16b, v1.16b
    ld1     {v1.16b}, [x0]
    eor     v0.16b, v0.16b, v1.16b
    st1     {v0.16b}, [x1]
.endfunction

.function gcmi_aes_aarch64_armv8_ctr32 args=5 public=x0,x2,x1,x3,x4,x9,x10
    cbz     x3, .Lctr_done
    ldr     w9, [x0, $ROUNDS]      # public: Nr follows from the key length
    mov     x10, x0
    # rk[0..Nr] into v(30-Nr) .. v30.
    cmp     w9, 12
    b.lt    .Lctr_keys10
    b.eq    .Lctr_keys12
    ld1     {v16.16b, v17.16b}, [x10], 32
.Lctr_keys12:
    ld1     {v18.16b, v19.16b}, [x10], 32
.Lctr_keys10:
    ld1     {v20.16b-v23.16b}, [x10], 64
    ld1     {v24.16b-v27.16b}, [x10], 64
    ld1     {v28.16b-v30.16b}, [x10]
    ld1     {v31.16b}, [x4]
    ldr     w11, [x4, 12]
    rev     w11, w11

.Lctr_loop8:
    cmp     x3, 8
    b.lo    .Lctr_tail
@{[counters(8)]}
@{[rounds(8, 'ctr8')]}
    ld1     {v8.16b-v11.16b}, [x2], 64
    ld1     {v12.16b-v15.16b}, [x2], 64
@{[join '', map { "    eor     v$_.16b, v$_.16b, v@{[8 + $_]}.16b\n" } 0 .. 7]}
    st1     {v0.16b-v3.16b}, [x1], 64
    st1     {v4.16b-v7.16b}, [x1], 64
    sub     x3, x3, 8
    b       .Lctr_loop8

.Lctr_tail:
    cbz     x3, .Lctr_done
@{[counters(1)]}
@{[rounds(1, 'ctr1')]}
    ld1     {v8.16b}, [x2], 16
    eor     v0.16b, v0.16b, v8.16b
    st1     {v0.16b}, [x1], 16
    sub     x3, x3, 1
    b       .Lctr_tail
.Lctr_done:
.endfunction
___

# ctr32le, AES-GCM-SIV's counter mode (RFC 8452: a little-endian 32-bit
# counter in bytes 0..3): ctr32 with the counter loaded from bytes 0..3,
# not byte-reversed, and inserted as word 0 (perlasm/siv_copy.pm).
$code .= perlasm::siv_copy::a64_ctr32le($code, 'gcmi_aes_aarch64_armv8_ctr32',
                                        'gcmi_aes_aarch64_armv8_ctr32le');

perlasm::driver::finish('aarch64', $code);
