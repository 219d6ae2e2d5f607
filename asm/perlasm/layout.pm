# asm/perlasm/layout.pm: where the kernels find the fields of libgcm's C
# structures that they read, written once for every kernel. Each offset is
# asserted on the C side, so a change of layout fails the build there:
#   $ROUNDS           struct aes_schedule's `rounds` (the descriptors of
#                     the AES backends that read it: crypto/aes/aes_*.c,
#                     and the fused descriptors, crypto/fused/fused_*.c);
#   $K_AES_KEY        struct fused_keys' aes_key and ghash_key pointers,
#   $K_GHASH_KEY      on 64-bit targets (crypto/fused/fused.h);
#   $LAG_XI           struct fused_lag's Xi, pending and has_pending, on
#   $LAG_PENDING      64-bit targets (crypto/fused/fused.h).
#   $LAG_HAS_PENDING
# `use perlasm::layout;` puts them in the kernel's namespace, so they
# interpolate in its assembly text like its own variables.
package perlasm::layout;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT = qw($ROUNDS $K_AES_KEY $K_GHASH_KEY
                 $LAG_XI $LAG_PENDING $LAG_HAS_PENDING);

our $ROUNDS = 1920;
our $K_AES_KEY = 8;
our $K_GHASH_KEY = 24;
our $LAG_XI = 0;
our $LAG_PENDING = 8;
our $LAG_HAS_PENDING = 16;

1;
