# asm/perlasm/armv8_aes_common.pm: the counter blocks of a batch for the
# aarch64 AESE/AESMC counter-mode kernel, asm/aarch64/aes-armv8-aarch64.pl
# (the fused kernels keep theirs on the stack: perlasm/aes_gcm_armv8.pm).
#
# Both keep the caller's counter block in v31 and the 32-bit counter, in
# host order, in w11 (w12 is scratch); the counter is public in GCM.
package perlasm::armv8_aes_common;

use strict;
use warnings;

# counters(n): counter blocks for v0 .. v(n-1) from w11, then w11 += n.
# Each is v31 with its last word replaced by the big-endian counter, so
# the counter wraps modulo 2^32 without touching bytes 0..11.
sub counters {
    my ($n) = @_;
    my $c = '';
    for my $i (0 .. $n - 1) {
        $c .= $i ? "    add     w12, w11, $i\n" : "    mov     w12, w11\n";
        $c .= "    rev     w12, w12\n    mov     v$i.16b, v31.16b\n    mov     v$i.s[3], w12\n";
    }
    $c .= "    add     w11, w11, $n\n";
    return $c;
}

1;
