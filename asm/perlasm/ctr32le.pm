# asm/perlasm/ctr32le.pm: AES-GCM-SIV's counter mode (ctr32le) from a
# kernel's GCM counter mode (ctr32).
#
# The x86 ctr32 kernels (AES-NI and vpaes, x86_64 and 32-bit) turn the
# counter block around with PSHUFB and the mask .Lctr_swap (bytes 12..15
# reversed), step the big-endian counter as the little-endian dword 3 with
# PADDD, and turn each block back with the same mask. AES-GCM-SIV's counter
# (RFC 8452) is the little-endian dword 0: the mask .Lctr_swap_le, which
# exchanges dwords 0 and 3, moves it to where PADDD steps it, unchanged,
# and back. So ctr32le is the ctr32 function with that one constant
# changed. copy() makes it from the generated text, so the two can never
# differ in anything else.
package perlasm::ctr32le;

use strict;
use warnings;

# copy(code, fn): the function `fn` of `code`, renamed fn . "le", every
# label it defines renamed (suffix "_le"), and .Lctr_swap replaced by
# .Lctr_swap_le. Dies when the function or the mask is missing.
sub copy {
    my ($code, $fn) = @_;
    $code =~ /(^\.function \Q$fn\E\b.*?^\.endfunction\n)/ms
        or die "ctr32le: no function $fn\n";
    my $f = $1;
    my %labels = map { $_ => 1 } ($f =~ /^(\.L\w+):/mg);
    for my $l (sort { length $b <=> length $a } keys %labels) {
        $f =~ s/\Q$l\E\b/${l}_le/g;
    }
    $f =~ s/\.Lctr_swap\b/.Lctr_swap_le/g
        or die "ctr32le: $fn does not use .Lctr_swap\n";
    $f =~ s/^\.function \Q$fn\E\b/.function ${fn}le/m;
    return "\n$f";
}

1;
