#!/usr/bin/env perl
# asm/x86/aes-vpaes-x86.pl: constant-time AES with SSSE3 vector permutes for
# 32-bit x86, the kernel behind the "vpaes" descriptor in
# crypto/aes/aes_vpaes.c.
#
# Usage: perl aes-vpaes-x86.pl FLAVOUR [OUTPUT]  (see asm/perlasm, x86.pm).
#
# Algorithm
# =========
# The algorithm (Hamburg's vector-permute AES in a GF(16) tower basis), the
# key expansion and the schedule layout are asm/x86_64/aes-vpaes-x86_64.pl's,
# whose opening comment derives them; one descriptor file serves both. The
# tables and masks come from perlasm/vpaes_tables.pm and the round bodies
# (tower basis change, inversion, middle and last rounds, SubWord, the
# interleaving of blocks) from perlasm/vpaes_rounds.pm, both shared with the
# x86_64 kernel. What differs on 32-bit x86 is the register file: eight
# xmm registers and seven general-purpose ones.
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
#     slots, and for 16- and 32-byte keys (the whole-register expansion)
#     the chain's round keys in two more, which it wipes.
# The counter block sits in a stack slot with bytes 12..15 reversed, so that
# PADDD increments its 32-bit counter modulo 2^32 without carrying into byte
# 11; PSHUFB restores the byte order of each block. Input is read before
# output is written, so in == out works. Frames are realigned to 16 bytes by
# the translator, so the caller's 4-byte alignment is enough.
#
# Register plan (cdecl; perlasm/x86.pm loads the arguments in the order
# edi, esi, edx, ecx, ebx)
# =====================================================================
#   gcmi_aes_x86_vpaes_set_encrypt_key(s = edi, key = esi, key_len = edx)
#     ecx word index i, eax i mod Nk, esi the key and then the Rcon index,
#     edx temporaries, ebx the word being made (key material: the one
#     general-purpose register not declared public; the epilogue restores
#     the caller's ebx over it), [esp] Nk, [esp + 4] 4 * (Nr + 1); pass 2:
#     eax the round key's address, ecx the count, edx the mask offset;
#     xmm0-4 the S-box, xmm5-7 constants; pic ebp. AES-128 and AES-256
#     (no word loop, no pass 2): [esp + 16] and [esp + 32] the chain's
#     keys in the tower basis, esi 16 * the Rcon index, ecx the count,
#     eax and edx as in pass 2, xmm1-3 the store's temporaries
#   gcmi_aes_x86_vpaes_encrypt_block(s = edi, out = esi, in = edx)
#     xmm0 the state, xmm1-4 temporaries, xmm5-7 constants; eax 16 * round,
#     ecx 64 * (round mod 4), ebp 16 * Nr; pic ebx
#   gcmi_aes_x86_vpaes_ctr32(s = edi, out = esi, in = edx, blocks = ecx,
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
use perlasm::layout;    # $ROUNDS and the other C structure offsets
use perlasm::vpaes_tables;
use perlasm::vpaes_rounds;
use perlasm::siv_copy;

my $code = perlasm::vpaes_tables::rodata();

# The round bodies (perlasm/vpaes_rounds.pm): wide blocks (single ones)
# keep the constants in xmm5 (.Lnib), xmm6 (.Linv), xmm7 (.Lcdiv); round
# keys are [edi + eax], the masks of the round [.Lmasks + mreg] with mreg =
# 64 * (round mod 4), ecx in encrypt_block and ebx in ctr32. Narrow blocks
# (the two-block loop, where all eight registers hold blocks) read the
# constants from memory and spill to the stack.
sub rounds_with {
    my ($m) = @_;
    return perlasm::vpaes_rounds->new(
        consts => ['xmm5', 'xmm6', 'xmm7'],
        rkey => '[edi + eax]',
        r1 => "[.Lmasks + $m]    ",
        r3 => "[.Lmasks + $m + 16]  ",
        sr => "[.Lmasks + $m + 32]  ",
        ax => 'eax', mreg => $m);
}
my $R = rounds_with('ecx');

# encrypt_core(R, nr, blocks): `nr` is a register or the frame slot
# holding 16 * Nr. Needs edi and the pic register; uses eax and R's mreg.
sub encrypt_core {
    my ($r, $nr, @blocks) = @_;
    my $cmp = $nr =~ /\[/ ? "    cmp     eax, dword $nr   # public: 16 * Nr, stored by this function\n"
                          : "    cmp     eax, $nr\n";
    return $r->encrypt_core($cmp, @blocks);
}
sub clear { return perlasm::vpaes_rounds::clear(@_) }

my $ONE = { wide => 1, r => [ map { "xmm$_" } 0 .. 4 ] };
my @TWO = map {
    my $n = $_;
    { wide => 0, r => [ map { 'xmm' . (4 * $n + $_) } 0 .. 3 ],
      spill => [ '[esp + ' . 32 * $n . ']', '[esp + ' . (32 * $n + 16) . ']' ] }
} 0 .. 1;
my $CTR_SLOT = '[esp + 64]';
my $NR_SLOT = '[esp + 80]';

my $subword = $R->subword($ONE);
my $to_tower_key = perlasm::vpaes_rounds::zip([ $R->to_tower($ONE) ]);

# The whole-register key expansion of AES-128 and AES-256, as in the
# x86_64 kernel (its opening comment's "Key expansion"): each round key in
# the tower basis is smear(K') ^ pick(S(K)) ^ phi(0x63 ^ Rcon), the S-box
# on the whole of K, its word 3 picked and broadcast by one PSHUFB. With
# eight xmm registers, xmm0-4 hold the S-box and xmm5-7 its constants, so
# the keys of the chain wait in two frame slots ($KS_A, $KS_B), which the
# function wipes.
#   ks_next(prev, base, pick, const) and ks_store(last): the shared steps
#     (perlasm/vpaes_rounds.pm) on these registers: the smear in xmm0 with
#     xmm1, the base loaded from and stored back to its slot; the round
#     key stored from xmm0 with xmm1-3, phi(0x63) read from .Lks_t63, eax
#     the round key's address.
my ($KS_A, $KS_B) = ('[esp + 16]', '[esp + 32]');
sub ks_next {
    my ($prev, $base, $pick, $const) = @_;
    return $R->ks_next($ONE, $prev, $base, $pick, $const, 'xmm0', 'xmm1');
}
sub ks_store {
    my ($last) = @_;
    return $R->ks_store('xmm0', $last, ['xmm1', 'xmm2', 'xmm3', '[.Lks_t63]', 'xmm5'],
                        'eax', '[.Lmasks + edx + 48]');
}

$code .= <<___;

.text
.function gcmi_aes_x86_vpaes_set_encrypt_key args=3 frame=48 pic=ebp public=edi,esi,edx,ecx,eax,ebp   # (struct aes_schedule *s, const uint8_t *key, size_t key_len)
@{[ $R->load_constants() ]}
    mov     eax, edx
    shr     eax, 2                  # Nk = 4, 6 or 8
    mov     [esp], eax
    lea     ecx, [eax + 6]          # Nr
    mov     [edi + $ROUNDS], ecx
    cmp     eax, 4
    je      .Lks_128
    cmp     eax, 8
    je      .Lks_256
    lea     ecx, [4*ecx + 4]        # AES-192: words to make: 4 * (Nr + 1)
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
    jmp     .Lks_clear
.Lks_128:                           # AES-128: round keys 1 .. 10 from K_0
    movdqu  xmm0, [esi]
    movdqa  [edi], xmm0
$to_tower_key
    movdqa  $KS_A, xmm0
    mov     edx, 64                 # 64 * (r mod 4), r = 1
    lea     eax, [edi + 16]
    xor     esi, esi                # 16 * the Rcon index
    mov     ecx, 9
.Lks_128_loop:                      # round keys 1 .. 9
@{[ ks_next($KS_A, $KS_A, '[.Lks_rotword]', '[.Lks_rcon63 + esi]') ]}
    add     esi, 16
@{[ ks_store(0) ]}
    dec     ecx
    jnz     .Lks_128_loop
@{[ ks_next($KS_A, $KS_A, '[.Lks_rotword]', '[.Lks_rcon63 + esi]') ]}
@{[ ks_store(1) ]}
    jmp     .Lks_clear
.Lks_256:                           # AES-256: round keys 2 .. 14 from K_0, K_1
    movdqu  xmm0, [esi]
    movdqa  [edi], xmm0
$to_tower_key
    movdqa  $KS_A, xmm0
    movdqu  xmm0, [esi + 16]
$to_tower_key
    movdqa  $KS_B, xmm0
    mov     edx, 64                 # 64 * (r mod 4), r = 1
    lea     eax, [edi + 16]
@{[ ks_store(0) ]}
    xor     esi, esi                # 16 * the Rcon index
    mov     ecx, 6
.Lks_256_loop:                      # round keys 2j and 2j + 1, j = 1 .. 6
@{[ ks_next($KS_B, $KS_A, '[.Lks_rotword]', '[.Lks_rcon63 + esi]') ]}
    add     esi, 16
@{[ ks_store(0) ]}
@{[ ks_next($KS_A, $KS_B, '[.Lks_word3]', '[.Lks_t63]') ]}
@{[ ks_store(0) ]}
    dec     ecx
    jnz     .Lks_256_loop
@{[ ks_next($KS_B, $KS_A, '[.Lks_rotword]', '[.Lks_rcon63 + esi]') ]}
@{[ ks_store(1) ]}
.Lks_clear:
@{[ clear(map { "xmm$_" } 0 .. 4) ]}
    movdqa  $KS_A, xmm0                 # the chain's keys
    movdqa  $KS_B, xmm0
.endfunction
___

$code .= <<___;

.function gcmi_aes_x86_vpaes_encrypt_block args=3 pic=ebx public=edi,edx,esi,ecx,ebx,ebp,eax   # (const struct aes_schedule *s, uint8_t out[16], const uint8_t in[16])
@{[ $R->load_constants() ]}
    mov     ebp, [edi + $ROUNDS]   # public: the round count follows from the key length
    shl     ebp, 4                  # 16 * Nr
    movdqu  xmm0, [edx]
    pxor    xmm0, [edi]
@{[ encrypt_core($R, 'ebp', $ONE) ]}
    movdqu  [esi], xmm0
@{[ clear(map { "xmm$_" } 0 .. 4) ]}
.endfunction
___

my $R2 = rounds_with('ebx');
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

.function gcmi_aes_x86_vpaes_ctr32 args=5 frame=96 pic=ebp public=edi,edx,esi,ecx,ebx,ebp,eax   # (const struct aes_schedule *s, uint8_t *out, const uint8_t *in, size_t blocks, const uint8_t ctr[16])
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
@{[ encrypt_core($R2, $NR_SLOT, @TWO) ]}
    movdqu  xmm1, [edx]
    movdqu  xmm5, [edx + 16]
    pxor    xmm0, xmm1
    pxor    xmm4, xmm5
    movdqu  [esi], xmm0
    movdqu  [esi + 16], xmm4
    add     edx, 32
    add     esi, 32
    sub     ecx, 2
    jz      .Lctr_clear
    cmp     ecx, 1
    jne     .Lctr_two
.Lctr_one:                          # a single block: the shorter path
@{[ $R->load_constants() ]}
    movdqa  xmm0, $CTR_SLOT
    pshufb  xmm0, [.Lctr_swap]
    pxor    xmm0, [edi]
@{[ encrypt_core($R2, $NR_SLOT, $ONE) ]}
    movdqu  xmm1, [edx]
    pxor    xmm0, xmm1
    movdqu  [esi], xmm0
.Lctr_clear:
@{[ clear(map { "xmm$_" } 0 .. 7) ]}
@{[ join '', map { "    movdqa  [esp + " . 16 * $_ . "], xmm0\n" } 0 .. 4 ]}
.Lctr_done:
.endfunction
___

# ctr32le, AES-GCM-SIV's counter mode: the same function with the mask
# that exchanges dwords 0 and 3 (perlasm/siv_copy.pm).
$code .= perlasm::siv_copy::ctr32le($code, 'gcmi_aes_x86_vpaes_ctr32');

perlasm::driver::finish('x86', $code);
