/*
 * fuzz_profile.c - libFuzzer target for libwrap-report's profile.json reader.
 *
 * Every input is read as a profile and freed, accepted or not (the report
 * frees a profile that failed to load too); an accepted one also has each
 * thread's call paths flattened into per-function rows, as the table does.
 */
#include "report.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lwr_profile p;
    if (lwr_profile_parse(&p, (const char *)data, size, "fuzz/profile.json") == 0) {
        for (size_t i = 0; i < p.nthreads; i++) {
            lwr_func *rows = NULL;
            size_t n = 0;
            if (lwr_thread_functions(&p, &p.threads[i], &rows, &n) != 0)
                abort();
            lwr_funcs_free(rows, n);
        }
    }
    lwr_profile_free(&p);
    return 0;
}
