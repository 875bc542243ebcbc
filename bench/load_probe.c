/*
 * The processes that bench/loadcost.c starts and times, one source compiled three ways:
 *
 *   -DPROBE_BARE      a C program that links nothing of ours: the baseline
 *   -DPROBE_ABI       links libpaywire and calls paywire_abi_version()
 *   -DPROBE_PAYWALL   also makes a client on the bundle named by argv[1] and serves one paywall
 *
 * Each exits 0 only when its work succeeded, so a timing is never of a failed run.
 */
#if !defined(PROBE_BARE)
#include "paywire.h"
#endif
#include <stdio.h>

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
#if defined(PROBE_ABI)
    return paywire_abi_version() == PAYWIRE_ABI_VERSION ? 0 : 1;
#elif defined(PROBE_PAYWALL)
    if (argc < 2) return 2;
    char config[4096];
    if (snprintf(config, sizeof config, "{\"profile_id\":\"load-probe\",\"fallback\":{\"path\":\"%s\"}}", argv[1]) >=
        (int)sizeof config) return 2;
    paywire_client_t *client = NULL;
    char *out = NULL;
    paywire_status_t status = paywire_client_new(config, &client, &out);
    paywire_string_free(out);
    if (status != PAYWIRE_OK) return 3;
    status = paywire_client_call(client, "get_paywall", "{\"placement_id\":\"onboarding\"}", &out);
    paywire_string_free(out);
    paywire_client_free(client);
    return status == PAYWIRE_OK ? 0 : 4;
#else
    return 0;
#endif
}
