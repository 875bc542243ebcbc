/* The measuring helpers the bench's parts share (bench/measure.c). */
#ifndef PAYWIRE_BENCH_H
#define PAYWIRE_BENCH_H

/* Samples per figure; each figure is their median. */
#define BATCHES 31

typedef void (*operation)(void *context);

/* CLOCK_MONOTONIC in nanoseconds. */
double now_ns(void);
/* The median of `count` values (sorts them in place). */
double median(double *values, int count);
/* Median per-operation nanoseconds of `op` over BATCHES batches of `iterations`, after a warm-up. */
double measure(operation op, void *context, int iterations);
/* Like `measure` for two operations, their batches taken in turn, so a machine whose load
 * drifts during the run weighs on both alike (a ratio of two I/O-bound figures needs it). */
void measure_pair(operation a, void *a_context, operation b, void *b_context, int iterations, double *a_ns, double *b_ns);
/* One line: the figure, its baseline from the same run, their ratio against the target. */
void report(const char *name, double value, double baseline, const char *baseline_name, double target);

/* (f) and (f2): recording one event with storage_dir, into an empty and a full queue, against a plain
 * SQLite insert-and-commit. */
void bench_outbox(void);

/* The pieces of (f) the instruction bench shares (bench/instructions.c): a recorder on an empty
 * queue and the plain SQLite insert+commit of the same row; each op takes the fixture. */
struct outbox_fixture;
struct outbox_fixture *outbox_fixture_open(void);
int outbox_fixture_record_size(const struct outbox_fixture *fixture);
void outbox_record(void *fixture);
void outbox_sqlite_insert(void *fixture);
void outbox_fixture_close(struct outbox_fixture *fixture);

/* (e): set_fallback params ({"bundle": ...}) holding a 1,000-placement file in the vendor's
 * dashboard format; `padding` bytes lengthen each remote config. The caller frees it. */
char *make_vendor_file(int padding);

#endif
