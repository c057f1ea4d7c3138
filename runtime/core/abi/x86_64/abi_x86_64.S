/*
 * abi_x86_64.S - ABI-level forwarding for x86-64 System V (docs/abi.md).
 *
 * Every generated wrapper is `lea ENTRY(%rip), %r11; jmp *DISPATCH(%r11)`
 * with ENTRY its libwrap_abi_entry, whose `dispatch` the runtime sets with
 * its state (lw_abi_set_state): this file's path for the state
 * (lw_abi_path_fast, lw_abi_path_throttled, lw_abi_path_throttled_framed,
 * lw_abi_path_record), the original itself when the function is excluded,
 * else libwrap_trampoline, the generic entry, which reads the state and
 * takes the same paths. The trampoline
 *
 *  1. saves the argument registers (%rdi %rsi %rdx %rcx %r8 %r9, %rax which
 *     holds the vector-register count of a variadic call, %r10 the static
 *     chain) at 0..56(%rsp), 88 bytes below the return address (argument
 *     recording reads them there: LW_ABI_SAVED_GPRS in abi.h, at entry and
 *     at exit), and calls lw_abi_enter, which touches no vector or x87
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

#include "core/abi/abi.h"

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

/* The head of a function of the runtime's own (hidden). */
.macro FUNCTION name
	.globl	\name
	.hidden	\name
	.type	\name, @function
	.p2align 4
\name:
	.cfi_startproc
.endm

/* A frame on %rbp, as a compiler makes it. */
.macro RBP_FRAME
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
.endm

/*
 * The CFI of a trampoline frame while its original runs: the return
 * address was popped, so the frame's stack pointer is its caller's at the
 * call. Unwinders identify a frame by its callee's CFA (libgcc finds an
 * exception's handler frame again so in its second phase): with the usual
 * CFA the caller and this frame would be one. And a tail call from one
 * measured original into another wrapper makes a second trampoline frame
 * at the same stack pointer (the first one's return point its return
 * address): were their CFAs equal, libgcc would take the outer one for the
 * handler's frame and abort. So the CFA is the stack pointer plus 1, less
 * the number of slots right below this one with the same call identity
 * (the calls it is a tail call of, LW_RA_SP; three sentinels lie below the
 * first slot), up to three: each frame of a chain one byte below the one
 * that called it,
 *
 *   DW_CFA_def_cfa_expression:
 *     rsp + 1 - e1 - e1*e2 - e1*e2*e3,  ek = (slot[-k].sp == slot.sp),
 *
 * in the operations every unwinder reads (breg, deref, eq, mul, minus:
 * valgrind's CFI reader knows no others). The caller's stack pointer is
 * this frame's, by its own rule.
 */
.if LW_RA_SP != 24 || LW_RA_SIZE != 48
.error "CFI_CALL_FRAME's expression spells LW_RA_SP and LW_RA_SIZE as 24 and 48"
.endif
.macro CFI_CALL_FRAME
	.cfi_escape 0x0f, 53, 0x77, 0x01, 0x73, 0x68, 0x06, 0x73, 0x18, 0x06, 0x29, 0x1c, 0x73, 0x68, 0x06, 0x73, 0x18, 0x06, 0x29, 0x73, 0xb8, 0x7f, 0x06, 0x73, 0x18, 0x06, 0x29, 0x1e, 0x1c, 0x73, 0x68, 0x06, 0x73, 0x18, 0x06, 0x29, 0x73, 0xb8, 0x7f, 0x06, 0x73, 0x18, 0x06, 0x29, 0x1e, 0x73, 0x88, 0x7f, 0x06, 0x73, 0x18, 0x06, 0x29, 0x1e, 0x1c
	.cfi_escape 0x16, 0x07, 0x02, 0x77, 0x00	/* DW_CFA_val_expression rsp: rsp */
.endm

/* The frame of a call of a C hook: %rbp, the caller-saved registers at
 * 0..56(%rsp) (SAVE_GPRS) and the entry %r11 at 64(%rsp). */
.macro C_HOOK_FRAME
	RBP_FRAME
	subq	$80, %rsp
	SAVE_GPRS
	movq	%r11, 64(%rsp)
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

/* The child of region `id` (a 32-bit register) among the last four that
 * the parent called, into `node` (a 64-bit register), or a jump to `miss`
 * with the parent in `node`. `frame` points to the new frame (or may be
 * `node`): the parent is the node of the one below, read into `node` (the
 * only register free on the fast path), which the
 * child read replaces once a region compared is `id`'s: a try is a
 * comparison and a branch. The region compared and the child read are
 * both the parent's (lw_node.last_region): one load after the parent, not
 * two. The latest child, the loop's, is the shortest way through (the
 * same four instructions as a try that reads the child with the region). */
.macro LAST_HIT frame, node, id, miss
	movq	LW_F_NODE-LW_F_SIZE(\frame), \node
	cmpl	\id, LW_N_LAST_REGION(\node)
	je	5f
	cmpl	\id, LW_N_LAST_REGION+4(\node)
	je	6f
	cmpl	\id, LW_N_LAST_REGION+8(\node)
	je	7f
	cmpl	\id, LW_N_LAST_REGION+12(\node)
	jne	\miss
	movq	LW_N_LAST_HIT+24(\node), \node
	jmp	9f
6:	movq	LW_N_LAST_HIT+8(\node), \node
	jmp	9f
7:	movq	LW_N_LAST_HIT+16(\node), \node
	jmp	9f
5:	movq	LW_N_LAST_HIT(\node), \node
9:
.endm

/* The fast path's scratch registers, pushed and popped with their CFI. */
.macro PUSH reg
	pushq	\reg
	.cfi_adjust_cfa_offset 8
.endm
.macro POP reg
	popq	\reg
	.cfi_adjust_cfa_offset -8
.endm

/*
 * The node of region `id` (a 32-bit register) under the node `parent`, in
 * the table of `thread`, as lw_tree_find
 * (hot.h) finds it: any child of any parent, not only the last four. Found,
 * into `out` (`out32` its low half; `parent` may be it, none of the three
 * others), it becomes
 * the parent's latest (lw_note_hit) when `note` is 1, and the path goes on
 * at `found`; not found (a new call path), at `miss`. %rsi, %rdi and %r8
 * are pushed and popped around it. Reads, and stores of the parent's last
 * four: each of them changes as its region 0 (no lookup matches it), its
 * child, its region, so that every step leaves them consistent, as the
 * fast paths' steps must (a signal handler may leave by longjmp,
 * signal.c). The throttled paths leave them to the timed calls (one in
 * LW_THROTTLE_SAMPLE of each call path, and every call of a new one): a
 * caller of more than four functions in turn would reorder them at every
 * call for nothing.
 */
.macro PROBE parent, id, thread, out, out32, found, miss, note=1
	PUSH	%rsi
	PUSH	%rdi
	PUSH	%r8
	movq	\parent, %rsi
	movl	\id, \out32
	movabsq	$0x9e3779b97f4a7c15, %rdi
	imulq	%rdi, \out
	movq	%rsi, %rdi
	shrq	$4, %rdi
	xorq	%rdi, \out
	movq	\out, %rdi
	shrq	$29, %rdi
	xorq	%rdi, \out
	movabsq	$0xbf58476d1ce4e5b9, %rdi
	imulq	%rdi, \out
	movq	\out, %rdi
	shrq	$32, %rdi
	xorq	%rdi, \out
	movq	LW_TH_HASH(\thread), %rdi
1:	andq	LW_TH_HASH_MASK(\thread), \out
	movq	(%rdi,\out,8), %r8
	testq	%r8, %r8
	jz	3f
	incq	\out
	cmpq	%rsi, LW_N_PARENT(%r8)
	jne	1b
	cmpl	\id, LW_N_REGION(%r8)
	jne	1b
.if \note
	LAST_MOVE 2, 3
	LAST_MOVE 1, 2
	LAST_MOVE 0, 1
	movl	$0, LW_N_LAST_REGION(%rsi)
	movq	%r8, LW_N_LAST_HIT(%rsi)
	movl	\id, LW_N_LAST_REGION(%rsi)
.endif
	movq	%r8, \out
	POP	%r8
	POP	%rdi
	POP	%rsi
	jmp	\found
	.cfi_adjust_cfa_offset 24
3:	POP	%r8
	POP	%rdi
	POP	%rsi
	jmp	\miss
.endm

/* The parent's (%rsi) last child `from` into place `to` (PROBE), %edi
 * scratch. */
.macro LAST_MOVE from, to
	movl	$0, LW_N_LAST_REGION+4*\to(%rsi)
	movq	LW_N_LAST_HIT+8*\from(%rsi), %rdi
	movq	%rdi, LW_N_LAST_HIT+8*\to(%rsi)
	movl	LW_N_LAST_REGION+4*\from(%rsi), %edi
	movl	%edi, LW_N_LAST_REGION+4*\to(%rsi)
.endm

	.text

/*
 * The fast path (the common case, in the trampoline itself): the table
 * entry says LW_ABI_STATE_FAST, the thread is not inside the runtime and
 * may take the fast path (lw_tls.hot, or lw_tls.hot_ev when its events are
 * buffered for listeners), a return slot is free and no older one is a
 * leftover at or below this call, the frame stack (and the event buffer)
 * has room and its top frame is live, and the node of this region under it
 * is the one found last time. Then: the slot and the frame are filled, the
 * entry timestamp is taken last, and the original is called with %rax %rdx
 * %rcx %rbx (the only registers used) as the caller left them. Anything
 * else goes to the C hooks below (lw_abi_enter and lw_abi_exit), which
 * handle every case. The same steps as lw_enter_fast and lw_exit_fast
 * (hot.h): keep them alike. The guard is taken with `bts`: set, and the
 * carry says it was set before (a call from inside the runtime, or from a
 * signal handler that interrupted it), in one instruction.
 */

/* The four scratch registers pushed at the entry, the return address
 * then at 32(%rsp). */
.macro ENTRY_PUSH
	PUSH	%rbx
	.cfi_rel_offset %rbx, 0
	PUSH	%rax
	PUSH	%rdx
	PUSH	%rcx
.endm

/* And popped back: the caller's four registers as it left them. */
.macro ENTRY_POP
	POP	%rcx
	POP	%rdx
	POP	%rax
	POP	%rbx
	.cfi_restore %rbx
.endm

/* The thread's guard taken, %rcx the TLS offset: to .Lfast_busy (the four
 * registers pushed) when it was held, a call from inside the runtime. */
.macro GUARD_TAKE
	movq	lw_tls@gottpoff(%rip), %rcx
	btsl	$0, %fs:LW_T_GUARD(%rcx)
	jc	.Lfast_busy
.endm

/* The thread's guard taken (%rcx the TLS offset), a return slot free at
 * %rbx and the call's identity in %rax (its stack pointer, where the
 * return address is): else `full` (no slot free) or `below` (a slot at or
 * below this call: a tail call, or a leftover). */
.macro SLOT_FREE full, below
	movq	%fs:LW_T_RA_TOP(%rcx), %rbx
	cmpq	%fs:LW_T_RA_END(%rcx), %rbx
	jae	\full
	leaq	32(%rsp), %rax			/* the call's identity */
	cmpq	%rax, LW_RA_SP-LW_RA_SIZE(%rbx)
	jbe	\below
.endm

/* The slot claimed (SLOT_FREE, then taken before it is filled: a call
 * from a signal handler that interrupts the rest, the guard held, takes
 * the next one), then the thread's state in %rcx and the frame index in
 * %edx, checked against the stack's capacity: else `noroom` (no room, no
 * thread, or events). */
.macro CLAIM_ROOM full, below, noroom
	SLOT_FREE \full, \below
	addq	$LW_RA_SIZE, %fs:LW_T_RA_TOP(%rcx)
	movq	%rax, LW_RA_SP(%rbx)
	THREAD_ROOM \noroom
.endm
.macro THREAD_ROOM noroom
	movq	%fs:LW_T_HOT(%rcx), %rcx
	movl	LW_TH_DEPTH(%rcx), %edx
	cmpl	LW_TH_CAP(%rcx), %edx
	jae	\noroom
.endm

/* The return address at (\ra) is one of the trampoline's return points
 * (abi.h, lw_abi_is_return_point), else to `no`; \tmp is scratch. */
.macro RETURN_POINT ra, tmp, no
	leaq	lw_abi_return_point(%rip), \tmp
	cmpq	\tmp, (\ra)
	je	8f
	leaq	lw_abi_return_untimed(%rip), \tmp
	cmpq	\tmp, (\ra)
	jne	\no
8:
.endm

/* The node of the call in %rax, its new frame in %rdx and its region in
 * %r11d, once the thread's state is in %rcx and the frame index in %edx,
 * checked against the stack's capacity, the slot claimed at %rbx. The
 * parent's last four children are tried, then `miss`: the tree's table
 * (.Lprobe), then the C hook. */
.macro FRAME_NODE miss=.Lprobe
	movq	%r11, LW_RA_ENTRY(%rbx)
	movl	%edx, LW_RA_DEPTH(%rbx)
	shlq	$5, %rdx
	addq	LW_TH_STACK(%rcx), %rdx		/* the new frame */
	cmpq	%rax, LW_F_FRAME-LW_F_SIZE(%rdx)
	jbe	.Lfast_to_c			/* the top frame was abandoned */
	movq	%rax, LW_F_FRAME(%rdx)
	movl	LW_E_ID(%r11), %r11d
	LAST_HIT %rdx, %rax, %r11d, \miss
.endm

/* The frame's node and region filled, the slot pointing to it. The frame
 * goes onto the thread's stack (`incl LW_TH_DEPTH(%rcx)`) once its start
 * is stored too: a signal handler that leaves by longjmp before never
 * finds it there with another call's start. */
.macro FRAME_FILL
	movq	%rax, LW_F_NODE(%rdx)
	movq	%r11, LW_F_REGION(%rdx)		/* and inherited = 0 */
	movq	%rdx, LW_RA_FRAME(%rbx)
.endm

/* The guard given back, the scratch registers popped, the caller's %rbx
 * and return address moved into the slot: the stack as the caller left
 * it, %r11 the entry, for the call of the original. */
.macro CALL_SETUP
	movq	lw_tls@gottpoff(%rip), %rcx
	movl	$0, %fs:LW_T_GUARD(%rcx)
	movq	LW_RA_ENTRY(%rbx), %r11
	POP	%rcx
	POP	%rdx
	POP	%rax
	popq	LW_RA_RBX(%rbx)			/* the caller's %rbx into the slot */
	.cfi_adjust_cfa_offset -8
	CFI_SAVED_AT_RBX(0x03, LW_RA_RBX)
	popq	LW_RA_RA(%rbx)			/* and its return address */
	CFI_SAVED_AT_RBX(0x10, LW_RA_RA)
	CFI_CALL_FRAME
.endm

/* Back from the original (%rsp as at the entry plus 8): the return
 * address put back, then three scratch registers pushed. `remember`
 * keeps the CFI state in between for the exit's other blocks. */
.macro RETURN_PUSH remember
	pushq	0(%rbx)
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rsp
	.cfi_offset 16, -8
.if \remember
	.cfi_remember_state
.endif
	PUSH	%rax
	PUSH	%rdx
	PUSH	%rcx
.endm

/* The thread's buffered events (`thread`) to the listeners:
 * lw_events_deliver through a gate, the slot at %rbx; %rax, %rdx, %rsi and
 * %rdi are scratch. A function flagged LIBWRAP_ABI_NO_VECTOR passes
 * nothing in vector registers: the gate that keeps none. Else the one that
 * keeps the argument and result registers or, at an exit (`exit`) with
 * values on the x87 stack (a long double result), the full one. */
.macro DELIVER thread, exit
	movq	\thread, %rsi
	leaq	lw_events_deliver(%rip), %rdi
	xorl	%edx, %edx
	movq	LW_RA_ENTRY(%rbx), %rax
	testl	$LW_E_NO_VECTOR, LW_E_FLAGS(%rax)
	jnz	7f
.if \exit
	fnstsw	%ax
	testl	$0x3800, %eax			/* x87 TOP */
	jnz	8f
.endif
	call	lw_abi_call_abi
	jmp	9f
7:	call	lw_abi_call_gpr
.if \exit
	jmp	9f
8:	call	lw_abi_call_saving
.endif
9:
.endm

/*
 * Recording a call's integers (.Lrecord), once the node's block of them is
 * at %rax and the thread's state at %rcx, ENTRY_PUSH's frame at \o(%rsp):
 * the caller's %rcx and %rdx at \o and \o+8, its return address at \o+32.
 * The common case, one parameter, is set aside here as lw_args_add does:
 * its slot's `at` eightbytes from the return address (a register, read
 * where it is, or the stack), extended, into the thread's buffer with its
 * slot (a full buffer into the statistics through lw_abi_record_reduce).
 * Only %rax %rcx %rdx %r11 change: the argument registers are neither
 * saved nor restored but around the reduction, one call in LW_ARG_PEND
 * (each store costs the call about a cycle where timestamps wait for
 * them). Several parameters, or a result: lw_abi_record_add, with the
 * registers laid out as the C hooks lay them (LW_ABI_SAVED_GPRS). Then
 * the thread's measurement clock moves on by the recording's cost
 * (lw_abi_cost_record), which the call's time thus leaves out.
 */
.if LW_ABI_GPR_AT != -11
.error "RECORD_ONE's registers are at -11 (%rdi) to -6 (%r9): LW_ABI_GPRS_BELOW is 11"
.endif
.macro RECORD o
	cmpl	$1, LW_B_NSLOTS(%rax)
	jne	4f
	cmpb	$0, LW_B_SLOT+LW_S_RESULT(%rax)
	jne	4f
	movswq	LW_B_SLOT+LW_S_AT(%rax), %rdx
	movq	%rdi, %r11
	cmpq	$-11, %rdx
	je	1f
	movq	%rsi, %r11
	cmpq	$-10, %rdx
	je	1f
	movq	\o+8(%rsp), %r11		/* the caller's %rdx */
	cmpq	$-9, %rdx
	je	1f
	movq	\o(%rsp), %r11			/* and %rcx */
	cmpq	$-8, %rdx
	je	1f
	movq	%r8, %r11
	cmpq	$-7, %rdx
	je	1f
	movq	%r9, %r11
	cmpq	$-6, %rdx
	je	1f
	movq	\o+32(%rsp,%rdx,8), %r11	/* the stack: `at` 1 and above */
1:	movq	%rcx, %rdx			/* the thread */
	movzbl	LW_B_SLOT+LW_S_SHIFT(%rax), %ecx
	shlq	%cl, %r11
	cmpb	$0, LW_B_SLOT+LW_S_SIGN(%rax)
	je	2f
	sarq	%cl, %r11
	jmp	3f
2:	shrq	%cl, %r11
3:	addq	$LW_B_SLOT, %rax		/* the slot */
	movl	LW_TH_NPEND(%rdx), %ecx
	shlq	$3, %rcx
	addq	LW_TH_PEND_SLOT(%rdx), %rcx
	movq	%rax, (%rcx)
	movq	%r11, 8*LW_ARG_PEND_ASM(%rcx)	/* pend_val: LW_ARG_PEND after pend_slot */
	movq	lw_abi_cost_record(%rip), %rax
	addq	%rax, LW_TH_OVERHEAD(%rdx)
	incl	LW_TH_NPEND(%rdx)
	cmpl	$LW_ARG_PEND_ASM, LW_TH_NPEND(%rdx)
	jne	6f
	PUSH	%rdi				/* 5 pushes: %rsp at a call 16-aligned */
	PUSH	%rsi
	PUSH	%r8
	PUSH	%r9
	PUSH	%r10
	movq	%rdx, %rdi
	call	lw_abi_record_reduce
	POP	%r10
	POP	%r9
	POP	%r8
	POP	%rsi
	POP	%rdi
	jmp	6f
	/* Several: the registers as the C hooks lay them out, 88 bytes below
	 * the return address, in 72 bytes below ENTRY_PUSH's frame (\o is
	 * 0 here): the thread at 0(%rsp), %rdi %rsi, the caller's %rdx %rcx,
	 * %r8 %r9 at 16..56(%rsp), %r10 at 64. */
4:	subq	$72, %rsp
	.cfi_adjust_cfa_offset 72
	movq	%rcx, 0(%rsp)
	movq	%rdi, 16(%rsp)
	movq	%rsi, 24(%rsp)
	movq	80(%rsp), %rdi
	movq	%rdi, 32(%rsp)
	movq	72(%rsp), %rdi
	movq	%rdi, 40(%rsp)
	movq	%r8, 48(%rsp)
	movq	%r9, 56(%rsp)
	movq	%r10, 64(%rsp)
	movq	%rax, %rdi
	leaq	104(%rsp), %rsi			/* the return address */
	movq	%rcx, %rdx
	call	lw_abi_record_add
	movq	0(%rsp), %rcx
	movq	lw_abi_cost_record(%rip), %rax
	addq	%rax, LW_TH_OVERHEAD(%rcx)
	movq	16(%rsp), %rdi
	movq	24(%rsp), %rsi
	movq	48(%rsp), %r8
	movq	56(%rsp), %r9
	movq	64(%rsp), %r10
	addq	$72, %rsp
	.cfi_adjust_cfa_offset -72
6:
.endm

/* The entry once the thread's state is in %rcx and the frame index in
 * %edx, checked against the stack's capacity; `ev` appends the event. */
.macro FAST_ENTER ev
	FRAME_NODE
.Lfound\ev:
	FRAME_FILL
	movq	%rdx, %r11
.if \ev == 0
	.globl	lw_abi_enter_time
	.hidden	lw_abi_enter_time
lw_abi_enter_time:
.endif
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
.if \ev
	movq	LW_TH_EV_POS(%rcx), %rdx	/* the event: ticks, region, 0 */
	movq	%rax, 0(%rdx)
	addq	$16, LW_TH_EV_POS(%rcx)
.endif
	/* The start on the thread's measurement clock (measure.h). */
	subq	LW_TH_OVERHEAD(%rcx), %rax
	movq	%rax, LW_F_START(%r11)
	incl	LW_TH_DEPTH(%rcx)
.if \ev
	movq	LW_F_REGION(%r11), %rax
	movq	%rax, 8(%rdx)
	addq	$16, %rdx
	cmpq	LW_TH_EV_END(%rcx), %rdx
	je	.Lenter_deliver			/* the record filled the buffer */
.endif
	CALL_SETUP
.endm

	.globl	libwrap_trampoline
	.type	libwrap_trampoline, @function
	.p2align 4
libwrap_trampoline:
	.globl	lw_abi_trampoline
	.hidden	lw_abi_trampoline
lw_abi_trampoline:
	.cfi_startproc
	.cfi_personality 0x1b, lw_abi_personality
	cmpl	$LW_ABI_STATE_FAST, LW_E_STATE(%r11)
	jne	.Lnot_fast
	.globl	lw_abi_path_fast
	.hidden	lw_abi_path_fast
lw_abi_path_fast:
.Lfast_start:
	.cfi_remember_state
	ENTRY_PUSH
	.cfi_remember_state
	GUARD_TAKE
	/* From here to lw_abi_hot_end, and from .Lfast_enter_ev to
	 * lw_abi_hot2_end, the guard is held by this fast path alone, whose
	 * every step leaves the runtime consistent: a signal handler that
	 * interrupts it may leave by longjmp (signal.c). */
	.globl	lw_abi_hot_begin
	.hidden	lw_abi_hot_begin
lw_abi_hot_begin:
	SLOT_FREE .Lfast_to_c, .Lfast_tail
	/* The slot is taken before it is filled: a call from a signal
	 * handler that interrupts the rest (guard held: the handler's lane,
	 * lane.h) takes the next one. .Lfast_to_c gives it back. */
	addq	$LW_RA_SIZE, %fs:LW_T_RA_TOP(%rcx)
	movq	%rax, LW_RA_SP(%rbx)
.Lfast_claimed:
	/* After the guard: the finaliser clears it (core/measure/measure.h).
	 * No room, or no thread: events? */
	THREAD_ROOM .Lfast_enter_ev
	FAST_ENTER 0
	/* Both paths call the original here, %r11 its entry, %rbx its slot:
	 * one return point. */
.Lcall_original:
	call	*LW_E_ORIG(%r11)
	.globl	lw_abi_return_point
	.hidden	lw_abi_return_point
lw_abi_return_point:
	RETURN_PUSH 1
	/* The exit's fast path. The slot stays taken until everything is read
	 * from it: a signal handler's call takes the next one. The guard
	 * already held: a call of a handler's lane (lane.h), or the runtime
	 * stopped this thread. The timestamp right after the guard: a handler
	 * whose calls were recorded before it has them end earlier, so that a
	 * thread's events never go back in time. */
	movq	lw_tls@gottpoff(%rip), %rcx
	btsl	$0, %fs:LW_T_GUARD(%rcx)
	jc	.Lexit_to_c
	/* The thread's newest slot, or the C hook: a coroutine on a stack of
	 * its own resumed out of order (lw_abi_release_nested). */
	leaq	LW_RA_SIZE(%rbx), %rax
	cmpq	%rax, %fs:LW_T_RA_TOP(%rcx)
	jne	.Lexit_to_c_guard
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%fs:LW_T_HOT(%rcx), %rdx
	movl	LW_RA_DEPTH(%rbx), %ecx
	incl	%ecx
	cmpl	%ecx, LW_TH_DEPTH(%rdx)
	jne	.Lexit_ev			/* not the top frame, or no thread: events? */
	decl	LW_TH_DEPTH(%rdx)
	/* The end on the measurement clock, which then moves on by this
	 * call's cost: its callers' times leave it out. */
	subq	LW_TH_OVERHEAD(%rdx), %rax
	movq	lw_cost_ticks+LW_COST_ABI(%rip), %rcx
	addq	%rcx, LW_TH_OVERHEAD(%rdx)
	movq	LW_RA_FRAME(%rbx), %rdx
	subq	LW_F_START(%rdx), %rax
	jb	.Lexit_backwards
.Lexit_dt:
	movq	LW_F_NODE(%rdx), %rdx
	/* The extremes first, then the visit, then its time: a signal
	 * handler that interrupts this and leaves by longjmp leaves
	 * min <= mean <= max. Between the visit and its time, the dispatcher
	 * adds the time before the handler runs (signal.c,
	 * lw_sig_dispatch). */
	cmpq	LW_N_MIN(%rdx), %rax
	jae	1f
	movq	%rax, LW_N_MIN(%rdx)
1:	cmpq	LW_N_MAX(%rdx), %rax
	jbe	2f
	movq	%rax, LW_N_MAX(%rdx)
2:	incq	LW_N_VISITS(%rdx)
	.globl	lw_abi_exit_time
	.hidden	lw_abi_exit_time
lw_abi_exit_time:
	addq	%rax, LW_N_INCL(%rdx)
	.globl	lw_abi_exit_timed
	.hidden	lw_abi_exit_timed
lw_abi_exit_timed:
	/* Every 4,096th visit of a call path: may its region be throttled? */
	testl	$0xfff, LW_N_VISITS(%rdx)
	jz	.Lthrottle_check
.Lexit_release:
	movq	lw_tls@gottpoff(%rip), %rcx
	/* The caller's %rbx out of the slot, then the slot, the thread's
	 * newest (checked at the exit's start), freed: from here on a signal
	 * handler's call may reuse it. */
	movq	LW_RA_RBX(%rbx), %rbx
	.cfi_restore %rbx
	subq	$LW_RA_SIZE, %fs:LW_T_RA_TOP(%rcx)
	movl	$0, %fs:LW_T_GUARD(%rcx)
	POP	%rcx
	POP	%rdx
	POP	%rax
	ret

	/* lw_throttle_check(node) through the gate, every register kept. */
.Lthrottle_check:
	.cfi_restore_state
	.cfi_remember_state
	.cfi_adjust_cfa_offset 24
	PUSH	%rsi
	PUSH	%rdi
	PUSH	%r8
	PUSH	%r9
	PUSH	%r10
	PUSH	%r11
	movq	%rdx, %rsi
	leaq	lw_throttle_check(%rip), %rdi
	xorl	%edx, %edx
	call	lw_abi_call_saving
	POP	%r11
	POP	%r10
	POP	%r9
	POP	%r8
	POP	%rdi
	POP	%rsi
	jmp	.Lexit_release

	/* The exit with events buffered (lw_tls.hot_ev): the same, and the
	 * event (ticks, -region, 0) appended. */
.Lexit_ev:
	.cfi_restore_state
	.cfi_remember_state
	.cfi_adjust_cfa_offset 24
	movq	lw_tls@gottpoff(%rip), %rcx
	movq	%fs:LW_T_HOT_EV(%rcx), %rdx
	movl	LW_RA_DEPTH(%rbx), %ecx
	incl	%ecx
	cmpl	%ecx, LW_TH_DEPTH(%rdx)
	jne	.Lexit_to_c_guard
	movq	LW_TH_EV_POS(%rdx), %rcx
	cmpq	LW_TH_EV_END(%rdx), %rcx
	jae	.Lexit_to_c_guard		/* a full buffer: delivered by the C path */
	decl	LW_TH_DEPTH(%rdx)
	addq	$16, LW_TH_EV_POS(%rdx)
	movq	%rax, 0(%rcx)
	PUSH	%rsi
	movq	LW_RA_FRAME(%rbx), %rsi
	movl	LW_F_REGION(%rsi), %esi
	negl	%esi
	movq	%rsi, 8(%rcx)
	addq	$16, %rcx
	cmpq	LW_TH_EV_END(%rdx), %rcx
	je	.Lexit_deliver			/* the record filled the buffer */
.Lexit_ev_time:
	subq	LW_TH_OVERHEAD(%rdx), %rax
	movq	lw_cost_ticks+LW_COST_ABI(%rip), %rsi
	addq	%rsi, LW_TH_OVERHEAD(%rdx)
	POP	%rsi
	movq	LW_RA_FRAME(%rbx), %rdx
	subq	LW_F_START(%rdx), %rax
	jae	.Lexit_dt
.Lexit_backwards:
	xorl	%eax, %eax		/* the clock went back (another core's TSC): 0 */
	jmp	.Lexit_dt

	/*
	 * The exit's record filled the buffer (%rdx the thread): the
	 * listeners take it now (lw_events_deliver, through the gate), the
	 * guard held. Their time is their callers' (docs/plugins.md).
	 */
.Lexit_deliver:
	.cfi_restore_state
	.cfi_remember_state
	.cfi_adjust_cfa_offset 32
	PUSH	%rdi
	PUSH	%r8
	PUSH	%r9
	PUSH	%r10
	PUSH	%r11
	PUSH	%rax
	PUSH	%rdx
	DELIVER	%rdx, 1
	POP	%rdx
	POP	%rax
	POP	%r11
	POP	%r10
	POP	%r9
	POP	%r8
	POP	%rdi
	jmp	.Lexit_ev_time

.Lexit_to_c_guard:
	.cfi_restore_state
	.cfi_adjust_cfa_offset 24
	movq	lw_tls@gottpoff(%rip), %rcx
	movl	$0, %fs:LW_T_GUARD(%rcx)
	.globl	lw_abi_hot_end
	.hidden	lw_abi_hot_end
lw_abi_hot_end:
.Lexit_to_c:
	POP	%rcx
	POP	%rdx
	POP	%rax
	/* The C hook, every register as the original left it. */
	C_HOOK_FRAME
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

	/* The entry with events buffered (lw_tls.hot_ev). */
	.globl	lw_abi_hot2_begin
	.hidden	lw_abi_hot2_begin
lw_abi_hot2_begin:
.Lfast_enter_ev:
	.cfi_restore_state
	.cfi_remember_state
	movq	lw_tls@gottpoff(%rip), %rcx
	movq	%fs:LW_T_HOT_EV(%rcx), %rcx
	movq	LW_TH_EV_POS(%rcx), %rdx
	cmpq	LW_TH_EV_END(%rcx), %rdx
	jae	.Lfast_to_c			/* a full buffer, or no thread */
	movl	LW_TH_DEPTH(%rcx), %edx
	cmpl	LW_TH_CAP(%rcx), %edx
	jae	.Lfast_to_c			/* no room */
	FAST_ENTER 1
	jmp	.Lcall_original

	/*
	 * The entry's record filled the buffer (%rcx the thread): the
	 * listeners take it now (lw_events_deliver, through the gate), the
	 * guard held, then the original is called. Their time is the call's
	 * (docs/plugins.md).
	 */
.Lenter_deliver:
	.cfi_restore_state
	.cfi_remember_state
	PUSH	%rsi
	PUSH	%rdi
	PUSH	%r8
	PUSH	%r9
	PUSH	%r10
	DELIVER	%rcx, 0
	POP	%r10
	POP	%r9
	POP	%r8
	POP	%rdi
	POP	%rsi
	CALL_SETUP
	jmp	.Lcall_original

	/* A call path that exists already, not among the parent's last four
	 * children: the tree's table (PROBE); a new one: the C hook. */
.Lprobe:
	.cfi_restore_state
	.cfi_remember_state
	PROBE	%rax, %r11d, %rcx, %rax, %eax, .Lprobe_found, .Lfast_to_c_r11
.Lprobe_found:
	cmpq	$0, LW_TH_EV_POS(%rcx)		/* which entry: with events or not */
	jne	.Lfound1
	jmp	.Lfound0

	/*
	 * A tail call that a measured original makes through this wrapper
	 * (sqlite3_free ends in `jmp sqlite3_mutex_leave@PLT`): the return
	 * address is the trampoline's return point and the newest slot, at
	 * this call's stack pointer, is the top frame's. The call is nested in
	 * that frame with the identity just below it (lw_abi_slot: at most 7
	 * tail calls deep), and goes on as any other. Any other slot at or
	 * below this call is a leftover of a longjmp: the C hook takes it back.
	 * The flags are still those of the comparison with the newest slot.
	 */
.Lfast_tail:
	.cfi_restore_state
	.cfi_remember_state
	jne	.Lfast_to_c			/* a leftover below this call */
	RETURN_POINT %rax, %rdx, .Lfast_to_c	/* else a leftover at this call */
	addq	$LW_RA_SIZE, %fs:LW_T_RA_TOP(%rcx)
	movq	%rax, LW_RA_SP(%rbx)
	/* The newest slot's frame is the top one, with events or not. */
	movq	%fs:LW_T_HOT(%rcx), %rdx
	movl	LW_TH_DEPTH(%rdx), %edx
	decl	%edx
	cmpl	%edx, LW_RA_DEPTH-LW_RA_SIZE(%rbx)
	je	1f
	movq	%fs:LW_T_HOT_EV(%rcx), %rdx
	movl	LW_TH_DEPTH(%rdx), %edx
	decl	%edx
	cmpl	%edx, LW_RA_DEPTH-LW_RA_SIZE(%rbx)
	jne	.Lfast_to_c
1:	movq	LW_RA_FRAME-LW_RA_SIZE(%rbx), %rdx
	movq	LW_F_FRAME(%rdx), %rdx
	decq	%rdx				/* the identity: just below the frame's */
	subq	%rdx, %rax
	cmpq	$LW_RA_TAIL_MAX, %rax
	ja	.Lfast_to_c			/* deeper than LW_RA_TAIL_MAX tail calls */
	movq	%rdx, %rax
	jmp	.Lfast_claimed

	/* The entry's fast path could not take the call: the slot given back
	 * (it is %rbx, or above, when a check failed before it was taken). */
.Lfast_to_c_r11:
	.cfi_restore_state
	.cfi_remember_state
	movq	LW_RA_ENTRY(%rbx), %r11
.Lfast_to_c:
	movq	lw_tls@gottpoff(%rip), %rcx
	movq	%rbx, %fs:LW_T_RA_TOP(%rcx)
	movl	$0, %fs:LW_T_GUARD(%rcx)
	ENTRY_POP
	jmp	.Lc_enter

	.globl	lw_abi_hot2_end
	.hidden	lw_abi_hot2_end
lw_abi_hot2_end:
	/* The guard was held: the runtime calls the function itself (not
	 * measured), or a signal handler interrupted the runtime (the lane:
	 * the C hook records the call). */
.Lfast_busy:
	.cfi_restore_state
	testl	$LW_GUARD_SIGNAL, %fs:LW_T_GUARD(%rcx)
	ENTRY_POP
	jnz	.Lc_enter
	jmp	*LW_E_ORIG(%r11)

.Lnot_fast:
	.cfi_restore_state
	cmpl	$LW_ABI_STATE_EXCLUDED, LW_E_STATE(%r11)
	jne	1f
	jmp	*LW_E_ORIG(%r11)		/* filtered out: as if unwrapped */
1:	cmpl	$LW_ABI_STATE_THROTTLED, LW_E_STATE(%r11)
	je	.Lthrottled
	cmpl	$LW_ABI_STATE_THROTTLED_FRAMED, LW_E_STATE(%r11)
	je	.Lthrottled_framed
	cmpl	$LW_ABI_STATE_RECORD, LW_E_STATE(%r11)
	je	.Lrecord
	jmp	.Lc_enter

	/*
	 * A throttled region (throttle.c): the visit is counted on the call
	 * path that exists under the top frame, whichever child of it the
	 * region is (among its last four, else in the tree's table: PROBE),
	 * with no timestamp, no frame and no return slot, and the original
	 * is jumped to; one call in LW_THROTTLE_SAMPLE, a new call path, and
	 * any call the checks below do not allow, take the fast path above
	 * and are timed. From here to
	 * lw_abi_hot3_end, as on the fast path, every step leaves the runtime
	 * consistent: a signal handler that interrupts it may leave by
	 * longjmp (signal.c). The visit and its count as not timed are two
	 * instructions: between them (lw_abi_untimed_count, the node in
	 * %rcx), the dispatcher counts it before the handler runs.
	 */
	.globl	lw_abi_hot3_begin
	.hidden	lw_abi_hot3_begin
lw_abi_hot3_begin:
	.globl	lw_abi_path_throttled
	.hidden	lw_abi_path_throttled
lw_abi_path_throttled:
.Lthrottled:
	/* Three scratch registers, %rcx the TLS offset to the end. */
	.cfi_remember_state
	PUSH	%rax
	PUSH	%rdx
	PUSH	%rcx
	movq	lw_tls@gottpoff(%rip), %rcx
	btsl	$0, %fs:LW_T_GUARD(%rcx)
	jc	.Lthrottled_busy
	movq	%fs:LW_T_HOT(%rcx), %rax	/* the thread */
	movl	LW_TH_DEPTH(%rax), %edx
	cmpl	LW_TH_CAP(%rax), %edx
	jae	.Lthrottled_timed		/* no thread, no room, or events */
	shlq	$5, %rdx
	addq	LW_TH_STACK(%rax), %rdx		/* above the top frame */
	leaq	24(%rsp), %rax			/* the call's identity */
	cmpq	%rax, LW_F_FRAME-LW_F_SIZE(%rdx)
	jbe	.Lthrottled_tail		/* a tail call, or an abandoned frame */
.Lthrottled_live:
	movl	LW_E_ID(%r11), %eax
	LAST_HIT %rdx, %rdx, %eax, .Lthrottled_probe
.Lthrottled_found:
	movq	LW_N_VISITS(%rdx), %rax
	incq	%rax
	testl	$LW_THROTTLE_SAMPLE-1, %eax
	jz	.Lthrottled_timed		/* the sampled call: its exit counts it */
	movq	%rax, LW_N_VISITS(%rdx)
	.globl	lw_abi_untimed_count
	.hidden	lw_abi_untimed_count
lw_abi_untimed_count:
	incq	LW_N_UNMEASURED(%rdx)
	.globl	lw_abi_untimed_counted
	.hidden	lw_abi_untimed_counted
lw_abi_untimed_counted:
	/* Its cost out of its callers' times (compensate.c), on the thread
	 * read again: the same one, or lw_thread_none once the finaliser
	 * has stopped measurement (whose clock nothing reads). */
	movq	%fs:LW_T_HOT(%rcx), %rdx
	movq	lw_cost_untimed+LW_COST_UNTIMED_LEAF(%rip), %rax
	addq	%rax, LW_TH_OVERHEAD(%rdx)
	movl	$0, %fs:LW_T_GUARD(%rcx)
	POP	%rcx
	POP	%rdx
	POP	%rax
	jmp	*LW_E_ORIG(%r11)
	/*
	 * At or above the top frame's identity (%rax), as a tail call from
	 * the top frame's original is (.Lfast_tail: its identity 0 to
	 * LW_RA_TAIL_MAX above the frame's). It is one when the return
	 * address is one of the trampoline's return points: only the
	 * trampoline's `call` of an original puts one at that stack pointer
	 * and the exit takes it back, so the original called there runs, and
	 * a frame it left by longjmp lies 8 bytes or more below it. Counted in
	 * the top frame; anything else is an abandoned frame, for the C hook.
	 */
.Lthrottled_tail:
	.cfi_restore_state
	.cfi_remember_state
	.cfi_adjust_cfa_offset 24
	subq	LW_F_FRAME-LW_F_SIZE(%rdx), %rax
	cmpq	$LW_RA_TAIL_MAX, %rax
	ja	.Lthrottled_timed
	movq	24(%rsp), %rax			/* the return address */
	cmpq	lw_abi_return_points(%rip), %rax
	je	.Lthrottled_live
	cmpq	lw_abi_return_points+8(%rip), %rax
	je	.Lthrottled_live
	jmp	.Lthrottled_timed
	/* Not among the parent's last four children: the table's, with the
	 * thread in %rcx, and the TLS offset read again after. */
.Lthrottled_probe:
	movq	%fs:LW_T_HOT(%rcx), %rcx
	PROBE	%rdx, %eax, %rcx, %rdx, %edx, .Lthrottled_probed, .Lthrottled_unknown, 0
.Lthrottled_probed:
	movq	lw_tls@gottpoff(%rip), %rcx
	jmp	.Lthrottled_found
.Lthrottled_unknown:
	movq	lw_tls@gottpoff(%rip), %rcx
.Lthrottled_timed:
	movl	$0, %fs:LW_T_GUARD(%rcx)
.Lthrottled_busy:
	POP	%rcx
	POP	%rdx
	POP	%rax
	jmp	.Lfast_start			/* which takes the busy guard too */

	/*
	 * A throttled region that calls wrapped functions (throttle.c): the
	 * entry's fast path (.Lfast_start) up to the node, then, unless the
	 * call is the sampled one, no timestamp: the frame's start says
	 * LW_FRAME_UNTIMED and the original returns to lw_abi_return_untimed,
	 * whose exit counts the visit. The calls below it find their parent's
	 * frame as always. The node is found as the fast path finds it: among
	 * the parent's last four children, else in the tree's table (PROBE);
	 * a new call path takes the C hook, a tail call and any other check
	 * that fails the timed path. Each step leaves the runtime
	 * consistent, as the fast path's do (to lw_abi_hot4_end); the exit
	 * counts its visit as the leaf's does (lw_abi_untimed_exit_count).
	 */
	.globl	lw_abi_hot3_end
	.hidden	lw_abi_hot3_end
lw_abi_hot3_end:
	.globl	lw_abi_hot4_begin
	.hidden	lw_abi_hot4_begin
lw_abi_hot4_begin:
	.globl	lw_abi_path_throttled_framed
	.hidden	lw_abi_path_throttled_framed
lw_abi_path_throttled_framed:
.Lthrottled_framed:
	.cfi_remember_state
	ENTRY_PUSH
	GUARD_TAKE
	CLAIM_ROOM .Lframed_timed, .Lframed_timed, .Lfast_to_c
	FRAME_NODE .Lframed_probe
.Lframed_found:
	testl	$LW_THROTTLE_SAMPLE-1, LW_N_VISITS(%rax)
	jz	.Lfound0			/* the sampled call: timed */
	FRAME_FILL
	movq	$LW_F_UNTIMED, LW_F_START(%rdx)
	incl	LW_TH_DEPTH(%rcx)
	CALL_SETUP
	call	*LW_E_ORIG(%r11)
	.globl	lw_abi_return_untimed
	.hidden	lw_abi_return_untimed
lw_abi_return_untimed:
	RETURN_PUSH 0
	movq	lw_tls@gottpoff(%rip), %rcx
	btsl	$0, %fs:LW_T_GUARD(%rcx)
	jc	.Lexit_to_c			/* the C hook counts it (lw_frame_close) */
	leaq	LW_RA_SIZE(%rbx), %rax
	cmpq	%rax, %fs:LW_T_RA_TOP(%rcx)
	jne	.Lexit_to_c_guard		/* not the newest slot */
	movq	%fs:LW_T_HOT(%rcx), %rdx
	movl	LW_RA_DEPTH(%rbx), %ecx
	incl	%ecx
	cmpl	%ecx, LW_TH_DEPTH(%rdx)
	jne	.Lexit_to_c_guard		/* not the top frame, or no thread */
	decl	LW_TH_DEPTH(%rdx)
	movq	lw_cost_untimed+LW_COST_UNTIMED_FRAMED(%rip), %rcx
	addq	%rcx, LW_TH_OVERHEAD(%rdx)
	movq	LW_RA_FRAME(%rbx), %rdx
	movq	LW_F_NODE(%rdx), %rdx
	incq	LW_N_VISITS(%rdx)
	.globl	lw_abi_untimed_exit_count
	.hidden	lw_abi_untimed_exit_count
lw_abi_untimed_exit_count:
	incq	LW_N_UNMEASURED(%rdx)
	.globl	lw_abi_untimed_exit_counted
	.hidden	lw_abi_untimed_exit_counted
lw_abi_untimed_exit_counted:
	jmp	.Lexit_release
	/* Not among the parent's last four children: the table's. */
.Lframed_probe:
	.cfi_restore_state
	.cfi_remember_state
	.cfi_adjust_cfa_offset 32
	.cfi_offset %rbx, -16
	PROBE	%rax, %r11d, %rcx, %rax, %eax, .Lframed_found, .Lfast_to_c_r11, 0
	/* No slot, or one at or below this call (a tail call, a leftover):
	 * the timed path's checks. */
.Lframed_timed:
	movl	$0, %fs:LW_T_GUARD(%rcx)
	ENTRY_POP
	jmp	.Lfast_start
	.globl	lw_abi_hot4_end
	.hidden	lw_abi_hot4_end
lw_abi_hot4_end:
	.cfi_restore_state

	/*
	 * A region whose parameters or result are recorded: the entry's fast
	 * path up to the frame and the timestamp; then, with the node's block
	 * of integers and no listener (lw_args_int_block, checked here),
	 * RECORD sets the integers aside (one there, from the register or
	 * the stack where it is; several through lw_abi_record_add, general
	 * registers only), and the thread's measurement clock moves on by
	 * the recording's cost (lw_abi_cost_record), which the call's time
	 * thus leaves out. After the timestamp, the recording runs beside its read; before
	 * it, its chain of loads and stores held the read up. A recorded
	 * result makes the exit take the C hook. Tail calls, a node not among
	 * the last four, and everything else (a node's first recorded call,
	 * values other than integers, listeners) take the C hooks.
	 */
	.globl	lw_abi_path_record
	.hidden	lw_abi_path_record
lw_abi_path_record:
.Lrecord:
	.cfi_remember_state
	ENTRY_PUSH
	GUARD_TAKE
	CLAIM_ROOM .Lfast_to_c, .Lfast_to_c, .Lfast_to_c
	FRAME_NODE .Lfast_to_c_r11
	FRAME_FILL
	movq	%rdx, %r11
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
	subq	LW_TH_OVERHEAD(%rcx), %rax
	movq	%rax, LW_F_START(%r11)
	incl	LW_TH_DEPTH(%rcx)
	/* The common case, checked after the timestamp (the checks' loads
	 * would hold its read up): the node's block of integers, and no
	 * listener (lw_args_int_block). */
	movq	LW_F_NODE(%r11), %rax		/* the node */
	movl	LW_N_ARGS(%rax), %edx
	testl	%edx, %edx
	jz	7f				/* no block yet */
	cmpl	$0, LW_TH_LISTEN(%rcx)
	jne	7f
	movq	LW_TH_ARG_BLOCKS(%rcx), %rax
	movq	-8(%rax,%rdx,8), %rax		/* the block */
	cmpl	$0, LW_B_INTS(%rax)
	je	7f
	movq	LW_RA_ENTRY(%rbx), %rdx
	testl	$LW_E_RECORD_RESULT, LW_E_FLAGS(%rdx)
	jz	8f
	movl	$LW_RA_NO_FAST_EXIT, LW_RA_DEPTH(%rbx)
8:	RECORD	0
	.cfi_remember_state
	CALL_SETUP
	jmp	.Lcall_original
	.cfi_restore_state
	/* Not the common case: the frame taken off again, and the C hooks. */
7:	decl	LW_TH_DEPTH(%rcx)
	jmp	.Lfast_to_c_r11
	.cfi_restore_state

	/* Every other case: the C hooks, with the argument registers saved. */
.Lc_enter:
	C_HOOK_FRAME
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
	movq	64(%rsp), %r11		/* the entry */
	RESTORE_GPRS
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	addq	$8, %rsp		/* the return address: kept in the slot */
	CFI_CALL_FRAME
	jmp	.Lcall_original

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

/* The compensation's calibration (compensate.c) calls an empty function
 * through the trampoline as a generated wrapper does, with its own entry. */
	/* lw_abi_record_timed(block, n, thread): .Lrecord's work after its
	 * checks, n times, in a frame as ENTRY_PUSH's (32 bytes, then a
	 * return address) and aligned as there: what the recording path adds
	 * to a call (lw_abi_calibrate_record, abi_slow.c). */
	.globl	lw_abi_record_timed
	.hidden	lw_abi_record_timed
	.type	lw_abi_record_timed, @function
	.p2align 4
lw_abi_record_timed:
	.cfi_startproc
	PUSH	%rbx
	.cfi_rel_offset %rbx, 0
	PUSH	%r12
	.cfi_rel_offset %r12, 0
	PUSH	%r13
	.cfi_rel_offset %r13, 0
	subq	$40, %rsp
	.cfi_adjust_cfa_offset 40
	movq	%rdi, %r12
	movq	%rsi, %r13
	movq	%rdx, %rbx
9:	movq	%r12, %rax
	movq	%rbx, %rcx
	RECORD	0
	decq	%r13
	jnz	9b
	addq	$40, %rsp
	.cfi_adjust_cfa_offset -40
	POP	%r13
	.cfi_restore %r13
	POP	%r12
	.cfi_restore %r12
	POP	%rbx
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	lw_abi_record_timed, .-lw_abi_record_timed

	.globl	lw_abi_calib_stub
	.hidden	lw_abi_calib_stub
	.type	lw_abi_calib_stub, @function
	.p2align 4
lw_abi_calib_stub:
	.cfi_startproc
	leaq	lw_abi_calib_entry(%rip), %r11
	jmp	*LW_E_DISPATCH(%r11)
	.cfi_endproc
	.size	lw_abi_calib_stub, .-lw_abi_calib_stub

	.globl	lw_abi_calib_stub_throttled
	.hidden	lw_abi_calib_stub_throttled
	.type	lw_abi_calib_stub_throttled, @function
	.p2align 4
lw_abi_calib_stub_throttled:
	.cfi_startproc
	leaq	lw_abi_calib_entry_throttled(%rip), %r11
	jmp	*LW_E_DISPATCH(%r11)
	.cfi_endproc
	.size	lw_abi_calib_stub_throttled, .-lw_abi_calib_stub_throttled

	.globl	lw_abi_calib_stub_framed
	.hidden	lw_abi_calib_stub_framed
	.type	lw_abi_calib_stub_framed, @function
	.p2align 4
lw_abi_calib_stub_framed:
	.cfi_startproc
	leaq	lw_abi_calib_entry_framed(%rip), %r11
	jmp	*LW_E_DISPATCH(%r11)
	.cfi_endproc
	.size	lw_abi_calib_stub_framed, .-lw_abi_calib_stub_framed

/*
 * uintptr_t lw_abi_call_saving(fn, a, b): fn(a, b), ordinary C, with the
 * caller's vector, mask, MXCSR and x87 state as it was afterwards.
 *
 * By the ABI the x87 stack is empty at a call, and holds values only in the
 * exit hook of a function returning long double. Then (x87 TOP != 0) the
 * whole state goes through XSAVE/XRSTOR of the x87, SSE, AVX and AVX-512
 * components (FXSAVE where the OS offers no XSAVE). Otherwise only what C
 * code may change is saved, register by register, at the width the OS
 * enabled (lw_abi_vec): %xmm/%ymm/%zmm0-15 or 0-31, %k0-7, MXCSR, and the
 * x87 status word, put back if fn changed it. XSAVE costs a hundred or more
 * nanoseconds; the moves a few.
 *
 * uintptr_t lw_abi_call_abi(fn, a, b): fn(a, b) keeping what the ABI says
 * a call keeps, and the vector registers that carry the arguments of a
 * call about to be made and the results of one just made, %xmm/%ymm/%zmm0-7:
 * the per-call listeners' gate (docs/plugins.md). The other vector
 * registers, the masks and the status flags of MXCSR and the x87 are as fn
 * leaves them, as after any call; upper halves of %ymm0-7 that were zero
 * leave all of them zero (vzeroupper). The x87 stack must be empty (the
 * caller checks: MXCSR and the x87 status word cost 5 ns each to read on
 * AMD EPYC, more than the rest together).
 *
 * The area below %rbp, 64-byte aligned at %rbx:
 *   0     the vector registers (32 x 64 bytes at most)
 *   2048  %k0-7 (8 x 8)
 *   2112  MXCSR     2116  x87 status word
 *   2120  0x44 when upper halves were in use before fn (XINUSE, or nonzero)
 *   2128  an x87 environment (28 bytes)
 */
#define LW_XSTATE_MASK 0xe7	/* x87, SSE, AVX, AVX-512 opmask and upper halves */
#define LW_GATE_AREA 2240	/* 2160 and the alignment slack */

/* `op` on %\reg\()k, k = 0..n-1 (8, 16 or 32), and k*size(%rbx): `dir`
 * 0 to memory, 1 back. */
.macro VEC_ONE op, reg, size, k, dir
.if \dir == 0
	\op	%\reg\()\k, \k*\size(%rbx)
.else
	\op	\k*\size(%rbx), %\reg\()\k
.endif
.endm
.macro VEC_MOVES op, reg, size, n, dir
.irp k, 0, 1, 2, 3, 4, 5, 6, 7
	VEC_ONE \op, \reg, \size, \k, \dir
.endr
.if \n >= 16
.irp k, 8, 9, 10, 11, 12, 13, 14, 15
	VEC_ONE \op, \reg, \size, \k, \dir
.endr
.endif
.if \n == 32
.irp k, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	VEC_ONE \op, \reg, \size, \k, \dir
.endr
.endif
.endm

/* %k0-7 with `op` (kmovw or kmovq), `dir` 0 to memory, 1 back. */
.macro MASK_MOVES op, size, dir
.irp k, 0, 1, 2, 3, 4, 5, 6, 7
.if \dir == 0
	\op	%k\k, 2048+\k*\size(%rbx)
.else
	\op	2048+\k*\size(%rbx), %k\k
.endif
.endr
.endm

/*
 * GATE name, n, nz: the gate `name`(fn, a, b). n = 16, nz = 32: every
 * vector register, the masks, MXCSR and the x87 (lw_abi_call_saving);
 * n = nz = 8: %xmm/%ymm/%zmm0-7 only (lw_abi_call_abi).
 */
.macro GATE name, n, nz
	FUNCTION \name
	RBP_FRAME
	pushq	%rbx
	.cfi_offset %rbx, -24
	pushq	%r12
	.cfi_offset %r12, -32
	pushq	%r13
	.cfi_offset %r13, -40
	movq	%rdi, %r12
	movq	%rsi, %rdi
	movq	%rdx, %rsi
.if \n >= 16
	fnstsw	%ax
	testl	$0x3800, %eax		/* x87 TOP: values on the x87 stack */
	jnz	.Lfull_state\@
.endif

	subq	$LW_GATE_AREA, %rsp
	andq	$-64, %rsp
	movq	%rsp, %rbx
.if \n >= 16
	stmxcsr	2112(%rbx)
	fnstsw	2116(%rbx)
.endif
	movl	lw_abi_vec(%rip), %r13d
	cmpl	$2, %r13d
	jae	.Lsave_zmm\@
	cmpl	$1, %r13d
	je	.Lsave_ymm\@
	VEC_MOVES movdqa, xmm, 16, \n, 0
	jmp	.Lgate_call\@
.Lsave_ymm\@:
	VEC_MOVES vmovdqa, ymm, 32, \n, 0
	/* Are the upper halves all zero? Read from the copies (the registers
	 * are free until they are loaded back). Then they go back to their
	 * initial state after fn (vzeroupper), as XINUSE would have them,
	 * without XGETBV, which costs more than the copies (17 ns on AMD
	 * EPYC). An upper half in use that holds zeros is restored so too. */
	vmovdqa	16(%rbx), %xmm0
.irp k, 1, 2, 3, 4, 5, 6, 7
	vpor	16+\k*32(%rbx), %xmm0, %xmm0
.endr
.if \n >= 16
.irp k, 8, 9, 10, 11, 12, 13, 14, 15
	vpor	16+\k*32(%rbx), %xmm0, %xmm0
.endr
.endif
	xorl	%eax, %eax
	vptest	%xmm0, %xmm0
	jz	1f
	movl	$0x44, %eax
1:	movl	%eax, 2120(%rbx)
	jmp	.Lgate_call\@
.Lsave_zmm\@:
	movl	$0x44, %eax		/* upper halves in use, unless XINUSE says otherwise */
	cmpl	$0, lw_abi_xinuse(%rip)
	je	1f
	movl	$1, %ecx
	xgetbv
1:	movl	%eax, 2120(%rbx)
	VEC_MOVES vmovdqa64, zmm, 64, \nz, 0
.if \n >= 16
	cmpl	$3, %r13d
	je	.Lsave_kq\@
	MASK_MOVES kmovw, 2, 0
	jmp	.Lgate_call\@
.Lsave_kq\@:
	MASK_MOVES kmovq, 8, 0
.endif
.Lgate_call\@:
	call	*%r12
	movq	%rax, %r12
	cmpl	$2, %r13d
	jae	.Lload_zmm\@
	cmpl	$1, %r13d
	je	.Lload_ymm\@
	VEC_MOVES movdqa, xmm, 16, \n, 1
	jmp	.Lgate_scalar\@
.Lload_ymm\@:
	VEC_MOVES vmovdqa, ymm, 32, \n, 1
	jmp	.Lgate_upper\@
.Lload_zmm\@:
	VEC_MOVES vmovdqa64, zmm, 64, \nz, 1
.if \n >= 16
	cmpl	$3, %r13d
	je	.Lload_kq\@
	MASK_MOVES kmovw, 2, 1
	jmp	.Lgate_upper\@
.Lload_kq\@:
	MASK_MOVES kmovq, 8, 1
.endif
.Lgate_upper\@:
	/* Upper halves that were in their initial state are again. */
	testl	$0x44, 2120(%rbx)
	jnz	.Lgate_scalar\@
	vzeroupper
.Lgate_scalar\@:
.if \n >= 16
	ldmxcsr	2112(%rbx)
	fnstsw	%ax
	cmpw	2116(%rbx), %ax
	je	.Lgate_done\@
	/* fn changed the x87 status word: put it back, the stack empty. */
	fnstenv	2128(%rbx)
	movzwl	2116(%rbx), %eax
	movw	%ax, 2128+4(%rbx)
	movw	$0xffff, 2128+8(%rbx)
	fldenv	2128(%rbx)
	jmp	.Lgate_done\@

.Lfull_state\@:
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
	jmp	.Lgate_done\@
3:	fxrstor64 (%rbx)

.endif
.Lgate_done\@:
	movq	%r12, %rax
	leaq	-24(%rbp), %rsp
	popq	%r13
	.cfi_restore %r13
	popq	%r12
	.cfi_restore %r12
	popq	%rbx
	.cfi_restore %rbx
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	\name, .-\name
.endm

	GATE lw_abi_call_saving, 16, 32
	GATE lw_abi_call_abi, 8, 8

/* lw_abi_call_gpr(fn, a, b): fn(a, b) on an aligned stack, no vector
 * register kept (a function flagged LIBWRAP_ABI_NO_VECTOR). */
	FUNCTION lw_abi_call_gpr
	RBP_FRAME
	andq	$-16, %rsp
	movq	%rdi, %rax
	movq	%rsi, %rdi
	movq	%rdx, %rsi
	call	*%rax
	leave
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	lw_abi_call_gpr, .-lw_abi_call_gpr

/*
 * void lw_abi_save_xmm(uint64_t out[8]): the low 64 bits of %xmm0-7 (the
 * floating-point arguments, or %xmm0 the result) into out[], for the hooks
 * that are built without vector registers (argument recording, abi.c).
 * Only reads the vector registers.
 */
	FUNCTION lw_abi_save_xmm
	movq	%xmm0, 0(%rdi)
	movq	%xmm1, 8(%rdi)
	movq	%xmm2, 16(%rdi)
	movq	%xmm3, 24(%rdi)
	movq	%xmm4, 32(%rdi)
	movq	%xmm5, 40(%rdi)
	movq	%xmm6, 48(%rdi)
	movq	%xmm7, 56(%rdi)
	ret
	.cfi_endproc
	.size	lw_abi_save_xmm, .-lw_abi_save_xmm

/* The trampoline's return points (RETURN_POINT), for a comparison with
 * no register to spare (.Lthrottled_tail). */
	.section .data.rel.ro.local,"aw"
	.p2align 3
lw_abi_return_points:
	.quad	lw_abi_return_point
	.quad	lw_abi_return_untimed

#endif

	.section .note.GNU-stack, "", @progbits
