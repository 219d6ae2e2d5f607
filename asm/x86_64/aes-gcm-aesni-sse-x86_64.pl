#!/usr/bin/env perl
# asm/x86_64/aes-gcm-aesni-sse-x86_64.pl: fused AES-CTR + GHASH with AES-NI
# and PCLMULQDQ in the legacy SSE encoding on xmm registers, the kernel
# behind the "aesni_sse" descriptor in crypto/fused/fused_aesni_sse.c. It
# meets the contract of crypto/fused/fused.h for the pair (aesni, clmul)
# on the CPUs that have AES-NI and PCLMULQDQ but no AVX: Westmere, and the
# Atom-class cores (Silvermont, Goldmont, Tremont). Where AVX exists the
# VEX twin (aes-gcm-aesni-avx-x86_64.pl, "aesni_avx") is listed first.
#
# Usage: perl aes-gcm-aesni-sse-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
# Both kernels are written once, by perlasm/aes_gcm_aesni_xmm.pm, whose
# opening comment explains the algorithm (stitched counter mode and GHASH,
# eight blocks in flight), the register plan and why it runs in constant
# time. This file is its legacy SSE encoding: SSE2, SSSE3's PSHUFB, AES-NI
# and PCLMULQDQ only, no VEX prefix and no AVX state.
#
# What the encoding changes
# =========================
# Two operands, and vector memory operands only where they are 16-byte
# aligned (the constants, the stack frame, the clmul key's powers): the
# module's "How one text serves both encodings" says how each VEX form is
# rewritten (a MOVDQA copy where dst is not a) and how the data, the
# counter block, Xi, lag->pending and the round keys are read with MOVDQU
# instead. The copies need no register beyond the AVX kernel's plan.
#
# The exit zeroes xmm0-xmm15 with one PXOR zero idiom each. No VEX
# instruction runs, so no VZEROUPPER is needed (and none is emitted: on a
# CPU without AVX it would fault).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;
use perlasm::aes_gcm_aesni_xmm;    # the kernel, in either encoding

perlasm::driver::finish('x86_64',
    perlasm::aes_gcm_aesni_xmm::kernel('sse', 'gcmi_aes_gcm_x86_64_aesni_sse'));
