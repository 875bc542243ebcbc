/*
 * A host's crash reporter unwinds through the library (issue 46: the library keeps unwind
 * tables). The host walks its own stack with the unwinder crash reporters use
 * (_Unwind_Backtrace, libgcc_s) from inside two of its callbacks, and each walk must cross the
 * library's frames and come out on the far side:
 *
 * - the event handler, on the library's delivery thread: library frames, then the thread's
 *   start in libc (no host frame is below a thread the library started);
 * - the handler's user_data_free, which replacing the handler runs on the caller's own stack
 *   once the delivery thread has ended (its idle linger): library frames, then the host's main.
 *
 * Without unwind tables the walk stops at the first library frame (the unwinder finds no FDE
 * for it) and the test fails. Exit 0 and one line on success.
 *
 *   unwind   (linked against libpaywire, with -rdynamic so that dladdr names main)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unwind.h>

#include "paywire.h"

#define MAX_FRAMES 256

/* One stack walk: each frame's instruction pointer, and how the walk ended. */
struct walk {
    uintptr_t ips[MAX_FRAMES];
    int count;
    _Unwind_Reason_Code end;
};

static _Unwind_Reason_Code record_frame(struct _Unwind_Context *context, void *argument) {
    struct walk *walk = argument;
    if (walk->count >= MAX_FRAMES) return _URC_END_OF_STACK;
    walk->ips[walk->count++] = (uintptr_t)_Unwind_GetIP(context);
    return _URC_NO_REASON;
}

static void walk_stack(struct walk *walk) {
    walk->count = 0;
    walk->end = _Unwind_Backtrace(record_frame, walk);
}

/* Where a frame is: in libpaywire, in the host's main, or elsewhere (the host, libc). */
enum place { PLACE_LIBRARY, PLACE_MAIN, PLACE_OTHER };

static enum place place_of(uintptr_t ip) {
    Dl_info info;
    /* The return address may be one past the call; look up the call itself. */
    if (ip == 0 || dladdr((void *)(ip - 1), &info) == 0) return PLACE_OTHER;
    if (info.dli_fname != NULL && strstr(info.dli_fname, "libpaywire.so") != NULL) return PLACE_LIBRARY;
    if (info.dli_sname != NULL && strcmp(info.dli_sname, "main") == 0) return PLACE_MAIN;
    return PLACE_OTHER;
}

static const char *name_of(uintptr_t ip) {
    Dl_info info;
    if (ip == 0 || dladdr((void *)(ip - 1), &info) == 0) return "?";
    return info.dli_sname != NULL ? info.dli_sname : (info.dli_fname != NULL ? info.dli_fname : "?");
}

static void print_walk(const char *label, const struct walk *walk) {
    fprintf(stderr, "unwind: %s: %d frames, walk ended with %d\n", label, walk->count, (int)walk->end);
    for (int i = 0; i < walk->count; i++) {
        fprintf(stderr, "  #%d %#lx %s\n", i, (unsigned long)walk->ips[i], name_of(walk->ips[i]));
    }
}

/*
 * The walk went through the library: a run of library frames, and below the last of them at
 * least one frame outside it (main when `main_below`), the walk ending at the stack's bottom.
 */
static int crossed_library(const struct walk *walk, int main_below) {
    int last_library = -1, library_frames = 0;
    for (int i = 0; i < walk->count; i++) {
        if (place_of(walk->ips[i]) == PLACE_LIBRARY) {
            last_library = i;
            library_frames++;
        }
    }
    if (library_frames == 0 || last_library + 1 >= walk->count) return 0;
    if (walk->end != _URC_END_OF_STACK) return 0;
    if (!main_below) return 1;
    for (int i = last_library + 1; i < walk->count; i++) {
        if (place_of(walk->ips[i]) == PLACE_MAIN) return 1;
    }
    return 0;
}

static pthread_t main_thread;
static struct walk event_walk, free_walk;
static volatile int events_seen, freed, freed_on_main;

static void on_event(const char *event_json, void *user_data) {
    (void)event_json;
    (void)user_data;
    if (events_seen == 0) walk_stack(&event_walk);
    events_seen++;
}

static void on_free(void *user_data) {
    (void)user_data;
    freed_on_main = pthread_equal(pthread_self(), main_thread);
    walk_stack(&free_walk);
    freed = 1;
}

static void sleep_ms(long ms) {
    struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

int main(void) {
    main_thread = pthread_self();
    paywire_client_t *client = NULL;
    char *out = NULL;
    if (paywire_client_new("{\"profile_id\":\"unwind\"}", &client, &out) != PAYWIRE_OK) {
        fprintf(stderr, "unwind: client_new failed: %s\n", out ? out : "(null)");
        return 1;
    }
    paywire_string_free(out);

    /* The free runs on this stack only when the delivery thread is gone: if it still lingered
     * (a loaded machine), attach again and wait longer. */
    for (int attempt = 1; attempt <= 5 && !freed_on_main; attempt++) {
        freed = 0;
        if (paywire_client_set_event_handler(client, on_event, NULL, on_free) != PAYWIRE_OK) return 1;
        uint64_t call_id = 0;
        if (paywire_client_call_async(client, "get_sdk_version", NULL, &call_id) != PAYWIRE_OK) return 1;
        for (int waited = 0; waited < 1000 && events_seen == 0; waited++) sleep_ms(10);
        if (events_seen == 0) {
            fprintf(stderr, "unwind: no event reached the handler in 10 s\n");
            return 1;
        }
        sleep_ms(1500L * attempt);  /* past the delivery thread's idle linger (1 s) */
        if (paywire_client_set_event_handler(client, NULL, NULL, NULL) != PAYWIRE_OK) return 1;
        if (!freed) {
            fprintf(stderr, "unwind: replacing the handler did not free its user data\n");
            return 1;
        }
    }
    paywire_client_free(client);

    int failed = 0;
    if (!crossed_library(&event_walk, 0)) {
        fprintf(stderr, "unwind: the walk from the event handler did not cross the library's frames\n");
        print_walk("event handler", &event_walk);
        failed = 1;
    }
    if (!freed_on_main) {
        fprintf(stderr, "unwind: the handler's user data was never freed on the host's thread\n");
        failed = 1;
    } else if (!crossed_library(&free_walk, 1)) {
        fprintf(stderr, "unwind: the walk from user_data_free did not cross the library's frames into main\n");
        print_walk("user_data_free", &free_walk);
        failed = 1;
    }
    if (failed) return 1;
    printf("unwind: stacks walked through libpaywire from the event handler (%d frames) and into main "
           "from user_data_free (%d frames)\n", event_walk.count, free_walk.count);
    return 0;
}
