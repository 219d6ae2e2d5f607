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
#     place, it hashes the blocks as they are: POLYVAL on the POLYVAL key,
#     with S itself as the running value. Its counter is made either with
#     the same full reversal (then dropping it leaves AES-GCM-SIV's
#     counter in dword 0, where the kernel's VPADDD steps it) or with
#     .Lctr_swap, replaced by .Lctr_swap_le as in ctr32le. A kernel whose
#     `fn` hashes its output (GCM's seal) gives AES-GCM-SIV's open:
#     decrypt, and POLYVAL of the plaintext.
#
# Both rename the function and every label it defines (suffix "_le" or
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
    die "siv_copy: $fn has no shuffle with the mask\n" if $n == 0;
    $f =~ s/\.Lctr_swap\b/.Lctr_swap_le/g;
    die "siv_copy: $fn still shuffles with the mask\n" if $f =~ /vpshufb.*,\s*$mask/;
    return "\n$f";
}

1;
