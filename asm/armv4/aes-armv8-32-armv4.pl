#!/usr/bin/env perl
# asm/armv4/aes-armv8-32-armv4.pl: AES with the Armv8 Cryptographic
# Extension in AArch32 (32-bit code on Cortex-A53/A72 class cores), the
# kernel behind the "armv8_32" descriptor in crypto/aes/aes_armv8_32.c.
#
# Usage: perl aes-armv8-32-armv4.pl FLAVOUR [OUTPUT]  (see asm/perlasm;
# FLAVOUR linux32 for A32 code, linux32-thumb2 for T32).
#
# Algorithm
# =========
# AESE.8 q, k computes SubBytes(ShiftRows(q ^ k)) and AESMC.8 q, q
# MixColumns(q) (Arm ARM, AArch32 "AESE", "AESMC"); the state is the
# 16-byte block in FIPS 197 byte order. The AddRoundKey of round r is folded
# into the AESE of round r + 1, so with round keys rk[0..Nr]:
#     s = in;  s = AESMC(AESE(s, rk[r])) for r = 0 .. Nr-2;
#     s = AESE(s, rk[Nr-1]);  out = s ^ rk[Nr]
# Nr = 10, 12 or 14. The AESE/AESMC pairs are written adjacently on the
# same register, which the Cortex-A57/A72 fuse.
#
# Key expansion (FIPS 197 section 5.2), as in the aarch64 kernel: the
# non-linear step SubWord(RotWord(w)) ^ Rcon is AESE against a zero key of
# a register whose four columns all hold RotWord(w) (VTBL with a constant
# index vector, one d half at a time), so ShiftRows only permutes equal
# bytes; Rcon comes from a table (VLD1 to all lanes). The linear part,
# w[i] = w[i-Nk] ^ w[i-1], is a prefix XOR across the register: three times
# x ^= x shifted up one word (VEXT against zero).
#     AES-128: one register of 4 words, 10 steps.
#     AES-192: six words per step (q0 and the low half of q1), 8 steps of
#              24 bytes: 13 round keys and 8 harmless bytes.
#     AES-256: two registers alternate, 7 steps; the last skips the second
#              half.
#
# Counter mode (ctr32). Four blocks in flight: AArch32 has 16 q registers,
# too few for eight blocks, their inputs and all round keys. The last six
# round keys rk[Nr-5..Nr] stay in q10-q15 for the whole call; the first
# Nr-5 (5, 7 or 9) are loaded one per round into q9 inside the batch, an L1
# hit whose latency the four independent AESE chains cover. The 32-bit
# big-endian counter word is kept byte-reversed in r6 (host order): block i
# takes rev(c + i) in its last word (VMOV.32 into lane 1 of its high d
# half), the other 12 bytes come from the caller's counter block unchanged
# (q8), so the counter wraps modulo 2^32 without carrying into byte 11. A
# tail of 1..3 blocks goes one block at a time. in == out works: each
# block is read before it is written.
#
# Schedule layout (struct aes_schedule): bytes[16*r] is round key r, and
# Nr is the 32-bit word at offset 240 ($ROUNDS), after fifteen round keys,
# written by set_encrypt_key (the layout of the other hardware kernels;
# crypto/aes/aes.h asserts the offset).
#
# Register plan (AAPCS: r4-r11 and d8-d15 are saved by the prologue when
# touched)
# ====================================================================
#   gcmi_aes_armv4_armv8_set_encrypt_key(s = r0, key = r1, key_len = r2)
#     q0 (q1)  the current round-key words; q2 SubWord(..) ^ Rcon
#     q3       Rcon / temporary; q8-q10 the VTBL index vectors; q11 zero
#     r3       step counter; r12 Rcon pointer
#   gcmi_aes_armv4_armv8_encrypt_block(s = r0, out = r1, in = r2)
#     q0 state, q1 round key, r3 rounds
#   gcmi_aes_armv4_armv8_ctr32(s = r0, out = r1, in = r2, blocks = r3, ctr = r4)
#     q0-q3 blocks, q4-q7 input (d8-d15: saved by the prologue), q8 the
#     caller's counter block, q9 the streamed round key, q10-q15
#     rk[Nr-5..Nr], r5 Nr - 5, r12 round-key pointer, r8 round counter,
#     r6 counter (host order), r7 temporary
#
# What is secret, and why none reaches an address or a branch
# ===========================================================
# The key, the round keys, the data and the key stream are secret; they
# live only in NEON registers and memory. The counter (r6, r7) is derived
# from the nonce, public in GCM, but is not declared public: it only feeds
# REV, ADD and VMOV into NEON. Every address is an argument pointer
# (r0-r2, r4), the key pointer r12 or the constants pointer, advanced by
# constants; every branch depends on key_len, Nr or the block count. Nr is
# loaded from the schedule under a `# public:` annotation: it follows from
# the key length, which is public. The secret-register check
# (perlasm/ctcheck_arm.pm) proves the rest from the public= lists.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::layout;    # $ROUNDS and the other C structure offsets

# Prefix XOR of the four words of $x (zero register q11, temporary $t).
sub prefix_xor {
    my ($x, $t) = @_;
    return <<___;
    vext.8  $t, q11, $x, 12
    veor    $x, $x, $t
    vext.8  $t, q11, $t, 12
    veor    $x, $x, $t
    vext.8  $t, q11, $t, 12
    veor    $x, $x, $t
___
}

# q2 = every column RotWord/SubWord source: VTBL of table {dA, dB} with the
# 16-byte index in {dI, dI+1}, then AESE against zero.
sub subword {
    my ($ta, $tb, $ilo, $ihi) = @_;
    return <<___;
    vtbl.8  d4, {$ta, $tb}, $ilo
    vtbl.8  d5, {$ta, $tb}, $ihi
    aese.8  q2, q11
___
}

# One AES round with key $k on blocks q0 .. q(n-1).
sub round {
    my ($n, $k, $last) = @_;
    my $s = '';
    for my $i (0 .. $n - 1) {
        $s .= "    aese.8  q$i, $k\n";
        $s .= "    aesmc.8 q$i, q$i\n" unless $last;
    }
    return $s;
}

# All rounds on q0 .. q(n-1): the streamed keys, then q10-q15.
sub rounds {
    my ($n, $tag) = @_;
    my $c = <<___;
    mov     r12, r0
    mov     r8, r5
.Lround_$tag:
    vld1.8  {q9}, [r12]!
@{[round($n, 'q9')]}
    subs    r8, r8, 1
    bne     .Lround_$tag
___
    $c .= round($n, "q$_") for 10 .. 13;
    $c .= round($n, 'q14', 1);
    $c .= "    veor    q$_, q$_, q15\n" for 0 .. $n - 1;
    return $c;
}

# Counter blocks q0 .. q(n-1) from r6, then r6 += n.
sub counters {
    my ($n) = @_;
    my $c = '';
    for my $i (0 .. $n - 1) {
        my $hi = 'd' . (2 * $i + 1);
        $c .= $i ? "    add     r7, r6, $i\n" : "    mov     r7, r6\n";
        $c .= "    rev     r7, r7\n    vmov    q$i, q8\n    vmov.32 ${hi}[1], r7\n";
    }
    $c .= "    add     r6, r6, $n\n";
    return $c;
}

my $code = <<___;
.arch armv8-a
.fpu crypto-neon-fp-armv8

.rodata
.align 16
# VTBL indices: RotWord of word 3 in every column; RotWord of word 1 in
# every column (AES-192); word 3 unrotated in every column (AES-256).
.Laes_armv8_32_masks:
.byte 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12
.byte 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4
.byte 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15
.Laes_armv8_32_rcon:
.long 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36

.text
.function gcmi_aes_armv4_armv8_set_encrypt_key args=3 public=r0,r1,r2,r3,r12
    lsr     r3, r2, 2
    add     r3, r3, 6              # Nr = key_len / 4 + 6
    str     r3, [r0, $ROUNDS]
    adrl    r12, .Laes_armv8_32_masks
    vld1.8  {d16-d19}, [r12]!
    vld1.8  {d20-d21}, [r12]!      # r12 now points at the Rcon table
    vmov.i8 q11, 0
    cmp     r2, 24
    beq     .Lkey192
    bhi     .Lkey256

    vld1.8  {q0}, [r1]
    vst1.8  {q0}, [r0]!
    mov     r3, 10
.Lkey128_loop:
@{[subword('d0', 'd1', 'd16', 'd17')]}
    vld1.32 {d6[], d7[]}, [r12]!
    veor    q2, q2, q3
@{[prefix_xor('q0', 'q3')]}
    veor    q0, q0, q2
    vst1.8  {q0}, [r0]!
    subs    r3, r3, 1
    bne     .Lkey128_loop
    b       .Lkey_done

.Lkey192:
    vld1.8  {q0}, [r1]!
    vld1.8  {d2}, [r1]
    vst1.8  {q0}, [r0]!
    vst1.8  {d2}, [r0]!
    mov     r3, 8
.Lkey192_loop:
@{[subword('d2', 'd3', 'd18', 'd19')]}
    vld1.32 {d6[], d7[]}, [r12]!
    veor    q2, q2, q3
@{[prefix_xor('q0', 'q3')]}
    veor    q0, q0, q2
    # w4, w5: lane 0 ^= w3', lane 1 ^= lane 0 ^ w3'.
    vdup.32 q2, d1[1]
    vext.8  q3, q11, q1, 12
    veor    q1, q1, q3
    veor    q1, q1, q2
    vst1.8  {q0}, [r0]!
    vst1.8  {d2}, [r0]!
    subs    r3, r3, 1
    bne     .Lkey192_loop
    b       .Lkey_done

.Lkey256:
    vld1.8  {d0-d3}, [r1]
    vst1.8  {d0-d3}, [r0]!
    mov     r3, 7
.Lkey256_loop:
@{[subword('d2', 'd3', 'd16', 'd17')]}
    vld1.32 {d6[], d7[]}, [r12]!
    veor    q2, q2, q3
@{[prefix_xor('q0', 'q3')]}
    veor    q0, q0, q2
    vst1.8  {q0}, [r0]!
    subs    r3, r3, 1
    beq     .Lkey_done
@{[subword('d0', 'd1', 'd20', 'd21')]}
@{[prefix_xor('q1', 'q3')]}
    veor    q1, q1, q2
    vst1.8  {q1}, [r0]!
    b       .Lkey256_loop
.Lkey_done:
.endfunction

.function gcmi_aes_armv4_armv8_encrypt_block args=3 public=r0,r1,r2,r3
    ldr     r3, [r0, $ROUNDS]      # public: Nr follows from the key length
    vld1.8  {q0}, [r2]
    vld1.8  {q1}, [r0]!
    sub     r3, r3, 1
.Lblock_loop:
    aese.8  q0, q1
    aesmc.8 q0, q0
    vld1.8  {q1}, [r0]!
    subs    r3, r3, 1
    bne     .Lblock_loop
    aese.8  q0, q1
    vld1.8  {q1}, [r0]
    veor    q0, q0, q1
    vst1.8  {q0}, [r1]
.endfunction

.function gcmi_aes_armv4_armv8_ctr32 args=5 public=r0,r1,r2,r3,r4,r5,r8,r12
    cmp     r3, 0
    beq     .Lctr_done
    ldr     r5, [r0, $ROUNDS]      # public: Nr follows from the key length
    # rk[Nr-5..Nr] into q10-q15.
    add     r12, r0, r5, lsl 4
    sub     r12, r12, 80
    vld1.8  {d20-d23}, [r12]!
    vld1.8  {d24-d27}, [r12]!
    vld1.8  {d28-d31}, [r12]
    sub     r5, r5, 5
    vld1.8  {q8}, [r4]
    ldr     r6, [r4, 12]
    rev     r6, r6

.Lctr_loop4:
    cmp     r3, 4
    blo     .Lctr_tail
@{[counters(4)]}
@{[rounds(4, 'ctr4')]}
    vld1.8  {d8-d11}, [r2]!
    vld1.8  {d12-d15}, [r2]!
    veor    q0, q0, q4
    veor    q1, q1, q5
    veor    q2, q2, q6
    veor    q3, q3, q7
    vst1.8  {d0-d3}, [r1]!
    vst1.8  {d4-d7}, [r1]!
    sub     r3, r3, 4
    b       .Lctr_loop4

.Lctr_tail:
    cmp     r3, 0
    beq     .Lctr_done
@{[counters(1)]}
@{[rounds(1, 'ctr1')]}
    vld1.8  {q4}, [r2]!
    veor    q0, q0, q4
    vst1.8  {q0}, [r1]!
    sub     r3, r3, 1
    b       .Lctr_tail
.Lctr_done:
.endfunction
___

perlasm::driver::finish('armv4', $code);
