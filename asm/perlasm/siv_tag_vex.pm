# asm/perlasm/siv_tag_vex.pm: the opening of siv_tag_ctr32le (fused.h),
# AES-GCM-SIV's tag and counter mode in one call, as both VAES kernels
# (asm/x86_64/aes-gcm-vaes-avx2-x86_64.pl and
# asm/x86_64/aes-gcm-vaes-avx512-x86_64.pl) write it:
#   tag_entry(): the arguments (s, tag, out, in, blocks, last) moved to
#     r10 (the schedule), rax (tag), rsi, rdx, rcx (out, in, blocks) and
#     r11 (last, or NULL); xmm0 the block the tag is made from: S at
#     tag ^ (N || 0^32) at tag + 16, bit 7 of byte 15 cleared (the
#     kernel's rodata has the mask .Lsiv_low127); r9d and edi Nr, then
#     edi 16 * Nr;
#   xmm_rounds(x, tag, rklast): xmm<x> through AES's rounds with the
#     schedule at r10, eax holding Nr and `rklast` the operand of rk[Nr]:
#     one chain of VEX AESENC, for the tag and for the message's padded
#     last block, whose one block each the kernels' wide batches would
#     waste lanes on.
#
# Constant time: branches on Nr only (the key length, public); the
# schedule is read at fixed offsets from its address.
package perlasm::siv_tag_vex;

use strict;
use warnings;
use Exporter qw(import);
use perlasm::layout;
our @EXPORT_OK = qw(tag_entry xmm_rounds);

sub tag_entry {
    return <<___;
    mov        r10, rdi                     # the schedule, where the pieces read it
    mov        r11, r9                      # last, or NULL
    mov        rax, rsi                     # tag
    mov        rsi, rdx                     # out
    mov        rdx, rcx                     # in
    mov        rcx, r8                      # blocks
    vmovdqu    xmm0, [rax]                  # S
    vpxor      xmm0, xmm0, [rax + 16]       # ^ (N || 0^32)
    vpand      xmm0, xmm0, [.Lsiv_low127]   # bit 7 of byte 15 cleared
    mov        r9d, [r10 + $ROUNDS]         # public: the round count follows from the key length
    mov        edi, r9d
    shl        edi, 4                       # 16 * Nr
___
}

sub xmm_rounds {
    my ($x, $tag, $rklast) = @_;
    my $r = sub { "    vaesenc    xmm$x, xmm$x, [r10 + " . 16 * $_[0] . "]\n" };
    my $t = "    vpxor      xmm$x, xmm$x, [r10]\n";
    $t .= $r->($_) for 1 .. 9;
    $t .= "    cmp        eax, 10\n    je         .L${tag}_last\n";
    $t .= $r->(10) . $r->(11);
    $t .= "    cmp        eax, 12\n    je         .L${tag}_last\n";
    $t .= $r->(12) . $r->(13);
    $t .= ".L${tag}_last:\n    vaesenclast xmm$x, xmm$x, $rklast\n";
    return $t;
}

1;
