/*
 * paywire-harness: the C runner of the Paywire conformance kit, and a demo.
 *
 *   paywire-harness            reads JSON-lines ops on stdin, writes one JSON line per op
 *   paywire-harness --demo F   plays a readable session with the client config in file F
 *
 * Built the way a user builds a C program against Paywire: paywire.h + -lpaywire (+ jansson
 * for the JSON the runner itself reads and writes). The ops are primitive on purpose; the
 * Python driver (tests/conformance/driver.py) holds the logic, so a new language joins by
 * writing one small runner. The protocol is documented in tests/conformance/README.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "paywire.h"

#define MAX_CLIENTS 64

/* Events a handler received, waiting for drain_events. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t arrived;
    json_t *events; /* array */
    int frees;      /* how many times user_data_free ran for this client's handlers */
} event_inbox;

typedef struct {
    char name[64];
    paywire_client_t *client;
    int freed;
    event_inbox inbox;
} named_client;

static named_client clients[MAX_CLIENTS];
static int client_count;
static char made_up_object[64]; /* a real address that is not a client */

static named_client *find_client(const char *name) {
    for (int i = 0; i < client_count; i++) {
        if (strcmp(clients[i].name, name) == 0) return &clients[i];
    }
    return NULL;
}

/* Client references in ops: a name from client_new, "null", "made_up" (a small integer
 * cast to a pointer), "made_up_heap" (a real address), or "freed:NAME". */
static paywire_client_t *resolve_client(const char *ref) {
    if (ref == NULL || strcmp(ref, "null") == 0) return NULL;
    if (strcmp(ref, "made_up") == 0) return (paywire_client_t *)(uintptr_t)0x1234;
    if (strcmp(ref, "made_up_heap") == 0) return (paywire_client_t *)(void *)made_up_object;
    if (strncmp(ref, "freed:", 6) == 0) {
        named_client *named = find_client(ref + 6);
        return named ? named->client : NULL;
    }
    named_client *named = find_client(ref);
    return named ? named->client : NULL;
}

static void on_event(const char *event_json, void *user_data) {
    event_inbox *inbox = user_data;
    json_error_t error;
    json_t *event = json_loads(event_json, 0, &error);
    if (event == NULL) event = json_pack("{s:s}", "unparseable_event", event_json);
    pthread_mutex_lock(&inbox->lock);
    json_array_append_new(inbox->events, event);
    pthread_cond_broadcast(&inbox->arrived);
    pthread_mutex_unlock(&inbox->lock);
}

static void on_user_data_free(void *user_data) {
    event_inbox *inbox = user_data;
    pthread_mutex_lock(&inbox->lock);
    inbox->frees++;
    pthread_mutex_unlock(&inbox->lock);
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes hex into a new NUL-terminated buffer (bytes may be anything but NUL). */
static char *from_hex(const char *hex) {
    size_t length = strlen(hex) / 2;
    char *bytes = malloc(length + 1);
    if (bytes == NULL) return NULL;
    for (size_t i = 0; i < length; i++) {
        int high = hex_value(hex[2 * i]), low = hex_value(hex[2 * i + 1]);
        bytes[i] = (char)((high < 0 || low < 0) ? '?' : (high << 4 | low));
    }
    bytes[length] = '\0';
    return bytes;
}

/* A string argument from an op: "<key>" as JSON to dump, "<key>_text" verbatim,
 * "<key>_hex" as raw bytes, "<key>_repeat" {"text", "times"} for huge inputs; absent or
 * JSON null means a NULL pointer. Returns a malloc'd string or NULL. */
static char *string_argument(json_t *op, const char *key, int dump_json) {
    char name[64];
    json_t *value;
    snprintf(name, sizeof name, "%s_text", key);
    if ((value = json_object_get(op, name)) && json_is_string(value)) return strdup(json_string_value(value));
    snprintf(name, sizeof name, "%s_hex", key);
    if ((value = json_object_get(op, name)) && json_is_string(value)) return from_hex(json_string_value(value));
    snprintf(name, sizeof name, "%s_repeat", key);
    if ((value = json_object_get(op, name)) && json_is_object(value)) {
        const char *text = json_string_value(json_object_get(value, "text"));
        const char *prefix = json_string_value(json_object_get(value, "prefix"));
        const char *suffix = json_string_value(json_object_get(value, "suffix"));
        json_int_t times = json_integer_value(json_object_get(value, "times"));
        if (text == NULL || times < 0) return NULL;
        size_t unit = strlen(text), head = prefix ? strlen(prefix) : 0, tail = suffix ? strlen(suffix) : 0;
        char *out = malloc(head + unit * (size_t)times + tail + 1);
        if (out == NULL) return NULL;
        char *cursor = out;
        if (head) { memcpy(cursor, prefix, head); cursor += head; }
        for (json_int_t i = 0; i < times; i++) { memcpy(cursor, text, unit); cursor += unit; }
        if (tail) { memcpy(cursor, suffix, tail); cursor += tail; }
        *cursor = '\0';
        return out;
    }
    value = json_object_get(op, key);
    if (value == NULL || json_is_null(value)) return NULL;
    if (!dump_json && json_is_string(value)) return strdup(json_string_value(value));
    return json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
}

/* Adds status, status_name and the parsed envelope (or the raw text when it is not JSON). */
static void add_result(json_t *reply, paywire_status_t status, char *out_json, const char *key) {
    json_object_set_new(reply, "status", json_integer(status));
    json_object_set_new(reply, "status_name", json_string(paywire_status_name(status)));
    if (out_json == NULL) {
        json_object_set_new(reply, key, json_null());
        return;
    }
    json_error_t error;
    json_t *parsed = json_loads(out_json, JSON_DECODE_ANY, &error);
    if (parsed) {
        json_object_set_new(reply, key, parsed);
    } else {
        json_object_set_new(reply, "unparseable", json_string(out_json));
    }
    /* The exact text too: jansson re-prints 59.99 as 59.990000000000002, and the kit checks
     * that amounts leave the library as written. */
    json_object_set_new(reply, "raw", json_string(out_json));
    paywire_string_free(out_json);
}

static json_t *op_hello(void) {
    json_t *names = json_object();
    for (int status = -13; status <= 1; status++) {
        char key[8];
        snprintf(key, sizeof key, "%d", status);
        json_object_set_new(names, key, json_string(paywire_status_name(status)));
    }
    return json_pack("{s:s, s:i, s:s, s:i, s:s, s:o}", "runner", "c", "abi_version", (int)paywire_abi_version(),
                     "version", paywire_version(), "header_abi_version", PAYWIRE_ABI_VERSION,
                     "header_version", PAYWIRE_VERSION, "status_names", names);
}

static json_t *op_client_new(json_t *op) {
    const char *name = json_string_value(json_object_get(op, "client"));
    if (name == NULL) name = "main";
    char *config = string_argument(op, "config", 1);
    int null_out_client = json_is_true(json_object_get(op, "null_out_client"));
    paywire_client_t *client = NULL;
    char *out_json = NULL;
    paywire_status_t status = paywire_client_new(config, null_out_client ? NULL : &client, &out_json);
    free(config);
    json_t *reply = json_object();
    add_result(reply, status, out_json, "envelope");
    json_object_set_new(reply, "client_set", json_boolean(client != NULL));
    if (client != NULL) {
        named_client *named = find_client(name);
        if (named == NULL && client_count < MAX_CLIENTS) {
            named = &clients[client_count++];
            snprintf(named->name, sizeof named->name, "%s", name);
            pthread_mutex_init(&named->inbox.lock, NULL);
            pthread_cond_init(&named->inbox.arrived, NULL);
            named->inbox.events = json_array();
        }
        if (named == NULL) {
            paywire_client_free(client);
        } else {
            named->client = client;
            named->freed = 0;
            named->inbox.frees = 0;
        }
    }
    return reply;
}

/* call and call_raw: call_raw's arguments come as *_hex bytes, which may be invalid UTF-8. */
static json_t *op_call(json_t *op) {
    paywire_client_t *client = resolve_client(json_string_value(json_object_get(op, "client")));
    char *method = string_argument(op, "method", 0);
    char *params = string_argument(op, "params", 1);
    int null_out = json_is_true(json_object_get(op, "null_out_json"));
    char *out_json = NULL;
    paywire_status_t status = paywire_client_call(client, method, params, null_out ? NULL : &out_json);
    free(method);
    free(params);
    json_t *reply = json_object();
    add_result(reply, status, out_json, "envelope");
    return reply;
}

static json_t *op_call_async(json_t *op) {
    paywire_client_t *client = resolve_client(json_string_value(json_object_get(op, "client")));
    char *method = string_argument(op, "method", 0);
    char *params = string_argument(op, "params", 1);
    uint64_t call_id = 0;
    int null_out = json_is_true(json_object_get(op, "null_out_call_id"));
    paywire_status_t status = paywire_client_call_async(client, method, params, null_out ? NULL : &call_id);
    free(method);
    free(params);
    return json_pack("{s:i, s:s, s:I}", "status", status, "status_name", paywire_status_name(status),
                     "call_id", (json_int_t)call_id);
}

static json_t *op_poll(json_t *op) {
    paywire_client_t *client = resolve_client(json_string_value(json_object_get(op, "client")));
    json_int_t timeout = json_integer_value(json_object_get(op, "timeout_ms"));
    char *out_json = NULL;
    paywire_status_t status = paywire_client_poll(client, (int32_t)timeout, &out_json);
    json_t *reply = json_object();
    add_result(reply, status, out_json, status == PAYWIRE_OK ? "event" : "envelope");
    return reply;
}

typedef struct {
    paywire_client_t *client;
    long delay_ms;
} delayed_free;

static void *free_later(void *argument) {
    delayed_free *job = argument;
    struct timespec pause = {job->delay_ms / 1000, (job->delay_ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
    paywire_client_free(job->client);
    return NULL;
}

/* Blocks in poll while another thread frees the client: the poll must return CLOSED. */
static json_t *op_poll_while_freeing(json_t *op) {
    const char *name = json_string_value(json_object_get(op, "client"));
    named_client *named = name ? find_client(name) : NULL;
    if (named == NULL) return json_pack("{s:s}", "runner_error", "unknown client");
    delayed_free job = {named->client, (long)json_integer_value(json_object_get(op, "free_after_ms"))};
    pthread_t thread;
    if (pthread_create(&thread, NULL, free_later, &job) != 0) return json_pack("{s:s}", "runner_error", "no thread");
    char *out_json = NULL;
    paywire_status_t status = paywire_client_poll(named->client, (int32_t)json_integer_value(json_object_get(op, "timeout_ms")), &out_json);
    pthread_join(thread, NULL);
    named->freed = 1;
    json_t *reply = json_object();
    add_result(reply, status, out_json, status == PAYWIRE_OK ? "event" : "envelope");
    return reply;
}

static json_t *op_set_event_handler(json_t *op) {
    const char *name = json_string_value(json_object_get(op, "client"));
    named_client *named = name ? find_client(name) : NULL;
    paywire_client_t *client = resolve_client(name);
    int enabled = !json_is_false(json_object_get(op, "enabled"));
    paywire_status_t status;
    if (named != NULL && enabled) {
        status = paywire_client_set_event_handler(client, on_event, &named->inbox, on_user_data_free);
    } else {
        status = paywire_client_set_event_handler(client, enabled ? on_event : NULL, NULL, NULL);
    }
    return json_pack("{s:i, s:s}", "status", status, "status_name", paywire_status_name(status));
}

static json_t *op_drain_events(json_t *op) {
    const char *name = json_string_value(json_object_get(op, "client"));
    named_client *named = name ? find_client(name) : NULL;
    if (named == NULL) return json_pack("{s:s}", "runner_error", "unknown client");
    json_int_t wanted = json_integer_value(json_object_get(op, "count"));
    json_int_t timeout = json_integer_value(json_object_get(op, "timeout_ms"));
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += (time_t)(timeout / 1000);
    deadline.tv_nsec += (long)(timeout % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) { deadline.tv_sec++; deadline.tv_nsec -= 1000000000L; }
    pthread_mutex_lock(&named->inbox.lock);
    while ((json_int_t)json_array_size(named->inbox.events) < wanted) {
        if (pthread_cond_timedwait(&named->inbox.arrived, &named->inbox.lock, &deadline) == ETIMEDOUT) break;
    }
    json_t *events = named->inbox.events;
    named->inbox.events = json_array();
    int frees = named->inbox.frees;
    pthread_mutex_unlock(&named->inbox.lock);
    return json_pack("{s:o, s:i}", "events", events, "user_data_frees", frees);
}

static json_t *op_client_free(json_t *op) {
    const char *name = json_string_value(json_object_get(op, "client"));
    named_client *named = name ? find_client(name) : NULL;
    paywire_client_free(resolve_client(name));
    json_t *reply = json_object();
    if (named != NULL) {
        named->freed = 1;
        pthread_mutex_lock(&named->inbox.lock);
        json_object_set_new(reply, "user_data_frees", json_integer(named->inbox.frees));
        pthread_mutex_unlock(&named->inbox.lock);
    }
    return reply;
}

static json_t *run_op(json_t *op) {
    const char *kind = json_string_value(json_object_get(op, "op"));
    if (kind == NULL) return json_pack("{s:s}", "runner_error", "op is missing");
    if (strcmp(kind, "hello") == 0) return op_hello();
    if (strcmp(kind, "client_new") == 0) return op_client_new(op);
    if (strcmp(kind, "call") == 0) return op_call(op);
    if (strcmp(kind, "call_raw") == 0) return op_call(op);
    if (strcmp(kind, "call_async") == 0) return op_call_async(op);
    if (strcmp(kind, "poll") == 0) return op_poll(op);
    if (strcmp(kind, "poll_while_freeing") == 0) return op_poll_while_freeing(op);
    if (strcmp(kind, "set_event_handler") == 0) return op_set_event_handler(op);
    if (strcmp(kind, "drain_events") == 0) return op_drain_events(op);
    if (strcmp(kind, "client_free") == 0) return op_client_free(op);
    if (strcmp(kind, "string_free_null") == 0) { paywire_string_free(NULL); return json_object(); }
    return json_pack("{s:s, s:s}", "runner_error", "unknown op", "op", kind);
}

static int run_lines(void) {
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, stdin)) > 0) {
        if (length == 1 && line[0] == '\n') continue;
        json_error_t error;
        json_t *op = json_loads(line, 0, &error);
        json_t *reply = op ? run_op(op) : json_pack("{s:s, s:s}", "runner_error", "op is not JSON", "detail", error.text);
        json_t *id = op ? json_object_get(op, "id") : NULL;
        if (id) json_object_set(reply, "id", id);
        char *text = json_dumps(reply, JSON_COMPACT);
        fputs(text ? text : "{\"runner_error\":\"dump failed\"}", stdout);
        fputc('\n', stdout);
        fflush(stdout);
        free(text);
        json_decref(reply);
        json_decref(op);
    }
    free(line);
    for (int i = 0; i < client_count; i++) {
        if (!clients[i].freed) paywire_client_free(clients[i].client);
        json_decref(clients[i].inbox.events);
        pthread_mutex_destroy(&clients[i].inbox.lock);
        pthread_cond_destroy(&clients[i].inbox.arrived);
    }
    return 0;
}

/* ---- demo ---------------------------------------------------------------------------- */

static void show(const char *title, paywire_status_t status, char *out_json) {
    printf("\n== %s\n   status %s\n", title, paywire_status_name(status));
    json_error_t error;
    json_t *parsed = out_json ? json_loads(out_json, JSON_DECODE_ANY, &error) : NULL;
    char *pretty = parsed ? json_dumps(parsed, JSON_INDENT(2) | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15)) : NULL;
    if (pretty) {
        for (char *line = strtok(pretty, "\n"); line; line = strtok(NULL, "\n")) printf("   %s\n", line);
    } else if (out_json) {
        printf("   %s\n", out_json);
    }
    free(pretty);
    json_decref(parsed);
    paywire_string_free(out_json);
}

/* What the demo saw: each call's status against the one the step expects, and its events. The
 * demo is a session a newcomer reads, and a check: it ends on one line saying whether every step
 * answered as it should, and exits 1 when one did not. */
typedef struct {
    paywire_client_t *client;
    int calls;
    int mistakes_refused;
    int unexpected;
} demo_session;

static char *demo_call(demo_session *demo, const char *title, const char *method, const char *params,
                       paywire_status_t expected) {
    char *out_json = NULL;
    paywire_status_t status = paywire_client_call(demo->client, method, params, &out_json);
    char *copy = out_json ? strdup(out_json) : NULL;
    char heading[256];
    snprintf(heading, sizeof heading, "%s  -> %s(%s)", title, method, params ? params : "");
    show(heading, status, out_json);
    demo->calls++;
    if (status != expected) {
        printf("   UNEXPECTED: this step expects status %s\n", paywire_status_name(expected));
        demo->unexpected++;
    } else if (expected != PAYWIRE_OK) {
        demo->mistakes_refused++;
    }
    return copy;
}

/* {"<key>": <the success of envelope_text>} as JSON text, to hand a served object back; NULL
 * when the envelope is not a success. */
static char *wrap_success(const char *envelope_text, const char *key) {
    json_error_t error;
    json_t *envelope = envelope_text ? json_loads(envelope_text, 0, &error) : NULL;
    json_t *success = json_object_get(envelope, "success");
    char *text = NULL;
    if (success != NULL && !json_is_null(success)) {
        json_t *params = json_pack("{s:O}", key, success);
        text = json_dumps(params, JSON_COMPACT);
        json_decref(params);
    }
    json_decref(envelope);
    return text;
}

/* Prints every queued event; returns how many there were, and counts one unexpected step when
 * their seq is not 1, 2, 3, ... in order. `last_event` gets the last event's name (or ""). */
static int demo_drain(demo_session *demo, char *last_event, size_t last_event_size) {
    char *event = NULL;
    int count = 0;
    snprintf(last_event, last_event_size, "%s", "");
    while (paywire_client_poll(demo->client, 50, &event) == PAYWIRE_OK) {
        printf("   event: %s\n", event);
        json_error_t error;
        json_t *parsed = json_loads(event, 0, &error);
        count++;
        if (json_integer_value(json_object_get(parsed, "seq")) != count) {
            printf("   UNEXPECTED: this event's seq should be %d\n", count);
            demo->unexpected++;
        }
        const char *name = json_string_value(json_object_get(parsed, "event"));
        snprintf(last_event, last_event_size, "%s", name ? name : "");
        json_decref(parsed);
        paywire_string_free(event);
        event = NULL;
    }
    paywire_string_free(event);
    return count;
}

static int run_demo(const char *config_path) {
    FILE *file = fopen(config_path, "rb");
    if (file == NULL) {
        fprintf(stderr, "cannot open %s: %s\n", config_path, strerror(errno));
        return 1;
    }
    json_error_t error;
    json_t *config = json_loadf(file, 0, &error);
    fclose(file);
    if (config == NULL) {
        fprintf(stderr, "%s: %s\n", config_path, error.text);
        return 1;
    }
    char *config_text = json_dumps(config, JSON_COMPACT);
    json_decref(config);

    printf("Paywire %s (ABI %u) demo, config %s\n", paywire_version(), paywire_abi_version(), config_path);
    paywire_client_t *client = NULL;
    char *out_json = NULL;
    paywire_status_t status = paywire_client_new(config_text, &client, &out_json);
    free(config_text);
    show("create a client from the example config", status, out_json);
    if (status != PAYWIRE_OK) {
        printf("\ndemo: FAILED, the example config did not make a client\n");
        return 1;
    }
    demo_session demo = {client, 0, 0, 0};

    free(demo_call(&demo, "which library is this", "get_sdk_version", NULL, PAYWIRE_OK));
    free(demo_call(&demo, "the user's profile (stable id drives A/B bucketing)", "get_profile", NULL, PAYWIRE_OK));
    char *paywall = demo_call(&demo, "the onboarding paywall, offline from the bundle", "get_paywall",
                              "{\"placement_id\":\"onboarding\",\"locale\":\"en-US\"}", PAYWIRE_OK);
    char *paywall_params = wrap_success(paywall, "paywall");
    if (paywall_params) {
        free(demo_call(&demo, "its products, priced by the (test) store", "get_paywall_products", paywall_params, PAYWIRE_OK));
        free(demo_call(&demo, "record that the paywall was shown", "log_show_paywall", paywall_params, PAYWIRE_OK));
    }
    free(paywall_params);
    free(paywall);
    free(demo_call(&demo, "the same placement in French (remote config localized)", "get_paywall",
                   "{\"placement_id\":\"onboarding\",\"locale\":\"fr-FR\"}", PAYWIRE_OK));
    free(demo_call(&demo, "a locale the bundle lacks falls back to English", "get_paywall",
                   "{\"placement_id\":\"settings\",\"locale\":\"ja\"}", PAYWIRE_OK));
    free(demo_call(&demo, "a placement that does not exist", "get_paywall", "{\"placement_id\":\"nowhere\"}", PAYWIRE_FAILED));
    free(demo_call(&demo, "a mistyped parameter", "get_paywall", "{\"placement_id\":42}", PAYWIRE_INVALID_ARGUMENT));
    free(demo_call(&demo, "a method that does not exist", "make_coffee", NULL, PAYWIRE_UNKNOWN_METHOD));
    free(demo_call(&demo, "log in as the app's own user", "identify", "{\"customer_user_id\":\"user-42\"}", PAYWIRE_OK));

    /* An onboarding: the page's messages arrive in either dialect and leave as one canonical form. */
    char *onboarding = demo_call(&demo, "the welcome onboarding the host renders in a web view", "get_onboarding",
                                 "{\"placement_id\":\"welcome\"}", PAYWIRE_OK);
    char *onboarding_params = wrap_success(onboarding, "onboarding");
    if (onboarding_params) {
        free(demo_call(&demo, "create its view", "create_onboarding_view", onboarding_params, PAYWIRE_OK));
        free(demo_call(&demo, "a camelCase answer from the page", "onboarding_view_ingest",
                       "{\"view_id\":\"onboarding-view-1\",\"type\":\"state_updated\",\"message\":{\"elementId\":\"goal\","
                       "\"meta\":{\"onboardingId\":\"welcome_quiz\",\"screenClientId\":\"goals\",\"screenIndex\":1,\"screensTotal\":3},"
                       "\"params\":{\"type\":\"select\",\"value\":{\"id\":\"fit\",\"value\":\"fitness\",\"label\":\"Get fit\"}}}}", PAYWIRE_OK));
        free(demo_call(&demo, "a snake_case email answer (recorded on the profile too)", "onboarding_view_ingest",
                       "{\"view_id\":\"onboarding-view-1\",\"message\":{\"element_id\":\"email\",\"meta\":{\"onboarding_id\":\"welcome_quiz\","
                       "\"screen_cid\":\"signup\",\"screen_index\":2,\"total_screens\":3},\"params\":{\"type\":\"input\","
                       "\"value\":{\"type\":\"email\",\"value\":\"user42@example.com\"}}}}", PAYWIRE_OK));
        free(demo_call(&demo, "a date that does not exist: reported, nothing saved", "onboarding_view_ingest",
                       "{\"view_id\":\"onboarding-view-1\",\"message\":{\"element_id\":\"birthday\",\"meta\":{\"onboarding_id\":\"welcome_quiz\","
                       "\"screen_cid\":\"about\",\"screen_index\":2,\"total_screens\":3},\"params\":{\"type\":\"date_picker\","
                       "\"value\":{\"day\":31,\"month\":2,\"year\":1990}}}}", PAYWIRE_OK));
        free(demo_call(&demo, "the answers kept for the app", "get_onboarding_state", "{\"onboarding_id\":\"welcome_quiz\"}", PAYWIRE_OK));
    }
    free(onboarding_params);
    free(onboarding);
    printf("\n== events queued so far, drained with paywire_client_poll\n");
    char last_event[64];
    int events = demo_drain(&demo, last_event, sizeof last_event);
    paywire_client_free(client);
    printf("\nclient freed.\n");
    /* The session's last step is a deliberate mistake the page reports: its event comes last. */
    if (strcmp(last_event, "onboarding_did_fail_with_error") != 0) {
        printf("UNEXPECTED: the last event is '%s', not the impossible date's report\n", last_event);
        demo.unexpected++;
    }
    if (demo.unexpected > 0) {
        printf("\ndemo: FAILED, %d step(s) did not answer as expected (marked UNEXPECTED above)\n", demo.unexpected);
        return 1;
    }
    printf("\ndemo: passed. %d calls answered as expected, %d of them deliberate mistakes refused with their codes; "
           "%d events delivered in order, the last the deliberate impossible date's report.\n",
           demo.calls, demo.mistakes_refused, events);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--demo") == 0) return run_demo(argv[2]);
    if (argc != 1) {
        fprintf(stderr, "usage: %s            (JSON-lines runner on stdin)\n       %s --demo CONFIG.json\n", argv[0], argv[0]);
        return 2;
    }
    if (paywire_abi_version() != PAYWIRE_ABI_VERSION) {
        fprintf(stderr, "libpaywire ABI %u, header ABI %d\n", paywire_abi_version(), PAYWIRE_ABI_VERSION);
        return 1;
    }
    return run_lines();
}
