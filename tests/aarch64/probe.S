/*
 * a64_pair a64_regs_probe(void), in the driver: calls a64_regs_callee (the
 * library's, through the PLT and any wrapper) with x9-x15 set, and checks
 * what an exact forwarder keeps: x9-x15 as the callee left them, the
 * callee-saved x19-x28 and d8-d15 as set here, v16 whole as the callee left
 * it. Returns the callee's result and a mask of the registers that differ
 * (0 when all are kept).
 */
	.text
	.globl	a64_regs_probe
	.type	a64_regs_probe, %function
a64_regs_probe:
	.cfi_startproc
	stp	x29, x30, [sp, #-160]!
	.cfi_def_cfa_offset 160
	.cfi_offset x29, -160
	.cfi_offset x30, -152
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
	.cfi_offset x19, -144
	.cfi_offset x20, -136
	.cfi_offset x21, -128
	.cfi_offset x22, -120
	.cfi_offset x23, -112
	.cfi_offset x24, -104
	.cfi_offset x25, -96
	.cfi_offset x26, -88
	.cfi_offset x27, -80
	.cfi_offset x28, -72
.irp r, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28
	mov	x\r, #(0x1900 + \r)
.endr
.irp r, 8, 9, 10, 11, 12, 13, 14, 15
	mov	x0, #(0x800 + \r)
	fmov	d\r, x0
.endr
.irp r, 9, 10, 11, 12, 13, 14, 15
	mov	x\r, #(0x100 + \r)
.endr
	mov	x0, #7
	bl	a64_regs_callee
	mov	x2, #0
.irp r, 9, 10, 11, 12, 13, 14, 15
	mov	x3, #(0x900 + \r)
	cmp	x\r, x3
	b.eq	1f
	orr	x2, x2, #(1 << \r)
1:
.endr
.irp r, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28
	mov	x3, #(0x1900 + \r)
	cmp	x\r, x3
	b.eq	1f
	orr	x2, x2, #(1 << \r)
1:
.endr
.irp r, 8, 9, 10, 11, 12, 13, 14, 15
	fmov	x4, d\r
	mov	x3, #(0x800 + \r)
	cmp	x4, x3
	b.eq	1f
	orr	x2, x2, #(1 << (32 + \r))
1:
.endr
	fmov	x4, d16
	mov	x5, v16.d[1]
	mov	x3, #0x1616
	cmp	x4, x3
	ccmp	x5, x3, #0, eq
	b.eq	1f
	orr	x2, x2, #(1 << 48)
1:	mov	x3, #0x7777
	cmp	x1, x3
	b.eq	1f
	orr	x2, x2, #(1 << 49)
1:	mov	x1, x2
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	ldp	x29, x30, [sp], #160
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	a64_regs_probe, .-a64_regs_probe

	.section .note.GNU-stack, "", %progbits
