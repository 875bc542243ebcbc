/*
 * (f) Recording one event with storage_dir: log_show_paywall through the ABI, which commits the
 * record to <storage_dir>/outbox.sqlite before it returns, against the least any durable queue
 * could do: the same row (the very bytes the core stored) inserted and committed by plain
 * SQLite, in the same schema, journal mode and synchronous level. No transport is configured,
 * so records are kept and nothing is sent while the bench runs.
 *
 * (f2) The same call into a full queue: `max_queued` records already kept, so new records make
 * room by evicting the oldest (an app offline for a while). Against the same baseline: making
 * room must cost about what deleting the rows that go costs, never reading the queue.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "paywire.h"

static const char *shown_params =
    "{\"paywall\":{\"placement\":{\"developer_id\":\"onboarding\",\"audience_name\":\"All Users\",\"revision\":3,"
    "\"ab_test_name\":\"price_test\",\"placement_audience_version_id\":\"onb-v3\"},\"paywall_id\":\"pw-a\","
    "\"paywall_name\":\"Variant A\",\"variation_id\":\"var-a\",\"products\":[{\"vendor_product_id\":\"monthly\"}]}}";

static paywire_client_t *recorder;

/* Records one paywall_shown with `context` (a client), or with `recorder` when NULL. */
static void op_log_show_paywall(void *context) {
    paywire_client_t *client = context ? context : recorder;
    char *out = NULL;
    if (paywire_client_call(client, "log_show_paywall", shown_params, &out) != PAYWIRE_OK) {
        fprintf(stderr, "log_show_paywall failed: %s\n", out);
        exit(1);
    }
    paywire_string_free(out);
}

struct baseline {
    sqlite3 *db;
    sqlite3_stmt *insert;
    const void *body;
    int size;
    long long seq;
};

static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "sqlite %s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static void op_sqlite_insert(void *context) {
    struct baseline *b = context;
    char event_id[48];
    b->seq++;
    snprintf(event_id, sizeof event_id, "00000000-0000-7000-8000-%012lld", b->seq);
    sqlite3_bind_int64(b->insert, 1, b->seq);
    sqlite3_bind_text(b->insert, 2, event_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(b->insert, 3, 1);
    sqlite3_bind_int(b->insert, 4, b->size);
    sqlite3_bind_blob(b->insert, 5, b->body, b->size, SQLITE_STATIC);
    check(sqlite3_step(b->insert), b->db, "insert");
    sqlite3_reset(b->insert);
}

/* The bytes of the one record the core has stored so far. */
static char *stored_record(const char *dir, int *size) {
    char path[512];
    snprintf(path, sizeof path, "%s/outbox.sqlite", dir);
    sqlite3 *db = NULL;
    sqlite3_stmt *select = NULL;
    check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), db, "open outbox.sqlite");
    check(sqlite3_prepare_v2(db, "SELECT body FROM records LIMIT 1", -1, &select, NULL), db, "select");
    if (sqlite3_step(select) != SQLITE_ROW) { fprintf(stderr, "the core stored no record\n"); exit(1); }
    *size = sqlite3_column_bytes(select, 0);
    char *body = malloc((size_t)*size);
    if (body == NULL) exit(1);
    memcpy(body, sqlite3_column_blob(select, 0), (size_t)*size);
    sqlite3_finalize(select);
    sqlite3_close(db);
    return body;
}

static void open_baseline(struct baseline *b, const char *dir) {
    char path[512];
    snprintf(path, sizeof path, "%s/baseline.sqlite", dir);
    check(sqlite3_open(path, &b->db), b->db, "open baseline");
    check(sqlite3_exec(b->db,
                       "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                       "CREATE TABLE records (seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE,"
                       " kind INTEGER NOT NULL, size INTEGER NOT NULL, body BLOB NOT NULL);"
                       "CREATE INDEX records_by_kind ON records (kind, seq);",
                       NULL, NULL, NULL), b->db, "schema");
    check(sqlite3_prepare_v2(b->db, "INSERT INTO records (seq, event_id, kind, size, body) VALUES (?, ?, ?, ?, ?)", -1,
                             &b->insert, NULL), b->db, "prepare");
}

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *ftw) {
    (void)info, (void)flag, (void)ftw;
    return remove(path);
}

/* The queue limit (f2) fills; the default `analytics.max_queued`. */
#define FULL_QUEUE 10000

/* (f2): a client whose queue holds FULL_QUEUE records, timed recording more into it, in turn
 * with batches of the baseline: both are bound by the disk, whose speed on a shared machine
 * drifts over the seconds a figure takes. */
static void bench_full_queue(const char *dir, struct baseline *baseline) {
    char config[1024], full_dir[512], *out = NULL;
    paywire_client_t *full = NULL;
    snprintf(full_dir, sizeof full_dir, "%s/full", dir);
    if (mkdir(full_dir, 0700) != 0) { perror("mkdir"); exit(1); }
    snprintf(config, sizeof config, "{\"profile_id\":\"bench\",\"storage_dir\":\"%s\",\"analytics\":{\"max_queued\":%d}}",
             full_dir, FULL_QUEUE);
    if (paywire_client_new(config, &full, &out) != PAYWIRE_OK) { fprintf(stderr, "full-queue recorder: %s\n", out); exit(1); }
    paywire_string_free(out);
    for (int i = 0; i < FULL_QUEUE; i++) op_log_show_paywall(full);
    double plain, recorded;
    measure_pair(op_sqlite_insert, baseline, op_log_show_paywall, full, 500, &plain, &recorded);
    report("(f2) log_show_paywall, full queue", recorded, plain, "SQLite insert+commit of it", 2);
    paywire_client_free(full);
}

/* The recording fixture: a client recording into an empty queue under a temporary storage_dir,
 * and the SQLite baseline beside it, inserting the very bytes the core stored. */
struct outbox_fixture {
    char dir[64];
    struct baseline baseline;
};

struct outbox_fixture *outbox_fixture_open(void) {
    struct outbox_fixture *fixture = calloc(1, sizeof *fixture);
    if (fixture == NULL) exit(1);
    snprintf(fixture->dir, sizeof fixture->dir, "/tmp/paywire-bench-XXXXXX");
    if (mkdtemp(fixture->dir) == NULL) { perror("mkdtemp"); exit(1); }
    char config[1024], *out = NULL;
    snprintf(config, sizeof config,
             "{\"profile_id\":\"bench\",\"storage_dir\":\"%s\",\"analytics\":{\"max_queued\":1000000,\"max_bytes\":1073741824}}",
             fixture->dir);
    if (paywire_client_new(config, &recorder, &out) != PAYWIRE_OK) { fprintf(stderr, "recorder: %s\n", out); exit(1); }
    paywire_string_free(out);
    op_log_show_paywall(NULL);
    fixture->baseline.body = stored_record(fixture->dir, &fixture->baseline.size);
    open_baseline(&fixture->baseline, fixture->dir);
    return fixture;
}

int outbox_fixture_record_size(const struct outbox_fixture *fixture) { return fixture->baseline.size; }

void outbox_record(void *fixture) {
    (void)fixture;
    op_log_show_paywall(NULL);
}

void outbox_sqlite_insert(void *fixture) { op_sqlite_insert(&((struct outbox_fixture *)fixture)->baseline); }

void outbox_fixture_close(struct outbox_fixture *fixture) {
    sqlite3_finalize(fixture->baseline.insert);
    sqlite3_close(fixture->baseline.db);
    free((void *)fixture->baseline.body);
    paywire_client_free(recorder);
    recorder = NULL;
    nftw(fixture->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    free(fixture);
}

void bench_outbox(void) {
    struct outbox_fixture *fixture = outbox_fixture_open();
    printf("\n(f) recording one event (a %d-byte record) with storage_dir\n", fixture->baseline.size);
    double plain = measure(outbox_sqlite_insert, fixture, 500);
    double recorded = measure(outbox_record, fixture, 500);
    report("(f) log_show_paywall, committed", recorded, plain, "SQLite insert+commit of it", 1.5);
    printf("\n(f2) the same into a full queue (%d records kept: new ones evict the oldest, 1%% at a time)\n", FULL_QUEUE);
    bench_full_queue(fixture->dir, &fixture->baseline);
    outbox_fixture_close(fixture);
}
