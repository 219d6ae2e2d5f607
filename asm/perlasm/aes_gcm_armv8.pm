# asm/perlasm/aes_gcm_armv8.pm: the generator of the aarch64 fused AES-CTR +
# GHASH kernels, asm/aarch64/aes-gcm-armv8-pmull-aarch64.pl (Armv8.0) and
# asm/aarch64/aes-gcm-armv8-pmull-eor3-aarch64.pl (FEAT_SHA3: EOR3, the
# three-way XOR). The algorithm, both register plans and the constant-time
# argument are in the opening comment of aes-gcm-armv8-pmull-aarch64.pl;
# this module writes them out.
#
# kernel(eor3 => 0|1, name => PREFIX) returns the perlasm text of the two
# functions PREFIX_seal and PREFIX_open:
#   eor3 => 0  GHASH operands made in SIMD registers (REV64, one EXT + EOR
#              for the Karatsuba operand), sums with EOR: the fewest
#              general-purpose instructions, which the in-order cores
#              favour;
#   eor3 => 1  GHASH operands made in general-purpose registers (LDP, REV,
#              EOR, then FMOV into SIMD registers) and sums of three with
#              EOR3: the fewest instructions on the SIMD pipes, which bound
#              the wide cores that have FEAT_SHA3 (Neoverse V1 and later).
package perlasm::aes_gcm_armv8;

use strict;
use warnings;
use perlasm::layout;    # $ROUNDS, $K_AES_KEY, $K_GHASH_KEY
use perlasm::slot_scheduler qw(op schedule in_order);

# The pmull GHASH key (asm/aarch64/ghash-pmull-aarch64.pl), for K_k =
# H^k * x^-1, k = 1..8: K_k with its halves swapped at 16*(k-1) (high
# half, then low half), the XOR of its halves at 128 + 8*(k-1).
sub kswp { 16 * ($_[0] - 1) }
sub khi  { kswp($_[0]) }
sub klo  { kswp($_[0]) + 8 }
sub kmid { 128 + 8 * ($_[0] - 1) }

my @ACC = ('v8', 'v9', 'v10');    # lo, hi, mid; v9 also carries Y (vector style)

sub dreg { my ($v) = @_; $v =~ s/^v/d/; return $v }
sub qreg { my ($v) = @_; $v =~ s/^v/q/; return $v }

# The reduction constant c = 0xC2 << 56 in lane 0 is read from x10.
# [hi : mid : lo] (v9 : v10 : v8, mid not yet Karatsuba-corrected) -> Y
# in v9: Montgomery reduction by y^128 in two 64-bit steps with the mid
# fold merged into them (derivation in the kernel's comment):
#     T  = lo.0 * c;  V = mid ^ lo ^ hi ^ T ^ swap(lo)
#     T' = V.0 * c;   Y = hi ^ T' ^ swap(V)
sub reduce_ops {
    my ($eor3, $c, $t, $s, $t2, $s2) = @_;
    my ($lo, $hi, $mid) = @ACC;
    my @o = (op("ldr     @{[dreg($c)]}, [x10]"),
             op("pmull   $t.1q, $lo.1d, $c.1d"),
             op("ext     $s.16b, $lo.16b, $lo.16b, 8"));
    if ($eor3) {
        push @o, op("eor3    $mid.16b, $mid.16b, $lo.16b, $hi.16b"),
                 op("eor3    $mid.16b, $mid.16b, $t.16b, $s.16b");
    } else {
        # mid ^ hi, lo ^ swap(lo) and the rest as a tree of EORs.
        push @o, op("eor     $mid.16b, $mid.16b, $hi.16b"),
                 op("eor     $s.16b, $s.16b, $lo.16b"),
                 op("eor     $mid.16b, $mid.16b, $t.16b"),
                 op("eor     $mid.16b, $mid.16b, $s.16b");
    }
    push @o, op("pmull   $t2.1q, $mid.1d, $c.1d"),
             op("ext     $s2.16b, $mid.16b, $mid.16b, 8");
    if ($eor3) {
        push @o, op("eor3    $hi.16b, $hi.16b, $t2.16b, $s2.16b");
    } else {
        push @o, op("eor     $t2.16b, $t2.16b, $s2.16b"), op("eor     $hi.16b, $hi.16b, $t2.16b");
    }
    return @o;
}

# --- Vector style (eor3 => 0) -------------------------------------------
# Blocks in pairs: each block's D (the block), K (the swapped K_k, then the
# hi product) and P (the lo product), the pair's Karatsuba operands in one
# register M (TRN1/TRN2 of the two blocks, EOR) multiplied by the key's
# two half sums; the first pair's block 0 puts its products straight into
# the accumulators. Y (reflected) is in v9 on entry and on exit.

sub ghash_ops_vector {
    my ($n) = @_;
    return ghash_ops_vector_one() if $n == 1;
    my @o;
    my ($Da, $Db, $M, $T2, $Ka, $Pa, $Kb, $Pb) =
        ('v11', 'v12', 'v13', 'v14', 'v15', 'v16', 'v17', 'v31');
    for (my $b = 0; $b < $n; $b += 2) {
        # Blocks a = b and b + 1, with K_ka (ka = n - b, even) and K_kb
        # (kb = ka - 1, odd), whose half sums share 16 bytes of the key
        # (K_kb's in lane 0).
        my ($ka, $kb) = ($n - $b, $n - $b - 1);
        my ($pa, $qa, $ma) = $b == 0 ? @ACC : ($Pa, $Ka, $T2);
        push @o, op("ldr     @{[qreg($Da)]}, [x8, @{[16 * $b]}]"),
                 op("ldr     @{[qreg($Db)]}, [x8, @{[16 * $b + 16]}]"),
                 # REV64 alone leaves the halves swapped: D = [R.hi, R.lo];
                 # the swapped K_k = [K.hi, K.lo] pairs them again.
                 op("rev64   $Da.16b, $Da.16b"), op("rev64   $Db.16b, $Db.16b");
        push @o, op("ext     $T2.16b, v9.16b, v9.16b, 8"), op("eor     $Da.16b, $Da.16b, $T2.16b")
            if $b == 0;
        # The Karatsuba operands of both blocks in one register:
        # [b.lo ^ b.hi, a.lo ^ a.hi].
        push @o, op("trn1    $M.2d, $Db.2d, $Da.2d"), op("trn2    $T2.2d, $Db.2d, $Da.2d"),
                 op("eor     $M.16b, $M.16b, $T2.16b"),
                 op("ldr     @{[qreg($qa)]}, [x7, @{[kswp($ka)]}]"),
                 op("pmull2  $pa.1q, $Da.2d, $qa.2d"), op("pmull   $qa.1q, $Da.1d, $qa.1d"),
                 op("ldr     @{[qreg($Kb)]}, [x7, @{[kswp($kb)]}]"),
                 op("pmull2  $Pb.1q, $Db.2d, $Kb.2d"), op("pmull   $Kb.1q, $Db.1d, $Kb.1d"),
                 op("ldr     @{[qreg($Da)]}, [x7, @{[kmid($kb)]}]"),
                 op("pmull2  $ma.1q, $M.2d, $Da.2d"), op("pmull   $M.1q, $M.1d, $Da.1d");
        if ($b == 0) {
            push @o, op("eor     v8.16b, v8.16b, $Pb.16b"), op("eor     v9.16b, v9.16b, $Kb.16b"),
                     op("eor     v10.16b, v10.16b, $M.16b");
        } else {
            # The pair's sums first (a shorter chain of dependent EORs).
            push @o, op("eor     $Pa.16b, $Pa.16b, $Pb.16b"), op("eor     $Ka.16b, $Ka.16b, $Kb.16b"),
                     op("eor     $T2.16b, $T2.16b, $M.16b"),
                     op("eor     v8.16b, v8.16b, $Pa.16b"), op("eor     v9.16b, v9.16b, $Ka.16b"),
                     op("eor     v10.16b, v10.16b, $T2.16b");
        }
    }
    push @o, reduce_ops(0, 'v11', 'v12', 'v13', 'v14', 'v15');
    return @o;
}

# One block (the tail) times K_1, products straight into the sums.
sub ghash_ops_vector_one {
    my ($D, $M) = ('v11', 'v12');
    my @o = (op("ldr     @{[qreg($D)]}, [x8]"), op("rev64   $D.16b, $D.16b"),
             op("ext     $M.16b, v9.16b, v9.16b, 8"), op("eor     $D.16b, $D.16b, $M.16b"),
             op("ext     $M.16b, $D.16b, $D.16b, 8"), op("eor     v10.16b, $M.16b, $D.16b"),
             op("ldr     q9, [x7, @{[kswp(1)]}]"),
             op("pmull2  v8.1q, $D.2d, v9.2d"), op("pmull   v9.1q, $D.1d, v9.1d"),
             op("ldr     @{[dreg($D)]}, [x7, @{[kmid(1)]}]"),
             op("pmull   v10.1q, v10.1d, $D.1d"));
    push @o, reduce_ops(0, 'v11', 'v12', 'v13', 'v14', 'v15');
    return @o;
}

# --- Scalar style (eor3 => 1) -------------------------------------------
# Block b: its two halves loaded into general-purpose registers (LDP),
# byte-reversed (REV) and XORed (the Karatsuba operand), moved into lane 0
# of three SIMD registers (FMOV), each multiplied by the matching 64-bit
# key value (LDR d). Y (reflected) is in x20 (low) and x21 (high) between
# batches, XORed into block 0 there.
my @XSET = (['x13', 'x14', 'x15'], ['x16', 'x17', 'x19']);
my @SSET = (['v11', 'v12', 'v13'], ['v14', 'v15', 'v16']);
my @KREG = ('v17', 'v31');
my ($YLO, $YHI) = ('x20', 'x21');

sub ghash_ops_scalar {
    my ($n) = @_;
    my @o;
    my $kturn = 0;
    my @prod;
    for my $b (0 .. $n - 1) {
        my $k = $n - $b;
        my ($xa, $xb, $xm) = @{ $XSET[$b % 2] };
        my @v = $b == 0 ? @ACC : @{ $SSET[$b % 2] };
        push @o, op("ldp     $xa, $xb, [x8, @{[16 * $b]}]"),
                 op("rev     $xb, $xb"), op("rev     $xa, $xa");
        push @o, op("eor     $xb, $xb, $YLO"), op("eor     $xa, $xa, $YHI") if $b == 0;
        push @o, op("eor     $xm, $xa, $xb"),
                 op("fmov    @{[dreg($v[0])]}, $xb"), op("fmov    @{[dreg($v[1])]}, $xa"),
                 op("fmov    @{[dreg($v[2])]}, $xm");
        my @koff = (klo($k), khi($k), kmid($k));
        for my $h (0 .. 2) {
            my $kr = $KREG[$kturn++ % 2];
            push @o, op("ldr     @{[dreg($kr)]}, [x7, $koff[$h]]"),
                     op("pmull   $v[$h].1q, $v[$h].1d, $kr.1d");
        }
        push @prod, \@v;
        # Blocks 1+2, 3+4, 5+6 folded in with one EOR3 per accumulator,
        # a last odd block with EOR.
        next if $b == 0 || ($b % 2 == 1 && $b != $n - 1);
        if ($b % 2 == 0) {
            push @o, op("eor3    $ACC[$_].16b, $ACC[$_].16b, $prod[$b - 1][$_].16b, "
                        . "$prod[$b][$_].16b") for 0 .. 2;
        } else {
            push @o, op("eor     $ACC[$_].16b, $ACC[$_].16b, $prod[$b][$_].16b") for 0 .. 2;
        }
    }
    push @o, reduce_ops(1, 'v11', 'v12', 'v13', 'v14', 'v15'),
             op("fmov    $YLO, d9"), op("mov     $YHI, v9.d[1]");
    return @o;
}

# --- AES --------------------------------------------------------------------

# The counter words of the next batch (w11 + 8 .. w11 + 15, big-endian)
# into the last word of the eight stack slots, then w11 += 8. w11 is the
# counter of the batch being encrypted (its slots were written one batch
# earlier, so no load waits for a store just made).
sub counter_ops {
    my @o;
    for my $i (0 .. 7) {
        push @o, op("add     w12, w11, @{[8 + $i]}"), op("rev     w12, w12"),
                 op("str     w12, [sp, @{[16 * $i + 12]}]");
    }
    push @o, op("add     w11, w11, 8");
    return @o;
}

# The eight input blocks of the XOR, into registers the GHASH work has
# finished with (the scheduler orders them after it), in pairs.
my @DATA = ('v11', 'v12', 'v13', 'v14', 'v15', 'v16', 'v18', 'v19');
sub data_ops {
    my ($eor3) = @_;
    return map { op("ldr     @{[qreg($DATA[$_])]}, [x2, @{[16 * $_]}]") } 0 .. 7;
}

# One AESE+AESMC pair per block and round: the scheduler's fixed units.
sub pairs {
    my ($key, $n) = @_;
    return map { "    aese    v$_.16b, $key.16b\n    aesmc   v$_.16b, v$_.16b\n" } 0 .. $n - 1;
}

# The rounds that only AES-192 (rk0, rk1) and AES-256 (rk0..rk3) have,
# their keys read from the schedule into v18/v19 in each batch; then
# .Lr10_$tag, where the nine rounds with v20..v28 start.
sub extra_rounds {
    my ($n, $tag) = @_;
    my $c = "    cmp     w9, 12\n    b.lt    .Lr10_$tag\n    b.eq    .Lr12_$tag\n";
    $c .= "    ldp     q18, q19, [x6]\n" . join('', pairs('v18', $n));
    $c .= "    ldr     q18, [x6, 32]\n" . join('', pairs('v19', $n));
    $c .= "    ldr     q19, [x6, 48]\n" . join('', pairs('v18', $n)) . join('', pairs('v19', $n));
    $c .= "    b       .Lr10_$tag\n.Lr12_$tag:\n";
    $c .= "    ldp     q18, q19, [x6]\n" . join('', pairs('v18', $n)) . join('', pairs('v19', $n));
    $c .= ".Lr10_$tag:\n";
    return $c;
}

# A batch of eight: counter blocks from the stack, the rounds with @$free
# scheduled between the common ones, then out = in ^ keystream ^ rk[Nr]
# (the inputs are among @$free: data_ops) and the stores.
sub batch8 {
    my ($tag, $eor3, $free) = @_;
    my $c = join '', map { "    ldr     q$_, [sp, @{[16 * $_]}]\n" } 0 .. 7;
    $c .= extra_rounds(8, $tag);
    my @units = map { pairs('v' . (20 + $_), 8) } 0 .. 8;
    push @units, map { "    aese    v$_.16b, v29.16b\n" } 0 .. 7;
    # Up to three SIMD instructions after each pair, the quick ones in
    # groups of up to eight after every third pair (slot_scheduler.pm).
    $c .= schedule(units => \@units, ops => $free, vcap => 3, cap => 10, gap => 1,
                   group => 3, gcap => 8);
    for my $b (0 .. 7) {
        $c .= $eor3 ? "    eor3    v$b.16b, v$b.16b, $DATA[$b].16b, v30.16b\n"
                    : "    eor     v$b.16b, v$b.16b, $DATA[$b].16b\n";
    }
    $c .= join '', map { "    eor     v$_.16b, v$_.16b, v30.16b\n" } 0 .. 7 unless $eor3;
    $c .= join '', map { "    stp     q@{[2 * $_]}, q@{[2 * $_ + 1]}, [x1], 32\n" } 0 .. 3;
    $c .= "    add     x2, x2, 128\n";
    return $c;
}

# One block in v0 (tail): counter from slot 0's bytes with w11, w11 += 1.
sub tail_block {
    my ($tag) = @_;
    my $c = "    ldr     q0, [sp]\n    rev     w12, w11\n    mov     v0.s[3], w12\n"
          . "    add     w11, w11, 1\n";
    $c .= extra_rounds(1, $tag);
    $c .= join '', pairs("v$_", 1) for 20 .. 28;
    $c .= "    aese    v0.16b, v29.16b\n    eor     v0.16b, v0.16b, v30.16b\n";
    return $c;
}

sub reverse16 {
    my ($v) = @_;
    return "    rev64   $v.16b, $v.16b\n    ext     $v.16b, $v.16b, $v.16b, 8\n";
}

# Keys, counters, Y. The stack frame holds eight counter blocks: the
# caller's bytes 0..11 and a big-endian counter word each.
sub setup {
    my ($eor3) = @_;
    my $c = <<___;
    ldr     x6, [x0, $K_AES_KEY]    # public: the AES schedule's address
    ldr     x7, [x0, $K_GHASH_KEY]  # public: the GHASH key's address
    ldr     w9, [x6, $ROUNDS]       # public: Nr follows from the key length
    # rk[Nr-10 .. Nr] into v20 .. v30; AES-192/256 read their first round
    # keys from the schedule in each batch.
    sub     w10, w9, 10
    add     x10, x6, x10, lsl 4
    ld1     {v20.16b-v23.16b}, [x10], 64
    ld1     {v24.16b-v27.16b}, [x10], 64
    ld1     {v28.16b-v30.16b}, [x10]
    adrl    x10, .Laes_gcm_armv8_pmull_c
    ld1     {v0.16b}, [x4]
    stp     q0, q0, [sp]
    stp     q0, q0, [sp, 32]
    stp     q0, q0, [sp, 64]
    stp     q0, q0, [sp, 96]
    ldr     w11, [x4, 12]
    rev     w11, w11
___
    for my $i (0 .. 7) {
        $c .= "    add     w12, w11, $i\n    rev     w12, w12\n    str     w12, [sp, @{[16 * $i + 12]}]\n";
    }
    $c .= $eor3 ? "    ldp     $YHI, $YLO, [x5]\n    rev     $YLO, $YLO\n    rev     $YHI, $YHI\n"
                : "    ld1     {v9.16b}, [x5]\n" . reverse16('v9');
    return $c;
}

sub finish {
    my ($dir, $eor3) = @_;
    my $c = ".L${dir}_store:\n";
    $c .= $eor3 ? "    rev     $YLO, $YLO\n    rev     $YHI, $YHI\n    stp     $YHI, $YLO, [x5]\n"
                : reverse16('v9') . "    st1     {v9.16b}, [x5]\n";
    return $c . ".L${dir}_done:\n";
}

my $PUBLIC = 'x0,x1,x2,x3,x4,x5,x6,x7,x8,x9,x10';

sub kernel {
    my (%a) = @_;
    my ($eor3, $name) = @a{qw(eor3 name)};
    my $gh = $eor3 ? \&ghash_ops_scalar : \&ghash_ops_vector;
    my @g8 = $gh->(8);
    my @g1 = $gh->(1);
    my @ctr = counter_ops();
    my @data = data_ops($eor3);
    return <<___;
.rodata
.align 16
.Laes_gcm_armv8_pmull_c:
.quad 0xc200000000000000, 0   # the reduction constant c, in lane 0

.text
.function ${name}_seal args=6 frame=128 public=$PUBLIC
    cbz     x3, .Lseal_done
@{[setup($eor3)]}
    cmp     x3, 8
    b.lo    .Lseal_tail
    # The first batch: AES only.
@{[batch8('seal_first', $eor3, [@ctr, @data])]}
    sub     x3, x3, 8
.Lseal_loop8:
    cmp     x3, 8
    b.lo    .Lseal_last
    # This batch's AES with the previous batch's GHASH (re-read from out).
    sub     x8, x1, 128
@{[batch8('seal8', $eor3, [@g8, @ctr, @data])]}
    sub     x3, x3, 8
    b       .Lseal_loop8
.Lseal_last:
    # The last batch's GHASH, alone.
    sub     x8, x1, 128
@{[in_order(\@g8)]}
.Lseal_tail:
    cbz     x3, .Lseal_store
@{[tail_block('seal1')]}
    ld1     {v18.16b}, [x2], 16
    eor     v0.16b, v0.16b, v18.16b
    st1     {v0.16b}, [x1], 16
    sub     x8, x1, 16
@{[in_order(\@g1)]}
    sub     x3, x3, 1
    b       .Lseal_tail
@{[finish('seal', $eor3)]}
.endfunction

.function ${name}_open args=6 frame=128 public=$PUBLIC
    cbz     x3, .Lopen_done
@{[setup($eor3)]}
.Lopen_loop8:
    cmp     x3, 8
    b.lo    .Lopen_tail
    # This batch's AES with its own input's GHASH (read before any store).
    mov     x8, x2
@{[batch8('open8', $eor3, [@g8, @ctr, @data])]}
    sub     x3, x3, 8
    b       .Lopen_loop8
.Lopen_tail:
    cbz     x3, .Lopen_store
    mov     x8, x2
@{[in_order(\@g1)]}
@{[tail_block('open1')]}
    ld1     {v18.16b}, [x2], 16
    eor     v0.16b, v0.16b, v18.16b
    st1     {v0.16b}, [x1], 16
    sub     x3, x3, 1
    b       .Lopen_tail
@{[finish('open', $eor3)]}
.endfunction
___
}

1;
