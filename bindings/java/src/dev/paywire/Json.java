package dev.paywire;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

import java.io.IOException;
import java.io.StringReader;

/**
 * Strict JSON through gson. {@code JsonParser.parseString} is lenient (it accepts single quotes,
 * bare words, trailing text), which would hide a malformed envelope; this reads with a strict
 * {@link JsonReader} and requires the text to end after one value. gson keeps each number as the
 * text it read ({@code LazilyParsedNumber}) and writes it back unchanged, so 59.99 stays 59.99 and
 * a 30-digit integer survives a round trip.
 */
public final class Json {
    private static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping().create();
    private static final TypeAdapter<JsonElement> ELEMENTS = GSON.getAdapter(JsonElement.class);

    private Json() {
    }

    /** Parses exactly one JSON value; throws {@link JsonParseException} for anything else. */
    public static JsonElement parse(String text) {
        try {
            JsonReader reader = new JsonReader(new StringReader(text));
            reader.setLenient(false);
            JsonElement value = ELEMENTS.read(reader);
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw new JsonParseException("text after the JSON value");
            }
            return value;
        } catch (IOException | IllegalStateException | NumberFormatException error) {
            throw new JsonParseException(error.getMessage(), error);
        }
    }

    /** Compact JSON, nulls kept, no HTML escaping (the text is data, not markup). */
    public static String write(JsonElement value) {
        return GSON.toJson(value);
    }
}
