package dev.paywire;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * What a success says went otherwise than asked, logged as a warning so a developer sees it
 * without reading events: {@code paywire_client_new}'s {@code warnings} (config keys the library
 * ignored), and the {@code source} and {@code backend_error} of a paywall served from the device
 * because the backend refused the credentials. Logged through {@link System.Logger} "dev.paywire"
 * (java.util.logging's console by default: stderr), which an app may route or silence.
 */
final class Warnings {
    private static final System.Logger LOG = System.getLogger("dev.paywire");

    private Warnings() {
    }

    static void report(JsonElement success) {
        if (success == null || !success.isJsonObject()) {
            return;
        }
        JsonObject result = success.getAsJsonObject();
        JsonElement warnings = result.get("warnings");
        if (warnings != null && warnings.isJsonArray()) {
            for (JsonElement warning : warnings.getAsJsonArray()) {
                if (warning.isJsonObject() && warning.getAsJsonObject().has("message")) {
                    LOG.log(System.Logger.Level.WARNING, "paywire: " + warning.getAsJsonObject().get("message").getAsString());
                }
            }
        }
        JsonElement refusal = result.get("backend_error");
        JsonElement source = result.get("source");
        if (refusal != null && refusal.isJsonObject() && source != null && source.isJsonPrimitive()) {
            JsonObject error = refusal.getAsJsonObject();
            JsonElement code = error.get("code");
            String from = "fallback".equals(source.getAsString()) ? "fallback bundle" : source.getAsString();
            LOG.log(System.Logger.Level.WARNING, "paywire: the backend refused the request (HTTP " + error.get("status") + ", "
                    + (code != null && code.isJsonPrimitive() ? code.getAsString() : "no code") + "): this paywall came from the "
                    + from + "; check the api_key");
        }
    }
}
