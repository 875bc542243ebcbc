package dev.paywire.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import dev.paywire.Json;
import dev.paywire.NativeHandlers;

/**
 * The events a named client's handler received, waiting for {@code drain_events}, and how many
 * times the library released one of its handlers ({@code user_data_frees}). Every handler set on
 * the client is registered with this inbox through the binding's {@link NativeHandlers}, so the
 * vectors exercise the same callback path as {@link dev.paywire.Client}.
 */
final class Inbox implements NativeHandlers.Handler {
    private JsonArray events = new JsonArray();
    private int frees;

    @Override
    public synchronized void onEvent(String eventJson) {
        JsonElement event;
        try {
            event = Json.parse(eventJson);
        } catch (JsonParseException error) {
            JsonObject unparseable = new JsonObject();
            unparseable.addProperty("unparseable_event", eventJson);
            event = unparseable;
        }
        events.add(event);
        notifyAll();
    }

    @Override
    public synchronized void onRelease() {
        frees++;
    }

    /** A new client under the same name counts its own releases, as the C runner does. */
    synchronized void resetFrees() {
        frees = 0;
    }

    synchronized int frees() {
        return frees;
    }

    /** Waits until {@code count} events arrived or the timeout passed; takes all that came. */
    synchronized JsonObject drain(long count, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (events.size() < count) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        JsonObject reply = new JsonObject();
        reply.add("events", events);
        reply.addProperty("user_data_frees", frees);
        events = new JsonArray();
        return reply;
    }
}
