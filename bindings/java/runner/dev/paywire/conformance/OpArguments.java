package dev.paywire.conformance;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.paywire.Json;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The string arguments of an op, as bytes for the library (tests/conformance/README.md):
 * {@code <key>_text} verbatim, {@code <key>_hex} raw bytes (possibly invalid UTF-8),
 * {@code <key>_repeat} for huge inputs, or {@code <key>} (a method name as is, a JSON value as
 * JSON); absent or null is a NULL pointer. Decoding follows the C runner exactly: a bad hex
 * digit becomes '?', and bytes after a NUL never reach the library.
 */
final class OpArguments {
    private OpArguments() {
    }

    /** The bytes of argument {@code key}, or null for a NULL pointer. */
    static byte[] bytes(JsonObject op, String key, boolean valueIsJson) {
        JsonElement text = op.get(key + "_text");
        if (isString(text)) {
            return text.getAsString().getBytes(StandardCharsets.UTF_8);
        }
        JsonElement hex = op.get(key + "_hex");
        if (isString(hex)) {
            return fromHex(hex.getAsString());
        }
        JsonElement repeat = op.get(key + "_repeat");
        if (repeat != null && repeat.isJsonObject()) {
            return repeated(repeat.getAsJsonObject());
        }
        JsonElement value = op.get(key);
        if (value == null || value.isJsonNull()) {
            return null;
        }
        if (!valueIsJson && isString(value)) {
            return value.getAsString().getBytes(StandardCharsets.UTF_8);
        }
        return Json.write(value).getBytes(StandardCharsets.UTF_8);
    }

    static String string(JsonObject op, String key) {
        JsonElement value = op.get(key);
        return isString(value) ? value.getAsString() : null;
    }

    static long integer(JsonObject op, String key) {
        JsonElement value = op.get(key);
        return value != null && value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber() ? value.getAsLong() : 0;
    }

    /** True only for JSON true, as the C runner's json_is_true. */
    static boolean isTrue(JsonObject op, String key) {
        JsonElement value = op.get(key);
        return value != null && value.isJsonPrimitive() && value.getAsJsonPrimitive().isBoolean() && value.getAsBoolean();
    }

    /** True only for JSON false, as the C runner's json_is_false. */
    static boolean isFalse(JsonObject op, String key) {
        JsonElement value = op.get(key);
        return value != null && value.isJsonPrimitive() && value.getAsJsonPrimitive().isBoolean() && !value.getAsBoolean();
    }

    private static boolean isString(JsonElement value) {
        return value != null && value.isJsonPrimitive() && value.getAsJsonPrimitive().isString();
    }

    private static byte[] fromHex(String hex) {
        int length = hex.length() / 2;
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            int high = hexValue(hex.charAt(2 * i));
            int low = hexValue(hex.charAt(2 * i + 1));
            bytes[i] = (byte) (high < 0 || low < 0 ? '?' : high << 4 | low);
        }
        return bytes;
    }

    /** ASCII hex digits only, as the C runner reads them. */
    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    private static byte[] repeated(JsonObject repeat) {
        String text = string(repeat, "text");
        long times = integer(repeat, "times");
        if (text == null || times < 0) {
            return null;
        }
        byte[] unit = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String prefix = string(repeat, "prefix");
        if (prefix != null) {
            out.writeBytes(prefix.getBytes(StandardCharsets.UTF_8));
        }
        for (long i = 0; i < times; i++) {
            out.write(unit, 0, unit.length);
        }
        String suffix = string(repeat, "suffix");
        if (suffix != null) {
            out.writeBytes(suffix.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
