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

#endif
