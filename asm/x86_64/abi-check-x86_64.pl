#!/usr/bin/env perl
# asm/x86_64/abi-check-x86_64.pl: trampolines for test/abi_test.cc, which
# calls every x86_64 kernel through them to catch ABI violations that a
# functional test cannot see. Test-only: never linked into the library.
#
# Usage: perl abi-check-x86_64.pl FLAVOUR [OUTPUT]  (see asm/perlasm).
#
#   uint64_t abi_test_call_sysv(const void *fn, const uint64_t args[6],
#                               struct abi_test_regs *regs);
#   uint64_t abi_test_call_win64(const void *fn, const uint64_t args[6],
#                                struct abi_test_regs *regs);
#
# Each loads the callee-saved registers from `regs` (known values chosen by
# the test), calls fn(args[0], ..., args[5]) with the stack 16-byte aligned
# at the call as the ABI requires, then stores those registers back into
# `regs` and records the direction flag, and returns fn's rax. The test
# compares what came back with what went in.
#   _sysv   System V: rbx, rbp, r12-r15 must survive; arguments in rdi, rsi,
#           rdx, rcx, r8, r9.
#   _win64  Microsoft x64: also rdi, rsi and xmm6-xmm15; arguments in rcx,
#           rdx, r8, r9, then on the stack above the 32-byte shadow space
#           the caller must provide.
# The trampolines themselves are ordinary `.function`s, so they follow the
# flavour's own ABI towards their C caller; the translator saves the
# callee-saved registers they overwrite.
#
# The direction flag is read without PUSHF (the translator keeps the frame
# fixed): STOSB moves rdi by +1 when DF is clear and by -1 when it is set;
# the step is stored and DF cleared again so a faulty kernel cannot upset
# the C code after it.
#
# Nothing here is secret; the trampolines are not constant-time code.
#
# Upper vector state. When the test sets the probe word (only on CPUs whose
# XGETBV supports ECX=1, CPUID.(EAX=0DH,ECX=1):EAX bit 2), the trampoline
# runs VZEROUPPER before the call, so the caller's state does not count,
# and right after it stores XINUSE (XGETBV with ECX=1): which state
# components are not in their initial configuration. An AVX kernel must
# return with YMM_Hi128 (bit 2) and ZMM_Hi256 (bit 6) clean; the test
# checks those bits (test/abi_test.cc says why not Hi16_ZMM, bit 7).
#
# struct abi_test_regs (test/abi_test.cc):
#   0 rbx, 8 rbp, 16 r12, 24 r13, 32 r14, 40 r15, 48 rdi, 56 rsi,
#   64 + 16*i xmm(6+i) for i = 0..9, 224 the DF step (+1 when clear),
#   232 the XINUSE probe flag (in), 240 XINUSE after the call (out).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use perlasm::driver;

my @gp = qw(rbx rbp r12 r13 r14 r15 rdi rsi);
my %off = map { ($gp[$_] => 8 * $_) } 0 .. $#gp;
my $DF = 224;
my $PROBE = 232;
my $XINUSE = 240;

# Before the call: clean upper state if the probe is on (uses rax).
sub probe_before {
    my ($tag) = @_;
    return <<___;
    cmp       qword [r11 + $PROBE], 0
    je        .L${tag}_no_vzeroupper
    vzeroupper
.L${tag}_no_vzeroupper:
___
}

# After the call, with r11 = regs: XINUSE into [r11 + 240] if the probe is
# on. Keeps fn's rax in r10 meanwhile; clobbers rcx and rdx.
sub probe_after {
    my ($tag) = @_;
    return <<___;
    mov       r10, rax
    cmp       qword [r11 + $PROBE], 0
    je        .L${tag}_no_xinuse
    mov       ecx, 1
    xgetbv                              # XINUSE in edx:eax
    mov       [r11 + $XINUSE], eax
    mov       [r11 + @{[ $XINUSE + 4 ]}], edx
.L${tag}_no_xinuse:
    mov       rax, r10
___
}

sub load_gp  { join '', map { "    mov       $_, [r11 + $off{$_}]\n" } @_ }
sub store_gp { join '', map { "    mov       [r11 + $off{$_}], $_\n" } @_ }
sub load_xmm  { join '', map { "    movdqu    xmm$_, [r11 + " . (64 + 16 * ($_ - 6)) . "]\n" } 6 .. 15 }
sub store_xmm { join '', map { "    movdqu    [r11 + " . (64 + 16 * ($_ - 6)) . "], xmm$_\n" } 6 .. 15 }

# Stores the DF step at [r11 + 224] using `scratch` (a frame slot) and
# restores rax from `saved`.
sub df_check {
    my ($scratch, $saved) = @_;
    return <<___;
    mov       [rsp + $saved], rax       # keep fn's return value
    lea       rdi, [rsp + $scratch]
    stosb                               # rdi += 1 if DF = 0, -= 1 if DF = 1
    lea       r10, [rsp + $scratch]
    sub       rdi, r10
    mov       [r11 + $DF], rdi
    cld
    mov       rax, [rsp + $saved]
___
}

my $code = <<___;
.text
# Frame: [rsp] regs, [rsp + 8] fn, [rsp + 16] scratch for the DF probe.
.function abi_test_call_sysv args=3 frame=32 secrets=none
    mov       [rsp], rdx
    mov       [rsp + 8], rdi
    mov       r10, rsi
    mov       r11, rdx
@{[ load_gp(qw(rbx rbp r12 r13 r14 r15)) ]}
    mov       rdi, [r10]
    mov       rsi, [r10 + 8]
    mov       rdx, [r10 + 16]
    mov       rcx, [r10 + 24]
    mov       r8, [r10 + 32]
    mov       r9, [r10 + 40]
@{[ probe_before('sysv') ]}
    call      qword [rsp + 8]           # rsp is 16-byte aligned here
    mov       r11, [rsp]
@{[ probe_after('sysv') ]}
@{[ store_gp(qw(rbx rbp r12 r13 r14 r15)) ]}
@{[ df_check(16, 8) ]}
.endfunction

# Frame: [rsp .. rsp+32) shadow space for fn, [rsp + 32] and [rsp + 40]
# arguments 5 and 6, [rsp + 48] regs, [rsp + 56] fn, [rsp + 64] scratch.
.function abi_test_call_win64 args=3 frame=80 secrets=none
    mov       [rsp + 48], rdx
    mov       [rsp + 56], rdi
    mov       r10, rsi
    mov       rax, [r10 + 32]
    mov       [rsp + 32], rax
    mov       rax, [r10 + 40]
    mov       [rsp + 40], rax
    mov       r11, rdx
@{[ load_gp(@gp) ]}
@{[ load_xmm() ]}
    mov       rcx, [r10]
    mov       rdx, [r10 + 8]
    mov       r8, [r10 + 16]
    mov       r9, [r10 + 24]
@{[ probe_before('win64') ]}
    call      qword [rsp + 56]          # rsp is 16-byte aligned here
    mov       r11, [rsp + 48]
@{[ probe_after('win64') ]}
@{[ store_gp(@gp) ]}
@{[ store_xmm() ]}
@{[ df_check(64, 56) ]}
.endfunction
___

perlasm::driver::finish('x86_64', $code);
