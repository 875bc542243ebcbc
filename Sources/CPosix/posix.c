/* errno (read and set) and open(2): the POSIX entry points Swift cannot call as they are (see include/cposix.h). */
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
