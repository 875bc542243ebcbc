/*
 * Soak: what a long-running host does, with its resource use measured in the same run.
 *
 *   1. 10,000 clients created, used (a sync and an async call) and freed, on one storage_dir
 *      (so the ownership lock is taken and released 10,000 times);
 *   2. 1,000,000 calls on one client (paywalls, profile, version; an async call and a poll
 *      drain every 1,000);
 *   3. 100 live clients, each on its own storage_dir, called and polled from 4 threads.
 *
 * After a warm-up (the first tenth of each phase) the process's threads, open descriptors and
 * RSS, taken once idle, are the baseline. At the end of the phase, idle again (the library's
 * worker threads gone), there must be no more threads and exactly as many descriptors as at the baseline,
 * and RSS may exceed it by at most the phase's stated bound: a leak of even 1 KB per client or
 * a few bytes per call passes those bounds. Nothing is measured against a clock.
 * Built against the release library by `make stress`; run from the repository root.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paywire.h"

#define CLIENTS 10000
#define CALLS 1000000
#define LIVE_CLIENTS 100
#define POLL_THREADS 4
#define LIVE_ROUNDS 200
#define MIB 1024L

/* RSS bounds after warm-up, in KiB: 8 MiB over 9,000 clients is under 1 KiB a client; 4 MiB
 * over 900,000 calls is under 5 bytes a call; 8 MiB for 180 rounds of 100 live clients. */
#define CLIENTS_RSS_BOUND_KB (8 * MIB)
#define CALLS_RSS_BOUND_KB (4 * MIB)
#define LIVE_RSS_BOUND_KB (8 * MIB)

typedef struct {
    long threads;
    long descriptors;
    long rss_kb;
} usage_t;

static char scratch[] = "/tmp/paywire-soak-XXXXXX";
static int failures;

static long count_entries(const char *path) {
    DIR *directory = opendir(path);
    if (directory == NULL) return -1;
    long count = 0;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) if (entry->d_name[0] != '.') count++;
    closedir(directory);
    return count;
}

static usage_t measure(void) {
    usage_t usage = {count_entries("/proc/self/task"), count_entries("/proc/self/fd") - 1 /* the DIR's own */, -1};
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    while (status && fgets(line, sizeof line, status)) {
        if (strncmp(line, "VmRSS:", 6) == 0) usage.rss_kb = atol(line + 6);
    }
    if (status) fclose(status);
    return usage;
}

/* The usage once the thread count has not changed for 2 s (the library's worker threads end
 * after 1 s idle), or after 30 s. Baselines and ends are both taken so, idle alike. */
static usage_t settled(void) {
    usage_t usage = measure();
    int unchanged = 0;
    for (int waited = 0; waited < 300 && unchanged < 20; waited++) {
        usleep(100 * 1000);
        usage_t now = measure();
        unchanged = now.threads == usage.threads ? unchanged + 1 : 0;
        usage = now;
    }
    return usage;
}

static void check(const char *phase, usage_t base, usage_t end, long rss_bound_kb) {
    int ok = end.threads <= base.threads && end.descriptors == base.descriptors && end.rss_kb - base.rss_kb <= rss_bound_kb;
    printf("soak: %-32s threads %ld -> %ld, descriptors %ld -> %ld, RSS %ld -> %ld KiB (bound +%ld KiB): %s\n", phase,
           base.threads, end.threads, base.descriptors, end.descriptors, base.rss_kb, end.rss_kb, rss_bound_kb,
           ok ? "ok" : "FAILED");
    if (!ok) failures++;
}

static paywire_client_t *new_client(const char *storage_dir) {
    char config[512];
    snprintf(config, sizeof config,
             "{\"profile_id\":\"soak\",\"fallback\":{\"path\":\"examples/bundle.json\"},\"event_queue_limit\":64%s%s%s}",
             storage_dir ? ",\"storage_dir\":\"" : "", storage_dir ? storage_dir : "", storage_dir ? "\"" : "");
    paywire_client_t *client = NULL;
    char *out = NULL;
    if (paywire_client_new(config, &client, &out) != PAYWIRE_OK) {
        fprintf(stderr, "soak: client_new: %s\n", out ? out : "(null)");
        exit(1);
    }
    paywire_string_free(out);
    return client;
}

static void call(paywire_client_t *client, const char *method, const char *params) {
    char *out = NULL;
    if (paywire_client_call(client, method, params, &out) != PAYWIRE_OK) {
        fprintf(stderr, "soak: %s: %s\n", method, out ? out : "(null)");
        exit(1);
    }
    paywire_string_free(out);
}

/* An async call, then polls until its call_result (other events are dropped on the way). */
static void call_async_and_wait(paywire_client_t *client, const char *method, const char *params) {
    uint64_t call_id = 0;
    if (paywire_client_call_async(client, method, params, &call_id) != PAYWIRE_OK) exit(2);
    char marker[64];
    snprintf(marker, sizeof marker, "\"call_id\":%llu,", (unsigned long long)call_id);
    for (;;) {
        char *event = NULL;
        paywire_status_t status = paywire_client_poll(client, 10000, &event);
        int found = status == PAYWIRE_OK && strstr(event, marker) != NULL;
        if (status != PAYWIRE_OK) fprintf(stderr, "soak: poll: %s\n", event ? event : "(null)");
        paywire_string_free(event);
        if (status != PAYWIRE_OK) exit(3);
        if (found) return;
    }
}

static void use_and_free(const char *storage_dir) {
    paywire_client_t *client = new_client(storage_dir);
    call(client, "get_paywall", "{\"placement_id\":\"onboarding\"}");
    call_async_and_wait(client, "get_profile", NULL);
    paywire_client_free(client);
}

static void clients_phase(void) {
    char store[64];
    snprintf(store, sizeof store, "%s/store", scratch);
    for (int i = 0; i < CLIENTS / 10; i++) use_and_free(store);
    usage_t base = settled();
    for (int i = CLIENTS / 10; i < CLIENTS; i++) use_and_free(store);
    check("10,000 clients created and freed", base, settled(), CLIENTS_RSS_BOUND_KB);
}

static void one_call(paywire_client_t *client, long i) {
    switch (i % 4) {
    case 0: call(client, "get_paywall", "{\"placement_id\":\"onboarding\"}"); break;
    case 1: call(client, "get_paywall", "{\"placement_id\":\"settings\",\"locale\":\"fr\"}"); break;
    case 2: call(client, "get_profile", NULL); break;
    default: call(client, "get_sdk_version", NULL); break;
    }
    if (i % 1000 == 999) call_async_and_wait(client, "get_profile", NULL);
}

static void calls_phase(void) {
    paywire_client_t *client = new_client(NULL);
    for (long i = 0; i < CALLS / 10; i++) one_call(client, i);
    usage_t base = settled();
    for (long i = CALLS / 10; i < CALLS; i++) one_call(client, i);
    check("1,000,000 calls on one client", base, settled(), CALLS_RSS_BOUND_KB);
    paywire_client_free(client);
}

static paywire_client_t *live[LIVE_CLIENTS];

typedef struct {
    int first;
    int rounds;
} poller_job;

/* Each thread owns a quarter of the clients: an async call on each, then polls each until its
 * answer came, and a sync call in between, round after round. */
static void *poller(void *argument) {
    poller_job *job = argument;
    for (int round = 0; round < job->rounds; round++) {
        for (int i = job->first; i < job->first + LIVE_CLIENTS / POLL_THREADS; i++) {
            call_async_and_wait(live[i], "get_paywall", "{\"placement_id\":\"feature_gate\"}");
            call(live[i], "get_profile", NULL);
        }
    }
    return NULL;
}

static void run_pollers(int rounds) {
    pthread_t threads[POLL_THREADS];
    poller_job jobs[POLL_THREADS];
    for (int t = 0; t < POLL_THREADS; t++) {
        jobs[t] = (poller_job){t * (LIVE_CLIENTS / POLL_THREADS), rounds};
        pthread_create(&threads[t], NULL, poller, &jobs[t]);
    }
    for (int t = 0; t < POLL_THREADS; t++) pthread_join(threads[t], NULL);
}

static void open_live_clients(void) {
    for (int i = 0; i < LIVE_CLIENTS; i++) {
        char store[64];
        snprintf(store, sizeof store, "%s/live-%d", scratch, i);
        live[i] = new_client(store);
    }
}

static void live_phase(void) {
    /* Warm-up: one whole cycle of 100 clients (their outbox databases among what they hold)
     * opened, polled and freed, so the allocator has grown its arenas (one per poll thread)
     * before the baseline; what it keeps for reuse then is not counted as a leak. */
    open_live_clients();
    run_pollers(LIVE_ROUNDS / 10);
    for (int i = 0; i < LIVE_CLIENTS; i++) paywire_client_free(live[i]);
    usage_t before = settled();
    open_live_clients();
    run_pollers(LIVE_ROUNDS / 10);
    usage_t base = settled();
    run_pollers(LIVE_ROUNDS - LIVE_ROUNDS / 10);
    check("100 live clients, 4 poll threads", base, settled(), LIVE_RSS_BOUND_KB);
    for (int i = 0; i < LIVE_CLIENTS; i++) paywire_client_free(live[i]);
    /* Freed: every descriptor (the 100 locks and databases among them) and thread the clients
     * had is gone, and the memory is back to what the warm-up cycle left. */
    check("... and after freeing them", before, settled(), LIVE_RSS_BOUND_KB);
}

int main(void) {
    if (mkdtemp(scratch) == NULL) return 1;
    clients_phase();
    calls_phase();
    live_phase();
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", scratch);
    if (system(command) != 0) fprintf(stderr, "soak: could not remove %s\n", scratch);
    printf("soak: %s\n", failures ? "FAILED" : "threads, descriptors and RSS stayed within their bounds");
    return failures ? 1 : 0;
}
