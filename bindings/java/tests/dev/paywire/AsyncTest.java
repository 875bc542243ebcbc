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

    @TestMain.Check
    public static void callAsyncPastTheLimitIsRefusedWithBusyAndEveryAcceptedCallIsAnswered() throws Exception {
        // Nobody takes events while 100 calls are made: exactly async_call_limit are accepted.
        try (Client client = new Client("{\"profile_id\": \"flood\", \"async_call_limit\": 8}")) {
            List<Long> accepted = new ArrayList<>();
            int refused = 0;
            for (int i = 0; i < 100; i++) {
                try {
                    accepted.add(client.callAsync("get_profile"));
                } catch (PaywireException error) {
                    equal(Status.BUSY, error.status(), "status");
                    equal("busy", error.code(), "code");
                    check(error.getMessage().contains("async_call_limit"), "the message names the limit");
                    refused++;
                }
            }
            equal(8, accepted.size(), "accepted");
            equal(92, refused, "refused");
            for (long callId : accepted) {
                equal("flood", client.waitFor(callId, 30_000, null).getAsJsonObject().get("profile_id").getAsString(), "answered");
            }
            client.waitFor(client.callAsync("get_profile"), 30_000, null);  // room again
        }
    }

    @TestMain.Check
    public static void typedFuturesPastTheLimitEachFailAtOnceWithBusyOrComplete() throws Exception {
        // 2,000 typed calls made before any is awaited, against async_call_limit 50, with a slow
        // consumer: each completion's continuation runs on the thread that takes events and
        // sleeps, so answers are taken slowly. Every future fails at once with BUSY or completes.
        try (Client client = new Client("{\"profile_id\": \"flood\", \"async_call_limit\": 50, \"event_queue_limit\": 16}")) {
            List<java.util.concurrent.CompletableFuture<dev.paywire.model.Profile>> futures = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                java.util.concurrent.CompletableFuture<dev.paywire.model.Profile> future = client.getProfileAsync();
                future.thenRun(() -> {
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException stop) {
                        Thread.currentThread().interrupt();
                    }
                });
                futures.add(future);
            }
            int answered = 0;
            int refused = 0;
            for (java.util.concurrent.CompletableFuture<dev.paywire.model.Profile> future : futures) {
                try {
                    equal("flood", future.get(60, TimeUnit.SECONDS).getProfileId(), "profile_id");
                    answered++;
                } catch (java.util.concurrent.ExecutionException failed) {
                    PaywireException error = (PaywireException) failed.getCause();
                    equal(Status.BUSY, error.status(), "status");
                    refused++;
                }
            }
            equal(2000, answered + refused, "every future settled");
            check(answered >= 50, "at least the limit answered: " + answered);
            equal("flood", client.getProfileAsync().get(30, TimeUnit.SECONDS).getProfileId(), "room again");
        }
    }

    @TestMain.Check
    public static void futuresStillWaitingWhenTheClientClosesFailWithClosed() throws Exception {
        java.util.concurrent.CompletableFuture<?> waiting;
        try (Client client = new Client("{\"profile_id\": \"p\", \"store\": {\"type\": \"host\"}, \"host_request_timeout_ms\": 60000}")) {
            waiting = client.restorePurchasesAsync();  // waits for the host's store, which never answers
            Thread.sleep(200);
        }
        try {
            waiting.get(10, TimeUnit.SECONDS);
            check(false, "the future failed");
        } catch (java.util.concurrent.ExecutionException failed) {
            equal(Status.CLOSED, ((PaywireException) failed.getCause()).status(), "status");
        }
    }
}
