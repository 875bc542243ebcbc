package dev.paywire;

import static dev.paywire.TestMain.check;
import static dev.paywire.TestMain.equal;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** What went otherwise than asked is logged as a warning; a near miss of a config key is refused. */
final class WarningsTest {
    private WarningsTest() {
    }

    /** The warnings logged to "dev.paywire" while {@code body} runs. */
    private static List<String> warningsOf(Runnable body) {
        List<String> seen = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel() == Level.WARNING) {
                    seen.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger("dev.paywire");
        logger.addHandler(capture);
        try {
            body.run();
        } finally {
            logger.removeHandler(capture);
        }
        return seen;
    }

    @TestMain.Check
    public static void anUnknownConfigKeyIsAWarningNamingIt() {
        List<String> seen = warningsOf(() -> new Client("{\"profile_id\": \"w\", \"colour\": \"blue\"}").close());
        check(seen.size() == 1 && seen.get(0).contains("colour"), "one warning naming colour: " + seen);
        check(warningsOf(() -> new Client("{\"profile_id\": \"w\"}").close()).isEmpty(), "a clean config warns nothing");
    }

    @TestMain.Check
    public static void aNearMissOfAConfigKeyIsRefusedWithTheKeyItLikelyMeant() {
        try {
            new Client("{\"profile_id\": \"w\", \"fallbak\": {\"path\": \"b.json\"}}").close();
            throw new AssertionError("a near miss was accepted");
        } catch (PaywireException error) {
            equal("wrong_param", error.code(), "code");
            equal("fallback", error.details().get("did_you_mean").getAsString(), "did_you_mean");
        }
    }

    @TestMain.Check
    public static void aPaywallServedBecauseTheBackendRefusedTheKeyIsAWarning() {
        JsonObject paywall = JsonParser.parseString(
                "{\"paywall_id\": \"p\", \"source\": \"fallback\", \"backend_error\": {\"status\": 401, \"code\": \"unauthorized\"}}")
                .getAsJsonObject();
        List<String> seen = warningsOf(() -> Warnings.report(paywall));
        check(seen.size() == 1 && seen.get(0).contains("HTTP 401") && seen.get(0).contains("unauthorized"), "the refusal: " + seen);
        paywall.remove("backend_error");
        check(warningsOf(() -> Warnings.report(paywall)).isEmpty(), "a paywall the backend served warns nothing");
    }
}
