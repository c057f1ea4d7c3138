/*
 * trace_api.c - a measured program written as generated wrappers are (the
 * pattern of libwrap.h), linked to the runtime: three threads call "outer",
 * which calls "inner" k+1 times on thread k.
 *
 *   trace_api CALLS [fork]
 *
 * With "fork", the main thread forks after its calls; the child makes 5
 * calls of "outer" and exits, which must leave the parent's trace intact.
 *
 * After libwrap_finalize it reads $LIBWRAP_EXPERIMENT_DIRECTORY/profile.json
 * and prints "visits SYMBOL N" and "metric SYMBOL NAME VALUE" per function,
 * so that the test can compare the profile with the trace.
 */
#include <errno.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libwrap/libwrap.h"

static libwrap_region outer_region = LIBWRAP_REGION_INIT("lib_outer", "outer", "lib.h", 10);
static libwrap_region inner_region = LIBWRAP_REGION_INIT("lib_inner", "inner", "lib.h", 20);
static __thread volatile long sink; /* per thread: the threads must not race */

static long inner_original(long x)
{
    for (int i = 0; i < 100; i++)
        sink += x * i;
    return sink;
}

static long inner(long x)
{
    int32_t id = libwrap_region_id(&inner_region);
    if (id < 0)
        return inner_original(x);
    int recorded = libwrap_enter(id, __builtin_frame_address(0));
    long result = inner_original(x);
    if (recorded)
        libwrap_exit(id);
    return result;
}

static long outer_original(long k)
{
    long r = 0;
    for (long j = 0; j <= k; j++)
        r += inner(j);
    return r;
}

static long outer(long k)
{
    int32_t id = libwrap_region_id(&outer_region);
    if (id < 0)
        return outer_original(k);
    int recorded = libwrap_enter(id, __builtin_frame_address(0));
    long result = outer_original(k);
    if (recorded)
        libwrap_exit(id);
    return result;
}

static long calls;

static void *run(void *arg)
{
    long k = (long)(intptr_t)arg;
    for (long i = 0; i < calls; i++)
        outer(k);
    return NULL;
}

static int print_profile(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/profile.json", dir);
    json_object *root = json_object_from_file(path);
    json_object *functions;

    if (!root || !json_object_object_get_ex(root, "functions", &functions)) {
        fprintf(stderr, "trace_api: cannot read the functions of %s\n", path);
        return 1;
    }
    for (size_t i = 0; i < json_object_array_length(functions); i++) {
        json_object *f = json_object_array_get_idx(functions, i), *sym, *visits, *metrics;
        if (!json_object_object_get_ex(f, "symbol", &sym) ||
            !json_object_object_get_ex(f, "visits", &visits))
            continue;
        printf("visits %s %lld\n", json_object_get_string(sym),
               (long long)json_object_get_int64(visits));
        if (json_object_object_get_ex(f, "metrics", &metrics) &&
            json_object_is_type(metrics, json_type_object)) {
            json_object_object_foreach(metrics, name, value)
                printf("metric %s %s %lld\n", json_object_get_string(sym), name,
                       (long long)json_object_get_int64(value));
        }
    }
    json_object_put(root);
    return 0;
}

int main(int argc, char **argv)
{
    pthread_t th[3];
    const char *dir = getenv("LIBWRAP_EXPERIMENT_DIRECTORY");

    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "fork") != 0) || !dir) {
        fprintf(stderr, "usage: LIBWRAP_EXPERIMENT_DIRECTORY=DIR trace_api CALLS [fork]\n");
        return 2;
    }
    calls = atol(argv[1]);
    for (long k = 1; k < 3; k++)
        pthread_create(&th[k], NULL, run, (void *)(intptr_t)k);
    run((void *)0);
    if (argc == 3) {
        fflush(stdout);
        pid_t child = fork();
        if (child == 0) {
            for (int i = 0; i < 5; i++)
                outer(0);
            exit(0);
        }
        int status;
        if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0) {
            fprintf(stderr, "trace_api: the forked child failed\n");
            return 1;
        }
    }
    for (long k = 1; k < 3; k++)
        pthread_join(th[k], NULL);
    libwrap_finalize();
    return print_profile(dir);
}
