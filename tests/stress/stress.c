/*
 * Stress: 1,000 paywall views with purchases interleaved from several threads, events taken
 * by a handler on the library's thread. Checks that every event arrives exactly once, in seq
 * order with no gap, and that each view's events come in the order its flow defines.
 * Built with ThreadSanitizer against a TSan build of the library by `make stress`.
 *
 * With PAYWIRE_STRESS_BACKEND set (a dev server's URL), a second phase hammers the built-in
 * HTTP transport: threads make synchronous and async calls on clients that other threads free
 * and recreate meanwhile. Every call must answer OK, or CLOSED / INVALID_HANDLE when its client
 * was being freed; nothing else, no crash, no race.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "paywire.h"

#define THREADS 4
#define VIEWS_PER_THREAD 250
#define VIEWS (THREADS * VIEWS_PER_THREAD)
/* Per view: did_start_purchase, did_finish_purchase, did_dismiss; and before the finish a
   did_load_latest_profile when the purchase changed the profile (the first of each product does;
   a repeat that grants no later expiry does not). */
#define EVENTS_PER_VIEW 3

static paywire_client_t *client;
static char *paywall_params;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t done;
    long long last_seq;
    long received;  /* flow events */
    long profiles;  /* profile updates */
    long snapshots; /* the profile snapshots a client and a new handler start with */
    int stage[VIEWS + 1]; /* how far each view's flow has got */
    int failures;
} tally_t;

static tally_t tally = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0, {0}, 0};

static void fail(const char *what, const char *event) {
    tally.failures++;
    if (tally.failures <= 5) fprintf(stderr, "stress: %s: %.300s\n", what, event);
}

static long long number_after(const char *json, const char *key) {
    const char *at = strstr(json, key);
    return at ? atoll(at + strlen(key)) : -1;
}

static void on_event(const char *event, void *user_data) {
    (void)user_data;
    pthread_mutex_lock(&tally.lock);
    long long seq = number_after(event, "\"seq\":");
    if (seq != tally.last_seq + 1) fail("seq out of order", event);
    tally.last_seq = seq;
    /* A view's flow: start (stage 0 -> 1), the finish of that purchase (1 -> 2), then the
       dismissal (2 -> 3). A profile update names no view, so it must be the very next event
       before a finish: never before a start or a dismissal, never two in a row. */
    static int profile_pending;
    long long view = number_after(event, "\"id\":\"paywall-view-");
    if (strstr(event, "\"event\":\"did_load_latest_profile\"") && tally.received == 0 && !profile_pending
        && tally.snapshots < 2) {
        /* Before any flow: the client's first event and the one the new handler starts with. */
        tally.snapshots++;
    } else if (strstr(event, "\"event\":\"did_load_latest_profile\"")) {
        if (profile_pending) fail("two profile updates in a row", event);
        profile_pending = 1;
        tally.profiles++;
    } else if (view < 1 || view > VIEWS) {
        fail("event for no known view", event);
    } else if (strstr(event, "paywall_view_did_start_purchase")) {
        if (tally.stage[view] != 0 || profile_pending) fail("start out of order", event);
        tally.stage[view] = 1;
        tally.received++;
    } else if (strstr(event, "paywall_view_did_finish_purchase")) {
        if (tally.stage[view] != 1) fail("finish out of order", event);
        profile_pending = 0;
        tally.stage[view] = 2;
        tally.received++;
    } else if (strstr(event, "paywall_view_did_dismiss")) {
        if (tally.stage[view] != 2 || profile_pending) fail("dismiss out of order", event);
        tally.stage[view] = 3;
        tally.received++;
    } else {
        fail("unexpected event", event);
    }
    if (tally.received == (long)VIEWS * EVENTS_PER_VIEW) pthread_cond_broadcast(&tally.done);
    pthread_mutex_unlock(&tally.lock);
}

static void *worker(void *argument) {
    (void)argument;
    for (int i = 0; i < VIEWS_PER_THREAD; i++) {
        char *out = NULL;
        if (paywire_client_call(client, "create_paywall_view", paywall_params, &out) != PAYWIRE_OK) {
            fprintf(stderr, "create failed: %s\n", out);
            exit(2);
        }
        long long view = number_after(out, "\"id\":\"paywall-view-");
        paywire_string_free(out);
        char params[128];
        snprintf(params, sizeof params, "{\"view_id\":\"paywall-view-%lld\",\"product_id\":\"%s\"}", view,
                 i % 2 ? "premium_monthly" : "premium_annual");
        /* Half the purchases go through the async path, so both paths interleave. */
        if (i % 3 == 0) {
            uint64_t call_id;
            if (paywire_client_call_async(client, "paywall_view_make_purchase", params, &call_id) != PAYWIRE_OK) exit(3);
        } else {
            out = NULL;
            if (paywire_client_call(client, "paywall_view_make_purchase", params, &out) != PAYWIRE_OK) {
                fprintf(stderr, "purchase failed: %s\n", out);
                exit(4);
            }
            paywire_string_free(out);
        }
    }
    return NULL;
}

static void on_async_result(const char *event, void *user_data) {
    /* call_result events of the async purchases are counted apart from the flow events. */
    if (strstr(event, "\"event\":\"call_result\"")) {
        pthread_mutex_lock(&tally.lock);
        long long seq = number_after(event, "\"seq\":");
        if (seq != tally.last_seq + 1) fail("seq out of order", event);
        tally.last_seq = seq;
        if (!strstr(event, "\"status\":0")) fail("async purchase failed", event);
        pthread_mutex_unlock(&tally.lock);
        return;
    }
    on_event(event, user_data);
}

#define NET_SLOTS 3
#define NET_THREADS 4
#define NET_ITERATIONS 150

static paywire_client_t *net_clients[NET_SLOTS];
static const char *backend;
static int net_failures;
static long net_ok, net_closed;
static pthread_mutex_t net_lock = PTHREAD_MUTEX_INITIALIZER;

static paywire_client_t *new_net_client(void) {
    char config[512];
    snprintf(config, sizeof config,
             "{\"profile_id\":\"stress-net\",\"event_queue_limit\":64,\"fallback\":{\"path\":\"examples/bundle.json\"},"
             "\"transport\":{\"type\":\"http\",\"base_url\":\"%s\"}}", backend);
    paywire_client_t *made = NULL;
    char *out = NULL;
    if (paywire_client_new(config, &made, &out) != PAYWIRE_OK) {
        fprintf(stderr, "stress: net client_new: %s\n", out);
        exit(1);
    }
    paywire_string_free(out);
    return made;
}

static void *net_worker(void *argument) {
    static const char *placements[] = {"onboarding", "settings", "feature_gate"};
    long id = (long)argument;
    for (int i = 0; i < NET_ITERATIONS; i++) {
        int slot = (int)((id + i) % NET_SLOTS);
        if (id == 0 && i % 20 == 19) {
            /* Free a client others may be calling, and put a new one in its place. */
            paywire_client_t *fresh = new_net_client();
            paywire_client_t *old = __atomic_exchange_n(&net_clients[slot], fresh, __ATOMIC_ACQ_REL);
            paywire_client_free(old);
            continue;
        }
        paywire_client_t *target = __atomic_load_n(&net_clients[slot], __ATOMIC_ACQUIRE);
        char params[160];
        snprintf(params, sizeof params, "{\"placement_id\":\"%s\",\"load_timeout\":2%s}", placements[i % 3],
                 i % 4 == 3 ? ",\"fetch_policy\":\"return_cache_data_else_load\"" : "");
        char *out = NULL;
        paywire_status_t status;
        if (i % 5 == 4) {
            uint64_t call_id;
            status = paywire_client_call_async(target, "get_profile", NULL, &call_id);
        } else {
            status = paywire_client_call(target, "get_paywall", params, &out);
        }
        pthread_mutex_lock(&net_lock);
        if (status == PAYWIRE_OK && (out == NULL || strstr(out, "\"variation_id\""))) {
            net_ok++;
        } else if (status == PAYWIRE_CLOSED || status == PAYWIRE_INVALID_HANDLE) {
            net_closed++;
        } else {
            net_failures++;
            if (net_failures <= 5) fprintf(stderr, "stress: net call failed (%d): %.300s\n", status, out ? out : "");
        }
        pthread_mutex_unlock(&net_lock);
        paywire_string_free(out);
    }
    return NULL;
}

/* The built-in transport under concurrent calls and frees; 1 when it held. */
static int network_phase(void) {
    for (int i = 0; i < NET_SLOTS; i++) net_clients[i] = new_net_client();
    pthread_t threads[NET_THREADS];
    for (long i = 0; i < NET_THREADS; i++) pthread_create(&threads[i], NULL, net_worker, (void *)i);
    for (int i = 0; i < NET_THREADS; i++) pthread_join(threads[i], NULL);
    for (int i = 0; i < NET_SLOTS; i++) paywire_client_free(net_clients[i]);
    printf("stress: network phase against %s: %d threads, %ld answered, %ld closed by a concurrent free, %d failures\n",
           backend, NET_THREADS, net_ok, net_closed, net_failures);
    return net_failures == 0 && net_ok > 0;
}

int main(void) {
    char *out = NULL;
    const char *config =
        "{\"profile_id\":\"stress\",\"event_queue_limit\":1000000,\"fallback\":{\"path\":\"tests/conformance/bundles/views.json\"},"
        "\"store\":{\"type\":\"test\",\"now\":\"2024-01-15T10:30:00.000Z\",\"products\":["
        "{\"vendor_product_id\":\"premium_monthly\",\"price\":\"9.99\",\"period\":{\"unit\":\"month\",\"number_of_units\":1},\"access_level\":\"premium\","
        "\"purchase\":{\"type\":\"success\",\"delay_ms\":1}},"
        "{\"vendor_product_id\":\"premium_annual\",\"price\":\"59.99\",\"period\":{\"unit\":\"year\",\"number_of_units\":1},\"access_level\":\"premium\"}]}}";
    if (paywire_client_new(config, &client, &out) != PAYWIRE_OK) {
        fprintf(stderr, "client_new: %s\n", out);
        return 1;
    }
    paywire_string_free(out);
    if (paywire_client_call(client, "get_paywall", "{\"placement_id\":\"main\"}", &out) != PAYWIRE_OK) return 1;
    /* {"success":{...}} -> {"paywall":{...}} */
    paywall_params = malloc(strlen(out) + 8);
    snprintf(paywall_params, strlen(out) + 8, "{\"paywall\":%s", out + strlen("{\"success\":"));
    paywire_string_free(out);
    paywire_client_set_event_handler(client, on_async_result, NULL, NULL);

    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);

    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 120;
    pthread_mutex_lock(&tally.lock);
    while (tally.received < (long)VIEWS * EVENTS_PER_VIEW) {
        if (pthread_cond_timedwait(&tally.done, &tally.lock, &deadline) != 0) break;
    }
    long received = tally.received;
    int incomplete = 0;
    for (int i = 1; i <= VIEWS; i++) if (tally.stage[i] != EVENTS_PER_VIEW) incomplete++;
    int failures = tally.failures;
    pthread_mutex_unlock(&tally.lock);
    paywire_client_free(client);
    free(paywall_params);

    printf("stress: %d views from %d threads, %ld flow events, %ld profile updates, last seq %lld, %d views incomplete, "
           "%d ordering failures, %ld snapshots\n", VIEWS, THREADS, received, tally.profiles, tally.last_seq, incomplete, failures,
           tally.snapshots);
    /* Both products' first purchases change the profile, so at least one update must come. */
    int ok = received == (long)VIEWS * EVENTS_PER_VIEW && incomplete == 0 && failures == 0 && tally.profiles > 0
        && tally.snapshots == 2;
    int phases = 1, passed = ok;
    backend = getenv("PAYWIRE_STRESS_BACKEND");
    if (backend != NULL) {
        phases++;
        passed += network_phase();
    }
    printf("%d passed, %d failed\n", passed, phases - passed);
    return passed == phases ? 0 : 1;
}
