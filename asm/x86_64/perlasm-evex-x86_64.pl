#!/usr/bin/env perl
# asm/x86_64/perlasm-evex-x86_64.pl: a test-only "kernel" that exercises
# the translator's AVX-512 and VAES/VPCLMULQDQ spelling, so the asm.flavours
# test assembles it in every flavour (GNU as AT&T for ELF and Mach-O, NASM
# for win64) before a real 512-bit kernel depends on it. Never called and
# never linked into the library (it is listed with the ABI trampolines in
# asm/CMakeLists.txt).
#
# Usage: perl perlasm-evex-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Algorithm: none. The function is a list of instruction forms: zmm and
# ymm/xmm16-31 registers, opmask registers with {k} and {z} decorations
# on register and memory destinations, EVEX VAES and VPCLMULQDQ, ternary
# logic, 128/256-bit inserts, extracts and broadcasts, masked byte loads and
# stores, kmov, and a zword memory operand. It touches zmm16-31, so it
# clears the ones it used (VZEROUPPER, which the translator appends, does
# not reset Hi16_ZMM state).
#
# Secrets: none; nothing here runs.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

my $code = <<___;
.rodata
.align 64
.Lconst:
    .quad 1, 2, 3, 4, 5, 6, 7, 8
.text
.function perlasm_evex_forms args=2 public=rdi,rsi,rax,k1,k2   # (void *dst, const void *src): never called
    mov        rax, 0x5555
    kmovq      k1, rax
    kmovw      k2, eax
    vmovdqu8   zmm1{k2}{z}, [rsi]
    vmovdqu8   [rdi]{k2}, zmm1
    vmovdqu64  zmm9{k1}, zword [rsi + 64]
    vmovdqu64  [rdi + 64], zmm9
    vbroadcasti32x4 zmm4, [rdi + 16]
    vbroadcasti64x2 zmm5, [rdi + 32]
    vpclmulqdq zmm0, zmm1, zmm30, 0x11
    vpclmulqdq ymm17, ymm1, [.Lconst + 32], 0x10
    vpclmulqdq xmm18, xmm1, xmm2, 0x01
    vaesenc    zmm3, zmm3, zmm17
    vaesenc    ymm19, ymm19, [rdi + 32]
    vaesenclast zmm3, zmm3, [rdi + 64]
    vpternlogq zmm0, zmm1, zmm2, 0x96
    vpternlogd ymm20, ymm21, ymm22, 0x78
    vinserti64x4 zmm5, zmm5, ymm6, 1
    vinserti32x4 zmm5, zmm5, xmm7, 2
    vextracti32x4 xmm7, zmm5, 3
    vextracti64x4 ymm8, zmm5, 1
    vpshufb    zmm5, zmm5, [.Lconst]
    vpxorq     zmm9, zmm9, zmm4
    vpaddd     zmm10, zmm10, zmm11
    vmovdqa64  zmm12, zmm30
    vpxord     xmm17, xmm17, xmm17
    vpxord     xmm18, xmm18, xmm18
    vpxord     xmm19, xmm19, xmm19
    vpxord     xmm20, xmm20, xmm20
    vpxord     xmm21, xmm21, xmm21
    vpxord     xmm22, xmm22, xmm22
    vpxord     xmm30, xmm30, xmm30
.endfunction
___

perlasm::driver::finish('x86_64', $code);
