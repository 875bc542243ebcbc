package dev.paywire;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What the generated models (dev.paywire.model) read and write JSON with. Hand-written and small
 * on purpose: the generated code calls only these, so how a model reads JSON changes here once,
 * not in the generator's templates. Not for hosts: the models are the surface.
 * A value of the wrong shape throws IllegalArgumentException naming what was expected.
 */
public final class ModelJson {
    private ModelJson() {
    }

    public static JsonObject obj(JsonElement json, String owner) {
        if (json == null || !json.isJsonObject()) {
            throw new IllegalArgumentException(owner + ": expected a JSON object, got " + json);
        }
        return json.getAsJsonObject();
    }

    /** A required member; its absence names the model and the member. */
    public static JsonElement req(JsonObject object, String key, String owner) {
        JsonElement value = object.get(key);
        if (value == null) {
            throw new IllegalArgumentException(owner + ": missing required field " + key);
        }
        return value;
    }

    /** True when an optional member is there and not null (null reads as absent for those). */
    public static boolean present(JsonObject object, String key) {
        JsonElement value = object.get(key);
        return value != null && !value.isJsonNull();
    }

    public static String string(JsonElement json) {
        return primitive(json, "a string").isString() ? json.getAsString() : fail("a string", json);
    }

    public static Long integer(JsonElement json) {
        if (!primitive(json, "an integer").isNumber()) {
            return fail("an integer", json);
        }
        return json.getAsBigDecimal().longValueExact();
    }

    public static Boolean bool(JsonElement json) {
        return primitive(json, "a boolean").isBoolean() ? json.getAsBoolean() : fail("a boolean", json);
    }

    /** A number exactly as the library wrote it: gson keeps the text, BigDecimal keeps the scale. */
    public static BigDecimal decimal(JsonElement json) {
        return primitive(json, "a number").isNumber() ? json.getAsBigDecimal() : fail("a number", json);
    }

    public static JsonObject object(JsonElement json) {
        return obj(json, "free JSON object");
    }

    /** A null result: nothing to read. */
    public static Void none(JsonElement json) {
        return json == null || json.isJsonNull() ? null : fail("null", json);
    }

    public static <T> T nullable(JsonElement json, Function<JsonElement, T> decode) {
        return json == null || json.isJsonNull() ? null : decode.apply(json);
    }

    public static <T> List<T> list(JsonElement json, Function<JsonElement, T> decode) {
        if (!json.isJsonArray()) {
            return fail("an array", json);
        }
        List<T> out = new ArrayList<>();
        for (JsonElement item : json.getAsJsonArray()) {
            out.add(decode.apply(item));
        }
        return out;
    }

    /** A JSON object of values of one type, in the order written. */
    public static <T> Map<String, T> map(JsonElement json, Function<JsonElement, T> decode) {
        Map<String, T> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> entry : obj(json, "map").entrySet()) {
            out.put(entry.getKey(), decode.apply(entry.getValue()));
        }
        return out;
    }

    /** A plain value as JSON: null is JSON null, a JsonElement stays itself. */
    public static JsonElement json(Object value) {
        if (value == null) {
            return JsonNull.INSTANCE;
        }
        if (value instanceof JsonElement) {
            return (JsonElement) value;
        }
        if (value instanceof String) {
            return new JsonPrimitive((String) value);
        }
        if (value instanceof Boolean) {
            return new JsonPrimitive((Boolean) value);
        }
        if (value instanceof Number) {
            return new JsonPrimitive((Number) value);
        }
        throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
    }

    public static <T> JsonElement nullOr(T value, Function<T, JsonElement> encode) {
        return value == null ? JsonNull.INSTANCE : encode.apply(value);
    }

    public static <T> JsonArray array(List<T> values, Function<T, JsonElement> encode) {
        JsonArray out = new JsonArray();
        for (T value : values) {
            out.add(encode.apply(value));
        }
        return out;
    }

    public static <T> JsonObject object(Map<String, T> values, Function<T, JsonElement> encode) {
        JsonObject out = new JsonObject();
        for (Map.Entry<String, T> entry : values.entrySet()) {
            out.add(entry.getKey(), encode.apply(entry.getValue()));
        }
        return out;
    }

    /** The members of {@code object} a model does not name, for it to write back. */
    public static JsonObject extra(JsonObject object, Set<String> known) {
        JsonObject out = new JsonObject();
        for (Map.Entry<String, JsonElement> entry : object.entrySet()) {
            if (!known.contains(entry.getKey())) {
                out.add(entry.getKey(), entry.getValue().deepCopy());
            }
        }
        return out;
    }

    public static void addAll(JsonObject target, JsonObject extra) {
        for (Map.Entry<String, JsonElement> entry : extra.entrySet()) {
            target.add(entry.getKey(), entry.getValue().deepCopy());
        }
    }

    public static Set<String> keys(String... names) {
        return Collections.unmodifiableSet(new HashSet<>(Arrays.asList(names)));
    }

    /** True when a tagged union's tag is the JSON value {@code value}. */
    public static boolean is(JsonElement tag, Object value) {
        return tag != null && tag.equals(json(value instanceof Integer ? Long.valueOf((Integer) value) : value));
    }

    private static JsonPrimitive primitive(JsonElement json, String expected) {
        if (json == null || !json.isJsonPrimitive()) {
            fail(expected, json);
        }
        return json.getAsJsonPrimitive();
    }

    private static <T> T fail(String expected, JsonElement json) {
        throw new IllegalArgumentException("expected " + expected + ", got " + json);
    }
}
