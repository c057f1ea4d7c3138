/*
 * abi_aarch64.S - ABI-level forwarding for AArch64 (AAPCS64, Linux;
 * docs/abi.md, "AArch64").
 *
 * Every generated wrapper puts its libwrap_abi_entry in x16 and branches to
 * the entry's `dispatch` with x17 (x16 and x17 are the registers a call may
 * lose to a veneer or a PLT entry anyway): the runtime sets it with the
 * state (lw_abi_set_state) to this file's path for the state
 * (lw_abi_path_fast, lw_abi_path_throttled, lw_abi_path_throttled_framed,
 * lw_abi_path_record), to the original itself when the function is
 * excluded, else to libwrap_trampoline, the generic entry, which reads the
 * state and takes the same paths.
 *
 * The common case of a measured call runs in the trampoline itself (its fast
 * paths, below); everything else goes to the C hooks. For those it
 *
 *  1. stores x29 and the caller's return address x30 just below the
 *     caller's stack pointer (the call's identity is the address of that
 *     x30, as on x86-64 that of the return address), saves x0-x15, x18 and
 *     the entry, and calls lw_abi_enter (abi.c, general registers only: the
 *     vector arguments v0-v7 stay whole where the caller left them);
 *  2. if the call is not measured, restores them and branches to the
 *     original: the caller and the original meet as if unwrapped;
 *  3. if it is measured, moves the caller's x30 and x19 into the return
 *     slot that lw_abi_enter gave (x19 then points to it: the original
 *     gives it back), restores every register, and calls the original with
 *     the stack pointer as the caller left it: the stack arguments, the
 *     indirect result address x8 and every argument register are exactly
 *     the caller's, whatever the function (variadic too);
 *  4. when the original returns, saves x0-x18 as it left them (results in
 *     x0-x7, and whatever else an assembly caller may rely on), takes the
 *     caller's x30 and x19 out of the slot, calls lw_abi_exit (which frees
 *     the slot; no vector register touched: v0-v7 keep the results),
 *     restores and returns.
 *
 * Everything not common (first calls, tracing, metrics, the clock_gettime
 * timer) goes through lw_abi_call_saving, which keeps q0-q31 whole and
 * FPCR/FPSR around ordinary C. The CFI describes every instruction: while
 * the original runs, the caller's x30 and x19 are described as held in the
 * slot at x19, so debuggers, backtrace() and C++ exceptions pass through;
 * lw_abi_personality closes a measured call that an exception unwinds.
 */
#if defined(__aarch64__)

#include "core/abi/abi.h"

/* DW_CFA_expression REG, [DW_OP_breg19 OFFSET]: REG is saved at x19+OFFSET. */
#define CFI_SAVED_AT_X19(reg, offset) .cfi_escape 0x10, reg, 0x02, 0x83, offset

/* The frame of the entry hook: x29/x30 at its top (x30 at the caller's
 * stack pointer - 8: the call's identity), x0-x15, x18 and the entry
 * below. */
#define ENTER_FRAME 160

/* x0-x7 at 0..63(sp), the argument and result registers: `op` stp saves
 * them, ldp loads them back. */
.macro X0_X7 op
	\op	x0, x1, [sp, #0]
	\op	x2, x3, [sp, #16]
	\op	x4, x5, [sp, #32]
	\op	x6, x7, [sp, #48]
.endm

/* x0-x16 and x18 at 0..143(sp): `op` stp saves them, ldp loads them back. */
.macro ARGS op
	X0_X7 \op
	\op	x8, x9, [sp, #64]
	\op	x10, x11, [sp, #80]
	\op	x12, x13, [sp, #96]
	\op	x14, x15, [sp, #112]
	\op	x16, x18, [sp, #128]
.endm
.macro SAVE_ARGS
	ARGS stp
.endm
.macro RESTORE_ARGS
	ARGS ldp
.endm

/* q0-q31 at 16..527(sp), the gate's: `op` stp saves them, ldp loads them. */
.macro VEC_PAIRS op
	\op	q0, q1, [sp, #16]
	\op	q2, q3, [sp, #48]
	\op	q4, q5, [sp, #80]
	\op	q6, q7, [sp, #112]
	\op	q8, q9, [sp, #144]
	\op	q10, q11, [sp, #176]
	\op	q12, q13, [sp, #208]
	\op	q14, q15, [sp, #240]
	\op	q16, q17, [sp, #272]
	\op	q18, q19, [sp, #304]
	\op	q20, q21, [sp, #336]
	\op	q22, q23, [sp, #368]
	\op	q24, q25, [sp, #400]
	\op	q26, q27, [sp, #432]
	\op	q28, q29, [sp, #464]
	\op	q30, q31, [sp, #496]
.endm

/* The exit's frame: x0-x18 as the original left them, the caller's x19
 * and x30. */
#define EXIT_FRAME 176

	.text

/* &lw_tls (the runtime's initial-exec TLS block) into `reg`, with `tmp`. */
.macro TLS_BLOCK reg, tmp
	mrs	\reg, tpidr_el0
	adrp	\tmp, :gottprel:lw_tls
	ldr	\tmp, [\tmp, #:gottprel_lo12:lw_tls]
	add	\reg, \reg, \tmp
.endm

/* The fast paths' scratch registers, x9-x14, below the stack pointer. */
.macro PUSH_SCRATCH
	stp	x9, x10, [sp, #-48]!
	.cfi_adjust_cfa_offset 48
	stp	x11, x12, [sp, #16]
	stp	x13, x14, [sp, #32]
.endm
.macro POP_SCRATCH
	ldp	x13, x14, [sp, #32]
	ldp	x11, x12, [sp, #16]
	ldp	x9, x10, [sp], #48
	.cfi_adjust_cfa_offset -48
.endm

/* While the original runs: the stack pointer is the caller's (the stack
 * arguments are where it put them), the caller's x30 and x19 are in the
 * slot at x19. Unwinders identify a frame by its callee's CFA (libgcc
 * finds an exception's handler frame again so in its second phase): with
 * the usual CFA, this frame and its caller would be one, both identified by
 * the same stack pointer; and a tail call from one measured original into
 * another wrapper makes a second trampoline frame at that stack pointer.
 * The CFA is the stack pointer plus 1, less the number of slots right below
 * this one with the same call identity (the calls it is a tail call of, up
 * to three), as on x86-64 (abi_x86_64.S, CFI_CALL_FRAME: the same
 * expression on x19 and sp), and the caller's stack pointer is this
 * frame's, by its own rule.
 * The return points define the CFA again, as a register and an offset. */
.if LW_RA_SP != 24 || LW_RA_SIZE != 48
.error "CFI_CALLING's expression spells LW_RA_SP and LW_RA_SIZE as 24 and 48"
.endif
.macro CFI_CALLING
	CFI_SAVED_AT_X19(19, LW_RA_RBX)
	CFI_SAVED_AT_X19(30, LW_RA_RA)
	.cfi_escape 0x0f, 53, 0x8f, 0x01, 0x83, 0x68, 0x06, 0x83, 0x18, 0x06, 0x29, 0x1c, 0x83, 0x68, 0x06, 0x83, 0x18, 0x06, 0x29, 0x83, 0xb8, 0x7f, 0x06, 0x83, 0x18, 0x06, 0x29, 0x1e, 0x1c, 0x83, 0x68, 0x06, 0x83, 0x18, 0x06, 0x29, 0x83, 0xb8, 0x7f, 0x06, 0x83, 0x18, 0x06, 0x29, 0x1e, 0x83, 0x88, 0x7f, 0x06, 0x83, 0x18, 0x06, 0x29, 0x1e, 0x1c
	.cfi_escape 0x16, 31, 0x02, 0x8f, 0x00	/* DW_CFA_val_expression sp: sp */
.endm

/* The child of region `id` (a w register) among the last four that the
 * parent (`parent`) called, into `node`, or a branch to `miss`; `tmp` (a w
 * register) is scratch. The region and the child are both the parent's
 * (lw_node.last_region): one load after the parent, not two. */
.macro LAST_HIT parent, node, id, tmp, miss
.irp k, 0, 1, 2
	ldr	\tmp, [\parent, #LW_N_LAST_REGION+4*\k]
	ldr	\node, [\parent, #LW_N_LAST_HIT+8*\k]
	cmp	\tmp, \id
	b.eq	9f
.endr
	ldr	\tmp, [\parent, #LW_N_LAST_REGION+12]
	ldr	\node, [\parent, #LW_N_LAST_HIT+24]
	cmp	\tmp, \id
	b.ne	\miss
9:
.endm

/* The 64-bit constant `value` into `reg`, 16 bits at a time. */
.macro MOV64 reg, value
	movz	\reg, #((\value) & 0xffff)
	movk	\reg, #(((\value) >> 16) & 0xffff), lsl #16
	movk	\reg, #(((\value) >> 32) & 0xffff), lsl #32
	movk	\reg, #(((\value) >> 48) & 0xffff), lsl #48
.endm

/*
 * The node of region `id` (w10) under the parent (x13) in the table of the
 * thread (x9), as lw_tree_find (hot.h) finds it: any child of any parent,
 * not only the last four. Found, into `out`, it becomes the parent's
 * latest (lw_note_hit) when `note` is 1, and the path goes on at `found`;
 * not found (a new call path), at `miss`. x0-x3 are saved below the stack
 * pointer and restored, x17 is scratch. Reads, and stores of the parent's
 * last four: each of them changes as its region 0 (no lookup matches it),
 * its child, its region, so that every step leaves them consistent, as
 * the fast paths' steps must (a signal handler may leave by longjmp,
 * signal.c). The throttled paths leave them to the timed calls, as on
 * x86-64.
 */
.macro PROBE out, found, miss, note=1
	stp	x0, x1, [sp, #-32]!
	.cfi_adjust_cfa_offset 32
	stp	x2, x3, [sp, #16]
	mov	w0, w10				/* lw_hash */
	MOV64	x1, 0x9e3779b97f4a7c15
	mul	x0, x0, x1
	eor	x0, x0, x13, lsr #4
	eor	x0, x0, x0, lsr #29
	MOV64	x1, 0xbf58476d1ce4e5b9
	mul	x0, x0, x1
	eor	x0, x0, x0, lsr #32
	ldr	x1, [x9, #LW_TH_HASH]
	ldr	x2, [x9, #LW_TH_HASH_MASK]
1:	and	x0, x0, x2
	ldr	x3, [x1, x0, lsl #3]
	cbz	x3, 3f
	add	x0, x0, #1
	ldr	x17, [x3, #LW_N_PARENT]
	cmp	x17, x13
	b.ne	1b
	ldr	w17, [x3, #LW_N_REGION]
	cmp	w17, w10
	b.ne	1b
.if \note
	LAST_MOVE 2, 3
	LAST_MOVE 1, 2
	LAST_MOVE 0, 1
	str	wzr, [x13, #LW_N_LAST_REGION]
	str	x3, [x13, #LW_N_LAST_HIT]
	str	w10, [x13, #LW_N_LAST_REGION]
.endif
	mov	\out, x3
	ldp	x2, x3, [sp, #16]
	ldp	x0, x1, [sp], #32
	.cfi_adjust_cfa_offset -32
	b	\found
	.cfi_adjust_cfa_offset 32
3:	ldp	x2, x3, [sp, #16]
	ldp	x0, x1, [sp], #32
	.cfi_adjust_cfa_offset -32
	b	\miss
.endm

/* The parent's (x13) last child `from` into place `to` (PROBE), x17
 * scratch. */
.macro LAST_MOVE from, to
	str	wzr, [x13, #LW_N_LAST_REGION+4*\to]
	ldr	x17, [x13, #LW_N_LAST_HIT+8*\from]
	str	x17, [x13, #LW_N_LAST_HIT+8*\to]
	ldr	w17, [x13, #LW_N_LAST_REGION+4*\from]
	str	w17, [x13, #LW_N_LAST_REGION+4*\to]
.endm

/* The frame at x12 filled (node x16, region w10), the slot at x11 pointing
 * to it, the frame on the thread's (x9) stack. */
.macro FRAME_FILL
	str	x16, [x12, #LW_F_NODE]
	str	x10, [x12, #LW_F_REGION]	/* and inherited = 0 */
	str	x12, [x11, #LW_RA_FRAME]
.endm
/* The frame onto the thread's stack, once its start is stored too: a
 * signal handler that leaves by longjmp before never finds it there with
 * another call's start. */
.macro FRAME_PUSH
	ldr	w13, [x9, #LW_TH_DEPTH]
	add	w13, w13, #1
	str	w13, [x9, #LW_TH_DEPTH]
.endm

/* The entry back in x16, the caller's x30 and x19 moved into the slot at
 * x11 (x19 then points to it), the scratch registers popped: everything as
 * the caller left it, for the call of the original. */
.macro CALL_SETUP
	ldr	x16, [x11, #LW_RA_ENTRY]
	stp	x30, x19, [x11, #LW_RA_RA]	/* the caller's x30 and x19 into the slot */
	mov	x19, x11
	CFI_SAVED_AT_X19(19, LW_RA_RBX)
	CFI_SAVED_AT_X19(30, LW_RA_RA)
	POP_SCRATCH
	CFI_CALLING
.endm

/* The thread's guard taken, x14 the TLS block: to `busy` (w10 the guard,
 * scratch pushed) when it was held, a call from inside the runtime. */
.macro GUARD_TAKE busy
	TLS_BLOCK x14, x10
	ldr	w10, [x14, #LW_T_GUARD]
	cbnz	w10, \busy
	mov	w10, #1
	str	w10, [x14, #LW_T_GUARD]
.endm

/* A return slot claimed at x11 (else to `noslot`: none free, or one at or
 * below this call, a leftover; `tail`, when given, for one at this call:
 * a tail call, with the flags of the comparison), the thread in x9, the
 * new frame in x12 with the call's identity (x10) and the slot filled
 * (else to `toc`, the slot to give back: no room, no thread, events, or
 * the top frame abandoned), the region in w10, the parent node in x13. */
.macro SLOT_FRAME noslot, toc, tail
	ldr	x11, [x14, #LW_T_RA_TOP]
	ldr	x10, [x14, #LW_T_RA_END]
	cmp	x11, x10
	b.hs	\noslot
	add	x10, sp, #40			/* the call's identity: the caller's sp - 8 */
	ldr	x12, [x11, #LW_RA_SP-LW_RA_SIZE]
	cmp	x12, x10
.ifb \tail
	b.ls	\noslot			/* a leftover, or a tail call */
.else
	b.ls	\tail				/* a leftover, or a tail call */
.endif
	SLOT_CLAIM \toc, x10
.endm

/* SLOT_FRAME's claim of the free slot at x11 for the call whose identity
 * is x10 (the slot's), its frame's `frame_id` (x10, or just below the
 * frame of the original that made a tail call). */
.macro SLOT_CLAIM toc, frame_id
	/* The slot is taken before it is filled: a call from a signal handler
	 * that interrupts the rest takes the next one. */
	add	x12, x11, #LW_RA_SIZE
	str	x12, [x14, #LW_T_RA_TOP]
	ldr	x9, [x14, #LW_T_HOT]		/* after the guard: the finaliser clears it */
	ldr	w12, [x9, #LW_TH_DEPTH]
	ldr	w13, [x9, #LW_TH_CAP]
	cmp	w12, w13
	b.hs	\toc				/* no room, no thread, or events */
	str	x16, [x11, #LW_RA_ENTRY]
	str	x10, [x11, #LW_RA_SP]
	str	w12, [x11, #LW_RA_DEPTH]
	ldr	x13, [x9, #LW_TH_STACK]
	add	x12, x13, x12, lsl #5		/* the new frame */
	ldr	x13, [x12, #LW_F_FRAME-LW_F_SIZE]
	cmp	x13, \frame_id
	b.ls	\toc				/* the top frame was abandoned */
	str	\frame_id, [x12, #LW_F_FRAME]
	ldr	w10, [x16, #LW_E_ID]
	ldr	x13, [x12, #LW_F_NODE-LW_F_SIZE]	/* the parent */
.endm

/* x30 is one of the trampoline's return points (abi.h,
 * lw_abi_is_return_point): a measured original made a tail call. Else to
 * `no`; `tmp` is scratch. */
.macro RETURN_POINT tmp, no
	adr	\tmp, lw_abi_return_point
	cmp	x30, \tmp
	b.eq	8f
	adr	\tmp, lw_abi_return_untimed
	cmp	x30, \tmp
	b.ne	\no
8:
.endm

	.globl	libwrap_trampoline
	.type	libwrap_trampoline, %function
	.p2align 4
libwrap_trampoline:
	.globl	lw_abi_trampoline
	.hidden	lw_abi_trampoline
lw_abi_trampoline:
	.cfi_startproc
	.cfi_personality 0x1b, lw_abi_personality
	ldr	w17, [x16, #LW_E_STATE]
	cmp	w17, #LW_ABI_STATE_FAST
	b.ne	.Lnot_fast
	.cfi_remember_state
	.globl	lw_abi_path_fast
	.hidden	lw_abi_path_fast
lw_abi_path_fast:
.Lfast_start:

	/*
	 * The fast path (the common case, as lw_enter_fast in hot.h): the
	 * entry says LW_ABI_STATE_FAST, the thread is not inside the runtime
	 * and may take the fast path without events (lw_tls.hot), a return
	 * slot is free and no older one is a leftover at or below this call,
	 * the frame stack has room and its top frame is live, and the node of
	 * this region under it exists (one of the parent's four last-hit
	 * children, else in the thread's table: .Lprobe); a tail call made by
	 * a measured original is nested in its frame (.Lfast_tail). Then the
	 * slot (claimed before it is filled) and the frame are filled, the
	 * timestamp taken last, and the original called with every register
	 * as the caller left it. Anything else: the C hooks (.Lc_enter).
	 */
	PUSH_SCRATCH
	GUARD_TAKE .Lfast_busy			/* inside the runtime, or its lane */
	/* From here to lw_abi_hot_end, and from lw_abi_hot2_begin to
	 * lw_abi_hot2_end, the guard is held by a fast path alone, whose every
	 * step leaves the runtime consistent: a signal handler that interrupts
	 * it may leave by longjmp (signal.c). */
	.globl	lw_abi_hot_begin
	.hidden	lw_abi_hot_begin
lw_abi_hot_begin:
	SLOT_FRAME .Lfast_to_c_noslot, .Lfast_to_c, .Lfast_tail
	/* Not among the last four: the tree's table (.Lprobe). */
	LAST_HIT x13, x16, w10, w17, .Lprobe
	/* The node in x16, the frame in x12, the region in w10, the slot in
	 * x11, the thread in x9 (.Lthrottled_framed comes here too). */
.Lfound:
	FRAME_FILL
	.globl	lw_abi_enter_time
	.hidden	lw_abi_enter_time
lw_abi_enter_time:
	mrs	x13, cntvct_el0
	str	x13, [x12, #LW_F_START]
	FRAME_PUSH
	str	wzr, [x14, #LW_T_GUARD]
	.globl	lw_abi_hot_end
	.hidden	lw_abi_hot_end
lw_abi_hot_end:
	CALL_SETUP
	b	.Lcall_original

	/* The fast path could not take the call: the slot given back. */
.Lfast_to_c_entry:
	.cfi_restore_state
	.cfi_remember_state
	.cfi_adjust_cfa_offset 48
	ldr	x16, [x11, #LW_RA_ENTRY]
.Lfast_to_c:
	str	x11, [x14, #LW_T_RA_TOP]
.Lfast_to_c_noslot:
	str	wzr, [x14, #LW_T_GUARD]
	POP_SCRATCH
	b	.Lc_enter

	/* The guard was held: the runtime calls the function itself (not
	 * measured), or a signal handler interrupted the runtime (the lane:
	 * the C hook records the call). */
.Lfast_busy:
	.cfi_restore_state
	.cfi_remember_state
	.cfi_adjust_cfa_offset 48
	tst	w10, #LW_GUARD_SIGNAL
	POP_SCRATCH
	b.ne	.Lc_enter
	ldr	x17, [x16, #LW_E_ORIG]
	br	x17

.Lnot_fast:
	.cfi_restore_state
	cmp	w17, #LW_ABI_STATE_EXCLUDED
	b.ne	1f
	ldr	x17, [x16, #LW_E_ORIG]
	br	x17				/* filtered out: as if unwrapped */
1:	cmp	w17, #LW_ABI_STATE_THROTTLED
	b.eq	.Lthrottled
	cmp	w17, #LW_ABI_STATE_THROTTLED_FRAMED
	b.eq	.Lthrottled_framed
	cmp	w17, #LW_ABI_STATE_RECORD
	b.eq	.Lrecord

	/* Every other case: the C hooks, with the argument registers saved. */
.Lc_enter:
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	mov	x29, sp
	.cfi_def_cfa x29, 16
	sub	sp, sp, #ENTER_FRAME
	SAVE_ARGS
	mov	x0, x16				/* the entry */
	add	x1, x29, #8			/* where the return address is */
	bl	lw_abi_enter
	cmp	x0, #1
	b.ls	.Lnot_measured
	.cfi_remember_state

	/* Measured: x0 is the return slot. */
	str	x19, [x0, #LW_RA_RBX]
	mov	x19, x0
	CFI_SAVED_AT_X19(19, LW_RA_RBX)
	ldr	x17, [x29, #8]
	str	x17, [x19, #LW_RA_RA]
	CFI_SAVED_AT_X19(30, LW_RA_RA)
	RESTORE_ARGS
	mov	sp, x29
	.cfi_def_cfa sp, 16
	ldr	x29, [sp], #16
	.cfi_restore x29
	CFI_CALLING
	/* Both paths call the original here, x16 its entry, x19 its slot: one
	 * return point. */
.Lcall_original:
	ldr	x17, [x16, #LW_E_ORIG]
	blr	x17
	.globl	lw_abi_return_point
	.hidden	lw_abi_return_point
lw_abi_return_point:
	/* The exit's fast path (lw_exit_fast): the timestamp first, then the
	 * checks; the slot stays taken until everything is read from it. */
	.cfi_def_cfa sp, 1
	PUSH_SCRATCH
	.cfi_def_cfa_offset 48
	.cfi_restore sp
	.cfi_remember_state
	mrs	x9, cntvct_el0
	TLS_BLOCK x14, x10
	ldr	w10, [x14, #LW_T_GUARD]
	cbnz	w10, .Lexit_to_c		/* a call of a handler's lane, or stopped */
	mov	w10, #1
	str	w10, [x14, #LW_T_GUARD]
	.globl	lw_abi_hot2_begin
	.hidden	lw_abi_hot2_begin
lw_abi_hot2_begin:
	/* The thread's newest slot, or the C hook: a coroutine on a stack of
	 * its own resumed out of order (lw_abi_release_nested). */
	ldr	x12, [x14, #LW_T_RA_TOP]
	add	x13, x19, #LW_RA_SIZE
	cmp	x12, x13
	b.ne	.Lexit_to_c_guard
	ldr	x10, [x14, #LW_T_HOT]
	ldr	w11, [x19, #LW_RA_DEPTH]
	add	w11, w11, #1
	ldr	w12, [x10, #LW_TH_DEPTH]
	cmp	w12, w11
	b.ne	.Lexit_to_c_guard		/* not the top frame, no thread, or events */
	sub	w12, w12, #1
	str	w12, [x10, #LW_TH_DEPTH]
	ldr	x11, [x19, #LW_RA_FRAME]
	ldr	x12, [x11, #LW_F_START]
	subs	x9, x9, x12
	csel	x9, x9, xzr, hs			/* the clock went back: 0 */
	ldr	x11, [x11, #LW_F_NODE]
	/* The extremes first, then the visit and its time in one store: a
	 * signal handler that leaves by longjmp between the two leaves the
	 * mean between them (min <= mean <= max) with the visit not counted. */
	ldp	x12, x13, [x11, #LW_N_MIN]	/* min, max */
	cmp	x9, x12
	csel	x12, x9, x12, lo
	cmp	x9, x13
	csel	x13, x9, x13, hi
	stp	x12, x13, [x11, #LW_N_MIN]
	ldp	x12, x13, [x11, #LW_N_VISITS]	/* visits, inclusive */
	add	x10, x12, #1
	add	x13, x13, x9
	stp	x10, x13, [x11, #LW_N_VISITS]
	/* Every 4,096th visit of a call path: may its region be throttled? */
	tst	x10, #0xfff
	b.eq	.Lthrottle_check
	/* The caller's x30 and x19 out of the slot, then the slot (and any
	 * slot above it left by a longjmp) freed: from here on a signal
	 * handler's call may reuse it. */
.Lexit_release:
	mov	x10, x19
	ldp	x30, x19, [x19, #LW_RA_RA]
	.cfi_restore x19
	.cfi_restore x30
	str	x10, [x14, #LW_T_RA_TOP]
	str	wzr, [x14, #LW_T_GUARD]
	.globl	lw_abi_hot2_end
	.hidden	lw_abi_hot2_end
lw_abi_hot2_end:
	POP_SCRATCH
	ret

.Lexit_to_c_guard:
	.cfi_restore_state
	.cfi_remember_state
	str	wzr, [x14, #LW_T_GUARD]
.Lexit_to_c:
	POP_SCRATCH
	/* The C hook, every register as the original left it. */
	sub	sp, sp, #EXIT_FRAME
	.cfi_def_cfa_offset EXIT_FRAME
	X0_X7 stp
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	str	x18, [sp, #144]
	/* The caller's x19 and x30 out of the slot, before lw_abi_exit frees
	 * it (a signal handler's call may reuse it from then on). */
	ldp	x0, x1, [x19, #LW_RA_RA]	/* the return address, x19 */
	stp	x1, x0, [sp, #160]
	.cfi_offset x19, -16
	.cfi_offset x30, -8
	mov	x0, x19
	bl	lw_abi_exit
	X0_X7 ldp
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldr	x18, [sp, #144]
	ldp	x19, x30, [sp, #160]
	.cfi_restore x19
	.cfi_restore x30
	add	sp, sp, #EXIT_FRAME
	.cfi_def_cfa_offset 0
	ret

	.cfi_restore_state		/* the exit's remembered state, then the entry's */
.Lnot_measured:
	.cfi_restore_state
	ldr	x16, [sp, #128]			/* the entry */
	cbnz	x0, .Lmissing
	RESTORE_ARGS
	ldr	x17, [x16, #LW_E_ORIG]
	mov	sp, x29
	.cfi_def_cfa sp, 16
	ldp	x29, x30, [sp], #16
	.cfi_def_cfa_offset 0
	.cfi_restore x29
	.cfi_restore x30
	br	x17

.Lmissing:
	.cfi_def_cfa x29, 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	mov	x0, x16
	bl	lw_abi_missing			/* errno ENOSYS, or abort */
	mov	x0, #0
	mov	x1, #0
	movi	v0.2d, #0
	movi	v1.2d, #0
	movi	v2.2d, #0
	movi	v3.2d, #0
	mov	sp, x29
	.cfi_def_cfa sp, 16
	ldp	x29, x30, [sp], #16
	.cfi_def_cfa_offset 0
	.cfi_restore x29
	.cfi_restore x30
	ret

	/*
	 * A throttled region (throttle.c), as on x86-64: the visit is counted
	 * on the call path that exists under the top frame, with no
	 * timestamp, no frame and no return slot, and the original is
	 * branched to; one call in LW_THROTTLE_SAMPLE, and any call the checks
	 * below do not allow, takes the fast path and is timed. The call path
	 * is found as on the fast path, a tail call's too (.Lthrottled_tail).
	 * From here to lw_abi_hot3_end, as on the fast path, every
	 * step leaves the runtime consistent: a signal handler that
	 * interrupts it may leave by longjmp (signal.c). Between the visit and
	 * its count as not timed (lw_abi_untimed_count, the node in x11, the
	 * count in x13), the dispatcher stores the count before the handler
	 * runs.
	 */
	.globl	lw_abi_hot3_begin
	.hidden	lw_abi_hot3_begin
lw_abi_hot3_begin:
	.globl	lw_abi_path_throttled
	.hidden	lw_abi_path_throttled
lw_abi_path_throttled:
.Lthrottled:
	PUSH_SCRATCH
	.cfi_remember_state
	GUARD_TAKE .Lfast_busy
	ldr	x9, [x14, #LW_T_HOT]
	ldr	w12, [x9, #LW_TH_DEPTH]
	ldr	w13, [x9, #LW_TH_CAP]
	cmp	w12, w13
	b.hs	.Lthrottled_timed		/* no thread, no room, or events */
	ldr	x13, [x9, #LW_TH_STACK]
	add	x12, x13, x12, lsl #5		/* above the top frame */
	add	x10, sp, #40			/* the call's identity */
	ldr	x13, [x12, #LW_F_FRAME-LW_F_SIZE]
	cmp	x13, x10
	b.ls	.Lthrottled_tail		/* a tail call, or an abandoned frame */
.Lthrottled_live:
	ldr	w10, [x16, #LW_E_ID]
	ldr	x13, [x12, #LW_F_NODE-LW_F_SIZE]	/* the parent */
	LAST_HIT x13, x11, w10, w17, .Lthrottled_probe
.Lthrottled_found:
	ldr	x12, [x11, #LW_N_VISITS]
	add	x12, x12, #1
	tst	x12, #LW_THROTTLE_SAMPLE-1
	b.eq	.Lthrottled_timed		/* the sampled call: its exit counts it */
	ldr	x13, [x11, #LW_N_UNMEASURED]
	add	x13, x13, #1
	str	x12, [x11, #LW_N_VISITS]
	.globl	lw_abi_untimed_count
	.hidden	lw_abi_untimed_count
lw_abi_untimed_count:
	str	x13, [x11, #LW_N_UNMEASURED]
	.globl	lw_abi_untimed_counted
	.hidden	lw_abi_untimed_counted
lw_abi_untimed_counted:
	str	wzr, [x14, #LW_T_GUARD]
	POP_SCRATCH
	ldr	x17, [x16, #LW_E_ORIG]
	br	x17
	/* At or above the top frame's identity (x13), as a tail call from
	 * the top frame's original is (.Lfast_tail: its identity 0 to
	 * LW_RA_TAIL_MAX above the frame's). It is one when x30 is one of the
	 * trampoline's return points: the original that the trampoline
	 * called with it, or its tail calls, run, and a frame that it left
	 * by longjmp lies 16 bytes or more below. Counted in the top frame;
	 * anything else is an abandoned frame, for the C hook. */
.Lthrottled_tail:
	.cfi_adjust_cfa_offset 48
	sub	x13, x10, x13
	cmp	x13, #LW_RA_TAIL_MAX
	b.hi	.Lthrottled_timed
	RETURN_POINT x13, .Lthrottled_timed
	b	.Lthrottled_live
	/* Not among the parent's last four children: the table's. */
.Lthrottled_probe:
	PROBE	x11, .Lthrottled_found, .Lthrottled_timed, 0
.Lthrottled_timed:
	.cfi_restore_state
	str	wzr, [x14, #LW_T_GUARD]
	POP_SCRATCH
	b	.Lfast_start
	.globl	lw_abi_hot3_end
	.hidden	lw_abi_hot3_end
lw_abi_hot3_end:

	/*
	 * A region whose parameters or result are recorded, as on x86-64: the
	 * fast path up to the node, then lw_abi_record_hot (general registers
	 * only, no call) records the integers, reading x0-x7 where the C hooks
	 * leave them (LW_ABI_SAVED_GPRS: at the caller's stack pointer less
	 * 176) and the stack arguments above; then the frame, the timestamp
	 * and the call as on the fast path: the recording is not in the call's
	 * time. x8, x15, x18 and x30 are kept around the hook, and the thread,
	 * the slot and the frame too (a signal handler's call in between may
	 * point lw_tls.hot elsewhere). A recorded result makes the exit take
	 * the C hook. What lw_abi_record_hot leaves (a node's first recorded
	 * call, values other than integers), a node not among the last four
	 * and tail calls take the C hooks.
	 */
	.globl	lw_abi_path_record
	.hidden	lw_abi_path_record
lw_abi_path_record:
.Lrecord:
	.cfi_remember_state
	PUSH_SCRATCH
	GUARD_TAKE .Lfast_busy
	SLOT_FRAME .Lfast_to_c_noslot, .Lfast_to_c
	LAST_HIT x13, x16, w10, w17, .Lfast_to_c_entry
	sub	sp, sp, #128			/* x0-x7 at the caller's sp - 176 */
	.cfi_adjust_cfa_offset 128
	X0_X7 stp
	stp	x8, x15, [sp, #64]
	stp	x18, x9, [sp, #80]
	stp	x11, x12, [sp, #96]
	stp	x14, x30, [sp, #112]
	.cfi_offset x30, -56
	mov	x0, x9
	mov	x1, x16
	add	x2, sp, #168			/* where the C hooks keep x30: the call's identity */
	bl	lw_abi_record_hot
	mov	x16, x0
	ldp	x14, x30, [sp, #112]
	.cfi_restore x30
	ldp	x11, x12, [sp, #96]
	ldp	x18, x9, [sp, #80]
	ldp	x8, x15, [sp, #64]
	X0_X7 ldp
	add	sp, sp, #128
	.cfi_adjust_cfa_offset -128
	cbz	x16, .Lfast_to_c_entry
	ldr	x13, [x11, #LW_RA_ENTRY]
	ldr	w10, [x13, #LW_E_ID]
	ldr	w13, [x13, #LW_E_FLAGS]
	tbz	w13, #LW_E_RECORD_RESULT_BIT, .Lfound
	mov	w13, #LW_RA_NO_FAST_EXIT
	str	w13, [x11, #LW_RA_DEPTH]
	b	.Lfound
	.cfi_restore_state

	/*
	 * A throttled region that calls wrapped functions (throttle.c): the
	 * fast path up to the node, then, unless the call is the sampled one,
	 * no timestamp: the frame's start says LW_FRAME_UNTIMED and the
	 * original returns to lw_abi_return_untimed, whose exit counts the
	 * visit. The calls below it find their parent's frame as always. Each
	 * step leaves the runtime consistent, as the fast path's do (to
	 * lw_abi_hot4_end); the exit counts its visit as the leaf's does
	 * (lw_abi_untimed_exit_count).
	 */
	.globl	lw_abi_hot4_begin
	.hidden	lw_abi_hot4_begin
lw_abi_hot4_begin:
	.globl	lw_abi_path_throttled_framed
	.hidden	lw_abi_path_throttled_framed
lw_abi_path_throttled_framed:
.Lthrottled_framed:
	PUSH_SCRATCH
	GUARD_TAKE .Lfast_busy
	SLOT_FRAME .Lthrottled_timed, .Lfast_to_c
	LAST_HIT x13, x16, w10, w17, .Lframed_probe
.Lframed_found:
	ldr	x13, [x16, #LW_N_VISITS]
	tst	x13, #LW_THROTTLE_SAMPLE-1
	b.eq	.Lfound				/* the sampled call: timed */
	FRAME_FILL
	mov	x13, #LW_F_UNTIMED
	str	x13, [x12, #LW_F_START]
	FRAME_PUSH
	str	wzr, [x14, #LW_T_GUARD]
	CALL_SETUP
	ldr	x17, [x16, #LW_E_ORIG]
	blr	x17
	.globl	lw_abi_return_untimed
	.hidden	lw_abi_return_untimed
lw_abi_return_untimed:
	.cfi_def_cfa sp, 1
	PUSH_SCRATCH
	.cfi_def_cfa_offset 48
	.cfi_restore sp
	TLS_BLOCK x14, x10
	ldr	w10, [x14, #LW_T_GUARD]
	cbnz	w10, .Lexit_to_c		/* the C hook counts it (lw_frame_close) */
	mov	w10, #1
	str	w10, [x14, #LW_T_GUARD]
	ldr	x12, [x14, #LW_T_RA_TOP]
	add	x13, x19, #LW_RA_SIZE
	cmp	x12, x13
	b.ne	.Lexit_to_c_guard		/* not the newest slot */
	ldr	x10, [x14, #LW_T_HOT]
	ldr	w11, [x19, #LW_RA_DEPTH]
	add	w11, w11, #1
	ldr	w12, [x10, #LW_TH_DEPTH]
	cmp	w12, w11
	b.ne	.Lexit_to_c_guard		/* not the top frame, or no thread */
	sub	w12, w12, #1
	str	w12, [x10, #LW_TH_DEPTH]
	ldr	x11, [x19, #LW_RA_FRAME]
	ldr	x11, [x11, #LW_F_NODE]
	ldr	x12, [x11, #LW_N_VISITS]
	ldr	x13, [x11, #LW_N_UNMEASURED]
	add	x12, x12, #1
	add	x13, x13, #1
	str	x12, [x11, #LW_N_VISITS]
	.globl	lw_abi_untimed_exit_count
	.hidden	lw_abi_untimed_exit_count
lw_abi_untimed_exit_count:
	str	x13, [x11, #LW_N_UNMEASURED]
	.globl	lw_abi_untimed_exit_counted
	.hidden	lw_abi_untimed_exit_counted
lw_abi_untimed_exit_counted:
	b	.Lexit_release

	/* The fast path's and the framed path's nodes not among the parent's
	 * last four children: the table's. Here, where a signal handler may
	 * leave by longjmp (signal.c); the entry's state: the scratch
	 * registers pushed, x19 and x30 the caller's. */
	.cfi_remember_state
	.cfi_def_cfa sp, 48
	.cfi_restore x19
	.cfi_restore x30
.Lprobe:
	PROBE	x16, .Lfound, .Lfast_to_c_entry
	/*
	 * A tail call that a measured original makes through this wrapper
	 * (sqlite3_free ends in `b sqlite3_mutex_leave`): x30 is the
	 * trampoline's return point and the newest slot, at this call's
	 * identity, is the top frame's. The call is nested in that frame with
	 * the identity just below it (lw_abi_slot: at most LW_RA_TAIL_MAX tail
	 * calls deep), the slot keeping the caller's, and goes on as any
	 * other. Any other slot at or below this call is a leftover of a
	 * longjmp: the C hook takes it back. The flags are still those of the
	 * comparison with the newest slot (SLOT_FRAME).
	 */
.Lfast_tail:
	b.ne	.Lfast_to_c_noslot		/* a leftover below this call */
	RETURN_POINT x12, .Lfast_to_c_noslot	/* else a leftover at this call */
	ldr	x9, [x14, #LW_T_HOT]
	ldr	w12, [x9, #LW_TH_DEPTH]
	sub	w12, w12, #1
	ldr	w13, [x11, #LW_RA_DEPTH-LW_RA_SIZE]
	cmp	w12, w13
	b.ne	.Lfast_to_c_noslot		/* not the top frame's, or no thread */
	ldr	x17, [x11, #LW_RA_FRAME-LW_RA_SIZE]
	ldr	x17, [x17, #LW_F_FRAME]
	sub	x17, x17, #1			/* the identity: just below the frame's */
	sub	x13, x10, x17
	cmp	x13, #LW_RA_TAIL_MAX
	b.hi	.Lfast_to_c_noslot		/* deeper than LW_RA_TAIL_MAX tail calls */
	SLOT_CLAIM .Lfast_to_c, x17
	LAST_HIT x13, x16, w10, w17, .Lprobe
	b	.Lfound
.Lframed_probe:
	PROBE	x16, .Lframed_found, .Lfast_to_c_entry, 0
	.cfi_restore_state
	.globl	lw_abi_hot4_end
	.hidden	lw_abi_hot4_end
lw_abi_hot4_end:

	/* lw_throttle_check(node) through the gate, every register kept:
	 * x0-x8 and x15-x18 here, x14 (the TLS block) too, x9-x13 below. */
.Lthrottle_check:
	sub	sp, sp, #112
	.cfi_adjust_cfa_offset 112
	X0_X7 stp
	stp	x8, x14, [sp, #64]
	stp	x15, x16, [sp, #80]
	stp	x17, x18, [sp, #96]
	adrp	x0, lw_throttle_check
	add	x0, x0, :lo12:lw_throttle_check
	mov	x1, x11
	mov	x2, xzr
	bl	lw_abi_call_saving
	X0_X7 ldp
	ldp	x8, x14, [sp, #64]
	ldp	x15, x16, [sp, #80]
	ldp	x17, x18, [sp, #96]
	add	sp, sp, #112
	.cfi_adjust_cfa_offset -112
	b	.Lexit_release
	.cfi_endproc
	.size	libwrap_trampoline, .-libwrap_trampoline

/* The compensation's calibration (compensate.c) calls an empty function
 * through the trampoline as a generated wrapper does, with its own entry. */
	.globl	lw_abi_calib_stub
	.hidden	lw_abi_calib_stub
	.type	lw_abi_calib_stub, %function
	.p2align 4
lw_abi_calib_stub:
	.cfi_startproc
	adrp	x16, lw_abi_calib_entry
	add	x16, x16, :lo12:lw_abi_calib_entry
	ldr	x17, [x16, #LW_E_DISPATCH]
	br	x17
	.cfi_endproc
	.size	lw_abi_calib_stub, .-lw_abi_calib_stub

/*
 * uintptr_t lw_abi_call_saving(fn, a, b): fn(a, b), ordinary C, with q0-q31
 * (the whole 128-bit vector registers: arguments, results, the upper
 * halves of v8-v15 that the PCS does not keep), FPCR and FPSR as they were.
 */
	.globl	lw_abi_call_saving
	.hidden	lw_abi_call_saving
	.type	lw_abi_call_saving, %function
	.p2align 4
lw_abi_call_saving:
	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	mov	x29, sp
	.cfi_def_cfa x29, 16
	sub	sp, sp, #528
	VEC_PAIRS stp
	mrs	x9, fpcr
	mrs	x10, fpsr
	stp	x9, x10, [sp, #0]
	mov	x9, x0
	mov	x0, x1
	mov	x1, x2
	blr	x9
	ldp	x9, x10, [sp, #0]
	msr	fpcr, x9
	msr	fpsr, x10
	VEC_PAIRS ldp
	mov	sp, x29
	.cfi_def_cfa sp, 16
	ldp	x29, x30, [sp], #16
	.cfi_def_cfa_offset 0
	.cfi_restore x29
	.cfi_restore x30
	ret
	.cfi_endproc
	.size	lw_abi_call_saving, .-lw_abi_call_saving

/*
 * void lw_abi_save_xmm(uint64_t out[8]): the low 64 bits of v0-v7 (the
 * floating-point arguments, or v0 the result) into out[], for the hooks
 * that are built without vector registers. Only reads them.
 */
	.globl	lw_abi_save_xmm
	.hidden	lw_abi_save_xmm
	.type	lw_abi_save_xmm, %function
	.p2align 4
lw_abi_save_xmm:
	.cfi_startproc
	stp	d0, d1, [x0, #0]
	stp	d2, d3, [x0, #16]
	stp	d4, d5, [x0, #32]
	stp	d6, d7, [x0, #48]
	ret
	.cfi_endproc
	.size	lw_abi_save_xmm, .-lw_abi_save_xmm

#endif

	.section .note.GNU-stack, "", %progbits
