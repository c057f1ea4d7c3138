/*
 * long sig_reg_loop(long n), AArch64 (tests/signals/sigloop.S for x86-64):
 * calls sig_add(1, 2) n times with a magic value in every callee-saved
 * register (x19-x28, d8-d15); returns how many calls came back with any of
 * them changed, or with a wrong result.
 */
	.text
	.globl	sig_reg_loop
	.type	sig_reg_loop, %function
sig_reg_loop:
	.cfi_startproc
	stp	x29, x30, [sp, #-176]!
	.cfi_def_cfa_offset 176
	.cfi_offset x29, -176
	.cfi_offset x30, -168
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	.cfi_offset x19, -160
	.cfi_offset x20, -152
	.cfi_offset x21, -144
	.cfi_offset x22, -136
	.cfi_offset x23, -128
	.cfi_offset x24, -120
	.cfi_offset x25, -112
	.cfi_offset x26, -104
	.cfi_offset x27, -96
	.cfi_offset x28, -88
	str	x0, [sp, #160]			/* n */
	str	xzr, [sp, #168]			/* bad calls */
.macro MAGIC
.irp r, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28
	mov	x\r, #(0x1000 + \r)
	movk	x\r, #0x5eed, lsl #48
.endr
.irp r, 8, 9, 10, 11, 12, 13, 14, 15
	mov	x0, #(0x800 + \r)
	movk	x0, #0xd00d, lsl #32
	fmov	d\r, x0
.endr
.endm
	MAGIC
1:	ldr	x0, [sp, #160]
	cbz	x0, 9f
	sub	x0, x0, #1
	str	x0, [sp, #160]
	mov	w0, #1
	mov	w1, #2
	bl	sig_add
	cmp	x0, #3
	b.ne	2f
.irp r, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28
	mov	x1, #(0x1000 + \r)
	movk	x1, #0x5eed, lsl #48
	cmp	x\r, x1
	b.ne	2f
.endr
.irp r, 8, 9, 10, 11, 12, 13, 14, 15
	fmov	x2, d\r
	mov	x1, #(0x800 + \r)
	movk	x1, #0xd00d, lsl #32
	cmp	x2, x1
	b.ne	2f
.endr
	b	1b
2:	ldr	x0, [sp, #168]			/* counted once, then put right */
	add	x0, x0, #1
	str	x0, [sp, #168]
	MAGIC
	b	1b
9:	ldr	x0, [sp, #168]
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	ldp	x29, x30, [sp], #176
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	sig_reg_loop, .-sig_reg_loop

	.section .note.GNU-stack, "", %progbits
