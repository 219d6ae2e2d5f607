#!/usr/bin/env perl
# asm/aarch64/aes-vpaes-neon-aarch64.pl: constant-time AES with NEON
# vector permutes (TBL), for aarch64 cores without the AES instructions:
# the kernel behind the "vpaes_neon" descriptor in crypto/aes/aes_vpaes_neon.c.
#
# Usage: perl aes-vpaes-neon-aarch64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# Hamburg, "Accelerating AES with Vector Permute Instructions" (CHES 2009),
# exactly as the x86 vpaes kernels do it (asm/x86_64/aes-vpaes-x86_64.pl
# explains the maths at length): the state lives in a GF(16)-tower basis of
# GF(2^8); the S-box inversion is five 16-entry lookups indexed by the
# state's nibbles (c/k, 1/i, 1/j, 1/iak, 1/jak) and two per output table
# pair; MixColumns is D ^ R_1 D ^ R_3 A with D = 2A ^ R_1 A, three byte
# permutations; ShiftRows is never executed but folded into the stored
# round keys and into the per-round masks (four frames, round mod 4); the
# S-box constant 0x63 lives in the round keys. The tables and masks are the
# ones perlasm/vpaes_tables.pm derives from the field arithmetic and checks
# against FIPS 197 (shared with the x86 kernels); the schedule layout is
# the same as theirs.
#
# What changes on NEON. TBL vd.16b, {vt.16b}, vi.16b is the lookup: byte n
# of vd is byte vi[n] of vt, or 0 when vi[n] >= 16. PSHUFB gives 0 only
# when bit 7 of the index is set and otherwise uses its low four bits, so
# the two agree exactly when every index is below 16 or at least 0x80;
# this generator checks that for every index the kernel looks up, over all
# 256 S-box inputs, before it writes anything (the tables' "infinity" is
# 0x80, and XORs of nibbles with 0x8n stay in those two ranges). USHR on
# .16b lanes gives the high nibble without a mask, and the three-operand
# forms need no register copies. With 32 registers the eleven tables and
# the round's key and masks stay in registers, and four blocks of five
# registers each run side by side in counter mode: one block's chain of
# dependent lookups per round is about fourteen instructions deep at 2-3
# cycles each (TBL latency), so four chains are what it takes to keep two
# ASIMD pipes busy on the Cortex-A72, and what hides the latency on the
# in-order Cortex-A53.
#
# Key expansion (FIPS 197 5.2) one 32-bit word at a time in general
# registers; SubWord runs the vector S-box on lane 0 of v0 (phi by two
# lookups, the inversion, output tables for L, then 0x63). A second pass
# converts round keys 1..Nr to the stored form SR^-r(phi(K_r ^ 0x63))
# (SR^-Nr(K_Nr ^ 0x63) for the last).
#
# Counter mode (ctr32): runs of four blocks; a tail of three takes the
# four-block code and stores three, two take a two-block version of the
# same code, one the single-block path. The 32-bit big-endian counter is
# kept in host order in w11; block i takes rev(w11 + i) in its last word
# and bytes 0..11 of the caller's counter block, so it wraps modulo 2^32
# without carrying into byte 11. Each block's input is read before its
# output is written, so in == out works.
#
# Schedule layout (struct aes_schedule)
# =====================================
#     bytes[0]          K_0, ordinary basis, unpermuted
#     bytes[16*r]       SR^-r(phi(K_r ^ 0x63)), r = 1 .. Nr-1 (tower basis)
#     bytes[16*Nr]      SR^-Nr(K_Nr ^ 0x63), ordinary basis
#     rounds            Nr, the 32-bit word at offset 240 ($ROUNDS), written
#                       by set_encrypt_key (crypto/aes/aes.h asserts the
#                       offset)
#
# Register plan (AAPCS64)
# =======================
#   Constants: v20 0x0f bytes, v21 1/n, v22 c/n, v23 S1U, v24 S1V, v25 S2U,
#   v26 S2V (middle-round output tables), v27 the round key (0x63 bytes in
#   the key set-up), v28 R_1 (SR^m in the last round), v29 R_3, v30/v31
#   phi's two tables at the start of the rounds, the last round's output
#   tables SOU/SOV at the end, the caller's counter block in between.
#   Blocks: block n in v(5n) .. v(5n+4), state in v(5n); n = 0..3 (v8-v15
#   are callee-saved: the prologue saves d8-d15 where they are used).
#   x9 round-key pointer, w10 round counter, x13 64 * (round mod 4), x14
#   the round's masks, x15 the masks, x7 16 * Nr / Nr.
#   gcmi_aes_aarch64_vpaes_neon_set_encrypt_key(s = x0, key = x1, key_len = x2)
#     x3 Nk, x4 Nr, x5 words to make, x6 word index i, x8 i mod Nk, x7 the
#     Rcon pointer; w12 the word being made, w14 Rcon / w[i-Nk] (key
#     material: not declared public).
#   gcmi_aes_aarch64_vpaes_neon_encrypt_block(s = x0, out = x1, in = x2)
#   gcmi_aes_aarch64_vpaes_neon_ctr32(s = x0, out = x1, in = x2, blocks = x3,
#                                ctr = x4): w11 counter, w12 temporary.
# Every function clears the vector registers that held key material,
# state or key stream before it returns.
#
# Secrets and constant time
# =========================
# Secret: the key, the round keys, the data, the state and the key stream.
# They flow only through EOR/AND/USHR, INS/UMOV and ROR/EOR in general
# registers that are not declared public, and TBL, where a secret is either
# the table register or the index register: the lookup happens inside the
# register file, never at a memory address. Secrets are stored only to the
# schedule and the output. Memory addresses come from the caller's
# pointers, the key length, the block count and the round number; branches
# from the key length, the block count and loop counters (the secret-
# register check proves this from the public= lists; Nr is loaded under a
# `# public:` annotation, as it follows from the key length, and Rcon is a
# constant of FIPS 197 read through a public pointer into a secret-class
# register). TBL has no data-dependent timing on any Arm core.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::layout;    # $ROUNDS and the other C structure offsets
use perlasm::vpaes_tables;


my $rodata = perlasm::vpaes_tables::rodata();

# Check that TBL's rule (0 for an index >= 16) and PSHUFB's (0 for bit 7,
# else the low nibble) agree on every index this kernel looks up.
{
    my %t;
    my $cur;
    for (split /\n/, $rodata) {
        $cur = $1 if /^(\.L\w+):/;
        push @{ $t{$cur} }, map { hex } /0x([0-9a-f]{2})/g if defined $cur && /^\s*\.byte/;
    }
    my $look = sub {
        my ($name, $ix) = @_;
        die "vpaes_neon: index $ix into $name: TBL and PSHUFB differ\n"
            if $ix >= 16 && $ix < 0x80;
        return $ix >= 16 ? 0 : $t{$name}[$ix];
    };
    for my $x (0 .. 255) {
        my $y = $look->('.Lin_lo', $x & 15) ^ $look->('.Lin_hi', $x >> 4);
        my ($i, $k) = ($y >> 4, $y & 15);
        my $j = $i ^ $k;
        my $ck = $look->('.Lcdiv', $k);
        my $iak = $look->('.Linv', $i) ^ $ck;
        my $jak = $look->('.Linv', $j) ^ $ck;
        my $io = $look->('.Linv', $iak) ^ $j;
        my $jo = $look->('.Linv', $jak) ^ $i;
        $look->($_, $io) for qw(.Ls1u .Ls2u .Lsou);
        $look->($_, $jo) for qw(.Ls1v .Ls2v .Lsov);
    }
}

# Register names.
my ($NIB, $INV, $CDIV, $S1U, $S1V, $S2U, $S2V, $RK, $R1, $R3, $T0, $T1) =
    map { "v$_" } 20 .. 31;
sub blk { my ($n) = @_; return [ map { 'v' . (5 * $n + $_) } 0 .. 4 ] }

# Interleaves the line lists of several blocks.
sub zip {
    my @s = @_;
    my ($out, $n) = ('', 0);
    $n = @$_ > $n ? @$_ : $n for @s;
    for my $i (0 .. $n - 1) {
        for my $l (@s) { $out .= "    $l->[$i]\n" if $i < @$l }
    }
    return $out;
}

# phi: ordinary basis to the tower (tables in $T0, $T1).
sub to_tower {
    my ($a, $b) = @{ $_[0] };
    return ("ushr    $b.16b, $a.16b, 4",
            "and     $a.16b, $a.16b, $NIB.16b",
            "tbl     $a.16b, {$T0.16b}, $a.16b",
            "tbl     $b.16b, {$T1.16b}, $b.16b",
            "eor     $a.16b, $a.16b, $b.16b");
}

# The GF(16) inversion of the state in a: io ends in e, jo in d.
sub inversion {
    my ($a, $b, $c, $d, $e) = @{ $_[0] };
    return ("ushr    $b.16b, $a.16b, 4           # i",
            "and     $a.16b, $a.16b, $NIB.16b    # k",
            "tbl     $c.16b, {$CDIV.16b}, $a.16b # c/k",
            "eor     $a.16b, $a.16b, $b.16b      # j = i ^ k",
            "tbl     $d.16b, {$INV.16b}, $b.16b  # 1/i",
            "eor     $d.16b, $d.16b, $c.16b      # iak = 1/i + c/k",
            "tbl     $e.16b, {$INV.16b}, $a.16b  # 1/j",
            "eor     $c.16b, $c.16b, $e.16b      # jak = 1/j + c/k",
            "tbl     $e.16b, {$INV.16b}, $d.16b  # 1/iak",
            "eor     $e.16b, $e.16b, $a.16b      # io = 1/iak + j",
            "tbl     $d.16b, {$INV.16b}, $c.16b  # 1/jak",
            "eor     $d.16b, $d.16b, $b.16b      # jo = 1/jak + i");
}

# A middle round: SubBytes, MixColumns in the round's frame, round key.
sub middle_round {
    my ($a, $b, $c, $d, $e) = @{ $_[0] };
    return (inversion($_[0]),
            "tbl     $b.16b, {$S1U.16b}, $e.16b",
            "tbl     $c.16b, {$S1V.16b}, $d.16b",
            "eor     $b.16b, $b.16b, $c.16b      # A",
            "tbl     $c.16b, {$S2U.16b}, $e.16b",
            "tbl     $a.16b, {$S2V.16b}, $d.16b",
            "eor     $a.16b, $a.16b, $c.16b      # 2A",
            "tbl     $c.16b, {$b.16b}, $R1.16b   # R_1 A",
            "eor     $a.16b, $a.16b, $c.16b      # D = 2A ^ R_1 A",
            "tbl     $b.16b, {$b.16b}, $R3.16b   # R_3 A",
            "eor     $b.16b, $b.16b, $RK.16b",
            "eor     $b.16b, $b.16b, $a.16b      # D ^ R_3 A ^ key",
            "tbl     $a.16b, {$a.16b}, $R1.16b   # R_1 D",
            "eor     $a.16b, $a.16b, $b.16b");
}

# The last round: output tables SOU/SOV ($T0, $T1), key, SR^(Nr mod 4) ($R1).
sub last_round {
    my ($a, $b, $c, $d, $e) = @{ $_[0] };
    return (inversion($_[0]),
            "tbl     $b.16b, {$T0.16b}, $e.16b",
            "tbl     $a.16b, {$T1.16b}, $d.16b",
            "eor     $a.16b, $a.16b, $b.16b",
            "eor     $a.16b, $a.16b, $RK.16b",
            "tbl     $a.16b, {$a.16b}, $R1.16b   # SR^(Nr mod 4)");
}

# The constant registers of the rounds (v20-v26).
my $load_consts = <<___;
    adrl    x15, .Lnib
    ld1     {$NIB.16b, $INV.16b, $CDIV.16b}, [x15]
    adrl    x15, .Ls1u
    ld1     {$S1U.16b-$S2V.16b}, [x15]
___

# encrypt_core(blocks): the states (input ^ K_0, ordinary basis) become
# the cipher outputs. The schedule is at x0, w7 = Nr.
my $core_id = 0;
sub encrypt_core {
    my @b = @_;
    my $id = $core_id++;
    my $s = "    adrl    x15, .Lin_lo\n    ld1     {$T0.16b, $T1.16b}, [x15]\n";
    $s .= zip(map { [ to_tower($_) ] } @b);
    $s .= <<___;
    add     x9, x0, 16
    sub     w10, w7, 1
    mov     x13, 64
    adrl    x15, .Lmasks
.Lrounds_$id:
    ld1     {$RK.16b}, [x9], 16
    add     x14, x15, x13
    ld1     {$R1.16b, $R3.16b}, [x14]
___
    $s .= zip(map { [ middle_round($_) ] } @b);
    $s .= <<___;
    add     x13, x13, 64
    and     x13, x13, 255
    subs    w10, w10, 1
    b.ne    .Lrounds_$id
    ld1     {$RK.16b}, [x9]
    add     x14, x15, x13
    ldr     q28, [x14, 32]
    adrl    x14, .Lsou
    ld1     {$T0.16b, $T1.16b}, [x14]
___
    $s .= zip(map { [ last_round($_) ] } @b);
    return $s;
}

sub clear { return join '', map { "    movi    $_.16b, 0\n" } @_ }
my $clear_all = clear(map { "v$_" } 0 .. 31);

# SubWord on lane 0 of v0 (v0-v4), ordinary basis in and out, 0x63 added
# (v27 holds 0x63 bytes during the key set-up).
my $subword = "    adrl    x15, .Lin_lo\n    ld1     {$T0.16b, $T1.16b}, [x15]\n"
    . zip([ to_tower(blk(0)), inversion(blk(0)) ])
    . <<___;
    adrl    x15, .Lsou
    ld1     {$T0.16b, $T1.16b}, [x15]
    tbl     v1.16b, {$T0.16b}, v4.16b
    tbl     v0.16b, {$T1.16b}, v3.16b
    eor     v0.16b, v0.16b, v1.16b
    eor     v0.16b, v0.16b, v27.16b
___

# Counter blocks into the states of blocks 0..n-1 (template in $T0), then
# w11 += n; each XORed with K_0 ($RK).
sub counters {
    my ($n) = @_;
    my $c = "    ld1     {$T0.16b}, [x4]\n    ld1     {$RK.16b}, [x0]\n";
    for my $i (0 .. $n - 1) {
        my $v = blk($i)->[0];
        $c .= $i ? "    add     w12, w11, $i\n" : "    mov     w12, w11\n";
        $c .= "    rev     w12, w12\n    mov     $v.16b, $T0.16b\n    mov     $v.s[3], w12\n";
        $c .= "    eor     $v.16b, $v.16b, $RK.16b\n";
    }
    $c .= "    add     w11, w11, $n\n";
    return $c;
}

# XORs and stores the first m of the blocks' key streams.
sub xor_store {
    my ($m) = @_;
    my $c = '';
    for my $i (0 .. $m - 1) {
        my ($v, $t) = @{ blk($i) }[ 0, 1 ];
        $c .= "    ld1     {$t.16b}, [x2], 16\n    eor     $v.16b, $v.16b, $t.16b\n"
            . "    st1     {$v.16b}, [x1], 16\n";
    }
    return $c;
}

my @FOUR = map { blk($_) } 0 .. 3;

my $code = $rodata . <<___;

.text
.function gcmi_aes_aarch64_vpaes_neon_set_encrypt_key args=3 public=x0,x1,x2,x3,x4,x5,x6,x7,x8,x9,x15
$load_consts
    adrl    x15, .Lk63
    ld1     {v27.16b}, [x15]
    lsr     x3, x2, 2                       # Nk = 4, 6 or 8
    add     x4, x3, 6                       # Nr
    str     w4, [x0, $ROUNDS]
    add     x5, x4, 1
    lsl     x5, x5, 2                       # words to make: 4 (Nr + 1)
    mov     x6, 0
.Lks_copy:                                  # w[0 .. Nk-1] = key
    ldr     w12, [x1, x6, lsl 2]
    str     w12, [x0, x6, lsl 2]
    add     x6, x6, 1
    cmp     x6, x3
    b.lo    .Lks_copy
    adrl    x7, .Lrcon
    mov     x8, 0                           # i mod Nk
.Lks_word:                                  # w[i], i = x6
    sub     x9, x6, 1
    ldr     w12, [x0, x9, lsl 2]            # temp = w[i-1]
    cbz     x8, .Lks_sub
    cmp     x8, 4
    b.ne    .Lks_xor
    cmp     x3, 8
    b.ne    .Lks_xor
.Lks_sub:                                   # SubWord (i mod Nk = 0, or 4 for AES-256)
    mov     v0.s[0], w12
$subword
    mov     w12, v0.s[0]
    cbnz    x8, .Lks_xor
    ror     w12, w12, 8                     # RotWord after SubWord: the same
    ldrb    w14, [x7], 1                    # Rcon
    eor     w12, w12, w14
.Lks_xor:
    sub     x9, x6, x3
    ldr     w14, [x0, x9, lsl 2]
    eor     w12, w12, w14                   # w[i] = w[i-Nk] ^ temp
    str     w12, [x0, x6, lsl 2]
    add     x8, x8, 1
    cmp     x8, x3
    csel    x8, xzr, x8, eq
    add     x6, x6, 1
    cmp     x6, x5
    b.lo    .Lks_word
    # Round keys 1..Nr-1 to SR^-r(phi(K ^ 0x63)), K_Nr to SR^-Nr(K ^ 0x63).
    adrl    x15, .Lmasks
    mov     x6, 64                          # 64 (r mod 4), r = 1
    add     x9, x0, 16
    sub     x5, x4, 1
    adrl    x7, .Lin_lo
    ld1     {$T0.16b, $T1.16b}, [x7]
.Lks_store:
    ld1     {v0.16b}, [x9]
    eor     v0.16b, v0.16b, v27.16b
@{[ zip([ to_tower(blk(0)) ]) ]}
    add     x7, x15, x6
    ldr     q1, [x7, 48]                    # SR^-r
    tbl     v0.16b, {v0.16b}, v1.16b
    st1     {v0.16b}, [x9], 16
    add     x6, x6, 64
    and     x6, x6, 255
    subs    x5, x5, 1
    b.ne    .Lks_store
    ld1     {v0.16b}, [x9]
    eor     v0.16b, v0.16b, v27.16b
    add     x7, x15, x6
    ldr     q1, [x7, 48]                    # SR^-Nr
    tbl     v0.16b, {v0.16b}, v1.16b
    st1     {v0.16b}, [x9]
    mov     w12, wzr
    mov     w14, wzr
@{[ clear(map { "v$_" } 0 .. 4, 27, 30, 31) ]}
.endfunction

.function gcmi_aes_aarch64_vpaes_neon_encrypt_block args=3 public=x0,x1,x2,x7,x9,x10,x13,x14,x15
$load_consts
    ldr     w7, [x0, $ROUNDS]               # public: Nr follows from the key length
    ld1     {v0.16b}, [x2]
    ld1     {$RK.16b}, [x0]
    eor     v0.16b, v0.16b, $RK.16b
@{[ encrypt_core(blk(0)) ]}
    st1     {v0.16b}, [x1]
@{[ clear(map { "v$_" } 0 .. 4, 27, 30, 31) ]}
.endfunction

.function gcmi_aes_aarch64_vpaes_neon_ctr32 args=5 public=x0,x1,x2,x3,x4,x7,x9,x10,x13,x14,x15
    cbz     x3, .Lctr_done
$load_consts
    ldr     w7, [x0, $ROUNDS]               # public: Nr follows from the key length
    ldr     w11, [x4, 12]
    rev     w11, w11
    cmp     x3, 4
    b.lo    .Lctr_tail
.Lctr_four:
@{[ counters(4) ]}
@{[ encrypt_core(@FOUR) ]}
@{[ xor_store(4) ]}
    sub     x3, x3, 4
    cmp     x3, 4
    b.hs    .Lctr_four
.Lctr_tail:
    cbz     x3, .Lctr_clear
    cmp     x3, 2
    b.lo    .Lctr_one
    b.eq    .Lctr_two
@{[ counters(4) ]}
@{[ encrypt_core(@FOUR) ]}
@{[ xor_store(3) ]}
    b       .Lctr_clear
.Lctr_two:
@{[ counters(2) ]}
@{[ encrypt_core(@FOUR[0, 1]) ]}
@{[ xor_store(2) ]}
    b       .Lctr_clear
.Lctr_one:
@{[ counters(1) ]}
@{[ encrypt_core(blk(0)) ]}
@{[ xor_store(1) ]}
.Lctr_clear:
    mov     w11, wzr
    mov     w12, wzr
$clear_all
.Lctr_done:
.endfunction
___

perlasm::driver::finish('aarch64', $code);
