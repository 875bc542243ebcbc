/*
 * Fuzz target: paywire_client_call, paywire_client_call_async and paywire_client_poll on a
 * client made from examples/config.json (run from the repository root).
 *
 * Input: up to 16 lines, each `METHOD<TAB>PARAMS` (no tab: NULL params). A method starting
 * with '@' goes through paywire_client_call_async and its call_result is polled for. In PARAMS,
 * `$0` ... `$9` stand for the result of that line's call (`null` when it failed), so the fuzzer
 * can chain a get_paywall into create_paywall_view into a purchase as a host does. Every event
 * is polled after each call. The seeds (tests/fuzz/seeds.py) are the calls of every conformance vector
 * and bad-input case.
 */
#include "fuzz_common.h"

#define MAX_CALLS 16

static char *config;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    config = fuzz_read_file("examples/config.json");
    return 0;
}

/* PARAMS with every `$N` replaced by the result of call N (or `null`). */
static void expand_params(fuzz_buffer *params, const char *text, size_t length, const fuzz_buffer *results, int count) {
    buffer_reset(params);
    size_t start = 0;
    for (size_t i = 0; i + 1 < length; i++) {
        if (text[i] != '$' || text[i + 1] < '0' || text[i + 1] > '9') continue;
        int index = text[i + 1] - '0';
        buffer_append(params, text + start, i - start);
        if (index < count && results[index].length) buffer_append(params, results[index].bytes, results[index].length);
        else buffer_text(params, "null");
        start = i + 2;
        i++;
    }
    buffer_append(params, text + start, length - start);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *input = (const char *)data;
    paywire_client_t *client = fuzz_client(config);
    fuzz_buffer method = {0}, params = {0}, results[MAX_CALLS] = {{0}};
    size_t position = 0;
    int calls = 0;
    while (calls < MAX_CALLS && position < size) {
        const char *line = input + position;
        const char *newline = memchr(line, '\n', size - position);
        size_t length = newline ? (size_t)(newline - line) : size - position;
        position += length + 1;
        const char *tab = memchr(line, '\t', length);
        size_t method_length = tab ? (size_t)(tab - line) : length;
        int async = method_length > 0 && line[0] == '@';
        buffer_reset(&method);
        buffer_append(&method, line + async, method_length - async);
        const char *params_text = NULL;
        if (tab) {
            expand_params(&params, tab + 1, length - method_length - 1, results, calls);
            params_text = params.bytes;
        }
        if (async) fuzz_call_async(client, method.bytes, params_text, &results[calls]);
        else fuzz_call(client, method.bytes, params_text, &results[calls]);
        calls++;
        fuzz_drain(client);
    }
    traced_client_free(client);
    buffer_release(&method);
    buffer_release(&params);
    for (int i = 0; i < MAX_CALLS; i++) buffer_release(&results[i]);
    return 0;
}
