#!/usr/bin/env perl
# asm/x86_64/aes-vpaes-x86_64.pl: constant-time AES with SSSE3 vector
# permutes, the kernel behind the "vpaes" descriptor in crypto/aes/aes_vpaes.c.
#
# Usage: perl aes-vpaes-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm
# =========
# Hamburg, "Accelerating AES with Vector Permute Instructions" (CHES 2009).
# PSHUFB is a 16-entry table lookup done inside a register: every byte of
# the index register picks a byte of the table register by its low four
# bits (or gives 0 when its bit 7 is set). AES is rewritten so that every
# non-linear step is such a lookup indexed by a 4-bit nibble.
#
# The field. GF(2^8) is rebuilt as a tower over GF(16) = GF(2)[x]/(x^4+x+1):
#     GF(2^8) = GF(16)[t] / (t^2 + t + 1/c),
# with c the first element of GF(16) whose inverse has trace 1 (which makes
# the polynomial irreducible; c = 2 = x). A byte (i << 4) | k of the state
# stands for the element  i*(c*t) + k.  phi, a GF(2)-linear bijection, maps
# the AES field (bytes modulo x^8+x^4+x^3+x+1) onto the tower: it sends x to
# a root of the AES polynomial in the tower, so it respects products too.
# Being linear on bits, phi of a byte is LO[low nibble] ^ HI[high nibble]:
# two lookups.
#
# Inversion. For y = i*(c*t) + k, with j = i ^ k, the norm is
#     N(y) = y * conj(y) = c*i^2 + c*i*k + k^2      (conj(t) = t + 1)
# and 1/y = conj(y)/N(y) = (i/N)*(c*t) + (k + c*i)/N. In GF(16) alone:
#     iak = 1/i + c/k        = (k + c*i) / (i*k)
#     jak = 1/j + c/k        = (k + c*j) / (j*k)
#     io  = 1/iak + j        = N / (k + c*i)
#     jo  = 1/jak + i        = N / ((1+c)*k + c*i)
# (expand and the numerators both collapse to N). So 1/io and 1/jo are two
# independent GF(16)-linear forms in the coordinates of 1/y, and
#     1/y = (p*(1/c + 1/c^2) + q/c^2) * (c*t) + p,   p = 1/io, q = 1/jo.
# Any GF(2)-linear function f of 1/y is therefore U[io] ^ V[jo] for two
# 16-entry tables U, V that include the inner inversions 1/io and 1/jo. The
# zero cases work out through PSHUFB's bit 7: the tables for 1/n and c/n
# hold 0x80 ("infinity") at n = 0, and a lookup at an index with bit 7 set
# reads 0. E.g. i = 0 gives iak = infinity, io = 0 ^ j = k = N/k as wanted;
# y = 0 gives iak = jak = 0, io = jo = infinity, output 0. The generator
# below checks all 256 inputs against the S-box before it writes anything.
# One S-box layer costs 5 lookups (c/k, 1/i, 1/j, 1/iak, 1/jak) plus two
# per output table pair.
#
# One round. The state lives in the tower basis between rounds. With
# L the linear part of the S-box affine map, the output tables give
#     A = phi(L(1/y))   and   B = phi(2 * L(1/y))
# directly in the tower basis (four lookups). MixColumns, with R_k the
# rotation "row r takes row r+k of its column", is
#     2A ^ 3 R_1 A ^ R_2 A ^ R_3 A = D ^ R_1 D ^ R_3 A,   D = B ^ R_1 A,
# three byte permutations, each one PSHUFB with a constant mask. The S-box
# constant 0x63 is not added per round: a state of all-0x63 bytes is kept
# by MixColumns and by any byte permutation, so phi(0x63) goes into the
# round keys 1..Nr at key set-up.
#
# ShiftRows is never executed. After round r the kernel holds
#     Y_r = SR^-r (X_r)
# for the true state X_r (SR^m = ShiftRows m times; SR^4 = identity).
# Writing X_{r+1} = MC(SR(SubBytes(X_r))) ^ K_{r+1} in terms of Y shows
# that the rotations R_k become the conjugates SR^-m R_k SR^m, m = (r+1)
# mod 4 (four pairs of masks, picked by the round number), and that round
# key r must be stored as SR^-r(phi(K_r ^ 0x63)). The last round uses
# output tables for L(1/y) in the ordinary basis, adds the stored
# SR^-Nr(K_Nr ^ 0x63) and applies SR^Nr mod 4 once.
#
# Every table here is computed from the field arithmetic (GF(16) products
# and inverses, the AES field, the root search for phi) by
# perlasm/vpaes_tables.pm, which the 32-bit x86 kernel shares; none is
# typed in. Before any code is emitted that module runs its own model of
# the kernel, table lookups with PSHUFB's rules included, on the FIPS 197
# appendix C vectors for all three key sizes, and dies on a mismatch.
#
# Key expansion follows FIPS 197 5.2 one 32-bit word at a time in general
# registers; SubWord runs the same vector S-box on the word in the low
# dword of xmm0 (phi by two lookups, the inversion, output tables for L,
# then 0x63). A second pass converts round keys 1..Nr to the stored form.
#
# Counter mode (ctr32) interleaves four blocks. The chain of dependent
# operations in one round is twelve deep (split, lookup, xor, lookup, xor,
# output lookup, xor, then the MixColumns permutations), and on recent
# cores every vector operation has a latency of one or two cycles, so a
# single block leaves most execution ports idle; four independent chains
# fill them. Sixteen registers hold four blocks only at four registers
# each: the constants are then read from memory (as PAND/PXOR operands or
# MOVDQA loads, which cost no more than a register copy), and two values
# of the inversion per block, c/k and j, wait in stack slots. A single block
# (encrypt_block, a last odd block) takes the five-register form with the
# constants in registers; two leftover blocks (the whole of a 16-byte
# message's call: E(K, J0) and one block of key stream) take two such
# five-register chains side by side, which costs half the four-block core;
# three go through the four-block code. The counter block is kept in a stack slot with bytes
# 12..15 reversed, so its counter is a little-endian dword that PADDD
# increments modulo 2^32 without carrying into byte 11; a PSHUFB restores
# the byte order of each block. Input is read before output is written, so
# in == out works.
#
# Schedule layout (struct aes_schedule, 64-byte aligned)
# ======================================================
#     bytes[0]          K_0, ordinary basis, unpermuted
#     bytes[16*r]       SR^-r(phi(K_r ^ 0x63)), r = 1 .. Nr-1 (tower basis)
#     bytes[16*Nr]      SR^-Nr(K_Nr ^ 0x63), ordinary basis
#     rounds            Nr, the unsigned at offset 1920 (after the 1920-byte
#                       array); written by set_encrypt_key, read by the
#                       others; crypto/aes/aes_vpaes.c asserts the offset.
#
# Register plan (System V names; the translator maps win64 arguments)
# ===================================================================
#   One block (encrypt_block, key schedule, ctr32's single block):
#     xmm15 0x0f in every byte, xmm14 1/n in GF(16) (0x80 at n = 0),
#     xmm13 c/n (0x80 at n = 0); xmm0 the state, xmm1-4 temporaries.
#   Two blocks (ctr32's two-block path): block n in xmm(5n) .. xmm(5n+4),
#     state in xmm(5n), the constants in xmm13-15 as for one block.
#   Four blocks (ctr32): block n in xmm(4n) .. xmm(4n+3), state in xmm(4n);
#     its stack slots at [rsp + 32n] and [rsp + 32n + 16]; the counter block
#     at [rsp + 128].
#   rax     16 * round (offset of the round key), r9 16 * Nr
#   r10     64 * (round mod 4): offset of that round's masks from r11
#   r11     address of the permutation masks
#   aes_x86_64_vpaes_set_encrypt_key(s = rdi, key = rsi, key_len = rdx)
#     rcx word index i, r11 i mod Nk, r8 Nk, r9 Nr, r10 4*(Nr+1), rsi Rcon
#     pointer, ebx the word being made (key material: the one general-purpose
#     register here that is not declared public, and the epilogue restores
#     the caller's rbx over it), edx Rcon and then a mask offset, rax the
#     round key being converted, xmm0-4 the S-box, xmm5 0x63 bytes.
#   aes_x86_64_vpaes_ctr32(s = rdi, in = rsi, out = rdx, blocks = rcx,
#                          ctr = r8)
# Every function clears the registers and stack slots that held key
# material, state or key stream before it returns. On win64 the translator
# saves and restores the xmm6-xmm15 each function touches, and rdi and rsi.
#
# Secrets and constant time
# =========================
# Secret: the key, the round keys, the data, the state and the key stream.
# They flow only through PXOR/PAND/PSRLD/PADDD, MOVD, ROR/XOR in general
# registers, and PSHUFB, where a secret is either the table held in a
# register or the index register: the lookup happens inside the register
# file, not at a memory address. Secrets are stored only to the schedule,
# the output and the function's own stack slots, at fixed offsets. Memory
# addresses come only from the caller's pointers, the block count, the key
# length and the round number;
# branches only from the block count, the key length and loop counters.
# There is no data-dependent timing in PSHUFB on any x86 core.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

# Offset of `rounds` in struct aes_schedule (asserted in aes_vpaes.c).
my $ROUNDS = 1920;

# The tables (derived and self-checked there): perlasm/vpaes_tables.pm.
use perlasm::vpaes_tables;

my $code = perlasm::vpaes_tables::rodata();

# Code fragments for one block. A block is a hash:
#   r     its registers; r->[0] holds the state
#   wide  1: five registers, the constants in xmm13-15 (single blocks);
#         0: four registers and two 16-byte stack slots `spill`, the
#            constants read from memory (the four-block loop, where all
#            sixteen registers hold blocks)
# The multi-block paths interleave the blocks' streams line by line.

sub consts {
    my ($blk) = @_;
    return $blk->{wide} ? ('xmm15', 'xmm14', 'xmm13')
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

# A middle round: SubBytes, MixColumns in frame m (masks at r11 + r10),
# round key [rdi + rax]. The state ends in r0 again.
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
        "pshufb  $y, [r11 + r10]         # R_1 A",
        "pxor    $a, $y                  # D = 2A ^ R_1 A",
        "pshufb  $x, [r11 + r10 + 16]    # R_3 A",
        "pxor    $x, [rdi + rax]",
        "pxor    $x, $a                  # D ^ R_3 A ^ key",
        "pshufb  $a, [r11 + r10]         # R_1 D",
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
        "pxor    $a, [rdi + rax]",
        "pshufb  $a, [r11 + r10 + 32]    # SR^(Nr mod 4)",
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
# ordinary basis and ends as the cipher output. Needs rdi, r9 = 16*Nr,
# r11 = .Lmasks; uses rax and r10.
my $core_id = 0;
sub encrypt_core {
    my @blocks = @_;
    my $id = $core_id++;
    my $s = zip(map { [ to_tower($_) ] } @blocks);
    $s .= <<___;
    mov     eax, 16
    mov     r10d, 64
.Lrounds_$id:
___
    $s .= zip(map { [ middle_round($_) ] } @blocks);
    $s .= <<___;
    add     rax, 16
    add     r10d, 64
    and     r10d, 255
    cmp     rax, r9
    jb      .Lrounds_$id
___
    $s .= zip(map { [ last_round($_) ] } @blocks);
    return $s;
}

my $ONE = { wide => 1, r => [ map { "xmm$_" } 0 .. 4 ] };
my @FOUR = map {
    my $n = $_;
    { wide => 0, r => [ map { 'xmm' . (4 * $n + $_) } 0 .. 3 ],
      spill => [ '[rsp + ' . 32 * $n . ']', '[rsp + ' . (32 * $n + 16) . ']' ] }
} 0 .. 3;
# Two blocks with five registers each and the constants in xmm13-15, as a
# single block has them: ctr32's two-block path, for the short messages
# whose one ctr32 call asks for E(K, J0) and one block of key stream.
my @TWO = map {
    my $n = $_;
    { wide => 1, r => [ map { 'xmm' . (5 * $n + $_) } 0 .. 4 ] }
} 0 .. 1;
my $CTR_SLOT = '[rsp + 128]';

sub load_constants {
    return <<___;
    movdqa  xmm15, [.Lnib]
    movdqa  xmm14, [.Linv]
    movdqa  xmm13, [.Lcdiv]
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

# ctr32: four counter blocks from the slot, the slot advanced by four. Runs
# of four go through the four-block loop; what is left (one, two or three
# blocks) takes the one-block path, the two-block path, or the four-block
# core with one lane unused.
my $make_four = "    movdqa  xmm0, $CTR_SLOT\n";
for my $n (1 .. 3) {
    $make_four .= "    movdqa  xmm" . 4 * $n . ", xmm" . 4 * ($n - 1) . "\n"
                . "    paddd   xmm" . 4 * $n . ", [.Lone]\n";
}
$make_four .= "    movdqa  xmm1, xmm12\n    paddd   xmm1, [.Lone]\n    movdqa  $CTR_SLOT, xmm1\n";
$make_four .= "    pshufb  xmm" . 4 * $_ . ", [.Lctr_swap]\n" for 0 .. 3;
$make_four .= "    pxor    xmm" . 4 * $_ . ", [rdi]\n" for 0 .. 3;

$code .= <<___;

.text
.function aes_x86_64_vpaes_set_encrypt_key args=3 public=rdi,rsi,rdx,rcx,r8,r9,r10,r11,rax   # (struct aes_schedule *s, const uint8_t *key, size_t key_len)
@{[ load_constants() ]}
    mov     r8, rdx
    shr     r8, 2                   # Nk = 4, 6 or 8
    lea     r9, [r8 + 6]            # Nr
    mov     [rdi + $ROUNDS], r9d
    lea     r10, [4*r9 + 4]         # words to make: 4 * (Nr + 1)
    xor     ecx, ecx
.Lks_copy:                          # w[0 .. Nk-1] = key
    mov     ebx, [rsi + 4*rcx]
    mov     [rdi + 4*rcx], ebx
    inc     rcx
    cmp     rcx, r8
    jb      .Lks_copy
    lea     rsi, [.Lrcon]
    xor     r11d, r11d              # i mod Nk
.Lks_word:                          # w[i], i = rcx
    mov     ebx, [rdi + 4*rcx - 4]  # temp = w[i-1]
    test    r11d, r11d
    jz      .Lks_sub
    cmp     r11d, 4
    jne     .Lks_xor
    cmp     r8d, 8
    jne     .Lks_xor
.Lks_sub:                           # SubWord (when i mod Nk = 0, or 4 for AES-256)
    movd    xmm0, ebx
$subword
    movd    ebx, xmm0
    xor     ebx, 0x63636363
    test    r11d, r11d
    jnz     .Lks_xor
    ror     ebx, 8                  # RotWord after SubWord: the same thing
    movzx   edx, byte [rsi]     # public: Rcon, a constant of FIPS 197
    xor     ebx, edx                # Rcon
    inc     rsi
.Lks_xor:
    mov     rdx, rcx
    sub     rdx, r8
    xor     ebx, [rdi + 4*rdx]      # w[i] = w[i-Nk] ^ temp
    mov     [rdi + 4*rcx], ebx
    inc     r11d
    cmp     r11d, r8d
    jne     .Lks_next
    xor     r11d, r11d
.Lks_next:
    inc     rcx
    cmp     rcx, r10
    jb      .Lks_word
    # Round keys 1..Nr-1 to SR^-r(phi(K ^ 0x63)), and K_Nr to SR^-Nr(K ^ 0x63).
    movdqa  xmm5, [.Lk63]
    lea     r11, [.Lmasks]
    mov     edx, 64                 # 64 * (r mod 4), r = 1
    lea     rax, [rdi + 16]
    lea     rcx, [r9 - 1]
.Lks_store:
    movdqa  xmm0, [rax]
    pxor    xmm0, xmm5
$to_tower_key
    pshufb  xmm0, [r11 + rdx + 48]  # SR^-r
    movdqa  [rax], xmm0
    add     rax, 16
    add     edx, 64
    and     edx, 255
    dec     rcx
    jnz     .Lks_store
    movdqa  xmm0, [rax]
    pxor    xmm0, xmm5
    pshufb  xmm0, [r11 + rdx + 48]  # SR^-Nr
    movdqa  [rax], xmm0
@{[ clear(map { "xmm$_" } 0 .. 5) ]}
.endfunction

.function aes_x86_64_vpaes_encrypt_block args=3 public=rdi,rsi,rdx,r9,r10,r11,rax   # (const struct aes_schedule *s, const uint8_t in[16], uint8_t out[16])
@{[ load_constants() ]}
    lea     r11, [.Lmasks]
    mov     r9d, [rdi + $ROUNDS]   # public: the round count follows from the key length
    shl     r9d, 4                  # 16 * Nr
    movdqu  xmm0, [rsi]
    pxor    xmm0, [rdi]
@{[ encrypt_core($ONE) ]}
    movdqu  [rdx], xmm0
@{[ clear(map { "xmm$_" } 0 .. 4) ]}
.endfunction

.function aes_x86_64_vpaes_ctr32 args=5 frame=144 public=rdi,rsi,rdx,rcx,r8,r9,r10,r11,rax   # (const struct aes_schedule *s, const uint8_t *in, uint8_t *out, size_t blocks, const uint8_t ctr[16])
    test    rcx, rcx
    jz      .Lctr_done
    movdqu  xmm0, [r8]
    pshufb  xmm0, [.Lctr_swap]      # counter as a little-endian dword 3
    movdqa  $CTR_SLOT, xmm0
    lea     r11, [.Lmasks]
    mov     r9d, [rdi + $ROUNDS]   # public: the round count follows from the key length
    shl     r9d, 4                  # 16 * Nr
    cmp     rcx, 2
    jb      .Lctr_one
    je      .Lctr_two
.Lctr_four:                         # four blocks (or the last three)
$make_four
@{[ encrypt_core(@FOUR) ]}
    cmp     rcx, 4
    jb      .Lctr_tail
    movdqu  xmm1, [rsi]
    movdqu  xmm5, [rsi + 16]
    movdqu  xmm9, [rsi + 32]
    movdqu  xmm13, [rsi + 48]
    pxor    xmm0, xmm1
    pxor    xmm4, xmm5
    pxor    xmm8, xmm9
    pxor    xmm12, xmm13
    movdqu  [rdx], xmm0
    movdqu  [rdx + 16], xmm4
    movdqu  [rdx + 32], xmm8
    movdqu  [rdx + 48], xmm12
    add     rsi, 64
    add     rdx, 64
    sub     rcx, 4
    jz      .Lctr_clear
    cmp     rcx, 2
    ja      .Lctr_four
    je      .Lctr_two
.Lctr_one:                          # a single block: the shorter path
@{[ load_constants() ]}
    movdqa  xmm0, $CTR_SLOT
    pshufb  xmm0, [.Lctr_swap]
    pxor    xmm0, [rdi]
@{[ encrypt_core($ONE) ]}
    movdqu  xmm1, [rsi]
    pxor    xmm0, xmm1
    movdqu  [rdx], xmm0
    jmp     .Lctr_clear
.Lctr_two:                          # two blocks, five registers each
@{[ load_constants() ]}
    movdqa  xmm0, $CTR_SLOT
    movdqa  xmm5, xmm0
    paddd   xmm5, [.Lone]
    pshufb  xmm0, [.Lctr_swap]
    pshufb  xmm5, [.Lctr_swap]
    pxor    xmm0, [rdi]
    pxor    xmm5, [rdi]
@{[ encrypt_core(@TWO) ]}
    movdqu  xmm1, [rsi]
    movdqu  xmm6, [rsi + 16]
    pxor    xmm0, xmm1
    pxor    xmm5, xmm6
    movdqu  [rdx], xmm0
    movdqu  [rdx + 16], xmm5
    jmp     .Lctr_clear
.Lctr_tail:                         # three blocks were wanted
    movdqu  xmm1, [rsi]
    movdqu  xmm5, [rsi + 16]
    pxor    xmm0, xmm1
    pxor    xmm4, xmm5
    movdqu  [rdx], xmm0
    movdqu  [rdx + 16], xmm4
    cmp     rcx, 3
    jb      .Lctr_clear
    movdqu  xmm9, [rsi + 32]
    pxor    xmm8, xmm9
    movdqu  [rdx + 32], xmm8
.Lctr_clear:
@{[ clear(map { "xmm$_" } 0 .. 15) ]}
@{[ join '', map { "    movdqa  [rsp + " . 16 * $_ . "], xmm0\n" } 0 .. 8 ]}
.Lctr_done:
.endfunction
___

perlasm::driver::finish('x86_64', $code);
