/*
 * job_reduce.c - the job's one profile through files: for a job of
 * LIBWRAP_JOB_PARTS=false that did not reduce over MPI (a job without MPI:
 * srun or mpirun starting a program that does not call MPI_Init, or one
 * that never reached MPI_Finalize), and for every job with parts, whose
 * processes add the tree of their part.
 *
 * A records file holds trees of ranges of ranks (profile_reduce.c's bytes),
 * each appended with one write(2) behind a fixed header, so that records of
 * ranks that finish at the same time never interleave (O_APPEND, as for
 * finished.txt). Reducing it reads the headers, sorts them by first rank,
 * and merges one record at a time: memory is one tree and one record. A
 * range without a record counts as missing, as a rank whose tree never
 * came does in the MPI reduction; a second record of a range already
 * merged (a rank that ran two programs) is left out, and the log says so.
 *
 * A damaged file (bytes written over, a record cut short by a full disk)
 * loses only what is damaged: bytes that are not a record are skipped to
 * the next header that is one, and a record whose tree is not readable is
 * left out whole; both with a warning that names the file.
 */
#include "jobs/jobs.h"
#include "core/base/base.h"
#include "owner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LW_RECORD_MAGIC 0x4c575244u /* "LWRD" */

typedef struct {
    uint32_t magic, zero;
    int64_t first, end;
    uint64_t len;
} lw_record;

int lw_job_records_add(const char *path, const lw_rtree *t, long first, long end)
{
    char *bytes = NULL;
    size_t len = 0;
    if (lw_rtree_pack(t, &bytes, &len) < 0)
        return -1;
    size_t total = sizeof(lw_record) + len;
    char *buf = malloc(total);
    int rc = -1;
    if (buf) {
        lw_record h = {LW_RECORD_MAGIC, 0, first, end, len};
        memcpy(buf, &h, sizeof h);
        memcpy(buf + sizeof h, bytes, len);
        int fd = lw_owner_open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd >= 0) {
            rc = write(fd, buf, total) == (ssize_t)total ? 0 : -1;
            int err = errno;
            close(fd);
            errno = err;
        }
    }
    if (rc < 0)
        lw_warn("cannot write %s: %s; the job's profile will lack ranks %ld to %ld", path,
                strerror(errno), first, end - 1);
    free(buf);
    free(bytes);
    return rc;
}

typedef struct {
    int64_t first, end;
    off_t off;
    uint64_t len;
} lw_rec_at;

/* Whether a record of the ranks' trees starts at `off` of a file of
 * `size` bytes: its header, within the file, and a tree behind it
 * (profile_reduce.c's bytes start with their magic, LWRT). */
static int lw_record_at(int fd, off_t off, off_t size, lw_record *h)
{
    uint32_t tree;
    return pread(fd, h, sizeof *h, off) == (ssize_t)sizeof *h && h->magic == LW_RECORD_MAGIC &&
           h->zero == 0 && 0 <= h->first && h->first < h->end && h->len >= sizeof tree &&
           h->len <= (uint64_t)(size - off) - sizeof *h &&
           pread(fd, &tree, sizeof tree, off + (off_t)sizeof *h) == (ssize_t)sizeof tree &&
           tree == LW_RT_MAGIC;
}

/* The next record from `off` on, or `size` if none. */
static off_t lw_record_next(int fd, off_t off, off_t size)
{
    const uint32_t magic = LW_RECORD_MAGIC;
    char buf[4096];
    lw_record h;
    while (off + (off_t)sizeof h <= size) {
        ssize_t n = pread(fd, buf, sizeof buf, off);
        if (n < (ssize_t)sizeof magic)
            break;
        for (ssize_t i = 0; i + (ssize_t)sizeof magic <= n; i++)
            if (memcmp(buf + i, &magic, sizeof magic) == 0 && lw_record_at(fd, off + i, size, &h))
                return off + i;
        off += n - (ssize_t)(sizeof magic - 1);
    }
    return size;
}

static int lw_rec_cmp(const void *a, const void *b)
{
    const lw_rec_at *x = a, *y = b;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return (x->off > y->off) - (x->off < y->off);
}

lw_rtree *lw_job_records_reduce(const char *path, long first, long end)
{
    lw_rtree *t = lw_rtree_empty(first);
    if (!t)
        return NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    lw_rec_at *recs = NULL;
    size_t n = 0, cap = 0;
    off_t off = 0;
    struct stat st;
    off_t size = fd >= 0 && fstat(fd, &st) == 0 ? st.st_size : 0;
    lw_record h;
    while (off + (off_t)sizeof h <= size) {
        if (!lw_record_at(fd, off, size, &h)) {
            off_t next = lw_record_next(fd, off + 1, size);
            lw_warn("%s: %lld bytes at offset %lld are not a record of ranks' profiles (the file "
                    "is damaged): they are skipped, the records around them are reduced",
                    path, (long long)(next - off), (long long)off);
            off = next;
            continue;
        }
        if (n == cap) {
            size_t c = cap ? 2 * cap : 64;
            lw_rec_at *r = realloc(recs, c * sizeof *r);
            if (!r)
                break;
            recs = r;
            cap = c;
        }
        recs[n++] = (lw_rec_at){h.first, h.end, off + (off_t)sizeof h, h.len};
        off += (off_t)(sizeof h + h.len);
    }
    if (n)
        qsort(recs, n, sizeof *recs, lw_rec_cmp);
    for (size_t i = 0; i < n; i++) {
        const lw_rec_at *r = &recs[i];
        if (r->first < (int64_t)first || r->end > (int64_t)end)
            continue;
        char *buf = malloc(r->len ? r->len : 1);
        if (!buf || pread(fd, buf, r->len, r->off) != (ssize_t)r->len) {
            free(buf);
            continue;
        }
        int rc = lw_rtree_merge_at(t, buf, r->len);
        free(buf);
        if (rc == 1)
            lw_log(LW_LOG_JOB, "%s: ranks %lld to %lld have a second record (a rank ran two programs): "
                   "the first is in the job's profile", path, (long long)r->first, (long long)r->end - 1);
        else if (rc < 0)
            lw_warn("%s: the record of ranks %lld to %lld at offset %lld is not readable (the "
                    "file is damaged): the job's profile lacks them unless they have another "
                    "record",
                    path, (long long)r->first, (long long)r->end - 1,
                    (long long)(r->off - (off_t)sizeof h));
    }
    lw_rtree_end_at(t, end);
    free(recs);
    if (fd >= 0)
        close(fd);
    return t;
}
