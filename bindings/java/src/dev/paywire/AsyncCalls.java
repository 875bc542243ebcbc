package dev.paywire;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The futures of a client's typed async calls ({@code client.getPaywallAsync(...)}), built on
 * paywire_client_call_async: each call's {@code call_result} event completes its future.
 *
 * <p>Whoever sees that event completes it: the event handler when one is set (the event is not
 * passed on), {@link Client#poll} when the host polls, and otherwise a pump thread of this class
 * that polls only while such futures wait and no handler is set, so that
 * {@code client.getPaywallAsync(p).get()} completes with nothing else running. Other events the
 * pump takes are held, in order, for the host's next {@link Client#poll}.
 */
final class AsyncCalls {
    /** How long one pump poll waits, so that setting a handler stops the pump within this. */
    private static final int SLICE_MS = 50;

    private final Client client;
    private final Map<Long, CompletableFuture<JsonElement>> pending = new HashMap<>();
    private final Deque<JsonObject> held = new ArrayDeque<>();
    private boolean handlerSet;
    private Thread pump;

    AsyncCalls(Client client) {
        this.client = client;
    }

    /**
     * Queues the call and returns its future. A call the library refuses at once (BUSY: too many
     * answers not yet taken; CLOSED) gives a future that has already failed with that status, so
     * every future settles.
     */
    CompletableFuture<JsonElement> start(String method, String paramsJson) {
        CompletableFuture<JsonElement> future = new CompletableFuture<>();
        synchronized (this) {
            long callId;
            try {
                callId = client.callAsync(method, paramsJson);
            } catch (PaywireException refused) {
                future.completeExceptionally(refused);
                return future;
            }
            // Registered under the lock that offer() takes: a fast call_result still finds its future
            // (paywire_client_call_async only queues, it never waits for a handler).
            pending.put(callId, future);
            if (!handlerSet && pump == null) {
                pump = new Thread(this::run, "paywire-async-calls");
                pump.setDaemon(true);
                pump.start();
            }
        }
        return future;
    }

    /** True when {@code event} was the call_result of a typed async call: it completed that future. */
    boolean offer(JsonObject event) {
        JsonElement name = event.get("event");
        JsonElement id = event.get("call_id");
        if (name == null || !"call_result".equals(name.getAsString()) || id == null) {
            return false;
        }
        CompletableFuture<JsonElement> future;
        synchronized (this) {
            future = pending.remove(id.getAsLong());
        }
        if (future == null) {
            return false;
        }
        try {
            future.complete(Client.resultOf(event));
        } catch (RuntimeException error) {
            future.completeExceptionally(error);
        }
        return true;
    }

    /** An event the pump took that was not a typed call's: the host's poll returns it first. */
    synchronized JsonObject takeHeld() {
        return held.pollFirst();
    }

    /** With a handler set, the handler completes the futures and the pump stops. */
    synchronized void handlerSet(boolean set) {
        handlerSet = set;
    }

    /** Fails every waiting future (the client was closed: no call_result will come). */
    void failAll(RuntimeException error) {
        Map<Long, CompletableFuture<JsonElement>> failed;
        synchronized (this) {
            failed = new HashMap<>(pending);
            pending.clear();
        }
        failed.values().forEach(future -> future.completeExceptionally(error));
    }

    private void run() {
        while (true) {
            synchronized (this) {
                if (pending.isEmpty() || handlerSet) {
                    pump = null;
                    return;
                }
            }
            JsonObject event;
            try {
                event = client.pollLibrary(SLICE_MS);
            } catch (PaywireException error) {
                synchronized (this) {
                    if (handlerSet) {
                        continue;  // a handler was set while this poll waited: the handler answers now
                    }
                }
                failAll(error);  // closed: no call_result will come
                continue;
            }
            if (event != null && !offer(event)) {
                synchronized (this) {
                    held.addLast(event);
                }
            }
        }
    }
}
