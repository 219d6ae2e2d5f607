/*
 * test/bti/bti_start.S: the entry point of test/bti/bti_check.c, in place
 * of the C runtime's start files (which carry no BTI note in Debian's
 * cross toolchain). It hands glibc what the kernel gave: argc, argv and the
 * dynamic linker's finaliser, and __libc_start_main calls main; glibc runs
 * the executable's init_array itself. The object is marked BTI and PAC
 * compatible like every other input, so the linked program is.
 */
	.text
	.globl	_start
	.type	_start, %function
_start:
	hint	#34			/* bti c */
	mov	x29, #0			/* outermost frame */
	mov	x30, #0
	mov	x5, x0			/* rtld_fini */
	ldr	x1, [sp]		/* argc */
	add	x2, sp, #8		/* argv */
	mov	x6, sp			/* stack_end */
	adrp	x0, main
	add	x0, x0, :lo12:main
	mov	x3, #0			/* init: glibc runs init_array */
	mov	x4, #0			/* fini */
	bl	__libc_start_main
	brk	#0
	.size	_start, .-_start

	.section .note.GNU-stack, "", @progbits
	.section .note.gnu.property, "a", @note
	.p2align 3
	.long	4, 16, 5		/* namesz, descsz, NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000000, 4, 3	/* GNU_PROPERTY_AARCH64_FEATURE_1_AND: BTI | PAC */
	.long	0
