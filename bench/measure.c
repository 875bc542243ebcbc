/* Measuring for paywire-bench: medians of batches, and one report line per ratio. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare);
    return values[count / 2];
}

double measure(operation op, void *context, int iterations) {
    double samples[BATCHES];
    for (int i = 0; i < iterations / 10 + 1; i++) op(context);
    for (int batch = 0; batch < BATCHES; batch++) {
        double start = now_ns();
        for (int i = 0; i < iterations; i++) op(context);
        samples[batch] = (now_ns() - start) / iterations;
    }
    return median(samples, BATCHES);
}

void measure_pair(operation a, void *a_context, operation b, void *b_context, int iterations, double *a_ns, double *b_ns) {
    double a_samples[BATCHES], b_samples[BATCHES];
    for (int i = 0; i < iterations / 10 + 1; i++) {
        a(a_context);
        b(b_context);
    }
    for (int batch = 0; batch < BATCHES; batch++) {
        double start = now_ns();
        for (int i = 0; i < iterations; i++) a(a_context);
        double middle = now_ns();
        for (int i = 0; i < iterations; i++) b(b_context);
        a_samples[batch] = (middle - start) / iterations;
        b_samples[batch] = (now_ns() - middle) / iterations;
    }
    *a_ns = median(a_samples, BATCHES);
    *b_ns = median(b_samples, BATCHES);
}

void report(const char *name, double value, double baseline, const char *baseline_name, double target) {
    double ratio = value / baseline;
    printf("%-44s %9.1f ns   %-28s %9.1f ns   ratio %7.3f   target <= %-5g %s\n", name, value, baseline_name, baseline,
           ratio, target, ratio <= target ? "ok" : "MISSED");
}
