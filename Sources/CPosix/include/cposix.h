/* The POSIX calls the boundary (Sources/Paywire) makes, as one C module.
 *
 * The boundary used to import Glibc (Darwin on Apple), an overlay Embedded Swift does not have.
 * This header includes exactly the system headers the boundary uses, so the same sources compile
 * in full and in Embedded Swift. Two things cannot cross as they are:
 *  - errno is a macro over a thread-local lvalue (glibc: *__errno_location()); Glibc's overlay
 *    wraps it, a plain C module does not, so it is read through pw_errno() and set through
 *    pw_set_errno();
 *  - open(2) is variadic, and Swift cannot call a C variadic function: pw_open takes the mode
 *    as a fixed argument.
 *
 * Nothing here is exported from libpaywire: the linker script exports paywire_* only.
 */
#ifndef PAYWIRE_CPOSIX_H
#define PAYWIRE_CPOSIX_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* The calling thread's errno, read and set. */
int pw_errno(void);
void pw_set_errno(int value);

/* open(2) with its mode always given (ignored by the kernel unless O_CREAT or O_TMPFILE). */
int pw_open(const char *path, int flags, mode_t mode);

/* What the boundary asks of a file: its type and permission bits (st_mode) and its size. */
typedef struct {
    mode_t mode;
    int64_t size;
} pw_file_info;

/* stat(2), fstat(2) and fstatat(2) with AT_SYMLINK_NOFOLLOW, into a pw_file_info; 0 on success,
 * -1 with errno set. On Linux they read through statx(2) (glibc 2.28), not glibc's stat family:
 * glibc 2.33 gave stat, fstat and fstatat symbols of their own, and a library that calls them
 * needs glibc 2.33 to load, which Debian 11 (2.31) does not have (docs/operations/testing.md,
 * "The C library a host needs"). */
int pw_stat(const char *path, pw_file_info *info);
int pw_fstat(int fd, pw_file_info *info);
int pw_lstat_at(int dirfd, const char *path, pw_file_info *info);

#endif
