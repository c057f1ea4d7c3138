/*
 * fileio.h - whole-file input and atomic output for the generator. Every
 * file the generator writes is written to PATH.tmp.PID, then renamed over
 * PATH, so that a failed run never leaves a partial file for make to pick up.
 */
#ifndef LIBWRAP_FILEIO_H
#define LIBWRAP_FILEIO_H

#include <stddef.h>

/* Reads the whole file into a new NUL-terminated buffer and stores its
 * length in *len. Returns NULL with errno set when the file cannot be opened
 * or read; callers print the message, which they know how to phrase. */
char *read_whole_file(const char *path, size_t *len);

/* A file split into lines: line[k] is line k+1, NUL-terminated (the '\n'
 * replaced), all in one buffer. */
typedef struct lwg_lines {
    char *text;
    const char **line;
    size_t n;
} lwg_lines;

/* Reads path into *t. Returns 0, or -1 with errno set (callers print). */
int read_file_lines(const char *path, lwg_lines *t);
void lines_free(lwg_lines *t);

/* Writes len bytes of data to path atomically. Returns 0, or -1 after
 * printing "libwrap-gen: PATH: what" to stderr (no temporary file is left). */
int write_file_atomically(const char *path, const char *data, size_t len);

#endif /* LIBWRAP_FILEIO_H */
