/*
 * hw_probe.c - exits 0 when this machine counts CPU cycles for a thread
 * through perf_event (hardware counters present and permitted), 1 if not.
 * Independent of the runtime, so the metric tests can expect the right world.
 */
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
    struct perf_event_attr attr;

    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_CPU_CYCLES;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    if (fd < 0)
        return 1;
    close(fd);
    return 0;
}
