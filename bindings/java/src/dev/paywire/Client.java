package dev.paywire;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import dev.paywire.model.Event;
import dev.paywire.model.Events;
import dev.paywire.model.Schema;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One Paywire client.
 *
 * <pre>{@code
 * try (Client client = new Client("{\"fallback\": {\"path\": \"examples/bundle.json\"}}")) {
 *     Paywall paywall = client.getPaywall(new GetPaywallParams().withPlacementId("onboarding"));
 * }
 * }</pre>
 *
 * Every wire method is a typed method ({@link TypedMethods}, generated from the wire schema), with
 * an {@code ...Async} twin returning a CompletableFuture; {@link #call} is the raw contract.
 *
 * Every method may be called from any thread; the library serializes a client's calls. Results
 * are gson trees whose numbers keep the text the library wrote (a price of 9.99 stays 9.99).
 * Close the client when done (try-with-resources). There is no finalizer or cleaner: a client
 * whose handler refers to it stays reachable through that handler anyway, so freeing on garbage
 * collection could not be relied on, and the point where events stop should be the host's choice.
 */
public final class Client extends TypedMethods implements AutoCloseable {
    /** The client whose handler the current thread is running, to refuse close() from inside it. */
    private static final ThreadLocal<Client> DELIVERING = new ThreadLocal<>();

    private final Abi.Library library;
    private final AtomicReference<Pointer> handle;
    private final AsyncCalls calls = new AsyncCalls(this);

    /** A client with the default config ({@code {}}). */
    public Client() {
        this((String) null);
    }

    /** A client configured by {@code config} (README "Client config"). */
    public Client(JsonObject config) {
        this(config == null ? null : Json.write(config));
    }

    /** A client configured by JSON text, passed to the library byte for byte; null means {}. */
    public Client(String configJson) {
        library = Abi.library();
        try (Memory config = Abi.cString(configJson); Memory client = Abi.outSlot(); Memory out = Abi.outSlot()) {
            int status = library.paywire_client_new(config, client, out);
            unwrap(status, Abi.takeString(out));
            handle = new AtomicReference<>(client.getPointer(0));
        }
        refuseAnotherSchema();
    }

    /**
     * The typed layer was generated from one schema version: a library of the same MAJOR and a
     * MINOR at least the binding's only adds what the tolerant models keep; any other is refused
     * here, naming both versions.
     */
    private void refuseAnotherSchema() {
        JsonElement said = call("get_sdk_version").getAsJsonObject().get("schema_version");
        PaywireException refused = schemaMismatch(said == null || !said.isJsonPrimitive() ? null : said.getAsString(), Schema.VERSION);
        if (refused != null) {
            close();
            throw refused;
        }
    }

    /**
     * Null when a library whose schema is {@code library} (MAJOR.MINOR; null when it says none) can
     * serve a binding generated from {@code binding}: the same MAJOR, a MINOR at least the
     * binding's. Else the VERSION_MISMATCH error naming both.
     */
    static PaywireException schemaMismatch(String library, String binding) {
        long[] theirs = majorMinor(library);
        long[] ours = majorMinor(binding);
        if (theirs != null && ours != null && theirs[0] == ours[0] && theirs[1] >= ours[1]) {
            return null;
        }
        JsonObject details = new JsonObject();
        details.addProperty("library_schema_version", library);
        details.addProperty("binding_schema_version", binding);
        return new PaywireException(Status.VERSION_MISMATCH, "schema_mismatch", "libpaywire speaks wire schema " + library
                + ", this binding was generated from " + binding + ": it needs the same MAJOR and a MINOR at least "
                + binding + " (use the binding of the library's release)", details);
    }

    private static long[] majorMinor(String text) {
        if (text == null || !text.matches("[0-9]{1,9}\\.[0-9]{1,9}")) {
            return null;
        }
        String[] parts = text.split("\\.");
        return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
    }

    /** The loaded library's ABI version (equal to {@link Abi#ABI_VERSION}: checked at load). */
    public static int abiVersion() {
        return Abi.library().paywire_abi_version();
    }

    /** The loaded library's version, e.g. "0.2.0". */
    public static String version() {
        return Abi.staticString(Abi.library().paywire_version());
    }

    /** Calls a method with no params. */
    public JsonElement call(String method) {
        return call(method, (String) null);
    }

    /** Calls a method; params is a gson tree (null means {}). */
    public JsonElement call(String method, JsonElement params) {
        return call(method, params == null ? null : Json.write(params));
    }

    /**
     * Calls a method and returns its result ({@link JsonNull} for a null result); throws
     * {@link PaywireException} with the wire error code when the call fails.
     */
    public JsonElement call(String method, String paramsJson) {
        Objects.requireNonNull(method, "method");
        try (Memory name = Abi.cString(method); Memory params = Abi.cString(paramsJson); Memory out = Abi.outSlot()) {
            int status = library.paywire_client_call(live(), name, params, out);
            return unwrap(status, Abi.takeString(out));
        }
    }

    @Override
    JsonElement callTyped(String method, JsonElement params) {
        return call(method, params);
    }

    @Override
    CompletableFuture<JsonElement> callTypedAsync(String method, JsonElement params) {
        return calls.start(method, Json.write(params));
    }

    /** Queues a method with no params. */
    public long callAsync(String method) {
        return callAsync(method, (String) null);
    }

    /** Queues a method; params is a gson tree (null means {}). */
    public long callAsync(String method, JsonElement params) {
        return callAsync(method, params == null ? null : Json.write(params));
    }

    /**
     * Queues a method and returns at once with its call id; the result arrives as a
     * {@code call_result} event carrying that id (see {@link #resultOf} and {@link #waitFor}).
     */
    public long callAsync(String method, String paramsJson) {
        Objects.requireNonNull(method, "method");
        try (Memory name = Abi.cString(method); Memory params = Abi.cString(paramsJson); Memory callId = Abi.outSlot()) {
            int status = library.paywire_client_call_async(live(), name, params, callId);
            if (status != Status.OK.code()) {
                throw PaywireException.fromStatus(Status.of(status), "callAsync");
            }
            return callId.getLong(0);
        }
    }

    /**
     * The next event, or null when none came within {@code timeoutMillis} (0 returns at once).
     * Only without a handler; throws {@link PaywireException} ({@code closed} when the client is
     * closed while waiting).
     */
    public JsonObject poll(long timeoutMillis) {
        JsonObject held = calls.takeHeld();
        if (held != null) {
            return held;
        }
        long deadline = System.nanoTime() + Math.max(0, timeoutMillis) * 1_000_000L;
        while (true) {
            JsonObject event = pollLibrary(timeoutMillis);
            if (event == null || !calls.offer(event)) {
                return event;  // a typed async call's call_result completed its future instead
            }
            timeoutMillis = Math.max(0, (deadline - System.nanoTime()) / 1_000_000L);
        }
    }

    /** The next typed event ({@link Events#parse}), or null when none came within the timeout. */
    public Event pollEvent(long timeoutMillis) {
        JsonObject event = poll(timeoutMillis);
        return event == null ? null : Events.parse(event);
    }

    /** The library's next event, as it came. */
    JsonObject pollLibrary(long timeoutMillis) {
        int timeout = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, timeoutMillis));
        int status;
        String text;
        try (Memory out = Abi.outSlot()) {
            status = library.paywire_client_poll(live(), timeout, out);
            text = Abi.takeString(out);
        }
        if (status == Status.OK.code()) {
            return parse(text).getAsJsonObject();
        }
        if (status == Status.TIMEOUT.code()) {
            return null;
        }
        unwrap(status, text);
        throw new PaywireException(Status.of(status), Status.of(status).wireCode(), "poll failed", null);
    }

    /**
     * Polls until the {@code call_result} of {@code callId} arrives and returns its result (or
     * throws its error). Other events seen meanwhile are added to {@code others} when it is not null.
     */
    public JsonElement waitFor(long callId, long timeoutMillis, List<JsonObject> others) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        for (long left = timeoutMillis; left >= 0; left = (deadline - System.nanoTime()) / 1_000_000L) {
            JsonObject event = poll(left);
            if (event == null) {
                continue;
            }
            JsonElement id = event.get("call_id");
            if ("call_result".equals(stringOf(event.get("event"))) && id != null && id.getAsLong() == callId) {
                return resultOf(event);
            }
            if (others != null) {
                others.add(event);
            }
        }
        throw new PaywireException(Status.TIMEOUT, "timeout", "no call_result for call " + callId
                + " within " + timeoutMillis + " ms", null);
    }

    /** The result a {@code call_result} event carries, or its error thrown as an exception. */
    public static JsonElement resultOf(JsonObject callResult) {
        JsonElement envelope = callResult.get("envelope");
        JsonElement status = callResult.get("status");
        return unwrapEnvelope(status == null ? Status.FAILED.code() : status.getAsInt(),
                envelope == null ? JsonNull.INSTANCE : envelope);
    }

    /**
     * Sets or replaces the event handler; null returns to polling. The replaced handler receives
     * no event after this returns. Events already queued go to the new handler.
     */
    public void setEventHandler(EventHandler handler) {
        Pointer client = live();
        if (handler == null) {
            check(library.paywire_client_set_event_handler(client, null, null, null), "setEventHandler");
            calls.handlerSet(false);
            return;
        }
        calls.handlerSet(true);
        Pointer token = NativeHandlers.register(new NativeHandlers.Handler() {
            @Override
            public void onEvent(String eventJson) {
                DELIVERING.set(Client.this);
                try {
                    JsonObject event = parse(eventJson).getAsJsonObject();
                    if (calls.offer(event)) {
                        return;  // a typed async call's result: its future has it
                    }
                    handler.onEvent(event);
                } finally {
                    DELIVERING.remove();
                }
            }

            @Override
            public void onRelease() {
            }
        });
        int status = library.paywire_client_set_event_handler(client, NativeHandlers.EVENTS, token, NativeHandlers.RELEASE);
        if (status != Status.OK.code()) {
            NativeHandlers.unregister(token);
            calls.handlerSet(false);
            check(status, "setEventHandler");
        }
    }

    /** {@link #setEventHandler} with each event parsed into its model ({@link Events#parse}). */
    public void setTypedEventHandler(Consumer<Event> handler) {
        setEventHandler(handler == null ? null : event -> handler.accept(Events.parse(event)));
    }

    /**
     * Frees the client: waits for a call in progress, releases the handler, and returns once no
     * callback can run. Later calls throw {@code closed}. Safe to call twice; not from inside
     * this client's own handler (that would wait for itself).
     */
    @Override
    public void close() {
        if (DELIVERING.get() == this) {
            throw new IllegalStateException("a client cannot be closed from inside its own event handler");
        }
        Pointer client = handle.getAndSet(null);
        if (client != null) {
            library.paywire_client_free(client);
            calls.failAll(new PaywireException(Status.CLOSED, "closed", "the client was closed", null));
        }
    }

    private Pointer live() {
        Pointer client = handle.get();
        if (client == null) {
            throw new PaywireException(Status.CLOSED, "closed", "the client is closed", null);
        }
        return client;
    }

    private static void check(int status, String what) {
        if (status != Status.OK.code()) {
            throw PaywireException.fromStatus(Status.of(status), what);
        }
    }

    /** The success of an envelope text, or its error thrown; OutOfMemoryError for no envelope. */
    private static JsonElement unwrap(int status, String envelopeText) {
        if (envelopeText == null) {
            throw new OutOfMemoryError("libpaywire could not allocate the result (status " + Status.of(status) + ")");
        }
        return unwrapEnvelope(status, parse(envelopeText));
    }

    private static JsonElement unwrapEnvelope(int status, JsonElement envelope) {
        if (!envelope.isJsonObject()) {
            throw new PaywireException(Status.INTERNAL, "internal", "not an envelope: " + envelope, null);
        }
        JsonObject object = envelope.getAsJsonObject();
        JsonElement error = object.get("error");
        if (error != null && error.isJsonObject()) {
            throw PaywireException.fromError(Status.of(status), error.getAsJsonObject());
        }
        JsonElement success = object.get("success");
        Warnings.report(success);
        return success == null ? JsonNull.INSTANCE : success;
    }

    private static JsonElement parse(String text) {
        try {
            return Json.parse(text);
        } catch (JsonParseException error) {
            throw new PaywireException(Status.INTERNAL, "internal", "libpaywire returned text that is not JSON", null);
        }
    }

    private static String stringOf(JsonElement value) {
        return value != null && value.isJsonPrimitive() ? value.getAsString() : null;
    }
}
