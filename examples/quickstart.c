/* The C quick start of docs/getting-started/c.md and the README: a client whose configuration
 * holds all it needs (a test store selling two products, a bundle of one placement), a paywall,
 * a purchase the test store completes, then the client's events. The page builds and runs it
 * from an empty folder (`make docs-examples`); `make docs-check` checks the README shows it as is.
 * Build it against an installed library: cc app.c $(pkg-config --cflags --libs paywire) */
#include <stdio.h>
#include <paywire.h>

/* JSON(...) turns the JSON written inside it into a C string, its quotes escaped. */
#define JSON(...) #__VA_ARGS__

static const char *config = JSON({
    "profile_id": "quickstart-user",
    "store": {"type": "test", "products": [
        {"vendor_product_id": "premium_annual", "title": "Premium, yearly", "price": "59.99", "currency_code": "USD",
         "access_level": "premium", "period": {"unit": "year", "number_of_units": 1}},
        {"vendor_product_id": "premium_monthly", "title": "Premium, monthly", "price": "9.99", "currency_code": "USD",
         "access_level": "premium", "period": {"unit": "month", "number_of_units": 1}}]},
    "fallback": {"bundle": {"format_version": 1, "response_created_at": 1767225600000, "placements": {
        "onboarding": {"placement_audience_version_id": "onboarding-v1", "variations": [
            {"variation_id": "annual-first", "paywall_id": "welcome", "weight": 100,
             "products": ["premium_annual", "premium_monthly"],
             "remote_configs": [{"lang": "en", "data": {"title": "Unlock everything"}}]}]}}}}
});

/* Prints a call's envelope (every string the library returns is freed with paywire_string_free). */
static paywire_status_t show(paywire_client_t *client, const char *method, const char *params) {
    char *out = NULL;
    paywire_status_t status = paywire_client_call(client, method, params, &out);
    printf("%s: %s\n", method, out);   /* {"success": ...} or {"error": {"code": ..., "message": ...}} */
    paywire_string_free(out);
    return status;
}

int main(void) {
    paywire_client_t *client = NULL;
    char *out = NULL, *event = NULL;
    paywire_status_t status = paywire_client_new(config, &client, &out);
    if (status != PAYWIRE_OK) fprintf(stderr, "%s\n", out);
    paywire_string_free(out);   /* an envelope on success and on failure alike */
    if (status != PAYWIRE_OK) return 1;
    status = show(client, "get_paywall", "{\"placement_id\": \"onboarding\"}");
    if (status == PAYWIRE_OK) status = show(client, "make_purchase", "{\"vendor_product_id\": \"premium_annual\"}");
    while (paywire_client_poll(client, 0, &event) == PAYWIRE_OK) { printf("event: %s\n", event); paywire_string_free(event); }
    paywire_string_free(event);   /* the TIMEOUT envelope */
    paywire_client_free(client);
    return status == PAYWIRE_OK ? 0 : 1;
}
