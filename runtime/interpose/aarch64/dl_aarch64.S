/*
 * dl_aarch64.S - the interposers of dlsym, dlvsym, dlopen and dlmopen
 * (dl_interpose.h) for AArch64, in liblibwrap_exec.a: as dl_x86_64.S, each
 * reaches libc's function by a branch with the caller's return address in
 * x30, which libc reads (RTLD_NEXT searches after the caller's object;
 * dlopen uses the caller's namespace and RUNPATH). Weak, as the exec
 * interposers.
 */
#if defined(__aarch64__)
        .text

.macro LW_DL_INTERPOSER name, kind
        .weak \name
        .type \name, %function
        .p2align 4
\name:
        .cfi_startproc
        stp     x29, x30, [sp, #-48]!
        .cfi_def_cfa_offset 48
        .cfi_offset x29, -48
        .cfi_offset x30, -40
        mov     x29, sp
        stp     x0, x1, [sp, #16]
        stp     x2, x3, [sp, #32]
        mov     x3, x30                 /* the caller: the fourth argument */
        mov     w4, #\kind
        bl      libwrap_dl_route
        mov     x16, x0
        ldp     x0, x1, [sp, #16]
        ldp     x2, x3, [sp, #32]
        ldp     x29, x30, [sp], #48
        .cfi_restore x29
        .cfi_restore x30
        .cfi_def_cfa_offset 0
        br      x16
        .cfi_endproc
        .size \name, .-\name
.endm

        LW_DL_INTERPOSER dlsym, 0
        LW_DL_INTERPOSER dlvsym, 1
        LW_DL_INTERPOSER dlopen, 2
        LW_DL_INTERPOSER dlmopen, 3
#endif

        .section .note.GNU-stack,"",%progbits
