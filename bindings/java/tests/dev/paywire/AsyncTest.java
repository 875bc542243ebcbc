package dev.paywire;

import static dev.paywire.TestMain.check;
import static dev.paywire.TestMain.equal;
import static dev.paywire.TestMain.exampleClient;
import static dev.paywire.TestMain.raises;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** callAsync: results through poll and through a handler, errors, ids and order. */
final class AsyncTest {
    private AsyncTest() {
    }

    @TestMain.Check
    public static void asyncResultArrivesThroughPolling() throws Exception {
        try (Client client = exampleClient()) {
            long callId = client.callAsync("get_profile");
            List<JsonObject> others = new ArrayList<>();
            JsonElement profile = client.waitFor(callId, 5000, others);
            equal("demo-profile-0001", profile.getAsJsonObject().get("profile_id").getAsString(), "profile_id");
            equal(1, others.size(), "other events: the profile snapshot every client starts with");
            equal("did_load_latest_profile", others.get(0).get("event").getAsString(), "the snapshot");
        }
    }

    @TestMain.Check
    public static void asyncErrorIsThrownWithItsCodeAndField() throws Exception {
        try (Client client = exampleClient()) {
            long callId = client.callAsync("get_paywall", "{\"placement_id\": 3}");
            PaywireException error = raises(() -> client.waitFor(callId, 5000, null));
            equal("wrong_param", error.code(), "code");
            equal(Status.INVALID_ARGUMENT, error.status(), "status");
            equal("placement_id", error.details().get("field").getAsString(), "details.field");
        }
    }

    @TestMain.Check
    public static void callIdsRiseAndEventsArriveInSeqOrder() throws Exception {
        try (Client client = exampleClient()) {
            for (long expected = 1; expected <= 5; expected++) {
                equal(expected, client.callAsync("get_log_level"), "call id");
            }
            JsonObject snapshot = client.poll(2000);
            check(snapshot != null && snapshot.get("seq").getAsLong() == 1, "the profile snapshot first");
            for (long seq = 2; seq <= 6; seq++) {
                JsonObject event = client.poll(2000);
                check(event != null, "event " + seq + " arrived");
                equal(seq, event.get("seq").getAsLong(), "seq");
                equal(seq - 1, event.get("call_id").getAsLong(), "call_id");
                equal("info", Client.resultOf(event).getAsString(), "the example config's log level");
            }
            check(client.poll(50) == null, "no sixth event");
        }
    }

    @TestMain.Check
    public static void asyncResultArrivesThroughTheHandler() throws Exception {
        try (Client client = exampleClient()) {
            BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
            client.setEventHandler(events::add);
            long callId = client.callAsync("get_paywall", "{\"placement_id\": \"onboarding\"}");
            JsonObject event = events.poll(5, TimeUnit.SECONDS);
            // The profile snapshots come first (the client's own, then the handler's).
            while (event != null && !event.get("event").getAsString().equals("call_result")) {
                event = events.poll(5, TimeUnit.SECONDS);
            }
            check(event != null, "call_result delivered to the handler");
            equal(callId, event.get("call_id").getAsLong(), "call_id");
            equal("onboarding", Client.resultOf(event).getAsJsonObject().getAsJsonObject("placement")
                    .get("developer_id").getAsString(), "placement");
        }
    }
}
