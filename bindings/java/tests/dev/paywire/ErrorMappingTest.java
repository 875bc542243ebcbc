package dev.paywire;

import static dev.paywire.TestMain.equal;
import static dev.paywire.TestMain.exampleClient;
import static dev.paywire.TestMain.raises;

import com.google.gson.JsonObject;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/** How statuses and wire error codes reach a Java host. */
final class ErrorMappingTest {
    private ErrorMappingTest() {
    }

    @TestMain.Check
    public static void everyPinnedStatusMapsToItsNameAndUnknownIsFailed() {
        for (Status status : Status.values()) {
            equal(status, Status.of(status.code()), "Status.of(" + status.code() + ")");
            equal(status.name(), Abi.statusName(status.code()), "paywire_status_name(" + status.code() + ")");
        }
        equal(Status.FAILED, Status.of(-42), "an unknown negative is FAILED");
        equal(Status.FAILED, Status.of(7), "an unknown positive is FAILED");
    }

    @TestMain.Check
    public static void notFoundIsFailedWithDetails() throws Exception {
        try (Client client = exampleClient()) {
            PaywireException error = raises(() -> client.call("get_paywall", "{\"placement_id\": \"nowhere\"}"));
            equal("not_found", error.code(), "code");
            equal(Status.FAILED, error.status(), "status");
            equal("nowhere", error.details().get("placement_id").getAsString(), "details.placement_id");
        }
    }

    @TestMain.Check
    public static void unknownMethodWrongParamAndBadJsonKeepTheirCodes() throws Exception {
        try (Client client = exampleClient()) {
            PaywireException unknown = raises(() -> client.call("no_such_method"));
            equal("unknown_method", unknown.code(), "unknown method code");
            equal(Status.UNKNOWN_METHOD, unknown.status(), "unknown method status");
            PaywireException wrong = raises(() -> client.call("get_paywall", "{\"placement_id\": 42}"));
            equal("wrong_param", wrong.code(), "wrong param code");
            equal(Status.INVALID_ARGUMENT, wrong.status(), "wrong param status");
            equal("placement_id", wrong.details().get("field").getAsString(), "details.field");
            PaywireException json = raises(() -> client.call("get_paywall", "{\"placement_id\": "));
            equal("decoding_failed", json.code(), "bad JSON code");
            equal(Status.INVALID_JSON, json.status(), "bad JSON status");
        }
    }

    @TestMain.Check
    public static void badConfigNamesTheField() {
        PaywireException error;
        try {
            new Client("{\"log_level\": \"shout\"}").close();
            throw new AssertionError("a bad config was accepted");
        } catch (PaywireException raised) {
            error = raised;
        }
        equal(Status.INVALID_ARGUMENT, error.status(), "status");
        equal("log_level", error.details().get("field").getAsString(), "details.field");
    }

    /**
     * A refused callAsync comes with no envelope, so the binding names the code itself: it must
     * be the code the library writes for the same status in an envelope.
     */
    @TestMain.Check
    public static void refusedAsyncCallGetsTheCodeTheLibraryWouldWrite() {
        Abi.Library library = Abi.library();
        Pointer madeUp = new Pointer(0x1234);
        byte[][] methods = {"get_profile".getBytes(), {(byte) 0xff, (byte) 0xfe}};
        for (byte[] method : methods) {
            try (Memory name = Abi.cString(method); Memory callId = Abi.outSlot(); Memory out = Abi.outSlot()) {
                int asyncStatus = library.paywire_client_call_async(madeUp, name, null, callId);
                int syncStatus = library.paywire_client_call(madeUp, name, null, out);
                JsonObject envelope = Json.parse(Abi.takeString(out)).getAsJsonObject();
                equal(syncStatus, asyncStatus, "same status for call and call_async");
                equal(envelope.getAsJsonObject("error").get("code").getAsString(),
                        PaywireException.fromStatus(Status.of(asyncStatus), "callAsync").code(), "code of " + Status.of(asyncStatus));
            }
        }
        Pointer client;
        try (Memory slot = Abi.outSlot()) {
            equal(0, library.paywire_client_new(null, slot, null), "client_new");
            client = slot.getPointer(0);
        }
        try (Memory name = Abi.cString("get_profile"); Memory bad = Abi.cString(new byte[] {(byte) 0xc3});
             Memory out = Abi.outSlot()) {
            int status = library.paywire_client_call(client, name, bad, out);
            JsonObject envelope = Json.parse(Abi.takeString(out)).getAsJsonObject();
            equal(Status.INVALID_UTF8, Status.of(status), "invalid UTF-8 params");
            equal(envelope.getAsJsonObject("error").get("code").getAsString(), Status.INVALID_UTF8.wireCode(), "invalid_utf8 code");
        } finally {
            library.paywire_client_free(client);
        }
    }
}
