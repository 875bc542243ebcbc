/*
 * Fuzz target: onboarding_view_ingest. A client on tests/conformance/bundles/basic.json (the
 * bundle of the onboarding vectors, so the seeds' onboarding ids match) opens the
 * `main_onboarding` view with `open_paywall: true` (an open_paywall message then serves a
 * placement); the input is ingested twice, as the message object itself and as the JSON text
 * a web view would deliver, and the recorded answers are read back.
 *
 * Input: the message. The seeds are every message of the conformance vectors and the bad-input
 * corpus.
 */
#include "fuzz_common.h"

static const char config[] =
    "{\"profile_id\":\"fuzz-onboarding\",\"fallback\":{\"path\":\"tests/conformance/bundles/basic.json\"},"
    "\"store\":{\"type\":\"test\",\"products\":[]}}";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    /* Fails loudly here, not on every input, when run from the wrong directory. */
    free(fuzz_read_file("tests/conformance/bundles/basic.json"));
    return 0;
}

/* Creates the onboarding view; its id is left in `view_params` as `{"view_id":"...",`. */
static void open_view(paywire_client_t *client, fuzz_buffer *view_params) {
    fuzz_buffer onboarding = {0}, params = {0}, view = {0};
    if (fuzz_call(client, "get_onboarding", "{\"placement_id\":\"main_onboarding\"}", &onboarding) != PAYWIRE_OK) {
        fuzz_die("the fixture onboarding did not load");
    }
    buffer_text(&params, "{\"open_paywall\":true,\"onboarding\":");
    buffer_append(&params, onboarding.bytes, onboarding.length);
    buffer_text(&params, "}");
    if (fuzz_call(client, "create_onboarding_view", params.bytes, &view) != PAYWIRE_OK) fuzz_die("the view was refused");
    const char *id = strstr(view.bytes, "\"id\":");
    const char *end = id ? strchr(id + 6, '"') : NULL;
    if (end == NULL) fuzz_die("the view has no id");
    buffer_text(view_params, "{\"view_id\":");
    buffer_append(view_params, id + 5, (size_t)(end + 1 - (id + 5)));
    buffer_text(view_params, ",");
    buffer_release(&onboarding);
    buffer_release(&params);
    buffer_release(&view);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    paywire_client_t *client = fuzz_client(config);
    fuzz_buffer view = {0}, params = {0};
    open_view(client, &view);

    buffer_append(&params, view.bytes, view.length);
    buffer_text(&params, "\"message\":");
    buffer_append(&params, (const char *)data, size);
    buffer_text(&params, "}");
    fuzz_call(client, "onboarding_view_ingest", params.bytes, NULL);

    buffer_reset(&params);
    buffer_append(&params, view.bytes, view.length);
    buffer_text(&params, "\"message\":");
    buffer_json_string(&params, (const char *)data, size);
    buffer_text(&params, "}");
    fuzz_call(client, "onboarding_view_ingest", params.bytes, NULL);

    fuzz_call(client, "get_onboarding_state", "{\"onboarding_id\":\"onboarding_123\"}", NULL);
    fuzz_drain(client);
    traced_client_free(client);
    buffer_release(&view);
    buffer_release(&params);
    return 0;
}
