/*
 * work_stack.S - lw_call_on_stack(fn, arg, top): calls fn(arg) with the
 * stack pointer at `top` (16-aligned, the end of a mapping), then returns
 * on the caller's stack (work_stack.c). The frame pointer keeps the
 * caller's stack pointer; the CFI says so, so that an unwinder (gdb,
 * a backtrace) goes from fn's frames to the caller's.
 */
#if defined(__x86_64__)
	.text
	.globl	lw_call_on_stack
	.hidden	lw_call_on_stack
	.type	lw_call_on_stack, @function
	.p2align 4
lw_call_on_stack:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	movq	%rdx, %rsp
	movq	%rdi, %rax
	movq	%rsi, %rdi
	call	*%rax
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_def_cfa_offset 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	lw_call_on_stack, .-lw_call_on_stack
	.section .note.GNU-stack, "", @progbits
#elif defined(__aarch64__)
	.text
	.globl	lw_call_on_stack
	.hidden	lw_call_on_stack
	.type	lw_call_on_stack, %function
	.p2align 2
lw_call_on_stack:
	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	mov	x29, sp
	.cfi_def_cfa_register x29
	mov	sp, x2
	mov	x16, x0
	mov	x0, x1
	blr	x16
	mov	sp, x29
	.cfi_def_cfa_register sp
	ldp	x29, x30, [sp], #16
	.cfi_def_cfa_offset 0
	.cfi_restore x29
	.cfi_restore x30
	ret
	.cfi_endproc
	.size	lw_call_on_stack, .-lw_call_on_stack
	.section .note.GNU-stack, "", %progbits
#endif
