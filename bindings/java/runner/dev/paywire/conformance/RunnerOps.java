package dev.paywire.conformance;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.paywire.Abi;
import dev.paywire.Json;
import dev.paywire.NativeHandlers;
import dev.paywire.model.Event;
import dev.paywire.model.Events;
import dev.paywire.model.Results;
import dev.paywire.model.UnknownEvent;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The primitive ops of tests/conformance/README.md, op for op as the C runner
 * (Sources/paywire-harness/harness.c) runs them, through the binding's {@link Abi} layer.
 */
final class RunnerOps {
    /** A client made by client_new, under the name the case gave it. */
    private static final class NamedClient {
        Pointer client;
        boolean freed;
        final Inbox inbox = new Inbox();
    }

    private final Abi.Library library = Abi.library();
    private final Map<String, NamedClient> clients = new LinkedHashMap<>();
    /** A real address that is not a client ("made_up_heap"). */
    private final Memory madeUpObject = new Memory(64);

    JsonObject run(JsonObject op) throws InterruptedException {
        String kind = OpArguments.string(op, "op");
        if (kind == null) {
            return runnerError("op is missing");
        }
        switch (kind) {
            case "hello": return hello();
            case "client_new": return clientNew(op);
            case "call":
            case "call_raw": return call(op);
            case "call_async": return callAsync(op);
            case "poll": return poll(resolve(OpArguments.string(op, "client")), op);
            case "poll_while_freeing": return pollWhileFreeing(op);
            case "set_event_handler": return setEventHandler(op);
            case "drain_events": return drainEvents(op);
            case "client_free": return clientFree(op);
            case "string_free_null":
                library.paywire_string_free(null);
                return new JsonObject();
            case "decode": return decode(op);
            default:
                JsonObject reply = runnerError("unknown op");
                reply.addProperty("op", kind);
                return reply;
        }
    }

    /**
     * Reads a library's JSON (a result of {@code method}, or an event) into the typed models and
     * writes it back (tests/conformance/future.py: what a newer library may write).
     */
    private static JsonObject decode(JsonObject op) {
        JsonElement data = Json.parse(OpArguments.string(op, "json_text"));
        JsonObject reply = new JsonObject();
        if ("event".equals(OpArguments.string(op, "kind"))) {
            Event event = Events.parse(data);
            reply.addProperty("decoded_text", Json.write(event.toJson()));
            reply.addProperty("event_type", event instanceof UnknownEvent ? "unknown" : "known");
            return reply;
        }
        UnaryOperator<JsonElement> roundTrip = Results.RESULT_ROUND_TRIP.get(OpArguments.string(op, "method"));
        if (roundTrip == null) {
            return runnerError("no typed result for this method");
        }
        reply.addProperty("decoded_text", Json.write(roundTrip.apply(data)));
        return reply;
    }

    /** Frees every client a case left live, as a host must before it exits. */
    void freeLiveClients() {
        for (NamedClient named : clients.values()) {
            if (!named.freed) {
                library.paywire_client_free(named.client);
                named.freed = true;
            }
        }
    }

    private JsonObject hello() {
        JsonObject names = new JsonObject();
        for (int status = -13; status <= 1; status++) {
            names.addProperty(Integer.toString(status), Abi.statusName(status));
        }
        JsonObject reply = new JsonObject();
        reply.addProperty("runner", "java");
        reply.addProperty("abi_version", library.paywire_abi_version());
        reply.addProperty("version", Abi.staticString(library.paywire_version()));
        reply.addProperty("header_abi_version", Abi.ABI_VERSION);
        reply.add("status_names", names);
        return reply;
    }

    private JsonObject clientNew(JsonObject op) {
        String name = OpArguments.string(op, "client");
        name = name == null ? "main" : name;
        JsonObject reply;
        Pointer made;
        try (Memory config = Abi.cString(OpArguments.bytes(op, "config", true));
             Memory client = Abi.outSlot(); Memory out = Abi.outSlot()) {
            int status = library.paywire_client_new(config, OpArguments.isTrue(op, "null_out_client") ? null : client, out);
            reply = result(status, out, "envelope");
            made = client.getPointer(0);
        }
        reply.addProperty("client_set", made != null);
        if (made != null) {
            NamedClient named = clients.computeIfAbsent(name, key -> new NamedClient());
            named.client = made;
            named.freed = false;
            named.inbox.resetFrees();
        }
        return reply;
    }

    /** call and call_raw: call_raw's arguments come as *_hex bytes, which may be invalid UTF-8. */
    private JsonObject call(JsonObject op) {
        try (Memory method = Abi.cString(OpArguments.bytes(op, "method", false));
             Memory params = Abi.cString(OpArguments.bytes(op, "params", true)); Memory out = Abi.outSlot()) {
            int status = library.paywire_client_call(resolve(OpArguments.string(op, "client")), method, params,
                    OpArguments.isTrue(op, "null_out_json") ? null : out);
            return result(status, out, "envelope");
        }
    }

    private JsonObject callAsync(JsonObject op) {
        try (Memory method = Abi.cString(OpArguments.bytes(op, "method", false));
             Memory params = Abi.cString(OpArguments.bytes(op, "params", true)); Memory callId = Abi.outSlot()) {
            int status = library.paywire_client_call_async(resolve(OpArguments.string(op, "client")), method, params,
                    OpArguments.isTrue(op, "null_out_call_id") ? null : callId);
            JsonObject reply = statusReply(status);
            reply.addProperty("call_id", new BigInteger(Long.toUnsignedString(callId.getLong(0))));
            return reply;
        }
    }

    private JsonObject poll(Pointer client, JsonObject op) {
        try (Memory out = Abi.outSlot()) {
            int status = library.paywire_client_poll(client, (int) OpArguments.integer(op, "timeout_ms"), out);
            return result(status, out, status == 0 ? "event" : "envelope");
        }
    }

    /** Blocks in poll while another thread frees the client: the poll must return CLOSED. */
    private JsonObject pollWhileFreeing(JsonObject op) throws InterruptedException {
        NamedClient named = clients.get(OpArguments.string(op, "client"));
        if (named == null) {
            return runnerError("unknown client");
        }
        long delay = OpArguments.integer(op, "free_after_ms");
        Pointer client = named.client;
        Thread freer = new Thread(() -> {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
            library.paywire_client_free(client);
        }, "paywire-runner-free");
        freer.start();
        JsonObject reply = poll(client, op);
        freer.join();
        named.freed = true;
        return reply;
    }

    private JsonObject setEventHandler(JsonObject op) {
        String name = OpArguments.string(op, "client");
        NamedClient named = name == null ? null : clients.get(name);
        Pointer client = resolve(name);
        boolean enabled = !OpArguments.isFalse(op, "enabled");
        int status;
        if (named != null && enabled) {
            Pointer token = NativeHandlers.register(named.inbox);
            status = library.paywire_client_set_event_handler(client, NativeHandlers.EVENTS, token, NativeHandlers.RELEASE);
            if (status != 0) {
                NativeHandlers.unregister(token);
            }
        } else {
            status = library.paywire_client_set_event_handler(client, enabled ? NativeHandlers.EVENTS : null, null, null);
        }
        return statusReply(status);
    }

    private JsonObject drainEvents(JsonObject op) throws InterruptedException {
        String name = OpArguments.string(op, "client");
        NamedClient named = name == null ? null : clients.get(name);
        if (named == null) {
            return runnerError("unknown client");
        }
        return named.inbox.drain(OpArguments.integer(op, "count"), OpArguments.integer(op, "timeout_ms"));
    }

    private JsonObject clientFree(JsonObject op) {
        String name = OpArguments.string(op, "client");
        NamedClient named = name == null ? null : clients.get(name);
        library.paywire_client_free(resolve(name));
        JsonObject reply = new JsonObject();
        if (named != null) {
            named.freed = true;
            reply.addProperty("user_data_frees", named.inbox.frees());
        }
        return reply;
    }

    /**
     * Client references: a name from client_new, "null", "made_up" (a small integer as a pointer),
     * "made_up_heap" (a real address that is not a client), or "freed:NAME" (a stale pointer).
     */
    private Pointer resolve(String reference) {
        if (reference == null || reference.equals("null")) {
            return null;
        }
        if (reference.equals("made_up")) {
            return new Pointer(0x1234);
        }
        if (reference.equals("made_up_heap")) {
            return madeUpObject;
        }
        String name = reference.startsWith("freed:") ? reference.substring(6) : reference;
        NamedClient named = clients.get(name);
        return named == null ? null : named.client;
    }

    /** status, status_name, the parsed out string under {@code key} (or unparseable), and raw. */
    private JsonObject result(int status, Memory out, String key) {
        JsonObject reply = statusReply(status);
        String text = Abi.takeString(out);
        if (text == null) {
            reply.add(key, null);
            return reply;
        }
        try {
            reply.add(key, Json.parse(text));
        } catch (JsonParseException error) {
            reply.addProperty("unparseable", text);
        }
        // The exact text too: the kit checks that amounts leave the library as written.
        reply.addProperty("raw", text);
        return reply;
    }

    private JsonObject statusReply(int status) {
        JsonObject reply = new JsonObject();
        reply.addProperty("status", status);
        reply.addProperty("status_name", Abi.statusName(status));
        return reply;
    }

    static JsonObject runnerError(String message) {
        JsonObject reply = new JsonObject();
        reply.addProperty("runner_error", message);
        return reply;
    }
}
