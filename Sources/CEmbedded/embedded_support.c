/* What Embedded Swift's standard library asks of the host, for the Embedded libpaywire.so only
 * (make lib). The full-Swift library gets both from its Swift runtime and does not
 * compile this file; no SwiftPM target names it.
 *
 * Both symbols are hidden: the library's own references bind here at link time, nothing is
 * exported (the version script exports paywire_* only), and a host's own definitions are never
 * interposed or replaced.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/types.h>
#include <unistd.h>

#define PW_HIDDEN __attribute__((visibility("hidden")))

/* ---- a class whose initializer throws: swift_deallocPartialClassInstance ---------------------
 * When a class's initializer throws after its object was allocated, Swift destroys the stored
 * properties it had set and calls this function for the rest: the superclasses' properties, and
 * the memory. Embedded Swift's own definition (a weak one, in every Embedded object) runs the
 * superclasses' ivar destroyers but never frees the object, so each client refused at
 * paywire_client_new (a bad config, an unusable storage_dir, a bundle with an error) leaked it;
 * valgrind's corpus-full showed it. This strong definition replaces it: the same walk up the
 * class chain, then the object goes back to the allocator Embedded's swift_slowAlloc took it
 * from (posix_memalign, so free). An Embedded class's metadata starts with its superclass, a
 * reserved word, and its ivar destroyer, which takes the object as Swift's self. */

typedef struct pw_class_metadata {
    const struct pw_class_metadata *superclass;
    const void *reserved;
    __attribute__((swiftcall)) void (*ivar_destroyer)(__attribute__((swift_context)) void *object);
} pw_class_metadata;

PW_HIDDEN void swift_deallocPartialClassInstance(void *object, const void *metadata, size_t required_size,
                                                 size_t required_alignment_mask) {
    (void)required_size;
    (void)required_alignment_mask;
    if (object == NULL) {
        return;
    }
    for (const pw_class_metadata *class = *(const pw_class_metadata *const *)object; class != NULL && class != metadata;
         class = class->superclass) {
        if (class->ivar_destroyer != NULL) {
            class->ivar_destroyer(object);
        }
    }
    free(object);
}

/* ---- Double(String): _swift_stdlib_strtod_clocale -------------------------------------------
 * Embedded's Double(String) hands the text to this function and accepts the result only when
 * the returned pointer is the text's terminating NUL. The text is read in the "C" locale, never
 * the process's (a host that set LC_NUMERIC to a comma locale must not change how JSON numbers
 * parse). Out-of-range values round as IEEE 754 says (1e400 is infinity, 1e-400 zero), as the
 * full Swift runtime gives them; JSONValue refuses the non-finite ones itself. */

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void) {
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

PW_HIDDEN const char *_swift_stdlib_strtod_clocale(const char *text, double *out) {
    if (pthread_once(&c_locale_once, make_c_locale) != 0 || c_locale == (locale_t)0) {
        return NULL; /* no "C" locale object: the parse fails rather than use the host's locale */
    }
    char *end = NULL;
    *out = strtod_l(text, &end, c_locale);
    return end;
}

/* ---- random bytes: arc4random_buf ------------------------------------------------------------
 * Embedded's SystemRandomNumberGenerator (hash seeds, UUIDs, jitter) calls arc4random_buf, which
 * glibc has only from 2.36; defining it here keeps the hosts of older glibc (Ubuntu 22.04,
 * Debian 11). The bytes come from the kernel's getrandom(2), which blocks only until the pool is
 * first seeded. A kernel or sandbox without the system call (ENOSYS) gives the same pool through
 * /dev/urandom. When neither can give bytes the process stops, as glibc's own arc4random_buf
 * does: returning predictable bytes would be worse than stopping. */

static int read_urandom(unsigned char *bytes, size_t count) {
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    while (count > 0) {
        ssize_t got = read(fd, bytes, count);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            close(fd);
            return -1;
        }
        bytes += got;
        count -= (size_t)got;
    }
    close(fd);
    return 0;
}

PW_HIDDEN void arc4random_buf(void *buffer, size_t count) {
    unsigned char *bytes = buffer;
    int saved_errno = errno;
    while (count > 0) {
        ssize_t got = getrandom(bytes, count, 0);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0 && errno == ENOSYS && read_urandom(bytes, count) == 0) {
            break;
        }
        if (got <= 0) {
            abort();
        }
        bytes += got;
        count -= (size_t)got;
    }
    errno = saved_errno;
}
