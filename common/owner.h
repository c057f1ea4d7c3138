/*
 * owner.h - files and directories libwrap makes (results, records, the
 * trace) under the program's umask, which may take the owner's own rights
 * (0777, 0277): each is given back its owner's read and write (and for a
 * directory, search) rights as it is made, so that its own user can read
 * it and the runtime write into it. The umask itself is never changed: it
 * is the process's, which the program's other threads create files under
 * at the same time. Header only.
 */
#ifndef LIBWRAP_COMMON_OWNER_H
#define LIBWRAP_COMMON_OWNER_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The owner's rights `bits` (0600, 0700) on `fd`, where its mode lacks them. */
static inline void lw_owner_fd(int fd, mode_t bits)
{
    int saved = errno;
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & bits) != bits)
        (void)fchmod(fd, (st.st_mode & 07777) | bits);
    errno = saved;
}

/* open(path, flags | O_CREAT, 0666), the file its owner's to read and
 * write. Never through a symbolic link: a results directory may be one
 * that others can write into (mode 1777, "A process that changes user"),
 * and a link planted there must not take a root process's write
 * elsewhere. */
static inline int lw_owner_open(const char *path, int flags)
{
    int fd = open(path, flags | O_CREAT | O_NOFOLLOW, 0666);
    lw_owner_fd(fd, 0600);
    return fd;
}

/* The owner's rights on `name` (relative to the directory `dirfd`, or
 * AT_FDCWD), made by someone else under the umask (OTF2's archive): 0600
 * on a regular file, 0700 on a directory; a link or anything else is left
 * alone. */
static inline void lw_owner_at(int dirfd, const char *name)
{
    int saved = errno;
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
        mode_t bits = S_ISDIR(st.st_mode) ? 0700 : 0600;
        if ((st.st_mode & bits) != bits)
            (void)fchmodat(dirfd, name, (st.st_mode & 07777) | bits, 0);
    }
    errno = saved;
}

/* mkdir(path, 0777), the directory its owner's: 0 or -1 with errno. A
 * fork child's directory (fork-PID) made in a directory of mode 1777 (an
 * experiment directory made so beforehand for a server whose workers
 * change user, or one made so below it) gets mode 1777 as well: the
 * child's own children, a daemon's workers running as other users, make
 * theirs in it. The sticky bit keeps each one's entries its own. */
static inline int lw_owner_mkdir(const char *path)
{
    const char *slash = strrchr(path, '/');
    struct stat st;
    char parent[4096], tmp[4096 + 64];
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (slash && !strncmp(slash + 1, "fork-", 5) && n > 0 && n < sizeof parent) {
        memcpy(parent, path, n);
        parent[n] = 0;
        int saved = errno;
        if (stat(parent, &st) == 0 && (st.st_mode & 01777) == 01777 &&
            snprintf(tmp, sizeof tmp, "%s/.%s.%ld", parent, slash + 1, (long)getpid()) < (int)sizeof tmp) {
            /* Made 1777 under a name of its own, then put in place: the
             * umask would leave it 0755 for a moment in which another user's
             * process, finding it there, could not make its own in it. */
            errno = saved;
            if (mkdir(tmp, 0700) != 0)
                return -1;
            int r = chmod(tmp, 01777);
            if (r == 0) {
                r = (int)syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path, 1 /* RENAME_NOREPLACE */);
                if (r != 0 && (errno == EINVAL || errno == ENOSYS))
                    r = access(path, F_OK) == 0 ? (errno = EEXIST, -1) : rename(tmp, path);
            }
            if (r != 0) {
                int err = errno == ENOTEMPTY ? EEXIST : errno;
                (void)rmdir(tmp);
                errno = err;
                return -1;
            }
            return 0;
        }
        errno = saved;
    }
    if (mkdir(path, 0777) != 0)
        return -1;
    lw_owner_at(AT_FDCWD, path);
    return 0;
}

/* Why a write into `dir` was refused (`err`) where `dir` belongs to
 * another user than the one the process runs as: it changed user after
 * the directory was made (a program that drops root's rights once it has
 * measured, and tracing claimed the directory at the first call). The
 * words go after the error; "" where that is not the case. */
static inline const char *lw_owner_denied(const char *dir, int err, char *buf, size_t n)
{
    struct stat st;
    uid_t euid = geteuid();
    if ((err != EACCES && err != EPERM) || !dir || euid == (uid_t)-1 || stat(dir, &st) != 0 ||
        st.st_uid == euid)
        return "";
    snprintf(buf, n,
             ": the process runs as user %ld, its results' directory belongs to user %ld (it changed user "
             "after the directory was made); create LIBWRAP_EXPERIMENT_DIRECTORY beforehand with mode 1777 "
             "(docs/runtime.md, \"A process that changes user\")",
             (long)euid, (long)st.st_uid);
    return buf;
}

#endif /* LIBWRAP_COMMON_OWNER_H */
