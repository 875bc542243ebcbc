/* errno (read and set), open(2) and the stat family: the POSIX entry points Swift cannot call as
 * they are, or that would raise the C library a host needs (see include/cposix.h). */
#ifdef __linux__
#define _GNU_SOURCE /* statx */
#include <sys/syscall.h>
#endif
#include "cposix.h"

int pw_errno(void) {
    return errno;
}

void pw_set_errno(int value) {
    errno = value;
}

int pw_open(const char *path, int flags, mode_t mode) {
    return open(path, flags, mode);
}

#ifdef __linux__
/* statx(2) where the kernel has it (Linux 4.11); before that, or where a sandbox refuses it with
 * ENOSYS, the fstatat system call itself, whose struct stat is glibc's on 64-bit targets. */
static int file_info(int dirfd, const char *path, int flags, pw_file_info *info) {
    struct statx extended;
    if (statx(dirfd, path, flags, STATX_TYPE | STATX_MODE | STATX_SIZE, &extended) == 0) {
        info->mode = extended.stx_mode;
        info->size = (int64_t)extended.stx_size;
        return 0;
    }
#if defined(SYS_newfstatat) && UINTPTR_MAX > 0xffffffffu
    if (errno == ENOSYS) {
        struct stat plain;
        if (syscall(SYS_newfstatat, dirfd, path, &plain, flags) != 0) return -1;
        info->mode = plain.st_mode;
        info->size = (int64_t)plain.st_size;
        return 0;
    }
#endif
    return -1;
}

int pw_stat(const char *path, pw_file_info *info) {
    return file_info(AT_FDCWD, path, 0, info);
}

int pw_fstat(int fd, pw_file_info *info) {
    return file_info(fd, "", AT_EMPTY_PATH, info);
}

int pw_lstat_at(int dirfd, const char *path, pw_file_info *info) {
    return file_info(dirfd, path, AT_SYMLINK_NOFOLLOW, info);
}
#else
static int copy_info(int status, const struct stat *plain, pw_file_info *info) {
    if (status != 0) return -1;
    info->mode = plain->st_mode;
    info->size = (int64_t)plain->st_size;
    return 0;
}

int pw_stat(const char *path, pw_file_info *info) {
    struct stat plain;
    return copy_info(stat(path, &plain), &plain, info);
}

int pw_fstat(int fd, pw_file_info *info) {
    struct stat plain;
    return copy_info(fstat(fd, &plain), &plain, info);
}

int pw_lstat_at(int dirfd, const char *path, pw_file_info *info) {
    struct stat plain;
    return copy_info(fstatat(dirfd, path, &plain, AT_SYMLINK_NOFOLLOW), &plain, info);
}
#endif
