package dev.paywire;

import static dev.paywire.TestMain.check;
import static dev.paywire.TestMain.equal;
import static dev.paywire.TestMain.exampleClient;
import static dev.paywire.TestMain.raises;

import com.google.gson.JsonObject;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** Event handlers: replacement, removal, reachability, and faults inside a handler. */
final class HandlerTest {
    private HandlerTest() {
    }

    @TestMain.Check
    public static void replacedHandlerIsReleasedOnceAndGetsNothingMore() throws Exception {
        int before = NativeHandlers.liveCount();
        try (Client client = exampleClient()) {
            // Each handler hears the profile snapshot first: the first one also gets the client's
            // own (still queued), so 3 events each: seq 1-3, then 4-6.
            Counter first = new Counter(3);
            client.setEventHandler(first);
            client.callAsync("get_log_level");
            check(first.await(), "first handler got its events");
            equal(before + 1, NativeHandlers.liveCount(), "one handler registered");

            Counter second = new Counter(3);
            client.setEventHandler(second);
            equal(before + 1, NativeHandlers.liveCount(), "the replaced handler was released, the new one kept");
            client.callAsync("get_log_level");
            client.callAsync("get_log_level");
            check(second.await(), "second handler got its snapshot and both results");
            equal(3, first.count.get(), "the replaced handler got nothing more");

            client.setEventHandler(null);
            equal(before, NativeHandlers.liveCount(), "removing the handler released it");
            client.callAsync("get_log_level");
            JsonObject polled = client.poll(2000);
            check(polled != null && polled.get("seq").getAsLong() == 7, "back to polling, seq continues: " + polled);
        }
        equal(before, NativeHandlers.liveCount(), "nothing registered after close");
    }

    @TestMain.Check
    public static void closingReleasesTheHandler() throws Exception {
        int before = NativeHandlers.liveCount();
        Client client = exampleClient();
        client.setEventHandler(event -> { });
        equal(before + 1, NativeHandlers.liveCount(), "registered");
        client.close();
        equal(before, NativeHandlers.liveCount(), "released by close");
    }

    /** The handler is a lambda nobody else references: garbage collection must not break delivery. */
    @TestMain.Check
    public static void handlerSurvivesGarbageCollection() throws Exception {
        try (Client client = exampleClient()) {
            AtomicInteger seen = new AtomicInteger();
            CountDownLatch all = new CountDownLatch(200);
            client.setEventHandler(event -> {
                seen.incrementAndGet();
                all.countDown();
            });
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 50; i++) {
                    client.callAsync("get_log_level");
                }
                for (int i = 0; i < 5; i++) {
                    byte[][] garbage = new byte[1000][];
                    for (int j = 0; j < garbage.length; j++) {
                        garbage[j] = new byte[1024];
                    }
                    System.gc();
                }
            }
            check(all.await(10, TimeUnit.SECONDS), "all 200 events delivered after GC: " + seen.get());
        }
    }

    @TestMain.Check
    public static void exceptionInAHandlerDoesNotStopDelivery() throws Exception {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        CountDownLatch reported = new CountDownLatch(3);
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> reported.countDown());
        try (Client client = exampleClient()) {
            Counter counter = new Counter(3);
            client.setEventHandler(event -> {
                counter.onEvent(event);
                throw new IllegalStateException("a host bug");
            });
            for (int i = 0; i < 3; i++) {
                client.callAsync("get_log_level");
            }
            check(counter.await(), "every event delivered despite the exceptions");
            check(reported.await(5, TimeUnit.SECONDS), "each exception reported to the JVM's handler");
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }

    @TestMain.Check
    @SuppressWarnings("try") // closing inside the handler is the point
    public static void closeInsideTheOwnHandlerIsRefused() throws Exception {
        try (Client client = exampleClient()) {
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            client.setEventHandler(event -> {
                try {
                    client.close();
                } catch (Throwable error) {
                    outcome.set(error);
                }
                done.countDown();
            });
            client.callAsync("get_log_level");
            check(done.await(5, TimeUnit.SECONDS), "handler ran");
            check(outcome.get() instanceof IllegalStateException, "close refused: " + outcome.get());
            equal("info", client.call("get_log_level").getAsString(), "client still usable");
        }
    }

    @TestMain.Check
    public static void pollWithAHandlerSetIsWrongParam() throws Exception {
        try (Client client = exampleClient()) {
            client.setEventHandler(event -> { });
            PaywireException error = raises(() -> client.poll(0));
            equal("wrong_param", error.code(), "code");
            equal(Status.INVALID_ARGUMENT, error.status(), "status");
        }
    }

    /** Counts events and opens a latch once {@code expected} arrived. */
    private static final class Counter implements EventHandler {
        final AtomicInteger count = new AtomicInteger();
        private final CountDownLatch latch;

        Counter(int expected) {
            latch = new CountDownLatch(expected);
        }

        @Override
        public void onEvent(JsonObject event) {
            count.incrementAndGet();
            latch.countDown();
        }

        boolean await() throws InterruptedException {
            return latch.await(5, TimeUnit.SECONDS);
        }
    }
}
