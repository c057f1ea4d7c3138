/* io_app.c - a program whose calls of libc's I/O functions are known
 * (wf_libc.sh): N opens and closes of a file, N failed closes, a sigsetjmp
 * whose second return follows a close, and two vfork children that call
 * dup2 and execve (dash runs commands so). Its output names what it did. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static sigjmp_buf again;

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5;
    for (int i = 0; i < n; i++) {
        int fd = open(argv[0], O_RDONLY);
        if (fd < 0 || close(fd) != 0)
            return 2;
    }
    /* A failed call keeps its errno. */
    for (int i = 0; i < n; i++)
        if (close(-1) != -1 || errno != EBADF)
            return 3;
    volatile int jumps = 0;
    if (sigsetjmp(again, 1) < 3) {
        jumps++;
        close(-1);
        siglongjmp(again, jumps);
    }
    for (int k = 0; k < 2; k++) {
        pid_t pid = vfork();
        if (pid == 0) {
            dup2(1, 2);
            char *args[] = {"true", NULL};
            execve("/bin/true", args, environ);
            _exit(127);
        }
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) != pid)
            return 4;
        printf("child %d exited %d\n", k, WEXITSTATUS(st));
    }
    printf("%d opens, %d closes, %d jumps\n", n, 2 * n + jumps, jumps);
    return 0;
}
