package dev.paywire;

import com.google.gson.JsonObject;

/**
 * Receives a client's events, {@code {"event": "<name>", "seq": N, ...}}, in seq order, one at a
 * time, on a thread the library owns (never inside a call of yours). It may call
 * {@link Client#call} and {@link Client#callAsync}; it must not close the client or replace the
 * handler. On Android, post to the main looper before touching views.
 */
@FunctionalInterface
public interface EventHandler {
    void onEvent(JsonObject event);
}
