package dev.paywire;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * A failed call. {@link #code()} is the wire error code ({@code not_found}, {@code wrong_param},
 * ...), the value hosts switch on; {@link #status()} is the ABI status that came with it;
 * {@link #details()} carries {@code field}, {@code underlying_error} and the like. The message is
 * for people and may change.
 */
public final class PaywireException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Status status;
    private final String code;
    private final transient JsonObject details;

    public PaywireException(Status status, String code, String message, JsonObject details) {
        super(code + ": " + message);
        this.status = status;
        this.code = code;
        this.details = details == null ? new JsonObject() : details;
    }

    /** The exception for an envelope's {@code error} object, with the status returned beside it. */
    static PaywireException fromError(Status status, JsonObject error) {
        return new PaywireException(status, stringMember(error, "code", status.wireCode()),
                stringMember(error, "message", ""), objectMember(error, "details"));
    }

    /** The exception for a status that came without an envelope (a refused callAsync). */
    static PaywireException fromStatus(Status status, String what) {
        String reason = status == Status.BUSY
                ? ": the client already owes the host async_call_limit call_results it has not taken (wait for the calls already made, then retry)"
                : "";
        return new PaywireException(status, status.wireCode(), what + " refused: " + status.name() + reason, null);
    }

    /** The wire error code, from the closed list in schema/paywire.schema.json. */
    public String code() {
        return code;
    }

    /** The ABI status returned with the error. */
    public Status status() {
        return status;
    }

    /** {@code error.details}; an empty object when there were none. */
    public JsonObject details() {
        return details;
    }

    private static String stringMember(JsonObject object, String key, String fallback) {
        JsonElement value = object.get(key);
        return value != null && value.isJsonPrimitive() ? value.getAsString() : fallback;
    }

    private static JsonObject objectMember(JsonObject object, String key) {
        JsonElement value = object.get(key);
        return value != null && value.isJsonObject() ? value.getAsJsonObject() : null;
    }
}
