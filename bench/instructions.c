/*
 * paywire-bench-instructions: the core bench's hot paths counted in instructions, to be run under
 * `valgrind --tool=callgrind --collect-atstart=no --separate-threads=yes` (bench/instructions.py
 * does, and reads the counts). Each figure is collected alone, between two client requests, on
 * the calling thread, after a warm-up; the count of the same binary and input is the same from
 * run to run, however loaded the machine is.
 *
 *   call        paywire_client_call("get_log_level", NULL) + paywire_string_free
 *     strdup    baseline: strdup + free of that envelope
 *   poll        paywire_client_poll(timeout 0) of one queued call_result event + paywire_string_free
 *     strdup    baseline: strdup + free of such an event
 *   get_paywall a warm get_paywall of examples/bundle.json's "onboarding" placement
 *     jansson   baseline: jansson json_loads + json_dumps of the envelope it returns
 *   record      log_show_paywall with storage_dir: the record committed to outbox.sqlite
 *     sqlite    baseline: SQLite's own insert + commit of the same row (bench/outbox.c)
 *
 * The dump after each figure is named "<figure> <operations>", so the reader divides by the count.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

#include "bench.h"
#include "paywire.h"

static volatile size_t sink;
static paywire_client_t *client;
static const char *call_result_event =
    "{\"event\":\"call_result\",\"seq\":1,\"call_id\":1,\"method\":\"get_log_level\",\"status\":0,\"status_name\":\"OK\","
    "\"envelope\":{\"success\":\"warn\"}}";

static void op_strdup_free(void *context) {
    char *copy = strdup((const char *)context);
    sink += (size_t)copy[0];
    free(copy);
}

static void op_call_trivial(void *context) {
    (void)context;
    char *out = NULL;
    paywire_client_call(client, "get_log_level", NULL, &out);
    sink += (size_t)out[0];
    paywire_string_free(out);
}

static void op_get_paywall(void *context) {
    (void)context;
    char *out = NULL;
    paywire_client_call(client, "get_paywall", "{\"placement_id\":\"onboarding\"}", &out);
    sink += (size_t)out[0];
    paywire_string_free(out);
}

static void op_jansson_roundtrip(void *context) {
    json_error_t error;
    json_t *value = json_loads((const char *)context, 0, &error);
    char *text = json_dumps(value, JSON_COMPACT);
    sink += strlen(text);
    free(text);
    json_decref(value);
}

static void op_poll(void *context) {
    (void)context;
    char *event = NULL;
    if (paywire_client_poll(client, 0, &event) != PAYWIRE_OK) {
        fprintf(stderr, "poll: the queued event was not there: %s\n", event ? event : "(null)");
        exit(1);
    }
    sink += (size_t)event[0];
    paywire_string_free(event);
}

/* Runs `op` `count` times with collection on, then dumps the count as "<name> <count>". */
static void counted(const char *name, operation op, void *context, int count) {
    for (int i = 0; i < count / 10 + 1; i++) op(context);
    char dump[96];
    snprintf(dump, sizeof dump, "%s %d", name, count);
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
    for (int i = 0; i < count; i++) op(context);
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT(dump);
}

/* The threads of this process (Linux: the entries of /proc/self/task). */
static int thread_count(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) return -1;
    int count = 0;
    for (struct dirent *entry; (entry = readdir(tasks)) != NULL;) count += entry->d_name[0] != '.';
    closedir(tasks);
    return count;
}

/* Queues `count` call_result events: async calls, answered in order on the client's worker
 * thread. Nothing tells from outside how far the worker is without taking events; but it ends
 * its thread once its queue has been empty a while, so the answers are all there once this
 * process is back to one thread, however slowly a loaded machine ran the worker. */
static void queue_events(int count) {
    uint64_t id;
    for (int i = 0; i < count; i++) {
        if (paywire_client_call_async(client, "get_log_level", NULL, &id) != PAYWIRE_OK) {
            fprintf(stderr, "call_async refused\n");
            exit(1);
        }
    }
    struct timespec pause = {0, 100 * 1000 * 1000};
    for (int waited = 0; thread_count() != 1; waited++) {
        if (waited > 1200) {
            fprintf(stderr, "the worker thread did not end within two minutes\n");
            exit(1);
        }
        nanosleep(&pause, NULL);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s BUNDLE (run by bench/instructions.py under callgrind)\n", argv[0]);
        return 2;
    }
    char config[4096], *out = NULL;
    snprintf(config, sizeof config, "{\"profile_id\":\"bench\",\"fallback\":{\"path\":\"%s\"}}", argv[1]);
    if (paywire_client_new(config, &client, &out) != PAYWIRE_OK) {
        fprintf(stderr, "client_new failed: %s\n", out);
        return 1;
    }
    paywire_string_free(out);
    /* The profile snapshot every client starts with. */
    while (paywire_client_poll(client, 0, &out) == PAYWIRE_OK) paywire_string_free(out);
    paywire_string_free(out);

    char *small = NULL;
    paywire_client_call(client, "get_log_level", NULL, &small);
    counted("call.strdup", op_strdup_free, small, 2000);
    counted("call", op_call_trivial, NULL, 2000);
    paywire_string_free(small);

    /* The warm-up takes events / 10 + 1 of them, the counted loop the rest. */
    const int events = 500;
    counted("poll.strdup", op_strdup_free, (void *)call_result_event, 2000);
    queue_events(events / 10 + 1 + events);
    counted("poll", op_poll, NULL, events);

    char *paywall = NULL;
    if (paywire_client_call(client, "get_paywall", "{\"placement_id\":\"onboarding\"}", &paywall) != PAYWIRE_OK) {
        fprintf(stderr, "get_paywall failed: %s\n", paywall);
        return 1;
    }
    counted("get_paywall.jansson", op_jansson_roundtrip, paywall, 200);
    counted("get_paywall", op_get_paywall, NULL, 2000);
    paywire_string_free(paywall);
    paywire_client_free(client);

    struct outbox_fixture *fixture = outbox_fixture_open();
    counted("record.sqlite", outbox_sqlite_insert, fixture, 300);
    counted("record", outbox_record, fixture, 300);
    outbox_fixture_close(fixture);
    return 0;
}
