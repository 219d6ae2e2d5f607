# asm/perlasm/layout.pm: where the kernels find the fields of libgcm's C
# structures that they read, written once for every kernel. Each offset is
# asserted on the C side, so a change of layout fails the build there:
#   $ROUNDS           struct aes_schedule's `rounds`. Not restated here: it
#                     is read from AES_SCHEDULE_ROUNDS_OFFSET in
#                     crypto/aes/aes.h (its one home, asserted there), so
#                     C and the kernels agree by construction;
#   $PLANES           where a bitsliced schedule's bit planes start inside
#                     struct aes_schedule, read the same way from
#                     AES_SCHEDULE_PLANES_OFFSET in crypto/aes/aes.h;
#   $K_AES_KEY        struct fused_keys' aes_key and ghash_key pointers,
#   $K_GHASH_KEY      on 64-bit targets (crypto/fused/fused.h);
#   $LAG_XI           struct fused_lag's Xi, pending and has_pending, on
#   $LAG_PENDING      64-bit targets (crypto/fused/fused.h).
#   $LAG_HAS_PENDING
#   $OS_AAD           struct fused_oneshot's fields (Xi is at 0), read
#   $OS_CTR           from crypto/fused/fused.h's FUSED_ONESHOT_*_OFFSET.
#   $OS_KS
#   $OS_TAIL $OS_HMASK $OS_LENGTHS $OS_END
# `use perlasm::layout;` puts them in the kernel's namespace, so they
# interpolate in its assembly text like its own variables.
package perlasm::layout;

use strict;
use warnings;
use Exporter qw(import);
use File::Basename qw(dirname);
use File::Spec;

our @EXPORT = qw($ROUNDS $PLANES $K_AES_KEY $K_GHASH_KEY
                 $LAG_XI $LAG_PENDING $LAG_HAS_PENDING
                 $OS_AAD $OS_CTR $OS_KS $OS_TAIL $OS_HMASK $OS_LENGTHS $OS_END);

# c_define(<header relative to the source root>, <macro>): the value of an
# object-like #define in one of libgcm's C headers. The value is a decimal
# number or the name of another #define of the same header, followed until
# a number (how aes.h spells AES_SCHEDULE_ROUNDS_OFFSET). Dies, which fails
# the kernel's generation and so the build, when the header or the macro is
# missing or its value is anything else.
sub c_define {
    my ($header, $macro) = @_;
    my $root = File::Spec->catdir(dirname(__FILE__), File::Spec->updir,
                                  File::Spec->updir);
    my $path = File::Spec->catfile($root, $header);
    open(my $fh, '<', $path) or die "perlasm::layout: cannot read $path: $!\n";
    my %defines;
    while (my $line = <$fh>) {
        $defines{$1} = $2 if $line =~ /^\s*#\s*define\s+(\w+)\s+(\w+)\s*(?:\/\*.*)?$/;
    }
    close($fh);
    my ($name, %seen) = ($macro);
    while (1) {
        die "perlasm::layout: $header defines no $name\n"
            unless defined $defines{$name};
        my $value = $defines{$name};
        return $value + 0 if $value =~ /^[0-9]+$/;
        die "perlasm::layout: $header: $macro refers to itself\n" if $seen{$value}++;
        $name = $value;
    }
}

our $ROUNDS = c_define('crypto/aes/aes.h', 'AES_SCHEDULE_ROUNDS_OFFSET');
our $PLANES = c_define('crypto/aes/aes.h', 'AES_SCHEDULE_PLANES_OFFSET');
our $K_AES_KEY = 8;
our $K_GHASH_KEY = 24;
our $LAG_XI = 0;
our $LAG_PENDING = 8;
our $LAG_HAS_PENDING = 16;
our $OS_AAD = c_define('crypto/fused/fused.h', 'FUSED_ONESHOT_AAD_OFFSET');
our $OS_CTR = c_define('crypto/fused/fused.h', 'FUSED_ONESHOT_CTR_OFFSET');
our $OS_KS = c_define('crypto/fused/fused.h', 'FUSED_ONESHOT_KS_OFFSET');
our $OS_TAIL = c_define('crypto/fused/fused.h', 'FUSED_ONESHOT_TAIL_OFFSET');
our $OS_HMASK = c_define('crypto/fused/fused.h', 'FUSED_ONESHOT_HMASK_OFFSET');
our $OS_LENGTHS = c_define('crypto/fused/fused.h', 'FUSED_ONESHOT_LENGTHS_OFFSET');
our $OS_END = c_define('crypto/fused/fused.h', 'FUSED_ONESHOT_END_OFFSET');

1;
