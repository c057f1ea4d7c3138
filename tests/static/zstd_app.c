/* zstd_app.c - compresses and decompresses a buffer with libzstd; with
 * POOL, also asks for a thread pool (ZSTD_createThreadPool), which
 * Debian's libzstd.so exports and its libzstd.a does not. */
#define ZSTD_STATIC_LINKING_ONLY
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

int main(void)
{
    char in[4096], packed[8192], out[4096];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (char)("libwrap measures"[i % 16]);
    for (int round = 0; round < 3; round++) {
        size_t n = ZSTD_compress(packed, sizeof packed, in, sizeof in, 3);
        if (ZSTD_isError(n))
            return 1;
        size_t m = ZSTD_decompress(out, sizeof out, packed, n);
        printf("round %d: %zu -> %zu -> %zu, %s\n", round, sizeof in, n, m,
               m == sizeof in && memcmp(in, out, m) == 0 ? "same" : "DIFFERENT");
    }
#ifdef POOL
    errno = 0;
    ZSTD_threadPool *pool = ZSTD_createThreadPool(2);
    printf("pool %s, errno %s\n", pool ? "made" : "none", errno == ENOSYS ? "ENOSYS" : "other");
    ZSTD_freeThreadPool(pool);
#endif
    return 0;
}
