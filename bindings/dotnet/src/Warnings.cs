using System;
using System.Json;

namespace Paywire
{
    /// <summary>
    /// What a success says went otherwise than asked, told to the developer without events:
    /// paywire_client_new's <c>warnings</c> (config keys the library ignored), and the
    /// <c>source</c> and <c>backend_error</c> of a paywall served from the device because the
    /// backend refused the credentials. Each goes to <see cref="Handler"/>, which writes it to
    /// standard error unless the app replaces it (with its logger, or a no-op).
    /// </summary>
    public static class Warnings
    {
        /// <summary>Receives each warning's text; standard error by default.</summary>
        public static Action<string> Handler = message => Console.Error.WriteLine("paywire: warning: " + message);

        internal static void Report(JsonValue success)
        {
            var result = success as JsonObject;
            if (result == null) return;
            JsonValue member;
            if (result.TryGetValue("warnings", out member) && member is JsonArray)
            {
                foreach (JsonValue warning in (JsonArray)member)
                {
                    JsonValue message;
                    var entry = warning as JsonObject;
                    if (entry != null && entry.TryGetValue("message", out message) && message != null && message.JsonType == JsonType.String)
                        Tell((string)message);
                }
            }
            JsonValue source;
            if (result.TryGetValue("backend_error", out member) && member is JsonObject && result.TryGetValue("source", out source)
                && source != null && source.JsonType == JsonType.String)
            {
                var error = (JsonObject)member;
                JsonValue status, code;
                error.TryGetValue("status", out status);
                error.TryGetValue("code", out code);
                string codeText = code != null && code.JsonType == JsonType.String ? (string)code : "no code";
                string from = (string)source == "fallback" ? "fallback bundle" : (string)source;
                string statusText = status != null ? status.ToString() : "?";
                Tell("the backend refused the request (HTTP " + statusText + ", " + codeText + "): this paywall came from the " + from
                     + "; check the api_key");
            }
        }

        private static void Tell(string message)
        {
            var handler = Handler;
            if (handler != null) handler(message);
        }
    }
}
