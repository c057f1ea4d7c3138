/*
 * vfork_aarch64.S - the interposer of vfork (exec_interpose.c) for
 * AArch64, in liblibwrap_exec.a: as vfork_x86_64.S, the parent's directory
 * is claimed and room made for the child's exec (lw_vfork_route), then
 * libc's vfork is reached by a branch with the caller's return address in
 * x30, and no frame of the interposer's left on the stack that vfork's two
 * returns share. Weak, as the exec interposers.
 */
#if defined(__aarch64__)
        .text
        .weak vfork
        .type vfork, %function
        .p2align 4
vfork:
        .cfi_startproc
        stp     x29, x30, [sp, #-16]!
        .cfi_def_cfa_offset 16
        .cfi_offset x29, -16
        .cfi_offset x30, -8
        mov     x29, sp
        bl      lw_vfork_route
        mov     x16, x0
        ldp     x29, x30, [sp], #16
        .cfi_restore x29
        .cfi_restore x30
        .cfi_def_cfa_offset 0
        br      x16
        .cfi_endproc
        .size vfork, .-vfork
#endif

        .section .note.GNU-stack,"",%progbits
