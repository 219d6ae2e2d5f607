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
# Both kernels are written once, by perlasm/aes_gcm_aesni_xmm.pm, whose
# opening comment explains the algorithm (stitched counter mode and GHASH,
# eight blocks in flight), the register plan and why it runs in constant
# time; its legacy-SSE twin is aes-gcm-aesni-sse-x86_64.pl ("aesni_sse",
# for the CPUs without AVX). This file is the VEX encoding.
#
# What the encoding changes
# =========================
# Three operands (no register copies) and unaligned memory operands.
# The exit zeroes xmm0-xmm15 and ends with VZEROUPPER, so the upper halves
# of the ymm registers are clean (the ABI test checks XINUSE). The zeroing
# is one zero idiom per register (VPXOR with itself, done at register
# renaming) rather than VZEROALL, which Intel cores run as a microcoded
# sequence (a stream of 16-block calls measured slower with it;
# docs/performance.md).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::aes_gcm_aesni_xmm;    # the kernel, in either encoding

# seal, seal_lagged and open (perlasm/fused_driver_x86_64.pm's drivers) and
# AES-GCM-SIV's siv_open, as the module's opening comment lists them.
perlasm::driver::finish('x86_64',
    perlasm::aes_gcm_aesni_xmm::kernel('avx', 'gcmi_aes_gcm_x86_64_aesni_avx'));
