/*
 * abi_x86_64.S - ABI-level forwarding for x86-64 System V (docs/abi.md).
 *
 * Every generated wrapper is `lea ENTRY(%rip), %r11; jmp libwrap_trampoline`
 * with ENTRY its libwrap_abi_entry. The trampoline
 *
 *  1. saves the argument registers (%rdi %rsi %rdx %rcx %r8 %r9, %rax which
 *     holds the vector-register count of a variadic call, %r10 the static
 *     chain) and calls lw_abi_enter, which touches no vector or x87
 *     register; the vector arguments stay where the caller left them;
 *  2. if the call is not measured (filtered, runtime stopped, inside the
 *     runtime), restores them and tail-jumps to the original: the caller
 *     and the original meet as if unwrapped;
 *  3. if it is measured, moves the caller's return address and %rbx into
 *     the return slot that lw_abi_enter gave (%rbx then points to it), pops
 *     the return address and calls the original: the stack arguments are
 *     exactly where the caller put them, whatever their number or size;
 *  4. when the original returns, puts the return address back, saves every
 *     caller-saved general register as the original left it (%rax and %rdx
 *     hold results, and code such as GMP's mpn_gcd_22 relies on others),
 *     calls lw_abi_exit (again no vector or x87 register: %xmm0, %xmm1,
 *     %st0, %st1 and the rest stay as the original left them), restores
 *     and returns.
 *
 * The CFI describes every instruction, so debuggers, backtrace() and C++
 * exceptions pass through; while the original runs, the caller's return
 * address and %rbx are described as held in the slot at %rbx. The
 * personality routine lw_abi_personality closes a measured call that an
 * exception unwinds.
 */
#if defined(__x86_64__)

/* DW_CFA_expression REG, [DW_OP_breg3 (rbx) OFFSET]: REG is saved at %rbx+OFFSET. */
#define CFI_SAVED_AT_RBX(reg, offset) .cfi_escape 0x10, reg, 0x02, 0x73, offset

/* The caller-saved general registers other than %r11, at 0..56(%rsp): the
 * arguments before the call, the original's results and leftovers after. */
.macro SAVE_GPRS
	movq	%rdi, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%rax, 48(%rsp)
	movq	%r10, 56(%rsp)
.endm
.macro RESTORE_GPRS
	movq	0(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rcx
	movq	32(%rsp), %r8
	movq	40(%rsp), %r9
	movq	48(%rsp), %rax
	movq	56(%rsp), %r10
.endm

	.text

	.globl	libwrap_trampoline
	.type	libwrap_trampoline, @function
	.p2align 4
libwrap_trampoline:
	.cfi_startproc
	.cfi_personality 0x1b, lw_abi_personality
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	subq	$80, %rsp
	SAVE_GPRS
	movq	%r11, 64(%rsp)
	movq	%r11, %rdi		/* the entry */
	leaq	8(%rbp), %rsi		/* where the return address is */
	call	lw_abi_enter
	cmpq	$1, %rax
	jbe	.Lnot_measured
	.cfi_remember_state

	/* Measured: %rax is the return slot. */
	movq	%rbx, 8(%rax)
	movq	%rax, %rbx
	CFI_SAVED_AT_RBX(0x03, 8)
	movq	8(%rbp), %r11
	movq	%r11, 0(%rbx)
	CFI_SAVED_AT_RBX(0x10, 0)
	movq	64(%rsp), %r11
	movq	(%r11), %r11		/* entry->orig */
	RESTORE_GPRS
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	addq	$8, %rsp		/* the return address: kept in the slot */
	/* While the original runs, this frame's stack pointer equals its
	 * caller's at the call (the return address was popped). Unwinders
	 * identify a frame by its callee's CFA (libgcc finds an exception's
	 * handler frame again so in its second phase): with the usual CFA the
	 * caller and this frame would be one. This CFA is one byte above the
	 * caller's stack pointer, which is given by its own rule, CFA - 1. */
	.cfi_def_cfa_offset 1
	.cfi_escape 0x16, 0x07, 0x02, 0x31, 0x1c	/* DW_CFA_val_expression rsp: CFA - 1 */
	call	*%r11
	.globl	lw_abi_return_point
	.hidden	lw_abi_return_point
lw_abi_return_point:
	/* Back from the original, %rsp as at our entry plus 8. */
	pushq	0(%rbx)
	.cfi_def_cfa_offset 8
	.cfi_restore %rsp
	.cfi_offset 16, -8
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	subq	$80, %rsp
	SAVE_GPRS
	movq	%r11, 64(%rsp)
	movq	8(%rbx), %rax
	movq	%rax, 72(%rsp)
	.cfi_offset %rbx, -24
	movq	%rbx, %rdi
	call	lw_abi_exit
	RESTORE_GPRS
	movq	64(%rsp), %r11
	movq	72(%rsp), %rbx
	.cfi_restore %rbx
	leave
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret

.Lnot_measured:
	.cfi_restore_state
	movq	64(%rsp), %r11
	testq	%rax, %rax
	jnz	.Lmissing
	movq	(%r11), %r11		/* entry->orig */
	RESTORE_GPRS
	.cfi_remember_state
	leave
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	jmp	*%r11

.Lmissing:
	.cfi_restore_state
	movq	%r11, %rdi
	call	lw_abi_missing		/* errno ENOSYS, or abort */
	xorl	%eax, %eax
	xorl	%edx, %edx
	pxor	%xmm0, %xmm0
	pxor	%xmm1, %xmm1
	leave
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	libwrap_trampoline, .-libwrap_trampoline

/*
 * uintptr_t lw_abi_call_saving(fn, a, b): fn(a, b) with the x87, SSE, AVX
 * and AVX-512 state saved around it (XSAVE of those components only; FXSAVE
 * where the OS has not enabled XSAVE).
 */
#define LW_XSTATE_MASK 0xe7	/* x87, SSE, AVX, AVX-512 opmask and upper halves */

	.globl	lw_abi_call_saving
	.hidden	lw_abi_call_saving
	.type	lw_abi_call_saving, @function
	.p2align 4
lw_abi_call_saving:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	.cfi_offset %rbx, -24
	pushq	%r12
	.cfi_offset %r12, -32
	movq	%rdi, %r12
	movq	%rsi, %rdi
	movq	%rdx, %rsi
	movl	lw_abi_xsave_size(%rip), %eax
	subq	%rax, %rsp
	andq	$-64, %rsp
	movq	%rsp, %rbx
	cmpl	$0, lw_abi_xsave(%rip)
	je	1f
	xorl	%eax, %eax		/* XRSTOR wants the header's reserved bytes zero */
	movq	%rax, 512(%rbx)
	movq	%rax, 520(%rbx)
	movq	%rax, 528(%rbx)
	movq	%rax, 536(%rbx)
	movq	%rax, 544(%rbx)
	movq	%rax, 552(%rbx)
	movq	%rax, 560(%rbx)
	movq	%rax, 568(%rbx)
	movl	$LW_XSTATE_MASK, %eax
	xorl	%edx, %edx
	xsave64	(%rbx)
	jmp	2f
1:	fxsave64 (%rbx)
2:	call	*%r12
	movq	%rax, %r12
	cmpl	$0, lw_abi_xsave(%rip)
	je	3f
	movl	$LW_XSTATE_MASK, %eax
	xorl	%edx, %edx
	xrstor64 (%rbx)
	jmp	4f
3:	fxrstor64 (%rbx)
4:	movq	%r12, %rax
	leaq	-16(%rbp), %rsp
	popq	%r12
	.cfi_restore %r12
	popq	%rbx
	.cfi_restore %rbx
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	lw_abi_call_saving, .-lw_abi_call_saving

#endif

	.section .note.GNU-stack, "", @progbits
