/* The README's C example: one paywall from the example bundle, then its events.
 * `make docs-examples` builds and runs it from an empty folder; `make docs-check` checks the
 * README and docs/getting-started/c.md show it as is.
 * Build it against an installed library: cc quickstart.c $(pkg-config --cflags --libs paywire) */
#include <stdio.h>
#include <stdlib.h>
#include <paywire.h>

int main(void) {
    /* The example bundle: in a checkout's examples/, or the Debian package's (PAYWIRE_EXAMPLES). */
    const char *examples = getenv("PAYWIRE_EXAMPLES") ? getenv("PAYWIRE_EXAMPLES") : "/usr/share/paywire/examples";
    char config[4096];
    snprintf(config, sizeof config, "{\"fallback\":{\"path\":\"%s/bundle.json\"}}", examples);
    paywire_client_t *client = NULL;
    char *out = NULL, *event = NULL;
    paywire_status_t status = paywire_client_new(config, &client, &out);
    if (status != PAYWIRE_OK) fprintf(stderr, "%s\n", out);
    paywire_string_free(out);   /* an envelope on success and on failure alike */
    if (status != PAYWIRE_OK) return 1;
    status = paywire_client_call(client, "get_paywall", "{\"placement_id\":\"onboarding\"}", &out);
    printf("%s\n", out);   /* {"success": {...paywall...}} or {"error": {"code": "not_found", ...}} */
    paywire_string_free(out);
    while (paywire_client_poll(client, 0, &event) == PAYWIRE_OK) { printf("%s\n", event); paywire_string_free(event); }
    paywire_string_free(event);   /* the TIMEOUT envelope */
    paywire_client_free(client);
    return status == PAYWIRE_OK ? 0 : 1;
}
