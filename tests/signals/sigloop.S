/*
 * long sig_reg_loop(long n): calls sig_add(1, 2) n times with a magic value
 * in every callee-saved register (%rbx %rbp %r12-%r15); returns how many
 * calls came back with any of them changed, or with a wrong result.
 */
	.text
	.globl	sig_reg_loop
	.type	sig_reg_loop, @function
sig_reg_loop:
	.cfi_startproc
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	subq	$24, %rsp		/* 16(%rsp) n, 8(%rsp) bad count; aligned */
	.cfi_adjust_cfa_offset 24
	movq	%rdi, 16(%rsp)
	movq	$0, 8(%rsp)
	movabsq	$0x1badc0de5eedf00d, %rbx
	movabsq	$0x2badc0de5eedf00d, %rbp
	movabsq	$0x3badc0de5eedf00d, %r12
	movabsq	$0x4badc0de5eedf00d, %r13
	movabsq	$0x5badc0de5eedf00d, %r14
	movabsq	$0x6badc0de5eedf00d, %r15
1:	cmpq	$0, 16(%rsp)
	je	9f
	decq	16(%rsp)
	movl	$1, %edi
	movl	$2, %esi
	call	sig_add@PLT
	xorl	%ecx, %ecx
	cmpq	$3, %rax
	setne	%cl
	movabsq	$0x1badc0de5eedf00d, %rax
	cmpq	%rax, %rbx
	jne	2f
	movabsq	$0x2badc0de5eedf00d, %rax
	cmpq	%rax, %rbp
	jne	2f
	movabsq	$0x3badc0de5eedf00d, %rax
	cmpq	%rax, %r12
	jne	2f
	movabsq	$0x4badc0de5eedf00d, %rax
	cmpq	%rax, %r13
	jne	2f
	movabsq	$0x5badc0de5eedf00d, %rax
	cmpq	%rax, %r14
	jne	2f
	movabsq	$0x6badc0de5eedf00d, %rax
	cmpq	%rax, %r15
	jne	2f
	addq	%rcx, 8(%rsp)
	jmp	1b
2:	incq	8(%rsp)			/* counted once, then put right */
	movabsq	$0x1badc0de5eedf00d, %rbx
	movabsq	$0x2badc0de5eedf00d, %rbp
	movabsq	$0x3badc0de5eedf00d, %r12
	movabsq	$0x4badc0de5eedf00d, %r13
	movabsq	$0x5badc0de5eedf00d, %r14
	movabsq	$0x6badc0de5eedf00d, %r15
	jmp	1b
9:	movq	8(%rsp), %rax
	addq	$24, %rsp
	.cfi_adjust_cfa_offset -24
	popq	%r15
	.cfi_adjust_cfa_offset -8
	popq	%r14
	.cfi_adjust_cfa_offset -8
	popq	%r13
	.cfi_adjust_cfa_offset -8
	popq	%r12
	.cfi_adjust_cfa_offset -8
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	sig_reg_loop, .-sig_reg_loop

	.section .note.GNU-stack, "", @progbits
