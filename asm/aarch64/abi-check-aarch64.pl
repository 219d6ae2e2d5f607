#!/usr/bin/env perl
# asm/aarch64/abi-check-aarch64.pl: the trampoline for
# test/abi_aarch64_test.cc, which calls every aarch64 kernel through it to
# catch AAPCS64 violations that a functional test cannot see. Test-only:
# never linked into the library.
#
# Usage: perl abi-check-aarch64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
#   uint64_t abi_aarch64_call(const void *fn, struct abi_aarch64_regs *regs,
#                             uint64_t a0, ..., uint64_t a5);
#
# Loads x19-x29 and d8-d15 from regs->in (values chosen by the test), calls
# fn(a0, ..., a5), stores x19-x29, d8-d15 into regs->out and sp before and
# after the call into regs->sp, and returns fn's x0. The test compares out
# with in. The trampoline is an ordinary `.function`, so towards its C
# caller the translator saves what it overwrites (the test thereby also
# runs a prologue that saves all of x19-x28 and d8-d15).
#
# Layout of struct abi_aarch64_regs (bytes):
#     0   in:  x19..x29 (11 words), then d8..d15 (8 words)
#   152   out: the same
#   304   sp before, sp after the call
#
# Nothing here is secret (secrets=none).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

my $code = <<___;
.text
.function abi_aarch64_call args=8 frame=16 secrets=none
    str     x1, [sp]
    mov     x16, x0
    mov     x17, x1
    ldp     x19, x20, [x17, 0]
    ldp     x21, x22, [x17, 16]
    ldp     x23, x24, [x17, 32]
    ldp     x25, x26, [x17, 48]
    ldp     x27, x28, [x17, 64]
    ldr     x29, [x17, 80]
    ldp     d8, d9, [x17, 88]
    ldp     d10, d11, [x17, 104]
    ldp     d12, d13, [x17, 120]
    ldp     d14, d15, [x17, 136]
    mov     x9, sp
    str     x9, [x17, 304]
    mov     x0, x2
    mov     x1, x3
    mov     x2, x4
    mov     x3, x5
    mov     x4, x6
    mov     x5, x7
    blr     x16
    mov     x9, sp
    ldr     x17, [sp]
    str     x9, [x17, 312]
    stp     x19, x20, [x17, 152]
    stp     x21, x22, [x17, 168]
    stp     x23, x24, [x17, 184]
    stp     x25, x26, [x17, 200]
    stp     x27, x28, [x17, 216]
    str     x29, [x17, 232]
    stp     d8, d9, [x17, 240]
    stp     d10, d11, [x17, 256]
    stp     d12, d13, [x17, 272]
    stp     d14, d15, [x17, 288]
.endfunction
___

perlasm::driver::finish('aarch64', $code);
