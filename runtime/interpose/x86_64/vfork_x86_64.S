/*
 * vfork_x86_64.S - the interposer of vfork (exec_interpose.c), in
 * liblibwrap_exec.a. In assembly because vfork returns twice on one stack:
 * the parent's directory is claimed and room made for the child's exec
 * (lw_vfork_route, with no argument to keep), then libc's vfork is reached
 * by a jump, with the caller's return address on the stack where it was.
 * Weak, as the exec interposers.
 */
        .text
        .weak vfork
        .type vfork, @function
        .p2align 4
vfork:
        .cfi_startproc
        subq $8, %rsp
        .cfi_adjust_cfa_offset 8
        call lw_vfork_route
        addq $8, %rsp
        .cfi_adjust_cfa_offset -8
        jmp *%rax
        .cfi_endproc
        .size vfork, .-vfork

        .section .note.GNU-stack,"",@progbits
