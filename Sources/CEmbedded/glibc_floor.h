/* The C library a host needs: the symbol versions the Embedded library binds (x86_64 glibc).
 *
 * A library linked against this machine's glibc (2.36) asks for the newest version of each
 * symbol it calls, and glibc 2.34 gave pthread_create, pthread_once, pthread_condattr_setclock,
 * dlopen, dlsym and dlerror new versions when it merged libpthread and libdl into libc (2.32 did
 * the same for pthread_sigmask). Bound to those, the library would not load on glibc 2.31 (Debian
 * 11) or 2.28 (Debian 10, RHEL 8). glibc keeps every older version, so each call is bound to the
 * version glibc first had; on a C library before 2.34 those live in libpthread.so.0 and
 * libdl.so.2, which the library therefore names as NEEDED too (empty stubs on 2.34 and later).
 *
 * One list for both languages: the C modules' sources are compiled with this header included
 * first (-include, mk/embedded.mk), and the build copies each .symver line below into every
 * Swift module's IR as module-level assembly. A .symver of a symbol a file does not call adds
 * nothing to it. check-glibc (make test) fails when any symbol needs a newer glibc than
 * GLIBC_FLOOR (mk/weight.mk).
 */
#if defined(__linux__) && defined(__x86_64__)
__asm__(".symver pthread_create,pthread_create@GLIBC_2.2.5");
__asm__(".symver pthread_once,pthread_once@GLIBC_2.2.5");
__asm__(".symver pthread_condattr_setclock,pthread_condattr_setclock@GLIBC_2.3.3");
__asm__(".symver pthread_sigmask,pthread_sigmask@GLIBC_2.2.5");
__asm__(".symver dlopen,dlopen@GLIBC_2.2.5");
__asm__(".symver dlsym,dlsym@GLIBC_2.2.5");
__asm__(".symver dlerror,dlerror@GLIBC_2.2.5");
#endif
