package dev.paywire;

import static dev.paywire.TestMain.check;
import static dev.paywire.TestMain.equal;
import static dev.paywire.TestMain.exampleClient;
import static dev.paywire.TestMain.raises;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.HashMap;
import java.util.Map;

/** Calls through {@link Client}: results, versions, closing. */
final class ClientTest {
    private ClientTest() {
    }

    @TestMain.Check
    public static void abiVersionIsCheckedAndVersionIsRead() {
        equal(Abi.ABI_VERSION, Client.abiVersion(), "ABI version");
        equal("0.2.0", Client.version(), "version");
    }

    @TestMain.Check
    public static void callReturnsTheSuccessResult() throws Exception {
        try (Client client = exampleClient()) {
            equal("0.2.0", client.call("get_sdk_version").getAsJsonObject().get("version").getAsString(), "version");
        }
    }

    @TestMain.Check
    public static void pricesKeepTheDigitsTheLibraryWrote() throws Exception {
        try (Client client = exampleClient()) {
            JsonObject params = new JsonObject();
            params.add("paywall", client.call("get_paywall", "{\"placement_id\": \"settings\"}"));
            Map<String, String> amounts = new HashMap<>();
            for (JsonElement product : client.call("get_paywall_products", params).getAsJsonArray()) {
                JsonObject object = product.getAsJsonObject();
                amounts.put(object.get("vendor_product_id").getAsString(),
                        object.getAsJsonObject("price").get("amount").getAsJsonPrimitive().toString());
            }
            equal("9.99", amounts.get("premium_monthly"), "monthly amount text");
            equal("59.99", amounts.get("premium_annual"), "annual amount text");
            check(amounts.get("lifetime").startsWith("149"), "lifetime amount: " + amounts.get("lifetime"));
        }
    }

    @TestMain.Check
    public static void paramsTextReachesTheLibraryAsWritten() throws Exception {
        try (Client client = exampleClient()) {
            // Non-ASCII in a JSON string: the bytes are UTF-8 whatever the JVM's default charset.
            PaywireException error = raises(() -> client.call("get_paywall", "{\"placement_id\": \"caf\u00e9 \u2603\"}"));
            equal("not_found", error.code(), "code");
            equal("caf\u00e9 \u2603", error.details().get("placement_id").getAsString(), "placement id as sent");
        }
    }

    @TestMain.Check
    public static void nullResultIsJsonNull() throws Exception {
        try (Client client = new Client("{\"profile_id\": \"p\"}")) {
            check(client.call("set_log_level", "{\"log_level\": \"error\"}").isJsonNull(), "set_log_level returns null");
        }
    }

    @TestMain.Check
    public static void closedClientRefusesCallsAndCloseIsIdempotent() throws Exception {
        Client client = new Client("{\"profile_id\": \"p\"}");
        client.close();
        client.close();
        PaywireException error = raises(() -> client.call("get_profile"));
        equal("closed", error.code(), "code");
        equal(Status.CLOSED, error.status(), "status");
        equal("closed", raises(() -> client.callAsync("get_profile")).code(), "async code");
        equal("closed", raises(() -> client.poll(0)).code(), "poll code");
    }

    @TestMain.Check
    public static void pollReturnsNullWhenNothingIsQueued() throws Exception {
        try (Client client = exampleClient()) {
            JsonObject snapshot = client.poll(0);
            check(snapshot != null && snapshot.get("event").getAsString().equals("did_load_latest_profile"),
                    "the profile snapshot every client starts with");
            check(client.poll(0) == null, "no event");
        }
    }
}
