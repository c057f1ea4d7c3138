/* The GMP pattern (mpn_gcd_22 -> mpn_gcd_11): a register set before a
 * tail call through the PLT is part of the caller's result. */
	.text
	.globl	abi_pat_outer
	.type	abi_pat_outer, @function
abi_pat_outer:
	.cfi_startproc
	movq	%rsi, %rdx		/* the high half of the result, kept by abi_pat_inner */
	jmp	abi_pat_inner@PLT
	.cfi_endproc
	.size	abi_pat_outer, .-abi_pat_outer

	.globl	abi_pat_inner
	.type	abi_pat_inner, @function
abi_pat_inner:
	.cfi_startproc
	leaq	1(%rdi,%rdi,2), %rax	/* 3x + 1; %rdx untouched */
	movq	$0x5555, %rcx		/* caller-saved registers as this function leaves them */
	movq	$0x6666, %r8
	ret
	.cfi_endproc
	.size	abi_pat_inner, .-abi_pat_inner

	.section .note.GNU-stack, "", @progbits
