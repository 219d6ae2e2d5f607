#!/usr/bin/env perl
# asm/x86/aes-vpaes-x86.pl: constant-time AES with SSSE3 vector permutes for
# 32-bit x86, the kernel behind the "vpaes" descriptor in
# crypto/aes/aes_vpaes.c.
#
# Usage: perl aes-vpaes-x86.pl FLAVOUR [OUTPUT]  (see asm/perlasm, x86.pm).
#
# Algorithm
# =========
# The same as asm/x86_64/aes-vpaes-x86_64.pl, whose opening comment derives
# it (Hamburg, "Accelerating AES with Vector Permute Instructions", CHES
# 2009): the state lives in a GF(16) tower basis, SubBytes is a GF(16)
# inversion made of 4-bit PSHUFB look-ups (c/k, 1/i, 1/j, 1/iak, 1/jak) and
# two output tables per needed linear function, MixColumns is
# D = 2A ^ R_1 A, D ^ R_1 D ^ R_3 A with byte-rotation masks conjugated by
# the ShiftRows power the round is in (ShiftRows itself is never executed;
# round keys are stored pre-permuted), and the last round maps back to the
# ordinary basis and applies SR^(Nr mod 4). The tables, the masks and their
# self-checks (all 256 S-box inputs, FIPS 197 appendix C) come from
# perlasm/vpaes_tables.pm, shared with the x86_64 kernel.
#
# The key expansion follows FIPS 197 5.2 one 32-bit word at a time in
# general registers, with SubWord done by the same vector S-box on the low
# dword of xmm0; a second pass converts round keys 1..Nr to the stored form.
#
# What differs on 32-bit x86 is the register file: eight xmm registers and
# seven general-purpose ones.
#   - One block (encrypt_block, the key schedule, ctr32's odd last block)
#     takes the five-register form with the three constants (0x0f, 1/n,
#     c/n) in xmm5-xmm7.
#   - ctr32 interleaves TWO blocks of four registers each (xmm0-3, xmm4-7),
#     with the constants as memory operands and c/k and j of each block's
#     inversion waiting in stack slots: two independent dependency chains
#     keep more of the vector ports busy than one (a round's chain is about
#     twelve operations deep).
#   - The permutation masks are reached as [.Lmasks + offset] through the
#     pic= register; the key schedule keeps Nk and its word count in frame
#     slots.
# The counter block sits in a stack slot with bytes 12..15 reversed, so that
# PADDD increments its 32-bit counter modulo 2^32 without carrying into byte
# 11; PSHUFB restores the byte order of each block. Input is read before
# output is written, so in == out works. Frames are realigned to 16 bytes by
# the translator, so the caller's 4-byte alignment is enough.
#
# Schedule layout: identical to the x86_64 kernel's (one descriptor file
# serves both):
#     bytes[0]          K_0, ordinary basis, unpermuted
#     bytes[16*r]       SR^-r(phi(K_r ^ 0x63)), r = 1 .. Nr-1 (tower basis)
#     bytes[16*Nr]      SR^-Nr(K_Nr ^ 0x63), ordinary basis
#     rounds            Nr, the unsigned at offset 1920.
#
# Register plan (cdecl; perlasm/x86.pm loads the arguments in the order
# edi, esi, edx, ecx, ebx)
# =====================================================================
#   aes_x86_vpaes_set_encrypt_key(s = edi, key = esi, key_len = edx)
#     ecx word index i, eax i mod Nk, esi the key and then the Rcon index,
#     edx temporaries, ebx the word being made (key material: the one
#     general-purpose register not declared public; the epilogue restores
#     the caller's ebx over it), [esp] Nk, [esp + 4] 4 * (Nr + 1); pass 2:
#     eax the round key's address, ecx the count, edx the mask offset;
#     xmm0-4 the S-box, xmm5-7 constants; pic ebp
#   aes_x86_vpaes_encrypt_block(s = edi, in = esi, out = edx)
#     xmm0 the state, xmm1-4 temporaries, xmm5-7 constants; eax 16 * round,
#     ecx 64 * (round mod 4), ebp 16 * Nr; pic ebx
#   aes_x86_vpaes_ctr32(s = edi, in = esi, out = edx, blocks = ecx,
#                       ctr = ebx)
#     blocks in xmm0-3 and xmm4-7 (one block: as encrypt_block); frame
#     slots [esp + 32n], [esp + 32n + 16] block n's spills, [esp + 64] the
#     counter block, [esp + 80] 16 * Nr; eax 16 * round, ebx (after the
#     counter is read) 64 * (round mod 4); pic ebp
# Every function clears the xmm registers and stack slots that held key
# material, state or key stream before it returns.
#
# Secrets and constant time
# =========================
# Secret: the key, the round keys, the data, the state and the key stream.
# They flow only through PXOR/PAND/PSRLD/PADDD, MOVD, ROR/XOR in general
# registers (ebx), and PSHUFB, where a secret is either the table held in a
# register or the index register: the look-up happens inside the register
# file, not at a memory address. Secrets are stored only to the schedule,
# the output and the function's own stack slots, at fixed offsets. Memory
# addresses come only from the caller's pointers, the block count, the key
# length and the round number; branches only from the block count, the key
# length and loop counters. The loads of public values that the check
# cannot see are public (Nr, Nk and the word count in frame slots, Rcon)
# are annotated and listed by `perl aes-vpaes-x86.pl ct-report`.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::vpaes_tables;

# Offset of `rounds` in struct aes_schedule (asserted in aes_vpaes.c).
my $ROUNDS = 1920;

# The register holding 64 * (round mod 4), the offset of the round's masks;
# set per function before its code is generated.
my $MREG;

my $code = perlasm::vpaes_tables::rodata();

# Code fragments for one block. A block is a hash:
#   r     its registers; r->[0] holds the state
#   wide  1: five registers, the constants in xmm5-7 (single blocks);
#         0: four registers and two 16-byte stack slots `spill`, the
#            constants read from memory (the two-block loop, where all
#            eight registers hold blocks)
# The multi-block paths interleave the blocks' streams line by line.

sub consts {
    my ($blk) = @_;
    return $blk->{wide} ? ('xmm5', 'xmm6', 'xmm7')
                        : ('[.Lnib]', '[.Linv]', '[.Lcdiv]');
}

# phi of a byte vector (ordinary basis in, tower basis out), in r0.
sub to_tower {
    my ($blk) = @_;
    my ($a, $b, $c) = @{ $blk->{r} };
    my ($nib) = consts($blk);
    return (
        "movdqa  $b, $a",
        "psrld   $b, 4",
        "pand    $a, $nib",
        "pand    $b, $nib",
        "movdqa  $c, [.Lin_lo]",
        "pshufb  $c, $a",
        "movdqa  $a, [.Lin_hi]",
        "pshufb  $a, $b",
        "pxor    $a, $c",
    );
}

# The GF(16) inversion of the state in r0. Returns the lines and the
# registers left holding io and jo.
sub inversion {
    my ($blk) = @_;
    my ($nib, $inv, $cdiv) = consts($blk);
    my @split = (
        "psrld   REG_B, 4",
        "pand    REG_A, $nib               # k",
        "pand    REG_B, $nib               # i",
    );
    if ($blk->{wide}) {
        my ($a, $b, $c, $d, $e) = @{ $blk->{r} };
        my @l = ("movdqa  $b, $a", @split,
            "movdqa  $c, $cdiv",
            "pshufb  $c, $a                  # c/k",
            "pxor    $a, $b                  # j = i ^ k",
            "movdqa  $d, $inv",
            "pshufb  $d, $b                  # 1/i",
            "pxor    $d, $c                  # iak = 1/i + c/k",
            "movdqa  $e, $inv",
            "pshufb  $e, $a                  # 1/j",
            "pxor    $c, $e                  # jak = 1/j + c/k",
            "movdqa  $e, $inv",
            "pshufb  $e, $d                  # 1/iak",
            "pxor    $e, $a                  # io = 1/iak + j",
            "movdqa  $d, $inv",
            "pshufb  $d, $c                  # 1/jak",
            "pxor    $d, $b                  # jo = 1/jak + i",
        );
        s/REG_A/$a/, s/REG_B/$b/ for @l;
        return (\@l, $e, $d);
    }
    # Four registers: c/k and j wait in the block's stack slots.
    my ($a, $b, $c, $d) = @{ $blk->{r} };
    my ($sk, $sj) = @{ $blk->{spill} };
    my @l = ("movdqa  $b, $a", @split,
        "movdqa  $c, $cdiv",
        "pshufb  $c, $a                  # c/k",
        "pxor    $a, $b                  # j = i ^ k",
        "movdqa  $d, $inv",
        "pshufb  $d, $b                  # 1/i",
        "movdqa  $sk, $c",
        "pxor    $d, $c                  # iak = 1/i + c/k",
        "movdqa  $c, $inv",
        "pshufb  $c, $a                  # 1/j",
        "movdqa  $sj, $a",
        "pxor    $c, $sk                 # jak = 1/j + c/k",
        "movdqa  $a, $inv",
        "pshufb  $a, $d                  # 1/iak",
        "pxor    $a, $sj                 # io = 1/iak + j",
        "movdqa  $d, $inv",
        "pshufb  $d, $c                  # 1/jak",
        "pxor    $d, $b                  # jo = 1/jak + i",
    );
    s/REG_A/$a/, s/REG_B/$b/ for @l;
    return (\@l, $a, $d);
}

# A middle round: SubBytes, MixColumns in frame m (masks at .Lmasks +
# $MREG), round key [edi + eax]. The state ends in r0 again.
sub middle_round {
    my ($blk) = @_;
    my ($inv, $io, $jo) = inversion($blk);
    my ($a) = @{ $blk->{r} };
    # Two registers besides io and jo; with four, one of them is io's.
    my ($x, $y) = grep { $_ ne $io && $_ ne $jo } @{ $blk->{r} }[ 1 .. $#{ $blk->{r} } ];
    my @l = (@$inv,
        "movdqa  $x, [.Ls1u]",
        "pshufb  $x, $io",
        "movdqa  $y, [.Ls1v]",
        "pshufb  $y, $jo",
        "pxor    $x, $y                  # A = S-box output (no 0x63)",
        "movdqa  $y, [.Ls2u]",
        "pshufb  $y, $io",
        # io is dead: 2A goes to the state register (io's, or a free one).
        "movdqa  $a, [.Ls2v]",
        "pshufb  $a, $jo",
        "pxor    $a, $y                  # 2A",
        "movdqa  $y, $x",
        "pshufb  $y, [.Lmasks + $MREG]    # R_1 A",
        "pxor    $a, $y                  # D = 2A ^ R_1 A",
        "pshufb  $x, [.Lmasks + $MREG + 16]  # R_3 A",
        "pxor    $x, [edi + eax]",
        "pxor    $x, $a                  # D ^ R_3 A ^ key",
        "pshufb  $a, [.Lmasks + $MREG]    # R_1 D",
        "pxor    $a, $x",
    );
    return @l;
}

# The last round: S-box to the ordinary basis, key, SR^Nr; ends in r0.
sub last_round {
    my ($blk) = @_;
    my ($inv, $io, $jo) = inversion($blk);
    my ($a) = @{ $blk->{r} };
    my ($x) = grep { $_ ne $io && $_ ne $jo && $_ ne $a } @{ $blk->{r} };
    return (@$inv,
        "movdqa  $x, [.Lsou]",
        "pshufb  $x, $io",
        "movdqa  $a, [.Lsov]",
        "pshufb  $a, $jo",
        "pxor    $a, $x",
        "pxor    $a, [edi + eax]",
        "pshufb  $a, [.Lmasks + $MREG + 32]  # SR^(Nr mod 4)",
    );
}

# Interleaves the streams of several blocks.
sub zip {
    my @streams = @_;
    my $out = '';
    my $n = 0;
    $n = @$_ > $n ? @$_ : $n for @streams;
    for my $i (0 .. $n - 1) {
        for my $s (@streams) { $out .= "    $s->[$i]\n" if $i < @$s }
    }
    return $out;
}

# The rounds for the given blocks; each state holds input ^ K_0 in the
# ordinary basis and ends as the cipher output. Needs edi, `nr` (a register
# or the frame slot holding 16 * Nr) and the pic register; uses eax, $MREG.
my $core_id = 0;
sub encrypt_core {
    my ($nr, @blocks) = @_;
    my $id = $core_id++;
    my $cmp = $nr =~ /\[/ ? "    cmp     eax, dword $nr   # public: 16 * Nr, stored by this function\n"
                          : "    cmp     eax, $nr\n";
    my $s = zip(map { [ to_tower($_) ] } @blocks);
    $s .= <<___;
    mov     eax, 16
    mov     $MREG, 64
.Lrounds_$id:
___
    $s .= zip(map { [ middle_round($_) ] } @blocks);
    $s .= <<___;
    add     eax, 16
    add     $MREG, 64
    and     $MREG, 255
$cmp    jb      .Lrounds_$id
___
    $s .= zip(map { [ last_round($_) ] } @blocks);
    return $s;
}

my $ONE = { wide => 1, r => [ map { "xmm$_" } 0 .. 4 ] };
my @TWO = map {
    my $n = $_;
    { wide => 0, r => [ map { 'xmm' . (4 * $n + $_) } 0 .. 3 ],
      spill => [ '[esp + ' . 32 * $n . ']', '[esp + ' . (32 * $n + 16) . ']' ] }
} 0 .. 1;
my $CTR_SLOT = '[esp + 64]';
my $NR_SLOT = '[esp + 80]';

sub load_constants {
    return <<___;
    movdqa  xmm5, [.Lnib]
    movdqa  xmm6, [.Linv]
    movdqa  xmm7, [.Lcdiv]
___
}

sub clear { return join '', map { "    pxor    $_, $_\n" } @_ }

# The S-box for SubWord: ordinary basis in and out, on xmm0 (xmm1-4 used).
my ($sw_inv, $sw_io, $sw_jo) = inversion($ONE);
my $subword = zip([ to_tower($ONE), @$sw_inv ]) . <<___;
    movdqa  xmm0, [.Lsou]
    pshufb  xmm0, $sw_io
    movdqa  xmm1, [.Lsov]
    pshufb  xmm1, $sw_jo
    pxor    xmm0, xmm1
___

my $to_tower_key = zip([ to_tower($ONE) ]);

$code .= <<___;

.text
.function aes_x86_vpaes_set_encrypt_key args=3 frame=16 pic=ebp public=edi,esi,edx,ecx,eax,ebp   # (struct aes_schedule *s, const uint8_t *key, size_t key_len)
@{[ load_constants() ]}
    mov     eax, edx
    shr     eax, 2                  # Nk = 4, 6 or 8
    mov     [esp], eax
    lea     ecx, [eax + 6]          # Nr
    mov     [edi + $ROUNDS], ecx
    lea     ecx, [4*ecx + 4]        # words to make: 4 * (Nr + 1)
    mov     [esp + 4], ecx
    xor     ecx, ecx
.Lks_copy:                          # w[0 .. Nk-1] = key
    mov     ebx, [esi + 4*ecx]
    mov     [edi + 4*ecx], ebx
    inc     ecx
    cmp     ecx, eax
    jb      .Lks_copy
    xor     esi, esi                # Rcon index
    xor     eax, eax                # i mod Nk
.Lks_word:                          # w[i], i = ecx
    mov     ebx, [edi + 4*ecx - 4]  # temp = w[i-1]
    test    eax, eax
    jz      .Lks_sub
    cmp     eax, 4
    jne     .Lks_xor
    cmp     dword [esp], 8          # public: Nk, stored by this function
    jne     .Lks_xor
.Lks_sub:                           # SubWord (when i mod Nk = 0, or 4 for AES-256)
    movd    xmm0, ebx
$subword
    movd    ebx, xmm0
    xor     ebx, 0x63636363
    test    eax, eax
    jnz     .Lks_xor
    ror     ebx, 8                  # RotWord after SubWord: the same thing
    movzx   edx, byte [.Lrcon + esi]   # public: Rcon, a constant of FIPS 197
    xor     ebx, edx                # Rcon
    inc     esi
.Lks_xor:
    mov     edx, ecx
    sub     edx, [esp]              # public: i - Nk, Nk stored by this function
    xor     ebx, [edi + 4*edx]      # w[i] = w[i-Nk] ^ temp
    mov     [edi + 4*ecx], ebx
    inc     eax
    cmp     eax, [esp]              # public: Nk, stored by this function
    jne     .Lks_next
    xor     eax, eax
.Lks_next:
    inc     ecx
    cmp     ecx, [esp + 4]          # public: the word count, stored by this function
    jb      .Lks_word
    # Round keys 1..Nr-1 to SR^-r(phi(K ^ 0x63)), and K_Nr to SR^-Nr(K ^ 0x63).
    mov     edx, 64                 # 64 * (r mod 4), r = 1
    lea     eax, [edi + 16]
    mov     ecx, [esp]              # public: Nk, stored by this function
    add     ecx, 5                  # Nr - 1
.Lks_store:
    movdqa  xmm0, [eax]
    pxor    xmm0, [.Lk63]
$to_tower_key
    pshufb  xmm0, [.Lmasks + edx + 48]  # SR^-r
    movdqa  [eax], xmm0
    add     eax, 16
    add     edx, 64
    and     edx, 255
    dec     ecx
    jnz     .Lks_store
    movdqa  xmm0, [eax]
    pxor    xmm0, [.Lk63]
    pshufb  xmm0, [.Lmasks + edx + 48]  # SR^-Nr
    movdqa  [eax], xmm0
@{[ clear(map { "xmm$_" } 0 .. 4) ]}
.endfunction
___

$MREG = 'ecx';
$code .= <<___;

.function aes_x86_vpaes_encrypt_block args=3 pic=ebx public=edi,esi,edx,ecx,ebx,ebp,eax   # (const struct aes_schedule *s, const uint8_t in[16], uint8_t out[16])
@{[ load_constants() ]}
    mov     ebp, [edi + $ROUNDS]   # public: the round count follows from the key length
    shl     ebp, 4                  # 16 * Nr
    movdqu  xmm0, [esi]
    pxor    xmm0, [edi]
@{[ encrypt_core('ebp', $ONE) ]}
    movdqu  [edx], xmm0
@{[ clear(map { "xmm$_" } 0 .. 4) ]}
.endfunction
___

$MREG = 'ebx';
my $make_two = <<___;
    movdqa  xmm0, $CTR_SLOT
    movdqa  xmm4, xmm0
    paddd   xmm4, [.Lone]
    movdqa  xmm1, xmm4
    paddd   xmm1, [.Lone]
    movdqa  $CTR_SLOT, xmm1
    pshufb  xmm0, [.Lctr_swap]
    pshufb  xmm4, [.Lctr_swap]
    pxor    xmm0, [edi]
    pxor    xmm4, [edi]
___

$code .= <<___;

.function aes_x86_vpaes_ctr32 args=5 frame=96 pic=ebp public=edi,esi,edx,ecx,ebx,ebp,eax   # (const struct aes_schedule *s, const uint8_t *in, uint8_t *out, size_t blocks, const uint8_t ctr[16])
    test    ecx, ecx
    jz      .Lctr_done
    movdqu  xmm0, [ebx]
    pshufb  xmm0, [.Lctr_swap]      # counter as a little-endian dword 3
    movdqa  $CTR_SLOT, xmm0
    mov     eax, [edi + $ROUNDS]   # public: the round count follows from the key length
    shl     eax, 4                  # 16 * Nr
    mov     $NR_SLOT, eax
    cmp     ecx, 1
    je      .Lctr_one
.Lctr_two:                          # two blocks at a time
$make_two
@{[ encrypt_core($NR_SLOT, @TWO) ]}
    movdqu  xmm1, [esi]
    movdqu  xmm5, [esi + 16]
    pxor    xmm0, xmm1
    pxor    xmm4, xmm5
    movdqu  [edx], xmm0
    movdqu  [edx + 16], xmm4
    add     esi, 32
    add     edx, 32
    sub     ecx, 2
    jz      .Lctr_clear
    cmp     ecx, 1
    jne     .Lctr_two
.Lctr_one:                          # a single block: the shorter path
@{[ load_constants() ]}
    movdqa  xmm0, $CTR_SLOT
    pshufb  xmm0, [.Lctr_swap]
    pxor    xmm0, [edi]
@{[ encrypt_core($NR_SLOT, $ONE) ]}
    movdqu  xmm1, [esi]
    pxor    xmm0, xmm1
    movdqu  [edx], xmm0
.Lctr_clear:
@{[ clear(map { "xmm$_" } 0 .. 7) ]}
@{[ join '', map { "    movdqa  [esp + " . 16 * $_ . "], xmm0\n" } 0 .. 4 ]}
.Lctr_done:
.endfunction
___

perlasm::driver::finish('x86', $code);
