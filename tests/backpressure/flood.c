/*
 * Flood: more async calls than a client may owe, from 8 threads that also make sync calls, with
 * one slow poller taking events. The rule under test (docs/operations/threads.md): every async
 * call is either refused at the call (PAYWIRE_BUSY, call id 0) or answered by exactly one
 * call_result; none is lost. Seqs rise by one, the only gaps being the ranges events_overflowed
 * names right after them.
 *
 * First, with nobody polling, async_call_limit + EXTRA calls: exactly EXTRA are refused. Then
 * the threads (which retry a refused call after a pause) and the poller run together. Exit 0 when the rule held, 1 otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "paywire.h"

#define LIMIT 64
#define EXTRA 10
#define THREADS 8
#define CALLS_PER_THREAD 1500
#define MAX_CALLS (LIMIT + EXTRA + THREADS * CALLS_PER_THREAD + 16)
/* How long the poller waits for the last answers before it calls them lost. A failure's
   deadline only: a passing run ends as soon as everything is answered. */
#define DRAIN_SECONDS 60

static paywire_client_t *client;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char answered[MAX_CALLS + 1]; /* per call id: how many call_results came */
static unsigned char accepted[MAX_CALLS + 1];
static long accepted_count, refused_count, answered_count, sync_failures, failures;
static int producers_done;

static void fail(const char *what, const char *detail) {
    pthread_mutex_lock(&lock);
    if (++failures <= 5) fprintf(stderr, "flood: %s: %.300s\n", what, detail);
    pthread_mutex_unlock(&lock);
}

static long long number_after(const char *json, const char *key) {
    const char *at = strstr(json, key);
    return at ? atoll(at + strlen(key)) : -1;
}

/* One async get_profile: accepted (its id remembered; returns 1) or refused with BUSY (0);
   anything else fails. */
static int call_async_once(void) {
    uint64_t id = 0;
    paywire_status_t status = paywire_client_call_async(client, "get_profile", NULL, &id);
    pthread_mutex_lock(&lock);
    if (status == PAYWIRE_OK && id > 0 && id <= MAX_CALLS && !accepted[id]) {
        accepted[id] = 1;
        accepted_count++;
        pthread_mutex_unlock(&lock);
        return 1;
    } else if (status == PAYWIRE_BUSY && id == 0) {
        refused_count++;
    } else {
        failures++;
        fprintf(stderr, "flood: call_async answered %d (%s) with id %llu\n", status, paywire_status_name(status),
                (unsigned long long)id);
    }
    pthread_mutex_unlock(&lock);
    return 0;
}

static void *producer(void *arg) {
    (void)arg;
    struct timespec back_off = {0, 200 * 1000};
    for (int i = 0; i < CALLS_PER_THREAD; i++) {
        /* A refused call is retried later, as an app would: only the wait is the caller's. */
        if (!call_async_once()) nanosleep(&back_off, NULL);
        if (i % 4 == 0) {
            char *out = NULL;
            paywire_status_t status = paywire_client_call(client, "get_profile", NULL, &out);
            if (status != PAYWIRE_OK) {
                pthread_mutex_lock(&lock);
                sync_failures++;
                pthread_mutex_unlock(&lock);
            }
            paywire_string_free(out);
        }
    }
    return NULL;
}

/* Takes one event; checks its seq and counts call_results. Returns 0 when none came. */
static int take_event(long long *last_seq, int timeout_ms) {
    char *event = NULL;
    paywire_status_t status = paywire_client_poll(client, timeout_ms, &event);
    if (status != PAYWIRE_OK) {
        if (status != PAYWIRE_TIMEOUT) fail("poll", event ? event : "(null)");
        paywire_string_free(event);
        return 0;
    }
    long long seq = number_after(event, "\"seq\":");
    if (strstr(event, "\"event\":\"events_overflowed\"")) {
        if (number_after(event, "\"first_dropped_seq\":") != *last_seq + 1 ||
            number_after(event, "\"last_dropped_seq\":") != seq - 1) fail("overflow report does not name the gap", event);
    } else if (seq != *last_seq + 1) {
        fail("seq gap without a report", event);
    }
    *last_seq = seq;
    if (strstr(event, "\"event\":\"call_result\"")) {
        long long id = number_after(event, "\"call_id\":");
        pthread_mutex_lock(&lock);
        if (id <= 0 || id > MAX_CALLS || !accepted[id] || answered[id]) {
            failures++;
            fprintf(stderr, "flood: call_result for call %lld, which was not accepted or was already answered\n", id);
        } else {
            answered[id] = 1;
            answered_count++;
        }
        pthread_mutex_unlock(&lock);
    }
    paywire_string_free(event);
    return 1;
}

static void *slow_poller(void *arg) {
    long long *last_seq = arg;
    struct timespec pause = {0, 200 * 1000}; /* 0.2 ms after each event: slower than the producers */
    time_t deadline = 0;
    for (;;) {
        int got = take_event(last_seq, 20);
        if (got) nanosleep(&pause, NULL);
        pthread_mutex_lock(&lock);
        int all_in = producers_done && answered_count == accepted_count;
        int done = producers_done;
        pthread_mutex_unlock(&lock);
        if (all_in) return NULL;
        if (done && deadline == 0) deadline = time(NULL) + DRAIN_SECONDS;
        if (deadline && time(NULL) > deadline) return NULL;
    }
}

int main(void) {
    char config[128];
    snprintf(config, sizeof config, "{\"profile_id\":\"p\",\"async_call_limit\":%d,\"event_queue_limit\":16}", LIMIT);
    char *out = NULL;
    if (paywire_client_new(config, &client, &out) != PAYWIRE_OK) {
        fprintf(stderr, "flood: client_new: %s\n", out ? out : "(null)");
        return 1;
    }
    paywire_string_free(out);

    for (int i = 0; i < LIMIT + EXTRA; i++) call_async_once();
    long refused_before_polling = refused_count;

    long long last_seq = 0;
    pthread_t threads[THREADS], poller;
    pthread_create(&poller, NULL, slow_poller, &last_seq);
    for (int i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, producer, NULL);
    for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
    pthread_mutex_lock(&lock);
    producers_done = 1;
    pthread_mutex_unlock(&lock);
    pthread_join(poller, NULL);
    paywire_client_free(client);

    printf("flood: %ld async calls accepted, %ld refused with BUSY (%ld before anyone polled), %ld answered; "
           "%ld sync calls failed\n", accepted_count, refused_count, refused_before_polling, answered_count, sync_failures);
    if (refused_before_polling != EXTRA) fail("refused before polling", "expected exactly EXTRA");
    if (answered_count != accepted_count) fail("lost answers", "an accepted call got no call_result");
    if (sync_failures) fail("sync calls", "a sync call failed");
    return failures ? 1 : 0;
}
