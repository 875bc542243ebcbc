/* Built against an installed prefix with only `pkg-config --cflags --libs paywire`. */
#include <paywire.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    if (paywire_abi_version() != PAYWIRE_ABI_VERSION) return 1;
    paywire_client_t *client = NULL;
    char *out = NULL;
    if (paywire_client_new("{\"profile_id\":\"install-check\"}", &client, &out) != PAYWIRE_OK) return 2;
    paywire_string_free(out);
    out = NULL;
    paywire_status_t status = paywire_client_call(client, "get_sdk_version", NULL, &out);
    int ok = status == PAYWIRE_OK && out != NULL && strstr(out, "\"version\":\"" PAYWIRE_VERSION "\"") != NULL;
    printf("installed libpaywire %s: %s\n", paywire_version(), out ? out : "(null)");
    paywire_string_free(out);
    paywire_client_free(client);
    return ok ? 0 : 3;
}
