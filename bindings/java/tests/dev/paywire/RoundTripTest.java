package dev.paywire;

import static dev.paywire.TestMain.check;
import static dev.paywire.TestMain.equal;
import static dev.paywire.TestMain.root;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dev.paywire.model.Event;
import dev.paywire.model.Events;
import dev.paywire.model.Results;
import dev.paywire.model.UnknownEvent;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Every shape the conformance vectors spell out decodes into the generated models and encodes
 * back to the same JSON, numbers compared as the text the vector holds (9.99 and 9.990 differ).
 * Which shapes, and why the others are left out, is tests/conformance/roundtrip_cases.py's choice
 * (the same as the Python binding's test_roundtrip.py): placeholders the driver substitutes,
 * results matched as a subset, params the schema refuses. Events a step matches as a subset may
 * leave required members out: those that do not decode are skipped, exact ones must decode (with
 * a seq filled in when the case leaves it out, as the driver does not compare it then).
 */
final class RoundTripTest {
    private RoundTripTest() {
    }

    @TestMain.Check
    public static void everyVectorShapeRoundTrips() throws Exception {
        JsonObject selection = Json.parse(read("build/roundtrip-cases.json")).getAsJsonObject();
        Map<String, JsonObject> cases = new HashMap<>();
        int[] counts = new int[4];
        List<String> failures = new ArrayList<>();
        for (JsonElement item : selection.getAsJsonArray("cases")) {
            JsonObject where = item.getAsJsonObject();
            JsonObject step = step(cases, where);
            String kind = where.get("kind").getAsString();
            String name = where.get("case").getAsString() + "#" + where.get("step") + " " + kind;
            try {
                counts[roundTrip(kind, where, step)]++;
            } catch (RuntimeException | AssertionError error) {
                failures.add(name + ": " + error);
            }
        }
        check(failures.isEmpty(), failures.size() + " failed, first: " + (failures.isEmpty() ? "" : failures.get(0)));
        System.out.printf("     round trip: %d params, %d results, %d events; %d partial events skipped; left out: %s%n",
                counts[0], counts[1], counts[2], counts[3], selection.get("skipped"));
        check(counts[0] > 500 && counts[1] > 100 && counts[2] + counts[3] > 300 && counts[2] > 80, "the vectors give enough to check");
    }

    /** 0 params, 1 result, 2 event, 3 a partial event skipped. */
    private static int roundTrip(String kind, JsonObject where, JsonObject step) {
        if (kind.equals("params")) {
            JsonElement params = step.get("params");
            same(params, Results.PARAMS_ROUND_TRIP.get(where.get("method").getAsString()).apply(params));
            return 0;
        }
        if (kind.equals("result")) {
            JsonElement result = step.getAsJsonObject("expect").get("success");
            same(result, Results.RESULT_ROUND_TRIP.get(where.get("method").getAsString()).apply(result));
            return 1;
        }
        JsonObject event = step.getAsJsonArray("events").get(where.get("event").getAsInt()).getAsJsonObject().deepCopy();
        boolean exact = where.get("exact").getAsBoolean();
        if (exact && !event.has("seq")) {
            event.addProperty("seq", 1);
        }
        Event decoded;
        try {
            decoded = Events.parse(event);
        } catch (IllegalArgumentException partial) {
            if (exact) {
                throw partial;
            }
            return 3;
        }
        check(!(decoded instanceof UnknownEvent), "every event the vectors expect is in the schema: " + event.get("event"));
        same(event, decoded.toJson());
        return 2;
    }

    private static JsonObject step(Map<String, JsonObject> cases, JsonObject where) throws Exception {
        String file = where.get("file").getAsString();
        if (!cases.containsKey(file + "/")) {
            cases.put(file + "/", new JsonObject());
            for (JsonElement c : Json.parse(read("tests/conformance/vectors/" + file)).getAsJsonObject().getAsJsonArray("cases")) {
                cases.put(file + "/" + c.getAsJsonObject().get("id").getAsString(), c.getAsJsonObject());
            }
        }
        JsonArray steps = cases.get(file + "/" + where.get("case").getAsString()).getAsJsonArray("steps");
        return steps.get(where.get("step").getAsInt()).getAsJsonObject();
    }

    static void same(JsonElement expected, JsonElement actual) {
        equal(canonical(expected), canonical(actual), "round trip");
    }

    /** JSON text with sorted keys and each number as its text: 9.99 vs 9.990, 1 vs 1.0 differ. */
    static String canonical(JsonElement value) {
        if (value == null || value.isJsonNull()) {
            return "null";
        }
        if (value.isJsonObject()) {
            StringBuilder out = new StringBuilder("{");
            for (String key : new TreeSet<>(value.getAsJsonObject().keySet())) {
                out.append(out.length() > 1 ? "," : "").append(Json.write(new JsonPrimitive(key))).append(':')
                        .append(canonical(value.getAsJsonObject().get(key)));
            }
            return out.append('}').toString();
        }
        if (value.isJsonArray()) {
            List<String> items = new ArrayList<>();
            value.getAsJsonArray().forEach(item -> items.add(canonical(item)));
            return "[" + String.join(",", items) + "]";
        }
        JsonPrimitive primitive = value.getAsJsonPrimitive();
        return primitive.isNumber() ? primitive.getAsNumber().toString() : Json.write(primitive);
    }

    static String read(String path) throws Exception {
        return new String(Files.readAllBytes(root().resolve(path)), StandardCharsets.UTF_8);
    }
}
