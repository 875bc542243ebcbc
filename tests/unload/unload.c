/*
 * A host that unloads the library: dlopen, a client whose async call starts a worker thread,
 * free, dlclose, then wait past the worker's idle linger. The library is linked -z nodelete,
 * so dlclose leaves it mapped and the worker ends in code that is still there; without it the
 * process dies on the unmapped code. Exit 0 and one line on success.
 *
 *   unload PATH-TO-LIBPAYWIRE
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "paywire.h"

typedef int32_t (*client_new_fn)(const char *, paywire_client_t **, char **);
typedef int32_t (*call_async_fn)(paywire_client_t *, const char *, const char *, uint64_t *);
typedef int32_t (*poll_fn)(paywire_client_t *, int32_t, char **);
typedef void (*client_free_fn)(paywire_client_t *);
typedef void (*string_free_fn)(char *);

static void sleep_ms(long ms) {
    struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    for (int round = 0; round < 3; round++) {
        void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) {
            fprintf(stderr, "unload: %s\n", dlerror());
            return 1;
        }
        client_new_fn client_new;
        call_async_fn call_async;
        poll_fn poll;
        client_free_fn client_free;
        string_free_fn string_free;
        /* POSIX allows converting dlsym's object pointer to a function pointer this way. */
        *(void **)&client_new = dlsym(library, "paywire_client_new");
        *(void **)&call_async = dlsym(library, "paywire_client_call_async");
        *(void **)&poll = dlsym(library, "paywire_client_poll");
        *(void **)&client_free = dlsym(library, "paywire_client_free");
        *(void **)&string_free = dlsym(library, "paywire_string_free");
        if (!client_new || !call_async || !poll || !client_free || !string_free) return 1;

        paywire_client_t *client = NULL;
        char *out = NULL;
        if (client_new("{\"profile_id\":\"unload\"}", &client, &out) != PAYWIRE_OK) return 1;
        string_free(out);
        uint64_t call_id = 0;
        if (call_async(client, "get_sdk_version", NULL, &call_id) != PAYWIRE_OK) return 1;
        int answered = 0;
        for (int waited = 0; waited < 500 && !answered; waited++) {
            char *event = NULL;
            if (poll(client, 10, &event) == PAYWIRE_OK && event != NULL) {
                answered = strstr(event, "call_result") != NULL;
                string_free(event);
            }
        }
        if (!answered) return 1;
        client_free(client);
        dlclose(library);
        sleep_ms(1500); /* past the worker threads' 1 s linger */
    }
    printf("unload: 3 rounds of dlopen, a client, dlclose; worker threads ended without a fault\n");
    return 0;
}
