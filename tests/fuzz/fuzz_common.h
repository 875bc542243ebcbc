/*
 * Helpers shared by the libFuzzer targets in tests/fuzz (one header, included by each target).
 *
 * Each target builds the JSON it passes with a growable buffer, creates a fresh client per
 * input (so a crash reproduces from its input alone, never from state earlier inputs left),
 * and drains every event before freeing the client, so paywire_client_poll is exercised on
 * every input and nothing queued outlives it.
 */
#ifndef PAYWIRE_FUZZ_COMMON_H
#define PAYWIRE_FUZZ_COMMON_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paywire.h"

/* A growable, always NUL-terminated byte buffer. */
typedef struct {
    char *bytes;
    size_t length;
    size_t capacity;
} fuzz_buffer;

static inline void fuzz_die(const char *what) {
    fprintf(stderr, "fuzz target: %s\n", what);
    abort();
}

static inline void buffer_append(fuzz_buffer *buffer, const char *bytes, size_t length) {
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 256;
        while (capacity < buffer->length + length + 1) capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (grown == NULL) fuzz_die("out of memory");
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    if (length) memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    buffer->bytes[buffer->length] = '\0';
}

static inline void buffer_text(fuzz_buffer *buffer, const char *text) { buffer_append(buffer, text, strlen(text)); }

static inline void buffer_reset(fuzz_buffer *buffer) {
    buffer->length = 0;
    if (buffer->bytes) buffer->bytes[0] = '\0';
}

static inline void buffer_release(fuzz_buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->length = buffer->capacity = 0;
}

/* Appends `bytes` as a JSON string literal. Bytes >= 0x80 are copied as they are, so input
 * that is not UTF-8 stays not UTF-8 and the library's refusal of it is fuzzed too. */
static inline void buffer_json_string(fuzz_buffer *buffer, const char *bytes, size_t length) {
    static const char hex[] = "0123456789abcdef";
    buffer_append(buffer, "\"", 1);
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c == '"' || c == '\\') {
            char escaped[2] = {'\\', (char)c};
            buffer_append(buffer, escaped, 2);
        } else if (c < 0x20) {
            char escaped[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            buffer_append(buffer, escaped, 6);
        } else {
            buffer_append(buffer, (const char *)&bytes[i], 1);
        }
    }
    buffer_append(buffer, "\"", 1);
}

/* A whole file, NUL-terminated; aborts when it cannot be read (a broken setup, not a finding). */
static inline char *fuzz_read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "fuzz target: cannot open %s (run from the repository root)\n", path);
        abort();
    }
    fuzz_buffer buffer = {0};
    char chunk[4096];
    size_t count;
    while ((count = fread(chunk, 1, sizeof chunk, file)) > 0) buffer_append(&buffer, chunk, count);
    fclose(file);
    if (buffer.bytes == NULL) buffer_append(&buffer, "", 0);
    return buffer.bytes;
}

/* With PAYWIRE_FUZZ_TRACE=FILE, every ABI call a target makes is written to FILE as a runner op
 * of the conformance kit (tests/conformance/README.md), flushed before the call is made, so
 * tests/fuzz/to_case.py can turn an input (even one that crashes) into a tests/corpus case. */
static inline FILE *fuzz_trace_file(void) {
    static FILE *file;
    static int opened;
    if (!opened) {
        opened = 1;
        const char *path = getenv("PAYWIRE_FUZZ_TRACE");
        if (path) file = fopen(path, "w");
    }
    return file;
}

static inline void fuzz_trace_hex(FILE *file, const char *key, const char *text) {
    if (text == NULL) return;
    fprintf(file, ",\"%s_hex\":\"", key);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) fprintf(file, "%02x", *c);
    fputc('"', file);
}

/* One op: `op` with `method` / `params` / `config` (NULL: absent) and, for a poll, its timeout. */
static inline void fuzz_trace(const char *op, const char *method, const char *params, const char *config, int timeout_ms) {
    FILE *file = fuzz_trace_file();
    if (file == NULL) return;
    fprintf(file, "{\"op\":\"%s\",\"client\":\"fuzz\"", op);
    fuzz_trace_hex(file, "method", method);
    fuzz_trace_hex(file, "params", params);
    fuzz_trace_hex(file, "config", config);
    if (timeout_ms >= 0) fprintf(file, ",\"timeout_ms\":%d", timeout_ms);
    fputs("}\n", file);
    fflush(file);
}

static inline paywire_status_t traced_client_new(const char *config, paywire_client_t **client, char **out) {
    fuzz_trace("client_new", NULL, NULL, config ? config : "", -1);
    return paywire_client_new(config, client, out);
}

static inline void traced_client_free(paywire_client_t *client) {
    fuzz_trace("client_free", NULL, NULL, NULL, -1);
    paywire_client_free(client);
}

static inline paywire_status_t traced_poll(paywire_client_t *client, int timeout_ms, char **out) {
    fuzz_trace("poll", NULL, NULL, NULL, timeout_ms);
    return paywire_client_poll(client, timeout_ms, out);
}

/* Creates a client from `config`; aborts when that fails, since every target's own config is valid. */
static inline paywire_client_t *fuzz_client(const char *config) {
    paywire_client_t *client = NULL;
    char *out = NULL;
    paywire_status_t status = traced_client_new(config, &client, &out);
    if (status != PAYWIRE_OK || client == NULL) {
        fprintf(stderr, "fuzz target: the target's own config was refused: %s\n", out ? out : "(null)");
        abort();
    }
    paywire_string_free(out);
    return client;
}

/* The result of a success envelope `{"success":X}`, copied into `result` (empty when the call
 * failed). Lets a target feed one call's answer into the next, as a host does. */
static inline int fuzz_success_result(const char *envelope, fuzz_buffer *result) {
    static const char prefix[] = "{\"success\":";
    buffer_reset(result);
    if (envelope == NULL || strncmp(envelope, prefix, sizeof prefix - 1) != 0) return 0;
    size_t length = strlen(envelope);
    if (length < sizeof prefix || envelope[length - 1] != '}') fuzz_die("a success envelope does not end with '}'");
    buffer_append(result, envelope + sizeof prefix - 1, length - sizeof prefix);
    return 1;
}

/* Checks the contract every call keeps: an envelope is always set, and its status and its
 * shape agree (OK carries "success", anything else "error"). */
static inline void fuzz_check_envelope(paywire_status_t status, const char *envelope) {
    if (envelope == NULL) fuzz_die("out_json is NULL after a call");
    int success = strncmp(envelope, "{\"success\":", 11) == 0;
    int error = strncmp(envelope, "{\"error\":", 9) == 0;
    if ((status == PAYWIRE_OK && !success) || (status != PAYWIRE_OK && !error)) {
        fprintf(stderr, "fuzz target: status %d with envelope %.200s\n", (int)status, envelope);
        abort();
    }
}

/* One synchronous call; its result (when it succeeded) is left in `result` if given. */
static inline paywire_status_t fuzz_call(paywire_client_t *client, const char *method, const char *params, fuzz_buffer *result) {
    char *out = NULL;
    fuzz_trace("call", method, params, NULL, -1);
    paywire_status_t status = paywire_client_call(client, method, params, &out);
    fuzz_check_envelope(status, out);
    if (result) fuzz_success_result(out, result);
    paywire_string_free(out);
    return status;
}

/* Polls every event already queued (timeout 0), so the queue is drained through the ABI. */
static inline void fuzz_drain(paywire_client_t *client) {
    for (;;) {
        char *event = NULL;
        paywire_status_t status = traced_poll(client, 0, &event);
        if (event == NULL) fuzz_die("poll left out_json NULL");
        if (status == PAYWIRE_OK && strncmp(event, "{\"event\":", 9) != 0) fuzz_die("poll returned OK without an event");
        paywire_string_free(event);
        if (status != PAYWIRE_OK) return;
    }
}

/* Queues an async call and polls until its call_result arrives (every other event is drained on
 * the way). Without a host transport nothing can keep it pending, so a long wait is a finding. */
static inline void fuzz_call_async(paywire_client_t *client, const char *method, const char *params, fuzz_buffer *result) {
    uint64_t call_id = 0;
    buffer_reset(result);
    fuzz_trace("call_async", method, params, NULL, -1);
    if (paywire_client_call_async(client, method, params, &call_id) != PAYWIRE_OK) return;
    char marker[64];
    snprintf(marker, sizeof marker, "\"call_id\":%llu,", (unsigned long long)call_id);
    for (int waited = 0; waited < 200; waited++) {
        char *event = NULL;
        paywire_status_t status = traced_poll(client, 50, &event);
        if (event == NULL) fuzz_die("poll left out_json NULL");
        int found = status == PAYWIRE_OK && strstr(event, "\"event\":\"call_result\"") && strstr(event, marker);
        if (found) {
            const char *envelope = strstr(event, "\"envelope\":");
            if (envelope) {
                /* The envelope is the last member: strip the event's closing brace. */
                fuzz_buffer copy = {0};
                buffer_text(&copy, envelope + 11);
                if (copy.length) copy.bytes[--copy.length] = '\0';
                fuzz_success_result(copy.bytes, result);
                buffer_release(&copy);
            }
        }
        paywire_string_free(event);
        if (found) return;
        if (status != PAYWIRE_OK && status != PAYWIRE_TIMEOUT) fuzz_die("poll failed while an async call was pending");
    }
    fuzz_die("no call_result within 10 s of an async call that needs no host");
}

#endif
