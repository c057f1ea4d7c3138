/*
 * outfile.h - every file the generator writes goes through here: written to
 * PATH.tmp.PID, then renamed over PATH, so that a failed run never leaves a
 * partial file for make to pick up.
 */
#ifndef LIBWRAP_OUTFILE_H
#define LIBWRAP_OUTFILE_H

#include <stddef.h>

/* Writes len bytes of data to path atomically. Returns 0, or -1 after
 * printing "libwrap-gen: PATH: what" to stderr (no temporary file is left). */
int write_file_atomically(const char *path, const char *data, size_t len);

#endif /* LIBWRAP_OUTFILE_H */
