/*
 * Fuzz target: set_fallback {bundle} and the paths that read a bundle (get_paywall, the
 * default audience, get_onboarding, products, a paywall view and its builder configuration),
 * on a client made from examples/config.json with audience context and custom attributes set,
 * so audience rules have something to evaluate.
 *
 * Input: `PLACEMENT_ID[<TAB>LOCALE]` on the first line, then the bundle's JSON text, which is
 * passed inline as `{"bundle": <text>}` (so it is indexed where it sits in the params text).
 * The seeds are every bundle in the repository, one per placement it holds.
 */
#include "fuzz_common.h"

static char *config;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    char *example = fuzz_read_file("examples/config.json");
    char *open_brace = strchr(example, '{');
    if (open_brace == NULL) fuzz_die("examples/config.json is not an object");
    fuzz_buffer buffer = {0};
    buffer_text(&buffer, "{\"context\":{\"platform\":\"ios\",\"app_version\":\"2.5.1\",\"installed_at\":\"2024-01-01T00:00:00.000Z\"},");
    buffer_text(&buffer, open_brace + 1);
    free(example);
    config = buffer.bytes;
    return 0;
}

static const char attributes[] =
    "{\"custom_attributes\":{\"tier\":\"gold\",\"spend\":120.5,\"nickname\":\"neo\",\"country\":\"US\",\"beta\":true}}";

/* The paywall that get_paywall answered: its products, a view, and the view's configuration. */
static void use_paywall(paywire_client_t *client, const fuzz_buffer *paywall) {
    fuzz_buffer params = {0}, view = {0};
    buffer_text(&params, "{\"paywall\":");
    buffer_append(&params, paywall->bytes, paywall->length);
    buffer_text(&params, "}");
    fuzz_call(client, "get_paywall_products", params.bytes, NULL);
    if (fuzz_call(client, "create_paywall_view", params.bytes, &view) == PAYWIRE_OK) {
        const char *id = strstr(view.bytes, "\"id\":");
        const char *end = id ? strchr(id + 6, '"') : NULL;
        if (id && end) {
            buffer_reset(&params);
            buffer_text(&params, "{\"view_id\":");
            buffer_append(&params, id + 5, (size_t)(end + 1 - (id + 5)));
            buffer_text(&params, "}");
            fuzz_call(client, "paywall_view_get_configuration", params.bytes, NULL);
        }
    }
    buffer_release(&params);
    buffer_release(&view);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *input = (const char *)data;
    const char *newline = memchr(input, '\n', size);
    size_t head = newline ? (size_t)(newline - input) : 0;
    const char *tab = memchr(input, '\t', head);
    size_t id_length = tab ? (size_t)(tab - input) : head;

    fuzz_buffer params = {0}, request = {0}, result = {0};
    buffer_text(&params, "{\"bundle\":");
    buffer_append(&params, newline ? newline + 1 : input, newline ? size - head - 1 : size);
    buffer_text(&params, "}");
    buffer_text(&request, "{\"placement_id\":");
    buffer_json_string(&request, input, id_length);
    if (tab) {
        buffer_text(&request, ",\"locale\":");
        buffer_json_string(&request, tab + 1, head - id_length - 1);
    }
    buffer_text(&request, "}");

    paywire_client_t *client = fuzz_client(config);
    fuzz_call(client, "update_profile", attributes, NULL);
    fuzz_call(client, "set_fallback", params.bytes, NULL);
    if (fuzz_call(client, "get_paywall", request.bytes, &result) == PAYWIRE_OK) use_paywall(client, &result);
    fuzz_call(client, "get_paywall_for_default_audience", request.bytes, NULL);
    fuzz_call(client, "get_onboarding", request.bytes, NULL);
    fuzz_drain(client);
    traced_client_free(client);
    buffer_release(&params);
    buffer_release(&request);
    buffer_release(&result);
    return 0;
}
