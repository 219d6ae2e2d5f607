#!/usr/bin/env perl
# asm/test/ct_check_test.pl: the secret-register checks (asm/perlasm/
# ctcheck_x86.pm, ctcheck_aarch64.pm, ctcheck_arm.pm) refuse what they promise to refuse.
#
# Each case is a tiny kernel written to a scratch file and translated by a
# separate perl process exactly as the build translates a kernel
# (`perl KERNEL.pl elf OUTPUT`). A planted violation must make that fail,
# with no output file and a message naming the rule and the instruction; the
# clean controls must translate, so the check is not simply refusing
# everything. Usage: perl ct_check_test.pl SCRATCH_DIR
use strict;
use warnings;
use FindBin;
use File::Spec;

my $perlasm_lib = File::Spec->rel2abs("$FindBin::Bin/..");
my $dir = shift @ARGV or die "usage: $0 SCRATCH_DIR\n";
mkdir $dir unless -d $dir;

# [name, function body, expected message (undef: must translate), options]
my @cases = (
    # Controls.
    ['clean', <<'___', undef],
    movdqu  xmm0, [rsi]
    pxor    xmm0, xmm1
    movdqu  [rdi], xmm0
    add     rsi, 16
    sub     rdx, 1
    jnz     .Lclean_done
.Lclean_done:
___
    ['annotated load', <<'___', undef],
    mov     eax, [rdi + 240]     # public: a round count
    cmp     eax, 10
    je      .Lann_done
.Lann_done:
___
    # address
    ['secret base', <<'___', qr/\(address\).*mov +rax, \[r11\]'.*'r11'/],
    movq    r11, xmm0
    mov     rax, [r11]
___
    ['secret index', <<'___', qr/\(address\).*'r11'/],
    pextrb  r11d, xmm2, 3
    movdqu  xmm1, [rsi + 8*r11]
___
    ['secret lea', <<'___', qr/\(address\).*lea/],
    movd    r11d, xmm0
    lea     rsi, [rsi + r11]
___
    # leak
    ['vector to public', <<'___', qr/\(leak\).*'rax' from xmm3/],
    movq    rax, xmm3
___
    ['load to public', <<'___', qr/\(leak\).*'rcx' from memory/],
    mov     rcx, [rsi]
___
    ['arith with secret', <<'___', qr/\(leak\).*'rdx' from r11/],
    movd    r11d, xmm0
    add     rdx, r11
___
    ['mul into public', <<'___', qr/\(leak\).*'rax'/],
    movq    r11, xmm0
    mul     r11
___
    # flags
    ['branch on secret', <<'___', qr/\(flags\).*jz uses flags set by 'test r11, r11'/],
    movq    r11, xmm0
    test    r11, r11
    jz      .Lb_done
.Lb_done:
___
    ['ptest branch', <<'___', qr/\(flags\).*jnz.*ptest/],
    ptest   xmm0, xmm0
    jnz     .Lp_done
.Lp_done:
___
    ['cmov on secret', <<'___', qr/\(flags\).*cmovne/],
    movq    r11, xmm0
    cmp     r11, 5
    cmovne  r10, r9
___
    ['setcc on secret', <<'___', qr/\(flags\).*sete/],
    movq    r11, xmm0
    cmp     r11, rdx
    sete    r10b
___
    ['flags across a label', <<'___', qr/\(flags\).*since the last label/],
    cmp     rdx, 0
.Lx_top:
    jne     .Lx_top
___
    ['loop on secret rcx', <<'___', qr/\(flags\).*loop branches on rcx/, 'rdi,rsi,rdx'],
    movq    rcx, xmm0
.Ll_top:
    loop    .Ll_top
___
    # jump
    ['call through secret', <<'___', qr/\(jump\).*call through r11/],
    movq    r11, xmm0
    call    r11
___
    ['jump through memory', <<'___', qr/\(jump\).*jmp through memory/],
    jmp     qword [rsi]
___
    # timing
    ['div of secret', <<'___', qr/\(timing\).*div on r11/],
    movq    r11, xmm0
    div     r11
___
    # declarations
    ['no declaration', <<'___', qr/needs public=/, 'none'],
    pxor    xmm0, xmm0
___
    ['vector declared public', <<'___', qr/only general-purpose and opmask registers/, 'xmm0'],
    pxor    xmm0, xmm0
___
    # mask (AVX-512 masked loads and stores)
    ['public mask', <<'___', undef, 'rdi,rsi,rdx,rcx,rax,r8,k1,k2'],
    lea     r8, [rcx + rcx]
    kmovd   k1, r8d
    kshiftrd k2, k1, 8
    vmovdqu64 zmm0{k1}{z}, [rsi]
    vmovdqu64 [rdi]{k2}, zmm0
___
    ['undeclared mask store', <<'___', qr/\(mask\).*'k3'/, 'rdi,rsi,rdx,rcx,rax,r8,k1'],
    kmovd   k3, r8d
    vmovdqu64 [rdi]{k3}, zmm0
___
    ['undeclared mask load', <<'___', qr/\(mask\).*'k2'/, 'rdi,rsi,rdx,rcx,rax,r8,k1'],
    vmovdqu8 zmm1{k2}{z}, [rsi]
___
    ['secret into public mask', <<'___', qr/\(leak\).*'k1' from zmm1/, 'rdi,rsi,rdx,rcx,rax,r8,k1'],
    vpcmpeqb k1, zmm1, zmm2
___
    ['mask from secret register', <<'___', qr/\(leak\).*'k1' from r11/, 'rdi,rsi,rdx,rcx,rax,r8,k1'],
    movq    r11, xmm0
    kmovq   k1, r11
___
    ['annotation without reason', <<'___', qr/needs a reason/],
    mov     eax, [rdi]      # public:
___
    # 32-bit x86 (perlasm/x86.pm): the same rules over eax .. esp, and its
    # pic= register.
    ['x86 clean', <<'___', undef, 'edi,esi,edx,ecx,eax', 'x86'],
    movdqu  xmm0, [esi]
    pxor    xmm0, [.Lx86_c]
    movdqu  [edi], xmm0
    mov     eax, [edi + 240]     # public: a round count
    sub     ecx, 1
    jnz     .Lx86_done
.Lx86_done:
___
    ['x86 secret base', <<'___', qr/\(address\).*'ebp'/, 'edi,esi,edx,ecx,eax', 'x86'],
    movd    ebp, xmm0
    mov     eax, [esi + ebp]
___
    ['x86 load to public', <<'___', qr/\(leak\).*'eax' from memory/, 'edi,esi,edx,ecx,eax', 'x86'],
    mov     eax, [esi]
___
    ['x86 mul into public', <<'___', qr/\(leak\).*'eax'/, 'edi,esi,edx,ecx,eax', 'x86'],
    movd    ebp, xmm0
    mul     ebp
___
    ['x86 loop on secret ecx', <<'___', qr/\(flags\).*loop branches on ecx/, 'edi,esi,edx', 'x86'],
    movd    ecx, xmm0
.Lx86_l:
    loop    .Lx86_l
___
    ['x86 64-bit register', <<'___', qr/not a 32-bit x86 register/, 'edi,esi,edx,ecx,eax', 'x86'],
    mov     rax, rdi
___
    ['x86 writes pic register', <<'___', qr/writes the pic= register ebx/, 'edi,esi,edx,ecx,ebx', 'x86'],
    mov     ebx, edi
___
    # aarch64 (perlasm/ctcheck_aarch64.pm)
    ['a64 clean', <<'___', undef, 'x0,x1,x2,x3,x9', 'aarch64'],
    ld1     {v0.16b, v1.16b}, [x1], 32
    eor     v0.16b, v0.16b, v1.16b
    st1     {v0.16b}, [x2]
    umov    w10, v0.s[1]
    add     w11, w10, 1
    subs    x3, x3, 1
    b.ne    .La64_clean
.La64_clean:
    cbz     x3, .La64_clean2
.La64_clean2:
___
    ['a64 annotated load', <<'___', undef, 'x0,x1,x2,x3,x9', 'aarch64'],
    ldr     w9, [x0, 240]      # public: a round count
    cmp     w9, 12
    b.eq    .La64_ann
.La64_ann:
___
    ['a64 secret base', <<'___', qr/\(address\).*'x10'/, 'x0,x1,x2,x3,x9', 'aarch64'],
    umov    x10, v0.d[0]
    ldr     x11, [x10]
___
    ['a64 secret index', <<'___', qr/\(address\).*'x10'/, 'x0,x1,x2,x3,x9', 'aarch64'],
    ldrb    w10, [x1]
    ldr     q1, [x0, x10, lsl 4]
___
    ['a64 secret post-index', <<'___', qr/\(address\).*post-index register 'x10'/, 'x0,x1,x2,x3,x9', 'aarch64'],
    fmov    x10, d3
    ld1     {v0.16b}, [x1], x10
___
    ['a64 umov to public', <<'___', qr/\(leak\).*'w9' from v2.s\[0\]/, 'x0,x1,x2,x3,x9', 'aarch64'],
    umov    w9, v2.s[0]
___
    ['a64 mov lane to public', <<'___', qr/\(leak\).*'x9'/, 'x0,x1,x2,x3,x9', 'aarch64'],
    mov     x9, v2.d[1]
___
    ['a64 fmov to public', <<'___', qr/\(leak\).*'x9' from d2/, 'x0,x1,x2,x3,x9', 'aarch64'],
    fmov    x9, d2
___
    ['a64 load to public', <<'___', qr/\(leak\).*'x9' from memory/, 'x0,x1,x2,x3,x9', 'aarch64'],
    ldr     x9, [x1]
___
    ['a64 ldp to public', <<'___', qr/\(leak\).*'x3' from memory/, 'x0,x1,x2,x3,x9', 'aarch64'],
    ldp     x10, x3, [x1]
___
    ['a64 arith with secret', <<'___', qr/\(leak\).*'x9' from x10/, 'x0,x1,x2,x3,x9', 'aarch64'],
    ldr     x10, [x1]
    add     x9, x9, x10
___
    ['a64 b.cond on secret flags', <<'___', qr/\(flags\).*b\.ne uses flags set by 'cmp x10, 0'/, 'x0,x1,x2,x3,x9', 'aarch64'],
    ldr     x10, [x1]
    cmp     x10, 0
    b.ne    .La64_f
.La64_f:
___
    ['a64 flags after label', <<'___', qr/\(flags\).*since the last label/, 'x0,x1,x2,x3,x9', 'aarch64'],
    cmp     x3, 0
.La64_fl:
    b.ne    .La64_fl
___
    ['a64 csel on secret flags', <<'___', qr/\(flags\).*csel/, 'x0,x1,x2,x3,x9', 'aarch64'],
    umov    w10, v0.s[0]
    tst     w10, 1
    csel    x11, x1, x2, eq
___
    ['a64 cset on secret flags', <<'___', qr/\(flags\).*cset/, 'x0,x1,x2,x3,x9', 'aarch64'],
    umov    w10, v0.s[0]
    subs    w10, w10, 1
    cset    w11, eq
___
    ['a64 cbz on secret', <<'___', qr/\(branch\).*cbz on 'x10'/, 'x0,x1,x2,x3,x9', 'aarch64'],
    ldr     x10, [x1]
    cbz     x10, .La64_c
.La64_c:
___
    ['a64 tbnz on secret', <<'___', qr/\(branch\).*tbnz on 'w10'/, 'x0,x1,x2,x3,x9', 'aarch64'],
    umov    w10, v0.b[0]
    tbnz    w10, 0, .La64_t
.La64_t:
___
    ['a64 br through secret', <<'___', qr/\(jump\).*br through x10/, 'x0,x1,x2,x3,x9', 'aarch64'],
    ldr     x10, [x1]
    br      x10
___
    ['a64 udiv on secret', <<'___', qr/\(timing\).*udiv/, 'x0,x1,x2,x3,x9', 'aarch64'],
    ldr     x10, [x1]
    udiv    x11, x10, x3
___
    ['a64 mul on secret', <<'___', qr/\(timing\).*mul/, 'x0,x1,x2,x3,x9', 'aarch64'],
    umov    x10, v1.d[0]
    mul     x11, x10, x10
___
    ['a64 vector public', <<'___', qr/only general-purpose registers/, 'x0,v1', 'aarch64'],
    nop
___
    ['a64 writes sp', <<'___', qr/writes sp/, 'x0,x1,x2,x3,x9', 'aarch64'],
    sub     sp, sp, 16
___
    ['a64 ret in body', <<'___', qr/ret is not allowed/, 'x0,x1,x2,x3,x9', 'aarch64'],
    ret
___
    ['a64 x18', <<'___', qr/platform register/, 'x0,x1,x2,x3,x9', 'aarch64'],
    mov     x18, 0
___

    # 32-bit ARM (perlasm/ctcheck_arm.pm), translated as A32 and as Thumb-2.
    ['arm clean', <<'___', undef, 'r0,r1,r2,r3,r12', 'armv4'],
    vld1.8  {q0}, [r1]!
    veor    q0, q0, q1
    vst1.8  {q0}, [r0]!
    add     r12, r0, r3, lsl 4
    vld1.8  {d4-d5}, [r12], r3
    subs    r2, r2, 1
    bne     .Larm_clean_done
    addeq   r3, r3, 1
.Larm_clean_done:
___
    ['arm annotated load', <<'___', undef, 'r0,r1,r2,r3,r12', 'armv4'],
    ldr     r3, [r0, 240]         # public: a round count
    cmp     r3, 10
    beq     .Larm_ann_done
.Larm_ann_done:
___
    ['arm secret base', <<'___', qr/\(address\).*'r5'/, 'r0,r1,r2,r3,r12', 'armv4'],
    vmov    r5, d0[0]
    ldr     r6, [r5]
___
    ['arm secret index', <<'___', qr/\(address\).*'r5'/, 'r0,r1,r2,r3,r12', 'armv4'],
    ldrb    r5, [r1]
    ldrb    r6, [r0, r5]
___
    ['arm secret post-index', <<'___', qr/\(address\).*post-index register 'r5'/, 'r0,r1,r2,r3,r12', 'armv4'],
    ldr     r5, [r1]
    vld1.8  {d0}, [r0], r5
___
    ['arm vmov lane to public', <<'___', qr/\(leak\).*'r3' from .*d2\[1\]/, 'r0,r1,r2,r3,r12', 'armv4'],
    vmov.32 r3, d2[1]
___
    ['arm vmov pair to public', <<'___', qr/\(leak\).*'r2'/, 'r0,r1,r2,r3,r12', 'armv4'],
    vmov    r2, r5, d4
___
    ['arm vmrs', <<'___', qr/\(leak\).*vmrs/, 'r0,r1,r2,r3,r12', 'armv4'],
    vmrs    r5, fpscr
___
    ['arm load to public', <<'___', qr/\(leak\).*'r3' from memory/, 'r0,r1,r2,r3,r12', 'armv4'],
    ldr     r3, [r1]
___
    ['arm arith with secret', <<'___', qr/\(leak\).*'r12' from r5/, 'r0,r1,r2,r3,r12', 'armv4'],
    ldr     r5, [r1]
    add     r12, r0, r5
___
    ['arm branch on secret flags', <<'___', qr/\(flags\).*branch bne uses flags set by 'cmp r5, 0'/, 'r0,r1,r2,r3,r12', 'armv4'],
    ldr     r5, [r1]
    cmp     r5, 0
    bne     .Larm_b_done
.Larm_b_done:
___
    ['arm conditional execution on secret flags', <<'___', qr/\(flags\).*conditionally executed moveq/, 'r0,r1,r2,r3,r12', 'armv4'],
    ldr     r5, [r1]
    tst     r5, 1
    moveq   r6, 0
___
    ['arm flags from secret subs', <<'___', qr/\(flags\).*'subs r5, r5, 1'/, 'r0,r1,r2,r3,r12', 'armv4'],
    ldr     r5, [r1]
    subs    r5, r5, 1
    bhi     .Larm_s_done
.Larm_s_done:
___
    ['arm flags after label', <<'___', qr/\(flags\).*since the last label/, 'r0,r1,r2,r3,r12', 'armv4'],
    cmp     r2, 0
.Larm_l:
    bne     .Larm_l
___
    ['arm blx through secret', <<'___', qr/\(jump\).*blx through r5/, 'r0,r1,r2,r3,r12', 'armv4'],
    ldr     r5, [r1]
    blx     r5
___
    ['arm mul on secret', <<'___', qr/\(timing\).*mul/, 'r0,r1,r2,r3,r12', 'armv4'],
    ldr     r5, [r1]
    mul     r6, r5, r5
___
    ['arm umull on secret', <<'___', qr/\(timing\).*umull/, 'r0,r1,r2,r3,r12', 'armv4'],
    vmov    r5, r6, d0
    umull   r7, r8, r5, r6
___
    ['arm neon public', <<'___', qr/only core registers/, 'r0,d1', 'armv4'],
    vmov    d1, d0
___
    ['arm writes sp', <<'___', qr/writes sp/, 'r0,r1,r2,r3,r12', 'armv4'],
    sub     sp, sp, 16
___
    ['arm pop in body', <<'___', qr/pop is not allowed/, 'r0,r1,r2,r3,r12', 'armv4'],
    pop     {r4, pc}
___
    ['arm r9', <<'___', qr/platform register/, 'r0,r1,r2,r3,r12', 'armv4'],
    mov     r9, 0
___
);

my ($pass, $fail) = (0, 0);
my $n = 0;
for my $c (@cases) {
    my ($name, $body, $want, $public, $arch) = @$c;
    $public //= 'rdi,rsi,rdx,rcx,rax,r8,r9,r10';
    $arch //= 'x86_64';
    my $decl = $public eq 'none' ? '' : " public=$public";
    my $data = '';
    if ($arch eq 'x86') {
        $decl .= ',ebx' if $public ne 'none' && $public !~ /ebx/;
        $decl .= ' pic=ebx';
        $data = ".rodata\n.align 16\n.Lx86_c:\n.quad 0, 0\n";
    }
    $n++;
    my $pl = "$dir/case$n.pl";
    my $out = "$dir/case$n.S";
    unlink $out;
    open(my $fh, '>', $pl) or die "$pl: $!\n";
    print $fh "use lib '$perlasm_lib';\nuse perlasm::driver;\n"
        . "my \$code = <<'CODE';\n$data.text\n.function ct_case args=4$decl\n"
        . $body . ".endfunction\nCODE\n"
        . "perlasm::driver::finish('$arch', \$code);\n";
    close $fh;
    my @flavours = $arch eq 'aarch64' ? ('linux64')
                 : $arch eq 'armv4' ? ('linux32', 'linux32-thumb2') : ('elf');
    for my $flavour (@flavours) {
    unlink $out;
    my $msg = `"$^X" "$pl" $flavour "$out" 2>&1`;
    my $status = $?;
    my $ok;
    $name = "$c->[0] ($flavour)" if @flavours > 1;
    if (!defined $want) {
        $ok = $status == 0 && -s $out;
        print(($ok ? 'ok' : 'FAIL') . "   $name: translates" . ($ok ? '' : ": $msg") . "\n");
    } else {
        $ok = $status != 0 && !-e $out && $msg =~ $want
              && $msg =~ /^case$n\.pl: /;
        chomp $msg;
        print(($ok ? 'ok' : 'FAIL') . "   $name: refused"
              . ($ok ? " ($msg)" : "; wanted $want, got status $status: $msg") . "\n");
    }
    $ok ? $pass++ : $fail++;
    }
}
print "$pass passed, $fail failed\n";
exit($fail ? 1 : 0);
