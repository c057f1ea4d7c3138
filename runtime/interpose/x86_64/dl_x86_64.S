/*
 * dl_x86_64.S - the interposers of dlsym, dlvsym, dlopen and dlmopen
 * (dl_interpose.h), in liblibwrap_exec.a. In assembly because each must
 * reach libc's function by a jump: libc finds the caller from the return
 * address (RTLD_NEXT searches after the caller's object; dlopen uses the
 * caller's namespace and RUNPATH), and the wrappers and the runtime find
 * their originals with dlsym(RTLD_NEXT). Weak, as the exec interposers.
 */
        .text

.macro LW_DL_INTERPOSER name, kind
        .weak \name
        .type \name, @function
        .p2align 4
\name:
        .cfi_startproc
        pushq %rdi
        .cfi_adjust_cfa_offset 8
        pushq %rsi
        .cfi_adjust_cfa_offset 8
        pushq %rdx
        .cfi_adjust_cfa_offset 8
        /* The stack is 16-byte aligned here: three pushes and the return
         * address, which is the fourth argument. */
        movq 24(%rsp), %rcx
        movl $\kind, %r8d
        call libwrap_dl_route@PLT
        popq %rdx
        .cfi_adjust_cfa_offset -8
        popq %rsi
        .cfi_adjust_cfa_offset -8
        popq %rdi
        .cfi_adjust_cfa_offset -8
        jmp *%rax
        .cfi_endproc
        .size \name, .-\name
.endm

        LW_DL_INTERPOSER dlsym, 0
        LW_DL_INTERPOSER dlvsym, 1
        LW_DL_INTERPOSER dlopen, 2
        LW_DL_INTERPOSER dlmopen, 3

        .section .note.GNU-stack,"",@progbits
