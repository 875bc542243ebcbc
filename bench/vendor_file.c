/* A 1,000-placement fallback file in the vendor's dashboard format (format 8), for (e): the same
 * placements as the generated bundle (two variations, 50/50, remote configs), written as that
 * dashboard writes them (placements under "data", each with its "meta", verbose product
 * references, the header last). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define PRODUCT(id) "{\"title\":\"Premium\",\"is_consumable\":false,\"adapty_product_id\":\"4f0c2a9e-5b1d-4c8e-9a53-%06d" id "\"," \
    "\"vendor_product_id\":\"" id "\",\"promotional_offer_id\":null,\"win_back_offer_id\":null,\"introductory_offer_eligibility\":true," \
    "\"promotional_offer_eligibility\":false,\"timestamp\":1747759592079,\"base_plan_id\":null,\"offer_id\":null}"

char *make_vendor_file(int padding) {
    size_t capacity = 16u << 20, used = 0;
    char *pad = malloc((size_t)padding + 1);
    memset(pad, 'x', (size_t)padding);
    pad[padding] = '\0';
    char *text = malloc(capacity);
    used += (size_t)snprintf(text + used, capacity - used, "{\"bundle\":{\"data\":{");
    for (int i = 0; i < 1000; i++) {
        used += (size_t)snprintf(text + used, capacity - used,
            "%s\"placement_%04d\":{\"data\":["
            "{\"variation_id\":\"a%d\",\"paywall_id\":\"pw-a%d\",\"paywall_name\":\"A\",\"products\":[" PRODUCT("premium_monthly") "," PRODUCT("premium_annual") "],"
            "\"custom_payload\":null,\"remote_config\":{\"lang\":\"en\",\"data\":\"{\\\"title\\\":\\\"Unlock everything in placement %d with a long enough remote config to make the bundle realistic\\\",\\\"terms\\\":\\\"%s\\\"}\"},"
            "\"web_purchase_url\":null,\"weight\":50,\"paywall_builder\":null,\"cross_placement_info\":null},"
            "{\"variation_id\":\"b%d\",\"paywall_id\":\"pw-b%d\",\"paywall_name\":\"B\",\"products\":[" PRODUCT("premium_annual") "],"
            "\"custom_payload\":null,\"remote_config\":{\"lang\":\"en\",\"data\":\"{\\\"title\\\":\\\"Save with annual in placement %d and read this long line of text\\\",\\\"terms\\\":\\\"%s\\\"}\"},"
            "\"web_purchase_url\":null,\"weight\":50,\"paywall_builder\":null,\"cross_placement_info\":null}],"
            "\"meta\":{\"placement\":{\"developer_id\":\"placement_%04d\",\"audience_name\":\"All Users\","
            "\"placement_audience_version_id\":\"p%d-v1\",\"revision\":1,\"ab_test_name\":\"t%d\"}}}",
            i ? "," : "", i, i, i, i, i, i, pad, i, i, i, i, pad, i, i, i);
    }
    used += (size_t)snprintf(text + used, capacity - used, "},\"meta\":{\"version\":8,\"developer_ids\":[");
    for (int i = 0; i < 1000; i++) {
        used += (size_t)snprintf(text + used, capacity - used, "%s\"placement_%04d\"", i ? "," : "", i);
    }
    used += (size_t)snprintf(text + used, capacity - used, "],\"response_created_at\":1}}}");
    free(pad);
    return text;
}
