/*
 * paywire-bench: ratios against baselines measured in the same run (never wall-clock limits).
 *
 *   (a) a call with NULL params and a small result   vs  strdup + free of that result
 *   (b) a warm get_paywall of a ~4 KB paywall          vs  jansson parse + dump of that paywall
 *   (c) draining one event with paywire_client_poll    vs  strdup + free of that event
 *   (d) a warm get_paywall served from the cache        vs  jansson parse + dump of that paywall
 *       (fetched once through the host transport, then return_cache_data_else_load)
 *   (e) set_fallback of a 1,000-placement bundle, 0.8 MB and 5 MB, inline and from a file, and of
 *       a 1,000-placement file in the vendor's dashboard format (bench/vendor_file.c), the same
 *                                                      vs  jansson parse of the same text;
 *       and the first get_paywall of a placement from it, in absolute time (target < 1 ms)
 *   (f) recording one event with storage_dir (log_show_paywall)
 *                                                      vs  a plain SQLite insert-and-commit of the same row
 *   (f2) the same into a full queue (max_queued records kept: new ones evict the oldest, 1% at a time)
 *                                                      vs  the same baseline, measured in turn with it
 *
 * Each figure is the median over batches of the per-operation time. `paywire-bench outbox` runs
 * (f) and (f2) alone.
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "paywire.h"

static volatile size_t sink;
static paywire_client_t *client;
static const char *small_result;
static const char *paywall_text;
static const char *get_paywall_params = "{\"placement_id\":\"big\"}";

static void op_strdup_free(void *context) {
    char *copy = strdup((const char *)context);
    sink += (size_t)copy[0];
    free(copy);
}

static void op_call_small(void *context) {
    (void)context;
    char *out = NULL;
    paywire_client_call(client, "get_log_level", NULL, &out);
    sink += (size_t)out[0];
    paywire_string_free(out);
}

static void op_get_paywall(void *context) {
    (void)context;
    char *out = NULL;
    paywire_client_call(client, "get_paywall", get_paywall_params, &out);
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

/* A bundle whose placement "big" serves a paywall of about 4 KB. */
static char *make_bundle(void) {
    size_t size = 16384;
    char *bundle = malloc(size);
    char config[3600];
    size_t used = 0;
    used += (size_t)snprintf(config + used, sizeof config - used, "{");
    for (int i = 0; used < sizeof config - 80; i++) {
        used += (size_t)snprintf(config + used, sizeof config - used, "%s\\\"feature_%02d\\\":\\\"Unlimited access to feature %02d\\\"", i ? "," : "", i, i);
    }
    snprintf(config + used, sizeof config - used, "}");
    snprintf(bundle, size,
             "{\"bundle\":{\"format_version\":1,\"response_created_at\":1763769600000,\"placements\":{\"big\":{"
             "\"audience_name\":\"All Users\",\"revision\":12,\"ab_test_name\":\"bench_test\","
             "\"placement_audience_version_id\":\"big-v12\",\"variations\":["
             "{\"variation_id\":\"a\",\"paywall_id\":\"pw-a\",\"paywall_name\":\"Bench A\",\"weight\":50,"
             "\"products\":[\"premium_monthly\",\"premium_annual\",\"lifetime\"],\"remote_configs\":[{\"lang\":\"en\",\"data\":\"%s\"}]},"
             "{\"variation_id\":\"b\",\"paywall_id\":\"pw-b\",\"paywall_name\":\"Bench B\",\"weight\":50,"
             "\"products\":[\"premium_annual\",\"premium_monthly\",\"lifetime\"],\"remote_configs\":[{\"lang\":\"en\",\"data\":\"%s\"}]}]}}}}",
             config, config);
    return bundle;
}

static paywire_client_t *remote_client;
static const char *cached_params = "{\"placement_id\":\"big\",\"fetch_policy\":\"return_cache_data_else_load\"}";

static void op_cached_get_paywall(void *context) {
    (void)context;
    char *out = NULL;
    paywire_client_call(remote_client, "get_paywall", cached_params, &out);
    sink += (size_t)out[0];
    paywire_string_free(out);
}

static char *big_bundle_text;
static paywire_client_t *bundle_client;

static void op_set_big_fallback(void *context) {
    char *out = NULL;
    paywire_client_call(bundle_client, "set_fallback", (const char *)context, &out);
    sink += (size_t)out[0];
    paywire_string_free(out);
}

static void op_jansson_parse(void *context) {
    json_error_t error;
    json_t *value = json_loads((const char *)context, 0, &error);
    sink += json_object_size(value);
    json_decref(value);
}

/* Polls until an event containing `needle` arrives; returns it (caller frees) or NULL. */
static char *poll_for(paywire_client_t *target, const char *needle) {
    for (int i = 0; i < 100; i++) {
        char *event = NULL;
        if (paywire_client_poll(target, 100, &event) == PAYWIRE_OK && strstr(event, needle)) return event;
        paywire_string_free(event);
    }
    return NULL;
}

static char *make_bundle(void);
static char *make_generated_bundle(int padding);
static void bench_generated_bundle(const char *kind, char *params_text);

/* (d) and (e). */
static void bench_cache_and_bundle(void) {
    /* (d): fetch "big" once through the host transport, then serve it from the cache. */
    char *out = NULL;
    if (paywire_client_new("{\"profile_id\":\"bench\",\"transport\":{\"type\":\"host\",\"base_url\":\"https://api.test\"},\"refresh_profile_on_start\":false}",
                           &remote_client, &out) != PAYWIRE_OK) { fprintf(stderr, "remote client: %s\n", out); exit(1); }
    paywire_string_free(out);
    uint64_t call_id;
    paywire_client_call_async(remote_client, "get_paywall", "{\"placement_id\":\"big\"}", &call_id);
    char *request = poll_for(remote_client, "\"kind\":\"http\"");
    /* The backend's answer: the "big" placement of the bench bundle, as a placement response. */
    char *bundle = make_bundle();
    json_error_t error;
    json_t *bundle_json = json_loads(bundle, 0, &error);
    json_t *placement = json_object_get(json_object_get(json_object_get(bundle_json, "bundle"), "placements"), "big");
    json_t *body = json_pack("{s:I, s:O}", "response_created_at", (json_int_t)1763769600000LL, "placement", placement);
    char *body_text = json_dumps(body, JSON_COMPACT);
    json_t *answer = json_pack("{s:s, s:{s:i, s:[], s:s}}", "request_id", "req-1", "result", "status", 200, "headers", "body", body_text);
    char *answer_text = json_dumps(answer, JSON_COMPACT);
    paywire_client_call(remote_client, "host_respond", answer_text, &out);
    paywire_string_free(out);
    char *result = poll_for(remote_client, "\"call_result\"");
    if (request == NULL || result == NULL || strstr(result, "\"status\":0") == NULL) {
        fprintf(stderr, "(d) setup failed: %s\n", result ? result : "no call_result");
        exit(1);
    }
    out = NULL;
    paywire_client_call(remote_client, "get_paywall", cached_params, &out);
    double jansson_cached = measure(op_jansson_roundtrip, out, 5000);
    paywire_string_free(out);
    double cached = measure(op_cached_get_paywall, NULL, 20000);
    report("(d) warm get_paywall from the cache", cached, jansson_cached, "jansson parse+dump", 0.1);
    paywire_string_free(request);
    paywire_string_free(result);
    free(body_text);
    free(answer_text);
    json_decref(answer);
    json_decref(body);
    json_decref(bundle_json);
    free(bundle);
    paywire_client_free(remote_client);

    bench_generated_bundle("bundle", make_generated_bundle(0));
    bench_generated_bundle("bundle", make_generated_bundle(1400));
    bench_generated_bundle("vendor file", make_vendor_file(0));
    bench_generated_bundle("vendor file", make_vendor_file(1400));
}

/* (e): a generated bundle of 1,000 placements; `padding` lengthens each remote config, so the
 * same index comes with more bytes. Returned as set_fallback params ({"bundle": ...}). */
static char *make_generated_bundle(int padding) {
    size_t capacity = 16u << 20, used = 0;
    char *pad = malloc((size_t)padding + 1);
    memset(pad, 'x', (size_t)padding);
    pad[padding] = '\0';
    char *text = malloc(capacity);
    used += (size_t)snprintf(text + used, capacity - used,
                             "{\"bundle\":{\"format_version\":1,\"response_created_at\":1,\"placements\":{");
    for (int i = 0; i < 1000; i++) {
        used += (size_t)snprintf(text + used, capacity - used,
            "%s\"placement_%04d\":{\"audience_name\":\"All Users\",\"revision\":1,\"ab_test_name\":\"t%d\","
            "\"placement_audience_version_id\":\"p%d-v1\",\"variations\":["
            "{\"variation_id\":\"a%d\",\"paywall_id\":\"pw-a%d\",\"paywall_name\":\"A\",\"weight\":50,\"products\":[\"premium_monthly\",\"premium_annual\"],"
            "\"remote_configs\":[{\"lang\":\"en\",\"data\":\"{\\\"title\\\":\\\"Unlock everything in placement %d with a long enough remote config to make the bundle realistic\\\",\\\"terms\\\":\\\"%s\\\"}\"},"
            "{\"lang\":\"fr\",\"data\":\"{\\\"title\\\":\\\"Tout debloquer dans le placement %d avec une configuration assez longue\\\",\\\"terms\\\":\\\"%s\\\"}\"}]},"
            "{\"variation_id\":\"b%d\",\"paywall_id\":\"pw-b%d\",\"paywall_name\":\"B\",\"weight\":50,\"products\":[\"premium_annual\"],"
            "\"remote_configs\":[{\"lang\":\"en\",\"data\":\"{\\\"title\\\":\\\"Save with annual in placement %d and read this long line of text\\\",\\\"terms\\\":\\\"%s\\\"}\"}]}]}",
            i ? "," : "", i, i, i, i, i, i, pad, i, pad, i, i, i, pad);
    }
    used += (size_t)snprintf(text + used, capacity - used, "}}}");
    free(pad);
    return text;
}

/* (e) for one file: set_fallback takes it inline ({"bundle": ...}) and as a file ({"path":
 * ...}); both are compared with jansson parsing the file's text. `params_text` is freed. */
static void bench_generated_bundle(const char *kind, char *params_text) {
    big_bundle_text = params_text;
    const char *inner = big_bundle_text + strlen("{\"bundle\":");
    char *bundle_only = strndup(inner, strlen(inner) - 1);
    char bundle_path[] = "/tmp/paywire-bench-XXXXXX";
    int fd = mkstemp(bundle_path);
    FILE *file = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (file == NULL || fputs(bundle_only, file) < 0 || fclose(file) != 0) { fprintf(stderr, "(e) cannot write %s\n", bundle_path); exit(1); }
    char path_params[128];
    snprintf(path_params, sizeof path_params, "{\"path\":\"%s\"}", bundle_path);

    char *out = NULL;
    if (paywire_client_new("{\"profile_id\":\"bench\"}", &bundle_client, &out) != PAYWIRE_OK) exit(1);
    paywire_string_free(out);
    /* Both forms must load: a refused file would time an error envelope. */
    const char *params[] = {big_bundle_text, path_params};
    for (int i = 0; i < 2; i++) {
        out = NULL;
        if (paywire_client_call(bundle_client, "set_fallback", params[i], &out) != PAYWIRE_OK) {
            fprintf(stderr, "(e) set_fallback of the %s failed: %s\n", kind, out);
            exit(1);
        }
        paywire_string_free(out);
    }
    double jansson_bundle = measure(op_jansson_parse, bundle_only, 5);
    double inline_set = measure(op_set_big_fallback, big_bundle_text, 5);
    double path_set = measure(op_set_big_fallback, path_params, 5);
    printf("\n(e) %s of 1,000 placements, %.1f MB\n", kind, (double)strlen(bundle_only) / 1e6);
    report("(e) set_fallback {bundle} (inline)", inline_set, jansson_bundle, "jansson parse of it", 1.0);
    report("(e) set_fallback {path}", path_set, jansson_bundle, "jansson parse of it", 1.0);
    /* The first get_paywall of each placement parses that placement alone. */
    double samples[BATCHES];
    for (int i = 0; i < BATCHES; i++) {
        char params[64];
        snprintf(params, sizeof params, "{\"placement_id\":\"placement_%04d\"}", 100 + i * 7);
        out = NULL;
        double start = now_ns();
        paywire_client_call(bundle_client, "get_paywall", params, &out);
        samples[i] = now_ns() - start;
        if (strstr(out, "\"success\"") == NULL) { fprintf(stderr, "(e) get_paywall failed: %s\n", out); exit(1); }
        paywire_string_free(out);
    }
    double first = median(samples, BATCHES);
    printf("%-44s %9.1f ns   target < 1 ms: %s\n", "(e) first get_paywall of a placement", first, first < 1e6 ? "ok" : "MISSED");
    unlink(bundle_path);
    free(bundle_only);
    free(big_bundle_text);
    paywire_client_free(bundle_client);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "outbox") == 0) {
        printf("paywire %s bench: median of %d batches; (f) and (f2) only\n", paywire_version(), BATCHES);
        bench_outbox();
        return 0;
    }
    char *out = NULL;
    if (paywire_client_new("{\"profile_id\":\"bench\"}", &client, &out) != PAYWIRE_OK) {
        fprintf(stderr, "client_new failed: %s\n", out);
        return 1;
    }
    paywire_string_free(out);
    char *bundle = make_bundle();
    if (paywire_client_call(client, "set_fallback", bundle, &out) != PAYWIRE_OK) {
        fprintf(stderr, "set_fallback failed: %s\n", out);
        return 1;
    }
    paywire_string_free(out);
    free(bundle);

    paywire_client_call(client, "get_log_level", NULL, &out);
    small_result = out;
    char *paywall_envelope = NULL;
    if (paywire_client_call(client, "get_paywall", get_paywall_params, &paywall_envelope) != PAYWIRE_OK) {
        fprintf(stderr, "get_paywall failed: %s\n", paywall_envelope);
        return 1;
    }
    paywall_text = paywall_envelope;

    printf("paywire %s bench: median of %d batches; paywall envelope %zu bytes\n\n", paywire_version(), BATCHES, strlen(paywall_text));
    double strdup_small = measure(op_strdup_free, (void *)small_result, 200000);
    double call_small = measure(op_call_small, NULL, 200000);
    report("(a) call get_log_level, NULL params", call_small, strdup_small, "strdup+free of the result", 10);

    double jansson = measure(op_jansson_roundtrip, (void *)paywall_text, 5000);
    double warm = measure(op_get_paywall, NULL, 20000);
    report("(b) warm get_paywall (~4 KB) through the ABI", warm, jansson, "jansson parse+dump", 0.1);

    /* (c) poll drain of queued events: queue a batch with async calls, then time the drain. */
    double samples[BATCHES];
    const int events = 2000;
    for (int batch = 0; batch < BATCHES; batch++) {
        uint64_t id;
        for (int i = 0; i < events; i++) paywire_client_call_async(client, "get_log_level", NULL, &id);
        char *event = NULL;
        int drained = 0;
        /* wait until the async calls have all produced their events */
        while (drained == 0 && paywire_client_poll(client, 1000, &event) == PAYWIRE_OK) {
            paywire_string_free(event);
            drained = 1;
        }
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
        double start = now_ns();
        while (paywire_client_poll(client, 0, &event) == PAYWIRE_OK) {
            paywire_string_free(event);
            drained++;
        }
        paywire_string_free(event);
        samples[batch] = (now_ns() - start) / (drained > 1 ? drained - 1 : 1);
    }
    double poll_drain = median(samples, BATCHES);
    const char *sample_event = "{\"event\":\"call_result\",\"seq\":1,\"call_id\":1,\"method\":\"get_log_level\",\"status\":0,\"status_name\":\"OK\",\"envelope\":{\"success\":\"warn\"}}";
    double strdup_event = measure(op_strdup_free, (void *)sample_event, 200000);
    report("(c) poll drain, per event", poll_drain, strdup_event, "strdup+free of an event", 8);

    bench_cache_and_bundle();
    bench_outbox();
    paywire_string_free((char *)small_result);
    paywire_string_free(paywall_envelope);
    paywire_client_free(client);
    return 0;
}
