/* The README's C example: one paywall from the example bundle, then its events.
 * `make docs-check` compiles it against include/paywire.h and checks the README shows it as is.
 * Build it against an installed library: cc quickstart.c $(pkg-config --cflags --libs paywire) */
#include <stdio.h>
#include <paywire.h>

int main(void) {
    paywire_client_t *client = NULL;
    char *out = NULL, *event = NULL;
    paywire_status_t status = paywire_client_new("{\"fallback\":{\"path\":\"examples/bundle.json\"}}", &client, &out);
    paywire_string_free(out);   /* an envelope on success and on failure alike */
    if (status != PAYWIRE_OK) return 1;
    paywire_client_call(client, "get_paywall", "{\"placement_id\":\"onboarding\"}", &out);
    printf("%s\n", out);   /* {"success": {...paywall...}} or {"error": {"code": "not_found", ...}} */
    paywire_string_free(out);
    while (paywire_client_poll(client, 0, &event) == PAYWIRE_OK) { printf("%s\n", event); paywire_string_free(event); }
    paywire_string_free(event);   /* the TIMEOUT envelope */
    paywire_client_free(client);
    return 0;
}
