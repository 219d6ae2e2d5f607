#!/usr/bin/env perl
# asm/armv4/abi-check-armv4.pl: the trampoline for test/abi_arm_test.cc,
# which calls every 32-bit ARM kernel through it to catch AAPCS violations
# that a functional test cannot see. Test-only: never linked into the
# library.
#
# Usage: perl abi-check-armv4.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
#   uint32_t abi_arm_call(const void *fn, struct abi_arm_regs *regs,
#                         uint32_t a0, uint32_t a1, uint32_t a2,
#                         uint32_t a3, uint32_t a4);
#
# Loads r4-r11 and d8-d15 from regs->in (values chosen by the test), calls
# fn(a0, ..., a4) (a4 on the stack, as AAPCS passes a fifth argument),
# stores r4-r11, d8-d15 into regs->out and sp before and after the call
# into regs->sp, and returns fn's r0. The test compares out with in, and
# checks that sp was 8-byte aligned at the call. The trampoline is an
# ordinary `.function`, so towards its C caller the translator saves what
# it overwrites (the test thereby also runs a prologue that saves all of
# r4-r11, lr and d8-d15, and loads three stack arguments).
#
# Layout of struct abi_arm_regs (bytes):
#     0   in:  r4..r11 (8 words), then d8..d15 (8 double words)
#    96   out: the same
#   192   sp before, sp after the call
#
# Nothing here is secret (secrets=none).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

my $code = <<___;
.arch armv7-a
.fpu neon

.text
# r0 fn, r1 regs, r2 a0, r3 a1; the prologue loads a2, a3, a4 into r4-r6.
# Scratch: [sp] the callee's fifth argument, [sp + 4] regs, [sp + 8] fn.
.function abi_arm_call args=7 frame=16 secrets=none
    str     r6, [sp]
    str     r1, [sp, 4]
    str     r0, [sp, 8]
    mov     r0, r2
    mov     r1, r3
    mov     r2, r4
    mov     r3, r5
    ldr     r12, [sp, 4]
    str     sp, [r12, 192]
    ldr     lr, [sp, 8]
    add     r12, r12, 32
    vld1.64 {d8-d11}, [r12]!
    vld1.64 {d12-d15}, [r12]
    sub     r12, r12, 64
    ldr     r4, [r12]
    ldr     r5, [r12, 4]
    ldr     r6, [r12, 8]
    ldr     r7, [r12, 12]
    ldr     r8, [r12, 16]
    ldr     r9, [r12, 20]
    ldr     r10, [r12, 24]
    ldr     r11, [r12, 28]
    blx     lr
    ldr     r12, [sp, 4]
    str     sp, [r12, 196]
    str     r4, [r12, 96]
    str     r5, [r12, 100]
    str     r6, [r12, 104]
    str     r7, [r12, 108]
    str     r8, [r12, 112]
    str     r9, [r12, 116]
    str     r10, [r12, 120]
    str     r11, [r12, 124]
    add     r12, r12, 128
    vst1.64 {d8-d11}, [r12]!
    vst1.64 {d12-d15}, [r12]
.endfunction
___

perlasm::driver::finish('armv4', $code);
