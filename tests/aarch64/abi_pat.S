/* The GMP pattern on AArch64 (tests/abi/abi_pat.S for x86-64): a register
 * set before a tail call through the PLT is part of the caller's result;
 * the tail call's target leaves scratch registers set for nobody. */
	.text
	.globl	abi_pat_outer
	.type	abi_pat_outer, %function
abi_pat_outer:
	.cfi_startproc
	add	x1, x1, #5		/* the high half of the result, kept by abi_pat_inner */
	b	abi_pat_inner		/* through the PLT: the symbol is preemptible */
	.cfi_endproc
	.size	abi_pat_outer, .-abi_pat_outer

	.globl	abi_pat_inner
	.type	abi_pat_inner, %function
abi_pat_inner:
	.cfi_startproc
	add	x0, x0, x0, lsl #1
	add	x0, x0, #1		/* 3x + 1; x1 untouched */
	mov	x9, #0x5555		/* caller-saved registers as this function leaves them */
	mov	x10, #0x6666
	ret
	.cfi_endproc
	.size	abi_pat_inner, .-abi_pat_inner

/*
 * a64_pair a64_regs_callee(uint64_t seed): seed plus the caller's x9-x15
 * as they arrived (weighted), and 0x7777; leaves x9-x15 and the whole of
 * v16 set to known values for a caller that relies on them
 * (a64_regs_probe, the driver's).
 */
	.globl	a64_regs_callee
	.type	a64_regs_callee, %function
a64_regs_callee:
	.cfi_startproc
	add	x0, x0, x9
	add	x0, x0, x10, lsl #1
	add	x0, x0, x11, lsl #2
	add	x0, x0, x12, lsl #3
	add	x0, x0, x13, lsl #4
	add	x0, x0, x14, lsl #5
	add	x0, x0, x15, lsl #6
.irp r, 9, 10, 11, 12, 13, 14, 15
	mov	x\r, #(0x900 + \r)
.endr
	mov	x1, #0x1616
	fmov	d16, x1
	mov	v16.d[1], x1
	mov	x1, #0x7777		/* a second result register */
	ret
	.cfi_endproc
	.size	a64_regs_callee, .-a64_regs_callee

	.section .note.GNU-stack, "", %progbits
