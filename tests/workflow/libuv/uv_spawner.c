/*
 * uv_spawner.c - uses libuv: a timer, and a child process started with
 * uv_spawn (argv[1...]) that loads libuv itself and measures nothing.
 * Calls: uv_default_loop 1, uv_close 1, uv_timer_init 1, uv_timer_start 1, uv_spawn 1,
 * uv_run 1, uv_loop_close 1.
 */
#include <stdio.h>
#include <uv.h>

static void on_timer(uv_timer_t *t)
{
    (void)t;
    printf("timer\n");
}

static uv_timer_t timer;

/* The timer starts once the child has exited: the two lines come in one
 * order, however long the child takes. */
static void on_exit_cb(uv_process_t *p, int64_t status, int sig)
{
    printf("child exited: %ld %d\n", (long)status, sig);
    uv_close((uv_handle_t *)p, NULL);
    uv_timer_start(&timer, on_timer, 1, 0);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: uv_spawner PROGRAM [ARG...]\n");
        return 2;
    }
    uv_loop_t *loop = uv_default_loop();
    uv_timer_init(loop, &timer);
    uv_process_t proc;
    uv_process_options_t opt = {.exit_cb = on_exit_cb, .file = argv[1], .args = argv + 1};
    uv_stdio_container_t io[3] = {{.flags = UV_INHERIT_FD, .data.fd = 0},
                                  {.flags = UV_INHERIT_FD, .data.fd = 1},
                                  {.flags = UV_INHERIT_FD, .data.fd = 2}};
    opt.stdio = io;
    opt.stdio_count = 3;
    fflush(stdout);
    int r = uv_spawn(loop, &proc, &opt);
    if (r) {
        fprintf(stderr, "uv_spawn failed\n");
        return 1;
    }
    uv_run(loop, UV_RUN_DEFAULT);
    printf("loop closed: %d\n", uv_loop_close(loop) == 0);
    return 0;
}
