#!/usr/bin/env perl
# asm/x86/abi-check-x86.pl: the trampoline for test/abi_x86_test.cc, which
# calls every 32-bit x86 kernel through it to catch cdecl violations that a
# functional test cannot see. Test-only: never linked into the library.
#
# Usage: perl abi-check-x86.pl FLAVOUR [OUTPUT]  (see asm/perlasm, x86.pm).
#
#   uint32_t abi_test_call_x86(const void *fn, const uint32_t args[6],
#                              struct abi_x86_regs *regs);
#
# Loads the callee-saved registers ebx, ebp, esi, edi from `regs` (values
# chosen by the test), calls fn(args[0], ..., args[5]) with the six
# arguments on the stack as cdecl wants them, and with esp at the call
# `regs->skew` bytes below a 16-byte boundary (skew = 0, 4, 8 or 12 gives
# every alignment a 4-byte-aligned cdecl caller may hand over), then stores
# the four registers back into `regs`, records the direction flag and
# returns fn's eax. The test compares what came back with what went in.
#
# It has to place the callee's arguments below its own frame, so it writes
# esp (allowed only in secrets=none test code, see perlasm/x86.pm); the
# frame's address is kept just above the arguments, and esp is reloaded
# from there after the call, so a kernel that leaves esp wrong crashes the
# test rather than passing it.
#
# The direction flag is read with STOSB: edi moves by +1 when DF is clear
# and by -1 when it is set; the step is stored and DF cleared again.
#
# Nothing here is secret.
#
# struct abi_x86_regs (test/abi_x86_test.cc):
#   0 ebx, 4 ebp, 8 esi, 12 edi, 16 skew, 20 the DF step (+1 when clear).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

my %off = (ebx => 0, ebp => 4, esi => 8, edi => 12);
my ($SKEW, $DF) = (16, 20);

my $copy = join '', map { "    mov       ecx, [esi + " . 4 * $_ . "]\n"
                          . "    mov       [esp + " . 4 * $_ . "], ecx\n" } 0 .. 5;
my $load = join '', map { "    mov       $_, [edx + $off{$_}]\n" } qw(ebx ebp esi edi);
my $store = join '', map { "    mov       [eax + $off{$_}], $_\n" } qw(ebx ebp esi edi);

my $code = <<___;
.text
# Frame: [esp] regs, [esp + 4] fn, [esp + 8] fn's eax, [esp + 12] DF probe.
# Below it, at the call: [esp .. esp+24) the six arguments, [esp + 24] fn,
# [esp + 28] the frame's address.
.function abi_test_call_x86 args=3 frame=16 secrets=none   # (const void *fn, const uint32_t args[6], struct abi_x86_regs *regs)
    mov       [esp], edx
    mov       [esp + 4], edi
    mov       eax, esp
    mov       ecx, [edx + $SKEW]
    sub       esp, ecx
    sub       esp, 32
    mov       [esp + 28], eax
    mov       [esp + 24], edi
$copy
$load
    call      dword [esp + 24]
    mov       esp, [esp + 28]
    mov       [esp + 8], eax
    mov       eax, [esp]
$store
    lea       edi, [esp + 12]
    stosb                               # edi += 1 if DF = 0, -= 1 if DF = 1
    lea       ecx, [esp + 12]
    sub       edi, ecx
    mov       [eax + $DF], edi
    cld
    mov       eax, [esp + 8]
.endfunction
___

perlasm::driver::finish('x86', $code);
