# asm/perlasm/siv_copy.pm: AES-GCM-SIV's kernels (RFC 8452) made from the
# GCM kernels' generated text, so that the two can never differ in
# anything but what the modes themselves differ in.
#
# The two modes differ in byte order only. AES-GCM-SIV's counter is the
# little-endian dword 0 of the counter block, GCM's the big-endian dword
# 3; POLYVAL reads a block in the byte order GHASH reads its byte
# reversal (RFC 8452, appendix A), with the GHASH key of
# mulX_GHASH(ByteReverse(h)) (crypto/siv/polyval.c).
#
#   ctr32le(code, fn[, new]): the x86 ctr32 kernels (AES-NI and vpaes, x86_64
#     and 32-bit) turn the counter block around with PSHUFB and the mask
#     .Lctr_swap (bytes 12..15 reversed), step the big-endian counter as
#     the little-endian dword 3 with PADDD, and turn each block back with
#     the same mask. With .Lctr_swap_le, which exchanges dwords 0 and 3,
#     the same code moves AES-GCM-SIV's counter, already little-endian,
#     to where PADDD steps it, unchanged, and back: fn . "le" (or `new`).
#
#   polyval_form(code, fn, new, mask, mov): a fused x86_64 kernel's
#     function with both byte orders changed. Such a kernel reverses every
#     block it hashes, and the running hash on entry and exit, with one
#     full byte-reversal mask (`mask`, a regular expression for the
#     operand: a register holding it, or its memory operand). With each of
#     those shuffles made a move (`mov`), or dropped when it works in
#     place (as a legacy SSE PSHUFB always does), it hashes the blocks as they are: POLYVAL on the POLYVAL key,
#     with S itself as the running value. Its counter is made either with
#     the same full reversal (then dropping it leaves AES-GCM-SIV's
#     counter in dword 0, where the kernel's VPADDD steps it) or with
#     .Lctr_swap, replaced by .Lctr_swap_le as in ctr32le. A kernel whose
#     `fn` hashes its output (GCM's seal) gives AES-GCM-SIV's open:
#     decrypt, and POLYVAL of the plaintext.
#
#   The aarch64 kernels keep the counter in a general-purpose register in
#   host order, loaded from ctr[12..15] and byte-reversed (REV) once, and
#   write REV(w11 + i) as word 3 of each counter block: inserted into a
#   copy of the block (armv8's ctr32, perlasm/armv8_aes_common.pm) or
#   stored into counter blocks on the stack (the fused kernel,
#   perlasm/aes_gcm_armv8.pm). They reverse each block they hash with
#   REV64, which leaves the reflected form with its halves swapped (the
#   key holds the powers swapped to match), and the running hash with
#   REV64 and EXT #8 on entry and exit.
#   a64_ctr32le(code, fn, new): AES-GCM-SIV's counter mode from such a
#     ctr32: the counter loaded from ctr[0..3], never reversed, and put in
#     word 0 (little-endian on these machines, as RFC 8452's counter is).
#   a64_polyval(code, fn, new): POLYVAL from a GHASH function: the running
#     hash's REV64 and EXT pairs dropped, and each block's REV64 made an
#     EXT #8 (a POLYVAL block is the reflected form itself: swapping its
#     halves gives what REV64 gave the GCM block).
#   a64_siv_open(code, fn, new): both, on a fused kernel's seal (the
#     vector GHASH; the EOR3 kernel's scalar GHASH is not converted).
#
# All rename the function and every label it defines (suffix "_le" or
# "_siv"), and die when the function or what they change is missing.
package perlasm::siv_copy;

use strict;
use warnings;

# extract(code, fn, new, suffix): the function `fn` of `code`, renamed
# `new`, its labels suffixed.
sub extract {
    my ($code, $fn, $new, $suffix) = @_;
    $code =~ /(^\.function \Q$fn\E\b.*?^\.endfunction\n)/ms
        or die "siv_copy: no function $fn\n";
    my $f = $1;
    my %labels = map { $_ => 1 } ($f =~ /^(\.L\w+):/mg);
    for my $l (sort { length $b <=> length $a } keys %labels) {
        $f =~ s/\Q$l\E\b/$l$suffix/g;
    }
    $f =~ s/^\.function \Q$fn\E\b/.function $new/m;
    return $f;
}

sub ctr32le {
    my ($code, $fn, $new) = @_;
    my $f = extract($code, $fn, $new // "${fn}le", '_le');
    $f =~ s/\.Lctr_swap\b/.Lctr_swap_le/g
        or die "siv_copy: $fn does not use .Lctr_swap\n";
    return "\n$f";
}

sub polyval_form {
    my ($code, $fn, $new, $mask, $mov) = @_;
    my $f = extract($code, $fn, $new, '_siv');
    my $n = 0;
    $f =~ s{^(\s*)vpshufb\s+(\w+),\s*(\w+),\s*$mask[ \t]*(#.*)?\n}{
        $n++;
        $2 eq $3 ? '' : "$1$mov $2, $3\n"
    }gme;
    # The legacy SSE form shuffles in place: dropped.
    $n += ($f =~ s{^\s*pshufb\s+\w+,\s*$mask[ \t]*(#.*)?\n}{}gm);
    die "siv_copy: $fn has no shuffle with the mask\n" if $n == 0;
    $f =~ s/\.Lctr_swap\b/.Lctr_swap_le/g;
    die "siv_copy: $fn still shuffles with the mask\n" if $f =~ /pshufb.*,\s*$mask/;
    return "\n$f";
}

sub a64_counter_le {
    my ($f, $fn) = @_;
    $f =~ s/^(\s*)ldr(\s+)w11, \[x4, 12\]/$1ldr$2w11, [x4]/m
        or die "siv_copy: $fn does not load the counter from ctr + 12\n";
    $f =~ s/^\s*rev\s+w11, w11\n//m
        or die "siv_copy: $fn does not reverse the counter\n";
    my $made = ($f =~ s/^\s*rev\s+w12, w12\n//mg);
    $made += ($f =~ s/^(\s*)rev(\s+)w12, w11\b/$1mov$2w12, w11/mg);
    my $put = ($f =~ s/(mov\s+v\d+)\.s\[3\], w12/$1.s[0], w12/g);
    $put += ($f =~ s{(str\s+w12, \[sp, )(\d+)\]}{
        die "siv_copy: $fn stores the counter at sp + $2\n" if $2 % 16 != 12;
        $1 . ($2 - 12) . "]"
    }ge);
    die "siv_copy: $fn: $made counter words made, $put put in place\n"
        if !$made || $made != $put;
    die "siv_copy: $fn still reverses a counter\n" if $f =~ /^\s*rev\s+w1[12],/m;
    return $f;
}

sub a64_unreverse {
    my ($f, $fn) = @_;
    my $pairs = ($f =~ s/^\s*rev64\s+(v\d+)\.16b, \1\.16b[ \t]*(?:#[^\n]*)?\n\s*ext\s+\1\.16b, \1\.16b, \1\.16b, 8[ \t]*(?:#[^\n]*)?\n//mg);
    my $blocks = ($f =~ s/^(\s*)rev64(\s+)(v\d+)\.16b, \3\.16b/$1ext$2$3.16b, $3.16b, $3.16b, 8/mg);
    die "siv_copy: $fn: no running hash reversed ($pairs) or no block ($blocks)\n"
        if !$pairs || !$blocks;
    return $f;
}

sub a64_ctr32le {
    my ($code, $fn, $new) = @_;
    return "\n" . a64_counter_le(extract($code, $fn, $new, '_le'), $fn);
}

sub a64_polyval {
    my ($code, $fn, $new) = @_;
    return "\n" . a64_unreverse(extract($code, $fn, $new, '_siv'), $fn);
}

sub a64_siv_open {
    my ($code, $fn, $new) = @_;
    my $f = extract($code, $fn, $new, '_siv');
    return "\n" . a64_unreverse(a64_counter_le($f, $fn), $fn);
}

1;
