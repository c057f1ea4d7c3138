/*
 * zlib_sizes.c - what zlib is asked to do: buffers of four sizes compressed
 * with compress2 and compress, and written to a gzip file with gzwrite.
 *
 *   LIBWRAP_ARGUMENTS='compress*:sourceLen,gzwrite:return' ./zlib_sizes
 *   libwrap-report --arguments libwrap-*
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

int main(void)
{
    static const uLong sizes[] = {100, 1000, 10000, 100000};
    unsigned char *src = malloc(100000), *dst = malloc(compressBound(100000));
    if (!src || !dst)
        return 1;
    for (size_t i = 0; i < 100000; i++)
        src[i] = (unsigned char)("libwrap "[i % 8] + (i / 1000) % 5);

    char path[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/zlib-sizes-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        return 1;
    }
    close(fd);
    gzFile gz = gzopen(path, "wb");
    if (!gz)
        return 1;
    for (int i = 0; i < 4; i++) {
        uLongf len = compressBound(sizes[i]);
        int rc = compress2(dst, &len, src, sizes[i], 6);
        printf("compress2(%lu) rc=%d len=%lu\n", sizes[i], rc, (unsigned long)len);
        len = compressBound(sizes[i]);
        rc = compress(dst, &len, src, sizes[i]);
        printf("compress(%lu) rc=%d len=%lu\n", sizes[i], rc, (unsigned long)len);
        printf("gzwrite(%lu)=%d\n", sizes[i], gzwrite(gz, src, (unsigned)sizes[i]));
    }
    printf("gzwrite(0)=%d\n", gzwrite(gz, src, 0));
    printf("gzclose=%d\n", gzclose(gz));
    unlink(path);
    free(src);
    free(dst);
    return 0;
}
